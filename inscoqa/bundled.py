"""The sample data shipped inside the package: conversations and the corpora they reference."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from inscoqa.corpus.document import Document
from inscoqa.corpus.index import CorpusIndex
from inscoqa.io import ConversationList, load_conversations
from inscoqa.records import Conversation

DATA_DIR = Path(__file__).resolve().parent / "data"
CONVERSATIONS_DIR = DATA_DIR / "conversations"
CORPORA_DIR = DATA_DIR / "corpora"
# Names that mean "every bundled conversation file".
ALL_NAMES = ("all", "sample")
HF_PREFIX = "hf:"


def conversation_files() -> dict[str, Path]:
    """Bundled conversation files by name (file stem), e.g. ``dev-officedocs``."""
    return {p.stem: p for p in sorted(CONVERSATIONS_DIR.glob("*.jsonl"))}


def corpus_roots() -> dict[str, Path]:
    """Bundled corpus directories by corpus name (``officedocs``, ``gnome-help``, ``based-cooking``)."""
    return {p.name: p for p in sorted(CORPORA_DIR.iterdir()) if p.is_dir()}


@cache
def corpus_index() -> CorpusIndex:
    """One shared index over the bundled corpora (documents are read once, on first use)."""
    return CorpusIndex(corpus_roots())


def _unknown_name(name: str) -> ValueError:
    names = ", ".join([*ALL_NAMES, *conversation_files()])
    return ValueError(f"unknown bundled dataset '{name}' (known: {names})")


def load_sample(name: str = "all") -> list[Conversation]:
    """Bundled conversations: one file by name, or every file for ``all``/``sample``."""
    files = conversation_files()
    if name in ALL_NAMES:
        convs: list[Conversation] = []
        for path in files.values():
            convs.extend(load_conversations(path))
        return convs
    if name not in files:
        raise _unknown_name(name)
    return list(load_conversations(files[name]))


def sample_documents() -> list[Document]:
    """Every document the bundled conversations reference, each once, in first-reference order."""
    index = corpus_index()
    seen: dict[str, Document] = {}
    for conv in load_sample():
        for doc in index.resolve(conv):
            seen.setdefault(doc.doc_id, doc)
    return list(seen.values())


def _load_hf(spec: str) -> list[Conversation]:
    from inscoqa.hf import load_from_disk

    target = spec[len(HF_PREFIX):]
    path, split = Path(target), None
    if not path.exists() and ":" in target:
        head, _, split = target.rpartition(":")
        path = Path(head)
    loaded = load_from_disk(path, split=split)
    if isinstance(loaded, dict):
        return [conv for convs in loaded.values() for conv in convs]
    return loaded


def resolve_dataset(spec: str | Path, *, skip_bad: bool = False) -> list[Conversation]:
    """Conversations from a dataset spec.

    ``spec`` is ``sample``/``all`` (every bundled file), a bundled name (``dev-officedocs``), a
    ``.jsonl``/``.json`` path, or ``hf:<dir>[:split]`` (a ``datasets`` dir saved with
    ``save_to_disk``; without a split, all splits in order).
    """
    text = str(spec)
    if text in ALL_NAMES or text in conversation_files():
        return load_sample(text)
    if text.startswith(HF_PREFIX):
        return _load_hf(text)
    path = Path(text)
    if path.is_file() and path.suffix.lower() in (".jsonl", ".json"):
        loaded: ConversationList = load_conversations(path, skip_bad=skip_bad)
        return loaded
    if path.is_dir() and any((path / n).exists() for n in ("dataset_dict.json", "dataset_info.json")):
        return _load_hf(HF_PREFIX + text)
    names = ", ".join([*ALL_NAMES, *conversation_files()])
    raise ValueError(f"cannot load dataset '{text}': expected one of {names}, a .jsonl/.json file, "
                     f"or hf:<saved datasets dir>[:split]")
