"""Retrieval scores of one answer in the open setting: did it draw on the reference documents?

The ranked list is the answer's sources (best first, one entry per document), falling back to
document ids recorded by retrieval stages of the trace when the answer cites no source.
"""

from __future__ import annotations

from typing import Any

from procmem.answerers.base import Answer

RECALL_KS = (1, 3, 5, 10)


def ranked_doc_ids(answer: Answer) -> list[str]:
    ids = [s.doc_id for s in answer.sources if s.doc_id]
    if not ids:
        for stage in answer.trace.stages:
            value = stage.details.get("doc_ids")
            if isinstance(value, list):
                ids.extend(str(v) for v in value)
    seen: set[str] = set()
    return [d for d in ids if not (d in seen or seen.add(d))]


def retrieval_scores(answer: Answer, gold: list[str]) -> dict[str, Any]:
    from eval.retrieval_metrics import mrr, recall_at_k

    ranked = ranked_doc_ids(answer)
    scores: dict[str, Any] = {f"recall@{k}": recall_at_k(ranked, gold, k) for k in RECALL_KS}
    scores["recall"] = recall_at_k(ranked, gold, max(len(ranked), 1))
    scores["mrr"] = mrr(ranked, gold)
    scores["n_retrieved"] = len(ranked)
    return scores
