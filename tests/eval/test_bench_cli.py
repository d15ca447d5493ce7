"""``inscoqa bench`` end to end: against a local OpenAI-compatible server, and (slow) with the
embedded engine and the built-in answerers on bundled conversations."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from support.bench_doubles import ANSWERER, make_echo, server_reply

from inscoqa.cli import main
from procmem.answerers.base import register
from serving.fake_server import FakeLLMServer


@pytest.fixture
def server() -> Iterator[FakeLLMServer]:
    with FakeLLMServer(default=server_reply) as s:
        yield s


def run_cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


def test_bench_runs_resumes_and_reports(clean_env: Path, server: FakeLLMServer,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["bench", "--systems", f"{ANSWERER},{ANSWERER}-b", "--limit", "3",
            "--base-url", server.base_url, "--model", "fake-model", "--pairwise",
            "--param", f"{ANSWERER}-b.variant=b", "--out", str(clean_env / "runs"), "--json"]
    register(f"{ANSWERER}-b")(make_echo)
    first = run_cli(argv, capsys)
    assert set(first["systems"]) == {ANSWERER, f"{ANSWERER}-b"}
    for summary in first["systems"].values():
        assert summary["n"] == 3 and summary["judged"] == 3
        assert summary["js"] is not None and summary["cost"]["answer"]["calls"] == 3
    assert first["meta"]["new_samples"]["answer"] == 6
    assert first["pairwise"][0]["n"] == 3
    requests = server.request_count
    assert requests >= 6 + 3 * 10  # distinct answers + 10 pairwise calls per sample
    assert Path(first["report"]["markdown"]).exists()
    for name, meta in first["meta"]["systems"].items():
        assert Path(meta["dir"], "results.jsonl").exists(), name

    second = run_cli(argv, capsys)  # a finished run: no model call, the same report
    assert server.request_count == requests
    assert second["meta"]["new_samples"] == {"answer": 0, "extra": 0}
    assert second["systems"] == first["systems"]

    # the judge is configured on its own (inheriting what it does not set, here the server):
    # another judge model is another run
    third = run_cli([*argv, "--judge-model", "judge-model"], capsys)
    assert third["meta"]["judge"]["model"] == "judge-model"
    assert all(s["judged"] == 3 for s in third["systems"].values())
    assert any(r.get("model") == "judge-model" for r in server.requests)
    keys = {m["run_key"] for m in first["meta"]["systems"].values()}
    assert keys.isdisjoint(m["run_key"] for m in third["meta"]["systems"].values())
    assert third["meta"]["new_samples"]["answer"] == 6


def test_bench_prints_the_table_and_the_report_path(clean_env: Path, server: FakeLLMServer,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--systems", ANSWERER, "--limit", "2", "--base-url", server.base_url,
                 "--model", "fake-model", "--out", "runs", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "| system | JS | TCR | W-ROUGE-L | C-ROUGE-L |" in out
    assert f"| {ANSWERER} |" in out
    report = Path(out.strip().splitlines()[-1].removeprefix("report: "))
    assert report.name == "report.md" and report.exists()
    assert (report.parent / "plots" / "domains.png").exists()


def test_bench_rejects_bad_options(clean_env: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--systems", "no-such-system", "--limit", "1"]) == 2
    assert "no-such-system" in capsys.readouterr().err
    assert main(["bench", "--systems", ANSWERER, "--split", "test"]) == 2
    assert "--split" in capsys.readouterr().err


@pytest.mark.slow
def test_bench_with_the_embedded_engine(embedded_llm: Any, tmp_path: Path) -> None:
    """Two bundled conversations, systems extractive and inscoqa, judged by the embedded model."""
    from eval.bench import BenchRunner
    from eval.bench.session import select
    from eval.report import write_report
    from inscoqa.bundled import corpus_index, load_sample
    from procmem.answerers import make_answerer

    convs = select(load_sample(), 2)
    # short documents and replies keep the run to a few minutes on 2 cores
    answerers = {"extractive": make_answerer("extractive"),
                 "inscoqa": make_answerer("inscoqa", llm=embedded_llm, context_words=300,
                                          max_tokens=128)}
    judge = {"max_tokens": 160}
    outcome = BenchRunner(conversations=convs, data_id="sample-e2e", answerers=answerers,
                          judge_llm=embedded_llm, judge_options=judge,
                          documents=corpus_index().resolve, out_dir=tmp_path / "runs",
                          concurrency=2, progress=False).run()
    summary, files = write_report(outcome, tmp_path / "report")
    for name in answerers:
        records = outcome.results[name]
        assert [r["sample_id"] for r in records] == [c.id for c in convs]
        for r in records:
            assert r["status"] in ("ok", "judge_failed", "answer_failed")
            if r["status"] == "ok":
                assert 1 <= r["judge"]["score"] <= 10 and 0 <= r["judge"]["tcr"] <= 100
            elif r["status"] == "judge_failed":
                assert r["judge"]["score"] is None and r["judge"]["raw"] is not None
        assert summary["systems"][name]["n"] == 2
        assert name in files.markdown.read_text(encoding="utf-8")
    assert summary["systems"]["inscoqa"]["cost"]["answer"]["calls"] + \
        summary["systems"]["inscoqa"]["cost"]["answer"]["cached_calls"] >= 2
    calls = embedded_llm.usage.calls
    again = BenchRunner(conversations=convs, data_id="sample-e2e", answerers=answerers,
                        judge_llm=embedded_llm, judge_options=judge,
                        documents=corpus_index().resolve, out_dir=tmp_path / "runs",
                        progress=False).run()
    assert again.new_samples == 0 and embedded_llm.usage.calls == calls
