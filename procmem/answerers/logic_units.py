"""The logic-unit answerer ("logic-units", THREAD's answering).

1. Retrieve the top-K logic units by header for the standalone query.
2. Selector (one model call under a JSON schema): it sees each unit's header, body and
   prerequisite with the question and the history, and judges every unit: relevant or not, and
   whether its prerequisite holds, fails, is unknown, or there is none. Relevant units whose
   prerequisite holds (or that have none) are kept. A relevant unit whose prerequisite the
   conversation does not settle makes the answerer ask back: when no unit is kept, the turn is
   a clarifying question about that prerequisite (``Answer.clarification``, no steps); when
   other units are kept, the question comes with the answer. A reply that cannot be read (after
   the client's re-asks and the readers of :func:`ask`) keeps every unit, and the trace says so.
3. Generator: answer from the kept units' bodies.
4. ``Answer.follow_ups`` are the kept units' linker conditions: the outcomes the user may report.

Multi-turn mode (default): the user's message is matched to a linker condition of the previous
turn's units by the chat model (which condition, or none); when no model answers (engine error,
unreadable reply) the condition the message states best by word overlap (at least
``linker_threshold`` % of its words) is used, and the trace says which path was taken. The
matched linker's next intent becomes the query. The previous turn's units are found again by
replaying the earlier turns' retrieval and outcome matching (identical model calls, which a
caching client answers from its cache), so the answerer holds no state between turns.
Single-turn mode instead produces the whole plan at once, following the kept units' CONTINUE
linkers, and never stops at a question back.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import Any, Literal

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
)
from procmem.answerers.parsing import ReplyParseError, is_placeholder
from procmem.answerers.retrieval import Retriever, hit_record, sources_from_hits
from procmem.answerers.rewrite import PROMPTS as REWRITE_PROMPTS
from procmem.answerers.rewrite import StandaloneQuery, standalone_query
from procmem.retrieval.query import conversation_query, terms
from procmem.units import Linker, Unit
from serving.errors import LLMError
from serving.types import ChatModel

MODES = ("multi", "single")
PREREQUISITE_STATES = ("holds", "fails", "unknown", "none")
SELECT_PROMPTS = ("lu/select", "lu/select_json", "lu/select_text")
OUTCOME_PROMPTS = ("lu/outcome", "lu/outcome_json", "lu/outcome_text")
ASK_BACK_LEAD = "Before I give the steps, I need to know one thing about your situation."
_QUESTION_PATTERN = '^[^"\\\\\\x00-\\x1f]{0,160}$'


@dataclass
class LogicUnitParams(LLMParams):
    max_tokens: int = 320
    k: int = 5
    mode: str = "multi"  # "multi": one step per turn, linkers on reported outcomes; "single": whole plan
    max_plan_units: int = 6  # single-turn mode: units in the plan, CONTINUE linkers included
    linker_threshold: float = 70.0  # fallback matching: % of a condition's words the message must contain
    # how earlier turns' outcomes are matched when their units are found again: "model" (the
    # same calls as in those turns) or "overlap" (word overlap only, no model call)
    replay_match: Literal["model", "overlap"] = "model"
    replay_turns: int = 4  # earlier turns replayed to find the previous turn's units
    select_max_tokens: int = 224
    select_body_words: int = 60  # words of each unit's body the selector sees
    outcome_max_tokens: int = 24
    unit_words: int = 200


# --------------------------------------------------------------------------- outcome matching


@dataclass
class OutcomeMatch:
    linker: Linker
    unit: Unit
    score: float  # word overlap (0-100) on the fallback path; 100 when the model chose it


@dataclass
class OutcomeDecision:
    """Which linker a message reports, and how that was decided."""

    match: OutcomeMatch | None
    method: Literal["model", "overlap", "none"]  # "none": no linker condition to match
    fallback: str = ""  # why word overlap was used instead of the model
    choice: int | None = None  # the model's answer (0 = none of them)

    def record(self) -> dict[str, Any]:
        out: dict[str, Any] = {"method": self.method, "matched": None}
        if self.choice is not None:
            out["choice"] = self.choice
        if self.fallback:
            out["fallback"] = f"word overlap: {self.fallback}"
        if self.match is not None:
            link = self.match.linker
            out.update(matched=link.condition, next=link.next, tag=link.tag,
                       unit_id=self.match.unit.id, score=round(self.match.score, 1))
        return out


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
    """The linker whose condition the message states best by word overlap (>= ``threshold``)."""
    best: OutcomeMatch | None = None
    for unit, linker in linker_candidates(units):
        score = outcome_score(message, linker.condition)
        if score >= threshold and (best is None or score > best.score):
            best = OutcomeMatch(linker, unit, score)
    return best


def linker_candidates(units: list[Unit]) -> list[tuple[Unit, Linker]]:
    """Every ``(unit, linker)`` with a condition, in the units' order."""
    return [(unit, link) for unit in units for link in getattr(unit, "linker", [])
            if link.condition.strip()]


def outcome_schema(n_outcomes: int) -> dict[str, Any]:
    """The outcome matcher's reply: the number of the reported outcome, 0 for none."""
    return {
        "type": "object",
        "properties": {"outcome": {"type": "integer", "minimum": 0, "maximum": n_outcomes}},
        "required": ["outcome"],
        "additionalProperties": False,
    }


_NONE_WORDS = re.compile(r"\b(?:none|neither|no outcome|nothing)\b", re.I)


def parse_outcome_text(text: str, n_outcomes: int) -> dict[str, Any]:
    """``Outcome: 2`` (or ``Outcome: 0`` / ``none``); else the first number in range."""
    labelled = re.search(r"outcome\s*(?:number)?\s*[:#=]?\s*(\d+)", text, re.I)
    numbers = [int(labelled.group(1))] if labelled else [int(n) for n in re.findall(r"\b\d+\b", text)]
    for number in numbers:
        if 0 <= number <= n_outcomes:
            return {"outcome": number}
    if not numbers and _NONE_WORDS.search(text):
        return {"outcome": 0}
    raise ReplyParseError(f"an outcome number from 0 to {n_outcomes}", text)


def format_outcomes(candidates: list[tuple[Unit, Linker]]) -> str:
    return "\n".join(f"{i}. {link.condition.strip()} (after: {getattr(unit, 'header', '')})"
                     for i, (unit, link) in enumerate(candidates, 1))


def overlap_decision(message: str, units: list[Unit], threshold: float, why: str) -> OutcomeDecision:
    return OutcomeDecision(match_outcome(message, units, threshold), "overlap", fallback=why)


def judge_outcome(llm: ChatModel | None, trace: Trace, stage: StageRecord, params: LogicUnitParams,
                  history: list[tuple[str, str]], message: str, units: list[Unit]) -> OutcomeDecision:
    """The linker of ``units`` whose condition ``message`` reports, as the chat model judges it.

    Word overlap decides instead when no model answers: no model, an engine error, or a reply
    that no reader can read; ``stage.details["fallback"]`` then says why.
    """
    candidates = linker_candidates(units)
    if not candidates:
        return OutcomeDecision(None, "none")
    if llm is None:
        decision = overlap_decision(message, units, params.linker_threshold, "no chat model")
    else:
        decision = _ask_outcome(llm, trace, stage, params, history, message, candidates)
        if isinstance(decision, str):
            decision = overlap_decision(message, units, params.linker_threshold, decision)
    if decision.fallback:
        stage.details["fallback"] = decision.record()["fallback"]
    return decision


def _ask_outcome(llm: ChatModel, trace: Trace, stage: StageRecord, params: LogicUnitParams,
                 history: list[tuple[str, str]], message: str,
                 candidates: list[tuple[Unit, Linker]]) -> OutcomeDecision | str:
    """The model's choice, or why there is none."""
    n = len(candidates)
    fmt = OUTCOME_PROMPTS[1] if params.structured else OUTCOME_PROMPTS[2]
    messages = render(trace, OUTCOME_PROMPTS[0], fmt, history=format_history(history),
                      message=" ".join(message.split()), outcomes=format_outcomes(candidates))
    try:
        data = ask(llm, stage, messages, schema=outcome_schema(n), params=params,
                   readers=[("text", lambda t: parse_outcome_text(t, n))],
                   temperature=0.0, max_tokens=params.outcome_max_tokens)
    except ReplyParseError as exc:
        return f"unreadable reply ({exc})"
    except LLMError as exc:
        return f"{type(exc).__name__}: {str(exc)[:200]}"
    choice = int(data["outcome"])
    if choice == 0:
        return OutcomeDecision(None, "model", choice=0)
    unit, link = candidates[choice - 1]
    return OutcomeDecision(OutcomeMatch(link, unit, 100.0), "model", choice=choice)


# --------------------------------------------------------------------------- selector


@dataclass
class Verdict:
    relevant: bool
    prerequisite: str  # one of PREREQUISITE_STATES


@dataclass
class Selection:
    kept: list[Any]
    in_doubt: list[Any] = field(default_factory=list)  # relevant, prerequisite unknown
    clarification: str | None = None

    @property
    def ask_back(self) -> bool:
        """Nothing to answer from yet: the turn is the question about a prerequisite."""
        return not self.kept and bool(self.in_doubt)


def verdict_schema(n_units: int, min_units: int | None = None) -> dict[str, Any]:
    """The selector's reply: one verdict per unit and a question back (or "")."""
    n = max(1, n_units)
    return {
        "type": "object",
        "properties": {
            "units": {
                "type": "array",
                "minItems": n if min_units is None else min_units,
                "maxItems": n,
                "items": {
                    "type": "object",
                    "properties": {
                        "unit": {"type": "integer", "minimum": 1, "maximum": n},
                        "relevant": {"type": "boolean"},
                        "prerequisite": {"type": "string", "enum": list(PREREQUISITE_STATES)},
                    },
                    "required": ["unit", "relevant", "prerequisite"],
                    "additionalProperties": False,
                },
            },
            "ask": {"type": "string", "pattern": _QUESTION_PATTERN},
        },
        "required": ["units", "ask"],
        "additionalProperties": False,
    }


_VERDICT_LINE = re.compile(r"^\W*(?:unit\s*)?(\d+)\s*[.):-]?\s*(.*)$", re.I)
_STATE = re.compile(r"\b(hold|fail|unknown|none)s?\b", re.I)
_ASK_LINE = re.compile(r"^\W*(?:ask|question)\s*:\s*(.*)$", re.I)


def parse_verdicts_text(text: str, n_units: int) -> dict[str, Any]:
    """``2. relevant, unknown`` lines (one per unit) and ``Ask: <question>`` (or ``none``)."""
    units: list[dict[str, Any]] = []
    asked = ""
    for line in text.splitlines():
        if m := _ASK_LINE.match(line):
            asked = m.group(1).strip()
            continue
        m = _VERDICT_LINE.match(line)
        if not m or not 1 <= int(m.group(1)) <= n_units:
            continue
        rest = m.group(2).lower()
        state = _STATE.search(rest)
        if "relevant" not in rest or state is None:
            continue
        relevant = not re.search(r"\b(?:not|ir)\s*-?\s*relevant", rest)
        units.append({"unit": int(m.group(1)), "relevant": relevant,
                      "prerequisite": {"hold": "holds", "fail": "fails"}.get(
                          state.group(1).lower(), state.group(1).lower())})
    if not units:
        raise ReplyParseError("verdict lines such as '1. relevant, holds'", text)
    if asked.casefold().strip(". ") in {"none", "no", "n/a", "nothing"}:
        asked = ""
    return {"units": units[:n_units], "ask": asked}


def read_verdicts(data: dict[str, Any], n_units: int) -> dict[int, Verdict]:
    """Verdicts by unit number (the first one given for a number counts)."""
    verdicts: dict[int, Verdict] = {}
    for item in data.get("units", []):
        number = int(item["unit"])
        if 1 <= number <= n_units and number not in verdicts:
            verdicts[number] = Verdict(bool(item["relevant"]), str(item["prerequisite"]))
    return verdicts


def prerequisite_of(unit: Unit) -> str:
    return " ".join(str(getattr(unit, "prerequisite", "") or "").split())


def format_candidates(hits: list[Any], body_words: int) -> str:
    """The units as the selector sees them: header, body (clipped), prerequisite."""
    blocks = []
    for i, hit in enumerate(hits, 1):
        unit = hit.unit
        body = " ".join(str(getattr(unit, "body", None) or unit.render()).split())
        blocks.append(f"Unit {i} [{getattr(unit, 'type', 'Unit')}]\n"
                      f"Header: {getattr(unit, 'header', '')}\n"
                      f"Body: {clip_words(body, body_words)}\n"
                      f"Prerequisite: {prerequisite_of(unit) or 'none'}")
    return "\n\n".join(blocks)


def question_about(prerequisite: str) -> str:
    """A question back about a prerequisite, when the selector wrote none."""
    return f"Before I go on: is this true in your case: {prerequisite.rstrip('.?! ')}?"


def usable_question(text: str) -> bool:
    """A question back worth asking: a few words ending with a question mark."""
    return len(text.split()) >= 3 and text.rstrip().endswith("?")


def decide(hit: Any, verdict: Verdict | None) -> tuple[str, str]:
    """``(decision, reason)`` for one unit; decision is ``kept``, ``dropped`` or ``in doubt``."""
    has_prerequisite = bool(prerequisite_of(hit.unit))
    if verdict is None:
        return "kept", "no verdict from the selector"
    if not verdict.relevant:
        return "dropped", "not relevant"
    if verdict.prerequisite == "fails" and has_prerequisite:
        return "dropped", "prerequisite fails"
    if verdict.prerequisite == "unknown" and has_prerequisite:
        return "in doubt", "prerequisite unknown"
    return "kept", "relevant, prerequisite holds" if has_prerequisite else "relevant, no prerequisite"


def _body(unit: Unit, words: int) -> str:
    header = getattr(unit, "header", "")
    body = getattr(unit, "body", None) or unit.render()
    return clip_words(f"{header}\n{body}".strip(), words)


# --------------------------------------------------------------------------- answerer


class LogicUnitAnswerer(ModelAnswerer):
    name = "logic-units"
    prompt_names = (*SELECT_PROMPTS, *OUTCOME_PROMPTS, "lu/generate", *ANSWER_FORMATS,
                    *REWRITE_PROMPTS)

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
            hits, kind = retriever.search(query.query, k=self.p.k, kind="logic_unit",
                                          question=query.question)
            stage.details.update(kind=kind, hits=[hit_record(h) for h in hits])
        selection = self._select(trace, request, hits)
        if selection.ask_back and self.p.mode == "multi":
            return Answer(answer=ASK_BACK_LEAD, procedures=[],
                          sources=sources_from_hits(selection.in_doubt), trace=trace,
                          clarification=selection.clarification)
        used = selection.kept or selection.in_doubt
        plan, followed = (self._plan(trace, retriever, used) if self.p.mode == "single"
                          else (used, set()))
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
                      clarification=selection.clarification)

    # ------------------------------------------------------------------ query

    def _query(self, trace: Trace, retriever: Retriever, request: AnswerRequest) -> StandaloneQuery:
        """The linker's next intent when the user reports an outcome, else the standalone query."""
        if self.p.mode == "multi" and request.history:
            previous = self._turn_units(trace, retriever, request.history[:-1],
                                        request.history[-1][0], self.p.replay_turns)
            with trace.stage("linker") as stage:
                stage.details.update(previous_units=[u.id for u in previous],
                                     conditions=[link.condition for _, link in linker_candidates(previous)])
                decision = judge_outcome(self.llm, trace, stage, self.p, request.history,
                                         request.question, previous)
                stage.details.update(decision.record())
                if decision.match is not None:
                    link = decision.match.linker
                    return StandaloneQuery(link.next, "linker", f"reported outcome: {link.condition}")
        return standalone_query(trace, request.history, request.question, llm=self.llm, params=self.p)

    def _turn_units(self, trace: Trace, retriever: Retriever, history: list[tuple[str, str]],
                    question: str, depth: int) -> list[Unit]:
        """The units a turn retrieved, found again: its query was the next intent of the linker
        its question reported (matched as in that turn), else the deterministic query."""
        query = None
        if history and depth > 0:
            earlier = self._turn_units(trace, retriever, history[:-1], history[-1][0], depth - 1)
            if linker_candidates(earlier):
                llm = self.llm if self.p.replay_match == "model" else None
                with trace.stage("linker_replay", turn=len(history) + 1) as stage:
                    decision = (judge_outcome(llm, trace, stage, self.p, history, question, earlier)
                                if llm is not None else OutcomeDecision(
                                    match_outcome(question, earlier, self.p.linker_threshold), "overlap"))
                    stage.details.update(decision.record())
                query = decision.match.linker.next if decision.match else None
        if query is None:  # no linker to follow: the turn's own history-aware search
            hits, _ = retriever.search(conversation_query(history, question), k=self.p.k,
                                       kind="logic_unit", question=question if history else None)
        else:
            hits, _ = retriever.search(query, k=self.p.k, kind="logic_unit")
        return [h.unit for h in hits]

    # ------------------------------------------------------------------ selector

    def _select(self, trace: Trace, request: AnswerRequest, hits: list[Any]) -> Selection:
        with trace.stage("select") as stage:
            if not hits:
                stage.details.update(decisions=[], clarification=None)
                return Selection([])
            verdicts, asked = self._ask_selector(trace, stage, request, hits)
            selection = Selection([])
            decisions = []
            for number, hit in enumerate(hits, 1):
                if verdicts is None:
                    decision, reason = "kept", "selector reply unreadable"
                else:
                    decision, reason = decide(hit, verdicts.get(number))
                verdict = verdicts.get(number) if verdicts else None
                decisions.append({"unit_id": hit.unit.id, "header": getattr(hit.unit, "header", ""),
                                  "prerequisite": prerequisite_of(hit.unit),
                                  "relevant": verdict.relevant if verdict else None,
                                  "state": verdict.prerequisite if verdict else None,
                                  "kept": decision == "kept", "decision": decision, "reason": reason})
                if decision == "kept":
                    selection.kept.append(hit)
                elif decision == "in doubt":
                    selection.in_doubt.append(hit)
            if asked and not usable_question(asked):
                stage.details["rejected_question"] = asked
                asked = ""
            if selection.in_doubt:
                selection.clarification = asked or question_about(prerequisite_of(selection.in_doubt[0].unit))
                stage.details["question_from"] = "selector" if asked else "prerequisite"
            elif asked:
                stage.details["ignored_question"] = asked  # no unit's prerequisite is in doubt
            if not selection.kept and not selection.in_doubt:
                selection.kept = hits[:1]
                decisions[0].update(kept=True, decision="kept",
                                    reason="selector kept nothing: top unit used")
            stage.details.update(decisions=decisions, clarification=selection.clarification,
                                 ask_back=selection.ask_back and self.p.mode == "multi")
        return selection

    def _ask_selector(self, trace: Trace, stage: StageRecord, request: AnswerRequest,
                      hits: list[Any]) -> tuple[dict[int, Verdict] | None, str]:
        """The selector's verdicts by unit number and its question back ("" for none); None
        verdicts when its reply cannot be read (recorded as the stage's fallback)."""
        n = len(hits)
        fmt = SELECT_PROMPTS[1] if self.p.structured else SELECT_PROMPTS[2]
        messages = render(trace, SELECT_PROMPTS[0], fmt, history=format_history(request.history),
                          question=request.question,
                          units=format_candidates(hits, self.p.select_body_words))
        try:
            data = ask(self.llm, stage, messages, schema=verdict_schema(n), params=self.p,
                       accept=verdict_schema(n, min_units=1),
                       readers=[("text", lambda t: parse_verdicts_text(t, n))],
                       max_tokens=self.p.select_max_tokens)
        except ReplyParseError as exc:
            stage.details["fallback"] = f"kept every unit ({exc})"
            return None, ""
        asked = " ".join(str(data.get("ask", "")).split())
        return read_verdicts(data, n), "" if is_placeholder(asked) else asked

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
