"""Against the real embedded engine (llama.cpp + SmolLM2-135M): reply, schema, usage, cache."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import jsonschema
import pytest

from serving import LLMClient

pytestmark = pytest.mark.slow

FRUIT_SCHEMA = {
    "title": "fruit",
    "type": "object",
    "properties": {"fruit": {"type": "string"}, "colour": {"type": "string"}},
    "required": ["fruit", "colour"],
    "additionalProperties": False,
}


def test_chat_reply_and_usage(embedded_llm: LLMClient) -> None:
    before = embedded_llm.usage
    result = embedded_llm.chat(
        [{"role": "user", "content": "Say hello in five words."}], max_tokens=16, use_cache=False
    )
    assert result.text.strip()
    assert not result.cached
    assert result.usage.calls == 1
    assert result.usage.prompt_tokens > 0 and result.usage.completion_tokens > 0
    assert result.finish_reason in {"stop", "length"}
    after = embedded_llm.usage
    assert after.calls == before.calls + 1
    assert after.completion_tokens == before.completion_tokens + result.usage.completion_tokens


def test_schema_constrained_reply_validates(embedded_llm: LLMClient) -> None:
    result = embedded_llm.chat(
        [{"role": "user", "content": "Name a fruit and its colour as JSON."}],
        schema=FRUIT_SCHEMA,
        max_tokens=40,
        use_cache=False,
    )
    jsonschema.validate(result.data, FRUIT_SCHEMA)
    assert set(result.data) == {"fruit", "colour"}


def test_repeated_request_is_served_from_cache(embedded_llm: LLMClient, tmp_path: Path) -> None:
    config = dataclasses.replace(embedded_llm.config, cache_dir=str(tmp_path / "cache"))
    messages = [{"role": "user", "content": "Name one colour of the sky."}]
    with LLMClient(config) as first:
        fresh = first.chat(messages, max_tokens=12)
        again = first.chat(messages, max_tokens=12)
        assert (fresh.cached, fresh.usage.calls) == (False, 1)
        assert (again.cached, again.usage.calls, again.usage.cached_calls) == (True, 0, 1)
        assert again.text == fresh.text
        assert first.stats.attempts == 1  # one HTTP request for two calls
    with LLMClient(config) as second:  # a new client (a new run) on the same cache directory
        replay = second.chat(messages, max_tokens=12)
        assert replay.cached and replay.text == fresh.text
        assert second.stats.attempts == 0 and second.usage.calls == 0
    with LLMClient(config) as bypass:
        bypassed = bypass.chat(messages, max_tokens=12, use_cache=False)
        assert not bypassed.cached and bypass.stats.attempts == 1


def test_streaming_yields_the_reply(embedded_llm: LLMClient) -> None:
    pieces = list(
        embedded_llm.stream([{"role": "user", "content": "Count to three."}], max_tokens=12)
    )
    assert len(pieces) > 1 and "".join(pieces).strip()


def test_a_stream_is_not_cut_short_by_a_concurrent_request(embedded_llm: LLMClient) -> None:
    from concurrent.futures import ThreadPoolExecutor

    ask = [{"role": "user", "content": "List three fruits."}]
    whole = embedded_llm.chat(ask, max_tokens=24, seed=1, use_cache=False)
    with ThreadPoolExecutor(2) as pool:
        streamed = pool.submit(lambda: "".join(embedded_llm.stream(ask, max_tokens=24, seed=1)))
        others = [
            pool.submit(
                embedded_llm.chat,
                [{"role": "user", "content": f"Say {i}."}],
                max_tokens=8,
                use_cache=False,
            )
            for i in range(2)
        ]
        assert all(o.result().text for o in others)
        assert streamed.result() == whole.text


def test_client_is_a_chat_model(embedded_llm: LLMClient) -> None:
    from serving import ChatModel

    assert isinstance(embedded_llm, ChatModel)
    assert embedded_llm.model == "SmolLM2-135M-Instruct.Q4_1"
