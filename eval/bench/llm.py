"""LLM wrappers used by benchmark runs.

* :class:`TappedLLM` adds every call's usage to the *tab* open in the calling thread, so the
  runner can charge each sample exactly the calls made for it, while many samples share one
  thread-safe client concurrently.
* :class:`LazyClient` connects to (or starts) an engine only on first use, so re-running a
  finished run neither starts an engine nor makes a call.
"""

from __future__ import annotations

import threading
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import AbstractContextManager, ExitStack, contextmanager
from dataclasses import dataclass, field
from typing import Any

from serving.types import ChatModel, ChatResult, Message, Usage

_local = threading.local()


@dataclass
class Tab:
    """Usage and wall time of the LLM calls made in one thread inside :func:`open_tab`."""

    usage: Usage = field(default_factory=Usage)
    llm_seconds: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return {**self.usage.to_dict(), "llm_seconds": round(self.llm_seconds, 4)}


@contextmanager
def open_tab() -> Iterator[Tab]:
    """Collect the usage of every :class:`TappedLLM` call made by this thread in the block."""
    tab = Tab()
    stack: list[Tab] = getattr(_local, "tabs", [])
    _local.tabs = stack
    stack.append(tab)
    try:
        yield tab
    finally:
        stack.pop()


def _charge(result: ChatResult, seconds: float) -> None:
    for tab in getattr(_local, "tabs", []):
        tab.usage = tab.usage + result.usage
        tab.llm_seconds += seconds


class TappedLLM:
    """A ChatModel that reports each call's usage to the thread's open tabs."""

    def __init__(self, inner: ChatModel) -> None:
        self.inner = inner

    @property
    def model(self) -> str:
        return self.inner.model

    @property
    def usage(self) -> Usage:
        return self.inner.usage

    def chat(self, messages: list[Message], **kwargs: Any) -> ChatResult:
        start = time.perf_counter()
        result = self.inner.chat(messages, **kwargs)
        _charge(result, time.perf_counter() - start)
        return result

    async def achat(self, messages: list[Message], **kwargs: Any) -> ChatResult:
        start = time.perf_counter()
        result = await self.inner.achat(messages, **kwargs)
        _charge(result, time.perf_counter() - start)
        return result

    def stream(self, messages: list[Message], **kwargs: Any) -> Iterator[str]:
        return self.inner.stream(messages, **kwargs)

    def astream(self, messages: list[Message], **kwargs: Any) -> AsyncIterator[str]:
        return self.inner.astream(messages, **kwargs)

    def open(self) -> None:
        opener = getattr(self.inner, "open", None)
        if callable(opener):
            opener()


def tapped(llm: ChatModel) -> TappedLLM:
    return llm if isinstance(llm, TappedLLM) else TappedLLM(llm)


class LazyClient:
    """A ChatModel that enters ``connect()`` (a context manager yielding a client) on first use.

    ``model`` is known without connecting (it goes into run keys). Close the ``ExitStack``
    given at construction to stop whatever was started.
    """

    def __init__(self, connect: Any, *, model: str, stack: ExitStack) -> None:
        self._connect = connect
        self._stack = stack
        self._client: ChatModel | None = None
        self._lock = threading.Lock()
        self.model = model

    @property
    def connected(self) -> bool:
        return self._client is not None

    def open(self) -> ChatModel:
        with self._lock:
            if self._client is None:
                manager: AbstractContextManager[ChatModel] = self._connect()
                self._client = self._stack.enter_context(manager)
            return self._client

    @property
    def usage(self) -> Usage:
        return self._client.usage if self._client is not None else Usage()

    @property
    def served_model(self) -> str:
        """The model name the engine reports (after connecting), else the configured one."""
        return getattr(self._client, "model", "") or self.model

    def chat(self, messages: list[Message], **kwargs: Any) -> ChatResult:
        return self.open().chat(messages, **kwargs)

    async def achat(self, messages: list[Message], **kwargs: Any) -> ChatResult:
        return await self.open().achat(messages, **kwargs)

    def stream(self, messages: list[Message], **kwargs: Any) -> Iterator[str]:
        return self.open().stream(messages, **kwargs)

    def astream(self, messages: list[Message], **kwargs: Any) -> AsyncIterator[str]:
        return self.open().astream(messages, **kwargs)
