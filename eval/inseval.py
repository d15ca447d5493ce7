"""The InsEval judge: one LLM call gives a Judge Score (1-10) and a Task Completion Rate (0-100).

The judge sees the conversation history, the last question, the system's answer and procedure,
and the reference answer and procedure (InsCoQA's protocol). It rates how well the answer
addresses the question (``Total rating``) and the percentage of reference steps the system's
steps cover (``Task completion rate``).

Two reply modes, chosen with ``mode``:

* ``"json"`` (the benchmark's default on the embedded engine, whose tiny model keeps a format
  only under constrained decoding): the reply is constrained by :data:`JUDGE_SCHEMA`
  (``{"evaluation", "total_rating", "task_completion_rate"}``) and validated by the client;
* ``"text"`` (the default for vLLM and external engines; the paper's form): a plain-text reply
  with a short feedback, then ``Total rating:`` and ``Task completion rate:``, read by the
  strict :func:`parse_judge_reply`.

The bundled prompt keeps InsEval's ten rating levels and counts only the system's procedural
instructions for the Task Completion Rate; a user's prompt file can replace it.

A reply that lacks a value, or gives one out of range, becomes a failed :class:`JudgeVerdict`
(``ok=False``, ``score=tcr=None``) carrying the error and the raw reply; nothing is ever coerced
to a number. Failures of the reply itself (:class:`LLMSchemaError`, :class:`LLMResponseError`)
also become failed verdicts; failures of the infrastructure (connection, timeout, HTTP status)
propagate so that a caller can retry them.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from string import Template
from typing import Any, Literal

from inscoqa.records import Conversation
from serving.errors import LLMResponseError, LLMSchemaError
from serving.prompts import USER_MARKER, PromptTemplate, load_prompt, prompts_hash
from serving.types import ChatModel, ChatResult, Message

SCORE_RANGE = (1, 10)
TCR_RANGE = (0.0, 100.0)

JUDGE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "evaluation": {"type": "string"},
        # Enumerated rather than bounded: engines that compile schemas into grammars (llama.cpp)
        # enforce an enum while decoding but may ignore minimum/maximum.
        "total_rating": {"enum": list(range(SCORE_RANGE[0], SCORE_RANGE[1] + 1))},
        "task_completion_rate": {"enum": list(range(int(TCR_RANGE[0]), int(TCR_RANGE[1]) + 1))},
    },
    "required": ["evaluation", "total_rating", "task_completion_rate"],
    "additionalProperties": False,
}

# Reply errors: the judge answered, but not usably. Anything else (transport) propagates.
REPLY_ERRORS = (LLMSchemaError, LLMResponseError)


@dataclass(frozen=True)
class JudgeVerdict:
    """The judge's verdict on one answer. ``score``/``tcr`` are set only when ``ok``."""

    score: int | None
    tcr: float | None
    ok: bool
    error: str | None
    raw: str
    evaluation: str = ""

    @classmethod
    def failed(cls, error: str, raw: str, evaluation: str = "") -> JudgeVerdict:
        return cls(score=None, tcr=None, ok=False, error=error, raw=raw, evaluation=evaluation)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


# ---------------------------------------------------------------------------------------------
# Reading replies


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _check_values(rating: Any, rate: Any) -> str | None:
    """Why ``rating``/``rate`` are not a valid (score, tcr), or None when they are."""
    problems = []
    if not _is_number(rating):
        problems.append(f"total rating {rating!r} is not a number")
    elif rating != int(rating):
        problems.append(f"total rating {rating:g} is not an integer")
    elif not SCORE_RANGE[0] <= rating <= SCORE_RANGE[1]:
        problems.append(f"total rating {rating:g} is outside {SCORE_RANGE[0]}-{SCORE_RANGE[1]}")
    if not _is_number(rate):
        problems.append(f"task completion rate {rate!r} is not a number")
    elif not TCR_RANGE[0] <= rate <= TCR_RANGE[1]:
        problems.append(f"task completion rate {rate:g} is outside 0-100")
    return "; ".join(problems) or None


def verdict_from_data(data: Any, raw: str) -> JudgeVerdict:
    """A verdict from the JSON reply of the schema mode (validated again here, never trusted)."""
    if not isinstance(data, dict):
        return JudgeVerdict.failed(f"reply is {type(data).__name__}, not a JSON object", raw)
    missing = [k for k in ("total_rating", "task_completion_rate") if k not in data]
    evaluation = str(data.get("evaluation", ""))
    if missing:
        return JudgeVerdict.failed(f"missing {', '.join(missing)}", raw, evaluation)
    rating, rate = data["total_rating"], data["task_completion_rate"]
    error = _check_values(rating, rate)
    if error:
        return JudgeVerdict.failed(error, raw, evaluation)
    return JudgeVerdict(int(rating), float(rate), True, None, raw, evaluation)


# A label, optionally wrapped in Markdown emphasis, then a colon and the rest of its line.
_LABEL = r"(?:^|(?<=[\s*_#>]))[*_]*{label}[*_]*\s*:[*_]*[ \t]*(?P<value>[^\n]*)"
_RATING_RE = re.compile(_LABEL.format(label=r"total\s+rating"), re.IGNORECASE | re.MULTILINE)
_TCR_RE = re.compile(_LABEL.format(label=r"task\s+completion\s+rate"), re.IGNORECASE | re.MULTILINE)
_EVALUATION_RE = re.compile(r"^\W*(?:evaluation|feedback)\W*:\s*", re.IGNORECASE)
# A value: a number first (after optional brackets/emphasis), then an optional "/ denominator"
# or percent sign; what follows on the line (an explanation) is ignored.
_VALUE_RE = re.compile(
    r"^[\[(*_\s]*(?P<number>[-+]?\d+(?:\.\d+)?)[\])*_]*\s*(?:(?P<percent>%)|/\s*(?P<denominator>\d+))?"
)


def _read_value(
    pattern: re.Pattern[str], text: str, name: str, denominator: int
) -> tuple[float | None, str | None]:
    """The one value given for a label, or the reason there is none."""
    values: list[float] = []
    for match in pattern.finditer(text):
        raw_value = match.group("value").strip()
        found = _VALUE_RE.match(raw_value)
        if not found:
            return None, f"{name} has no numeric value ({raw_value[:40]!r})"
        if found.group("denominator") and int(found.group("denominator")) != denominator:
            return None, f"{name} is on another scale ({found.group(0).strip()!r})"
        values.append(float(found.group("number")))
    if not values:
        return None, f"no '{name}:' in the reply"
    if len(set(values)) > 1:
        return None, f"conflicting {name} values {sorted(set(values))}"
    return values[0], None


def parse_judge_reply(text: str) -> JudgeVerdict:
    """Read a plain-text reply with ``Total rating: N`` and ``Task completion rate: X%``.

    Strict: both labels must be present with a number right after the colon (``8``, ``8/10``,
    ``**8**``; ``75``, ``75%``, ``75/100``); text around them is allowed, repeated labels must
    agree, a rating must be an integer in 1-10 and a rate in 0-100. Anything else gives a failed
    verdict naming the problem, with the raw reply.
    """
    rating, rating_error = _read_value(_RATING_RE, text, "Total rating", 10)
    rate, rate_error = _read_value(_TCR_RE, text, "Task completion rate", 100)
    first = _RATING_RE.search(text) or _TCR_RE.search(text)
    evaluation = _EVALUATION_RE.sub("", text[: first.start()] if first else text).strip()
    errors = [e for e in (rating_error, rate_error) if e]
    if errors:
        return JudgeVerdict.failed("; ".join(errors), text, evaluation)
    error = _check_values(rating, rate)
    if error:
        return JudgeVerdict.failed(error, text, evaluation)
    assert rating is not None and rate is not None
    return JudgeVerdict(int(rating), float(rate), True, None, text, evaluation)


# ---------------------------------------------------------------------------------------------
# The judge


def format_history(history: list[tuple[str, str]]) -> str:
    if not history:
        return "(none: this is the first question)"
    return "\n".join(f"User: {q}\nAssistant: {a}" for q, a in history)


def format_steps(steps: list[str]) -> str:
    if not steps:
        return "(no steps)"
    return "\n".join(f"{i}. {step}" for i, step in enumerate(steps, 1))


@dataclass(frozen=True)
class ReplyMode:
    """How the judge asks for its values and reads them back."""

    format_prompt: str
    schema: dict[str, Any] | None
    read: Callable[[ChatResult], JudgeVerdict]


JudgeMode = Literal["json", "text"]
# what a judge prompt may use; a user's prompt file is rendered with the same values
PLACEHOLDERS = ("history", "question", "reference_answer", "reference_procedures",
                "n_reference_steps", "answer", "procedures", "format")

MODES: dict[str, ReplyMode] = {
    "json": ReplyMode(
        "inseval/format_json", JUDGE_SCHEMA, lambda r: verdict_from_data(r.data, r.text)
    ),
    "text": ReplyMode("inseval/format_text", None, lambda r: parse_judge_reply(r.text)),
}


def load_prompt_file(path: str | Path) -> PromptTemplate:
    """A user's judge prompt (for example the paper's appendix prompt), with the placeholders
    of the bundled one (:data:`PLACEHOLDERS`); ``--- user ---`` separates an optional system part.

    Raises ``ValueError`` naming the file when it cannot be read, uses an unknown placeholder,
    or shows the judge neither the system's answer nor its procedure.
    """
    path = Path(path)
    try:
        raw = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ValueError(f"judge prompt {path}: cannot be read ({exc})") from exc
    system, user = raw.split(USER_MARKER, 1) if USER_MARKER in raw else ("", raw)
    used: set[str] = set()
    for part in (system, user):
        for match in Template.pattern.finditer(part):
            if match.group("invalid") is not None:
                raise ValueError(f"judge prompt {path}: a lone '$' at offset {match.start()} "
                                 "(write $$ for a dollar sign)")
            name = match.group("named") or match.group("braced")
            if name:
                used.add(name)
    unknown = sorted(used - set(PLACEHOLDERS))
    if unknown:
        raise ValueError(f"judge prompt {path}: unknown placeholder(s) {unknown}; "
                         f"known: {list(PLACEHOLDERS)}")
    if not {"answer", "procedures"} & used:
        raise ValueError(f"judge prompt {path}: shows the judge neither $answer nor $procedures")
    return PromptTemplate(name=f"file:{path.name}", system=system.strip(), user=user.strip(),
                          sha256=hashlib.sha256(raw.encode("utf-8")).hexdigest())


class InsEvalJudge:
    """InsEval's LLM judge over one chat model.

    ``mode`` is ``"json"`` (schema-constrained reply, for engines that need constrained
    decoding to keep a format, like the tiny embedded model) or ``"text"`` (``Total rating:`` /
    ``Task completion rate:`` lines, the paper's form). ``prompt_file`` replaces the bundled
    judge prompt with a user's file using the same placeholders (:func:`load_prompt_file`).
    """

    def __init__(
        self,
        llm: ChatModel,
        *,
        mode: JudgeMode = "json",
        temperature: float = 0.0,
        max_tokens: int = 384,
        seed: int = 0,
        prompt_file: str | Path | None = None,
    ) -> None:
        if mode not in MODES:
            raise ValueError(f"mode must be one of {sorted(MODES)}, got {mode!r}")
        self.llm = llm
        self.mode = mode
        self.temperature = temperature
        self.max_tokens = max_tokens
        self.seed = seed
        self.prompt_file = str(prompt_file) if prompt_file else None
        self._prompt = (load_prompt_file(prompt_file) if prompt_file
                        else load_prompt("eval", "inseval/judge"))
        self._format = load_prompt("eval", MODES[mode].format_prompt)

    @property
    def prompts(self) -> list[PromptTemplate]:
        return [self._prompt, self._format]

    def config(self) -> dict[str, Any]:
        """What determines the verdicts: for run keys and reports."""
        return {
            "judge": "inseval",
            "mode": self.mode,
            "prompt_hash": prompts_hash(self.prompts),
            "prompt": self._prompt.name,
            "model": self.llm.model,
            "temperature": self.temperature,
            "max_tokens": self.max_tokens,
            "seed": self.seed,
        }

    def messages(self, conv: Conversation, answer: str, procedures: list[str]) -> list[Message]:
        return self._prompt.render(
            history=format_history(conv.history),
            question=conv.question,
            reference_answer=conv.answer,
            reference_procedures=format_steps(conv.procedures),
            n_reference_steps=len(conv.procedures),
            answer=answer.strip() or "(empty answer)",
            procedures=format_steps(procedures),
            format=self._format.user,
        )

    def _params(self) -> dict[str, Any]:
        return {
            "schema": MODES[self.mode].schema,
            "temperature": self.temperature,
            "max_tokens": self.max_tokens,
            "seed": self.seed,
        }

    def score(self, conv: Conversation, answer: str, procedures: list[str]) -> JudgeVerdict:
        """Judge one answer (sync; safe to call from many threads with a thread-safe client)."""
        try:
            result = self.llm.chat(self.messages(conv, answer, procedures), **self._params())
        except REPLY_ERRORS as exc:
            return JudgeVerdict.failed(f"{type(exc).__name__}: {exc}", exc.raw)
        return MODES[self.mode].read(result)

    async def ascore(self, conv: Conversation, answer: str, procedures: list[str]) -> JudgeVerdict:
        """Judge one answer (async)."""
        try:
            result = await self.llm.achat(self.messages(conv, answer, procedures), **self._params())
        except REPLY_ERRORS as exc:
            return JudgeVerdict.failed(f"{type(exc).__name__}: {exc}", exc.raw)
        return MODES[self.mode].read(result)
