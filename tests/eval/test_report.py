"""Benchmark reports: Markdown, JSON and PNG files built from a run's records."""

from __future__ import annotations

import json
import statistics
from pathlib import Path

import pytest
from support.bench_doubles import EchoAnswerer, scripted_model

from eval.bench import BenchRunner
from eval.report import render_markdown, summarize, write_report
from inscoqa.bundled import corpus_index, load_sample

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def outcome(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    convs = load_sample()
    convs = convs[:4] + convs[-4:]  # two corpora, several domains
    llm = scripted_model()
    answerers = {"alpha": EchoAnswerer(llm),
                 "beta": EchoAnswerer(llm, variant="b", fail_on=(convs[0].question,))}
    return BenchRunner(conversations=convs, data_id="report-test", answerers=answerers,
                       judge_llm=llm, pairwise_llm=llm, documents=corpus_index().resolve,
                       out_dir=tmp_path_factory.mktemp("runs"), progress=False).run()


def test_report_files_name_every_system(outcome, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    summary, files = write_report(outcome, tmp_path / "report")
    assert files.markdown.exists() and files.json.exists()
    text = files.markdown.read_text(encoding="utf-8")
    data = json.loads(files.json.read_text(encoding="utf-8"))
    for name in ("alpha", "beta"):
        assert name in text
        assert name in data["systems"]
        assert data["meta"]["systems"][name]["run_key"] == outcome.runs[name].key
    for heading in ("JS", "TCR", "W-ROUGE-L", "C-ROUGE-L", "Per domain", "Pairwise", "Cost",
                    "Run metadata"):
        assert heading in text
    assert data["meta"]["data_id"] == "report-test"
    assert {p.name for p in files.plots} == {"domains.png", "distributions.png", "pairwise.png",
                                             "intervals.png"}
    for png in files.plots:
        assert png.read_bytes()[:8] == PNG_MAGIC and png.stat().st_size > 5000
        assert f"plots/{png.name}" in text


def test_summary_numbers_come_from_the_records(outcome) -> None:  # type: ignore[no-untyped-def]
    summary = summarize(outcome)
    for name, records in outcome.results.items():
        judged = [r for r in records if r["status"] == "ok"]
        s = summary["systems"][name]
        assert s["js"] == pytest.approx(statistics.fmean(r["judge"]["score"] for r in judged))
        assert s["tcr"] == pytest.approx(statistics.fmean(r["judge"]["tcr"] for r in judged))
        answered = [r for r in records if r["answer"] is not None]
        assert s["w_rouge_l"] == pytest.approx(statistics.fmean(r["rouge"]["word"]
                                                                for r in answered))
        assert s["judged"] == len(judged) and s["n"] == len(outcome.conversations)
        assert s["cost"]["answer"]["calls"] == len(answered)
    assert summary["systems"]["beta"]["failures"]["answer_failed"] == 1
    domains = summary["domains"]
    assert sum(next(iter(d.values()))["n"] for d in domains.values()) == len(outcome.conversations)
    row = summary["pairwise"][0]
    assert (row["a"], row["b"]) == ("alpha", "beta")
    assert row["win"] + row["loss"] + row["tie"] + row["failed"] + row["skipped"] == row["n"]
    assert row["skipped"] == 1  # beta had no answer for one sample


def test_markdown_lists_failures_with_their_errors(outcome) -> None:  # type: ignore[no-untyped-def]
    text = render_markdown(summarize(outcome))
    assert "told to fail" in text
    assert "1 answer" in text  # the failures column of the main table


def test_intervals_and_paired_tests_come_from_the_same_samples(outcome) -> None:  # type: ignore[no-untyped-def]
    from eval.significance import bootstrap_ci, paired_test

    summary = summarize(outcome)
    sig = summary["significance"]
    by_id = {name: {r["sample_id"]: r for r in records if r["status"] == "ok"}
             for name, records in outcome.results.items()}
    for name, records in by_id.items():
        scores = [float(r["judge"]["score"]) for r in records.values()]
        assert sig["intervals"][name]["js"] == {**bootstrap_ci(scores).__dict__}
    (diff,) = [d for d in sig["differences"] if d["column"] == "js"]
    both = sorted(set(by_id["alpha"]) & set(by_id["beta"]))
    assert diff["n"] == len(both) and len(both) < len(outcome.conversations)  # one failed
    assert diff["p_value"] == paired_test([by_id["alpha"][i]["judge"]["score"] for i in both],
                                          [by_id["beta"][i]["judge"]["score"] for i in both])
    text = render_markdown(summary)
    assert "## Confidence intervals and significant differences" in text
    assert "| score | system A | system B | paired samples |" in text
