"""``inscoqa data build`` end to end: a real memory (real embeddings) and a local
OpenAI-compatible server — the real client's re-asks, a killed build that resumes — and (slow)
the embedded engine over a few bundled documents."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from inscoqa.builder import query_key
from inscoqa.cli import main
from inscoqa.io import load_conversations
from serving.fake_server import FakeLLMServer, reply

ROOT = Path(__file__).resolve().parents[2]
MEMORY_DOCS = ["gnome-help/net-wireless-connect.page", "gnome-help/net-wireless-hidden.page",
               "gnome-help/printing-setup.page", "based-cooking/banana-bread.md"]
QUERIES = ["How do I connect to a wireless network?", "How do I connect to a hidden network?",
           "How do I set up a printer?", "How do I bake banana bread?",
           "Which laptop is the best one?", "How do I add a printer that is not found?"]


def prompt_of(body: dict[str, Any]) -> str:
    return "\n".join(str(m.get("content", "")) for m in body.get("messages", []))


def good_reply(body: dict[str, Any]) -> str:
    """A valid reply for every step; the query about laptops is filtered out."""
    prompt = prompt_of(body)
    if "Judge the question on four criteria" in prompt:
        keep = "yes" if "laptop" not in prompt else "no"
        return json.dumps({"complete_and_clear": "yes", "objective": keep,
                           "time_independent": "yes", "instructional": "yes"})
    if "Write the conversation that leads up" in prompt:
        return json.dumps({"history": [["I use GNOME.", "Then the steps below apply."]],
                           "question": "What do I do first?"})
    if "Answer the last question in plain text" in prompt:
        return json.dumps({"answer": "Open the menu, pick the item and confirm."})
    if "Answer each condition" in prompt:
        return json.dumps({"informative_history": "yes", "genuine_question": "yes",
                           "objective_answer": "yes", "can_be_steps": "yes", "reason": "fine"})
    if "Summarise the answer as numbered" in prompt:
        return json.dumps({"steps": ["Open the menu.", "Pick the item.", "Confirm."]})
    raise AssertionError(prompt[:300])


@pytest.fixture(scope="module")
def memory_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from inscoqa.bundled import corpus_index
    from procmem.memory import build_memory

    index = corpus_index()
    memory = build_memory([index.get(d) for d in MEMORY_DOCS], kinds=["document"], progress=False)
    return memory.save(tmp_path_factory.mktemp("build-memory") / "memory")


@pytest.fixture
def server() -> Iterator[FakeLLMServer]:
    with FakeLLMServer(default=good_reply) as s:
        yield s


@pytest.fixture
def queries(tmp_path: Path) -> Path:
    path = tmp_path / "queries.txt"
    path.write_text("\n".join(QUERIES) + "\n")
    return path


def build_args(memory: Path, queries: Path, out: Path, server: FakeLLMServer) -> list[str]:
    return ["data", "build", "--memory", str(memory), "--queries", str(queries), "--out", str(out),
            "--base-url", server.base_url, "--no-progress"]


def test_build_keeps_filters_and_reports(clean_env: Path, memory_dir: Path, queries: Path,
                                         server: FakeLLMServer,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    out = clean_env / "built"
    assert main([*build_args(memory_dir, queries, out, server), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["queries"] == 6 and summary["kept"] == 5
    assert summary["rejected"] == {"filter": 1} and summary["failed"] == {}
    convs = load_conversations(out / "dataset.jsonl")
    assert len(convs) == 5
    # the real retrieval found the documents each query is about
    by_query = {c.meta["query"]: c for c in convs}
    assert by_query["How do I bake banana bread?"].documents[0].doc_id == \
        "based-cooking/banana-bread.md"
    assert by_query["How do I connect to a hidden network?"].documents[0].doc_id.startswith(
        "gnome-help/net-wireless")
    assert all(1 <= len(c.documents) <= 3 for c in convs)
    # the same command again: nothing to do, no model call
    before = server.request_count
    assert main(build_args(memory_dir, queries, out, server)) == 0
    assert server.request_count == before
    assert "6 queries: 5 kept, 1 rejected (filter 1), 0 failed" in capsys.readouterr().out
    # the result has Table 1 statistics
    assert main(["data", "stats", str(out / "dataset.jsonl"), "--json"]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert stats["overall"]["conversations"] == 5
    assert stats["overall"]["rounds"]["mean"] == 2.0
    assert stats["overall"]["steps_per_procedure"]["mean"] == 3.0


def test_invalid_json_is_reasked_then_recorded(clean_env: Path, memory_dir: Path, tmp_path: Path,
                                               server: FakeLLMServer,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    """The client re-asks an invalid reply (twice by default); a valid one on a re-ask is kept,
    three invalid ones make the item a recorded failure with the raw reply."""
    one = tmp_path / "one.txt"
    one.write_text("How do I connect to a wireless network?\n")
    out = clean_env / "reask"
    bad = reply("{this is not json")
    # filter: invalid, then valid on the re-ask -> the item goes on and is kept
    server.script(bad, reply(good_reply({"messages": [{"content": "Judge the question on four criteria"}]})))
    assert main(build_args(memory_dir, one, out, server)) == 0
    assert "1 kept" in capsys.readouterr().out
    assert server.request_count == 6  # five steps + one re-ask
    # a second query whose generate step stays invalid through every ask
    two = tmp_path / "two.txt"
    two.write_text("How do I set up a printer?\n")
    server.reset()
    server.always(lambda body: "{this is not json" if "Write the conversation" in prompt_of(body)
                  else good_reply(body))
    assert main(build_args(memory_dir, two, clean_env / "reask2", server)) == 0
    assert "1 failed (generate 1)" in capsys.readouterr().out
    generate_calls = [b for b in server.requests if "Write the conversation" in prompt_of(b)]
    assert len(generate_calls) == 3  # asked, then re-asked twice with the errors
    [item] = [json.loads(x) for x in (clean_env / "reask2" / "rejected.jsonl").read_text().splitlines()]
    assert item["status"] == "failed" and item["step"] == "generate"
    assert item["reason"].startswith("invalid reply") and item["transient"] is False


def test_a_killed_build_resumes_without_loss_or_duplicates(clean_env: Path, memory_dir: Path,
                                                           queries: Path) -> None:
    out = clean_env / "killed"
    with FakeLLMServer(default=good_reply, latency_s=0.25) as slow:
        argv = [sys.executable, "-m", "inscoqa", *build_args(memory_dir, queries, out, slow),
                "--concurrency", "1"]
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        proc = subprocess.Popen(argv, cwd=clean_env, env=env, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT)
        items = out / "items.jsonl"
        deadline = time.monotonic() + 240
        while not (items.exists() and len(items.read_text().splitlines()) >= 2):
            assert proc.poll() is None, proc.stdout.read().decode() if proc.stdout else ""
            assert time.monotonic() < deadline, "the build wrote no item in time"
            time.sleep(0.1)
        time.sleep(0.3)  # kill it in the middle of the next item
        proc.send_signal(signal.SIGKILL)
        proc.wait(30)
        done_before = {json.loads(x)["key"] for x in items.read_text().splitlines() if x.strip()}
        assert 2 <= len(done_before) < len(QUERIES)
        slow.reset()
        assert main(build_args(memory_dir, queries, out, slow)) == 0
        # only the unfinished items were asked for (an interrupted one may hit the cache)
        assert slow.request_count <= 5 * (len(QUERIES) - len(done_before))
    keys = Counter(json.loads(x)["key"] for x in items.read_text().splitlines() if x.strip())
    assert set(keys) == {query_key(q) for q in QUERIES}
    assert all(n == 1 for n in keys.values()), keys  # no item was written twice
    kept = load_conversations(out / "dataset.jsonl")
    assert len(kept) == 5 and len({c.id for c in kept}) == 5
    assert len((out / "rejected.jsonl").read_text().splitlines()) == 1


def test_bad_input_is_one_line_and_non_zero(clean_env: Path, memory_dir: Path, tmp_path: Path,
                                            server: FakeLLMServer,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"query": "How do I print?"}\n{"q": 1}\n')
    assert main(build_args(memory_dir, bad, clean_env / "x", server)) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "bad.jsonl, line 2: field 'query'" in err
    assert main(["data", "build", "--docs", str(tmp_path / "missing"), "--out",
                 str(clean_env / "y"), "--base-url", server.base_url]) == 2
    assert "not a directory" in capsys.readouterr().err


@pytest.mark.slow
def test_build_with_the_embedded_engine(clean_env: Path, tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    """The real model over a folder of bundled documents with generated queries: with a 135M
    model most items are rejected; the bookkeeping must add up and every kept record be valid."""
    from inscoqa.bundled import corpus_index

    docs = tmp_path / "docs"
    docs.mkdir()
    index = corpus_index()
    for doc_id in MEMORY_DOCS[:3]:
        target = docs / doc_id.split("/", 1)[1]
        target.write_bytes(index.path(doc_id).read_bytes())
    out = clean_env / "real"
    # without the filter (the small model rejects most queries there), so that the later steps
    # run on the real model too
    argv = ["data", "build", "--docs", str(docs), "--out", str(out), "--limit", "2",
            "--no-filter", "--no-progress", "--json", "--max-tokens", "256"]
    assert main(argv) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["queries"] == 2 and summary["left"] == 0
    assert summary["kept"] + sum(summary["rejected"].values()) + sum(summary["failed"].values()) == 2
    items = [json.loads(x) for x in (out / "items.jsonl").read_text().splitlines()]
    assert len(items) == 2 and all(i["status"] in ("kept", "rejected", "failed") for i in items)
    assert all(i["documents"] for i in items)  # every query reached retrieval and beyond
    assert all(i["step"] != "filter" for i in items)
    assert all(i["reason"] for i in items if i["status"] != "kept")
    kept = load_conversations(out / "dataset.jsonl")  # validated on load
    assert len(kept) == summary["kept"]
    assert (out / "memory").is_dir()
    # resumed: nothing left to do
    assert main(argv) == 0
    assert json.loads(capsys.readouterr().out)["new_items"] == 0


def test_retrieval_from_a_memory_without_whole_documents() -> None:
    """A memory of chunks only still gives one scored source per document, best first."""
    from inscoqa.bundled import corpus_index
    from inscoqa.cli.data import memory_documents, memory_retriever
    from procmem.memory import build_memory

    index = corpus_index()
    memory = build_memory([index.get(d) for d in MEMORY_DOCS], kinds=["chunk"], progress=False)
    hits = memory_retriever(memory, "dense")("How do I bake banana bread?", 3)
    assert hits[0].doc_id == "based-cooking/banana-bread.md"
    assert len({h.doc_id for h in hits}) == len(hits) <= 3
    assert hits == sorted(hits, key=lambda h: -h.score) and hits[0].text
    # the documents' titles are known for generated queries even without their texts
    assert {d.doc_id for d in memory_documents(memory)} == set(MEMORY_DOCS)
