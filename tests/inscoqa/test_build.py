"""The construction pipeline's control flow with the scripted model, and the real client's
re-asks against the fault-scripting fake server."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from inscoqa.builder import (
    BuildOptions,
    BuildSpecError,
    DatasetBuilder,
    SourceDocument,
    queries_from_documents,
    query_key,
    read_queries,
    select_documents,
)
from inscoqa.corpus.document import Document
from inscoqa.io import load_conversations
from inscoqa.schema import DatasetError
from serving.errors import LLMConnectionError
from serving.scripted import ScriptedLLM

DOCS = {
    "help/wifi.md": SourceDocument("help/wifi.md", "Connect to Wi-Fi",
                                   "# Connect to Wi-Fi\n1. Open Settings.\n2. Pick the network.", 0.9),
    "help/hidden.md": SourceDocument("help/hidden.md", "Hidden networks",
                                     "# Hidden networks\n1. Choose Connect to Hidden Network.", 0.8),
    "help/print.md": SourceDocument("help/print.md", "Printing", "# Print\n1. Press Ctrl+P.", 0.1),
}


def retrieve(query: str, k: int) -> list[SourceDocument]:
    return sorted(DOCS.values(), key=lambda d: -d.score)[:k]


YES4 = {"complete_and_clear": "yes", "objective": "yes", "time_independent": "yes",
        "instructional": "yes"}
DIALOGUE = {"history": [["I have a laptop with Wi-Fi.", "Good, you can connect it wirelessly."]],
            "question": "How do I join a hidden network?"}
SUITABLE = {"informative_history": "yes", "genuine_question": "yes", "objective_answer": "yes",
            "can_be_steps": "yes", "reason": "a real how-to question"}


def step_of(messages: list[dict[str, str]]) -> str:
    text = "\n".join(m["content"] for m in messages)
    for marker, step in (("Judge the question on four criteria", "filter"),
                         ("Write the conversation that leads up", "generate"),
                         ("Answer the last question in plain text", "answer"),
                         ("Answer each condition", "judge"),
                         ("Summarise the answer as numbered", "summarise")):
        if marker in text:
            return step
    raise AssertionError(f"unknown prompt: {text[:200]}")


def scripted(overrides: dict[str, Any] | None = None) -> ScriptedLLM:
    """Replies by step; ``overrides[step]`` replaces a step's reply (a callable gets the query)."""
    replies: dict[str, Any] = {"filter": YES4, "generate": DIALOGUE,
                               "answer": {"answer": "Open the network menu and choose Connect "
                                                    "to Hidden Network, then type its name."},
                               "judge": SUITABLE,
                               "summarise": {"steps": ["1. Open the network menu.",
                                                       "2. Choose Connect to Hidden Network.",
                                                       "Choose Connect to Hidden Network.",
                                                       "Type the network name."]}}
    replies.update(overrides or {})

    def reply(messages: list[dict[str, str]], schema: dict[str, Any] | None) -> Any:
        value = replies[step_of(messages)]
        return value(messages) if callable(value) else value

    return ScriptedLLM(replies=reply)


def steps_called(llm: ScriptedLLM) -> list[str]:
    return [step_of(c.messages) for c in llm.calls]


def test_a_suitable_query_becomes_a_valid_multi_document_conversation(tmp_path: Path) -> None:
    llm = scripted()
    summary = DatasetBuilder(llm, retrieve, tmp_path, progress=False).run(
        ["How do I connect to a hidden Wi-Fi network?"])
    assert summary.kept == 1 and summary.rejected == {} and summary.failed == {}
    assert steps_called(llm) == ["filter", "generate", "answer", "judge", "summarise"]
    [conv] = load_conversations(tmp_path / "dataset.jsonl")
    # the two close scores make it multi-document; the far one is left out
    assert [d.doc_id for d in conv.documents] == ["help/wifi.md", "help/hidden.md"]
    assert all(d.text for d in conv.documents)
    assert conv.history == [tuple(DIALOGUE["history"][0])]
    assert conv.question == DIALOGUE["question"]
    # numbers stripped, the repeated step dropped
    assert conv.procedures == ["Open the network menu.", "Choose Connect to Hidden Network.",
                               "Type the network name."]
    assert conv.meta["query"] == "How do I connect to a hidden Wi-Fi network?"
    # the documents and the history reached the prompts that need them
    answer_prompt = "\n".join(m["content"] for m in llm.calls[2].messages)
    assert "Pick the network." in answer_prompt and "I have a laptop with Wi-Fi." in answer_prompt


def test_the_filter_rejects_with_the_failed_criteria_and_stops(tmp_path: Path) -> None:
    llm = scripted({"filter": {**YES4, "objective": "no", "time_independent": "no"}})
    summary = DatasetBuilder(llm, retrieve, tmp_path, progress=False).run(["Which phone is best?"])
    assert summary.kept == 0 and summary.rejected == {"filter": 1}
    assert steps_called(llm) == ["filter"]
    [item] = [json.loads(line) for line in (tmp_path / "rejected.jsonl").read_text().splitlines()]
    assert item["step"] == "filter" and "objective" in item["reason"]
    assert "time independent" in item["reason"]
    assert (tmp_path / "dataset.jsonl").read_text() == ""


def test_an_unsuitable_sample_is_rejected_with_the_judges_reason(tmp_path: Path) -> None:
    llm = scripted({"judge": {**SUITABLE, "genuine_question": "no",
                              "reason": "the last question repeats the first one"}})
    summary = DatasetBuilder(llm, retrieve, tmp_path, progress=False).run(["How do I print?"])
    assert summary.rejected == {"judge": 1}
    assert steps_called(llm) == ["filter", "generate", "answer", "judge"]  # no summary
    record = next(iter(json.loads(x) for x in (tmp_path / "items.jsonl").read_text().splitlines()))
    assert "genuine question" in record["reason"] and "repeats the first one" in record["reason"]
    assert record["details"]["judge"]["genuine_question"] == "no"


def test_without_the_filter_every_query_goes_on(tmp_path: Path) -> None:
    llm = scripted({"filter": {**YES4, "objective": "no"}})
    summary = DatasetBuilder(llm, retrieve, tmp_path, progress=False,
                             options=BuildOptions(filter=False)).run(["Which phone is best?"])
    assert summary.kept == 1 and "filter" not in steps_called(llm)


def test_no_retrieved_document_is_a_retrieval_rejection(tmp_path: Path) -> None:
    llm = scripted()
    summary = DatasetBuilder(llm, lambda q, k: [], tmp_path, progress=False).run(["How do I x?"])
    assert summary.rejected == {"retrieve": 1} and steps_called(llm) == ["filter"]


def test_invalid_json_from_the_scripted_model_is_recorded_as_a_failure(tmp_path: Path) -> None:
    llm = scripted({"generate": "{not json"})
    summary = DatasetBuilder(llm, retrieve, tmp_path, progress=False).run(["How do I print?"])
    assert summary.failed == {"generate": 1} and summary.left == 0
    record = json.loads((tmp_path / "items.jsonl").read_text().splitlines()[0])
    assert record["status"] == "failed" and record["reason"].startswith("invalid reply")
    assert record["details"]["raw"] == "{not json" and record["transient"] is False


def test_an_engine_that_is_down_leaves_items_for_the_next_run(tmp_path: Path) -> None:
    down = scripted({"filter": lambda m: LLMConnectionError("engine unreachable")})
    queries = [f"How do I do task {i}?" for i in range(5)]
    first = DatasetBuilder(down, retrieve, tmp_path, progress=False, concurrency=1).run(queries)
    assert first.kept == 0 and first.left == 5 and first.stopped is not None
    assert first.new_items == 5  # counted as attempted; the later ones were cancelled
    second = DatasetBuilder(scripted(), retrieve, tmp_path, progress=False).run(queries)
    assert second.kept == 5 and second.left == 0
    assert len(load_conversations(tmp_path / "dataset.jsonl")) == 5


def test_a_rerun_does_nothing_and_new_queries_are_added(tmp_path: Path) -> None:
    DatasetBuilder(scripted(), retrieve, tmp_path, progress=False).run(["How do I a?", "How do I b?"])
    llm = scripted()
    summary = DatasetBuilder(llm, retrieve, tmp_path, progress=False).run(
        ["How do I a?", "How do I b?", "How do I c?"])
    assert summary.new_items == 1 and summary.kept == 3
    assert len(llm.calls) == 5  # only the new query's five steps
    lines = (tmp_path / "items.jsonl").read_text().splitlines()
    assert sorted(json.loads(x)["key"] for x in lines) == sorted(
        query_key(q) for q in ["How do I a?", "How do I b?", "How do I c?"])


def test_other_settings_in_the_same_directory_are_refused(tmp_path: Path) -> None:
    DatasetBuilder(scripted(), retrieve, tmp_path, progress=False).run(["How do I a?"])
    with pytest.raises(BuildSpecError, match="max_documents"):
        DatasetBuilder(scripted(), retrieve, tmp_path, progress=False,
                       options=BuildOptions(max_documents=1)).run(["How do I a?"])
    summary = DatasetBuilder(scripted(), retrieve, tmp_path, progress=False, restart=True,
                             options=BuildOptions(max_documents=1)).run(["How do I a?"])
    [conv] = load_conversations(tmp_path / "dataset.jsonl")
    assert summary.kept == 1 and len(conv.documents) == 1


def test_multi_document_selection_follows_the_scores() -> None:
    hits = [SourceDocument("a", "A", "x", 1.0), SourceDocument("b", "B", "x", 0.95),
            SourceDocument("a", "A", "x", 0.9), SourceDocument("c", "C", "x", 0.5)]
    assert [d.doc_id for d in select_documents(hits, 3, 0.8)] == ["a", "b"]
    assert [d.doc_id for d in select_documents(hits, 3, 0.4)] == ["a", "b", "c"]
    assert [d.doc_id for d in select_documents(hits, 1, 0.0)] == ["a"]
    assert select_documents([], 3, 0.8) == []


def test_query_files_and_generated_queries(tmp_path: Path) -> None:
    text = tmp_path / "q.txt"
    text.write_text("# comment\nHow do I print?\n\nhow do I  print?\nHow do I scan?\n")
    assert read_queries(text) == ["How do I print?", "How do I scan?"]
    jsonl = tmp_path / "q.jsonl"
    jsonl.write_text('{"query": "How do I print?"}\n"How do I scan?"\n{"query": ""}\n')
    with pytest.raises(DatasetError, match=r"q.jsonl, line 3: field 'query'"):
        read_queries(jsonl)
    doc = Document("d/wifi.md", "Connect to a hidden network",
                   "# Connect to a hidden network\n\n## Overview\ntext\n\n## Setting up the router\n"
                   "## Why is it slow?\n")
    assert queries_from_documents([doc]) == ["How do I connect to a hidden network?",
                                             "How do I set up the router?", "Why is it slow?"]


def test_the_store_drops_a_line_cut_short_by_a_crash(tmp_path: Path) -> None:
    from inscoqa.builder import KeyedStore

    store = KeyedStore(tmp_path / "items.jsonl")
    store.append_many([{"key": "a", "n": 1}, {"key": "b", "n": 1}])
    with (tmp_path / "items.jsonl").open("ab") as fh:
        fh.write(b'{"key": "c", "n"')  # killed in the middle of a write
    assert set(store.load()) == {"a", "b"}
    store.append({"key": "a", "n": 2})
    assert store.load() == {"a": {"key": "a", "n": 2}, "b": {"key": "b", "n": 1}}
    assert (tmp_path / "items.jsonl").read_text().count("\n") == 3
