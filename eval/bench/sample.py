"""Answer and score one conversation: the unit of work (and of resumption) of a run.

A result record is an :class:`eval.bench.records.SampleRecord`, stored as one JSON line (its
``to_dict``). ``status`` says how far the sample got:

* ``ok``: answered and judged;
* ``judge_failed``: answered, but the judge's reply had no valid score (the raw reply is kept;
  nothing is coerced to a number);
* ``answer_failed``: the answerer raised (the error is kept).

Failures caused by the infrastructure (engine unreachable, timeout, HTTP 429/5xx) are marked
``transient`` and are tried again when the run is resumed; all other failures are final.
"""

from __future__ import annotations

import time
import traceback
from collections.abc import Callable
from dataclasses import asdict
from datetime import UTC, datetime
from typing import Any

from eval.bench.records import STATUSES, GroundingRecord, RougeRecord, SampleRecord, judge_record
from eval.bench.retrieval import retrieval_scores
from eval.inseval import InsEvalJudge, JudgeVerdict
from eval.rouge import rouge_l
from inscoqa.corpus.document import Document
from inscoqa.records import Conversation
from procmem.answerers.base import Answer, Answerer, AnswerRequest
from serving.errors import EngineStartError, LLMConnectionError, LLMHTTPError, LLMTimeoutError
from serving.headers import session
from serving.pool import usage_tab

DocumentSource = Callable[[Conversation], list[Document]]
__all__ = ["STATUSES", "DocumentSource", "error_text", "is_transient", "now_iso", "run_sample",
           "verdict_dict"]


def is_transient(exc: BaseException) -> bool:
    """Failures of the infrastructure rather than of the system under test."""
    if isinstance(exc, LLMConnectionError | LLMTimeoutError | EngineStartError):
        return True
    return isinstance(exc, LLMHTTPError) and (exc.status == 429 or exc.status >= 500)


def error_text(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"


def verdict_dict(verdict: JudgeVerdict) -> dict[str, Any]:
    """A judge verdict as stored: score and TCR only when parsed, the raw reply always."""
    return asdict(judge_record(verdict))


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def run_sample(conv: Conversation, system: str, answerer: Answerer, judge: InsEvalJudge,
               documents: DocumentSource | None) -> dict[str, Any]:
    """Answer ``conv`` with ``answerer``, then score the answer. Never raises for a failure
    of the answerer or the judge: the failure is the record."""
    record = SampleRecord(sample_id=conv.id, system=system, domain=conv.domain)
    # one session per conversation: a router in front of replicas keeps it on one of them
    with session(conv.id):
        answer = _answer(conv, answerer, documents, record)
        if answer is not None:
            _score(conv, answer, judge, documents is None, record)
    record.finished_at = now_iso()
    return record.to_dict()


def _answer(conv: Conversation, answerer: Answerer, documents: DocumentSource | None,
            record: SampleRecord) -> Answer | None:
    start = time.perf_counter()
    with usage_tab() as tab:
        try:
            docs = documents(conv) if documents is not None else None
            request = AnswerRequest(question=conv.question, history=list(conv.history),
                                    documents=docs)
            answer = answerer.answer(request)
        except Exception as exc:  # the failure is recorded, counted and reported
            record.error = error_text(exc)
            record.transient = is_transient(exc)
            record.traceback = traceback.format_exc(limit=6)
            answer = None
    seconds = time.perf_counter() - start
    cost = {**tab.to_dict(), "seconds": round(seconds, 4)}
    if answer is not None:
        traced = answer.trace.usage
        if traced.calls + traced.cached_calls > tab.usage.calls + tab.usage.cached_calls:
            # the answerer made calls outside this thread; its trace has the full account
            cost.update(traced.to_dict())
        record.answer = answer.answer
        record.procedures = list(answer.procedures)
        record.sources = [_source_dict(s) for s in answer.sources]
        if answer.groundings is not None:
            record.groundings = [GroundingRecord.of(g) if g is not None else None
                                 for g in answer.groundings]
        record.trace = answer.trace.to_dict()
        record.clarification = answer.clarification
    record.cost["answer"] = cost
    return answer


def _source_dict(source: Any) -> dict[str, Any]:
    return {"doc_id": source.doc_id, "title": source.title, "unit_id": source.unit_id,
            "score": source.score}


def _score(conv: Conversation, answer: Answer, judge: InsEvalJudge, open_setting: bool,
           record: SampleRecord) -> None:
    record.rouge = RougeRecord(
        word=rouge_l(answer.answer, conv.answer, level="word").fmeasure,
        char=rouge_l(answer.answer, conv.answer, level="char").fmeasure,
    )
    if open_setting:
        record.retrieval = retrieval_scores(answer, [d.doc_id for d in conv.documents])
    start = time.perf_counter()
    with usage_tab() as tab:
        try:
            verdict = judge.score(conv, answer.answer, list(answer.procedures))
            record.judge = judge_record(verdict)
            record.status = "ok" if verdict.ok else "judge_failed"
            if not verdict.ok:
                record.error = f"judge reply not parsed: {verdict.error}"
        except Exception as exc:  # a judge that cannot be reached or raises is a failure too
            record.status = "judge_failed"
            record.error = error_text(exc)
            record.transient = is_transient(exc)
            record.judge = judge_record(
                JudgeVerdict.failed(error_text(exc), str(getattr(exc, "raw", "") or "")))
    record.cost["judge"] = {**tab.to_dict(), "seconds": round(time.perf_counter() - start, 4)}
