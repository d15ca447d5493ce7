"""Fault handling against a misbehaving local server: each fault is retried or typed, and bounded."""

from __future__ import annotations

import asyncio
import socket

import pytest

from serving import (
    LLMClient,
    LLMConnectionError,
    LLMHTTPError,
    LLMResponseError,
    LLMSchemaError,
    LLMTimeoutError,
    ServingConfig,
)
from serving.fake_server import FakeLLMServer, hang, malformed, reply, status

ASK = [{"role": "user", "content": "How do I reset my password?"}]
STEPS_SCHEMA = {
    "type": "object",
    "properties": {"steps": {"type": "array", "items": {"type": "string"}, "minItems": 1}},
    "required": ["steps"],
}


def test_a_plain_reply_counts_usage(fake_server: FakeLLMServer, make_client) -> None:
    client = make_client()
    result = client.chat(ASK, use_cache=False)
    assert result.text == "reply to: How do I reset my password?"
    assert result.usage.calls == 1
    assert result.usage.completion_tokens == len(result.text.split())
    assert client.usage.to_dict() == result.usage.to_dict()
    assert fake_server.request_count == 1


def test_sampling_parameters_and_seed_pass_through(fake_server: FakeLLMServer, make_client) -> None:
    make_client().chat(ASK, temperature=0.7, max_tokens=33, seed=42, stop=["\n\n"], use_cache=False)
    sent = fake_server.requests[-1]
    assert (sent["temperature"], sent["max_tokens"], sent["seed"], sent["stop"]) == (
        0.7,
        33,
        42,
        ["\n\n"],
    )
    assert sent["model"] == "fake-model"
    assert "response_format" not in sent


def test_500_is_retried_then_succeeds(fake_server: FakeLLMServer, make_client) -> None:
    fake_server.script(status(500), status(503))
    client = make_client()
    assert client.chat(ASK, use_cache=False).text.startswith("reply to:")
    assert fake_server.request_count == 3
    assert client.stats.retries == 2


def test_persistent_500_gives_http_error_after_all_attempts(
    fake_server: FakeLLMServer, make_client
) -> None:
    fake_server.always(status(500, "engine exploded"))
    with pytest.raises(LLMHTTPError) as info:
        make_client(retries=2).chat(ASK, use_cache=False)
    assert info.value.status == 500 and "engine exploded" in info.value.body
    assert fake_server.request_count == 3  # 1 + 2 retries


def test_429_honours_retry_after(fake_server: FakeLLMServer, make_client, monkeypatch) -> None:
    slept: list[float] = []
    monkeypatch.setattr("serving.client.time.sleep", slept.append)
    fake_server.script(status(429, retry_after=0.2), status(429, retry_after=7))
    client = make_client(max_retry_after_s=1.0)
    assert client.chat(ASK, use_cache=False).text
    assert slept == [0.2, 1.0]  # the second Retry-After is capped
    assert fake_server.request_count == 3


def test_other_4xx_is_not_retried(fake_server: FakeLLMServer, make_client) -> None:
    fake_server.always(status(400, "bad request"))
    with pytest.raises(LLMHTTPError) as info:
        make_client().chat(ASK, use_cache=False)
    assert info.value.status == 400
    assert fake_server.request_count == 1


def test_timeouts_are_retried_then_typed(fake_server: FakeLLMServer, make_client) -> None:
    fake_server.always(hang(10))
    client = make_client(timeout_s=0.2, retries=2)
    with pytest.raises(LLMTimeoutError):
        client.chat(ASK, use_cache=False)
    assert fake_server.request_count == 3
    assert client.stats.attempts == 3


def test_total_time_budget_stops_retries_early(fake_server: FakeLLMServer, make_client) -> None:
    fake_server.always(status(429, retry_after=5))
    client = make_client(retries=10, max_retry_after_s=5, max_total_s=1.0)
    with pytest.raises(LLMHTTPError) as info:
        client.chat(ASK, use_cache=False)
    assert info.value.status == 429
    assert fake_server.request_count == 1  # a 5 s wait does not fit in a 1 s budget


def test_malformed_json_is_a_response_error_with_raw(
    fake_server: FakeLLMServer, make_client
) -> None:
    fake_server.script(malformed('{"choices": [ truncated'))
    with pytest.raises(LLMResponseError) as info:
        make_client().chat(ASK, use_cache=False)
    assert info.value.raw == '{"choices": [ truncated'
    assert fake_server.request_count == 1


def test_a_body_without_content_is_a_response_error(
    fake_server: FakeLLMServer, make_client
) -> None:
    fake_server.script(malformed('{"choices": []}'))
    with pytest.raises(LLMResponseError):
        make_client().chat(ASK, use_cache=False)


def test_connection_refused_is_retried_then_typed(make_client) -> None:
    with socket.socket() as sock:  # a port nobody listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    client = make_client(base_url=f"http://127.0.0.1:{port}", retries=2)
    with pytest.raises(LLMConnectionError) as info:
        client.chat(ASK, use_cache=False)
    assert str(port) in info.value.url
    assert client.stats.attempts == 3


def test_schema_reply_is_parsed_and_sent_as_response_format(
    fake_server: FakeLLMServer, make_client
) -> None:
    fake_server.script(reply('{"steps": ["Open settings", "Click reset"]}'))
    result = make_client().chat(ASK, schema=STEPS_SCHEMA)
    assert result.data == {"steps": ["Open settings", "Click reset"]}
    sent = fake_server.requests[-1]["response_format"]
    assert sent["type"] == "json_schema"
    assert sent["json_schema"]["schema"] == STEPS_SCHEMA and sent["json_schema"]["strict"] is True


def test_llama_cpp_schema_dialect(fake_server: FakeLLMServer, make_client) -> None:
    """For another llama-cpp-python server reached by URL (the embedded engine speaks OpenAI's)."""
    fake_server.script(reply('{"steps": ["a"]}'))
    make_client(schema_format="llama_cpp").chat(ASK, schema=STEPS_SCHEMA)
    assert fake_server.requests[-1]["response_format"] == {
        "type": "json_object",
        "schema": STEPS_SCHEMA,
    }


def test_schema_violation_is_reasked_then_recovers(fake_server: FakeLLMServer, make_client) -> None:
    fake_server.script(reply('{"steps": []}'), reply('{"steps": ["Open settings"]}'))
    client = make_client()
    result = client.chat(ASK, schema=STEPS_SCHEMA, seed=5)
    assert result.data == {"steps": ["Open settings"]}
    assert result.usage.calls == 2 and client.stats.schema_reasks == 1
    reask = fake_server.requests[1]
    assert reask["seed"] == 6  # a fresh seed
    assert reask["messages"][-2] == {"role": "assistant", "content": '{"steps": []}'}
    assert "steps" in reask["messages"][-1]["content"]


def test_schema_violation_raises_with_raw_and_is_not_cached(
    fake_server: FakeLLMServer, make_client
) -> None:
    fake_server.always(reply('{"steps": "not a list"}'))
    client = make_client(schema_retries=2)
    with pytest.raises(LLMSchemaError) as info:
        client.chat(ASK, schema=STEPS_SCHEMA)
    assert info.value.raw == '{"steps": "not a list"}'
    assert any("steps" in e for e in info.value.errors)
    assert fake_server.request_count == 3  # asked, then re-asked twice
    assert client.cache is not None and len(client.cache) == 0
    # the next run asks the server again instead of replaying the invalid reply
    fake_server.always(reply('{"steps": ["ok"]}'))
    assert not make_client().chat(ASK, schema=STEPS_SCHEMA).cached
    assert fake_server.request_count == 4


def test_not_json_under_a_schema_is_a_schema_error(fake_server: FakeLLMServer, make_client) -> None:
    fake_server.always(reply("Sure! Here are the steps"))
    with pytest.raises(LLMSchemaError) as info:
        make_client(schema_retries=0).chat(ASK, schema=STEPS_SCHEMA)
    assert info.value.raw == "Sure! Here are the steps"
    assert fake_server.request_count == 1


def test_cache_key_covers_parameters_and_schema(fake_server: FakeLLMServer, make_client) -> None:
    client = make_client()
    client.chat(ASK, seed=1)
    assert client.chat(ASK, seed=1).cached
    assert not client.chat(ASK, seed=2).cached
    assert not client.chat(ASK, seed=1, max_tokens=7).cached
    fake_server.always(reply('{"steps": ["x"]}'))
    assert not client.chat(ASK, seed=1, schema=STEPS_SCHEMA).cached
    assert fake_server.request_count == 4


def test_errors_are_not_cached(fake_server: FakeLLMServer, make_client) -> None:
    fake_server.script(status(400))
    client = make_client()
    with pytest.raises(LLMHTTPError):
        client.chat(ASK)
    assert not client.chat(ASK).cached
    assert fake_server.request_count == 2


def test_streaming_sync_and_async(fake_server: FakeLLMServer, make_client) -> None:
    client = make_client()
    pieces = list(client.stream(ASK))
    assert "".join(pieces) == "reply to: How do I reset my password?"
    assert fake_server.requests[-1]["stream"] is True

    async def collect() -> str:
        text = "".join([p async for p in client.astream(ASK)])
        await client.aclose()
        return text

    assert asyncio.run(collect()) == "reply to: How do I reset my password?"
    assert client.usage.calls == 2


def test_streaming_retries_before_the_first_byte(fake_server: FakeLLMServer, make_client) -> None:
    fake_server.script(status(502))
    assert "".join(make_client().stream(ASK)).startswith("reply to:")
    assert fake_server.request_count == 2


def test_async_chat_retries_and_validates(fake_server: FakeLLMServer, make_client) -> None:
    fake_server.script(status(500), reply('{"steps": 3}'), reply('{"steps": ["a", "b"]}'))
    client = make_client()

    async def run() -> object:
        result = await client.achat(ASK, schema=STEPS_SCHEMA, use_cache=False)
        await client.aclose()
        return result.data

    assert asyncio.run(run()) == {"steps": ["a", "b"]}
    assert fake_server.request_count == 3


def test_async_timeout_is_typed(fake_server: FakeLLMServer, make_client) -> None:
    fake_server.always(hang(10))
    client = make_client(timeout_s=0.2, retries=1)

    async def run() -> None:
        try:
            await client.achat(ASK, use_cache=False)
        finally:
            await client.aclose()

    with pytest.raises(LLMTimeoutError):
        asyncio.run(run())
    assert fake_server.request_count == 2


def test_concurrency_is_bounded_across_threads(make_client) -> None:
    from concurrent.futures import ThreadPoolExecutor

    with FakeLLMServer(latency_s=0.05) as server:
        in_flight, peak = 0, 0
        import threading

        lock = threading.Lock()

        def count(body: dict) -> str:
            nonlocal in_flight, peak
            with lock:
                in_flight += 1
                peak = max(peak, in_flight)
            import time

            time.sleep(0.05)
            with lock:
                in_flight -= 1
            return "ok"

        server.always(count)
        client = make_client(base_url=server.base_url, concurrency=3)
        with ThreadPoolExecutor(8) as pool:
            texts = list(
                pool.map(
                    lambda i: client.chat([{"role": "user", "content": str(i)}]).text, range(12)
                )
            )
        assert texts == ["ok"] * 12
        assert server.request_count == 12
        assert 1 < peak <= 3
        assert client.usage.calls == 12


def test_client_needs_a_base_url() -> None:
    with pytest.raises(ValueError, match="base_url"):
        LLMClient(ServingConfig(engine="external"))


def test_a_stream_cut_short_is_an_error(fake_server: FakeLLMServer, make_client) -> None:
    cut = 'data: {"choices": [{"index": 0, "delta": {"content": "partial"}, "finish_reason": null}]}\n\ndata: [DONE]\n\n'
    fake_server.script(malformed(cut))
    with pytest.raises(LLMResponseError) as info:
        list(make_client().stream(ASK))
    assert info.value.raw == "partial"
