"""Conversations to and from Hugging Face ``datasets`` (an optional extra: ``pip install inscoqa[hf]``).

``datasets`` is imported inside the functions, so the rest of the package works without it.
Every row read back is validated with the conversation schema, like a line of a JSONL file.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from inscoqa.records import Conversation
from inscoqa.schema import validate_record

if TYPE_CHECKING:
    import datasets

FIELDS = ("id", "domain", "documents", "history", "question", "answer", "procedures", "evidence")


def _datasets() -> Any:
    try:
        import datasets
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError("Hugging Face conversion needs the 'datasets' package: "
                          "pip install 'inscoqa[hf]'") from exc
    return datasets


def features() -> datasets.Features:
    """Arrow column types of a conversation dataset (a document's ``text`` is null when referenced)."""
    ds = _datasets()
    string = ds.Value("string")
    return ds.Features({
        "id": string,
        "domain": string,
        "documents": ds.List({"doc_id": string, "title": string, "text": string}),
        "history": ds.List(ds.List(string)),
        "question": string,
        "answer": string,
        "procedures": ds.List(string),
        "evidence": ds.List(string),
    })


def _row(conv: Conversation) -> dict[str, Any]:
    row = conv.to_dict()
    row["documents"] = [{"doc_id": d.doc_id, "title": d.title, "text": d.text} for d in conv.documents]
    row["evidence"] = list(conv.evidence)
    return row


def _record(row: Mapping[str, Any]) -> dict[str, Any]:
    """A dataset row back to a schema record: null ``text`` and empty ``evidence`` are left out."""
    record = {k: row[k] for k in FIELDS if k in row}
    record["documents"] = [
        {k: v for k, v in doc.items() if not (k == "text" and v is None)} for doc in row.get("documents") or []
    ]
    if not record.get("evidence"):
        record.pop("evidence", None)
    return record


def to_dataset(convs: Iterable[Conversation]) -> datasets.Dataset:
    """One ``datasets.Dataset`` with a row per conversation."""
    rows = [_row(c) for c in convs]
    columns = {name: [r[name] for r in rows] for name in FIELDS}
    return _datasets().Dataset.from_dict(columns, features=features())


def from_dataset(dataset: datasets.Dataset, *, where: str = "dataset") -> list[Conversation]:
    """Conversations from a ``Dataset``; a bad row raises ``DatasetError`` (``line`` = row number, 1-based)."""
    return [validate_record(_record(row), where=where, line=i) for i, row in enumerate(dataset, start=1)]


def to_dataset_dict(splits: Mapping[str, Iterable[Conversation]]) -> datasets.DatasetDict:
    """A ``DatasetDict`` with one split per key (e.g. ``train``/``validation``/``test``)."""
    return _datasets().DatasetDict({name: to_dataset(convs) for name, convs in splits.items()})


def from_dataset_dict(dataset_dict: datasets.DatasetDict) -> dict[str, list[Conversation]]:
    return {name: from_dataset(ds, where=f"split '{name}'") for name, ds in dataset_dict.items()}


def save_to_disk(
    data: Iterable[Conversation] | Mapping[str, Iterable[Conversation]], path: str | Path
) -> Path:
    """Save conversations (a ``Dataset``) or splits (a ``DatasetDict``) with ``save_to_disk``."""
    dataset = to_dataset_dict(data) if isinstance(data, Mapping) else to_dataset(data)
    dataset.save_to_disk(str(path))
    return Path(path)


def load_from_disk(
    path: str | Path, *, split: str | None = None
) -> list[Conversation] | dict[str, list[Conversation]]:
    """Load a directory saved by ``save_to_disk``: a list, or a dict of splits (one split if given)."""
    ds = _datasets()
    loaded = ds.load_from_disk(str(path))
    if isinstance(loaded, ds.DatasetDict):
        if split is None:
            return from_dataset_dict(loaded)
        if split not in loaded:
            raise KeyError(f"{path}: no split '{split}' (splits: {', '.join(loaded)})")
        return from_dataset(loaded[split], where=f"{path}:{split}")
    if split is not None:
        raise KeyError(f"{path}: a single Dataset has no splits (asked for '{split}')")
    return from_dataset(loaded, where=str(path))


def load_json_dataset(
    data_files: str | Path | list[str | Path] | Mapping[str, Any],
    *,
    split: str = "train",
    cache_dir: str | Path | None = None,
) -> datasets.Dataset:
    """A JSONL/JSON conversation file through ``load_dataset("json", data_files=...)``."""
    if isinstance(data_files, Mapping):
        files: Any = {k: [str(p) for p in (v if isinstance(v, list) else [v])] for k, v in data_files.items()}
    elif isinstance(data_files, list):
        files = [str(p) for p in data_files]
    else:
        files = str(data_files)
    return _datasets().load_dataset("json", data_files=files, split=split, features=features(),
                                    cache_dir=str(cache_dir) if cache_dir else None)


def conversations_from_json_dataset(
    data_files: str | Path | list[str | Path], *, cache_dir: str | Path | None = None
) -> list[Conversation]:
    """Read a JSONL/JSON file the ``datasets`` way and validate every row as a ``Conversation``."""
    where = str(data_files) if not isinstance(data_files, list) else ", ".join(map(str, data_files))
    return from_dataset(load_json_dataset(data_files, cache_dir=cache_dir), where=where)
