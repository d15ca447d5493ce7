"""Typed run records: one writer, one reader, a format version; old files load, unknown ones
fail naming the file and the version."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.bench_doubles import ANSWERER, make_echo, reply_for

from eval.bench.records import (
    RECORD_FORMAT,
    RecordFormatError,
    SampleRecord,
    read_samples,
)
from eval.bench.runner import BenchRunner
from eval.bench.sample import run_sample
from eval.inseval import InsEvalJudge
from eval.report import summarize
from serving.scripted import ScriptedLLM


def scripted() -> ScriptedLLM:
    return ScriptedLLM(lambda messages, schema: reply_for(
        "\n".join(m["content"] for m in messages), schema))


def test_the_writer_and_the_reader_agree(conversations) -> None:
    llm = scripted()
    data = run_sample(conversations[0], ANSWERER, make_echo(llm=llm), InsEvalJudge(llm), None)
    assert data["format"] == RECORD_FORMAT
    record = SampleRecord.from_dict(json.loads(json.dumps(data)))
    assert record.to_dict() == data
    assert record.status == "ok" and record.judged and record.judge.score is not None
    assert record.rouge is not None and 0 <= record.rouge.word <= 1


def test_previous_format_without_version_still_loads(conversations) -> None:
    llm = scripted()
    data = run_sample(conversations[0], ANSWERER, make_echo(llm=llm), InsEvalJudge(llm), None)
    old = {k: v for k, v in data.items() if k != "format"}  # what format 1 wrote
    record = read_samples([old], "runs/x/results.jsonl")[0]
    assert record.format == 1 and record.judge.score == data["judge"]["score"]


@pytest.mark.parametrize(("change", "message"), [
    ({"format": 99}, "result format 99"),
    ({"status": "done"}, "status 'done'"),
    ({"judge": {"points": 3}}, "judge field is not a verdict"),
])
def test_unreadable_records_fail_naming_the_file(conversations, change, message) -> None:
    llm = scripted()
    data = {**run_sample(conversations[0], ANSWERER, make_echo(llm=llm), InsEvalJudge(llm), None),
            **change}
    with pytest.raises(RecordFormatError, match="runs/x/results.jsonl") as info:
        read_samples([data], "runs/x/results.jsonl")
    assert message in str(info.value)
    missing = {k: v for k, v in data.items() if k != "system"}
    missing["format"] = 2
    with pytest.raises(RecordFormatError, match=r"lacks field\(s\) \['system'\]"):
        read_samples([missing], "f")


def test_a_run_with_a_newer_format_fails_in_the_report_naming_its_file(conversations,
                                                                       tmp_path: Path) -> None:
    llm = scripted()
    runner = BenchRunner(conversations=conversations[:2], data_id="d", answerers={
        ANSWERER: make_echo(llm=llm)}, judge_llm=llm, out_dir=tmp_path, progress=False)
    outcome = runner.run()
    assert summarize(outcome)["systems"][ANSWERER]["judged"] == 2
    path = next(tmp_path.glob("*/results.jsonl"))
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    path.write_text("".join(json.dumps({**r, "format": 7}) + "\n" for r in lines), encoding="utf-8")
    again = BenchRunner(conversations=conversations[:2], data_id="d", answerers={
        ANSWERER: make_echo(llm=llm)}, judge_llm=llm, out_dir=tmp_path, progress=False).run()
    with pytest.raises(RecordFormatError, match=str(path)) as info:
        summarize(again)
    assert "result format 7" in str(info.value)


def test_pairwise_and_howto_lines_are_typed_too() -> None:
    from eval.bench.records import read_howto, read_pairs

    pair = {"sample_id": "s1", "domain": "d", "a": "x", "b": "y", "status": "ok",
            "result": "win", "votes": ["win"] * 10, "error": None, "transient": False}
    (read,) = read_pairs([pair], "runs/pairwise-x-vs-y/results.jsonl")  # format 1: no version
    assert read.result == "win" and read.format == 1 and read.to_dict()["format"] == RECORD_FORMAT
    with pytest.raises(RecordFormatError, match=r"pairwise-x-vs-y.*result format 99"):
        read_pairs([{**pair, "format": 99}], "runs/pairwise-x-vs-y/results.jsonl")
    howto = {"sample_id": "s1", "system": "x", "domain": "d", "status": "ok",
             "howto": {"f1": 0.5}, "format": 2}
    assert read_howto([howto], "h")[0].howto == {"f1": 0.5}
    with pytest.raises(RecordFormatError, match=r"lacks field\(s\) \['system'\]"):
        read_howto([{k: v for k, v in howto.items() if k != "system"}], "h")
