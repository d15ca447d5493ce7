"""AAG: analogy-augmented generation over a procedural memory, and its ablations.

1. RAG draft from the top K procedures for the standalone query;
2. query rewriting: an outline of the solution and N search questions;
3. per question: retrieve K procedures and summarise the useful parts; stack ``Q: ...\\nA: ...``;
4. update the draft with that knowledge;
5-6. critic (exactly ``NO UPDATE REQUIRED`` or edits) <-> edit, at most T rounds.

Ablations are switches: ``summarize=False`` (NOSUM: the deduplicated retrieved procedures are
concatenated instead of summarised), ``critique=False`` (NOCR), ``rewrite_queries=False`` (NOQR:
the RAG draft goes straight into the critic loop). With ``unit_kind="logic_unit"`` the same
pipeline runs over logic units.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from procmem.answerers.base import (
    Answer,
    AnswerRequest,
    Searchable,
    StageRecord,
    Trace,
    record_call,
    register,
)
from procmem.answerers.common import (
    ANSWER_FORMATS,
    LLMParams,
    ModelAnswerer,
    ask,
    format_history,
    generate_answer,
    make_params,
    numbered,
    render,
    render_units,
)
from procmem.answerers.extractive import compose
from procmem.answerers.parsing import (
    NO_UPDATE,
    ReplyParseError,
    is_placeholder,
    parse_critic_text,
    parse_rewrite_text,
)
from procmem.answerers.retrieval import Retriever, hit_record, sources_from_hits
from procmem.answerers.rewrite import PROMPTS as REWRITE_PROMPTS
from procmem.answerers.rewrite import StandaloneQuery, standalone_query
from procmem.answerers.schemas import critic_schema, rewrite_schema
from procmem.answerers.turn import Turn
from procmem.units import UnitKind

EMPTY_SUMMARY = "Nothing retrieved answers this question."
# labels the model puts before a question ("query2:", "Q1.", "step 3 -")
_LABEL_PREFIX = re.compile(r"^(?:query|question|step|q)[\s_]*\d*(?:[_.]\d+)*\s*[:.)-]\s*", re.I)


@dataclass
class AAGParams(LLMParams):
    temperature: float = 0.7
    max_tokens: int = 256
    k: int = 3  # procedures retrieved per query (K)
    n_queries: int = 4  # rewritten questions (N)
    max_rounds: int = 3  # critic <-> edit rounds (T)
    unit_kind: UnitKind = "procedure"
    summarize: bool = True  # False: NOSUM
    critique: bool = True  # False: NOCR
    rewrite_queries: bool = True  # False: NOQR
    rewrite_max_tokens: int = 192
    summary_max_tokens: int = 128
    critic_max_tokens: int = 160
    unit_words: int = 160  # words per retrieved unit in a prompt


ABLATIONS: dict[str, dict[str, bool]] = {
    "aag": {},
    "aag-nosum": {"summarize": False},
    "aag-nocr": {"critique": False},
    "aag-nosum-nocr": {"summarize": False, "critique": False},
    "aag-noqr": {"rewrite_queries": False},
}


def render_procedure(current: dict[str, Any]) -> str:
    return f"{current['answer']}\n{numbered(current['procedures'])}"


@dataclass
class _Context:
    """What one answer carries from stage to stage."""

    request: AnswerRequest
    query: StandaloneQuery
    retriever: Retriever
    trace: Trace
    hits: list[Any]


class AAGAnswerer(ModelAnswerer):
    name = "aag"
    prompt_names = (
        "answer/rag", *ANSWER_FORMATS, "aag/rewrite", "aag/rewrite_json", "aag/rewrite_text",
        "aag/summarize", "aag/update", "aag/critic", "aag/critic_json", "aag/critic_text",
        "aag/edit", *REWRITE_PROMPTS,
    )

    @property
    def p(self) -> AAGParams:
        return self.params  # type: ignore[return-value]

    def answer(self, request: AnswerRequest) -> Answer:
        self.check(request)
        trace = Trace()
        retriever = Retriever(self.memory, request.documents)
        query = standalone_query(trace, request.history, request.question, llm=self.llm, params=self.p)
        ctx = _Context(request, query, retriever, trace, [])
        hits = self._retrieve(ctx, "retrieve", query.query, question=query.question)
        current = self._draft(ctx, hits)
        knowledge = render_units([h.unit for h in hits], self.p.unit_words)
        if self.p.rewrite_queries:
            knowledge = self._gather(ctx, current)
            current = self._update(ctx, current, knowledge)
        if self.p.critique:
            current = self._critic_loop(ctx, current, knowledge)
        return Answer(answer=current["answer"], procedures=current["procedures"],
                      sources=sources_from_hits(ctx.hits), trace=trace)

    # ------------------------------------------------------------------ stages

    def _retrieve(self, ctx: _Context, stage_name: str, query: str, *, question: str | None = None,
                  **details: Any) -> list[Any]:
        with ctx.trace.stage(stage_name, query=query, k=self.p.k, **details) as stage:
            hits, kind = ctx.retriever.search(query, k=self.p.k, kind=self.p.unit_kind,
                                              question=question)
            stage.details.update(kind=kind, hits=[hit_record(h) for h in hits])
        ctx.hits.extend(hits)
        return hits

    def _generate(self, ctx: _Context, stage: StageRecord, prompt_name: str, **values: Any) -> dict[str, Any]:
        return generate_answer(self.llm, ctx.trace, stage, prompt_name, self.p,
                               history=format_history(ctx.request.history),
                               question=ctx.request.question, query=ctx.query.query, **values)

    def _draft(self, ctx: _Context, hits: list[Any]) -> dict[str, Any]:
        with ctx.trace.stage("draft") as stage:
            try:
                current = self._generate(ctx, stage, "answer/rag",
                                         procedures=render_units([h.unit for h in hits], self.p.unit_words))
            except ReplyParseError as exc:
                turn = Turn(ctx.request.question, list(ctx.request.history))
                answer, steps, _ = compose(hits, turn, cite=False)
                if not steps:
                    raise
                current = {"answer": answer, "procedures": steps}
                stage.details["fallback"] = f"extractive draft from the retrieved units ({exc})"
            stage.details["procedures"] = current["procedures"]
        return current

    def _gather(self, ctx: _Context, current: dict[str, Any]) -> str:
        """Rewrite into questions, retrieve for each, and summarise (or concatenate)."""
        n = self.p.n_queries
        fmt = "aag/rewrite_json" if self.p.structured else "aag/rewrite_text"
        with ctx.trace.stage("rewrite", n_queries=n) as stage:
            messages = render(ctx.trace, "aag/rewrite", fmt, query=ctx.query.query,
                              draft=render_procedure(current), n_queries=n)
            try:
                data = ask(self.llm, stage, messages, schema=rewrite_schema(n), params=self.p,
                           accept=rewrite_schema(n, min_queries=1),
                           readers=[("text", lambda t: parse_rewrite_text(t, n))],
                           max_tokens=self.p.rewrite_max_tokens)
                outline, queries = data["steps"], data["queries"]
            except ReplyParseError as exc:
                outline, queries = [], list(current["procedures"])
                stage.details["fallback"] = f"draft steps used as questions ({exc})"
            queries = [_LABEL_PREFIX.sub("", " ".join(q.split())) for q in queries]
            queries = list(dict.fromkeys(q for q in queries if not is_placeholder(q)))[:n]
            if not queries:
                queries = list(current["procedures"])[:n]
                stage.details["fallback"] = "no usable question: draft steps used as questions"
            stage.details.update(outline=outline, queries=queries)
        blocks: list[str] = []
        gathered: dict[str, Any] = {}
        for i, question in enumerate(queries, 1):
            hits = self._retrieve(ctx, "retrieve_query", question, index=i)
            if self.p.summarize:
                blocks.append(f"Q: {question}\nA: {self._summarize(ctx, i, question, hits)}")
            else:
                gathered.update((h.unit.id, h.unit) for h in hits)
        if self.p.summarize:
            return "\n\n".join(blocks) or "(no questions)"
        with ctx.trace.stage("concatenate", units=list(gathered)) as stage:
            knowledge = render_units(list(gathered.values()), self.p.unit_words)
            stage.details["words"] = len(knowledge.split())
        return knowledge

    def _summarize(self, ctx: _Context, index: int, question: str, hits: list[Any]) -> str:
        with ctx.trace.stage("summarize", index=index, question=question) as stage:
            messages = render(ctx.trace, "aag/summarize", question=question,
                              procedures=render_units([h.unit for h in hits], self.p.unit_words))
            result = record_call(stage, self.llm.chat(
                messages, temperature=self.p.temperature, max_tokens=self.p.summary_max_tokens,
                seed=self.p.seed))
            summary = " ".join(result.text.split())
            if is_placeholder(summary):
                stage.details["fallback"] = f"unusable reply {summary!r}"
                summary = EMPTY_SUMMARY
            stage.details.update(summary=summary, finish_reason=result.finish_reason)
        return summary

    def _update(self, ctx: _Context, current: dict[str, Any], knowledge: str) -> dict[str, Any]:
        with ctx.trace.stage("update") as stage:
            try:
                current = self._generate(ctx, stage, "aag/update", draft=render_procedure(current),
                                         knowledge=knowledge)
            except ReplyParseError as exc:
                stage.details["fallback"] = f"kept the draft ({exc})"
            stage.details["procedures"] = current["procedures"]
        return current

    def _critic_loop(self, ctx: _Context, current: dict[str, Any], knowledge: str) -> dict[str, Any]:
        fmt = "aag/critic_json" if self.p.structured else "aag/critic_text"
        resources = f"{format_history(ctx.request.history)}\nLast question: {ctx.request.question}"
        stop = f"round limit T={self.p.max_rounds}"
        last_critic: StageRecord | None = None
        for round_no in range(1, self.p.max_rounds + 1):
            with ctx.trace.stage("critic", round=round_no) as critic_stage:
                last_critic = critic_stage
                messages = render(ctx.trace, "aag/critic", fmt, query=ctx.query.query,
                                  resources=resources, steps=numbered(current["procedures"]))
                try:
                    verdict = ask(self.llm, critic_stage, messages, schema=critic_schema(),
                                  readers=[("text", parse_critic_text)], params=self.p,
                                  max_tokens=self.p.critic_max_tokens)
                except ReplyParseError as exc:
                    stop = f"unreadable critic reply ({exc})"
                    break
                edits = [e.strip() for e in verdict["edits"] if not is_placeholder(e)]
                if verdict["verdict"] == NO_UPDATE and edits:  # the verdict decides
                    critic_stage.details["ignored_edits"] = edits
                    edits = []
                critic_stage.details.update(verdict=verdict["verdict"], edits=edits)
            if verdict["verdict"] == NO_UPDATE or not edits:
                stop = NO_UPDATE if verdict["verdict"] == NO_UPDATE else "critic listed no edit"
                break
            with ctx.trace.stage("edit", round=round_no) as stage:
                try:
                    current = self._generate(ctx, stage, "aag/edit", knowledge=knowledge,
                                             steps=render_procedure(current),
                                             edits="\n".join(f"- {e}" for e in edits))
                except ReplyParseError as exc:
                    stage.details["fallback"] = f"kept the previous procedure ({exc})"
                stage.details["procedures"] = current["procedures"]
        if last_critic is not None:
            last_critic.details["stop"] = stop
        return current


def _factory(name: str, switches: dict[str, bool]) -> Any:
    def make(*, llm: Any = None, memory: Searchable | None = None, **params: Any) -> AAGAnswerer:
        return AAGAnswerer(llm=llm, memory=memory, name=name,
                           params=make_params(AAGParams, name, params, **switches))

    make.__name__ = f"make_{name.replace('-', '_')}"
    make.__doc__ = f"AAG with {switches or 'every stage'}" if switches else "AAG with every stage"
    return make


for _name, _switches in ABLATIONS.items():
    register(_name)(_factory(_name, _switches))
