"""The chat client: OpenAI-compatible ``/v1/chat/completions`` over httpx, sync and async.

One :class:`LLMClient` serves many threads at once (the sync path uses a thread-safe
``httpx.Client`` and a bounded semaphore) and many coroutines (the async path uses one
``httpx.AsyncClient`` and one ``asyncio.Semaphore`` per event loop). Both paths share the pure
request, retry and validation functions of :mod:`serving.protocol` and :mod:`serving.retry`.
"""

from __future__ import annotations

import asyncio
import dataclasses
import threading
import time
import weakref
from collections.abc import AsyncIterator, Callable, Generator, Iterator, Mapping
from contextlib import AsyncExitStack, ExitStack
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import httpx

from serving.cache import ResponseCache
from serving.config import ServingConfig, api_root
from serving.engines import get_engine
from serving.errors import LLMResponseError, LLMSchemaError
from serving.headers import current_headers
from serving.protocol import (
    DONE,
    SCHEMA_FORMATS,
    Completion,
    Sampling,
    build_payload,
    cache_key,
    chunk_text,
    parse_completion,
    parse_sse_line,
    reask_messages,
    validate_reply,
)
from serving.retry import RetryPolicy, check_status, transport_failure
from serving.types import ChatResult, Message, Usage

CHAT_PATH = "/v1/chat/completions"
# after a dropped connection, how long a started engine's process may take to be seen gone
DYING_GRACE_S = 2.0
T = TypeVar("T")


@dataclass(frozen=True)
class Send:
    """The core asks its driver to send ``payload``; it is answered with a Reply or a transport error."""

    payload: dict[str, Any]
    timeout: httpx.Timeout


@dataclass(frozen=True)
class Wait:
    """The core asks its driver to wait before the next attempt."""

    seconds: float


@dataclass(frozen=True)
class Reply:
    """What came back for a Send (a stream's body is read only when the status is an error)."""

    status: int
    headers: Mapping[str, str]
    text: str


@dataclass(frozen=True)
class Done(Generic[T]):
    """The core has finished with ``value``."""

    value: T


Outcome = Reply | httpx.TransportError
Steps = Generator[Send | Wait, Outcome | None, T]


def _advance(steps: Steps[T], outcome: Outcome | None) -> Send | Wait | Done[T]:
    """Tell the core what happened; get its next step, or Done with its result."""
    try:
        return steps.send(outcome)
    except StopIteration as stop:
        return Done(stop.value)


@dataclass
class ChatRequest:
    """A call after defaults are applied: what is sent, and the cache key it is stored under."""

    messages: list[Message]
    sampling: Sampling
    schema: dict[str, Any] | None
    key: str


@dataclass
class ClientStats:
    """HTTP-level counters (attempts include retried ones); thread-safe via the client's lock."""

    attempts: int = 0
    retries: int = 0
    schema_reasks: int = 0

    def to_dict(self) -> dict[str, int]:
        return dataclasses.asdict(self)


class LLMClient:
    """A :class:`serving.types.ChatModel` for one OpenAI-compatible endpoint (``config.base_url``)."""

    def __init__(
        self,
        config: ServingConfig,
        *,
        cache: ResponseCache | None = None,
        engine_check: Callable[[float], None] | None = None,
    ) -> None:
        if not config.base_url:
            raise ValueError(
                "LLMClient needs config.base_url; use serving.connect() to start an engine"
            )
        self.config = config
        self.model = config.model or "default"
        self.base_url = api_root(config.base_url)
        self.url = self.base_url + CHAT_PATH
        self.schema_format = self._schema_format(config)
        self.policy = RetryPolicy.from_config(config)
        self.cache = (
            cache
            if cache is not None
            else (ResponseCache(config.cache_path()) if config.cache else None)
        )
        self._headers = {"Authorization": f"Bearer {config.api_key}"} if config.api_key else {}
        self._timeout = httpx.Timeout(config.timeout_s, connect=min(10.0, config.timeout_s))
        limits = httpx.Limits(
            max_connections=config.concurrency, max_keepalive_connections=config.concurrency
        )
        self._http = httpx.Client(
            timeout=self._timeout, limits=limits, headers=self._headers, trust_env=False
        )
        self._slots = threading.BoundedSemaphore(config.concurrency)
        self._async: weakref.WeakKeyDictionary[
            asyncio.AbstractEventLoop, tuple[httpx.AsyncClient, asyncio.Semaphore]
        ] = weakref.WeakKeyDictionary()
        self._engine_check = engine_check  # raises EngineDiedError once a started engine exited
        self._lock = threading.Lock()
        self._usage = Usage()
        self.stats = ClientStats()

    @staticmethod
    def _schema_format(config: ServingConfig) -> str:
        name = (
            get_engine(config.engine).schema_format
            if config.schema_format == "auto"
            else config.schema_format
        )
        if name not in SCHEMA_FORMATS:
            raise ValueError(
                f"schema_format {name!r}: expected 'auto' or one of {sorted(SCHEMA_FORMATS)}"
            )
        return name

    # ----------------------------------------------------------------- accounting
    @property
    def usage(self) -> Usage:
        """Running totals over every call of this client (cache hits count as ``cached_calls``)."""
        with self._lock:
            return dataclasses.replace(self._usage)

    def _count(self, usage: Usage | None = None, **stats: int) -> None:
        with self._lock:
            if usage is not None:
                self._usage = self._usage + usage
            for name, n in stats.items():
                setattr(self.stats, name, getattr(self.stats, name) + n)

    # ----------------------------------------------------------------- requests
    def _request(
        self,
        messages: list[Message],
        schema: dict[str, Any] | None,
        temperature: float | None,
        max_tokens: int | None,
        seed: int | None,
        stop: list[str] | None,
    ) -> ChatRequest:
        sampling = Sampling(
            temperature=self.config.temperature if temperature is None else temperature,
            max_tokens=self.config.max_tokens if max_tokens is None else max_tokens,
            seed=self.config.seed if seed is None else seed,
            stop=tuple(stop or ()),
        )
        key = cache_key(self.config.engine, self.model, messages, sampling, schema)
        return ChatRequest(list(messages), sampling, schema, key)

    def _payload(
        self, request: ChatRequest, messages: list[Message], ask: int, *, stream: bool = False
    ) -> dict[str, Any]:
        sampling = request.sampling
        if ask and sampling.seed is not None:  # a re-ask also gets a fresh seed
            sampling = dataclasses.replace(sampling, seed=sampling.seed + ask)
        return build_payload(
            self.model,
            messages,
            sampling,
            schema=request.schema,
            schema_format=self.schema_format,
            stream=stream,
        )

    def _cached(self, request: ChatRequest, use_cache: bool) -> ChatResult | None:
        if not (use_cache and self.cache is not None):
            return None
        hit = self.cache.get(request.key)
        if hit is not None:
            self._count(hit.usage)
        return hit

    def _accept(
        self,
        request: ChatRequest,
        completion: Completion,
        spent: Usage,
        started: float,
        use_cache: bool,
    ) -> ChatResult | list[str]:
        """The result of a valid reply (stored in the cache), or the schema errors of an invalid one."""
        data = None
        if request.schema is not None:
            validation = validate_reply(completion.text, request.schema)
            if not validation.ok:
                return validation.errors
            data = validation.data
        result = ChatResult(
            text=completion.text,
            data=data,
            usage=spent,
            model=completion.model or self.model,
            seconds=time.monotonic() - started,
            finish_reason=completion.finish_reason,
        )
        if use_cache and self.cache is not None:
            self.cache.put(
                request.key,
                result,
                prompt_tokens=completion.usage.prompt_tokens,
                completion_tokens=completion.usage.completion_tokens,
            )
        return result

    def _schema_error(self, request: ChatRequest, raw: str, errors: list[str]) -> LLMSchemaError:
        asks = self.config.schema_retries + 1
        return LLMSchemaError(
            f"reply does not match the schema after {asks} asks: {'; '.join(errors[:3])}",
            raw=raw,
            errors=errors,
        )

    # ----------------------------------------------------------------- the request core
    # One retry loop and one re-ask loop, written once as generators that say what to do next
    # (``Send`` a payload, ``Wait``) and are told what happened (a ``Reply`` or a transport
    # error). The sync and async drivers below only perform the I/O.
    def _attempts(self, payload: dict[str, Any]) -> Steps[Reply]:
        """Send ``payload`` until a reply is accepted, retrying as the policy says."""
        deadline = time.monotonic() + self.policy.total_s
        attempt = 0
        while True:
            attempt += 1
            self._count(attempts=1)
            outcome = yield Send(payload, self._bounded(deadline - time.monotonic()))
            if isinstance(outcome, Reply):
                failure = check_status(outcome.status, outcome.headers, outcome.text, self.url)
                if failure is None:
                    return outcome
            else:  # a dropped connection: is the engine process going away?
                self.check_engine(grace_s=DYING_GRACE_S)
                failure = transport_failure(outcome, self.url)
            delay = self.policy.next_delay(attempt, failure, deadline - time.monotonic())
            if delay is None:
                self.check_engine()
                raise failure.error
            self._count(retries=1)
            yield Wait(delay)

    def _exchange(self, request: ChatRequest, use_cache: bool) -> Steps[ChatResult]:
        """A whole chat call: the request, then re-asks while the reply misses the schema."""
        started, spent, conversation = time.monotonic(), Usage(), request.messages
        asks = self.config.schema_retries + 1 if request.schema is not None else 1
        for ask in range(asks):
            reply = yield from self._attempts(self._payload(request, conversation, ask))
            completion = parse_completion(reply.text)
            spent = spent + completion.usage
            self._count(completion.usage, schema_reasks=1 if ask else 0)
            outcome = self._accept(request, completion, spent, started, use_cache)
            if isinstance(outcome, ChatResult):
                return outcome
            conversation = reask_messages(
                request.messages, completion.text, outcome, request.schema or {}
            )
        raise self._schema_error(request, completion.text, outcome)

    def check_engine(self, grace_s: float = 0.0) -> None:
        """Raise :class:`EngineDiedError` if the engine this client started has exited (or
        exits within ``grace_s`` seconds)."""
        if self._engine_check is not None:
            self._engine_check(grace_s)


    def _bounded(self, remaining: float) -> httpx.Timeout:
        return httpx.Timeout(
            max(0.01, min(self.config.timeout_s, remaining)),
            connect=min(10.0, max(0.01, remaining)),
        )

    # ----------------------------------------------------------------- sync driver
    def _drive(self, steps: Steps[T]) -> T:
        step = _advance(steps, None)
        while not isinstance(step, Done):
            if isinstance(step, Wait):
                time.sleep(step.seconds)
                step = _advance(steps, None)
                continue
            outcome: Outcome
            try:
                with self._slots:
                    response = self._http.post(self.url, json=step.payload, timeout=step.timeout,
                                               headers=current_headers())
                outcome = Reply(response.status_code, response.headers, response.text)
            except httpx.TransportError as exc:
                outcome = exc
            step = _advance(steps, outcome)
        return step.value

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
        """One chat completion (validated against ``schema`` when given); safe from many threads."""
        request = self._request(messages, schema, temperature, max_tokens, seed, stop)
        if (hit := self._cached(request, use_cache)) is not None:
            return hit
        return self._drive(self._exchange(request, use_cache))

    def stream(
        self,
        messages: list[Message],
        *,
        temperature: float | None = None,
        max_tokens: int | None = None,
        seed: int | None = None,
    ) -> Iterator[str]:
        """Yield the reply's text as it is generated (never cached; retried until the first byte)."""
        request = self._request(messages, None, temperature, max_tokens, seed, None)
        steps = self._attempts(self._payload(request, request.messages, 0, stream=True))
        step = _advance(steps, None)
        while not isinstance(step, Done):
            if isinstance(step, Wait):
                time.sleep(step.seconds)
                step = _advance(steps, None)
                continue
            with self._slots, ExitStack() as stack:
                outcome: Outcome
                try:
                    response = stack.enter_context(self._http.stream(
                        "POST", self.url, json=step.payload, timeout=step.timeout,
                        headers=current_headers()))
                    body = response.read().decode() if response.status_code >= 300 else ""
                    outcome = Reply(response.status_code, response.headers, body)
                except httpx.TransportError as exc:
                    outcome = exc
                step = _advance(steps, outcome)
                if isinstance(step, Done):
                    counter = _StreamUsage()
                    try:
                        for line in response.iter_lines():
                            if not counter.feed(line):
                                break
                            yield from counter.pop()
                    except httpx.TransportError as exc:
                        raise transport_failure(exc, self.url).error from exc
                    self._finish_stream(counter)

    # ----------------------------------------------------------------- async driver
    def _async_parts(self) -> tuple[httpx.AsyncClient, asyncio.Semaphore]:
        loop = asyncio.get_running_loop()
        with self._lock:
            parts = self._async.get(loop)
            if parts is None:
                limits = httpx.Limits(max_connections=self.config.concurrency)
                http = httpx.AsyncClient(
                    timeout=self._timeout, limits=limits, headers=self._headers, trust_env=False
                )
                parts = (http, asyncio.Semaphore(self.config.concurrency))
                self._async[loop] = parts
        return parts

    async def _adrive(self, steps: Steps[T]) -> T:
        http, slots = self._async_parts()
        step = _advance(steps, None)
        while not isinstance(step, Done):
            if isinstance(step, Wait):
                await asyncio.sleep(step.seconds)
                step = _advance(steps, None)
                continue
            outcome: Outcome
            try:
                async with slots:
                    response = await http.post(self.url, json=step.payload, timeout=step.timeout,
                                               headers=current_headers())
                outcome = Reply(response.status_code, response.headers, response.text)
            except httpx.TransportError as exc:
                outcome = exc
            step = _advance(steps, outcome)
        return step.value

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
    ) -> ChatResult:
        """The async twin of :meth:`chat`."""
        request = self._request(messages, schema, temperature, max_tokens, seed, stop)
        if (hit := self._cached(request, use_cache)) is not None:
            return hit
        return await self._adrive(self._exchange(request, use_cache))

    async def astream(
        self,
        messages: list[Message],
        *,
        temperature: float | None = None,
        max_tokens: int | None = None,
        seed: int | None = None,
    ) -> AsyncIterator[str]:
        """The async twin of :meth:`stream`."""
        http, slots = self._async_parts()
        request = self._request(messages, None, temperature, max_tokens, seed, None)
        steps = self._attempts(self._payload(request, request.messages, 0, stream=True))
        step = _advance(steps, None)
        while not isinstance(step, Done):
            if isinstance(step, Wait):
                await asyncio.sleep(step.seconds)
                step = _advance(steps, None)
                continue
            async with slots, AsyncExitStack() as stack:
                outcome: Outcome
                try:
                    response = await stack.enter_async_context(
                        http.stream("POST", self.url, json=step.payload, timeout=step.timeout,
                                    headers=current_headers()))
                    body = (await response.aread()).decode() if response.status_code >= 300 else ""
                    outcome = Reply(response.status_code, response.headers, body)
                except httpx.TransportError as exc:
                    outcome = exc
                step = _advance(steps, outcome)
                if isinstance(step, Done):
                    counter = _StreamUsage()
                    try:
                        async for line in response.aiter_lines():
                            if not counter.feed(line):
                                break
                            for piece in counter.pop():
                                yield piece
                    except httpx.TransportError as exc:
                        raise transport_failure(exc, self.url).error from exc
                    self._finish_stream(counter)

    def _finish_stream(self, counter: _StreamUsage) -> None:
        self._count(counter.usage())
        counter.check_finished()

    # ----------------------------------------------------------------- lifecycle
    def close(self) -> None:
        self._http.close()
        if self.cache is not None:
            self.cache.close()

    async def aclose(self) -> None:
        loop = asyncio.get_running_loop()
        parts = self._async.pop(loop, None)
        if parts is not None:
            await parts[0].aclose()

    def __enter__(self) -> LLMClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"LLMClient(engine={self.config.engine!r}, model={self.model!r}, base_url={self.base_url!r})"


class _StreamUsage:
    """Usage and completeness of a streamed reply (the server's usage block, else one token a chunk)."""

    def __init__(self) -> None:
        self.chunks = 0
        self.reported: Usage | None = None
        self.finish_reason = ""
        self.text: list[str] = []
        self._ready: list[str] = []

    def feed(self, line: str) -> bool:
        """Take one SSE line; False at the end of the stream."""
        chunk = parse_sse_line(line)
        if chunk is DONE:
            return False
        if isinstance(chunk, dict) and (piece := self.add(chunk)):
            self._ready.append(piece)
        return True

    def pop(self) -> list[str]:
        """The text pieces taken since the last call."""
        pieces, self._ready = self._ready, []
        return pieces

    def add(self, chunk: dict[str, Any]) -> str:
        if chunk.get("usage"):
            try:
                u = chunk["usage"]
                self.reported = Usage(
                    calls=1,
                    prompt_tokens=int(u.get("prompt_tokens") or 0),
                    completion_tokens=int(u.get("completion_tokens") or 0),
                )
            except (TypeError, ValueError, AttributeError) as exc:
                raise LLMResponseError(
                    f"stream usage block is malformed ({exc!r})", raw=str(chunk)
                ) from exc
        piece = chunk_text(chunk)
        if piece:
            self.chunks += 1
            self.text.append(piece)
        for choice in chunk.get("choices") or []:
            self.finish_reason = choice.get("finish_reason") or self.finish_reason
        return piece

    def check_finished(self) -> None:
        """A stream that ends without a finish reason was cut short: say so, never pass it off."""
        if not self.finish_reason:
            raise LLMResponseError(
                "the stream ended before the reply finished", raw="".join(self.text)
            )

    def usage(self) -> Usage:
        return self.reported or Usage(calls=1, completion_tokens=self.chunks)
