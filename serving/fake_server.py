"""A small local OpenAI-compatible server with scripted behaviour, for fault tests and benchmarks.

It answers ``GET /v1/models`` and ``POST /v1/chat/completions`` (whole or streamed) from many
threads at once. Each request takes the next scripted behaviour, or the default one when the
script is empty::

    with FakeLLMServer(latency_s=0.05) as server:
        server.script(status(500), status(429, retry_after=0.1), malformed("{oops"))
        client = LLMClient(ServingConfig(engine="external", base_url=server.base_url))
        ...
        assert server.request_count == 3

Run standalone: ``python -m serving.fake_server --latency 0.05 --port 8000``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

MODEL = "fake-model"
ReplyFn = Callable[[dict[str, Any]], str]


@dataclass(frozen=True)
class Behaviour:
    """How to answer one request. Build with :func:`reply`, :func:`status`, :func:`malformed`,
    :func:`hang`, :func:`crash`."""

    kind: str
    text: str | None = None
    code: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    seconds: float = 0.0
    fn: ReplyFn | None = None


def reply(text: str) -> Behaviour:
    """A valid chat completion whose content is ``text``."""
    return Behaviour("reply", text=text)


def reply_with(fn: ReplyFn) -> Behaviour:
    """A valid chat completion whose content ``fn`` makes from the request body."""
    return Behaviour("reply_fn", fn=fn)


def status(code: int, body: str = "", *, retry_after: float | None = None) -> Behaviour:
    """An HTTP error status (with ``Retry-After`` when given)."""
    headers = {} if retry_after is None else {"Retry-After": f"{retry_after:g}"}
    return Behaviour(
        "status",
        text=body or json.dumps({"error": {"message": f"scripted {code}"}}),
        code=code,
        headers=headers,
    )


def malformed(body: str = '{"choices": [') -> Behaviour:
    """A 200 reply whose body is not a chat completion."""
    return Behaviour("malformed", text=body)


def hang(seconds: float = 30.0) -> Behaviour:
    """Say nothing for ``seconds`` (or until the server stops), then drop the connection."""
    return Behaviour("hang", seconds=seconds)


def crash(signum: int = 11) -> Behaviour:
    """Kill the whole server process with signal ``signum`` (as an engine that crashes would)."""
    return Behaviour("crash", code=signum)


def echo_reply(body: dict[str, Any]) -> str:
    """The default reply: a short deterministic text derived from the last user message, or
    the smallest JSON value that fits the schema when the request asks for one."""
    schema = requested_schema(body)
    if schema is not None:
        return json.dumps(schema_instance(schema))
    users = [m.get("content", "") for m in body.get("messages", []) if m.get("role") == "user"]
    return f"reply to: {(users[-1] if users else '')[:80]}"


def requested_schema(body: dict[str, Any]) -> dict[str, Any] | None:
    """The JSON schema of a request, in OpenAI's or llama-cpp-python's form."""
    fmt = body.get("response_format") or {}
    if fmt.get("type") == "json_schema":
        return (fmt.get("json_schema") or {}).get("schema")
    return fmt.get("schema") if fmt.get("type") == "json_object" else None


def schema_instance(schema: dict[str, Any]) -> Any:
    """A small value that validates against ``schema`` (the subset replies use)."""
    if "enum" in schema:
        return schema["enum"][0]
    if "const" in schema:
        return schema["const"]
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "null")
    if kind == "object":
        props = schema.get("properties") or {}
        return {name: schema_instance(props.get(name) or {}) for name in schema.get("required", [])}
    if kind == "array":
        return [schema_instance(schema.get("items") or {})
                for _ in range(max(1, int(schema.get("minItems", 1))))]
    if kind in ("integer", "number"):
        return schema.get("minimum", 1)
    if kind == "boolean":
        return True
    if kind == "null":
        return None
    return "x" * max(1, int(schema.get("minLength", 2)))


def _count_tokens(text: str) -> int:
    return len(text.split())


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 128  # many clients connect at once in throughput runs


class FakeLLMServer:
    """A ThreadingHTTPServer in a background thread; use as a context manager."""

    def __init__(
        self,
        *,
        latency_s: float = 0.0,
        default: Behaviour | ReplyFn = echo_reply,
        host: str = "127.0.0.1",
        port: int = 0,
    ) -> None:
        self.latency_s = latency_s
        self.default = default
        self.requests: list[dict[str, Any]] = []
        self.request_headers: list[dict[str, str]] = []  # of each chat request, in order
        self._script: deque[Behaviour] = deque()
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._httpd = _Server((host, port), _handler_for(self))
        self._thread: threading.Thread | None = None

    # -------------------------------------------------------------- control
    @property
    def base_url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}"

    @property
    def request_count(self) -> int:
        with self._lock:
            return len(self.requests)

    def script(self, *behaviours: Behaviour) -> FakeLLMServer:
        """Queue behaviours for the next requests, in order."""
        with self._lock:
            self._script.extend(behaviours)
        return self

    def always(self, behaviour: Behaviour | ReplyFn) -> FakeLLMServer:
        """Answer every request without a scripted behaviour this way."""
        self.default = behaviour
        return self

    def reset(self) -> None:
        with self._lock:
            self.requests.clear()
            self.request_headers.clear()
            self._script.clear()

    def start(self) -> FakeLLMServer:
        self._thread = threading.Thread(
            target=self._httpd.serve_forever,
            kwargs={"poll_interval": 0.05},
            name="fake-llm",
            daemon=True,
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()
        self._httpd.shutdown()
        self._httpd.server_close()

    def __enter__(self) -> FakeLLMServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -------------------------------------------------------------- behaviour
    def _next(self, body: dict[str, Any]) -> Behaviour:
        with self._lock:
            self.requests.append(body)
            scripted = self._script.popleft() if self._script else None
        if scripted is not None:
            return reply(scripted.fn(body)) if scripted.fn is not None else scripted
        if isinstance(self.default, Behaviour):
            return self.default
        return reply(self.default(body))


def completion_body(text: str, body: dict[str, Any]) -> dict[str, Any]:
    prompt = " ".join(str(m.get("content", "")) for m in body.get("messages", []))
    return {
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": body.get("model") or MODEL,
        "choices": [
            {"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}
        ],
        "usage": {
            "prompt_tokens": _count_tokens(prompt),
            "completion_tokens": _count_tokens(text),
            "total_tokens": _count_tokens(prompt) + _count_tokens(text),
        },
    }


def stream_chunks(text: str, body: dict[str, Any]) -> list[dict[str, Any]]:
    words = text.split(" ")
    pieces = [w if i == 0 else " " + w for i, w in enumerate(words)]
    model = body.get("model") or MODEL

    def chunk(delta: dict[str, str], finish: str | None) -> dict[str, Any]:
        return {
            "id": "chatcmpl-fake",
            "object": "chat.completion.chunk",
            "model": model,
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
        }

    return [
        chunk({"role": "assistant"}, None),
        *(chunk({"content": p}, None) for p in pieces),
        chunk({}, "stop"),
    ]


def _handler_for(server: FakeLLMServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        disable_nagle_algorithm = True  # headers and body go out as separate writes

        def log_message(self, format: str, *args: Any) -> None:  # quiet
            pass

        def _send(
            self,
            code: int,
            payload: str,
            headers: dict[str, str] | None = None,
            content_type: str = "application/json",
        ) -> None:
            data = payload.encode("utf-8")
            self.send_response(code)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(data)))
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:
            if self.path.rstrip("/") == "/v1/models":
                self._send(
                    200, json.dumps({"object": "list", "data": [{"id": MODEL, "object": "model"}]})
                )
            elif self.path.rstrip("/") == "/health":  # as vLLM's: routers poll it
                self._send(200, "{}")
            else:
                self._send(404, json.dumps({"error": {"message": "not found"}}))

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length)
            if self.path.rstrip("/") != "/v1/chat/completions":
                self._send(404, json.dumps({"error": {"message": "not found"}}))
                return
            try:
                body = json.loads(raw)
            except json.JSONDecodeError:
                self._send(400, json.dumps({"error": {"message": "request is not JSON"}}))
                return
            with server._lock:
                server.request_headers.append(dict(self.headers.items()))
            behaviour = server._next(body)
            if server.latency_s:
                time.sleep(server.latency_s)
            if behaviour.kind == "crash":
                os.kill(os.getpid(), behaviour.code)
                return
            if behaviour.kind == "hang":
                server._stopping.wait(behaviour.seconds)
                self.close_connection = True
                return
            if behaviour.kind == "status":
                self._send(behaviour.code, behaviour.text or "", behaviour.headers)
            elif behaviour.kind == "malformed":
                self._send(200, behaviour.text or "")
            elif body.get("stream"):
                self._stream(behaviour.text or "", body)
            else:
                self._send(200, json.dumps(completion_body(behaviour.text or "", body)))

        def _stream(self, text: str, body: dict[str, Any]) -> None:
            events = "".join(f"data: {json.dumps(c)}\n\n" for c in stream_chunks(text, body))
            self._send(200, events + "data: [DONE]\n\n", content_type="text/event-stream")

    return Handler


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="A local OpenAI-compatible fake chat server.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--latency", type=float, default=0.0, help="seconds added to every reply")
    parser.add_argument("--crash-after", type=int, default=0, metavar="N",
                        help="kill the process after answering N chat requests (0: never)")
    parser.add_argument("--crash-signal", default="SIGSEGV",
                        help="the signal that kills it (default SIGSEGV)")
    args = parser.parse_args(argv)
    with FakeLLMServer(latency_s=args.latency, host=args.host, port=args.port) as server:
        if args.crash_after:
            signum = int(signal.Signals[args.crash_signal.upper()])
            server.script(*[reply_with(echo_reply)] * args.crash_after, crash(signum))
        print(f"fake chat server at {server.base_url} (Ctrl-C to stop)", flush=True)
        with contextlib.suppress(KeyboardInterrupt):
            threading.Event().wait()


if __name__ == "__main__":
    main()
