"""Runs that the infrastructure breaks: an engine process that dies mid-run, an endpoint that
refuses, two processes on one run. Each must stop, say why in one line, exit non-zero, and leave
a run that the same command completes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from support.engines import FakeEngineProcess

from inscoqa.cli import main
from inscoqa.dirlock import DirectoryLock, DirectoryLockedError
from serving.engines import ENGINES
from serving.engines.process import free_port


def bench(out: Path, *extra: str) -> list[str]:
    return ["bench", "--systems", "extractive", "--limit", "4", "--concurrency", "1",
            "--out", str(out), "--no-plots", "--no-progress", "--json", *extra]


def results(out: Path) -> list[dict]:
    (path,) = out.glob("extractive-*/results.jsonl")
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


@pytest.mark.parametrize("signal_name", ["SIGSEGV", "SIGKILL"])
def test_an_engine_that_dies_mid_run_stops_it_and_a_rerun_completes_the_rest(
        clean_env: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str], signal_name: str) -> None:
    out = clean_env / "runs"
    # the readiness probe and two judge calls succeed; the third judge call kills the engine
    monkeypatch.setitem(ENGINES, "embedded", FakeEngineProcess(3, signal_name))
    assert main(bench(out)) == 1
    err = capsys.readouterr().err.strip().splitlines()
    number = {"SIGSEGV": 11, "SIGKILL": 9}[signal_name]
    assert len(err) == 1, err
    assert f"the embedded engine died (signal {number} ({signal_name}))" in err[0]
    assert "log: " in err[0] and str(clean_env / "logs") in err[0]
    first = results(out)
    assert [r["status"] for r in first[:2]] == ["ok", "ok"]
    failed = [r for r in first if r["status"] != "ok"]
    assert failed and all(r["transient"] and r["error"].startswith("EngineDiedError")
                          for r in failed)
    # the sample in flight when the engine died is left; a sample already taken by a worker
    # may have run on the engine started again in its place, or been left too
    left = 4 - sum(r["status"] == "ok" for r in first)
    assert 1 <= left <= 2
    assert err[0].endswith(f"run the same command again to retry {left} sample(s)")

    monkeypatch.setitem(ENGINES, "embedded", FakeEngineProcess())
    assert main(bench(out)) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["meta"]["new_samples"]["answer"] == left  # only what was left
    final = {}
    for record in results(out):
        final[record["sample_id"]] = record
    assert len(final) == 4 and all(r["status"] == "ok" for r in final.values())
    done_twice = [r["sample_id"] for r in results(out) if r["status"] == "ok"]
    assert len(done_twice) == len(set(done_twice)) == 4  # no sample answered twice

    assert main(bench(out)) == 0  # a finished run starts no engine and does nothing
    assert json.loads(capsys.readouterr().out)["meta"]["new_samples"]["answer"] == 0


def test_an_unreachable_endpoint_is_one_line_and_a_failure(
        clean_env: Path, capsys: pytest.CaptureFixture[str]) -> None:
    url = f"http://127.0.0.1:{free_port()}/v1"  # written the OpenAI way, with /v1
    code = main(bench(clean_env / "runs", "--base-url", url, "--model", "m"))
    assert code == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "run the same command again" in err[0]
    assert "/v1/v1" not in err[0] and "127.0.0.1" in err[0]


def test_an_engine_that_cannot_start_is_one_line_without_traceback(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("INSCOQA_")}
    env.update(INSCOQA_MODEL=str(tmp_path / "missing.gguf"), INSCOQA_CACHE_DIR=str(tmp_path),
               INSCOQA_LOG_DIR=str(tmp_path / "logs"))
    proc = subprocess.run(
        [sys.executable, "-m", "inscoqa", "bench", "--limit", "1", "--systems", "extractive",
         "--out", str(tmp_path / "runs"), "--no-progress", "--no-plots"],
        capture_output=True, text=True, env=env, cwd=tmp_path, timeout=300)
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "missing.gguf" in lines[0], proc.stderr


def test_a_second_writer_of_a_run_is_refused(tmp_path: Path) -> None:
    with DirectoryLock(tmp_path):
        code = ("import sys; from inscoqa.dirlock import DirectoryLock, DirectoryLockedError\n"
                f"try:\n    DirectoryLock({str(tmp_path)!r}).acquire()\n"
                "except DirectoryLockedError as exc:\n    print(exc); sys.exit(3)\n")
        proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
        assert proc.returncode == 3
        assert f"pid {os.getpid()}" in proc.stdout and "another process" in proc.stdout
        with pytest.raises(DirectoryLockedError):  # the same process cannot take it twice either
            DirectoryLock(tmp_path).acquire()
    DirectoryLock(tmp_path).acquire().release()  # released when the holder lets go


def test_two_bench_processes_on_one_run_never_write_a_sample_twice(clean_env: Path) -> None:
    import threading
    import time

    from serving.fake_server import FakeLLMServer, echo_reply

    gate = threading.Event()

    def held_reply(body: dict) -> str:  # the first process waits inside its first judge call
        gate.wait(120)
        return echo_reply(body)

    out = clean_env / "runs"
    with FakeLLMServer(default=held_reply) as server:
        argv = [sys.executable, "-m", "inscoqa", *bench(out, "--base-url", server.base_url,
                                                         "--model", "fake-model")]
        first = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 120
        while server.request_count == 0 and time.monotonic() < deadline:  # it holds the run
            time.sleep(0.05)
        second = subprocess.run(argv, capture_output=True, text=True, timeout=120)
        gate.set()
        first_out, first_err = first.communicate(timeout=120)
    assert first.returncode == 0, first_err
    assert second.returncode == 1 and "another process is writing" in second.stderr
    assert f"pid {first.pid}" in second.stderr
    ids = [r["sample_id"] for r in results(out)]
    assert len(ids) == len(set(ids)) == 4
