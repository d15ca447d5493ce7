"""llama-cpp-python's OpenAI-compatible server, speaking OpenAI's structured-output format.

``python -m serving.engines.llama_server <llama_cpp.server arguments>`` runs the same server as
``python -m llama_cpp.server`` with one addition: a request whose ``response_format`` is OpenAI's
``{"type": "json_schema", "json_schema": {"schema": ...}}`` (what vLLM and OpenAI accept) is
translated into llama-cpp-python's own ``{"type": "json_object", "schema": ...}`` before the
server reads it, so any OpenAI client gets schema-constrained replies from the embedded engine.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

TRANSLATED_PATHS = ("/v1/chat/completions", "/v1/completions")
HEALTH_PATH = "/health"


def llama_cpp_response_format(body: dict[str, Any]) -> dict[str, Any]:
    """``body`` with an OpenAI ``json_schema`` response format in llama-cpp-python's form."""
    fmt = body.get("response_format")
    if not isinstance(fmt, dict) or fmt.get("type") != "json_schema":
        return body
    spec = fmt.get("json_schema") or {}
    schema = spec.get("schema") if isinstance(spec, dict) else None
    translated: dict[str, Any] = {"type": "json_object"}
    if isinstance(schema, dict):
        translated["schema"] = schema
    return {**body, "response_format": translated}


class OpenAIResponseFormat:
    """ASGI middleware: rewrite the JSON body of chat and completion requests (see above)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope.get("type") == "http" and scope.get("path", "").rstrip("/") == HEALTH_PATH:
            # vLLM's liveness route, which routers (vllm-router) poll before sending work
            await send({"type": "http.response.start", "status": 200,
                        "headers": [(b"content-type", b"application/json")]})
            await send({"type": "http.response.body", "body": b"{}"})
            return
        if scope.get("type") != "http" or scope.get("method") != "POST" or \
                scope.get("path", "").rstrip("/") not in TRANSLATED_PATHS:
            await self.app(scope, receive, send)
            return
        chunks = []
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client went away
                await self.app(scope, _replay([message], receive), send)
                return
            chunks.append(message.get("body", b""))
            if not message.get("more_body"):
                break
        raw = b"".join(chunks)
        try:
            body = json.loads(raw)
        except ValueError:  # not JSON: the server itself answers with its own error
            body = None
        if isinstance(body, dict):
            raw = json.dumps(llama_cpp_response_format(body)).encode()
            scope = {**scope, "headers": [(k, v) for k, v in scope.get("headers", [])
                                          if k.lower() != b"content-length"]
                     + [(b"content-length", str(len(raw)).encode())]}
        replayed = {"type": "http.request", "body": raw, "more_body": False}
        await self.app(scope, _replay([replayed], receive), send)


def _replay(messages: list[Message], then: Receive) -> Receive:
    """Hand out ``messages`` first, then whatever the connection says (a later disconnect)."""
    pending = list(messages)

    async def receive() -> Message:
        if pending:
            return pending.pop(0)
        return await then()

    return receive


def main() -> None:
    import llama_cpp.server.__main__ as upstream

    create_app = upstream.create_app

    def create_translating_app(**kwargs: Any) -> Any:
        return OpenAIResponseFormat(create_app(**kwargs))

    upstream.create_app = create_translating_app  # type: ignore[assignment]
    upstream.main()


if __name__ == "__main__":
    main()
