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


MANUAL = "The Claws Mail User Manual"


def manual_source(unit_id: str, score: float, section: str = "") -> Source:
    return Source("en/claws-mail-manual.html", MANUAL, unit_id=unit_id, score=score, section=section)


def test_a_single_documents_sources_name_the_sections_they_come_from():
    """Every source of a one-page manual is one document: under its line, one line per section
    its cited sources name, with the numbers citing it; the other sources stay one line."""
    sources = [manual_source("p1", 0.0317, "Account customisation > Account types"),
               manual_source("p2", 0.0301, "Account customisation > Multiple accounts"),
               manual_source("l1", 0.0299, "Account customisation > Account types"),
               manual_source("c1", 0.0200),  # no section: named by no line
               manual_source("p3", 0.0100, "Basic mail handling > Filtering")]
    answer = Answer("Add an account.", ["Open the menu. [1]", "Pick it. [2]", "Save. [3][4]"], sources)
    text = format_answer(answer)
    assert (f"Sources:\n[1][2][3][4] {MANUAL} — en/claws-mail-manual.html  (score 0.0317)\n"
            "    [1][3] Account customisation > Account types\n"
            "    [2] Account customisation > Multiple accounts\n\n"
            f"Also retrieved:\n[5] {MANUAL} — en/claws-mail-manual.html  (score 0.0100)\n\n") in text


def test_sources_that_name_no_section_print_no_section_lines():
    sources = [manual_source("c1", 0.5), manual_source("c2", 0.4)]
    text = format_answer(Answer("Add an account.", ["Open the menu. [1]", "Save. [2]"], sources))
    assert f"Sources:\n[1][2] {MANUAL} — en/claws-mail-manual.html  (score 0.5000)\n\n" in text


ONE_PAGE_MANUAL = f"""<!DOCTYPE html>
<html><head><title>{MANUAL}</title></head>
<body>
<h1>{MANUAL}</h1>
<p>This manual describes the Claws Mail client.</p>
<h2>Account customisation</h2>
<h3>Account types</h3>
<p>To add a POP account:</p>
<ol><li>Open the Configuration menu.</li><li>Choose Create new account.</li>
<li>Select POP3 as the protocol.</li><li>Click OK to save the account.</li></ol>
<h2>Basic mail handling</h2>
<h3>Filtering</h3>
<p>To filter incoming messages into folders:</p>
<ol><li>Open the Filtering dialog from the Configuration menu.</li>
<li>Enter a rule that matches the sender.</li><li>Choose the destination folder and click Add.</li></ol>
</body></html>
"""


def test_an_answer_from_a_one_page_manual_names_the_section_of_its_steps(clean_env, capsys):
    docs = clean_env / "docs" / "en"
    docs.mkdir(parents=True)
    (docs / "claws-mail-manual.html").write_text(ONE_PAGE_MANUAL, encoding="utf-8")
    memory = clean_env / "memory"
    assert main(["memory", "build", "--path", str(clean_env / "docs"), "--out", str(memory),
                 "--json"]) == 0
    capsys.readouterr()
    for question, section, other in [
            ("How do I add a POP account?", "Account customisation > Account types", "Filtering"),
            ("How do I filter incoming messages into folders?", "Basic mail handling > Filtering",
             "Account types")]:
        assert main(["answer", "--memory", str(memory), question]) == 0
        out = capsys.readouterr().out
        cited = out.split("\nSources:\n", 1)[1].split("\n\n", 1)[0].splitlines()
        assert cited[0].startswith("[") and f"{MANUAL} — docs/en/claws-mail-manual.html" in cited[0]
        assert len(cited) == 2 and cited[1].startswith("    [") and cited[1].endswith(f"] {section}")
        assert other not in "\n".join(cited)
