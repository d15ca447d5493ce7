"""Value types shared by every chat engine and by the scripted test model."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol, TypedDict, runtime_checkable


class Message(TypedDict):
    role: str  # "system" | "user" | "assistant"
    content: str


@dataclass
class Usage:
    """Token and call accounting; adds up with ``+``."""

    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached_calls: int = 0

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            self.calls + other.calls,
            self.prompt_tokens + other.prompt_tokens,
            self.completion_tokens + other.completion_tokens,
            self.cached_calls + other.cached_calls,
        )

    def to_dict(self) -> dict[str, int]:
        return {
            "calls": self.calls,
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
            "cached_calls": self.cached_calls,
        }


@dataclass
class ChatResult:
    """One chat completion.

    ``text`` is the raw reply; ``data`` is the parsed and schema-validated JSON when a schema was
    requested (``None`` otherwise). ``usage.calls`` is 1 for a server call and 0 for a cache hit
    (then ``cached`` is True and ``usage.cached_calls`` is 1).
    """

    text: str
    data: Any = None
    usage: Usage = field(default_factory=Usage)
    model: str = ""
    cached: bool = False
    seconds: float = 0.0
    finish_reason: str = ""


@runtime_checkable
class ChatModel(Protocol):
    """What every caller of an LLM depends on: the real client and the scripted test model."""

    model: str

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
    ) -> ChatResult: ...

    async def achat(
        self,
        messages: list[Message],
        *,
        schema: dict[str, Any] | None = None,
        temperature: float | None = None,
        max_tokens: int | None = None,
        seed: int | None = None,
        stop: list[str] | None = None,
        use_cache: bool = True,
    ) -> ChatResult: ...

    def stream(
        self,
        messages: list[Message],
        *,
        temperature: float | None = None,
        max_tokens: int | None = None,
        seed: int | None = None,
    ) -> Iterator[str]: ...

    def astream(
        self,
        messages: list[Message],
        *,
        temperature: float | None = None,
        max_tokens: int | None = None,
        seed: int | None = None,
    ) -> AsyncIterator[str]: ...

    @property
    def usage(self) -> Usage: ...
