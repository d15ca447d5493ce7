"""A scripted chat model for fast, offline unit tests of control flow.

It satisfies :class:`serving.types.ChatModel`. Replies come from a list (in order) or from a
function of the messages. Every call is recorded in ``calls`` so tests can assert on the exact
inputs each stage received. Schema requests are parsed and validated like the real client does,
so a scripted invalid reply raises :class:`LLMSchemaError` the same way.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import jsonschema

from serving.errors import LLMConnectionError, LLMSchemaError
from serving.types import ChatResult, Message, Usage

Reply = str | dict[str, Any] | list[Any] | Exception
ReplyFn = Callable[[list[Message], dict[str, Any] | None], Reply]


@dataclass
class ScriptedCall:
    messages: list[Message]
    schema: dict[str, Any] | None
    params: dict[str, Any]

    @property
    def prompt(self) -> str:
        return "\n".join(m["content"] for m in self.messages)


@dataclass
class ScriptedLLM:
    replies: list[Reply] | ReplyFn = field(default_factory=list)
    model: str = "scripted"
    calls: list[ScriptedCall] = field(default_factory=list)
    _usage: Usage = field(default_factory=Usage)

    @property
    def usage(self) -> Usage:
        return self._usage

    def _next(self, messages: list[Message], schema: dict[str, Any] | None) -> Reply:
        if callable(self.replies):
            return self.replies(messages, schema)
        if not self.replies:
            raise AssertionError(f"ScriptedLLM ran out of replies at call {len(self.calls)}")
        return self.replies.pop(0)

    def chat(
        self,
        messages: list[Message],
        *,
        schema: dict[str, Any] | None = None,
        temperature: float | None = None,
        max_tokens: int | None = None,
        seed: int | None = None,
        stop: list[str] | None = None,
        use_cache: bool = True,
    ) -> ChatResult:
        params = {"temperature": temperature, "max_tokens": max_tokens, "seed": seed, "stop": stop}
        self.calls.append(ScriptedCall(list(messages), schema, params))
        reply = self._next(messages, schema)
        if isinstance(reply, Exception):
            raise reply
        text = reply if isinstance(reply, str) else json.dumps(reply)
        usage = Usage(calls=1, prompt_tokens=sum(len(m["content"].split()) for m in messages),
                      completion_tokens=len(text.split()))
        self._usage = self._usage + usage
        data = None
        if schema is not None:
            try:
                data = json.loads(text, strict=False)
                jsonschema.validate(data, schema)
            except (json.JSONDecodeError, jsonschema.ValidationError) as exc:
                raise LLMSchemaError(f"scripted reply does not match schema: {exc}", raw=text) from exc
        return ChatResult(text=text, data=data, usage=usage, model=self.model)

    async def achat(self, messages: list[Message], **kwargs: Any) -> ChatResult:
        return self.chat(messages, **kwargs)

    def stream(self, messages: list[Message], **kwargs: Any) -> Iterator[str]:
        text = self.chat(messages, **kwargs).text
        for i in range(0, len(text), 8):
            yield text[i : i + 8]

    async def astream(self, messages: list[Message], **kwargs: Any) -> AsyncIterator[str]:
        for piece in self.stream(messages, **kwargs):
            yield piece


def unreachable_llm() -> ScriptedLLM:
    """A model whose every call fails as if the engine were down."""

    def fail(messages: list[Message], schema: dict[str, Any] | None) -> Reply:
        return LLMConnectionError("engine unreachable", url="http://127.0.0.1:9")

    return ScriptedLLM(replies=fail)
