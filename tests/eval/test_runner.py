"""The benchmark runner: scoring, resumption after SIGKILL, no work on re-runs, failures,
run keys, pairwise aggregation, the open setting and judge agreement."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from support.bench_doubles import (
    ANSWERER,
    EchoAnswerer,
    answer_calls,
    scripted_model,
)

from eval.bench import BenchRunner, ResultStore
from eval.bench.session import select
from inscoqa.bundled import corpus_index, load_sample
from inscoqa.records import Conversation
from serving.scripted import unreachable_llm

SUPPORT = Path(__file__).resolve().parents[1] / "support" / "bench_doubles.py"


@pytest.fixture(scope="module")
def conversations() -> list[Conversation]:
    return load_sample()[:5]


def make_runner(convs: list[Conversation], out: Path, llm: Any, **kw: Any) -> BenchRunner:
    answerers = kw.pop("answerers", None) or {ANSWERER: EchoAnswerer(llm)}
    kw.setdefault("documents", corpus_index().resolve)
    return BenchRunner(conversations=convs, data_id="test-data", answerers=answerers,
                       judge_llm=kw.pop("judge_llm", llm), out_dir=out, concurrency=3,
                       progress=False, **kw)


def lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]


# -- the store -------------------------------------------------------------------------------


def test_store_drops_a_truncated_last_line_and_keeps_one_record_per_sample(tmp_path: Path) -> None:
    path = tmp_path / "results.jsonl"
    store = ResultStore(path)
    store.append({"sample_id": "a", "v": 1})
    store.append({"sample_id": "b", "v": 1})
    with open(path, "ab") as fh:  # a write cut short by a crash
        fh.write(b'{"sample_id": "c", "v"')
    loaded = ResultStore(path).load()
    assert sorted(loaded) == ["a", "b"]

    again = ResultStore(path)
    again.append({"sample_id": "c", "v": 2})
    again.append({"sample_id": "a", "v": 3})  # a retried sample supersedes the earlier line
    records = ResultStore(path).load()
    assert {k: r["v"] for k, r in records.items()} == {"a": 3, "b": 1, "c": 2}
    assert all(line.startswith("{") for line in path.read_text().splitlines())


# -- a run -----------------------------------------------------------------------------------


def test_run_scores_every_sample(tmp_path: Path, conversations: list[Conversation]) -> None:
    llm = scripted_model()
    outcome = make_runner(conversations, tmp_path, llm).run()
    records = outcome.results[ANSWERER]
    assert [r["sample_id"] for r in records] == [c.id for c in conversations]
    for record, conv in zip(records, conversations, strict=True):
        assert record["status"] == "ok", record["error"]
        assert 1 <= record["judge"]["score"] <= 10
        assert 0 <= record["judge"]["tcr"] <= 100
        assert record["judge"]["raw"]
        assert 0 <= record["rouge"]["word"] <= 1 and 0 <= record["rouge"]["char"] <= 1
        assert record["retrieval"] is None  # given documents: no retrieval to score
        assert record["cost"]["answer"]["calls"] == 1
        assert record["cost"]["judge"]["calls"] >= 1
        assert record["domain"] == conv.domain
    run = outcome.runs[ANSWERER]
    assert (run.dir / "results.jsonl").exists() and (run.dir / "run.json").exists()
    assert run.dir.parent == tmp_path and run.key.startswith(ANSWERER + "-")
    assert outcome.work == {"answer": len(conversations), "extra": 0}


def test_finished_run_does_no_llm_work(tmp_path: Path, conversations: list[Conversation]) -> None:
    llm = scripted_model()
    make_runner(conversations, tmp_path, llm, pairwise_llm=llm).run()
    calls = len(llm.calls)
    assert calls > 0
    again = make_runner(conversations, tmp_path, llm, pairwise_llm=llm).run()
    assert len(llm.calls) == calls
    assert again.new_samples == 0
    assert len(again.results[ANSWERER]) == len(conversations)


def test_killed_run_resumes_with_exactly_one_result_per_sample(tmp_path: Path) -> None:
    n, kill_after = 8, 3
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(SUPPORT.parents[2]), os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.Popen([sys.executable, str(SUPPORT), str(tmp_path), str(n), "0.3"],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 120
        results: list[Path] = []
        while time.monotonic() < deadline:
            results = list(tmp_path.glob("*/results.jsonl"))
            if results and len(results[0].read_bytes().splitlines()) >= kill_after:
                break
            assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else ""
            time.sleep(0.02)
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    saved = len(ResultStore(results[0]).load())
    assert kill_after <= saved < n

    convs = load_sample()[:n]
    llm = scripted_model()
    outcome = BenchRunner(  # the same run as the killed script's (same key), resumed
        conversations=convs, data_id="sample-test", judge_llm=llm, out_dir=tmp_path,
        answerers={ANSWERER: EchoAnswerer(llm)}, documents=corpus_index().resolve,
        concurrency=3, progress=False).run()
    assert answer_calls(llm) == n - saved  # only the unfinished samples were redone
    ids = [r["sample_id"] for r in lines(results[0])]
    assert sorted(ids) == sorted(c.id for c in convs)  # each exactly once in the file
    assert [r["sample_id"] for r in outcome.results[ANSWERER]] == [c.id for c in convs]


def test_failures_are_counted_and_kept(tmp_path: Path, conversations: list[Conversation]) -> None:
    from eval.report import summarize

    llm = scripted_model()
    broken, badly_judged = conversations[0], conversations[1]
    answerer = EchoAnswerer(llm, fail_on=(broken.question,), bad_judge_on=(badly_judged.question,))
    outcome = make_runner(conversations, tmp_path, llm, answerers={ANSWERER: answerer}).run()
    by_id = {r["sample_id"]: r for r in outcome.results[ANSWERER]}
    assert by_id[broken.id]["status"] == "answer_failed"
    assert "told to fail" in by_id[broken.id]["error"]
    assert by_id[broken.id]["judge"] is None and not by_id[broken.id]["transient"]
    judged = by_id[badly_judged.id]
    assert judged["status"] == "judge_failed"
    assert judged["judge"]["score"] is None and judged["judge"]["tcr"] is None
    assert judged["answer"] is not None and judged["rouge"] is not None
    summary = summarize(outcome)["systems"][ANSWERER]
    n = len(conversations)
    assert summary["n"] == n and summary["judged"] == n - 2
    assert summary["failures"]["answer_failed"] == 1 and summary["failures"]["judge_failed"] == 1
    assert summary["coverage"] == pytest.approx((n - 2) / n)
    # final failures are not redone on a plain re-run
    calls = len(llm.calls)
    make_runner(conversations, tmp_path, llm, answerers={ANSWERER: answerer}).run()
    assert len(llm.calls) == calls


def test_infrastructure_failures_are_retried_on_resume(tmp_path: Path,
                                                       conversations: list[Conversation]) -> None:
    down = unreachable_llm()
    outcome = make_runner(conversations, tmp_path, down, answerers={
        ANSWERER: EchoAnswerer(down)}).run()
    failed = outcome.results[ANSWERER]
    # the run stops at the first unreachable engine: samples still queued are left unwritten
    assert failed and all(r["transient"] for r in failed)
    assert outcome.stopped is not None
    up = scripted_model(model=down.model)
    again = make_runner(conversations, tmp_path, up, answerers={ANSWERER: EchoAnswerer(up)}).run()
    assert again.work["answer"] == len(conversations)
    assert all(r["status"] == "ok" for r in again.results[ANSWERER])
    written = lines(again.runs[ANSWERER].dir / "results.jsonl")
    assert len(written) == len(failed) + len(conversations)  # failures kept, retries appended


def test_run_key_names_answerer_judge_and_data(tmp_path: Path,
                                               conversations: list[Conversation]) -> None:
    llm, judge, other_judge = scripted_model(), scripted_model("judge-a"), scripted_model("judge-b")

    def key(answerer: EchoAnswerer, judge_llm: Any, data: list[Conversation],
            **kw: Any) -> str:
        runner = make_runner(data, tmp_path, llm, answerers={ANSWERER: answerer},
                             judge_llm=judge_llm, **kw)
        return runner.plan()[ANSWERER].key

    base = key(EchoAnswerer(llm), judge, conversations)
    assert base == key(EchoAnswerer(llm), judge, conversations)
    assert base != key(EchoAnswerer(llm, variant="b"), judge, conversations)
    assert base != key(EchoAnswerer(llm), other_judge, conversations)
    assert base != key(EchoAnswerer(llm), judge, conversations, documents=None)
    changed = BenchRunner(conversations=conversations, data_id="other-data", judge_llm=judge,
                          answerers={ANSWERER: EchoAnswerer(llm)}, out_dir=tmp_path)
    assert base != changed.plan()[ANSWERER].key


def test_limit_takes_domains_in_turn() -> None:
    convs = load_sample()
    chosen = select(convs, 6)
    assert len(chosen) == 6 and len({c.id for c in chosen}) == 6
    domains = {c.domain for c in convs}
    assert len({c.domain for c in chosen}) == min(6, len(domains))
    order = [c.id for c in convs]
    assert [c.id for c in chosen] == sorted((c.id for c in chosen), key=order.index)
    assert select(convs, None) == convs


# -- pairwise --------------------------------------------------------------------------------


class VotingJudge:
    """A pairwise judge whose majority result per task is scripted."""

    def __init__(self, results: dict[str, str]) -> None:
        self.results = results
        self.calls = 0

    def compare(self, task_input: str, task_output: str, steps_a: list[str],
                steps_b: list[str]) -> Any:
        from types import SimpleNamespace

        self.calls += 1
        result = self.results[task_output]
        votes = {"win": ["A"] * 6 + ["B"] * 4, "loss": ["A"] * 3 + ["B"] * 7,
                 "tie": ["A"] * 5 + ["B"] * 5}[result]
        return SimpleNamespace(votes=votes, result=result, calls=[])

    def config(self) -> dict[str, Any]:
        return {"judge": "voting"}


def test_pairwise_votes_are_tallied_per_system_pair(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                    conversations: list[Conversation]) -> None:
    from eval.bench import compare
    from eval.report import summarize

    plan = ["win", "win", "loss", "tie", "win"]
    judge = VotingJudge({c.question: r for c, r in zip(conversations, plan, strict=True)})
    monkeypatch.setattr(compare, "make_pairwise_judge", lambda llm: judge)
    llm = scripted_model()
    failing = conversations[4].question
    answerers = {"one": EchoAnswerer(llm), "two": EchoAnswerer(llm, variant="b"),
                 "three": EchoAnswerer(llm, variant="c", fail_on=(failing,))}
    outcome = make_runner(conversations, tmp_path, llm, answerers=answerers,
                          pairwise_llm=llm).run()
    rows = {(r["a"], r["b"]): r for r in summarize(outcome)["pairwise"]}
    assert list(rows) == [("one", "two"), ("one", "three"), ("two", "three")]
    assert {k: rows["one", "two"][k] for k in ("win", "loss", "tie", "skipped", "n")} == {
        "win": 3, "loss": 1, "tie": 1, "skipped": 0, "n": 5}
    # "three" has no answer for the last sample: skipped, not compared
    assert {k: rows["one", "three"][k] for k in ("win", "loss", "tie", "skipped")} == {
        "win": 2, "loss": 1, "tie": 1, "skipped": 1}
    assert judge.calls == 5 + 4 + 4
    stored = outcome.pairwise["one", "two"]
    assert [r["result"] for r in stored] == plan and len(stored[0]["votes"]) == 10
    # resumable: nothing is compared again
    again = make_runner(conversations, tmp_path, llm, answerers=answerers, pairwise_llm=llm).run()
    assert judge.calls == 13 and again.new_samples == 0


def test_pairwise_with_the_pairwise_judge_makes_ten_calls_per_sample(
        tmp_path: Path, conversations: list[Conversation]) -> None:
    llm = scripted_model()
    answerers = {"one": EchoAnswerer(llm), "two": EchoAnswerer(llm, variant="b")}
    outcome = make_runner(conversations[:2], tmp_path, llm, answerers=answerers).run()
    before = len(llm.calls)
    outcome = make_runner(conversations[:2], tmp_path, llm, answerers=answerers,
                          pairwise_llm=llm).run()
    assert len(llm.calls) - before == 10 * 2
    records = outcome.pairwise["one", "two"]
    assert len(records) == 2
    assert all(r["status"] in ("ok", "failed") for r in records)
    # the reference steps are never shown to the pairwise judge
    new_calls = llm.calls[before:]
    for conv in conversations[:2]:
        assert not any(step in call.prompt for call in new_calls for step in conv.procedures)


# -- open setting and judge agreement ----------------------------------------------------------


class MemoryEcho(EchoAnswerer):
    """Cites the conversation's first reference document and an unrelated one (open setting)."""

    def __init__(self, llm: Any, gold: dict[str, str]) -> None:
        super().__init__(llm, variant="memory")
        self.gold = gold

    def answer(self, request: Any) -> Any:
        from procmem.answerers.base import Source

        answer = super().answer(request)
        answer.sources = [Source(doc_id="unrelated/doc.md", title="x"),
                          Source(doc_id=self.gold[request.question], title="y")]
        return answer


def test_memory_setting_scores_retrieval_of_reference_documents(
        tmp_path: Path, conversations: list[Conversation]) -> None:
    llm = scripted_model()
    gold = {c.question: c.documents[0].doc_id for c in conversations}
    outcome = make_runner(conversations, tmp_path, llm, documents=None, memory_id="mem-1",
                          answerers={ANSWERER: MemoryEcho(llm, gold)}).run()
    assert outcome.setting == "memory"
    for record, conv in zip(outcome.results[ANSWERER], conversations, strict=True):
        retrieval = record["retrieval"]
        assert retrieval["recall@1"] == 0.0
        assert retrieval["recall@3"] == pytest.approx(1 / len(conv.documents))
        assert retrieval["mrr"] == pytest.approx(0.5)


def test_second_judge_scores_the_same_predictions(tmp_path: Path,
                                                  conversations: list[Conversation]) -> None:
    from eval.report import summarize

    llm, second = scripted_model(), scripted_model("second-judge")
    answerers = {"one": EchoAnswerer(llm), "two": EchoAnswerer(llm, variant="b"),
                 "three": EchoAnswerer(llm, variant="c")}
    outcome = make_runner(conversations, tmp_path, llm, answerers=answerers,
                          second_judge_llm=second).run()
    assert answer_calls(second) == 0  # only judging: the predictions are reused
    assert len(second.calls) >= 3 * len(conversations)
    for name in answerers:
        assert [r["sample_id"] for r in outcome.second_judge[name]] == [
            c.id for c in conversations]
    agreement = summarize(outcome)["agreement"]
    assert agreement["n_samples"] == 3 * len(conversations)
    assert set(agreement["system_rank"]) >= {"kendall", "spearman"}
    assert agreement["per_sample"] is not None
    # agreement on TCR too, from the same pairs of verdicts
    tcr = agreement["tcr"]
    assert tcr["n_samples"] == agreement["n_samples"] and tcr["per_sample"]["tolerance"] == 10.0
    first = [float(r["judge"]["tcr"]) for name in answerers for r in outcome.results[name]
             if r["status"] == "ok"]
    assert tcr["per_sample"]["mean_a"] == pytest.approx(sum(first) / len(first))


def test_howto_metrics_are_stored_beside_the_results(tmp_path: Path,
                                                     conversations: list[Conversation]) -> None:
    from eval.report import summarize

    llm = scripted_model()
    broken = conversations[0]
    answerer = EchoAnswerer(llm, fail_on=(broken.question,))
    outcome = make_runner(conversations, tmp_path, llm, answerers={ANSWERER: answerer},
                          howto_llm=llm).run()
    records = outcome.howto[ANSWERER]
    assert [r["sample_id"] for r in records] == [c.id for c in conversations[1:]]
    for r in records:
        assert r["status"] == "ok", r["error"]
        assert all(0 <= r["howto"][k] <= 1 for k in ("precision", "recall", "f1", "success"))
    assert list(outcome.runs[ANSWERER].dir.glob("howto-*.jsonl"))
    summary = summarize(outcome)["howto"][ANSWERER]
    assert summary["n"] == len(conversations) - 1 and summary["failed"] == 0
    calls = len(llm.calls)
    make_runner(conversations, tmp_path, llm, answerers={ANSWERER: answerer}, howto_llm=llm).run()
    assert len(llm.calls) == calls
