"""Top-N selection and the fusion of ranked lists, all in numpy.

- :func:`rrf`: reciprocal rank fusion, ``sum_i w_i / (k + rank_i)`` with ``k = 60`` by default;
  a row absent from a list gets nothing from it.
- :func:`weighted`: a weighted sum of each side's scores, min-max normalised over the candidates.
- :func:`reorder_head`: the first results of one ranking reordered by reciprocal rank fused with
  another ranking (a conversation's results, ordered by its last question alone).
"""

from __future__ import annotations

import numpy as np

RRF_K = 60


def top_n(scores: np.ndarray, n: int, mask: np.ndarray | None = None,
          *, positive_only: bool = False) -> np.ndarray:
    """Row indices of the ``n`` best scores, best first (rows outside ``mask`` excluded)."""
    if scores.size == 0 or n <= 0:
        return np.zeros(0, dtype=np.int64)
    values = scores.astype(np.float32, copy=True)
    if mask is not None:
        values[~mask] = -np.inf
    if positive_only:
        values[values <= 0] = -np.inf
    n = min(n, values.size)
    rows = np.argpartition(-values, n - 1)[:n] if n < values.size else np.arange(values.size)
    rows = rows[np.isfinite(values[rows])]
    return rows[np.argsort(-values[rows], kind="stable")]


def rrf(ranked: list[np.ndarray], *, k: int = RRF_K,
        weights: list[float] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Fuse ranked row lists; returns ``(rows, scores)`` best first."""
    lists = [r for r in ranked if r.size]
    if not lists:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float32)
    weights = weights or [1.0] * len(ranked)
    w = [weights[i] for i, r in enumerate(ranked) if r.size]
    rows = np.concatenate(lists)
    contrib = np.concatenate([wi / (k + np.arange(1, r.size + 1, dtype=np.float64)) for wi, r in zip(w, lists, strict=True)])
    unique, inverse = np.unique(rows, return_inverse=True)
    fused = np.bincount(inverse, weights=contrib)
    order = np.lexsort((unique, -fused))
    return unique[order], fused[order].astype(np.float32)


def weighted(candidates: np.ndarray, scores: list[np.ndarray],
             weights: list[float]) -> tuple[np.ndarray, np.ndarray]:
    """Weighted sum of each side's scores of ``candidates`` (aligned arrays), each min-max
    normalised over the candidates."""
    if candidates.size == 0:
        return candidates, np.zeros(0, dtype=np.float32)
    total = np.zeros(candidates.size, dtype=np.float64)
    for values, weight in zip(scores, weights, strict=True):
        values = np.asarray(values, dtype=np.float64)
        span = values.max() - values.min()
        total += weight * ((values - values.min()) / span if span > 0 else np.zeros_like(values))
    order = np.lexsort((candidates, -total))
    return candidates[order], total[order].astype(np.float32)


def reorder_head(ranked: list[str], other: list[str], *, window: int, weight: float,
                 k: int = RRF_K) -> list[int]:
    """Positions of ``ranked`` (ids, best first) in a new order: its first ``window`` ordered by
    ``1 / (k + rank) + weight / (k + rank in other)`` (an id absent from ``other`` gets nothing
    from it, ties keep their order), the rest as they were."""
    head = min(window, len(ranked))
    place = {key: rank for rank, key in enumerate(other, 1)}

    def fused(i: int) -> float:
        rank = place.get(ranked[i])
        return 1.0 / (k + i + 1) + (weight / (k + rank) if rank is not None else 0.0)

    return sorted(range(head), key=lambda i: (-fused(i), i)) + list(range(head, len(ranked)))
