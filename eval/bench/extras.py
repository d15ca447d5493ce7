"""Extra scores of predictions already made: a second judge (for judge agreement) and the
linear how-to metrics. Each is stored in its own file beside the run's results, keyed by the
scorer's configuration, so adding one later never redoes the predictions."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from eval.bench.records import RECORD_FORMAT
from eval.bench.sample import error_text, is_transient, now_iso, verdict_dict
from eval.howto import HowToScorer
from eval.inseval import InsEvalJudge
from inscoqa.records import Conversation
from serving.pool import usage_tab


def _score_stored(
    conv: Conversation,
    result: dict[str, Any],
    key: str,
    failed_status: str,
    score: Callable[[], tuple[dict[str, Any], str, str | None]],
    missing: str = "no answer to score",
) -> dict[str, Any]:
    """A record of one extra score of ``result``'s stored answer: ``score()`` returns the value
    stored under ``key``, the status and an error; an exception becomes a failed record."""
    record: dict[str, Any] = {
        "sample_id": conv.id, "system": result["system"], "domain": conv.domain,
        "status": "skipped", "error": None, "transient": False, key: None,
        "format": RECORD_FORMAT,
    }
    if result.get("answer") is None:
        record["error"] = missing
    else:
        with usage_tab() as tab:
            try:
                record[key], record["status"], record["error"] = score()
            except Exception as exc:
                record.update(status=failed_status, error=error_text(exc),
                              transient=is_transient(exc))
        record["cost"] = tab.to_dict()
    record["finished_at"] = now_iso()
    return record


def second_judge_sample(conv: Conversation, result: dict[str, Any],
                        judge: InsEvalJudge) -> dict[str, Any]:
    """Score the stored answer of ``result`` again with another judge."""

    def score() -> tuple[dict[str, Any], str, str | None]:
        verdict = judge.score(conv, result["answer"], list(result["procedures"] or []))
        return (verdict_dict(verdict), "ok" if verdict.ok else "judge_failed",
                None if verdict.ok else verdict.error)

    return _score_stored(conv, result, "judge", "judge_failed", score, "no answer to judge")


def howto_sample(conv: Conversation, result: dict[str, Any],
                 scorer: HowToScorer) -> dict[str, Any]:
    """Action-item precision / recall / F1 / success of the stored procedure vs the reference."""

    def score() -> tuple[dict[str, Any], str, str | None]:
        found = scorer.score(conv.question, list(result["procedures"] or []),
                             list(conv.procedures))
        return ({"precision": found.precision, "recall": found.recall, "f1": found.f1,
                 "success": float(found.success),
                 "generated_items": list(found.generated_items),
                 "matches": [list(m) for m in found.matches]}, "ok", None)

    return _score_stored(conv, result, "howto", "failed", score)
