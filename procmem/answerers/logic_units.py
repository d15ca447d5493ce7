"""The logic-unit answerer ("logic-units", THREAD's answering).

1. Retrieve the top-K logic units by header for the standalone query.
2. Selector (a model call under a schema): keep the units whose prerequisites hold given the
   question and the history; when a useful unit's prerequisite is unknown, ask the user back
   (``Answer.clarification``). Units without a prerequisite are kept without asking.
3. Generator: answer from the kept units' bodies.
4. ``Answer.follow_ups`` are the kept units' linker conditions: the outcomes the user may report.

Multi-turn mode (default): when the user's message reports an outcome matching a linker
condition of the previous turn's units, that linker's next intent becomes the query. The
previous turn's units are found again by replaying the earlier turns' retrieval (with the
deterministic query), so the answerer holds no state between turns. Single-turn mode instead
produces the whole plan at once, following the kept units' CONTINUE linkers.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from procmem.answerers.base import Answer, AnswerRequest, Searchable, StageRecord, Trace, register
from procmem.answerers.common import (
    ANSWER_FORMATS,
    LLMParams,
    ModelAnswerer,
    ask,
    clip_words,
    format_history,
    generate_answer,
    make_params,
    render,
    terms,
)
from procmem.answerers.parsing import ReplyParseError, is_placeholder, parse_select_text
from procmem.answerers.retrieval import Retriever, hit_record, sources_from_hits
from procmem.answerers.rewrite import PROMPTS as REWRITE_PROMPTS
from procmem.answerers.rewrite import StandaloneQuery, heuristic_query, standalone_query
from procmem.answerers.schemas import select_schema
from procmem.units import Linker, Unit

MODES = ("multi", "single")


@dataclass
class LogicUnitParams(LLMParams):
    max_tokens: int = 320
    k: int = 5
    mode: str = "multi"  # "multi": one step per turn, linkers on reported outcomes; "single": whole plan
    max_plan_units: int = 6  # single-turn mode: units in the plan, CONTINUE linkers included
    linker_threshold: float = 70.0  # % of a condition's words the user's message must contain
    replay_turns: int = 4  # earlier turns replayed to find the previous turn's units
    select_max_tokens: int = 96
    unit_words: int = 200


@dataclass
class OutcomeMatch:
    linker: Linker
    unit: Unit
    score: float


def same_word(a: str, b: str) -> bool:
    """Equal, or inflections of one stem (``installs`` / ``installed``, ``error`` / ``errors``)."""
    if a == b:
        return True
    stem = len(os.path.commonprefix([a, b]))
    return stem >= max(4, min(len(a), len(b)) - 2)


def outcome_score(message: str, condition: str) -> float:
    """How much of a linker condition the user's message states (0-100)."""
    wanted = terms(condition)
    said = terms(message)
    if not wanted or not said:
        return 0.0
    found = sum(1 for w in wanted if any(same_word(w, s) for s in said))
    return 100.0 * found / len(wanted)


def match_outcome(message: str, units: list[Unit], threshold: float) -> OutcomeMatch | None:
    """The linker whose condition the message reports best (at or above ``threshold``)."""
    best: OutcomeMatch | None = None
    for unit in units:
        for linker in getattr(unit, "linker", []):
            score = outcome_score(message, linker.condition)
            if score >= threshold and (best is None or score > best.score):
                best = OutcomeMatch(linker, unit, score)
    return best


def _body(unit: Unit, words: int) -> str:
    header = getattr(unit, "header", "")
    body = getattr(unit, "body", None) or unit.render()
    return clip_words(f"{header}\n{body}".strip(), words)


class LogicUnitAnswerer(ModelAnswerer):
    name = "logic-units"
    prompt_names = ("lu/select", "lu/select_json", "lu/select_text", "lu/generate",
                    *ANSWER_FORMATS, *REWRITE_PROMPTS)

    @property
    def p(self) -> LogicUnitParams:
        return self.params  # type: ignore[return-value]

    def answer(self, request: AnswerRequest) -> Answer:
        self.check(request)
        if self.p.mode not in MODES:
            raise ValueError(f"mode={self.p.mode!r}: expected one of {list(MODES)}")
        trace = Trace()
        retriever = Retriever(self.memory, request.documents)
        query = self._query(trace, retriever, request)
        with trace.stage("retrieve", query=query.query, k=self.p.k) as stage:
            hits, kind = retriever.search(query.query, k=self.p.k, kind="logic_unit")
            stage.details.update(kind=kind, hits=[hit_record(h) for h in hits])
        kept, clarification = self._select(trace, request, hits)
        plan, followed = (self._plan(trace, retriever, kept) if self.p.mode == "single"
                          else (kept, set()))
        with trace.stage("generate", units=[h.unit.id for h in plan]) as stage:
            data = generate_answer(
                self.llm, trace, stage, "lu/generate", self.p,
                units="\n\n".join(f"[{i}] {_body(h.unit, self.p.unit_words)}" for i, h in enumerate(plan, 1))
                or "(no guidance found)",
                history=format_history(request.history), question=request.question)
        follow_ups = list(dict.fromkeys(
            link.condition.strip() for h in plan for link in getattr(h.unit, "linker", [])
            if link.condition.strip() and (h.unit.id, link.next) not in followed))
        return Answer(answer=data["answer"], procedures=data["procedures"],
                      sources=sources_from_hits(plan), trace=trace, follow_ups=follow_ups,
                      clarification=clarification)

    # ------------------------------------------------------------------ query

    def _query(self, trace: Trace, retriever: Retriever, request: AnswerRequest) -> StandaloneQuery:
        """The linker's next intent when the user reports an outcome, else the standalone query."""
        if self.p.mode == "multi" and request.history:
            with trace.stage("linker") as stage:
                previous = self._turn_units(retriever, request.history[:-1], request.history[-1][0],
                                            self.p.replay_turns)
                match = match_outcome(request.question, previous, self.p.linker_threshold)
                stage.details.update(previous_units=[u.id for u in previous],
                                     conditions=[link.condition for u in previous
                                                 for link in getattr(u, "linker", [])])
                if match is not None:
                    stage.details.update(matched=match.linker.condition, next=match.linker.next,
                                         tag=match.linker.tag, unit_id=match.unit.id,
                                         score=round(match.score, 1))
                    return StandaloneQuery(match.linker.next, "linker",
                                           f"reported outcome: {match.linker.condition}")
                stage.details["matched"] = None
        return standalone_query(trace, request.history, request.question, llm=self.llm, params=self.p)

    def _turn_units(self, retriever: Retriever, history: list[tuple[str, str]], question: str,
                    depth: int) -> list[Unit]:
        """The units a turn retrieved, found again deterministically."""
        query = None
        if history and depth > 0:
            earlier = self._turn_units(retriever, history[:-1], history[-1][0], depth - 1)
            match = match_outcome(question, earlier, self.p.linker_threshold)
            query = match.linker.next if match else None
        hits, _ = retriever.search(query or heuristic_query(history, question), k=self.p.k,
                                   kind="logic_unit")
        return [h.unit for h in hits]

    # ------------------------------------------------------------------ selector

    def _select(self, trace: Trace, request: AnswerRequest, hits: list[Any]) -> tuple[list[Any], str | None]:
        with trace.stage("select") as stage:
            judged = [h for h in hits if str(getattr(h.unit, "prerequisite", "")).strip()]
            keep_numbers: set[int] | None = set()
            clarification = None
            if judged:
                keep_numbers, clarification = self._ask_selector(trace, stage, request, judged)
            number = {id(h): i for i, h in enumerate(judged, 1)}
            kept: list[Any] = []
            decisions = []
            for hit in hits:
                prerequisite = str(getattr(hit.unit, "prerequisite", "")).strip()
                if not prerequisite:
                    keep, reason = True, "no prerequisite"
                elif keep_numbers is None:
                    keep, reason = True, "selector reply unreadable"
                else:
                    keep = number[id(hit)] in keep_numbers
                    reason = "selector"
                decisions.append({"unit_id": hit.unit.id, "header": getattr(hit.unit, "header", ""),
                                  "prerequisite": prerequisite, "kept": keep, "reason": reason})
                if keep:
                    kept.append(hit)
            if not kept and hits:
                kept = hits[:1]
                decisions[0].update(kept=True, reason="selector kept nothing: top unit used")
            stage.details.update(decisions=decisions, clarification=clarification)
        return kept, clarification

    def _ask_selector(self, trace: Trace, stage: StageRecord, request: AnswerRequest,
                      judged: list[Any]) -> tuple[set[int] | None, str | None]:
        n = len(judged)
        listing = "\n".join(
            f"{i}. [{getattr(h.unit, 'type', 'Unit')}] {getattr(h.unit, 'header', '')}\n"
            f"   Prerequisite: {h.unit.prerequisite}"
            for i, h in enumerate(judged, 1))
        fmt = "lu/select_json" if self.p.structured else "lu/select_text"
        messages = render(trace, "lu/select", fmt, history=format_history(request.history),
                          question=request.question, units=listing)
        try:
            data = ask(self.llm, stage, messages, schema=select_schema(n), params=self.p,
                       readers=[("text", lambda t: parse_select_text(t, n))],
                       max_tokens=self.p.select_max_tokens)
        except ReplyParseError as exc:
            stage.details["fallback"] = f"kept every unit ({exc})"
            return None, None
        ask_back = " ".join(str(data.get("ask", "")).split())
        return {int(i) for i in data["keep"]}, None if is_placeholder(ask_back) else ask_back

    # ------------------------------------------------------------------ single-turn plan

    def _plan(self, trace: Trace, retriever: Retriever,
              kept: list[Any]) -> tuple[list[Any], set[tuple[str, str]]]:
        """The kept units plus the units their CONTINUE linkers lead to, in order."""
        with trace.stage("plan") as stage:
            plan = list(kept)
            seen = {h.unit.id for h in plan}
            followed: set[tuple[str, str]] = set()
            steps = []
            queue = list(kept)
            while queue and len(plan) < self.p.max_plan_units:
                current = queue.pop(0)
                for link in getattr(current.unit, "linker", []):
                    if link.tag != "CONTINUE" or len(plan) >= self.p.max_plan_units:
                        continue
                    doc_id = current.unit.meta.get("doc_id")
                    hits, _ = retriever.search(link.next, k=1, kind="logic_unit",
                                               within=[doc_id] if doc_id else None)
                    hits = [h for h in hits if h.unit.kind == "logic_unit" and h.unit.id not in seen]
                    if not hits:
                        continue
                    followed.add((current.unit.id, link.next))
                    seen.add(hits[0].unit.id)
                    plan.append(hits[0])
                    queue.append(hits[0])
                    steps.append({"from": current.unit.id, "condition": link.condition,
                                  "next": link.next, "to": hits[0].unit.id})
            stage.details.update(followed=steps, units=[h.unit.id for h in plan])
        return plan, followed


@register("logic-units")
def make_logic_units(*, llm: Any = None, memory: Searchable | None = None, **params: Any) -> LogicUnitAnswerer:
    return LogicUnitAnswerer(llm=llm, memory=memory,
                             params=make_params(LogicUnitParams, "logic-units", params))
