"""Ranking metrics of one query with binary labels: MRR@k, P@k and NDCG@k.

``ranked`` is the reranked candidate list (document ids, best first), ``relevant`` the labelled
documents. NDCG's ideal ranking puts every relevant document first (at most ``k`` of them), also
the ones the candidates miss, so no reordering of an incomplete candidate list reaches 1.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

METRICS = ("MRR@1", "MRR@5", "P@1", "P@5", "NDCG@5")


def mrr_at(ranked: Sequence[str], relevant: set[str], k: int) -> float:
    for rank, doc_id in enumerate(ranked[:k], 1):
        if doc_id in relevant:
            return 1.0 / rank
    return 0.0


def precision_at(ranked: Sequence[str], relevant: set[str], k: int) -> float:
    return sum(d in relevant for d in ranked[:k]) / k


def ndcg_at(ranked: Sequence[str], relevant: set[str], k: int) -> float:
    dcg = sum(1.0 / math.log2(i + 2) for i, d in enumerate(ranked[:k]) if d in relevant)
    ideal = sum(1.0 / math.log2(i + 2) for i in range(min(k, len(relevant))))
    return dcg / ideal if ideal else 0.0


def query_metrics(ranked: Sequence[str], relevant: set[str]) -> dict[str, float]:
    if not relevant:
        raise ValueError("a labelled query needs at least one relevant document")
    return {"MRR@1": mrr_at(ranked, relevant, 1), "MRR@5": mrr_at(ranked, relevant, 5),
            "P@1": precision_at(ranked, relevant, 1), "P@5": precision_at(ranked, relevant, 5),
            "NDCG@5": ndcg_at(ranked, relevant, 5)}


def mean_metrics(rows: Sequence[dict[str, float]]) -> dict[str, float]:
    return {m: sum(r[m] for r in rows) / len(rows) if rows else 0.0 for m in METRICS}
