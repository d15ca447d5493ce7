"""Pairwise comparison of two systems' procedures (AAG's protocol, via ``eval.pairwise``).

For each sample both systems answered, the pairwise judge compares system A's steps with system
B's for the conversation's task (10 calls, order swapped in half, fixed seeds, reference steps
not shown) and a majority vote gives A's ``win``, ``loss`` or ``tie``. A sample where either
system failed to answer is recorded as ``skipped``; a comparison that raised as ``failed``.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from eval.bench.records import PairRecord
from eval.bench.sample import error_text, is_transient, now_iso
from eval.pairwise import PairwiseJudge
from inscoqa.records import Conversation
from serving.pool import usage_tab
from serving.types import ChatModel

RESULTS = ("win", "loss", "tie")


def task_of(conv: Conversation) -> tuple[str, str]:
    """(task input, task output) of a conversation: what the user has, and what they want."""
    lines = [f"Q: {q}\nA: {a}" for q, a in conv.history]
    titles = "; ".join(d.title for d in conv.documents)
    context = "\n".join(lines) if lines else "(no earlier turns)"
    task_input = f"Conversation so far:\n{context}\nDocuments available: {titles}"
    return task_input, conv.question


def compare_sample(conv: Conversation, a: dict[str, Any], b: dict[str, Any],
                   judge: Any) -> dict[str, Any]:
    """One pairwise record for ``conv`` from the two systems' result records."""
    record = PairRecord(sample_id=conv.id, domain=conv.domain, a=a["system"], b=b["system"])
    missing = [r["system"] for r in (a, b) if r.get("answer") is None]
    if missing:
        record.error = f"no answer from {', '.join(missing)}"
        record.finished_at = now_iso()
        return record.to_dict()
    task_input, task_output = task_of(conv)
    with usage_tab() as tab:
        try:
            outcome = judge.compare(task_input, task_output, list(a["procedures"] or []),
                                    list(b["procedures"] or []))
            record.status, record.result = "ok", str(outcome.result)
            record.votes = [str(v) for v in outcome.votes]
            record.call_errors = [c.error for c in outcome.calls if c.error]
        except Exception as exc:  # recorded and counted, never dropped
            record.status, record.error = "failed", error_text(exc)
            record.transient = is_transient(exc)
    record.cost = tab.to_dict()
    record.finished_at = now_iso()
    return record.to_dict()


def tally(records: list[dict[str, Any]]) -> dict[str, int]:
    """Win / loss / tie counts (from A's side) plus skipped and failed samples (a comparison
    that raised, or whose votes were all invalid)."""
    counts = Counter({k: 0 for k in (*RESULTS, "skipped", "failed")})
    for r in records:
        if r["status"] == "ok" and r["result"] in RESULTS:
            counts[r["result"]] += 1
        elif r["status"] == "skipped":
            counts["skipped"] += 1
        else:
            counts["failed"] += 1
    counts["n"] = len(records)
    return dict(counts)


def make_pairwise_judge(llm: ChatModel) -> PairwiseJudge:
    return PairwiseJudge(llm)
