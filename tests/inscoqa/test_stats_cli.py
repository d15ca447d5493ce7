"""Statistics and the ``inscoqa data`` commands, run through ``inscoqa.cli.main``."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from statistics import fmean
from typing import Any

import pytest

from inscoqa.bundled import corpus_index, load_sample
from inscoqa.cli import main
from inscoqa.hf import save_to_disk
from inscoqa.records import Conversation, DocRef
from inscoqa.stats import compute_stats, format_stats


def test_stats_measure_the_conversations() -> None:
    convs = load_sample()
    stats = compute_stats(convs, corpus_index())
    overall = stats.overall
    assert overall.conversations == 60
    assert overall.documents_per_conversation.mean == round(fmean(len(c.documents) for c in convs), 2)
    assert overall.rounds.min == min(len(c.history) + 1 for c in convs)
    assert overall.steps_per_procedure.max == max(len(c.procedures) for c in convs)
    assert overall.answer_words.max == max(len(c.answer.split()) for c in convs)
    first_words = sum(corpus_index().get(r.doc_id).n_words for r in convs[0].documents)
    assert overall.document_words_per_conversation.min <= first_words
    assert stats.unique_documents == len({r.doc_id for c in convs for r in c.documents})
    assert sum(g.conversations for g in stats.domains.values()) == 60
    gourmet = [c for c in convs if c.domain == "Gourmet"]
    assert stats.domains["Gourmet"].steps_per_procedure.mean == round(fmean(len(c.procedures) for c in gourmet), 2)


def test_stats_without_corpus_use_inlined_texts_only() -> None:
    conv = Conversation("c", "Study", [DocRef("x/a.md", "A", text="one two three")], [("q", "a")],
                        "question here", "answer words four", ["step"])
    stats = compute_stats([conv])
    assert stats.overall.document_words_per_conversation.mean == 3
    assert stats.overall.rounds.mean == 2
    referenced = Conversation("d", "Study", [DocRef("x/b.md", "B")], [], "q", "a", ["s"])
    assert compute_stats([conv, referenced]).overall.document_words_per_conversation.mean is None
    assert "Study" in format_stats(compute_stats([conv]))


def test_cli_validate_bundled_sample(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["data", "validate", "sample"]) == 0
    out = capsys.readouterr().out
    assert "dev-officedocs.jsonl: 30 records: 30 valid; 98 distinct documents resolve" in out
    assert "OK: all 60 conversations are valid" in out


def test_cli_validate_lists_every_error(write_jsonl: Callable[..., Path], real_records: list[dict[str, Any]],
                                        capsys: pytest.CaptureFixture[str]) -> None:
    unresolved = copy.deepcopy(real_records[2])
    unresolved["documents"][0]["doc_id"] = "gnome-help/does-not-exist.page"
    no_answer = copy.deepcopy(real_records[1])
    del no_answer["answer"]
    path = write_jsonl([real_records[0], no_answer, "{oops", unresolved])
    assert main(["data", "validate", str(path)]) == 1
    out = capsys.readouterr().out
    assert "4 records: 1 valid, 3 INVALID" in out
    assert f"{path}, line 2 (record 'dev-ods-002'): field 'answer'" in out
    assert f"{path}, line 3: expected a JSON object" in out
    assert f"{path}, line 4 (record 'dev-ods-003'): field 'documents[0].doc_id'" in out
    assert "FAILED: 3 invalid records in 1 file" in out

    assert main(["data", "validate", str(path), "--skip-bad"]) == 0
    assert "OK with skipped records: 1 valid, 3 skipped" in capsys.readouterr().out

    assert main(["data", "validate", str(path), "--no-resolve", "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert (report["ok"], report["valid"], report["invalid"]) == (False, 2, 2)
    assert [e["line"] for e in report["files"][0]["errors"]] == [2, 3]
    assert report["files"][0]["errors"][0]["field"] == "answer"


def test_cli_validate_other_corpus_dir(write_jsonl: Callable[..., Path], real_records: list[dict[str, Any]],
                                       tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = copy.deepcopy(real_records[0])
    record["documents"] = [{"doc_id": "mine/howto.md", "title": "How to"}]
    del record["evidence"]
    path = write_jsonl([record])
    assert main(["data", "validate", str(path)]) == 1
    assert "unknown corpus 'mine'" in capsys.readouterr().out
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "howto.md").write_text("# How to\n\n1. Do it.\n", encoding="utf-8")
    assert main(["data", "validate", str(path), "--corpus", f"mine={tmp_path / 'mine'}"]) == 0


def test_cli_validate_saved_datasets_dir(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("datasets")
    target = save_to_disk({"test": load_sample("dev-gnome-cooking")}, tmp_path / "hfdir")
    assert main(["data", "validate", f"hf:{target}", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["valid"] == 30 and report["ok"] is True


def test_cli_validate_missing_path(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["data", "validate", "no/such/file.jsonl"]) == 2
    assert "no such dataset 'no/such/file.jsonl'" in capsys.readouterr().err


def test_cli_stats_table_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["data", "stats", "sample"]) == 0
    table = capsys.readouterr().out
    assert table.startswith("sample: 60 conversations, 193 distinct documents")
    for label in ("Documents per conversation", "Document words per conversation",
                  "Rounds (history + last)", "Steps per procedure", "Words per answer",
                  "Per domain", "Technology", "Gourmet"):
        assert label in table
    assert main(["data", "stats", "dev-officedocs", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    convs = load_sample("dev-officedocs")
    assert data["overall"]["conversations"] == 30
    assert data["overall"]["steps_per_procedure"]["max"] == max(len(c.procedures) for c in convs)
    assert set(data["domains"]) == {c.domain for c in convs}


def test_cli_stats_unknown_dataset(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["data", "stats", "dev-nothing"]) == 2
    assert "cannot load dataset 'dev-nothing'" in capsys.readouterr().err
