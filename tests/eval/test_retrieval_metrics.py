"""recall@k, hit@k and MRR over ranked document ids (deduplicated first)."""

from __future__ import annotations

import pytest

from eval.retrieval_metrics import dedupe, hit_at_k, mrr, recall_at_k

RANKED = ["d3", "d1", "d3", "d7", "d1", "d2"]  # d3 and d1 retrieved through several units
GOLD = ["d1", "d2"]


def test_dedupe_keeps_first_rank() -> None:
    assert dedupe(RANKED) == ["d3", "d1", "d7", "d2"]


@pytest.mark.parametrize(("k", "recall"), [(1, 0.0), (2, 0.5), (3, 0.5), (4, 1.0), (10, 1.0)])
def test_recall_at_k_counts_distinct_documents(k: int, recall: float) -> None:
    # Without deduplication d2 would sit at rank 6, and recall@4 would be 0.5.
    assert recall_at_k(RANKED, GOLD, k) == recall


def test_hit_and_mrr() -> None:
    assert hit_at_k(RANKED, GOLD, 1) == 0.0 and hit_at_k(RANKED, GOLD, 2) == 1.0
    assert mrr(RANKED, GOLD) == 1 / 2
    assert mrr(["d9", "d9", "d9", "d2"], GOLD) == 1 / 2  # rank among distinct documents
    assert mrr(["d9"], GOLD) == 0.0 and mrr([], GOLD) == 0.0
    assert recall_at_k([], GOLD, 5) == 0.0


def test_gold_duplicates_and_errors() -> None:
    assert recall_at_k(["d1"], ["d1", "d1", "d2"], 1) == 0.5
    with pytest.raises(ValueError, match="gold"):
        recall_at_k(RANKED, [], 3)
    with pytest.raises(ValueError, match="gold"):
        mrr(RANKED, [])
    with pytest.raises(ValueError, match="k must be"):
        recall_at_k(RANKED, GOLD, 0)
