"""Answering from a memory held in Qdrant (the client's local mode): ``inscoqa bench --setting
memory --store`` and ``inscoqa answer --store`` search the memory's collection, not the
built-in index; the store's identity keys the runs; a store that is unreachable, lacks the
collection or is out of date is refused in one line."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("qdrant_client")


from support.bench_doubles import server_reply  # noqa: E402

from inscoqa.bundled import conversation_files, resolve_dataset  # noqa: E402
from inscoqa.cli import main  # noqa: E402
from procmem.retrieval.index import SearchIndex  # noqa: E402
from procmem.stores.qdrant import QdrantStore  # noqa: E402
from serving.fake_server import FakeLLMServer  # noqa: E402

# tests with the stored memory are slow: the real embedding model builds it and encodes queries
CONVERSATIONS = 2


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path | str]:
    """Two bundled conversations (a .jsonl file), a memory over their documents and its
    collection in a local Qdrant directory, built by ``memory build --store``."""
    root = tmp_path_factory.mktemp("qdrant-readers")
    data = root / "conversations.jsonl"
    lines = conversation_files()["dev-gnome-cooking"].read_text(encoding="utf-8").splitlines()
    data.write_text("\n".join(lines[:CONVERSATIONS]) + "\n", encoding="utf-8")
    store = f"qdrant-local:{root / 'qdrant'}"
    assert main(["memory", "build", "--dataset", str(data), "--out", str(root / "mem"),
                 "--store", store, "--json"]) == 0
    return {"data": data, "memory": root / "mem", "store": store, "root": root}


class Searches:
    """What the Qdrant store and the built-in index were asked while a command ran."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.store_ids: set[str] = set()
        self.store_calls = 0
        self.built_in_calls = 0
        store_search, index_search = QdrantStore.search, SearchIndex.search

        def spy_store(store: QdrantStore, *args: Any, **kwargs: Any) -> Any:
            found = store_search(store, *args, **kwargs)
            self.store_calls += 1
            self.store_ids.update(unit_id for unit_id, _ in found)
            return found

        def spy_index(index: SearchIndex, *args: Any, **kwargs: Any) -> Any:
            self.built_in_calls += 1
            return index_search(index, *args, **kwargs)

        monkeypatch.setattr(QdrantStore, "search", spy_store)
        monkeypatch.setattr(SearchIndex, "search", spy_index)


@pytest.fixture
def searches(monkeypatch: pytest.MonkeyPatch) -> Searches:
    return Searches(monkeypatch)


@pytest.fixture
def judge() -> Iterator[FakeLLMServer]:
    with FakeLLMServer(default=server_reply) as server:
        yield server


def bench(stored: dict[str, Any], judge: FakeLLMServer, *extra: str) -> list[str]:
    return ["bench", "--systems", "extractive", "--setting", "memory",
            "--memory", str(stored["memory"]), "--data", str(stored["data"]),
            "--base-url", judge.base_url, "--model", "fake-judge",
            "--out", str(stored["root"] / "runs"), "--no-plots", "--json", *extra]


def records(summary: dict[str, Any]) -> list[dict[str, Any]]:
    run_dir = Path(summary["meta"]["systems"]["extractive"]["dir"])
    return [json.loads(line) for line in
            (run_dir / "results.jsonl").read_text(encoding="utf-8").splitlines() if line.strip()]


@pytest.mark.slow
def test_bench_memory_setting_answers_from_the_store(stored: dict[str, Any], judge: FakeLLMServer,
                                                     searches: Searches, clean_env: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    assert main(bench(stored, judge, "--store", str(stored["store"]))) == 0
    summary = json.loads(capsys.readouterr().out)
    done = records(summary)
    assert len(done) == CONVERSATIONS and all(r.get("error") is None for r in done)
    # every answer's units came from the Qdrant collection; the built-in index was not searched
    assert searches.store_calls >= CONVERSATIONS and searches.built_in_calls == 0
    sources = {s["unit_id"] for r in done for s in r["sources"]}
    assert sources and sources <= searches.store_ids
    run = json.loads((Path(summary["meta"]["systems"]["extractive"]["dir"]) / "run.json")
                     .read_text(encoding="utf-8"))
    identity = run["spec"]["store"]
    assert identity["store"] == f"qdrant-local:{Path(str(stored['store']).split(':', 1)[1])}"
    assert identity["collection"].startswith("inscoqa-mem-") and len(identity["fingerprint"]) == 16

    # the same memory without the store is another run (its own key), answered by the index
    assert main(bench(stored, judge)) == 0
    built_in = json.loads(capsys.readouterr().out)
    assert (built_in["meta"]["systems"]["extractive"]["run_key"]
            != summary["meta"]["systems"]["extractive"]["run_key"])
    assert searches.built_in_calls > 0


@pytest.mark.slow
def test_answer_reads_the_store(stored: dict[str, Any], searches: Searches, clean_env: Path,
                                capsys: pytest.CaptureFixture[str]) -> None:
    question = resolve_dataset(str(stored["data"]))[0].question
    assert main(["answer", "--memory", str(stored["memory"]), "--store", str(stored["store"]),
                 question, "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    sources = {s["unit_id"] for s in answer["sources"]}
    assert sources and sources <= searches.store_ids
    assert searches.built_in_calls == 0


@pytest.mark.slow
def test_an_unreachable_store_is_one_line(stored: dict[str, Any], judge: FakeLLMServer,
                                          clean_env: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    down = "qdrant://127.0.0.1:1"
    assert main(bench(stored, judge, "--store", down)) == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "cannot reach Qdrant at qdrant://127.0.0.1:1" in err
    assert judge.request_count == 0
    with pytest.raises(SystemExit) as info:
        main(["answer", "--memory", str(stored["memory"]), "--store", down, "a question"])
    assert "cannot reach Qdrant" in str(info.value) and "\n" not in str(info.value)


@pytest.mark.slow
def test_a_missing_or_stale_collection_is_refused(stored: dict[str, Any], judge: FakeLLMServer,
                                                  clean_env: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    empty = f"qdrant-local:{clean_env / 'elsewhere'}"
    assert main(bench(stored, judge, "--store", empty)) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "memory build" in err
    # a collection that lost a unit the memory serves: out of date, rebuilt by memory build
    from procmem.memory import Memory
    from procmem.stores import open_memory_store

    memory = Memory.load(stored["memory"])
    searched = open_memory_store(memory, str(stored["store"]))
    unit = memory.units()[0]
    searched.store.remove_document(unit.meta["doc_id"])
    searched.close()
    assert main(bench(stored, judge, "--store", str(stored["store"]))) == 2
    assert "out of date" in capsys.readouterr().err
    assert main(["memory", "build", "--dataset", str(stored["data"]), "--out",
                 str(stored["memory"]), "--store", str(stored["store"]), "--json"]) == 0
    capsys.readouterr()
    open_memory_store(memory, str(stored["store"])).close()  # whole again
    assert judge.request_count == 0


@pytest.mark.parametrize(("extra", "message"), [
    (["--store", "qdrant-local:q"], "--store applies to --setting memory"),
    (["--setting", "memory", "--store", "qdrant-local:q", "--ray"], "qdrant://HOST:PORT"),
])
def test_store_options_that_cannot_work_are_refused(extra: list[str], message: str,
                                                    clean_env: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--systems", "extractive", "--limit", "1", *extra]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and message in err
    assert not (clean_env / "q").exists()
