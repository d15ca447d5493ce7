"""The search structure of a memory: per kind of unit, a BM25 index and a slice of the vectors.

Units are held in one list sorted by kind, so each kind is a contiguous block of rows of the
embedding matrix (a view, no copy). A query scores every row of the wanted kinds on each side
(BM25 via bm25s; cosine via one matrix product, or for large kinds a sign-bit preselection
rescored exactly, see :mod:`procmem.retrieval.dense`), keeps the top-N candidates of each side
and fuses them in numpy (reciprocal rank by default); filters are boolean masks. A unit that says
word for word what a unit of another page says is searched once (:func:`procmem.units.repeated`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal

import numpy as np

from procmem.retrieval.bm25 import BM25Index
from procmem.retrieval.dense import DenseIndex
from procmem.retrieval.fusion import RRF_K, rrf, top_n, weighted
from procmem.retrieval.language import document_languages
from procmem.units import Unit, repeated

Method = Literal["hybrid", "bm25", "dense"]
Fusion = Literal["rrf", "weighted"]
KIND_ORDER = ("procedure", "logic_unit", "chunk", "semantic_chunk", "proposition", "document")


def unit_doc_ids(unit: Unit) -> list[str]:
    return list(unit.meta.get("doc_ids") or [unit.meta.get("doc_id", "")])


def page_languages(units: list[Unit], chars: int = 4000) -> dict[str, str]:
    """The language of each page (:func:`~procmem.retrieval.language.document_languages`), read
    from the units that are its alone (a unit merged from several pages may be another page's
    words), the whole document first, at most ``chars`` characters of them."""
    texts: dict[str, list[str]] = {}
    size: dict[str, int] = {}
    for unit in sorted(units, key=lambda u: u.kind != "document"):
        doc_ids = unit_doc_ids(unit)
        if len(doc_ids) == 1 and size.get(doc_ids[0], 0) < chars:
            text = unit.render()[:chars]
            texts.setdefault(doc_ids[0], []).append(text)
            size[doc_ids[0]] = size.get(doc_ids[0], 0) + len(text)
    return document_languages(texts)


def unit_language(unit: Unit, languages: dict[str, str]) -> str:
    """The language of a unit's page ("" when unknown, or when its pages differ), given each
    page's."""
    found = {languages.get(doc_id, "") for doc_id in unit_doc_ids(unit)}
    return found.pop() if len(found) == 1 else ""


def _row_languages(block: list[Unit], languages: dict[str, str]) -> np.ndarray | None:
    """Per unit, its page's language; None when the pages are in one language (a search then
    needs no language mask)."""
    if len(set(languages.values()) - {""}) < 2:
        return None
    return np.array([unit_language(unit, languages) for unit in block], dtype=object)


@dataclass
class KindIndex:
    kind: str
    start: int
    stop: int
    bm25: BM25Index
    dense: DenseIndex | None
    types: np.ndarray  # logic-unit type per row ("" for other kinds)
    doc_rows: dict[str, np.ndarray] = field(default_factory=dict)
    # rows that say the same as an earlier row of another page (procmem.units.repeated): left
    # out of a search over every page but the pages it names, kept when a search is confined to some pages
    repeats: np.ndarray | None = None
    # the language of each row's page ("" unknown, or pages in several languages)
    languages: np.ndarray | None = None

    @property
    def size(self) -> int:
        return self.stop - self.start

    def mask(self, types: Sequence[str] | None, doc_ids: Sequence[str] | None,
             language: str | None = None, named: Sequence[str] = ()) -> np.ndarray | None:
        """The rows a search keeps: of logic units of ``types``, of the pages ``doc_ids``, not
        written in another language than ``language``, none that repeats another page's but of
        the pages the query ``named``; None: every row."""
        if doc_ids is None and self.repeats is not None:
            mask = ~self.repeats
            for doc_id in named:  # "What is the goal in Klondike?": Klondike's copy of "Goal", not Athena's
                rows = self.doc_rows.get(doc_id)
                if rows is not None:
                    mask[rows] = True
        elif not types and doc_ids is None and not (language and self.languages is not None):
            return None
        else:
            mask = np.ones(self.size, dtype=bool)
        if language and self.languages is not None:
            mask &= (self.languages == language) | (self.languages == "")
        if types:
            mask &= np.isin(self.types, list(types))
        if doc_ids is not None:
            wanted = np.zeros(self.size, dtype=bool)
            for doc_id in doc_ids:
                rows = self.doc_rows.get(doc_id)
                if rows is not None:
                    wanted[rows] = True
            mask &= wanted
        return mask


@dataclass
class SearchSettings:
    candidates: int = 100
    fusion: Fusion = "rrf"
    rrf_k: int = RRF_K
    # the dense list's weight in the fusion, BM25's is 1 - it: over all 2,104 bundled documents
    # 0.75 put the evidence document first for 0.78 of the conversations (0.68 at 0.5) with
    # recall@5 0.77 (0.76) and the FAQ passages as often in the top 5 (benchmarks/retrieval.py)
    dense_weight: float = 0.75


class SearchIndex:
    def __init__(self, units: list[Unit], kinds: dict[str, KindIndex]):
        self.units = units
        self.kinds = kinds

    @classmethod
    def build(cls, units: list[Unit], matrix: np.ndarray | None,
              tokens: Callable[[Unit], list[str]],
              bm25: dict[str, BM25Index] | None = None,
              languages: dict[str, str] | None = None) -> SearchIndex:
        """``units`` sorted by kind (see :data:`KIND_ORDER`); ``matrix`` rows aligned with them;
        ``languages``: of each page (default: read from the units, :func:`page_languages`)."""
        kinds: dict[str, KindIndex] = {}
        language = page_languages(units) if languages is None else languages
        start = 0
        while start < len(units):
            kind = units[start].kind
            stop = start
            while stop < len(units) and units[stop].kind == kind:
                stop += 1
            block = units[start:stop]
            index = (bm25 or {}).get(kind) or BM25Index.build([tokens(u) for u in block])
            doc_rows: dict[str, list[int]] = {}
            repeats = repeated(block)
            for row, unit in enumerate(block):
                for doc_id in unit_doc_ids(unit):
                    doc_rows.setdefault(doc_id, []).append(row)
            kinds[kind] = KindIndex(
                kind, start, stop, index,
                DenseIndex(matrix[start:stop]) if matrix is not None else None,
                np.array([getattr(u, "type", "") for u in block], dtype=object),
                {d: np.array(r, dtype=np.int64) for d, r in doc_rows.items()},
                np.array([u.id in repeats for u in block], dtype=bool) if repeats else None,
                _row_languages(block, language),
            )
            start = stop
        return cls(units, kinds)

    def repeated_ids(self) -> set[str]:
        """The ids of the units a search over every page leaves out (:attr:`KindIndex.repeats`)."""
        return {self.units[index.start + int(row)].id for index in self.kinds.values()
                if index.repeats is not None for row in np.flatnonzero(index.repeats)}

    def search(self, query_tokens: list[str], query_vector: Callable[[], np.ndarray], *, k: int,
               kinds: Sequence[str], method: Method, types: Sequence[str] | None = None,
               doc_ids: Sequence[str] | None = None, language: str | None = None,
               settings: SearchSettings | None = None, named: Sequence[str] = ()) -> list[tuple[int, float]]:
        """``(global row, score)`` of the best ``k`` units, best first; ``language``: none of a
        page written in another language; ``named``: the pages whose title the query names, whose
        units a search over every page keeps though they repeat another page's."""
        settings = settings or SearchSettings()
        vector = query_vector() if method in ("dense", "hybrid") else None
        results: list[tuple[int, float]] = []
        for kind in kinds:
            index = self.kinds.get(kind)
            if index is None or index.size == 0:
                continue
            if types and kind != "logic_unit":
                continue
            rows, scores = self._search_kind(index, query_tokens, vector, k, method,
                                             index.mask(types, doc_ids, language, named), settings)
            results += [(index.start + int(r), float(s)) for r, s in zip(rows, scores, strict=True)]
        results.sort(key=lambda rs: -rs[1])
        return results[:k]

    @staticmethod
    def _search_kind(index: KindIndex, query_tokens: list[str], vector: np.ndarray | None, k: int,
                     method: Method, mask: np.ndarray | None,
                     settings: SearchSettings) -> tuple[np.ndarray, np.ndarray]:
        n = max(settings.candidates, k)
        lexical = index.bm25.scores(query_tokens) if method in ("bm25", "hybrid") else None
        if method == "bm25":
            rows = top_n(lexical, k, mask, positive_only=True)
            return rows, lexical[rows]
        if index.dense is None:
            raise ValueError(f"no embeddings for {index.kind!r} units: dense search unavailable")
        if method == "dense":
            return index.dense.top(vector, k, mask)
        lexical_rows = top_n(lexical, n, mask, positive_only=True)
        semantic_rows, _ = index.dense.top(vector, n, mask)
        weights = [1.0 - settings.dense_weight, settings.dense_weight]
        if settings.fusion == "weighted":
            candidates = np.union1d(lexical_rows, semantic_rows)
            rows, scores = weighted(candidates, [lexical[candidates], index.dense.scores_at(vector, candidates)],
                                    weights)
        else:
            rows, scores = rrf([lexical_rows, semantic_rows], k=settings.rrf_k,
                               weights=[2 * w for w in weights])
        return rows[:k], scores[:k]
