"""One pool of clients and one wrapper around a client, for programs that hold many of them.

* :class:`ClientPool` opens one client per serving configuration on first use (starting its
  engine when the configuration names one to start), keeps it for the pool's lifetime, and
  closes them all together. A benchmark run with nothing left to do, or a demo reply from an
  answerer that needs no model, therefore starts no engine.
* :class:`PooledModel` is the :class:`~serving.types.ChatModel` handed to callers: it opens its
  client on the first call, may fix the sampling temperature (the demo's setting), and reports
  every call's usage to the :func:`usage_tab` blocks open in the calling thread, so work done
  concurrently on one shared client can be charged to the task that asked for it.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import AbstractContextManager, ExitStack, contextmanager
from dataclasses import dataclass, field
from typing import Any

from serving.config import ServingConfig
from serving.types import ChatModel, ChatResult, Message, Usage

Connect = Callable[[ServingConfig], AbstractContextManager[ChatModel]]

_local = threading.local()


@dataclass
class Tab:
    """Usage and wall time of the calls made in one thread inside :func:`usage_tab`."""

    usage: Usage = field(default_factory=Usage)
    llm_seconds: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return {**self.usage.to_dict(), "llm_seconds": round(self.llm_seconds, 4)}


@contextmanager
def usage_tab() -> Iterator[Tab]:
    """Collect the usage of every :class:`PooledModel` call made by this thread in the block."""
    stack: list[Tab] = getattr(_local, "tabs", [])
    _local.tabs = stack
    tab = Tab()
    stack.append(tab)
    try:
        yield tab
    finally:
        stack.pop()


def _charge(result: ChatResult, seconds: float) -> None:
    for tab in getattr(_local, "tabs", []):
        tab.usage = tab.usage + result.usage
        tab.llm_seconds += seconds


def model_label(config: ServingConfig) -> str:
    """The model name of a configuration, known without connecting (it goes into run keys)."""
    from serving.engines import get_engine

    try:
        default = get_engine(config.engine).default_model(config)
    except Exception:  # a missing weights package is reported when the engine starts
        default = ""
    return config.model or default or f"{config.engine}@{config.base_url or 'default'}"


class PooledModel:
    """A ChatModel over a client that is opened on the first call (see the module docstring)."""

    def __init__(self, open_client: Callable[[], ChatModel], *, model: str,
                 temperature: float | None = None) -> None:
        self._open = open_client
        self._client: ChatModel | None = None
        self._lock = threading.Lock()
        self.label = model
        self.temperature = temperature

    @classmethod
    def around(cls, llm: ChatModel) -> PooledModel:
        """Wrap a client that is already open (its usage is charged to tabs all the same)."""
        return llm if isinstance(llm, PooledModel) else cls(lambda: llm, model=llm.model)

    def open(self) -> ChatModel:
        with self._lock:
            if self._client is None:
                self._client = self._open()
            return self._client

    @property
    def connected(self) -> bool:
        return self._client is not None

    @property
    def model(self) -> str:
        """The name the engine reports once connected, else the configured one."""
        return getattr(self._client, "model", "") or self.label

    @property
    def usage(self) -> Usage:
        return self._client.usage if self._client is not None else Usage()

    def _temperature(self, requested: float | None) -> float | None:
        return requested if self.temperature is None else self.temperature

    def chat(self, messages: list[Message], *, schema: dict[str, Any] | None = None,
             temperature: float | None = None, max_tokens: int | None = None,
             seed: int | None = None, stop: list[str] | None = None,
             use_cache: bool = True) -> ChatResult:
        client = self.open()
        start = time.perf_counter()
        result = client.chat(messages, schema=schema, temperature=self._temperature(temperature),
                             max_tokens=max_tokens, seed=seed, stop=stop, use_cache=use_cache)
        _charge(result, time.perf_counter() - start)
        return result

    async def achat(self, messages: list[Message], *, schema: dict[str, Any] | None = None,
                    temperature: float | None = None, max_tokens: int | None = None,
                    seed: int | None = None, stop: list[str] | None = None,
                    use_cache: bool = True) -> ChatResult:
        client = self.open()
        start = time.perf_counter()
        result = await client.achat(messages, schema=schema,
                                    temperature=self._temperature(temperature),
                                    max_tokens=max_tokens, seed=seed, stop=stop,
                                    use_cache=use_cache)
        _charge(result, time.perf_counter() - start)
        return result

    def stream(self, messages: list[Message], *, temperature: float | None = None,
               max_tokens: int | None = None, seed: int | None = None) -> Iterator[str]:
        return self.open().stream(messages, temperature=self._temperature(temperature),
                                  max_tokens=max_tokens, seed=seed)

    def astream(self, messages: list[Message], *, temperature: float | None = None,
                max_tokens: int | None = None, seed: int | None = None) -> AsyncIterator[str]:
        return self.open().astream(messages, temperature=self._temperature(temperature),
                                   max_tokens=max_tokens, seed=seed)

    def __repr__(self) -> str:
        return f"PooledModel(model={self.model!r}, connected={self.connected})"


class ClientPool:
    """One client per serving configuration, opened on first use and closed together."""

    def __init__(self, connect: Connect | None = None) -> None:
        self._connect = connect
        self._stack = ExitStack()
        self._clients: dict[str, ChatModel] = {}
        self._lock = threading.Lock()

    @staticmethod
    def key(config: ServingConfig) -> str:
        data = json.dumps(dataclasses.asdict(config), sort_keys=True, default=str)
        return hashlib.sha256(data.encode()).hexdigest()

    def client(self, config: ServingConfig) -> ChatModel:
        """The open client for ``config`` (connecting, or starting its engine, the first time)."""
        key = self.key(config)
        with self._lock:
            if key not in self._clients:
                self._clients[key] = self._stack.enter_context(self._open(config))
            return self._clients[key]

    def model(self, config: ServingConfig, *, temperature: float | None = None) -> PooledModel:
        """A lazy handle on ``config``'s client; nothing is opened until its first call."""
        return PooledModel(lambda: self.client(config), model=model_label(config),
                           temperature=temperature)

    def _open(self, config: ServingConfig) -> AbstractContextManager[ChatModel]:
        if self._connect is not None:
            return self._connect(config)
        from serving.connect import connect

        return connect(config)

    def close(self) -> None:
        with self._lock:
            self._clients.clear()
            self._stack.close()

    def __enter__(self) -> ClientPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
