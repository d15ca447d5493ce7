"""Dense retrieval: cosine similarity of unit vectors, one matrix product per query."""

from __future__ import annotations

import numpy as np


class DenseIndex:
    """Rows of L2-normalised float32 vectors; :meth:`scores` is their dot product with a query."""

    def __init__(self, matrix: np.ndarray):
        self.matrix = np.ascontiguousarray(matrix, dtype=np.float32)

    def __len__(self) -> int:
        return int(self.matrix.shape[0])

    def scores(self, query_vector: np.ndarray) -> np.ndarray:
        if len(self) == 0:
            return np.zeros(0, dtype=np.float32)
        return self.matrix @ np.asarray(query_vector, dtype=np.float32).reshape(-1)
