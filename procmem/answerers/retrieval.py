"""Where answerers get units from: always a procedural memory.

In the open setting that is the memory the answerer was made with. In the given-documents setting
(InsCoQA's protocol: the request carries its documents) it is a memory over exactly those
documents, built in memory with the same extraction, chunking and retrieval as any other
(procedures, logic units, chunks; bm25s, plus dense vectors when the embedding model is
installed) and kept in a small cache keyed by the documents' content hashes, so every answerer of
a conversation, and every turn of it, shares one build.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

import numpy as np

from inscoqa.corpus.document import Document
from procmem.answerers.base import Searchable, Source, section_label
from procmem.config import ALL_KINDS, kind_names, load_memory_config
from procmem.embed import Embedder, EmbedderNotFound, model_dir
from procmem.memory import Memory, build_memory
from procmem.records import Hit
from procmem.units import MODEL_KINDS, Unit, own_header, part_count, part_number

__all__ = ["GIVEN_CACHE_SIZE", "Hit", "Retriever", "Searchable", "given_memory", "hit_record",
           "sources_from_hits", "unit_label"]

GIVEN_CACHE_SIZE = 32  # memories over given document sets kept at once


def unit_label(unit: Unit, chars: int = 90) -> str:
    """A short human name of a unit for traces: goal, header, or first words."""
    label = getattr(unit, "output", None) or getattr(unit, "header", None) or unit.render()
    label = " ".join(str(label).split())
    return label if len(label) <= chars else label[: chars - 1] + "…"


def hit_record(hit: Hit) -> dict[str, Any]:
    unit = hit.unit
    return {
        "unit_id": unit.id, "kind": unit.kind, "doc_id": unit.meta.get("doc_id", ""),
        "label": unit_label(unit),
        "score": None if hit.score is None else round(float(hit.score), 6), "rank": hit.rank,
        "method": hit.method,
    }


def sources_from_hits(hits: Sequence[Hit], snippet_chars: int = 300) -> list[Source]:
    """One source per distinct unit, in the order first retrieved, each with its section
    (:func:`section_label`) when the unit has one."""
    sources: dict[str, Source] = {}
    for hit in hits:
        unit = hit.unit
        if unit.id in sources:
            continue
        snippet = " ".join(unit.render().split())
        if len(snippet) > snippet_chars:
            snippet = snippet[: snippet_chars - 1] + "…"
        title = str(unit.meta.get("title", "") or "")
        sources[unit.id] = Source(
            doc_id=str(unit.meta.get("doc_id", "")), title=title,
            snippet=snippet, unit_id=unit.id,
            score=None if hit.score is None else round(float(hit.score), 6),
            section=section_label(unit.meta.get("section", ""), title),
        )
    return list(sources.values())


# --------------------------------------------------------------------------- given documents


class _NoVectors(Embedder):
    """Stands in for a missing embedding model: every unit gets the same one-number vector, and
    the memory built with it is searched with BM25 only."""

    def __init__(self, wanted: str) -> None:  # no model to find or load
        self.name = f"none ({wanted} is not installed)"

    @property
    def dim(self) -> int:
        return 1

    def encode(self, texts: list[str], *, progress: bool = False) -> np.ndarray:
        return np.ones((len(texts), 1), dtype=np.float32)

    def encode_unique(self, texts: list[str], *, progress: bool = False) -> np.ndarray:
        return self.encode(texts)


_embedders: dict[str, Embedder] = {}
_cache: OrderedDict[tuple[Any, ...], Memory] = OrderedDict()
_building: dict[tuple[Any, ...], threading.Lock] = {}
_lock = threading.Lock()


def _embedder(name: str) -> Embedder:
    """One embedder per model name for every given-documents memory (the model loads once)."""
    with _lock:
        if name not in _embedders:
            try:
                model_dir(name)
                installed = importlib.util.find_spec("sentence_transformers") is not None
            except EmbedderNotFound:
                installed = False
            _embedders[name] = Embedder(name) if installed else _NoVectors(name)
        return _embedders[name]


def given_embedder() -> Embedder | None:
    """The embedding model of every given-documents memory, or None when it is not installed."""
    embedder = _embedder(load_memory_config().embedder)
    return None if isinstance(embedder, _NoVectors) else embedder


def given_memory(documents: Sequence[Document], kinds: Sequence[str] = ()) -> Memory:
    """A memory over exactly ``documents`` (rules extraction, no model) holding the configured
    kinds of unit and ``kinds`` (those a model writes are left out), shared through a cache keyed
    by the documents' ids and content hashes and the memory settings in force. Every chunk is
    encoded from its own text, not pooled from its logic units: a request's few documents cost
    little to encode, and the chunk and whole-document baselines keep the vectors the papers
    compare them by."""
    if not documents:
        raise ValueError("given_memory needs at least one document")
    config = dataclasses.replace(load_memory_config(), llm_extract="never", chunk_vectors="encoded")
    wanted = {*kind_names(config.kinds), *kinds} - set(MODEL_KINDS)
    config = dataclasses.replace(config, kinds=[k for k in ALL_KINDS if k in wanted])
    embedder = _embedder(config.embedder)
    if isinstance(embedder, _NoVectors):
        config = dataclasses.replace(config, method="bm25")
    key = (tuple(sorted((d.doc_id, d.content_hash) for d in documents)), embedder.name,
           tuple(sorted((k, str(v)) for k, v in dataclasses.asdict(config).items())))
    with _lock:
        memory = _cache.get(key)
        if memory is not None:
            _cache.move_to_end(key)
            return memory
        building = _building.setdefault(key, threading.Lock())
    with building:  # one build per document set, however many threads ask for it
        with _lock:
            memory = _cache.get(key)
        if memory is None:
            memory = build_memory(list(documents), embedder=embedder, config=config,
                                  progress=False)
            with _lock:
                _cache[key] = memory
                while len(_cache) > GIVEN_CACHE_SIZE:
                    _cache.popitem(last=False)
                _building.pop(key, None)
    return memory


def _floats(values: Any) -> list[float] | None:
    return None if values is None else [float(v) for v in values]


# --------------------------------------------------------------------------- one entry point


RANKED_AMONG = 30  # a memory with fewer units of a kind ranks them loosely (Retriever.rank_weight)


class Retriever:
    """Search units of one kind: in the request's documents when it has some (a memory over
    them, see :func:`given_memory`), else in the answerer's memory.

    When no unit of the asked kind matches, chunks are searched instead; the trace records the
    kind actually used.
    """

    FALLBACK_KIND = "chunk"

    def __init__(self, memory: Searchable | None = None,
                 documents: Sequence[Document] | None = None) -> None:
        self._documents = list(documents or [])
        self._parts: tuple[Searchable, dict[tuple[str, str, int], Unit]] | None = None
        if documents:
            self.memory: Searchable = given_memory(documents)
            self.setting = "given"
        elif memory is not None:
            self.memory = memory
            self.setting = "memory"
        else:
            raise ValueError("this answerer needs a memory or the request's documents")

    def search(self, query: str, *, k: int, kind: str | None,
               within: Sequence[str] | None = None,
               question: str | None = None) -> tuple[list[Hit], str]:
        """Hits for ``query`` (only from the documents ``within``, when given; the first ones
        ordered by the last ``question`` when the query draws on the history) and the kind of
        unit they are."""
        doc_ids = list(within) if within is not None else None
        self.holding(kind)
        for candidate in dict.fromkeys([kind, self.FALLBACK_KIND]):
            hits = list(self.memory.search(query, k=k, kind=candidate, doc_ids=doc_ids,
                                           question=question))
            if hits:
                return hits, candidate or "any"
        return [], kind or "any"

    def documents(self, history: Sequence[tuple[str, str]], question: str, *, k: int) -> list[str]:
        """The ids of the ``k`` documents the memory ranks first for the conversation, by the
        evidence of all their units (:meth:`Memory.search_documents_conversation`); none when
        ``k`` is 0 or the memory does not rank documents."""
        rank = getattr(self.memory, "search_documents_conversation", None)
        if not k or not callable(rank):
            return []
        return [hit.doc_id for hit in rank(list(history), question, k=k)]

    def holding(self, kind: str | None) -> Searchable:
        """The memory searched for ``kind``: over given documents, a kind the memory was not
        built with is built when first asked for (one memory per document set and kinds, cached)."""
        memory = self.memory
        if self._documents and kind and isinstance(memory, Memory) and kind not in memory.kinds \
                and kind in ALL_KINDS and kind not in MODEL_KINDS:
            self.memory = given_memory(self._documents, kinds=[*memory.kinds, kind])
        return self.memory

    def text_closeness(self, text: str, others: Sequence[str]) -> list[float] | None:
        """How close in meaning ``text`` is to each of the texts ``others``
        (:meth:`Memory.text_closeness`); None when the memory is searched by its words alone or
        cannot say."""
        return _floats(self._ask("text_closeness", text, others))

    def closeness(self, text: str, units: Sequence[Unit]) -> list[float] | None:
        """How close in meaning ``text`` is to each of ``units`` (:meth:`Memory.closeness`, by
        their stored vectors); None when the memory is searched by its words alone or cannot say."""
        return _floats(self._ask("closeness", text, units))

    def _ask(self, method: str, *args: Any) -> Any:
        """``method`` of the memory (a :class:`Memory`, or one searched through a store, which
        serves the memory's own), None where it has none (a test double)."""
        found = getattr(self.memory, method, None)
        return found(*args) if callable(found) else None

    def rank_weight(self, kind: str) -> float:
        """How much a rank among a memory's units of ``kind`` says, from 0 to 1: in proportion
        to their number, up to :data:`RANKED_AMONG`. The Debian Reference's 15 chapters hold 16
        procedures, and ranked among so few, the same ones come first for any question ("The
        screen program" for "How do I change the system locale?"). Over given documents, all of
        them the conversation's, a rank says all."""
        if self.setting == "given":
            return 1.0
        self.holding(kind)
        return min(1.0, len(self.memory.units(kind)) / RANKED_AMONG)

    def part(self, unit: Unit, number: int) -> Unit | None:
        """Part ``number`` of the section split for size that ``unit`` is a part of, looked up
        by its header and number, not searched for: the five parts of Postfix's "virtual
        MAILBOX example" share their header's words with the sections beside them, and a search
        for it ranked the second part, the example's settings, eleventh of the page's units."""
        if self._parts is None or self._parts[0] is not self.memory:
            parts = {(str(u.meta.get("doc_id", "")), own_header(u), part_number(u)): u
                     for u in self.memory.units("logic_unit") if "(part " in u.header and part_count(u) > 1}
            self._parts = (self.memory, parts)
        return self._parts[1].get((str(unit.meta.get("doc_id", "")), own_header(unit), number))

    def units(self, kind: str | None) -> tuple[list[Unit], str]:
        """All units of ``kind`` (chunks when there are none)."""
        self.holding(kind)
        for candidate in dict.fromkeys([kind, self.FALLBACK_KIND]):
            units = self.memory.units(candidate)
            if units:
                return units, candidate or "any"
        return [], kind or "any"
