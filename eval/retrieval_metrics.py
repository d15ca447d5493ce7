"""Retrieval metrics over a ranked list of document ids (best first).

The ranked list is deduplicated first (a document retrieved through several of its units
counts once, at its best rank), so recall can never exceed 1 and ranks are document ranks.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence


def dedupe(ranked_doc_ids: Iterable[str]) -> list[str]:
    """The ids in order of first appearance."""
    return list(dict.fromkeys(ranked_doc_ids))


def _gold(gold_doc_ids: Iterable[str]) -> set[str]:
    gold = set(gold_doc_ids)
    if not gold:
        raise ValueError("no gold document ids: the metric is undefined")
    return gold


def recall_at_k(ranked_doc_ids: Sequence[str], gold_doc_ids: Iterable[str], k: int) -> float:
    """Share of the gold documents among the first ``k`` distinct retrieved documents."""
    if k < 1:
        raise ValueError(f"k must be >= 1, got {k}")
    gold = _gold(gold_doc_ids)
    return len(gold.intersection(dedupe(ranked_doc_ids)[:k])) / len(gold)


def hit_at_k(ranked_doc_ids: Sequence[str], gold_doc_ids: Iterable[str], k: int) -> float:
    """1.0 when any gold document is among the first ``k`` distinct documents, else 0.0."""
    if k < 1:
        raise ValueError(f"k must be >= 1, got {k}")
    gold = _gold(gold_doc_ids)
    return float(any(d in gold for d in dedupe(ranked_doc_ids)[:k]))


def mrr(ranked_doc_ids: Sequence[str], gold_doc_ids: Iterable[str]) -> float:
    """Reciprocal rank of the first gold document among the distinct documents (0.0 if none)."""
    gold = _gold(gold_doc_ids)
    for rank, doc_id in enumerate(dedupe(ranked_doc_ids), 1):
        if doc_id in gold:
            return 1.0 / rank
    return 0.0
