"""AAG's baselines: zero-shot, few-shot (k random procedures as examples) and RAG (k retrieved).

All three answer in the protocol's format (a plain answer and ordered steps).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from procmem.answerers.base import Answer, AnswerRequest, Searchable, Trace, register
from procmem.answerers.common import (
    ANSWER_FORMATS,
    LLMParams,
    ModelAnswerer,
    format_history,
    generate_answer,
    make_params,
    render_units,
)
from procmem.answerers.retrieval import Hit, Retriever, hit_record, sources_from_hits
from procmem.answerers.rewrite import PROMPTS as REWRITE_PROMPTS
from procmem.answerers.rewrite import standalone_query
from procmem.units import UnitKind


@dataclass
class BaselineParams(LLMParams):
    temperature: float = 0.7  # as AAG, so the comparison is fair
    max_tokens: int = 256
    k: int = 3
    unit_kind: UnitKind = "procedure"
    unit_words: int = 160


class ZeroShotAnswerer(ModelAnswerer):
    name = "zero-shot"
    prompt_names = ("answer/zero_shot", *ANSWER_FORMATS)

    def answer(self, request: AnswerRequest) -> Answer:
        self.check(request)
        trace = Trace()
        with trace.stage("generate") as stage:
            data = generate_answer(self.llm, trace, stage, "answer/zero_shot", self.params,
                                   history=format_history(request.history), question=request.question)
        return Answer(answer=data["answer"], procedures=data["procedures"], trace=trace)


class FewShotAnswerer(ModelAnswerer):
    name = "few-shot"
    prompt_names = ("answer/few_shot", *ANSWER_FORMATS)

    def answer(self, request: AnswerRequest) -> Answer:
        self.check(request)
        p: BaselineParams = self.params
        trace = Trace()
        with trace.stage("examples", k=p.k, seed=p.seed) as stage:
            units, kind = Retriever(self.memory, request.documents).units(p.unit_kind)
            pool = sorted(units, key=lambda u: u.id)
            examples = random.Random(p.seed).sample(pool, min(p.k, len(pool)))
            hits = [Hit(u, None, rank, "random") for rank, u in enumerate(examples, 1)]
            stage.details.update(kind=kind, pool=len(pool), examples=[hit_record(h) for h in hits])
        with trace.stage("generate") as stage:
            data = generate_answer(self.llm, trace, stage, "answer/few_shot", p,
                                   examples=render_units(examples, p.unit_words),
                                   history=format_history(request.history), question=request.question)
        return Answer(answer=data["answer"], procedures=data["procedures"],
                      sources=sources_from_hits(hits), trace=trace)


class RAGAnswerer(ModelAnswerer):
    name = "rag"
    prompt_names = ("answer/rag", *ANSWER_FORMATS, *REWRITE_PROMPTS)

    def answer(self, request: AnswerRequest) -> Answer:
        self.check(request)
        p: BaselineParams = self.params
        trace = Trace()
        retriever = Retriever(self.memory, request.documents)
        query = standalone_query(trace, request.history, request.question, llm=self.llm, params=p)
        with trace.stage("retrieve", query=query.query, k=p.k) as stage:
            hits, kind = retriever.search(query.query, k=p.k, kind=p.unit_kind,
                                          question=query.question)
            stage.details.update(kind=kind, hits=[hit_record(h) for h in hits])
        with trace.stage("generate") as stage:
            data = generate_answer(self.llm, trace, stage, "answer/rag", p, query=query.query,
                                   procedures=render_units([h.unit for h in hits], p.unit_words),
                                   history=format_history(request.history), question=request.question)
        return Answer(answer=data["answer"], procedures=data["procedures"],
                      sources=sources_from_hits(hits), trace=trace)


_BASELINES: dict[str, type[ModelAnswerer]] = {
    "zero-shot": ZeroShotAnswerer, "few-shot": FewShotAnswerer, "rag": RAGAnswerer,
}


def _factory(name: str, cls: type[ModelAnswerer]) -> Any:
    def make(*, llm: Any = None, memory: Searchable | None = None, **params: Any) -> ModelAnswerer:
        return cls(llm=llm, memory=memory, params=make_params(BaselineParams, name, params))

    make.__name__ = f"make_{name.replace('-', '_')}"
    return make


for _name, _cls in _BASELINES.items():
    register(_name)(_factory(_name, _cls))
