"""Extra scores of predictions already made: a second judge (for judge agreement) and the
linear how-to metrics. Each is stored in its own file beside the run's results, keyed by the
scorer's configuration, so adding one later never redoes the predictions."""

from __future__ import annotations

from typing import Any

from eval.bench.llm import open_tab
from eval.bench.sample import error_text, is_transient, now_iso, verdict_dict
from eval.howto import HowToScorer
from eval.inseval import InsEvalJudge
from inscoqa.records import Conversation


def _base(conv: Conversation, result: dict[str, Any]) -> dict[str, Any]:
    return {"sample_id": conv.id, "system": result["system"], "domain": conv.domain,
            "status": "skipped", "error": None, "transient": False}


def second_judge_sample(conv: Conversation, result: dict[str, Any],
                        judge: InsEvalJudge) -> dict[str, Any]:
    """Score the stored answer of ``result`` again with another judge."""
    record = _base(conv, result)
    record["judge"] = None
    if result.get("answer") is None:
        record["error"] = "no answer to judge"
    else:
        with open_tab() as tab:
            try:
                verdict = judge.score(conv, result["answer"],
                                                  list(result["procedures"] or []))
                record["judge"] = verdict_dict(verdict)
                record["status"] = "ok" if verdict.ok else "judge_failed"
                record["error"] = None if verdict.ok else verdict.error
            except Exception as exc:
                record.update(status="judge_failed", error=error_text(exc),
                              transient=is_transient(exc))
        record["cost"] = tab.to_dict()
    record["finished_at"] = now_iso()
    return record


def howto_sample(conv: Conversation, result: dict[str, Any],
                 scorer: HowToScorer) -> dict[str, Any]:
    """Action-item precision / recall / F1 / success of the stored procedure vs the reference."""
    record = _base(conv, result)
    record["howto"] = None
    if result.get("answer") is None:
        record["error"] = "no answer to score"
    else:
        with open_tab() as tab:
            try:
                score = scorer.score(conv.question, list(result["procedures"] or []),
                                               list(conv.procedures))
                record["howto"] = {"precision": score.precision, "recall": score.recall,
                                   "f1": score.f1, "success": float(score.success),
                                   "generated_items": list(score.generated_items),
                                   "matches": [list(m) for m in score.matches]}
                record["status"] = "ok"
            except Exception as exc:
                record.update(status="failed", error=error_text(exc), transient=is_transient(exc))
        record["cost"] = tab.to_dict()
    record["finished_at"] = now_iso()
    return record
