"""``inscoqa answer``: arguments, history files, text and JSON output, with and without an engine."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from inscoqa.cli import main
from inscoqa.cli.answer import format_answer, read_history
from inscoqa.cli.options import parse_params, parse_system_params
from procmem.answerers import Answer, Source


def test_list_names_every_answerer(capsys):
    assert main(["answer", "--list"]) == 0
    names = capsys.readouterr().out.split()
    assert {"aag", "aag-noqr", "extractive", "inscoqa", "logic-units", "rag"} <= set(names)


def test_history_file(tmp_path: Path):
    path = tmp_path / "history.json"
    path.write_text(json.dumps([["How do I X?", "Do Y."]]), encoding="utf-8")
    assert read_history(path) == [("How do I X?", "Do Y.")]


@pytest.mark.parametrize(("content", "message"), [
    ("{not json", "cannot read JSON"),
    ('{"q": "a"}', "expected a list"),
    ('[["only a question"]]', "entry 0"),
    ('[["q", "a"], ["q2", 3]]', "entry 1"),
])
def test_bad_history_file_names_file_and_entry(tmp_path: Path, content: str, message: str):
    path = tmp_path / "history.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(SystemExit, match=message) as info:
        read_history(path)
    assert str(path) in str(info.value)


def test_params_are_read_as_json_when_possible():
    assert parse_params(["k=5", "critique=false", "unit_kind=logic_unit", "temperature=0.2"]) == {
        "k": 5, "critique": False, "unit_kind": "logic_unit", "temperature": 0.2}
    with pytest.raises(ValueError, match="KEY=VALUE"):
        parse_params(["k"])
    assert parse_system_params(["rag.k=3", "aag.critique=false"]) == {
        "rag": {"k": 3}, "aag": {"critique": False}}
    with pytest.raises(ValueError, match="SYSTEM.KEY=VALUE"):
        parse_system_params(["k=3"])


def test_unknown_system_and_missing_question():
    with pytest.raises(SystemExit, match="unknown answerer"):
        main(["answer", "--system", "nope", "q?"])
    with pytest.raises(SystemExit, match="give the question"):
        main(["answer", "--system", "extractive"])


@pytest.fixture(scope="session")
def memory_dir(small_memory, tmp_path_factory) -> Path:
    return small_memory.save(tmp_path_factory.mktemp("memory") / "mem")


@pytest.mark.slow
def test_extractive_answer_prints_answer_steps_and_sources(memory_dir, conversation, capsys, tmp_path):
    history = tmp_path / "history.json"
    history.write_text(json.dumps([list(t) for t in conversation.history]), encoding="utf-8")
    assert main(["answer", "--memory", str(memory_dir), "--history", str(history),
                 conversation.question]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Answer: ") and "Procedural instructions:\n1. " in out
    assert "Sources:\n[1]" in out and "0 model calls" in out


@pytest.mark.slow
def test_model_answerer_json_output_against_a_running_engine(memory_dir, conversation, embedded_llm,
                                                             capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("INSCOQA_CACHE_DIR", str(tmp_path / "cache"))
    assert main(["answer", "--memory", str(memory_dir), "--system", "rag", "--json",
                 "--engine", "embedded", "--base-url", embedded_llm.base_url,
                 "--param", "max_tokens=120", conversation.question]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["answer"] and data["procedures"] and data["sources"]
    assert [s["name"] for s in data["trace"]["stages"]] == ["standalone_query", "retrieve", "generate"]
    # one generation call, plus the re-asks a reply that misses the schema may need
    assert 1 <= data["trace"]["usage"]["calls"] <= 1 + embedded_llm.config.schema_retries


@pytest.mark.slow
def test_engine_failure_falls_back_to_extractive_when_asked(memory_dir, capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("INSCOQA_CACHE_DIR", str(tmp_path / "cache"))
    down = ["--engine", "external", "--base-url", "http://127.0.0.1:9", "--model", "m"]
    question = "How do I turn off POP and IMAP?"
    assert main(["answer", "--memory", str(memory_dir), "--system", "rag", *down, question]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "engine failed" in err[0]
    assert main(["answer", "--memory", str(memory_dir), "--system", "rag", "--fallback", "--json",
                 *down, question]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["trace"]["stages"][0]["name"] == "fallback" and data["procedures"]


def test_sources_print_one_line_per_document_cited_ones_first():
    """A procedure and a section of one page are two sources of one document: one line names
    both numbers; sources no step cites follow under "Also retrieved"."""
    sources = [Source("help/wifi.md", "Connect to Wi-Fi", unit_id="p1", score=0.5),
               Source("help/vpn.md", "Set up a VPN", unit_id="l1", score=0.3),
               Source("help/wifi.md", "Connect to Wi-Fi", unit_id="l2", score=0.4)]
    answer = Answer("Open the Wi-Fi settings.", ["Open Settings. [1]", "Click Wi-Fi. [3]"], sources)
    text = format_answer(answer)
    assert "Sources:\n[1][3] Connect to Wi-Fi — help/wifi.md  (score 0.5000)\n" in text
    assert "Also retrieved:\n[2] Set up a VPN — help/vpn.md  (score 0.3000)\n" in text
    # no citations at all: every source is listed as a source
    plain = format_answer(Answer("Open the Wi-Fi settings.", ["Open Settings."], sources))
    assert "Sources:\n[1][3] Connect to Wi-Fi — help/wifi.md  (score 0.5000)\n[2] Set up a VPN" in plain
    assert "Also retrieved" not in plain
    assert "Sources:\n(none)" in format_answer(Answer("No matching instructions were found.", []))
