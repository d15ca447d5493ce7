"""Unit vectors kept by unit id, so an update embeds only units it has not seen.

Units of kinds that the configured search never scores densely and that no answerer searches
(``[memory] embed_kinds``: procedures) are not embedded when a memory is built: their rows are
filled on demand, by :attr:`VectorTable.fill` when the table is gathered, as :class:`LazyDense`
does on the first dense search of their kind. A saved memory keeps them absent
(:meth:`VectorTable.known`: a row of NaN), so saving embeds nothing either.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable

import numpy as np

from procmem.retrieval.dense import DenseIndex


class VectorTable:
    def __init__(self, dim: int = 0):
        self.dim = dim
        self.row: dict[str, int] = {}
        self._matrix = np.zeros((0, dim), dtype=np.float32)
        self._size = 0
        # computes (and adds) the vectors of ids the table lacks when they are gathered
        self.fill: Callable[[list[str]], object] | None = None
        self._fill_lock = threading.Lock()

    def __contains__(self, unit_id: str) -> bool:
        return unit_id in self.row

    def __len__(self) -> int:
        return len(self.row)

    def add(self, ids: list[str], vectors: np.ndarray) -> None:
        if not ids:
            return
        vectors = np.asarray(vectors, dtype=np.float32)
        if self.dim == 0:
            self.dim = vectors.shape[1]
            self._matrix = np.zeros((0, self.dim), dtype=np.float32)
        if vectors.shape != (len(ids), self.dim):
            raise ValueError(f"expected {len(ids)} vectors of dimension {self.dim}, got {vectors.shape}")
        need = self._size + len(ids)
        if need > self._matrix.shape[0]:
            grown = np.zeros((max(need, 2 * self._matrix.shape[0]), self.dim), dtype=np.float32)
            grown[: self._size] = self._matrix[: self._size]
            self._matrix = grown
        self._matrix[self._size : need] = vectors
        for i, unit_id in enumerate(ids):
            self.row[unit_id] = self._size + i
        self._size = need

    def gather(self, ids: Iterable[str]) -> np.ndarray:
        ids = list(ids)
        if self.fill is not None and any(i not in self.row for i in ids):
            with self._fill_lock:
                absent = [i for i in dict.fromkeys(ids) if i not in self.row]
                if absent:
                    self.fill(absent)
        rows = np.fromiter((self.row[i] for i in ids), dtype=np.int64, count=len(ids))
        return self._matrix[rows] if rows.size else np.zeros((0, self.dim), dtype=np.float32)

    def known(self, ids: Iterable[str]) -> np.ndarray:
        """The vectors of ``ids`` as they are, a row of NaN for an id without one (never fills)."""
        ids = list(ids)
        matrix = np.full((len(ids), self.dim), np.nan, dtype=np.float32)
        for i, unit_id in enumerate(ids):
            row = self.row.get(unit_id)
            if row is not None:
                matrix[i] = self._matrix[row]
        return matrix

    def keep_only(self, ids: list[str]) -> None:
        """Drop the vectors of every other unit (compacts the table; ids without one stay without)."""
        ids = [i for i in ids if i in self.row]
        rows = np.fromiter((self.row[i] for i in ids), dtype=np.int64, count=len(ids))
        self._matrix = self._matrix[rows] if rows.size else np.zeros((0, self.dim), dtype=np.float32)
        self.row = {unit_id: i for i, unit_id in enumerate(ids)}
        self._size = len(ids)


class LazyDense:
    """Stands in for the :class:`DenseIndex` of a kind whose units are not embedded yet: the
    first use gathers (so embeds) their vectors and builds it."""

    def __init__(self, vectors: VectorTable, ids: list[str]):
        self._vectors, self._ids = vectors, ids
        self._index: DenseIndex | None = None
        self._lock = threading.Lock()

    @property
    def loaded(self) -> bool:
        return self._index is not None

    @property
    def index(self) -> DenseIndex:
        if self._index is None:
            with self._lock:
                if self._index is None:
                    self._index = DenseIndex(self._vectors.gather(self._ids))
        return self._index

    def __len__(self) -> int:
        return len(self._ids)

    @property
    def matrix(self) -> np.ndarray:
        return self.index.matrix

    @property
    def bits(self) -> np.ndarray | None:
        return self.index.bits

    def scores_at(self, query_vector: np.ndarray, rows: np.ndarray) -> np.ndarray:
        return self.index.scores_at(query_vector, rows)

    def top(self, query_vector: np.ndarray, n: int,
            mask: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        return self.index.top(query_vector, n, mask)


def dense_index(vectors: VectorTable, ids: list[str]) -> DenseIndex | LazyDense:
    """The dense index of the units ``ids``: built now when all have vectors, else on first use."""
    if all(i in vectors for i in ids):
        return DenseIndex(vectors.gather(ids))
    return LazyDense(vectors, ids)
