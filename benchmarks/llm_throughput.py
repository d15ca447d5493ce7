"""Throughput of the embedded engine through the client, and the client's overhead.

Prints completion tokens/s for 1 and 4 concurrent requests (ratio against 1), and the time per
request of ``LLMClient.chat`` against a raw ``httpx`` POST of the same body to the same server,
interleaved so both see the same machine state (target: < 5 % overhead). A second overhead
figure against the local fake server (no generation) isolates the client's own cost per call.

    python benchmarks/llm_throughput.py [--requests 12] [--max-tokens 48] [--pairs 15] [--threads N] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx

from serving import LLMClient, ServingConfig, connect
from serving.fake_server import FakeLLMServer
from serving.protocol import Sampling, build_payload

PROMPTS = [
    "Explain how to boil an egg.",
    "How do I change my desktop background?",
    "Describe how to make a cup of tea.",
    "How do I share a document with a colleague?",
]


def messages(i: int) -> list[dict[str, str]]:
    return [{"role": "user", "content": f"{PROMPTS[i % len(PROMPTS)]} (request {i})"}]


def throughput(client: LLMClient, n: int, concurrency: int, max_tokens: int) -> dict[str, float]:
    def one(i: int) -> int:
        result = client.chat(messages(i), max_tokens=max_tokens, seed=i, use_cache=False)
        return result.usage.completion_tokens

    started = time.perf_counter()
    with ThreadPoolExecutor(concurrency) as pool:
        tokens = sum(pool.map(one, range(n)))
    seconds = time.perf_counter() - started
    return {
        "concurrency": concurrency,
        "requests": n,
        "tokens": tokens,
        "seconds": seconds,
        "tokens_per_s": tokens / seconds,
    }


def overhead(client: LLMClient, pairs: int, max_tokens: int) -> dict[str, float]:
    """Interleaved client vs raw httpx requests with identical bodies (deterministic replies)."""
    ask = messages(0)
    body = build_payload(
        client.model,
        ask,
        Sampling(temperature=0.0, max_tokens=max_tokens, seed=0),
        schema_format=client.schema_format,
    )
    raw_times: list[float] = []
    client_times: list[float] = []
    with httpx.Client(timeout=300, trust_env=False) as raw:
        for _ in range(3):  # warm both paths
            raw.post(client.url, json=body).raise_for_status()
            client.chat(ask, temperature=0.0, max_tokens=max_tokens, seed=0, use_cache=False)

        def raw_call() -> None:
            response = raw.post(client.url, json=body)
            response.raise_for_status()
            response.json()["choices"][0]["message"]["content"]

        def client_call() -> None:
            client.chat(ask, temperature=0.0, max_tokens=max_tokens, seed=0, use_cache=False)

        for i in range(pairs):  # alternate which goes first so neither gains from order
            order = [(raw_call, raw_times), (client_call, client_times)]
            for call, times in order if i % 2 == 0 else order[::-1]:
                t = time.perf_counter()
                call()
                times.append(time.perf_counter() - t)
    raw_s, client_s = statistics.median(raw_times), statistics.median(client_times)
    return {
        "raw_ms": raw_s * 1e3,
        "client_ms": client_s * 1e3,
        "ratio": client_s / raw_s,
        "overhead_pct": (client_s / raw_s - 1) * 100,
    }


def _print_throughput(row: dict[str, float]) -> None:
    print(
        f"  concurrency {row['concurrency']}: {row['tokens']} tokens in {row['seconds']:.2f}s"
        f" = {row['tokens_per_s']:.1f} tokens/s",
        flush=True,
    )


def _print_overhead(o: dict[str, float], label: str) -> None:
    print(
        f"client vs raw httpx on the {label}: median {o['client_ms']:.2f} ms vs {o['raw_ms']:.2f} ms"
        f" = ratio {o['ratio']:.3f} ({o['overhead_pct']:+.1f}% overhead)",
        flush=True,
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--requests", type=int, default=12)
    parser.add_argument("--max-tokens", type=int, default=48)
    parser.add_argument("--pairs", type=int, default=15)
    parser.add_argument(
        "--threads", type=int, default=0, help="llama.cpp threads (0: the engine default)"
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    say = (lambda *a, **k: None) if args.json else print

    work = Path(tempfile.mkdtemp(prefix="llm-throughput-"))
    report: dict[str, Any] = {}
    config = ServingConfig(
        engine="embedded",
        cache=False,
        log_dir=str(work / "logs"),
        cache_dir=str(work / "cache"),
        concurrency=4,
        n_threads=args.threads,
    )
    with connect(config) as client:
        client.chat(messages(0), max_tokens=8, use_cache=False)  # warm-up
        say(f"embedded engine, {args.requests} requests x max_tokens={args.max_tokens}")
        rows = []
        for concurrency in (1, 4):
            rows.append(throughput(client, args.requests, concurrency, args.max_tokens))
            if not args.json:
                _print_throughput(rows[-1])
        report["throughput"] = rows
        report["concurrency_4_vs_1"] = rows[1]["tokens_per_s"] / rows[0]["tokens_per_s"]
        say(f"  ratio concurrency 4 / 1: {report['concurrency_4_vs_1']:.2f}x")
        report["overhead_embedded"] = overhead(client, args.pairs, args.max_tokens)
        if not args.json:
            _print_overhead(report["overhead_embedded"], "embedded engine")

    with FakeLLMServer() as server:
        fake = LLMClient(
            ServingConfig(
                engine="external",
                base_url=server.base_url,
                model="fake-model",
                cache=False,
                cache_dir=str(work / "cache"),
            )
        )
        report["overhead_fake_server"] = overhead(fake, args.pairs * 10, args.max_tokens)
        fake.close()
    if args.json:
        print(json.dumps(report, indent=2))
        return
    _print_overhead(report["overhead_fake_server"], "fake server (no generation)")
    verdict = "meets" if report["overhead_embedded"]["overhead_pct"] < 5 else "misses"
    print(f"target < 5% overhead on the engine: {verdict}")


if __name__ == "__main__":
    main()
