"""The OpenAI chat-completions wire format as pure functions, shared by the sync and async paths.

Building a request body, parsing a reply (whole or streamed), validating a structured reply and
building the corrective re-ask all live here, free of I/O, so they are tested once.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import jsonschema

from serving.errors import LLMResponseError
from serving.prompts import load_prompt
from serving.types import Message, Usage

CACHE_KEY_VERSION = 1


@dataclass(frozen=True)
class Sampling:
    """Sampling parameters of one request (after defaults from the config are applied)."""

    temperature: float
    max_tokens: int
    seed: int | None
    stop: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "temperature": self.temperature,
            "max_tokens": self.max_tokens,
            "seed": self.seed,
            "stop": list(self.stop),
        }


@dataclass
class Completion:
    """One parsed chat completion."""

    text: str
    finish_reason: str
    usage: Usage
    model: str


@dataclass
class Validation:
    data: Any = None
    errors: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors


def schema_name(schema: dict[str, Any]) -> str:
    """A name for the schema as OpenAI requires it (letters, digits, ``_``, ``-``; max 64)."""
    title = str(schema.get("title") or "reply")
    return re.sub(r"[^A-Za-z0-9_-]+", "_", title)[:64] or "reply"


def _openai_json_schema(schema: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "json_schema",
        "json_schema": {"name": schema_name(schema), "schema": schema, "strict": True},
    }


def _llama_cpp_json_schema(schema: dict[str, Any]) -> dict[str, Any]:
    # llama-cpp-python's server accepts only "text" | "json_object"; the schema rides along and
    # is compiled to a grammar for constrained decoding.
    return {"type": "json_object", "schema": schema}


SCHEMA_FORMATS: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    "json_schema": _openai_json_schema,
    "llama_cpp": _llama_cpp_json_schema,
}


def build_payload(
    model: str,
    messages: list[Message],
    sampling: Sampling,
    *,
    schema: dict[str, Any] | None = None,
    schema_format: str = "json_schema",
    stream: bool = False,
) -> dict[str, Any]:
    """The JSON body of a ``POST /v1/chat/completions``."""
    payload: dict[str, Any] = {
        "model": model,
        "messages": [{"role": m["role"], "content": m["content"]} for m in messages],
        "temperature": sampling.temperature,
        "max_tokens": sampling.max_tokens,
    }
    if sampling.seed is not None:
        payload["seed"] = sampling.seed
    if sampling.stop:
        payload["stop"] = list(sampling.stop)
    if schema is not None:
        payload["response_format"] = SCHEMA_FORMATS[schema_format](schema)
    if stream:
        payload["stream"] = True
    return payload


def cache_key(
    engine: str,
    model: str,
    messages: list[Message],
    sampling: Sampling,
    schema: dict[str, Any] | None,
) -> str:
    """sha256 over everything that determines a reply (never the URL or port)."""
    request = {
        "v": CACHE_KEY_VERSION,
        "engine": engine,
        "model": model,
        "messages": [{"role": m["role"], "content": m["content"]} for m in messages],
        "params": sampling.to_dict(),
        "schema": schema,
    }
    blob = json.dumps(request, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


def _usage(body: dict[str, Any]) -> Usage:
    usage = body.get("usage") or {}
    return Usage(
        calls=1,
        prompt_tokens=int(usage.get("prompt_tokens") or 0),
        completion_tokens=int(usage.get("completion_tokens") or 0),
    )


def parse_completion(raw: str) -> Completion:
    """Parse a non-streamed reply body; anything but a chat completion raises LLMResponseError."""
    try:
        body = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise LLMResponseError(f"reply is not JSON: {exc}", raw=raw) from exc
    try:
        choice = body["choices"][0]
        text = choice["message"]["content"]
    except (KeyError, IndexError, TypeError) as exc:
        raise LLMResponseError(
            f"reply has no choices[0].message.content ({exc!r})", raw=raw
        ) from exc
    if not isinstance(text, str):
        raise LLMResponseError("reply content is not a string", raw=raw)
    try:
        usage = _usage(body)
    except (TypeError, ValueError, AttributeError) as exc:
        raise LLMResponseError(f"reply has a malformed usage block ({exc!r})", raw=raw) from exc
    return Completion(
        text=text,
        finish_reason=str(choice.get("finish_reason") or ""),
        usage=usage,
        model=str(body.get("model") or ""),
    )


DONE = object()


def parse_sse_line(line: str) -> dict[str, Any] | object | None:
    """One line of a streamed reply: a chunk dict, ``DONE``, or ``None`` for anything else."""
    if not line.startswith("data:"):
        return None
    data = line[5:].strip()
    if data == "[DONE]":
        return DONE
    try:
        chunk = json.loads(data)
    except json.JSONDecodeError as exc:
        raise LLMResponseError(f"stream chunk is not JSON: {exc}", raw=data) from exc
    if not isinstance(chunk, dict):
        raise LLMResponseError("stream chunk is not an object", raw=data)
    return chunk


def chunk_text(chunk: dict[str, Any]) -> str:
    """The text a streamed chunk adds ("" for role-only, usage-only or final chunks)."""
    choices = chunk.get("choices") or []
    if not choices:
        return ""
    return (choices[0].get("delta") or {}).get("content") or ""


def validate_reply(text: str, schema: dict[str, Any]) -> Validation:
    """Parse ``text`` as JSON and validate it against ``schema``; errors are readable strings."""
    try:
        # strict=False: grammar-constrained engines (llama.cpp) let raw newlines and tabs into
        # strings; the content is still what was asked for, so accept it.
        data = json.loads(text, strict=False)
    except json.JSONDecodeError as exc:
        return Validation(errors=[f"not valid JSON: {exc}"])
    validator = jsonschema.Draft202012Validator(schema)
    errors = [
        f"{'/'.join(map(str, e.absolute_path)) or '<root>'}: {e.message}"
        for e in sorted(validator.iter_errors(data), key=lambda e: list(map(str, e.path)))
    ]
    return Validation(data=data if not errors else None, errors=errors)


def reask_messages(
    messages: list[Message], raw: str, errors: list[str], schema: dict[str, Any]
) -> list[Message]:
    """The original conversation plus the invalid reply and a corrective request."""
    correction = load_prompt("serving", "schema_retry").render(
        errors="\n".join(f"- {e}" for e in errors[:5]),
        schema=json.dumps(schema, ensure_ascii=False),
    )
    return [*messages, {"role": "assistant", "content": raw}, correction[-1]]
