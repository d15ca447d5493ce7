"""THREAD's paradigm comparison: one paradigm per unit kind the memory offers, each answered
from real bundled documents; the studies end to end through ``inscoqa thread``."""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from eval.paradigms import (
    MeasuredAnswerer,
    count_tokens,
    evidence_recall,
    given_kinds,
    make_paradigms,
    paradigm_stage,
)
from inscoqa.bundled import corpus_index
from inscoqa.cli import main
from inscoqa.records import Conversation
from procmem.answerers import make_answerer
from procmem.answerers.base import AnswerRequest
from procmem.answerers.retrieval import given_memory
from procmem.memory import ALL_KINDS, MemoryConfig, build_memory
from serving.fake_server import FakeLLMServer
from serving.scripted import ScriptedLLM
from serving.types import Message


def generator(messages: list[Message], schema: dict[str, Any] | None) -> dict[str, Any]:
    props = (schema or {}).get("properties", {})
    if "units" in props:  # the logic-unit selector: the first unit is relevant
        n = props["units"]["maxItems"]
        return {"units": [{"unit": i, "relevant": i == 1, "prerequisite": "none"}
                          for i in range(1, n + 1)], "ask": ""}
    assert "procedures" in props, props
    return {"answer": "Do this.", "procedures": ["Open the settings."]}


def test_every_kind_the_memory_offers_is_a_paradigm() -> None:
    paradigms = make_paradigms(ALL_KINDS)
    assert [p.name for p in paradigms] == list(ALL_KINDS)
    by_name = {p.name: p for p in paradigms}
    assert by_name["document"].single["k"] == 1 and by_name["chunk"].single["k"] == 5
    for name in ("semantic_chunk", "proposition"):  # THREAD's other baselines: top-5 of their kind
        assert (by_name[name].answerer, by_name[name].single["unit_kind"],
                by_name[name].single["k"]) == ("rag", name, 5)
    assert by_name["logic_unit"].answerer == "logic-units"
    assert (by_name["logic_unit"].single["mode"], by_name["logic_unit"].multi["mode"]) == (
        "single", "multi")
    # a kind the memory comes to offer joins as top-5 retrieval of that kind
    [new] = make_paradigms(("document", "proposition"), only=["proposition"], k={"proposition": 8})
    assert (new.answerer, new.single["unit_kind"], new.single["k"]) == ("rag", "proposition", 8)
    with pytest.raises(ValueError, match="not offered"):
        make_paradigms(ALL_KINDS, only=["sentence"])
    with pytest.raises(ValueError, match="--k"):
        make_paradigms(ALL_KINDS, only=["chunk"], k={"document": 2})


@pytest.mark.parametrize("kind", given_kinds())  # what a study offers over given documents
def test_each_paradigm_answers_from_its_units_of_real_documents(
        kind: str, conversations: list[Conversation]) -> None:
    conv = next(c for c in conversations if c.id == "dev-ods-001")
    docs = corpus_index().resolve(conv)
    [paradigm] = make_paradigms(ALL_KINDS, only=[kind])
    llm = ScriptedLLM(generator)
    answerer = MeasuredAnswerer(make_answerer(paradigm.answerer, llm=llm, query_rewrite="heuristic",
                                              **paradigm.single), kind, None)
    answer = answerer.answer(AnswerRequest(conv.question, list(conv.history), docs))
    memory = given_memory(docs, kinds=[kind])  # the memory the answerer searched
    details = paradigm_stage(answer.trace.to_dict())
    assert details is not None and details["kinds"] == {kind: details["units"]}
    assert 1 <= details["units"] <= paradigm.single["k"] + (kind == "logic_unit") * 6
    units = [memory.get(s.unit_id) for s in answer.sources]
    assert details["unit_tokens"] == [count_tokens(u.render()) for u in units]
    assert details["doc_ids"] == [u.meta["doc_id"] for u in units]
    assert 0.0 <= evidence_recall(details, conv) <= 1.0
    # the units really reached the generator
    generate_prompt = next(c.prompt for c in llm.calls
                           if "procedures" in (c.schema or {}).get("properties", {}))
    shown = getattr(units[0], "header", "") or units[0].render()  # logic units: header + body
    assert " ".join(shown.split()[:4]) in " ".join(generate_prompt.split())
    assert answerer.config()["paradigm"] == kind


def test_document_paradigm_finds_the_evidence(conversations: list[Conversation]) -> None:
    conv = next(c for c in conversations if c.id == "dev-gnome-001")
    [paradigm] = make_paradigms(ALL_KINDS, only=["document"])
    answerer = MeasuredAnswerer(make_answerer("rag", llm=ScriptedLLM(generator),
                                              query_rewrite="heuristic", **paradigm.single),
                                "document", None)
    answer = answerer.answer(AnswerRequest(conv.question, list(conv.history),
                                           corpus_index().resolve(conv)))
    details = paradigm_stage(answer.trace.to_dict())
    # the top document is the one most of the reference steps come from
    main_evidence = Counter(conv.evidence).most_common(1)[0][0]
    assert details["doc_ids"] == [main_evidence]
    assert evidence_recall(details, conv) == 1 / len(set(conv.evidence))


@pytest.fixture
def server() -> Iterator[FakeLLMServer]:
    with FakeLLMServer() as s:  # the smallest reply that fits each requested schema
        yield s


def run_cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    code = main(argv)
    out = capsys.readouterr().out
    assert code == 0, out
    return json.loads(out)


def test_thread_commands_run_resume_and_report(clean_env: Path, server: FakeLLMServer,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    common = ["--limit", "2", "--paradigms", "document,chunk,logic_unit", "--base-url",
              server.base_url, "--model", "fake", "--out", str(clean_env / "runs"), "--json"]
    first = run_cli(["thread", "compare", *common], capsys)
    assert list(first["paradigms"]) == ["document", "chunk", "logic_unit"]
    for row in first["paradigms"].values():
        assert row["answered"] == 2 and row["failures"] == []
        assert row["evidence_recall"] is not None and row["tokens_sent"] > 0
        assert row["js"] is not None and row["success_rate"] is not None
    assert first["paradigms"]["document"]["units_sent"] == 1.0
    assert first["meta"]["scorer"]["matcher"] == "judge"
    report = Path(first["files"]["markdown"]).read_text(encoding="utf-8")
    assert "| logic_unit | logic-units | 2/2 |" in report
    assert json.loads(Path(first["files"]["json"]).read_text())["paradigms"] == first["paradigms"]
    requests = server.request_count
    again = run_cli(["thread", "compare", *common], capsys)  # finished: no model call
    assert server.request_count == requests and again["paradigms"] == first["paradigms"]

    dialogue = run_cli(["thread", "dialogue", *common, "--max-turns", "2"], capsys)
    for row in dialogue["paradigms"].values():
        assert row["scored"] == 2 and row["failures"] == []
        assert 1 <= row["turns"] <= 2 and sum(row["outcomes"].values()) >= 2
        assert set(row["single"]) == set(row["multi"]) == {"precision", "recall", "f1", "success"}
    runs = dialogue["meta"]["runs"]
    stored = [json.loads(line) for line in
              (clean_env / "runs" / runs["logic_unit"] / "results.jsonl").read_text().splitlines()]
    assert all(len(r["dialogue"]["turns"]) == r["dialogue"]["n_turns"] for r in stored)
    requests = server.request_count
    run_cli(["thread", "dialogue", *common, "--max-turns", "2"], capsys)
    assert server.request_count == requests
    # the model-played user (the fake server's reply: its first choice, "done")
    played = run_cli(["thread", "dialogue", *common, "--simulator", "llm"], capsys)
    assert played["meta"]["simulator"]["simulator"] == "llm"
    assert all(row["outcomes"] == {"done": 2} and row["turns"] == 1
               for row in played["paradigms"].values())


def test_memory_setting_offers_the_memorys_kinds(tmp_path: Path,
                                                 conversations: list[Conversation]) -> None:
    from eval.paradigms import StudyOptions, load_study
    from procmem.memory import build_memory

    conv = next(c for c in conversations if c.id == "dev-gnome-001")
    memory = build_memory(corpus_index().resolve(conv), kinds=("chunk", "logic_unit"),
                          progress=False)
    memory.save(tmp_path / "mem")
    study = load_study(StudyOptions(setting="memory", memory=str(tmp_path / "mem"), limit=1))
    assert set(study.kinds) == {"chunk", "logic_unit"}
    assert study.documents is None and study.memory_id
    assert [p.name for p in make_paradigms(study.kinds)] == list(study.kinds)
    # given documents: the configured kinds and semantic chunks, no propositions (no model)
    given = load_study(StudyOptions(limit=1))
    assert given.kinds == ("procedure", "logic_unit", "chunk", "semantic_chunk", "document")


def propositions_and_answers(messages: list[Message], schema: dict[str, Any] | None) -> dict[str, Any]:
    """Propositions: the passage's first lines; anything else as :func:`generator`."""
    if "propositions" in (schema or {}).get("properties", {}):
        passage = messages[-1]["content"].split("Passage:\n", 1)[1].rsplit("\n\n", 1)[0]
        lines = [" ".join(line.split()) for line in passage.splitlines() if len(line.split()) > 3]
        return {"propositions": lines[:6]}
    return generator(messages, schema)


@pytest.fixture
def proposition_memory(clean_env: Path) -> Path:
    """A saved memory over the real documents of the first sample conversation (the one a study
    with ``--limit 1`` asks) with every kind, propositions by a scripted model."""
    from eval.bench.session import select
    from inscoqa.bundled import resolve_dataset

    [conv] = select(resolve_dataset("sample"), 1)
    memory = build_memory(corpus_index().resolve(conv), kinds=ALL_KINDS, progress=False,
                          llm=ScriptedLLM(propositions_and_answers),
                          config=MemoryConfig(llm_extract="never", llm_workers=1))
    assert memory.units("proposition") and memory.units("semantic_chunk")
    return memory.save(clean_env / "mem")


def test_compare_puts_semantic_chunks_and_propositions_beside_the_others(
        proposition_memory: Path, clean_env: Path, server: FakeLLMServer,
        capsys: pytest.CaptureFixture[str]) -> None:
    names = ["document", "chunk", "semantic_chunk", "proposition", "logic_unit"]
    summary = run_cli(["thread", "compare", "--setting", "memory", "--memory",
                       str(proposition_memory), "--data", "sample", "--limit", "1",
                       "--paradigms", ",".join(names), "--base-url", server.base_url, "--model", "fake",
                       "--out", str(clean_env / "runs"), "--json", "--no-progress"], capsys)
    assert list(summary["paradigms"]) == names
    for name in names:
        row = summary["paradigms"][name]
        assert row["answered"] == 1 and row["failures"] == []
        assert row["evidence_recall"] is not None and row["tokens_sent"] > 0
        assert row["js"] is not None and row["success_rate"] is not None
    rows = summary["paradigms"]
    assert rows["semantic_chunk"]["params"]["k"] == rows["proposition"]["params"]["k"] == 5
    # a proposition is a sentence: far fewer tokens per unit than a chunk or a document
    assert rows["proposition"]["tokens_per_unit"] < rows["chunk"]["tokens_per_unit"]
    assert rows["chunk"]["tokens_per_unit"] < rows["document"]["tokens_per_unit"]
    report = Path(summary["files"]["markdown"]).read_text(encoding="utf-8")
    assert "| semantic_chunk | rag | 1/1 |" in report and "| proposition | rag | 1/1 |" in report
    # every answer was made from units of its own paradigm's kind
    for name in ("semantic_chunk", "proposition"):
        run = clean_env / "runs" / summary["meta"]["runs"][name] / "results.jsonl"
        [record] = [json.loads(line) for line in run.read_text().splitlines()]
        assert paradigm_stage(record["trace"])["kinds"] == {name: paradigm_stage(record["trace"])["units"]}


def test_compare_over_given_documents_builds_their_semantic_chunks(
        clean_env: Path, server: FakeLLMServer, capsys: pytest.CaptureFixture[str]) -> None:
    summary = run_cli(["thread", "compare", "--limit", "1", "--paradigms", "chunk,semantic_chunk",
                       "--base-url", server.base_url, "--model", "fake",
                       "--out", str(clean_env / "runs"), "--json", "--no-progress"], capsys)
    for name in ("chunk", "semantic_chunk"):
        row = summary["paradigms"][name]
        assert row["answered"] == 1 and row["failures"] == [] and row["tokens_sent"] > 0
        run = clean_env / "runs" / summary["meta"]["runs"][name] / "results.jsonl"
        [record] = [json.loads(line) for line in run.read_text().splitlines()]
        details = paradigm_stage(record["trace"])
        assert details["kinds"] == {name: details["units"]}  # no fallback to chunks
    assert "INSCOQA_MEMORY_KINDS" not in os.environ  # the study's setting is undone


def test_a_memory_without_propositions_does_not_offer_them(
        tmp_path: Path, conversations: list[Conversation]) -> None:
    from eval.paradigms import StudyOptions, load_study

    conv = next(c for c in conversations if c.id == "dev-gnome-001")
    memory = build_memory(corpus_index().resolve(conv), kinds=("chunk", "proposition"),
                          progress=False)  # no model: every document's propositions failed
    assert not memory.units("proposition") and memory.failures
    memory.save(tmp_path / "mem")
    study = load_study(StudyOptions(setting="memory", memory=str(tmp_path / "mem"), limit=1))
    assert study.kinds == ("chunk",)


def test_thread_command_errors_are_one_line(clean_env: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["thread", "compare", "--paradigms", "sentence", "--out",
                 str(clean_env / "runs")]) == 2
    err = capsys.readouterr().err.strip()
    assert "not offered" in err and len(err.splitlines()) == 1
    assert main(["thread", "dialogue", "--k", "chunk=0", "--out", str(clean_env / "runs")]) == 2
    assert "--k" in capsys.readouterr().err


@pytest.mark.slow
def test_comparison_on_the_embedded_engine(clean_env: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["thread", "compare", "--limit", "2", "--paradigms", "document,logic_unit",
                 "--out", str(clean_env / "runs"), "--json", "--no-progress"])
    out = capsys.readouterr().out
    summary = json.loads(out)
    assert code in (0, 1)  # 1: the tiny model's reply for a sample failed, listed in the report
    for name in ("document", "logic_unit"):
        row = summary["paradigms"][name]
        assert row["n"] == 2 and row["answered"] == 2
        assert row["evidence_recall"] is not None and row["tokens_sent"] > 0
        assert row["generator_prompt_tokens"] is not None
        assert len(row["failures"]) < 4
    assert summary["paradigms"]["document"]["units_sent"] == 1.0
    assert Path(summary["files"]["markdown"]).exists()


def test_an_unreachable_engine_stops_the_study_in_one_line(
        clean_env: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with FakeLLMServer() as gone:
        url = gone.base_url
    for command in ("compare", "dialogue"):
        code = main(["thread", command, "--limit", "1", "--paradigms", "chunk", "--base-url", url,
                     "--model", "fake", "--out", str(clean_env / "runs"), "--no-progress"])
        err = capsys.readouterr().err.strip()
        assert code == 1, err
        assert len(err.splitlines()) == 1 and "run the same command again" in err
