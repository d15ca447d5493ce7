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
from serving.errors import EngineDiedError
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
        """The client to call now (asked of the pool each time, so a restarted engine is used)."""
        client = self._open()
        with self._lock:
            self._client = client
        return client

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
    """One client per serving configuration, opened on first use and closed together.

    A client whose started engine has died is replaced by a new one (its engine restarted) at
    most ``restarts`` times per configuration; after that the death is reported to the caller.
    """

    def __init__(self, connect: Connect | None = None, *, restarts: int = 1) -> None:
        self._connect = connect
        self._restarts = restarts
        self._open_clients: dict[str, tuple[ChatModel, ExitStack]] = {}
        self._restarted: dict[str, int] = {}
        self._lock = threading.Lock()

    @staticmethod
    def key(config: ServingConfig) -> str:
        data = json.dumps(dataclasses.asdict(config), sort_keys=True, default=str)
        return hashlib.sha256(data.encode()).hexdigest()

    def client(self, config: ServingConfig) -> ChatModel:
        """The open client for ``config`` (connecting, or starting its engine, the first time)."""
        key = self.key(config)
        with self._lock:
            entry = self._open_clients.get(key)
            if entry is not None and self._dead(entry[0], key):
                self._open_clients.pop(key)[1].close()  # stop what is left of it
                self._restarted[key] = self._restarted.get(key, 0) + 1
                entry = None
            if entry is None:
                stack = ExitStack()
                try:
                    client = stack.enter_context(self._open(config))
                except BaseException:
                    stack.close()
                    raise
                self._open_clients[key] = entry = (client, stack)
            return entry[0]

    def _dead(self, client: ChatModel, key: str) -> bool:
        """Whether ``client``'s engine died and may still be restarted."""
        check = getattr(client, "check_engine", None)
        if check is None or self._restarted.get(key, 0) >= self._restarts:
            return False
        try:
            check()
        except EngineDiedError:
            return True
        return False

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
            entries = list(self._open_clients.values())
            self._open_clients.clear()
        for _, stack in reversed(entries):
            stack.close()

    def __enter__(self) -> ClientPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
