"""Unit vectors kept by unit id, so an update embeds only units it has not seen."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np


class VectorTable:
    def __init__(self, dim: int = 0):
        self.dim = dim
        self.row: dict[str, int] = {}
        self._matrix = np.zeros((0, dim), dtype=np.float32)
        self._size = 0

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
        rows = np.fromiter((self.row[i] for i in ids), dtype=np.int64)
        return self._matrix[rows] if rows.size else np.zeros((0, self.dim), dtype=np.float32)

    def keep_only(self, ids: list[str]) -> None:
        """Drop the vectors of every other unit (compacts the table)."""
        matrix = self.gather(ids)
        self.row = {unit_id: i for i, unit_id in enumerate(ids)}
        self._matrix = matrix
        self._size = len(ids)
