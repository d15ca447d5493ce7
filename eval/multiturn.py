"""Dynamic multi-turn evaluation (THREAD): a simulated user does the task with the answerer.

The user asks the conversation's question (after its history). After each answer a
:class:`UserSimulator` reports an outcome, grounded in the task's reference steps:

* ``done``: the steps given so far complete the task (the dialogue stops);
* ``linker``: the user hit one of the outcomes the answer's linkers name
  (``Answer.follow_ups``, e.g. "the device is not shown as Connected") and says so; a
  logic-unit answerer turns it into the linker's next query;
* ``stuck``: no anticipated outcome applies and the task is not done; the user says so.

The answerer is asked again with the user's message until ``done`` or ``max_turns`` answers
(default 5). Simulators, chosen by name (:data:`SIMULATORS`):

* ``rules`` (deterministic, no model; the default): a reference step is done once some step
  given so far matches it (word ROUGE-L F1 with stemming >= ``step_threshold``); all done ->
  ``done``; else the follow-up whose wording is closest to the first reference step not yet
  done (ROUGE-L F1 >= ``linker_threshold``) is reported as ``linker``; else ``stuck``;
* ``llm``: the chat model, through the serving client, plays the user with the reference steps
  in view (``eval/prompts/multiturn/simulate.txt``; the outcome, the follow-up it reports as
  one of the answer's own, and its message are constrained by a JSON schema).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any, Literal, Protocol

from eval.howto import rouge_similarity
from inscoqa.corpus.document import Document
from inscoqa.records import Conversation
from procmem.answerers.base import Answer, Answerer, AnswerRequest
from serving.prompts import load_prompt, prompts_hash
from serving.types import ChatModel

Outcome = Literal["done", "linker", "stuck"]
OUTCOMES: tuple[Outcome, ...] = ("done", "linker", "stuck")
DEFAULT_MAX_TURNS = 5


@dataclass
class Feedback:
    """What the simulated user reports after one answer."""

    outcome: Outcome
    message: str  # the user's next message (empty when done)
    condition: str | None = None  # the follow-up reported, for ``linker``
    done_steps: list[int] = field(default_factory=list)  # reference steps done so far (0-based)
    reason: str = ""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class Exchange:
    """One turn: the user's message and the answer to it."""

    question: str
    answer: Answer


class UserSimulator(Protocol):
    name: str

    def config(self) -> dict[str, Any]:
        """Everything that determines its reports (for run keys)."""
        ...

    def react(self, conv: Conversation, dialogue: list[Exchange]) -> Feedback:
        """The outcome after the last answer of ``dialogue``."""
        ...


def given_steps(dialogue: list[Exchange]) -> list[str]:
    """Every step the answers gave, in order, each once."""
    return list(dict.fromkeys(" ".join(s.split()) for ex in dialogue
                              for s in ex.answer.procedures if s.strip()))


# --------------------------------------------------------------------------- deterministic


@dataclass
class RuleSimulator:
    """The deterministic user: reference-step coverage and the answer's linker conditions."""

    step_threshold: float = 0.4
    linker_threshold: float = 0.15
    name: str = "rules"

    def config(self) -> dict[str, Any]:
        return {"simulator": self.name, "step_threshold": self.step_threshold,
                "linker_threshold": self.linker_threshold}

    def done_steps(self, steps: list[str], reference: list[str]) -> list[int]:
        if not steps or not reference:
            return []
        best = rouge_similarity(steps, reference).max(axis=0)
        return [i for i, score in enumerate(best) if score >= self.step_threshold]

    def react(self, conv: Conversation, dialogue: list[Exchange]) -> Feedback:
        reference = list(conv.procedures)
        if not reference:
            raise ValueError(f"conversation {conv.id!r}: no reference steps to simulate a user with")
        done = self.done_steps(given_steps(dialogue), reference)
        if len(done) == len(reference):
            return Feedback("done", "", None, done, "every reference step is done")
        pending = next(i for i in range(len(reference)) if i not in done)
        follow_ups = [c for c in dialogue[-1].answer.follow_ups if c.strip()]
        if follow_ups:
            closeness = rouge_similarity(follow_ups, [reference[pending]])[:, 0]
            best = int(closeness.argmax())
            if closeness[best] >= self.linker_threshold:
                condition = follow_ups[best]
                return Feedback("linker", f"I followed those steps, and now {condition}.",
                                condition, done,
                                f"closest to reference step {pending + 1} "
                                f"(ROUGE-L {closeness[best]:.2f})")
        return Feedback("stuck",
                        f"I followed those steps, but I am stuck and the task is not done yet: "
                        f"{conv.question} What should I do next?",
                        None, done, f"reference step {pending + 1} is not done")


# --------------------------------------------------------------------------- LLM


def simulate_schema(follow_ups: list[str]) -> dict[str, Any]:
    """The simulator's reply: outcome, the follow-up reported (one of the answer's, or ""),
    and the user's message."""
    return {
        "type": "object",
        "properties": {
            "outcome": {"type": "string", "enum": list(OUTCOMES)},
            "condition": {"type": "string", "enum": ["", *follow_ups]},
            "message": {"type": "string", "maxLength": 300},
        },
        "required": ["outcome", "condition", "message"],
        "additionalProperties": False,
    }


def _numbered(lines: list[str]) -> str:
    return "\n".join(f"{i}. {s}" for i, s in enumerate(lines, 1)) if lines else "(none)"


@dataclass
class LLMSimulator:
    """The chat model plays the user (see the module docstring)."""

    llm: ChatModel
    max_tokens: int = 200
    seed: int = 0
    name: str = "llm"

    def __post_init__(self) -> None:
        self._prompt = load_prompt("eval", "multiturn/simulate")
        self._rules = RuleSimulator()

    def config(self) -> dict[str, Any]:
        return {"simulator": self.name, "model": self.llm.model, "max_tokens": self.max_tokens,
                "seed": self.seed, "prompt_hash": prompts_hash([self._prompt])}

    def react(self, conv: Conversation, dialogue: list[Exchange]) -> Feedback:
        last = dialogue[-1]
        follow_ups = list(dict.fromkeys(c for c in last.answer.follow_ups if c.strip()))
        earlier = "\n".join(f"You: {ex.question}\nAssistant: {ex.answer.answer}"
                            for ex in dialogue[:-1]) or "(none)"
        messages = self._prompt.render(
            task=conv.question, reference_steps=_numbered(list(conv.procedures)),
            dialogue=earlier, question=last.question, answer=last.answer.answer,
            steps=_numbered(list(last.answer.procedures)), follow_ups=_numbered(follow_ups))
        data = self.llm.chat(messages, schema=simulate_schema(follow_ups), temperature=0.0,
                             max_tokens=self.max_tokens, seed=self.seed).data
        done = self._rules.done_steps(given_steps(dialogue), list(conv.procedures))
        outcome, condition = data["outcome"], data["condition"] or None
        message = " ".join(str(data["message"]).split())
        if outcome == "linker" and condition is None:
            outcome, reason = "stuck", "reported a follow-up without naming one: read as stuck"
        else:
            reason = "model"
        if outcome == "linker" and condition is not None and condition.lower() not in message.lower():
            message = f"{message} ({condition})".strip()  # the answerer must be able to read it
        if outcome != "done" and not message:
            message = f"I am stuck and the task is not done yet: {conv.question}"
        return Feedback(outcome, "" if outcome == "done" else message,
                        condition if outcome == "linker" else None, done, reason)


SimulatorFactory = Callable[..., UserSimulator]
SIMULATORS: dict[str, SimulatorFactory] = {
    "rules": lambda llm=None, **kw: RuleSimulator(**kw),
    "llm": lambda llm=None, **kw: _llm_simulator(llm, **kw),
}


def _llm_simulator(llm: ChatModel | None, **kw: Any) -> LLMSimulator:
    if llm is None:
        raise ValueError("the 'llm' user simulator needs a chat model")
    return LLMSimulator(llm, **kw)


def make_simulator(name: str, llm: ChatModel | None = None, **params: Any) -> UserSimulator:
    if name not in SIMULATORS:
        raise ValueError(f"unknown user simulator {name!r}; choose one of {sorted(SIMULATORS)}")
    return SIMULATORS[name](llm=llm, **params)


# --------------------------------------------------------------------------- the loop


@dataclass
class Dialogue:
    exchanges: list[Exchange]
    feedback: list[Feedback]

    @property
    def outcome(self) -> Outcome:
        return self.feedback[-1].outcome if self.feedback else "stuck"

    @property
    def steps(self) -> list[str]:
        return given_steps(self.exchanges)

    def to_dict(self) -> dict[str, Any]:
        return {"turns": [_turn_dict(ex, fb) for ex, fb in zip(self.exchanges, self.feedback,
                                                                strict=True)],
                "outcome": self.outcome, "n_turns": len(self.exchanges), "steps": self.steps}


def _turn_dict(ex: Exchange, fb: Feedback) -> dict[str, Any]:
    answer = ex.answer
    stages = {s.name: s.details for s in answer.trace.stages}
    linker = stages.get("linker")
    return {
        "question": ex.question, "answer": answer.answer, "procedures": list(answer.procedures),
        "follow_ups": list(answer.follow_ups), "clarification": answer.clarification,
        "query": (stages.get("retrieve") or {}).get("query"),
        "linker": None if linker is None else {k: linker.get(k) for k in
                                               ("matched", "next", "tag", "unit_id", "method", "fallback")},
        "sources": [{"doc_id": s.doc_id, "unit_id": s.unit_id} for s in answer.sources],
        "usage": answer.trace.usage.to_dict(), "trace": answer.trace.to_dict(),
        "feedback": fb.to_dict(),
    }


def run_dialogue(conv: Conversation, answerer: Answerer, simulator: UserSimulator, *,
                 max_turns: int = DEFAULT_MAX_TURNS,
                 documents: list[Document] | None = None) -> Dialogue:
    """Answer, let the user report, ask again, until ``done`` or ``max_turns`` answers."""
    if max_turns < 1:
        raise ValueError(f"max_turns must be >= 1, got {max_turns}")
    history = list(conv.history)
    question = conv.question
    dialogue = Dialogue([], [])
    for _ in range(max_turns):
        answer = answerer.answer(AnswerRequest(question=question, history=list(history),
                                               documents=documents))
        dialogue.exchanges.append(Exchange(question, answer))
        feedback = simulator.react(conv, dialogue.exchanges)
        dialogue.feedback.append(feedback)
        if feedback.outcome == "done":
            break
        history.append((question, answer.answer))
        question = feedback.message
    return dialogue
