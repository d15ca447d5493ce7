"""The extractive answerer: no model at all.

It retrieves units for the (history-aware) query and composes the reply from the best ones:
steps taken verbatim from the units of the top documents, deduplicated, in document order, each
citing its source (``[n]`` = the n-th entry of ``Answer.sources``). It is the CPU-only baseline
and the fallback when no engine is reachable (:func:`answer_with_fallback`).
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from typing import Any

from rapidfuzz import fuzz

from procmem.answerers.base import (
    Answer,
    Answerer,
    AnswerRequest,
    Searchable,
    StageRecord,
    Trace,
    register,
)
from procmem.answerers.common import LLMParams, make_params
from procmem.answerers.parsing import ReplyParseError, parse_steps
from procmem.answerers.retrieval import Retriever, hit_record, sources_from_hits
from procmem.answerers.rewrite import standalone_query
from procmem.units import Procedure, Unit, UnitKind
from serving.errors import LLMError

DUPLICATE_SIMILARITY = 90.0
MAX_LEAD_INPUT_WORDS = 10  # longer inputs (prerequisite sentences) stay out of the lead
_SENTENCE_RE = re.compile(r"(?<=[.!?])\s+")


@dataclass
class ExtractiveParams:
    k: int = 6
    unit_kind: UnitKind = "procedure"
    max_steps: int = 12
    max_docs: int = 2  # steps come from the units of at most this many documents,
    min_steps: int = 3  # ... the next document only while fewer steps than this were found
    cite: bool = True  # end every step with "[n]", n = its source's position in Answer.sources
    query_rewrite: str = "heuristic"  # "heuristic" or "none" (there is no model to rewrite)


def _sentences(text: str) -> list[str]:
    prose = [line.strip() for line in text.splitlines()
             if line.strip() and not line.lstrip().startswith(("#", "```", "|"))]
    return [s.strip() for s in _SENTENCE_RE.split(" ".join(prose)) if len(s.split()) >= 3]


def unit_steps(unit: Unit) -> list[str]:
    """The steps a unit holds: a procedure's steps, else the numbered or bulleted lines of its
    text, else its sentences."""
    if isinstance(unit, Procedure):
        return [s.strip() for s in unit.steps if s.strip()]
    text = getattr(unit, "body", None) or getattr(unit, "text", "")
    return parse_steps(text, numbered_only=True) or parse_steps(text) or _sentences(text)[:4]


def unit_lead(unit: Unit) -> str:
    """One plain sentence saying what a unit is about."""
    title = str(unit.meta.get("title", "")).strip()
    if isinstance(unit, Procedure):
        lead = f"Follow the steps for “{unit.output.strip().rstrip('.')}”"
        resources = unit.input.strip().rstrip(".")
        if resources and len(resources.split()) <= MAX_LEAD_INPUT_WORDS:
            lead += f", with {resources}"
        return f"{lead}."
    header = getattr(unit, "header", "")
    if header:
        return f"Follow the steps for “{header.strip().rstrip('.')}”."
    sentences = _sentences(getattr(unit, "text", ""))
    return sentences[0] if sentences else (f"See “{title}”." if title else "See the steps below.")


def _is_duplicate(step: str, kept: list[str]) -> bool:
    key = step.casefold()
    return any(fuzz.ratio(key, other.casefold()) >= DUPLICATE_SIMILARITY for other in kept)


def compose(hits: list[Any], *, max_steps: int = 12, max_docs: int = 2, min_steps: int = 3,
            cite: bool = True) -> tuple[str, list[str], dict[str, Any]]:
    """Answer text, steps and what was used, from ranked hits (no model)."""
    if not hits:
        return "No matching instructions were found.", [], {"used_units": []}
    source_index = {s.unit_id: i for i, s in enumerate(sources_from_hits(hits), 1)}
    doc_rank: dict[str, int] = {}
    for hit in hits:
        doc_rank.setdefault(str(hit.unit.meta.get("doc_id", "")), len(doc_rank))
    chosen = [h for h in hits if doc_rank[str(h.unit.meta.get("doc_id", ""))] < max_docs]
    chosen.sort(key=lambda h: (doc_rank[str(h.unit.meta.get("doc_id", ""))],
                               h.unit.meta.get("order", h.rank), h.rank))
    steps: list[str] = []
    plain: list[str] = []
    used: list[str] = []
    for hit in chosen:
        if steps and len(steps) >= min_steps and hit.unit.meta.get("doc_id") != chosen[0].unit.meta.get("doc_id"):
            break
        for step in unit_steps(hit.unit):
            if len(steps) >= max_steps or _is_duplicate(step, plain):
                continue
            plain.append(step)
            steps.append(f"{step} [{source_index[hit.unit.id]}]" if cite else step)
            if hit.unit.id not in used:
                used.append(hit.unit.id)
    top = hits[0].unit
    title = str(top.meta.get("title", "")).strip()
    answer = unit_lead(top) + (f" (from “{title}”)" if title else "")
    used_docs = list(dict.fromkeys(str(h.unit.meta.get("doc_id", "")) for h in chosen if h.unit.id in used))
    return answer, steps, {"used_units": used, "documents": used_docs}


class ExtractiveAnswerer:
    name = "extractive"

    def __init__(self, *, memory: Searchable | None, params: ExtractiveParams) -> None:
        self.memory = memory
        self.params = params

    def config(self) -> dict[str, Any]:
        return {"answerer": self.name, "params": dataclasses.asdict(self.params),
                "prompts": {}, "model": ""}

    def answer(self, request: AnswerRequest) -> Answer:
        if not request.question.strip():
            raise ValueError("the request has an empty question")
        p = self.params
        trace = Trace()
        retriever = Retriever(self.memory, request.documents)
        query = standalone_query(trace, request.history, request.question, llm=None,
                                 params=LLMParams(query_rewrite=p.query_rewrite))
        with trace.stage("retrieve", query=query.query, k=p.k) as stage:
            hits, kind = retriever.search(query.query, k=p.k, kind=p.unit_kind)
            stage.details.update(kind=kind, hits=[hit_record(h) for h in hits])
        with trace.stage("compose") as stage:
            answer, steps, used = compose(hits, max_steps=p.max_steps, max_docs=p.max_docs,
                                            min_steps=p.min_steps, cite=p.cite)
            stage.details.update(used)
        return Answer(answer=answer, procedures=steps, sources=sources_from_hits(hits), trace=trace)


@register("extractive")
def make_extractive(*, llm: Any = None, memory: Searchable | None = None, **params: Any) -> ExtractiveAnswerer:
    """The model-free answerer (``llm`` is accepted and ignored)."""
    return ExtractiveAnswerer(memory=memory, params=make_params(ExtractiveParams, "extractive", params))


def answer_with_fallback(answerer: Answerer, extractive: Answerer, request: AnswerRequest) -> Answer:
    """``answerer``'s answer, or — when its engine fails or its reply cannot be read — the
    extractive answer, with the failure recorded as the first stage of the trace."""
    try:
        return answerer.answer(request)
    except (LLMError, ReplyParseError) as exc:
        answer = extractive.answer(request)
        answer.trace.stages.insert(0, StageRecord("fallback", details={
            "failed_answerer": answerer.name, "used": extractive.name,
            "error": f"{type(exc).__name__}: {exc}",
        }))
        return answer
