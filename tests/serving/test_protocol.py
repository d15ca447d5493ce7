"""The pure parts: request bodies, cache keys, reply parsing, retry delays, and the SQLite cache."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from pathlib import Path

import pytest

from serving import LLMResponseError, ResponseCache
from serving.errors import LLMConnectionError
from serving.protocol import (
    DONE,
    Sampling,
    build_payload,
    cache_key,
    parse_completion,
    parse_sse_line,
    validate_reply,
)
from serving.retry import Failure, RetryPolicy, retry_after_seconds
from serving.types import ChatResult

ASK = [{"role": "user", "content": "hello"}]
GREEDY = Sampling(temperature=0.0, max_tokens=16, seed=0)


def test_cache_key_is_stable_and_covers_the_request() -> None:
    key = cache_key("embedded", "m", ASK, GREEDY, None)
    assert key == cache_key("embedded", "m", [dict(ASK[0])], GREEDY, None)
    others = {
        cache_key("vllm", "m", ASK, GREEDY, None),
        cache_key("embedded", "m2", ASK, GREEDY, None),
        cache_key("embedded", "m", [{"role": "user", "content": "hello!"}], GREEDY, None),
        cache_key("embedded", "m", ASK, Sampling(0.0, 16, 1), None),
        cache_key("embedded", "m", ASK, Sampling(0.0, 16, 0, ("\n",)), None),
        cache_key("embedded", "m", ASK, GREEDY, {"type": "object"}),
    }
    assert key not in others and len(others) == 6


def test_payload_leaves_out_unset_options() -> None:
    body = build_payload("m", ASK, Sampling(0.2, 8, None))
    assert body == {"model": "m", "messages": ASK, "temperature": 0.2, "max_tokens": 8}


def test_schema_name_is_sanitised() -> None:
    body = build_payload("m", ASK, GREEDY, schema={"title": "Judge verdict!", "type": "object"})
    assert body["response_format"]["json_schema"]["name"] == "Judge_verdict_"


def test_parse_completion_reads_text_usage_and_finish() -> None:
    raw = json.dumps(
        {
            "model": "m",
            "choices": [{"message": {"content": "hi"}, "finish_reason": "length"}],
            "usage": {"prompt_tokens": 3, "completion_tokens": 1},
        }
    )
    completion = parse_completion(raw)
    assert (completion.text, completion.finish_reason, completion.model) == ("hi", "length", "m")
    assert (
        completion.usage.calls,
        completion.usage.prompt_tokens,
        completion.usage.completion_tokens,
    ) == (1, 3, 1)


@pytest.mark.parametrize(
    "raw",
    [
        "",
        "[]",
        '{"choices": [{"message": {"content": null}}]}',
        '{"choices": [{"message": {"content": "x"}}], "usage": {"prompt_tokens": "many"}}',
    ],
)
def test_parse_completion_rejects_malformed_bodies(raw: str) -> None:
    with pytest.raises(LLMResponseError) as info:
        parse_completion(raw)
    assert info.value.raw == raw


def test_sse_lines() -> None:
    assert parse_sse_line("data: [DONE]") is DONE
    assert parse_sse_line(": ping") is None and parse_sse_line("") is None
    assert parse_sse_line('data: {"choices": []}') == {"choices": []}
    with pytest.raises(LLMResponseError):
        parse_sse_line("data: {broken")


def test_validate_reply_names_the_failing_field() -> None:
    schema = {"type": "object", "properties": {"score": {"type": "integer"}}, "required": ["score"]}
    assert validate_reply('{"score": 3}', schema).data == {"score": 3}
    bad = validate_reply('{"score": "3"}', schema)
    assert not bad.ok and bad.data is None and bad.errors[0].startswith("score:")
    assert validate_reply("score: 3", schema).errors[0].startswith("not valid JSON")


def test_retry_after_as_seconds_or_http_date() -> None:
    assert retry_after_seconds({"retry-after": "2.5"}) == 2.5
    assert retry_after_seconds({}) is None and retry_after_seconds({"retry-after": "soon"}) is None
    later = format_datetime(datetime.now(UTC) + timedelta(seconds=30), usegmt=True)
    assert 25 < (retry_after_seconds({"retry-after": later}) or 0) <= 30


def test_backoff_grows_exponentially_with_jitter_and_a_cap() -> None:
    policy = RetryPolicy(
        retries=10, backoff_s=1.0, max_backoff_s=8.0, max_retry_after_s=60, total_s=1000
    )
    rng = random.Random(0)
    for attempt, ceiling in [(1, 1.0), (2, 2.0), (3, 4.0), (4, 8.0), (9, 8.0)]:
        delays = [policy.backoff(attempt, rng) for _ in range(50)]
        assert all(ceiling / 2 <= d <= ceiling for d in delays)
        assert len(set(delays)) > 1  # jittered


def test_next_delay_gives_up_when_not_retryable_exhausted_or_out_of_time() -> None:
    policy = RetryPolicy(
        retries=2, backoff_s=0.1, max_backoff_s=1, max_retry_after_s=5, total_s=100
    )
    retryable = Failure(LLMConnectionError("x"), retryable=True)
    assert policy.next_delay(1, retryable, 100) is not None
    assert policy.next_delay(3, retryable, 100) is None  # attempts used up
    assert policy.next_delay(1, Failure(LLMConnectionError("x"), retryable=False), 100) is None
    assert policy.next_delay(1, Failure(LLMConnectionError("x"), True, retry_after=30), 100) == 5
    assert policy.next_delay(1, Failure(LLMConnectionError("x"), True, retry_after=3), 2) is None


def test_cache_is_shared_by_threads_and_processes(tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path)

    def put_get(i: int) -> str:
        cache.put(
            f"k{i}",
            ChatResult(text=f"t{i}", data={"i": i}, model="m"),
            prompt_tokens=1,
            completion_tokens=1,
        )
        hit = cache.get(f"k{i}")
        assert (
            hit is not None and hit.cached and hit.usage.calls == 0 and hit.usage.cached_calls == 1
        )
        return hit.text

    with ThreadPoolExecutor(8) as pool:
        assert list(pool.map(put_get, range(40))) == [f"t{i}" for i in range(40)]
    code = (
        "import sys; from serving import ResponseCache; from serving.types import ChatResult\n"
        "c = ResponseCache(sys.argv[1]); hit = c.get('k7')\n"
        "c.put('from-child', ChatResult(text='child', model='m'), prompt_tokens=0, completion_tokens=0)\n"
        "print(hit.text, hit.data['i'])\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True, check=True
    )
    assert out.stdout.split() == ["t7", "7"]
    child = cache.get("from-child")
    assert child is not None and child.text == "child"
    assert len(cache) == 41
