"""The procedural memory: units from many documents, kept searchable, updatable and on disk.

A :class:`Memory` holds, per source document, the units extracted from it (procedures, logic
units) and its baseline units (recursive chunks, semantic chunks, the whole document, and, when
asked for and a chat model is given, propositions). Logic units with
near-identical headers are served merged (:mod:`procmem.merge`). Every served unit has a vector
(kept by unit id) and sits in a BM25 index of its kind (:mod:`procmem.retrieval.index`); the
searches over them are :class:`procmem.search.MemorySearch`'s, the settings
:class:`procmem.config.MemoryConfig`'s.

``add_documents`` is also the update: a document with a new content hash has exactly its units
replaced, an unchanged one is skipped (neither extracted nor embedded again).
"""

from __future__ import annotations

import json
import platform
import re
import time
from collections.abc import Iterable, Sequence
from dataclasses import asdict, replace
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from procmem.chunking import chunk_units, document_unit, semantic_chunk_units, sentence_spans
from procmem.config import ALL_KINDS, DEFAULT_KINDS, MemoryConfig, kind_names, load_memory_config
from procmem.embed import Embedder, normalise
from procmem.extract.base import ExtractionFailure, extractor_version
from procmem.extract.llm import LLMExtractionSettings
from procmem.extract.pipeline import ExtractMode, extract_documents
from procmem.extract.propositions import STAGE as PROPOSITION_STAGE
from procmem.extract.propositions import PropositionSettings, propositions_for_documents
from procmem.extract.split import split_logic_units
from procmem.merge import MergeGroups, llm_merge, merge_units
from procmem.records import DocumentHit, DocumentRecord, Hit, UpdateReport
from procmem.retrieval.bm25 import TOKENIZER_NAME, BM25Index, tokenize
from procmem.retrieval.index import KIND_ORDER, SearchIndex, page_languages
from procmem.retrieval.links import document_links
from procmem.retrieval.pooling import plan_vectors, pooled_vector
from procmem.retrieval.vectors import VectorTable, dense_index
from procmem.search import MemorySearch, QueryVectors
from procmem.store import (
    MemoryFiles,
    MemoryStoreError,
    open_version,
    read_memory_files,
    save_version,
    write_memory_files,
)
from procmem.units import MODEL_KINDS, LogicUnit, Unit, indexed_text
from serving.errors import names_infrastructure_error
from serving.prompts import load_prompt

if TYPE_CHECKING:
    from inscoqa.corpus.document import Document
    from serving.types import ChatModel

# the word and punctuation tokens ``stats`` counts per unit (the measure of THREAD's Table 3)
TOKEN_COUNT_RULE = "word and punctuation tokens (regex \\w+|[^\\w\\s])"
DEFAULT_SAMPLE_DIR = "~/.cache/inscoqa/memories/sample"
# settings that shape a memory's chunks and propositions: a saved memory keeps its own
UNIT_SHAPE = ("chunk_words", "chunk_overlap", "semantic_percentile", "proposition_words")

__all__ = ["ALL_KINDS", "DEFAULT_KINDS", "MODEL_KINDS", "DocumentHit", "Hit", "Memory", "MemoryConfig",
           "MemoryStoreError", "UpdateReport", "build_memory", "load_memory_config", "sample_memory"]


def _versions() -> dict[str, str]:
    out = {"python": platform.python_version()}
    for package in ("inscoqa", "bm25s", "PyStemmer", "sentence-transformers", "numpy", "rapidfuzz"):
        try:
            out[package] = metadata.version(package)
        except metadata.PackageNotFoundError:
            out[package] = ""
    return out


class Memory(MemorySearch):
    def __init__(self, *, kinds: Sequence[str] | None = None, embedder: Embedder | str | None = None,
                 config: MemoryConfig | None = None, path: str | Path | None = None):
        """A memory of ``kinds`` of units (None: the configured ``kinds``)."""
        self.config = config or load_memory_config()
        kinds = kind_names(self.config.kinds if kinds is None else kinds)
        unknown = set(kinds) - set(ALL_KINDS)
        if unknown:
            raise ValueError(f"unknown unit kinds {sorted(unknown)}; known: {list(ALL_KINDS)}")
        if not 0 <= self.config.chunk_overlap < self.config.chunk_words:
            raise ValueError(f"[memory] chunk_overlap must be at least 0 and below chunk_words "
                             f"({self.config.chunk_words}), got {self.config.chunk_overlap}")
        if not 0 <= self.config.semantic_percentile <= 100:
            raise ValueError(f"[memory] semantic_percentile must be within 0-100, got "
                             f"{self.config.semantic_percentile}")
        self.kinds = tuple(k for k in ALL_KINDS if k in kinds)
        self._embedder = embedder if isinstance(embedder, Embedder) else None
        self.embedder_name = embedder.name if isinstance(embedder, Embedder) else (embedder or self.config.embedder)
        self.path = Path(path) if path else None
        self.failures: list[ExtractionFailure] = []
        self._docs: dict[str, DocumentRecord] = {}
        self._parts: dict[str, Unit] = {}
        self._groups = MergeGroups(self.config.merge_threshold)
        self._vectors = VectorTable()
        self._tokens: dict[str, list[str]] = {}
        self._index: SearchIndex | None = None
        self._links: dict[str, list[str]] | None = None
        self._languages: dict[str, str] | None = None
        self._titled: dict[str, list[tuple[str, frozenset[str]]]] | None = None
        self.query_vectors = QueryVectors()
        self._loaded_manifest: dict[str, Any] = {}
        self.last_report: UpdateReport | None = None

    # -- reading -----------------------------------------------------------------------------
    @property
    def embedder(self) -> Embedder:
        if self._embedder is None:
            self._embedder = Embedder(self.embedder_name)
        return self._embedder

    def units(self, kind: str | None = None) -> list[Unit]:
        return [u for u in self._active() if kind is None or u.kind == kind]

    def get(self, unit_id: str) -> Unit | None:
        return self._groups.merged.get(unit_id) or self._parts.get(unit_id)

    def doc_ids(self) -> list[str]:
        return sorted(self._docs)

    def document(self, doc_id: str) -> DocumentRecord | None:
        return self._docs.get(doc_id)

    def __len__(self) -> int:
        return len(self._active())

    def _active(self) -> list[Unit]:
        if self._index is not None:
            return self._index.units
        active = [u for i, u in self._parts.items() if not self._groups.is_hidden(i)]
        active += list(self._groups.merged.values())
        rank = {k: i for i, k in enumerate(KIND_ORDER)}
        return sorted(active, key=lambda u: rank[u.kind])  # stable: document order within a kind

    # -- the search structure -----------------------------------------------------------
    def links(self, doc_id: str) -> list[str]:
        """The documents of this memory that ``doc_id`` links to (its logic units' CROSS
        linkers), in the order they come."""
        if self._links is None:
            self._links = document_links(self._parts.values(), self._docs)
        return self._links.get(doc_id, [])

    def page_languages(self) -> dict[str, str]:
        """The language each document is written in ("" when its text does not say; see
        :mod:`procmem.retrieval.language`)."""
        if self._languages is None:
            self._languages = page_languages(self._active())
        return self._languages

    def pages_named(self, tokens: Sequence[str]) -> list[str]:
        """The pages whose title's every word is among the search ``tokens``: a search over
        every page keeps their units that repeat another page's (:func:`procmem.units.repeated`:
        each game's "Goal" says "Move all cards to the Foundation piles", and the first page's
        stood for all of them)."""
        if self._titled is None:  # the pages by each word of their title
            self._titled = {}
            for doc_id, record in self._docs.items():
                title = frozenset(tokenize(record.title or ""))
                for word in title:
                    self._titled.setdefault(word, []).append((doc_id, title))
        said = set(tokens)
        return sorted({doc_id for word in said for doc_id, title in self._titled.get(word, ()) if title <= said})

    def index(self) -> SearchIndex:
        if self._index is None:
            self._index = self._build_index()
        return self._index

    def _build_index(self, bm25: dict[str, BM25Index] | None = None) -> SearchIndex:
        units = self._active()
        missing = [u for u in units if u.id not in self._vectors]
        if missing:
            self._embed(missing, progress=False)
        matrix = self._vectors.gather(u.id for u in units) if units else None
        return SearchIndex.build(units, matrix, self._tokens_of, bm25, self.page_languages())

    def closeness(self, text: str, units: Sequence[Unit]) -> np.ndarray | None:
        """How close in meaning ``text`` is to each of ``units``: the cosine similarity of its
        embedding and theirs (embedded now where missing); None for a memory searched by its
        words alone."""
        if self.config.method == "bm25" or not units:
            return None
        missing = [u for u in units if u.id not in self._vectors]
        if missing:
            self._embed(missing, progress=False)
        matrix = normalise(self._vectors.gather(u.id for u in units))
        return matrix @ normalise(self.query_vector(text).reshape(1, -1))[0]

    def text_closeness(self, text: str, others: Sequence[str]) -> np.ndarray | None:
        """How close in meaning ``text`` is to each of the texts ``others``, which are embedded
        now (as :meth:`closeness`); None for a memory searched by its words alone."""
        if self.config.method == "bm25" or not others:
            return None
        vectors = normalise(np.vstack([self.query_vector(text), self.embedder.encode_unique(list(others))]))
        return vectors[1:] @ vectors[0]

    def _tokens_of(self, unit: Unit) -> list[str]:
        tokens = self._tokens.get(unit.id)
        if tokens is None:
            tokens = self._tokens[unit.id] = tokenize(self._index_text(unit))
        return tokens

    def _embed(self, units: list[Unit], *, progress: bool) -> tuple[int, int]:
        """Give ``units`` their vectors: encoded, or pooled from other units' vectors (chunks
        from their logic units, documents from their chunks; see
        :mod:`procmem.retrieval.pooling`). One memory holds the vectors of one embedder (model
        and backend): the first vectors record its full name, another embedder afterwards is
        refused. Returns the units given a vector and the texts encoded."""
        if not units:
            return 0, 0
        embedder = self.embedder
        if embedder.name != self.embedder_name:
            if len(self._vectors):
                raise MemoryStoreError(
                    f"this memory's vectors come from {self.embedder_name!r}; embedding more units with "
                    f"{embedder.name!r} would mix two embedders' vectors: rebuild it with one of them")
            self.embedder_name = embedder.name
        encoded, pooled = plan_vectors(units, self._active(), self._tokens_of, self._vectors.__contains__,
                                       pool_chunks=self.config.chunk_vectors == "pooled")
        # each kind in batches of its own: int8 quantises a batch's activations together, so a
        # unit's vector does not depend on which other kinds a memory builds
        for kind in dict.fromkeys(u.kind for u in encoded):
            group = [u for u in encoded if u.kind == kind]
            vectors = embedder.encode_unique([self._index_text(u) for u in group], progress=progress)
            self._vectors.add([u.id for u in group], vectors)
        for one in pooled:
            self._vectors.add([one.unit.id], pooled_vector(one.weights, self._vectors.gather(one.sources)))
        return len(units), len(encoded)

    def _index_text(self, unit: Unit) -> str:
        return indexed_text(unit, self.config.unit_index)

    # -- building and updating ---------------------------------------------------------------
    def add_documents(self, docs: Iterable[Document], *, llm: ChatModel | None = None,
                      progress: bool = False, mode: ExtractMode | None = None,
                      remove: Iterable[str] = ()) -> UpdateReport:
        """Add new documents, replace changed ones (by ``doc_id``), skip unchanged ones, and take
        out the documents ``remove`` names (those its source no longer has) in the same update.

        ``llm`` extracts units (``mode``, see :mod:`procmem.extract.pipeline`) and, when the
        memory holds propositions, writes them. A document whose propositions fail (or that gets
        none for want of a model) has none, is listed in ``failures`` and is tried again by the
        next call, as is one whose extraction failed for want of an engine."""
        started = time.perf_counter()
        report = UpdateReport()
        todo: list[Document] = []
        seen: set[str] = set()
        current = extractor_version()
        for doc in docs:
            record = self._docs.get(doc.doc_id)
            # a document is extracted again when it changed, when its units were made by other
            # extraction code (another release), or when its extraction is to be retried
            if doc.doc_id in seen or (record and record.content_hash == doc.content_hash
                                      and record.extractor == current
                                      and doc.doc_id not in self._retry_ids()):
                report.unchanged.append(doc.doc_id)
                continue
            (report.updated if record else report.added).append(doc.doc_id)
            seen.add(doc.doc_id)
            todo.append(doc)
        given = seen | set(report.unchanged)
        report.removed = [doc_id for doc_id in dict.fromkeys(remove) if doc_id in self._docs and doc_id not in given]
        if not todo and not report.removed:  # a memory saved before a kind was embedded at build gets its vectors
            report.embedded, report.encoded = self._embed_dense(progress)
            report.seconds = time.perf_counter() - started
            return report
        removed: set[str] = set()
        for doc_id in report.updated + report.removed:
            removed |= self._drop(doc_id)
        new_ids: list[str] = []
        settings = LLMExtractionSettings(reformulate=self.config.reformulate,
                                         max_tokens=self.config.llm_max_tokens)
        mode = mode or self.config.llm_extract  # type: ignore[assignment]
        baseline = self._semantic_chunks(todo, progress)
        if "proposition" in self.kinds:
            for doc_id, units in self._propositions(todo, llm, report, progress).items():
                baseline.setdefault(doc_id, []).extend(units)
        for doc, extraction, failure in extract_documents(todo, llm=llm, mode=mode, settings=settings,
                                                          workers=self.config.llm_workers, progress=progress):
            if failure:
                report.failures.append(failure)
            if extraction.method == "llm":
                report.llm_extracted.append(doc.doc_id)
            new_ids += self._add(doc, extraction.procedures, extraction.logic_units, extraction.method,
                                 baseline.get(doc.doc_id, []))
        self.failures = [f for f in self.failures if f.doc_id not in seen]
        self.failures += report.failures
        report.units_removed = len(removed - set(new_ids))
        report.units_added = len(set(new_ids) - removed)
        report.merged = self._remerge(new_ids, removed, llm)
        report.embedded, report.encoded = self._refresh(progress)
        report.seconds = time.perf_counter() - started
        return report

    def _retry_ids(self) -> set[str]:
        """Documents tried again: those whose model extraction failed for want of an engine,
        and those left without propositions."""
        return {f.doc_id for f in self.failures
                if names_infrastructure_error(f.error) or f.stage == PROPOSITION_STAGE}

    def _semantic_chunks(self, docs: list[Document], progress: bool) -> dict[str, list[Unit]]:
        """Each document's semantic chunks; the sentences of all ``docs`` are embedded at once."""
        if "semantic_chunk" not in self.kinds:
            return {}
        spans = {doc.doc_id: sentence_spans(doc.text) for doc in docs}
        sentences = [doc.text[a:b] for doc in docs for a, b in spans[doc.doc_id]]
        vectors = self.embedder.encode_unique(sentences, progress=progress) if sentences else None
        out: dict[str, list[Unit]] = {}
        row = 0
        for doc in docs:
            n = len(spans[doc.doc_id])
            if n:
                out[doc.doc_id] = list(semantic_chunk_units(
                    doc.doc_id, doc.title, doc.text, self._base_meta(doc), spans[doc.doc_id],
                    vectors[row:row + n], self.config.semantic_percentile))
            row += n
        return out

    def _propositions(self, docs: list[Document], llm: ChatModel | None, report: UpdateReport,
                      progress: bool) -> dict[str, list[Unit]]:
        """Each document's propositions; a document the model fails on gets a failure instead."""
        if llm is None:
            report.failures += [ExtractionFailure(d.doc_id, PROPOSITION_STAGE,
                                                  "no chat model given: propositions are written by one")
                                for d in docs]
            return {}
        settings = PropositionSettings(passage_words=self.config.proposition_words,
                                       max_tokens=self.config.llm_max_tokens)
        out: dict[str, list[Unit]] = {}
        for doc, units, failure in propositions_for_documents(
                docs, llm, settings=settings, workers=self.config.llm_workers, progress=progress):
            if failure:
                report.failures.append(failure)
            else:
                out[doc.doc_id] = list(units)
        return out

    @staticmethod
    def _base_meta(doc: Document) -> dict[str, Any]:
        meta = {"date": str(doc.meta.get("date", "") or ""), "content_hash": doc.content_hash,
                "corpus": doc.meta.get("corpus", "")}
        if doc.meta.get("manual"):
            meta["manual"] = doc.meta["manual"]
        return meta

    def remove_document(self, doc_id: str) -> int:
        """Take a document and exactly its units out; returns how many units it had."""
        if doc_id not in self._docs:
            raise KeyError(f"document {doc_id!r} is not in this memory")
        removed = self._drop(doc_id)
        self._remerge([], removed, None)
        self._refresh(False)
        return len(removed)

    def _drop(self, doc_id: str) -> set[str]:
        record = self._docs.pop(doc_id)
        for part_id in record.part_ids:
            self._parts.pop(part_id, None)
            self._tokens.pop(part_id, None)
        self.failures = [f for f in self.failures if f.doc_id != doc_id]
        return set(record.part_ids)

    def _add(self, doc: Document, procedures: list, logic_units: list, method: str,
             baseline: list[Unit]) -> list[str]:
        """Store ``doc``'s units: those extracted, its chunks and document unit, and ``baseline``
        (its semantic chunks and propositions, made beforehand)."""
        units: list[Unit] = []
        if "procedure" in self.kinds:
            units += procedures
        if "logic_unit" in self.kinds:
            units += split_logic_units(logic_units, self.config.unit_words)
        base = self._base_meta(doc)
        if "chunk" in self.kinds:
            units += chunk_units(doc.doc_id, doc.title, doc.text, base, self.config.chunk_words,
                                 self.config.chunk_overlap)
        units += baseline
        if "document" in self.kinds:
            units.append(document_unit(doc.doc_id, doc.title, doc.text, base))
        ids = []
        for unit in units:
            if unit.id not in self._parts:
                self._parts[unit.id] = unit
                ids.append(unit.id)
        self._docs[doc.doc_id] = DocumentRecord(doc.doc_id, doc.title, doc.content_hash,
                                                base["date"], doc.n_words, method, ids, extractor_version())
        return ids

    def _remerge(self, new_ids: list[str], removed: set[str], llm: ChatModel | None) -> int:
        if "logic_unit" not in self.kinds:
            return 0
        if llm is not None and self.config.llm_merge:
            self._groups.merger = lambda parts: llm_merge(parts, llm)
        else:
            self._groups.merger = merge_units
        # parts of a split unit are not merged: "(part 2 of 3)" of two documents are not one unit
        logic_units = {i: u for i, u in self._parts.items()
                       if isinstance(u, LogicUnit) and not u.meta.get("parts")}
        return self._groups.update(logic_units, [i for i in new_ids if i in logic_units], removed)

    def _refresh(self, progress: bool) -> tuple[int, int]:
        """Embed units not seen before (:meth:`_embed_dense`), drop vectors of units gone,
        rebuild the search index. Returns the units given a vector and the texts encoded."""
        self._index = None
        self._links = None
        self._languages = None
        self._titled = None
        active = self._active()
        embedded = self._embed_dense(progress)
        if len(self._vectors) > 1.5 * max(1, len(active)):
            self._vectors.keep_only([u.id for u in active])
        self._index = self._with_dense(SearchIndex.build(active, None, self._tokens_of,
                                                         languages=self.page_languages()))
        return embedded

    def _embed_dense(self, progress: bool) -> tuple[int, int]:
        """Embed the units without a vector of the kinds the configured search scores densely
        (``method`` not bm25; ``search_kinds``, ``document_kinds`` and ``embed_kinds``, the
        kinds the answerers search). The others get their vectors when first needed: on the
        first dense search of their kind (a saved memory keeps them without). Returns the units
        given a vector and the texts encoded for them."""
        config = self.config
        try:
            # the embed kinds this memory holds (no fallback to all of them, unlike a search's)
            embed = set(kind_names(config.embed_kinds)) & set(self._kinds(None, config.embed_kinds))
            dense = set() if config.method == "bm25" else {
                *self._kinds(None, config.search_kinds), *self._kinds(None, config.document_kinds), *embed}
        except ValueError:
            dense = set(self.kinds)
        return self._embed([u for u in self._active() if u.id not in self._vectors and u.kind in dense],
                           progress=progress)

    def _with_dense(self, index: SearchIndex) -> SearchIndex:
        """``index`` with each kind's dense index: built now where every unit has its vector,
        else at the kind's first dense search (which embeds the units without one)."""
        self._vectors.fill = lambda ids: self._embed([self.get(i) for i in ids], progress=False)
        for kind_index in index.kinds.values():
            ids = [u.id for u in index.units[kind_index.start:kind_index.stop]]
            kind_index.dense = dense_index(self._vectors, ids)  # type: ignore[assignment]
        return index

    # -- persistence -------------------------------------------------------------------------
    @property
    def manifest(self) -> dict[str, Any]:
        active = self._active()
        counts: dict[str, Any] = {k: sum(1 for u in active if u.kind == k) for k in self.kinds}
        counts["logic_unit_types"] = _type_counts(active)
        counts["documents"] = len(self._docs)
        counts["merged_units"] = len(self._groups.merged)
        return {
            **{k: v for k, v in self._loaded_manifest.items() if k in ("saved_at", "files", "format_version")},
            "embedding": {"model": self.embedder_name, "dim": int(self._vectors.dim)},
            "tokenizer": TOKENIZER_NAME,
            "extractor": extractor_version(),
            "prompts": _prompt_hashes(self.kinds),
            "kinds": list(self.kinds),
            "counts": counts,
            "documents": {d.doc_id: d.content_hash for d in self._docs.values()},
            "failures": [f.to_dict() for f in self.failures],
            "config": {k: v for k, v in asdict(self.config).items() if k != "dir"},
            "versions": _versions(),
        }

    def save(self, path: str | Path | None = None) -> Path:
        """Save atomically (see :mod:`procmem.store`); returns the memory directory."""
        target = Path(path) if path else self.path
        if target is None:
            raise ValueError("no path: give save() a directory")
        index = self.index()
        units = index.units

        files = MemoryFiles(
            units=units,
            hidden=[u for i, u in self._parts.items() if self._groups.is_hidden(i)],
            documents=[asdict(d) for d in self._docs.values()],
            matrix=self._vectors.known(u.id for u in units),  # units not embedded yet stay so
            bm25={kind: kind_index.bm25 for kind, kind_index in index.kinds.items()},
        )

        def write(directory: Path) -> dict[str, Any]:
            write_memory_files(directory, files)
            return self.manifest

        self.path = Path(target)
        version = save_version(self.path, write)
        self._loaded_manifest = json.loads((version / "manifest.json").read_text(encoding="utf-8"))
        return self.path

    @classmethod
    def load(cls, path: str | Path, *, embedder: Embedder | str | None = None,
             config: MemoryConfig | None = None, verify: bool = True) -> Memory:
        """Load a saved memory; raises :class:`MemoryStoreError` saying what is wrong."""
        version, manifest = open_version(Path(path), verify=verify)
        built_with = manifest.get("embedding", {}).get("model", "")
        wanted = embedder.name if isinstance(embedder, Embedder) else embedder
        if wanted and wanted != built_with:
            raise MemoryStoreError(
                f"{path}: built with embedding model {built_with!r} "
                f"({manifest.get('embedding', {}).get('dim')}-d), not {wanted!r}: load it with "
                f"{built_with!r} or rebuild it with the model you want"
            )
        config = config or load_memory_config()
        built_index = manifest.get("config", {}).get("unit_index", "header")  # older memories: headers
        if config.unit_index != built_index:
            config = replace(config, unit_index=built_index)  # its vectors were made from those texts
        # documents added later are cut as the saved ones were
        saved = manifest.get("config", {})
        config = replace(config, **{k: saved[k] for k in UNIT_SHAPE if k in saved},
                         chunk_vectors=saved.get("chunk_vectors", "encoded"))  # older ones: encoded
        memory = cls(kinds=manifest.get("kinds", DEFAULT_KINDS), embedder=embedder or built_with,
                     config=config, path=path)
        files = read_memory_files(version)
        units = files.units
        merged = [u for u in units if isinstance(u, LogicUnit) and u.meta.get("merged_from")]
        merged_ids = {u.id for u in merged}
        for unit in [*units, *files.hidden]:
            if unit.id not in merged_ids:
                memory._parts[unit.id] = unit
        memory._groups.restore(merged)
        memory._docs = {d["doc_id"]: DocumentRecord(**d) for d in files.documents}
        embedded = ~np.isnan(files.matrix).any(axis=1)
        memory._vectors.add([u.id for u, yes in zip(units, embedded, strict=True) if yes], files.matrix[embedded])
        memory.failures = [ExtractionFailure(**f) for f in manifest.get("failures", [])]
        memory._loaded_manifest = manifest
        # a BM25 index saved with other tokens is made again from the units (a second or so)
        bm25 = files.bm25 if manifest.get("tokenizer") == TOKENIZER_NAME else None
        memory._index = memory._with_dense(SearchIndex.build(units, None, memory._tokens_of, bm25,
                                                             memory.page_languages()))
        return memory

    # -- statistics --------------------------------------------------------------------------
    def stats(self) -> dict[str, Any]:
        """Units per kind and type, and THREAD's efficiency measure: mean tokens per unit
        (:data:`TOKEN_COUNT_RULE`, the count ``eval.paradigms`` uses for what a generator is sent)."""
        active = self._active()
        tokens: dict[str, float] = {}
        for kind in self.kinds:
            sizes = [len(TOKEN_COUNT.findall(u.render())) for u in active if u.kind == kind]
            tokens[kind] = round(float(np.mean(sizes)), 1) if sizes else 0.0
        return {
            "documents": len(self._docs),
            "units": {k: sum(1 for u in active if u.kind == k) for k in self.kinds},
            "logic_unit_types": _type_counts(active),
            "merged_units": len(self._groups.merged),
            "extraction": {m: sum(1 for d in self._docs.values() if d.extraction == m) for m in ("rules", "llm")},
            "structured_documents": len({u.meta.get("doc_id") for u in active if u.kind == "procedure"}),
            "failures": len(self.failures),
            "avg_tokens_per_unit": tokens,
            "token_count": TOKEN_COUNT_RULE,
            "words_per_unit": {kind: _size_distribution([len(u.render().split()) for u in active if u.kind == kind])
                               for kind in self.kinds},
            "embedding": {"model": self.embedder_name, "dim": int(self._vectors.dim)},
        }


TOKEN_COUNT = re.compile(r"\w+|[^\w\s]")
EXTRACTION_PROMPTS = ("extract/reformulate", "extract/units", "extract/merge")


def _prompt_hashes(kinds: Sequence[str]) -> dict[str, str]:
    """The short hash of each prompt a build of ``kinds`` may send to the model."""
    names = [*EXTRACTION_PROMPTS, *([f"extract/{PROPOSITION_STAGE}"] if "proposition" in kinds else [])]
    return {name: load_prompt("procmem", name).short_hash for name in names}


def _size_distribution(sizes: list[int]) -> dict[str, float]:
    """Words per unit: mean, quartiles, 90th percentile and the largest."""
    if not sizes:
        return {"mean": 0.0, "p25": 0.0, "median": 0.0, "p75": 0.0, "p90": 0.0, "max": 0.0}
    p25, p50, p75, p90 = (float(v) for v in np.percentile(sizes, [25, 50, 75, 90]))
    return {"mean": round(float(np.mean(sizes)), 1), "p25": p25, "median": p50, "p75": p75, "p90": p90,
            "max": float(max(sizes))}


def _type_counts(units: list[Unit]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for unit in units:
        if isinstance(unit, LogicUnit):
            counts[unit.type] = counts.get(unit.type, 0) + 1
    return counts


def build_memory(documents: Iterable[Document], *, kinds: Sequence[str] | None = None,
                 embedder: Embedder | str | None = None, llm: ChatModel | None = None,
                 progress: bool = True, config: MemoryConfig | None = None) -> Memory:
    """A new memory over ``documents`` (``memory.last_report`` says what happened); ``kinds``
    None builds the configured ``kinds``."""
    memory = Memory(kinds=kinds, embedder=embedder, config=config)
    memory.last_report = memory.add_documents(list(documents), llm=llm, progress=progress)
    return memory


def sample_memory(path: str | Path | None = None, *, progress: bool = True) -> Memory:
    """The memory over the bundled sample documents, built and saved on first use.

    Kept in ``path``, else ``$INSCOQA_MEMORY_DIR`` / ``[memory] dir``, else
    ``~/.cache/inscoqa/memories/sample``. A saved memory whose documents changed, or whose units
    other extraction code made, is updated.
    """
    from inscoqa.bundled import sample_documents

    config = load_memory_config()
    target = Path(path or config.dir or DEFAULT_SAMPLE_DIR).expanduser()
    documents = sample_documents()
    try:
        memory = Memory.load(target, embedder=config.embedder, config=config)
    except MemoryStoreError:
        memory = None
    if memory is None:
        memory = build_memory(documents, progress=progress, config=config)
        memory.save(target)
        return memory
    wanted = {d.doc_id for d in documents}
    stale = [d for d in memory.doc_ids() if d not in wanted]
    for doc_id in stale:
        memory.remove_document(doc_id)
    report = memory.add_documents(documents, progress=progress)
    if stale or report.added or report.updated or report.embedded:
        memory.save(target)
    return memory
