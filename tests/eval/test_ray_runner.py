"""``inscoqa bench --ray``: the answer phase on a local Ray instance (2 CPUs), against a local
OpenAI-compatible server and (slow) the embedded engine. One Ray instance serves the module."""

from __future__ import annotations

import json
import os
import socket
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from support.bench_doubles import reply_for

from inscoqa.cli import main
from inscoqa.dirlock import DirectoryLock
from serving.fake_server import FakeLLMServer

ray = pytest.importorskip("ray")

SYSTEMS = "extractive,inscoqa"


@pytest.fixture(scope="module")
def local_ray() -> Iterator[Any]:
    os.environ.setdefault("RAY_AUTH_MODE", "disabled")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        yield ray
    finally:
        ray.shutdown()


def fake_reply(body: dict[str, Any]) -> str:
    """Valid replies for every call of a run: schema-constrained ones, the judge's rating lines,
    and the InsCoQA protocol's two sections, each derived from the prompt."""
    prompt = "\n".join(str(m.get("content", "")) for m in body.get("messages", []))
    fmt = body.get("response_format") or {}
    schema = (fmt.get("json_schema") or {}).get("schema") or fmt.get("schema")
    if schema is not None or "Total rating" in prompt:
        reply = reply_for(prompt, schema)
        return reply if isinstance(reply, str) else json.dumps(reply)
    last = prompt.strip().splitlines()[-1][:80]
    return (f"Answer: {last}\nProcedural instructions:\n1. Open the settings.\n"
            f"2. {last}\n3. Save the change.")


@pytest.fixture
def server() -> Iterator[FakeLLMServer]:
    with FakeLLMServer(default=fake_reply) as s:
        yield s


def bench(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, dict[str, Any]]:
    """Exit status and JSON summary of ``inscoqa bench``; its stderr is printed again for the
    test to read."""
    code = main(["bench", "--json", "--no-plots", *argv])
    captured = capsys.readouterr()
    sys.stderr.write(captured.err)
    return code, (json.loads(captured.out) if captured.out.strip() else {})


def result_lines(summary: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    return {name: [json.loads(line) for line in
                   Path(meta["dir"], "results.jsonl").read_text().splitlines()]
            for name, meta in summary["meta"]["systems"].items()}


def test_ray_run_matches_the_thread_runner_and_resumes(
        local_ray: Any, clean_env: Path, server: FakeLLMServer,
        capsys: pytest.CaptureFixture[str]) -> None:
    common = ["--systems", SYSTEMS, "--limit", "3", "--base-url", server.base_url,
              "--model", "fake-model", "--concurrency", "2"]
    code, on_ray = bench([*common, "--ray", "--out", "ray-runs"], capsys)
    assert code == 0
    assert on_ray["meta"]["new_samples"]["answer"] == 6
    lines = result_lines(on_ray)
    for name, records in lines.items():
        # every (conversation, system) pair written exactly once, answered and judged
        assert len(records) == 3 and len({r["sample_id"] for r in records}) == 3, name
        assert all(r["status"] == "ok" and r["answer"] for r in records), name
    assert all(s["judged"] == 3 for s in on_ray["systems"].values())

    # the same run on the thread runner: the same run keys, the same scores
    code, threads = bench([*common, "--out", "thread-runs"], capsys)
    assert code == 0
    assert ({n: m["run_key"] for n, m in threads["meta"]["systems"].items()}
            == {n: m["run_key"] for n, m in on_ray["meta"]["systems"].items()})
    for name in SYSTEMS.split(","):
        assert on_ray["systems"][name]["js"] == threads["systems"][name]["js"]

    # a run cut short: the driver resumes it on Ray and does only what is missing
    inscoqa_results = Path(on_ray["meta"]["systems"]["inscoqa"]["dir"], "results.jsonl")
    kept = inscoqa_results.read_text().splitlines()[:1]
    inscoqa_results.write_text("\n".join(kept) + "\n")
    code, resumed = bench([*common, "--ray", "--out", "ray-runs"], capsys)
    assert code == 0
    assert resumed["meta"]["new_samples"]["answer"] == 2
    assert len(result_lines(resumed)["inscoqa"]) == 3
    assert resumed["systems"]["inscoqa"]["js"] == on_ray["systems"]["inscoqa"]["js"]

    # a finished run: nothing sent to Ray or the server
    before = server.request_count
    code, finished = bench([*common, "--ray", "--out", "ray-runs"], capsys)
    assert code == 0 and finished["meta"]["new_samples"]["answer"] == 0
    assert server.request_count == before


def test_ray_run_holds_the_run_lock(local_ray: Any, clean_env: Path, server: FakeLLMServer,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--systems", "extractive", "--limit", "1", "--base-url", server.base_url,
            "--model", "fake-model", "--out", "runs"]
    code, first = bench(argv, capsys)  # the thread runner: the same run key
    assert code == 0
    run_dir = Path(first["meta"]["systems"]["extractive"]["dir"])
    with DirectoryLock(run_dir):  # another process writing the same run
        code, _ = bench([*argv, "--ray", "--retry-failed"], capsys)
        assert code == 1
        assert "another process is writing" in capsys.readouterr().err


def test_ray_run_stops_when_the_endpoint_is_down(local_ray: Any, clean_env: Path,
                                                 capsys: pytest.CaptureFixture[str],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("INSCOQA_RETRIES", "0")
    # a port held and never listened on: connections are refused, and no process that Ray starts
    # meanwhile can take it (a server's port freed by stopping it could be taken)
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{held.getsockname()[1]}"
        code, summary = bench(["--systems", "inscoqa", "--limit", "2", "--base-url", url,
                               "--model", "fake-model", "--ray"], capsys)
    assert code == 1
    assert "run the same command again to retry" in capsys.readouterr().err
    records = result_lines(summary)["inscoqa"]
    assert records and all(r["transient"] for r in records)


@pytest.mark.slow
def test_ray_run_with_the_embedded_engine(local_ray: Any, embedded_llm: Any, clean_env: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    """One bundled conversation, answered by extractive and inscoqa and judged by the real
    embedded model, from Ray actors."""
    code, summary = bench(["--systems", SYSTEMS, "--limit", "1",
                           "--base-url", embedded_llm.base_url, "--model", embedded_llm.model,
                           "--param", "inscoqa.context_words=300",
                           "--param", "inscoqa.max_tokens=128", "--judge-max-tokens", "160",
                           "--concurrency", "2", "--ray"], capsys)
    assert code == 0
    records = result_lines(summary)
    assert set(records) == {"extractive", "inscoqa"}
    for name, lines in records.items():
        assert len(lines) == 1 and not lines[0]["transient"], name
    # the extractive answer was judged by the model; the inscoqa answerer called the model (the
    # tiny model may still miss the format: that is a recorded failure, not an infrastructure one)
    extractive = records["extractive"][0]
    assert extractive["answer"] and extractive["judge"]["raw"]
    assert extractive["cost"]["judge"]["calls"] + extractive["cost"]["judge"]["cached_calls"] >= 1
    inscoqa = records["inscoqa"][0]
    assert inscoqa["cost"]["answer"]["calls"] + inscoqa["cost"]["answer"]["cached_calls"] >= 1
    assert inscoqa["answer"] or inscoqa["status"] == "answer_failed"
