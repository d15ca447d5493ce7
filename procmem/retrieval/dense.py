"""Dense retrieval: cosine similarity of unit vectors (L2-normalised float32 rows).

Small indexes are scored exactly with one matrix product. From ``exact_below`` rows on (100k
units make a 150 MB matrix that every query would read), candidates are preselected by the
Hamming distance of sign bits (48 bytes a vector for 384-d, ``np.bitwise_count``) and only the
best ``max(rescore_min, rescore_factor * n)`` are rescored exactly: binary quantisation with
rescoring, which keeps the exact order of what it returns.
"""

from __future__ import annotations

import numpy as np

from procmem.retrieval.fusion import top_n

EXACT_BELOW = 20_000
RESCORE_MIN = 1_000
RESCORE_FACTOR = 10


def sign_bits(vectors: np.ndarray) -> np.ndarray:
    """Sign bits packed into uint64 words, one row per vector."""
    packed = np.packbits(np.atleast_2d(vectors) > 0, axis=1)
    pad = (-packed.shape[1]) % 8
    if pad:
        packed = np.pad(packed, ((0, 0), (0, pad)))
    return np.ascontiguousarray(packed).view(np.uint64)


class DenseIndex:
    def __init__(self, matrix: np.ndarray, *, exact_below: int = EXACT_BELOW):
        self.matrix = np.ascontiguousarray(matrix, dtype=np.float32)
        approximate = len(self) >= exact_below and hasattr(np, "bitwise_count")
        self.bits = sign_bits(self.matrix) if approximate else None

    def __len__(self) -> int:
        return int(self.matrix.shape[0])

    def scores_at(self, query_vector: np.ndarray, rows: np.ndarray) -> np.ndarray:
        return self.matrix[rows] @ np.asarray(query_vector, dtype=np.float32).reshape(-1)

    def top(self, query_vector: np.ndarray, n: int,
            mask: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """``(rows, cosine)`` of the ``n`` nearest rows, best first."""
        q = np.asarray(query_vector, dtype=np.float32).reshape(-1)
        if len(self) == 0 or n <= 0:
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float32)
        if self.bits is None:
            scores = self.matrix @ q
            rows = top_n(scores, n, mask)
            return rows, scores[rows]
        distance = np.bitwise_count(self.bits ^ sign_bits(q)).sum(axis=1, dtype=np.int32)
        if mask is not None:
            distance[~mask] = np.iinfo(np.int32).max
        m = min(len(self), max(RESCORE_MIN, RESCORE_FACTOR * n))
        candidates = np.argpartition(distance, m - 1)[:m] if m < len(self) else np.arange(len(self))
        if mask is not None:
            candidates = candidates[mask[candidates]]
        scores = self.matrix[candidates] @ q
        order = np.argsort(-scores, kind="stable")[:n]
        return candidates[order], scores[order]
