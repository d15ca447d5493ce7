"""Unit vectors made from other units' vectors instead of by the encoder.

A memory's logic units (sections, split at ``unit_words``) and its recursive chunks (windows of
``chunk_words``) cover the same text, so encoding both costs the encoder each document twice.
A chunk's vector is instead the weighted mean of the vectors of its document's logic units,
each weighted by the square of the share of the chunk's distinct terms it holds: the sections
the chunk is cut from lead, one that merely shares common words counts little. A chunk that no
logic unit covers well (less than :data:`MIN_CHUNK_SHARE` of its terms) is encoded, as are chunks
that would pool to the same vector (:func:`twins`), and every chunk when ``pool_chunks`` is off.
A whole document's vector is the mean of its chunks' vectors: the encoder sees only a
document's first tokens, its chunks see all of it.

Over the 2,104 bundled documents this halves what a build encodes (chunks are about half the
encoded words), with recall@5 of the bundled conversations' documents within 0.01 of encoding
every chunk (``benchmarks/retrieval.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

import numpy as np

from procmem.retrieval.index import unit_doc_ids
from procmem.units import Unit

# a chunk is pooled from logic units only when one holds at least this share of its terms
MIN_CHUNK_SHARE = 0.2


@dataclass
class Pooled:
    """``unit``'s vector: the normalised mean of the ``sources``' vectors, ``weights`` each."""

    unit: Unit
    sources: list[str]
    weights: np.ndarray


def chunk_weights(chunk_terms: set[str], sources: list[set[str]]) -> np.ndarray | None:
    """Each source's weight in a chunk's vector: the square of the share of the chunk's
    distinct terms it holds; None when no source holds :data:`MIN_CHUNK_SHARE` of them."""
    if not chunk_terms or not sources:
        return None
    shares = np.array([len(chunk_terms & terms) / len(chunk_terms) for terms in sources])
    if shares.max() < MIN_CHUNK_SHARE:
        return None
    return shares**2


def plan_vectors(units: Iterable[Unit], active: Iterable[Unit], terms: Callable[[Unit], Iterable[str]],
                 has_vector: Callable[[str], bool], *, pool_chunks: bool = True,
                 ) -> tuple[list[Unit], list[Pooled]]:
    """How to give ``units`` their vectors: the units to encode (among them the sources of a
    pooled unit that have no vector yet) and the pooled ones, in the order to pool them
    (chunks before the documents made from them). ``active``: the memory's units, where a
    chunk's logic units and a document's chunks are found; ``terms``: a unit's search terms."""
    ids: dict[int, str] = {}  # unit ids are content hashes: each is computed once here
    term_sets: dict[str, set[str]] = {}

    def uid(unit: Unit) -> str:
        key = id(unit)
        if key not in ids:
            ids[key] = unit.id
        return ids[key]

    def term_set(unit: Unit) -> set[str]:
        key = uid(unit)
        if key not in term_sets:
            term_sets[key] = set(terms(unit))
        return term_sets[key]

    by_doc: dict[str, dict[str, list[Unit]]] = {}
    for unit in active:
        if unit.kind in ("logic_unit", "chunk"):
            for doc_id in unit_doc_ids(unit):
                by_doc.setdefault(doc_id, {}).setdefault(unit.kind, []).append(unit)
    encode: dict[str, Unit] = {}
    chunks: dict[str, Pooled] = {}
    documents: dict[str, Pooled] = {}

    def place(unit: Unit) -> None:
        """Plan ``unit``'s vector, and those of its sources that have none and no plan yet."""
        key = uid(unit)
        if key in encode or key in chunks or key in documents or has_vector(key):
            return
        sources = by_doc.get(unit.meta.get("doc_id", ""), {})
        if unit.kind == "chunk" and pool_chunks and sources.get("logic_unit"):
            logic_units = sources["logic_unit"]
            weights = chunk_weights(term_set(unit), [term_set(u) for u in logic_units])
            if weights is not None:
                kept = [(u, w) for u, w in zip(logic_units, weights, strict=True) if w > 0]
                chunks[key] = Pooled(unit, [uid(u) for u, _ in kept], np.array([w for _, w in kept]))
                for source, _ in kept:
                    place(source)
                return
        if unit.kind == "document" and sources.get("chunk"):
            documents[key] = Pooled(unit, [uid(c) for c in sources["chunk"]], np.ones(len(sources["chunk"])))
            for chunk in sources["chunk"]:
                place(chunk)
            return
        encode[key] = unit

    for unit in units:
        place(unit)
    for unit_id in twins(chunks.values()):
        encode[unit_id] = chunks.pop(unit_id).unit
    return list(encode.values()), [*chunks.values(), *documents.values()]


def twins(pooled: Iterable[Pooled]) -> list[str]:
    """The ids of pooled units that would get the same vector as another one (the same sources
    in the same proportions, e.g. two chunks that only one logic unit covers): they are encoded
    instead, so that a search can tell them apart."""
    groups: dict[tuple, list[str]] = {}
    for one in pooled:
        share = np.round(one.weights / one.weights.sum(), 9)
        groups.setdefault((tuple(one.sources), tuple(share)), []).append(one.unit.id)
    return [unit_id for ids in groups.values() if len(ids) > 1 for unit_id in ids]


def pooled_vector(weights: np.ndarray, vectors: np.ndarray) -> np.ndarray:
    """The unit-length weighted mean of ``vectors`` (one row each), as one row."""
    mean = weights @ vectors
    return (mean / (np.linalg.norm(mean) or 1.0))[None, :].astype(np.float32)
