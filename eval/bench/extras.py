"""Extra scores of predictions already made: a second judge (for judge agreement) and the
linear how-to metrics. Each is stored in its own file beside the run's results, keyed by the
scorer's configuration, so adding one later never redoes the predictions."""

from __future__ import annotations

from typing import Any

from eval.bench.llm import open_tab
from eval.bench.sample import error_text, is_transient, now_iso
from inscoqa.records import Conversation
from serving.types import ChatModel


def _base(conv: Conversation, result: dict[str, Any]) -> dict[str, Any]:
    return {"sample_id": conv.id, "system": result["system"], "domain": conv.domain,
            "status": "skipped", "error": None, "transient": False}


def second_judge_sample(conv: Conversation, result: dict[str, Any],
                        llm: ChatModel) -> dict[str, Any]:
    """Score the stored answer of ``result`` again with another judge."""
    from eval.inseval import InsEvalJudge

    record = _base(conv, result)
    record["judge"] = None
    if result.get("answer") is None:
        record["error"] = "no answer to judge"
    else:
        with open_tab() as tab:
            try:
                verdict = InsEvalJudge(llm).score(conv, result["answer"],
                                                  list(result["procedures"] or []))
                record["judge"] = {"score": verdict.score, "tcr": verdict.tcr, "ok": verdict.ok,
                                   "error": verdict.error, "raw": verdict.raw}
                record["status"] = "ok" if verdict.ok else "judge_failed"
                record["error"] = None if verdict.ok else verdict.error
            except Exception as exc:
                record.update(status="judge_failed", error=error_text(exc),
                              transient=is_transient(exc))
        record["cost"] = tab.to_dict()
    record["finished_at"] = now_iso()
    return record


def howto_sample(conv: Conversation, result: dict[str, Any], llm: ChatModel) -> dict[str, Any]:
    """Action-item precision / recall / F1 / success of the stored procedure vs the reference."""
    from eval.howto import HowToScorer

    record = _base(conv, result)
    record["howto"] = None
    if result.get("answer") is None:
        record["error"] = "no answer to score"
    else:
        with open_tab() as tab:
            try:
                score = HowToScorer(llm).score(conv.question, list(result["procedures"] or []),
                                               list(conv.procedures))
                record["howto"] = {"precision": score.precision, "recall": score.recall,
                                   "f1": score.f1, "success": _plain_success(score.success)}
                record["status"] = "ok"
            except Exception as exc:
                record.update(status="failed", error=error_text(exc), transient=is_transient(exc))
        record["cost"] = tab.to_dict()
    record["finished_at"] = now_iso()
    return record


def _plain_success(value: Any) -> Any:
    return float(value) if isinstance(value, bool | int | float) else value


def scorer_config(factory_module: str, factory: str, llm: ChatModel) -> dict[str, Any]:
    """The configuration of a scorer class built on ``llm`` (its ``config()`` when it has one)."""
    import importlib

    cls = getattr(importlib.import_module(factory_module), factory)
    scorer = cls(llm)
    config = getattr(scorer, "config", None)
    return dict(config()) if callable(config) else {"scorer": factory, "model": llm.model}
