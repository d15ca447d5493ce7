"""The model steps of the construction pipeline (InsCoQA, SPEC §1), one prompt file each.

1. ``filter``: is the query complete and clear, objective, not time-dependent, instructional?
2. ``generate``: a history of earlier rounds and a last question, as JSON, from the documents;
3. ``answer`` the last question from history + documents, ``judge`` whether the sample is
   suitable, and ``summarise`` a suitable answer into numbered procedural instructions.

Every reply is schema-constrained JSON; a step that rejects raises :class:`Rejected` with the
step's name and the reason. Model failures (an invalid reply after the client's re-asks, an
engine that is down) propagate as the serving layer's errors.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from serving.prompts import PromptTemplate, load_prompt, prompts_hash
from serving.types import ChatModel

StepName = Literal["filter", "retrieve", "generate", "answer", "judge", "summarise", "validate"]
STEP_NAMES: tuple[StepName, ...] = ("filter", "retrieve", "generate", "answer", "judge",
                                    "summarise", "validate")
PROMPTS = ("filter", "generate", "answer", "judge", "summarise")
FILTER_CRITERIA = ("complete_and_clear", "objective", "time_independent", "instructional")
JUDGE_CRITERIA = ("informative_history", "genuine_question", "objective_answer", "can_be_steps")
MAX_STEPS = 36

_YES_NO = {"type": "string", "enum": ["yes", "no"]}
_TEXT = {"type": "string", "minLength": 1}


def _object(properties: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": list(properties),
            "additionalProperties": False}


FILTER_SCHEMA = _object({name: _YES_NO for name in FILTER_CRITERIA})
ANSWER_SCHEMA = _object({"answer": _TEXT})
JUDGE_SCHEMA = _object({**{name: _YES_NO for name in JUDGE_CRITERIA}, "reason": {"type": "string"}})
SUMMARY_SCHEMA = _object({"steps": {"type": "array", "minItems": 1, "maxItems": MAX_STEPS,
                                    "items": _TEXT}})


def generate_schema(min_rounds: int, max_rounds: int) -> dict[str, Any]:
    pair = {"type": "array", "minItems": 2, "maxItems": 2, "items": _TEXT}
    return _object({"history": {"type": "array", "minItems": min_rounds, "maxItems": max_rounds,
                                "items": pair},
                    "question": _TEXT})


def prompt(name: str) -> PromptTemplate:
    return load_prompt("inscoqa", f"builder/{name}")


def prompt_hashes() -> dict[str, str]:
    """Each step's prompt hash, and ``all`` over them (recorded with every build)."""
    templates = [prompt(name) for name in PROMPTS]
    return {**{t.name: t.short_hash for t in templates}, "all": prompts_hash(templates)}


class Rejected(Exception):  # noqa: N818 - an outcome, not an error
    """A step decided the item does not become a sample."""

    def __init__(self, step: StepName, reason: str, details: dict[str, Any] | None = None) -> None:
        super().__init__(f"{step}: {reason}")
        self.step = step
        self.reason = reason
        self.details = dict(details or {})


@dataclass(frozen=True)
class SourceDocument:
    """A document a sample draws on, with the retrieval score that chose it."""

    doc_id: str
    title: str
    text: str
    score: float = 0.0


@dataclass
class Sampling:
    temperature: float | None = None
    max_tokens: int | None = 512
    seed: int | None = None

    def kwargs(self) -> dict[str, Any]:
        return {"temperature": self.temperature, "max_tokens": self.max_tokens, "seed": self.seed}


@dataclass
class Dialogue:
    history: list[tuple[str, str]]
    question: str


@dataclass
class Judgement:
    criteria: dict[str, str] = field(default_factory=dict)
    reason: str = ""

    @property
    def suitable(self) -> bool:
        return all(self.criteria.get(name) == "yes" for name in JUDGE_CRITERIA)

    def to_dict(self) -> dict[str, Any]:
        return {**self.criteria, "reason": self.reason}


def render_documents(documents: list[SourceDocument], max_chars: int) -> str:
    parts = []
    for i, doc in enumerate(documents, 1):
        text = doc.text if len(doc.text) <= max_chars else doc.text[:max_chars].rstrip() + " …"
        parts.append(f"[{i}] {doc.title} ({doc.doc_id})\n{text.strip()}")
    return "\n\n".join(parts)


def render_history(history: list[tuple[str, str]]) -> str:
    if not history:
        return "(no earlier rounds)"
    return "\n".join(f"User: {q}\nAssistant: {a}" for q, a in history)


def _ask(llm: ChatModel, name: str, schema: dict[str, Any], sampling: Sampling,
         **values: object) -> dict[str, Any]:
    result = llm.chat(prompt(name).render(**values), schema=schema, **sampling.kwargs())
    return dict(result.data)


def filter_query(llm: ChatModel, query: str, sampling: Sampling) -> dict[str, str]:
    """Step 1: the four yes/no criteria; :class:`Rejected` unless all are yes."""
    verdict = _ask(llm, "filter", FILTER_SCHEMA, sampling, query=query)
    failed = [name for name in FILTER_CRITERIA if verdict.get(name) != "yes"]
    if failed:
        raise Rejected("filter", f"the query is not {', '.join(n.replace('_', ' ') for n in failed)}",
                       {"filter": verdict})
    return verdict


def generate_dialogue(llm: ChatModel, query: str, documents: list[SourceDocument],
                      sampling: Sampling, *, min_rounds: int, max_rounds: int,
                      max_doc_chars: int) -> Dialogue:
    """Step 2: the history and the last question."""
    data = _ask(llm, "generate", generate_schema(min_rounds, max_rounds), sampling, query=query,
                documents=render_documents(documents, max_doc_chars), min_rounds=min_rounds,
                max_rounds=max_rounds)
    history = [(str(q).strip(), str(a).strip()) for q, a in data["history"]]
    question = str(data["question"]).strip()
    empty = [f"history[{i}]" for i, (q, a) in enumerate(history) if not q or not a]
    if not question:
        empty.append("question")
    if empty:
        raise Rejected("generate", f"empty text in {', '.join(empty)}", {"dialogue": data})
    return Dialogue(history, question)


def answer_question(llm: ChatModel, dialogue: Dialogue, documents: list[SourceDocument],
                    sampling: Sampling, *, max_doc_chars: int) -> str:
    """Step 3a: the last answer from history + documents."""
    data = _ask(llm, "answer", ANSWER_SCHEMA, sampling,
                documents=render_documents(documents, max_doc_chars),
                history=render_history(dialogue.history), question=dialogue.question)
    answer = str(data["answer"]).strip()
    if not answer:
        raise Rejected("answer", "the answer is empty")
    return answer


def judge_sample(llm: ChatModel, dialogue: Dialogue, answer: str, sampling: Sampling) -> Judgement:
    """Step 3b: is the sample suitable? :class:`Rejected` (with the judge's reason) if not."""
    data = _ask(llm, "judge", JUDGE_SCHEMA, sampling, history=render_history(dialogue.history),
                question=dialogue.question, answer=answer)
    judgement = Judgement({name: data[name] for name in JUDGE_CRITERIA},
                          str(data.get("reason", "")).strip())
    if not judgement.suitable:
        failed = [n.replace("_", " ") for n in JUDGE_CRITERIA if judgement.criteria[n] != "yes"]
        why = f"not suitable ({', '.join(failed)}: no)"
        raise Rejected("judge", f"{why}: {judgement.reason}" if judgement.reason else why,
                       {"judge": judgement.to_dict()})
    return judgement


def summarise_steps(llm: ChatModel, dialogue: Dialogue, answer: str, sampling: Sampling) -> list[str]:
    """Step 3c: the answer as numbered procedural instructions (numbers stripped, no repeats)."""
    data = _ask(llm, "summarise", SUMMARY_SCHEMA, sampling, question=dialogue.question,
                answer=answer)
    steps: list[str] = []
    for raw in data["steps"]:
        step = _strip_number(str(raw))
        if step and step.casefold() not in {s.casefold() for s in steps}:
            steps.append(step)
    if not steps:
        raise Rejected("summarise", "no procedural step left after removing empty and repeated ones")
    return steps


def _strip_number(text: str) -> str:
    text = text.strip()
    head, sep, rest = text.partition(" ")
    if sep and head.rstrip(".)").isdigit() and head[-1] in ".)":
        return rest.strip()
    return text
