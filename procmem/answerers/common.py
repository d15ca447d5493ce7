"""Machinery shared by the model-based answerers: prompt rendering with recorded hashes, one
structured model call with its fallbacks, sampling parameters and ``config()``.

A structured call asks for JSON under a schema (constrained decoding); when the engine returns
something else, the reply is repaired (raw control characters accepted, closed if cut off) or
read as plain text, and the trace says which reader succeeded. Engines without constrained decoding are asked for plain text
(``structured=False``) and read with the same text readers.
"""

from __future__ import annotations

import dataclasses
import json
import re
import typing
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

import jsonschema

from procmem.answerers.base import AnswerRequest, Searchable, StageRecord, Trace, record_call
from procmem.answerers.parsing import (
    ReplyParseError,
    fit_to_schema,
    is_placeholder,
    parse_protocol_lenient,
    parse_protocol_text,
    repair_json,
)
from procmem.answerers.schemas import protocol_caps, protocol_schema
from serving.errors import LLMSchemaError
from serving.prompts import PromptTemplate, load_prompt
from serving.types import ChatModel, Message, Usage

PROMPT_PACKAGE = "procmem"
TextReader = Callable[[str], Any]


@dataclass
class LLMParams:
    """Sampling and format settings every model-based answerer shares."""

    temperature: float = 0.0
    max_tokens: int = 384
    seed: int = 0
    # False for engines without constrained decoding: ask for plain text and parse it
    structured: bool = True
    # how the standalone retrieval query is made: "llm" (falls back to "heuristic"),
    # "heuristic" (the memory's history-aware query, no model) or "none" (the question as is)
    query_rewrite: str = "llm"


def prompt(name: str) -> PromptTemplate:
    return load_prompt(PROMPT_PACKAGE, name)


def render(trace: Trace, name: str, format_name: str | None = None, **values: Any) -> list[Message]:
    """Render prompt ``name`` (with the output-format fragment ``format_name`` as ``$format``)
    and record the hashes of both templates in the trace."""
    template = prompt(name)
    trace.prompt_hashes[name] = template.short_hash
    if format_name is not None:
        fragment = prompt(format_name)
        trace.prompt_hashes[format_name] = fragment.short_hash
        values["format"] = fragment.render(**values)[-1]["content"]
    return template.render(**values)


def _usage_since(llm: ChatModel, before: Usage) -> Usage:
    now = llm.usage
    return Usage(now.calls - before.calls, now.prompt_tokens - before.prompt_tokens,
                 now.completion_tokens - before.completion_tokens,
                 now.cached_calls - before.cached_calls)


def ask(
    llm: ChatModel,
    stage: StageRecord,
    messages: list[Message],
    *,
    schema: dict[str, Any],
    readers: list[tuple[str, TextReader]],
    params: LLMParams,
    temperature: float | None = None,
    max_tokens: int | None = None,
    accept: dict[str, Any] | None = None,
) -> Any:
    """One model call returning schema-shaped data.

    ``schema`` is what the model is asked for; a reply that only a fallback reader can read is
    validated against ``accept`` (default: the same schema), which may be looser. The reader
    that succeeded is recorded in ``stage.details["calls"]``; when none can read the reply,
    :class:`ReplyParseError` is raised (callers record their own fallback).
    """
    accept = schema if accept is None else accept
    sampling = {
        "temperature": params.temperature if temperature is None else temperature,
        "max_tokens": params.max_tokens if max_tokens is None else max_tokens,
        "seed": params.seed,
    }
    calls = stage.details.setdefault("calls", [])
    entry: dict[str, Any] = {"structured": params.structured}
    calls.append(entry)
    if params.structured:
        before = llm.usage
        try:
            result = record_call(stage, llm.chat(messages, schema=schema, **sampling))
        except LLMSchemaError as exc:
            stage.usage = stage.usage + _usage_since(llm, before)
            entry["schema_error"] = str(exc)[:300]
            raw = exc.raw
        else:
            entry.update(reader="json", finish_reason=result.finish_reason, cached=result.cached)
            return result.data
        attempts: list[tuple[str, TextReader]] = [("json-repaired", lambda t: repair_json(t, accept))]
    else:
        result = record_call(stage, llm.chat(messages, **sampling))
        entry.update(finish_reason=result.finish_reason, cached=result.cached)
        raw = result.text
        attempts = [("json-in-text", lambda t: _json_in_text(t, accept))]
    attempts = [*readers, *attempts] if not params.structured else [*attempts, *readers]
    for reader_name, reader in attempts:
        try:
            data = fit_to_schema(reader(raw), accept)
            jsonschema.validate(data, accept)
        except (ValueError, jsonschema.ValidationError):
            continue
        entry["reader"] = reader_name
        return data
    entry["reader"] = None
    entry["raw"] = raw[:500]
    raise ReplyParseError(f"a reply matching {schema_title(accept)}", raw)


def _json_in_text(text: str, schema: dict[str, Any]) -> Any:
    start = text.find("{")
    if start < 0:
        raise ReplyParseError("JSON", text)
    try:
        return json.loads(text[start: text.rfind("}") + 1])
    except json.JSONDecodeError:
        return repair_json(text, schema)


def schema_title(schema: dict[str, Any]) -> str:
    return "{" + ", ".join(schema.get("properties", {})) + "}"


# --------------------------------------------------------------------------- words


# a word as code names it: a parameter, a name in CamelCase or with underscores, a number; or a
# capitalised word inside a sentence: a control, a panel, a product ("start typing Power"), not
# the word that opens a sentence whose break a command hid ("… base.raw And the final image …"),
# nor one that opens a sub-item a step's text runs on with ("… as an admin. - Go to …; Add …")
CODED_WORD = re.compile(r"(?<![\w$-])(?:-|\$)?[A-Za-z_]*(?:[a-z][A-Z]|_|\d)[\w.]*")
CAPITALISED_WORD = re.compile(r"(?<![.!?:;]\s)(?<!\s[-–•*]\s)(?<=\s)"
                              r"(?!(?:And|But|Or|Then|The|This|That|These|It|If|When)\b)[A-Z][\w-]*")


def names(text: str) -> set[str]:
    """What a step names: :data:`CODED_WORD` and :data:`CAPITALISED_WORD` words, whether set as
    code or not, without the period that ends a sentence ("Close GnuCash." names what "Close
    `GnuCash`." names)."""
    text = text.replace("`", "")
    return {word.rstrip(".") for word in CODED_WORD.findall(text)} | set(CAPITALISED_WORD.findall(text))


# --------------------------------------------------------------------------- answer + steps

ANSWER_FORMATS = ("answer/format_json", "answer/format_text")
_NUMBER_PREFIX = re.compile(r"^\s*(?:step\s*)?\d+\s*[.):-]\s*", re.I)


def answer_format(params: LLMParams) -> str:
    return ANSWER_FORMATS[0] if params.structured else ANSWER_FORMATS[1]


def clean_answer(data: dict[str, Any], raw_hint: str = "") -> dict[str, Any]:
    """Trimmed answer; steps without their own numbering, blank and repeated ones dropped."""
    steps: list[str] = []
    for step in data.get("procedures", []):
        text = " ".join(_NUMBER_PREFIX.sub("", str(step)).split()).lstrip("-*• ").strip()
        if not is_placeholder(text) and text.casefold() not in {s.casefold() for s in steps}:
            steps.append(text)
    answer = " ".join(str(data.get("answer", "")).split())
    answer = "" if is_placeholder(answer) else answer
    if not steps:
        raise ReplyParseError("at least one non-empty step", raw_hint or json.dumps(data))
    return {"answer": answer or steps[0], "procedures": steps}


def generate_answer(llm: ChatModel, trace: Trace, stage: StageRecord, prompt_name: str,
                    params: LLMParams, *, max_tokens: int | None = None,
                    **values: Any) -> dict[str, Any]:
    """One call of a generator prompt in the answering protocol's format."""
    messages = render(trace, prompt_name, answer_format(params), **values)
    schema = protocol_schema(**protocol_caps(max_tokens or params.max_tokens))
    data = ask(llm, stage, messages, schema=schema, params=params, max_tokens=max_tokens,
               readers=[("text", parse_protocol_text), ("text-lenient", parse_protocol_lenient)])
    return clean_answer(data)


# --------------------------------------------------------------------------- formatting


def format_history(history: list[tuple[str, str]], max_turns: int = 6, max_chars: int = 600) -> str:
    """Earlier rounds as ``User:`` / ``Assistant:`` lines (the most recent ``max_turns``)."""
    if not history:
        return "(no earlier messages)"
    lines = []
    for question, answer in history[-max_turns:]:
        lines.append(f"User: {_clip(question, max_chars)}")
        lines.append(f"Assistant: {_clip(answer, max_chars)}")
    return "\n".join(lines)


def _clip(text: str, chars: int) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= chars else text[: chars - 1] + "…"


def clip_words(text: str, words: int) -> str:
    parts = text.split(" ")
    return text if len(parts) <= words else " ".join(parts[:words]) + " …"


def numbered(items: list[str]) -> str:
    return "\n".join(f"{i}. {item}" for i, item in enumerate(items, 1)) or "(none)"


def render_units(units: list[Any], max_words: int = 220) -> str:
    """Units as numbered blocks for a prompt, each clipped to ``max_words`` words."""
    if not units:
        return "(nothing retrieved)"
    blocks = []
    for i, unit in enumerate(units, 1):
        title = unit.meta.get("title", "")
        head = f"[{i}] {title}".rstrip()
        blocks.append(f"{head}\n{clip_words(unit.render(), max_words)}")
    return "\n\n".join(blocks)


# --------------------------------------------------------------------------- base class


class ModelAnswerer:
    """Holds the model, the memory and the parameters; gives ``config()``."""

    name: str = ""
    # every prompt (and format fragment) this answerer may render, for config()
    prompt_names: tuple[str, ...] = ()

    def __init__(self, *, llm: ChatModel | None, memory: Searchable | None, params: LLMParams,
                 name: str | None = None) -> None:
        if llm is None:
            raise ValueError(f"the {name or self.name!r} answerer needs a chat model (llm=...)")
        self.llm = llm
        self.memory = memory
        self.params = params
        if name:
            self.name = name

    def config(self) -> dict[str, Any]:
        return {
            "answerer": self.name,
            "params": dataclasses.asdict(self.params),
            "prompts": {n: prompt(n).short_hash for n in self.prompt_names},
            "model": getattr(self.llm, "model", ""),
        }

    def check(self, request: AnswerRequest) -> None:
        if not request.question.strip():
            raise ValueError("the request has an empty question")


def make_params(cls: type[Any], name: str, params: dict[str, Any], **defaults: Any) -> Any:
    """``cls(**defaults, **params)`` with an error naming the answerer and the bad setting."""
    fields = {f.name for f in dataclasses.fields(cls)}
    unknown = sorted(set(params) - fields)
    if unknown:
        raise TypeError(f"answerer {name!r}: unknown parameter(s) {unknown}; known: {sorted(fields)}")
    hints = typing.get_type_hints(cls)
    for key, value in params.items():
        allowed = typing.get_args(hints[key]) if typing.get_origin(hints[key]) is Literal else ()
        if allowed and value not in allowed:
            raise ValueError(f"answerer {name!r}: {key}={value!r}; expected one of {list(allowed)}")
    return cls(**{**defaults, **params})
