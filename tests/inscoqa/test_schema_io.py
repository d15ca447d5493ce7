"""Schema errors name file, line, record and field; loading fails whole or skips and reports."""

from __future__ import annotations

import copy
import json
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from inscoqa.bundled import corpus_index, load_sample
from inscoqa.io import DatasetError, load_conversations, save_conversations
from inscoqa.records import DOMAINS
from inscoqa.schema import conversation_schema, field_path, validate_record


def broken(record: dict[str, Any], change: Callable[[dict[str, Any]], object]) -> dict[str, Any]:
    out = copy.deepcopy(record)
    change(out)
    return out


def load_error(path: Path, **kwargs: Any) -> DatasetError:
    with pytest.raises(DatasetError) as info:
        load_conversations(path, **kwargs)
    return info.value


def test_schema_domains_match_records() -> None:
    assert tuple(conversation_schema()["properties"]["domain"]["enum"]) == DOMAINS


def test_real_records_validate(real_records: list[dict[str, Any]]) -> None:
    convs = [validate_record(r, where="x") for r in real_records]
    assert [c.to_dict() for c in convs] == real_records


def test_field_path() -> None:
    assert field_path(["history", 1, 0]) == "history[1][0]"
    assert field_path(["documents", 0, "doc_id"]) == "documents[0].doc_id"


def test_missing_field(write_jsonl: Callable[..., Path], real_records: list[dict[str, Any]]) -> None:
    path = write_jsonl([real_records[0], broken(real_records[1], lambda r: r.pop("answer"))])
    error = load_error(path)
    assert (error.file, error.line, error.field, error.record_id) == (str(path), 2, "answer", "dev-ods-002")
    assert str(error).startswith(f"{path}, line 2 (record 'dev-ods-002'): field 'answer': expected ")
    assert "the field is missing" in str(error)


def test_wrong_type(write_jsonl: Callable[..., Path], real_records: list[dict[str, Any]]) -> None:
    path = write_jsonl([broken(real_records[0], lambda r: r.update(question=["a", "list"]))])
    error = load_error(path)
    assert (error.line, error.field) == (1, "question")
    assert "expected the last-round question: a non-empty string; got an array of 2 items" in str(error)


def test_history_item_that_is_not_a_pair(write_jsonl: Callable[..., Path],
                                         real_records: list[dict[str, Any]]) -> None:
    three = broken(real_records[0], lambda r: r["history"][1].append("a third string"))
    path = write_jsonl([real_records[1], real_records[2], three])
    error = load_error(path)
    assert (error.line, error.field, error.record_id) == (3, "history[1]", "dev-ods-001")
    assert "expected a [question, answer] pair of exactly 2 strings; got an array of 3 items" in str(error)
    not_a_list = broken(real_records[0], lambda r: r["history"].__setitem__(0, "just a question"))
    error = load_error(write_jsonl([not_a_list], name="b.jsonl"))
    assert error.field == "history[0]" and "got the string" in str(error)
    wrong_member = broken(real_records[0], lambda r: r["history"][0].__setitem__(1, 42))
    error = load_error(write_jsonl([wrong_member], name="c.jsonl"))
    assert error.field == "history[0][1]" and "expected a string; got a number (42)" in str(error)


def test_unknown_domain(write_jsonl: Callable[..., Path], real_records: list[dict[str, Any]]) -> None:
    path = write_jsonl([broken(real_records[0], lambda r: r.update(domain="Cooking"))])
    error = load_error(path)
    assert error.field == "domain"
    assert "one of the 13 InsCoQA domains" in error.expected and "Health & Fitness" in error.expected
    assert 'got the string "Cooking"' in str(error)


def test_empty_procedures(write_jsonl: Callable[..., Path], real_records: list[dict[str, Any]]) -> None:
    path = write_jsonl([broken(real_records[0], lambda r: r.update(procedures=[]))])
    error = load_error(path)
    assert error.field == "procedures"
    assert "expected a non-empty array of non-empty strings" in str(error)
    blank_step = broken(real_records[0], lambda r: r["procedures"].__setitem__(2, "   "))
    error = load_error(write_jsonl([blank_step], name="b.jsonl"))
    assert error.field == "procedures[2]" and "got an empty string" in str(error)


def test_evidence_must_match_procedures(write_jsonl: Callable[..., Path],
                                        real_records: list[dict[str, Any]]) -> None:
    record = broken(real_records[0], lambda r: r.update(evidence=r["evidence"][:-1]))
    error = load_error(write_jsonl([record]))
    assert error.field == "evidence" and "one doc_id per procedure step" in error.expected


def test_document_shapes(write_jsonl: Callable[..., Path], real_records: list[dict[str, Any]]) -> None:
    inlined = broken(real_records[0], lambda r: r["documents"][0].update(text="# Doc\n\n1. Step.\n"))
    assert validate_record(inlined).documents[0].text == "# Doc\n\n1. Step.\n"
    bad_text = broken(real_records[0], lambda r: r["documents"][1].update(text=7))
    error = load_error(write_jsonl([bad_text]))
    assert error.field == "documents[1].text" and "got a number (7)" in str(error)
    extra = broken(real_records[0], lambda r: r["documents"][0].update(url="x"))
    error = load_error(write_jsonl([extra], name="b.jsonl"))
    assert error.field == "documents[0]" and "unknown field url" in str(error)


def test_doc_id_that_does_not_resolve(write_jsonl: Callable[..., Path],
                                      real_records: list[dict[str, Any]]) -> None:
    record = broken(real_records[0],
                    lambda r: r["documents"][2].update(doc_id="officedocs/Exchange/no-such-article.md"))
    path = write_jsonl([real_records[1], record])
    assert len(load_conversations(path)) == 2  # schema-valid: only the corpus check catches it
    error = load_error(path, corpus=corpus_index())
    assert (error.line, error.field, error.record_id) == (2, "documents[2].doc_id", "dev-ods-001")
    assert "a doc_id that resolves in the corpora" in error.expected
    assert "'officedocs/Exchange/no-such-article.md': no file 'Exchange/no-such-article.md'" in str(error)
    unknown_corpus = broken(real_records[0], lambda r: r["documents"][0].update(doc_id="wikihow/x"))
    error = load_error(write_jsonl([unknown_corpus], name="b.jsonl"), corpus=corpus_index())
    assert "unknown corpus 'wikihow'" in str(error)


def test_invalid_json(write_jsonl: Callable[..., Path], real_records: list[dict[str, Any]]) -> None:
    path = write_jsonl([real_records[0], '{"id": "x", "domain": "Study",', real_records[1]])
    error = load_error(path)
    assert (error.file, error.line, error.field) == (str(path), 2, None)
    assert str(error).startswith(f"{path}, line 2: expected a JSON object (one conversation); got invalid JSON")
    array = write_jsonl(['["not", "an", "object"]'], name="b.jsonl")
    assert "got an array of 3 items" in str(load_error(array))


def test_non_utf8_line(write_jsonl: Callable[..., Path], real_records: list[dict[str, Any]]) -> None:
    latin1 = json.dumps(real_records[1], ensure_ascii=False).replace("Exchange", "Exch\u00e4nge").encode("latin-1")
    path = write_jsonl([real_records[0], latin1, real_records[2]])
    error = load_error(path)
    assert (error.line, error.field) == (2, None)
    assert str(error).startswith(f"{path}, line 2: expected UTF-8 text; got the byte 0xe4 at column ")


def test_duplicate_ids(write_jsonl: Callable[..., Path], real_records: list[dict[str, Any]]) -> None:
    error = load_error(write_jsonl([real_records[0], real_records[1], real_records[0]]))
    assert (error.line, error.field) == (3, "id") and "already used on line 1" in str(error)


def test_skip_bad_returns_good_records_and_reports_every_skipped_one(
        write_jsonl: Callable[..., Path], real_records: list[dict[str, Any]],
        caplog: pytest.LogCaptureFixture) -> None:
    lines: list[Any] = [
        real_records[0],
        broken(real_records[1], lambda r: r.pop("question")),
        "{not json",
        real_records[2],
        b"\xff\xfe broken bytes",
        broken(real_records[3], lambda r: r.update(domain="Cooking")),
        real_records[4],
    ]
    path = write_jsonl(lines)
    with pytest.raises(DatasetError):
        load_conversations(path)
    with caplog.at_level(logging.WARNING, logger="inscoqa.io"):
        loaded = load_conversations(path, skip_bad=True)
    assert [c.id for c in loaded] == ["dev-ods-001", "dev-ods-003", "dev-ods-005"]
    assert [(e.line, e.field) for e in loaded.errors] == [(2, "question"), (3, None), (5, None), (6, "domain")]
    warnings = [r.getMessage() for r in caplog.records]
    assert sum("skipped bad record" in w for w in warnings) == 4
    assert any("skipped 4 bad record(s), kept 3" in w for w in warnings)


def test_json_array_files_report_lines(tmp_path: Path, real_records: list[dict[str, Any]]) -> None:
    path = tmp_path / "data.json"
    records = [real_records[0], broken(real_records[1], lambda r: r.update(history=[["only one"]]))]
    path.write_text(json.dumps(records, indent=2), encoding="utf-8")
    error = load_error(path)
    expected_line = path.read_text(encoding="utf-8").splitlines().index("  {", 2) + 1  # the second record
    assert (error.line, error.field) == (expected_line, "history[0]")
    wrapped = tmp_path / "wrapped.json"
    wrapped.write_text(json.dumps({"conversations": real_records[:2]}), encoding="utf-8")
    assert [c.id for c in load_conversations(wrapped)] == ["dev-ods-001", "dev-ods-002"]
    scalar = tmp_path / "scalar.json"
    scalar.write_text("42", encoding="utf-8")
    assert "an array of conversations" in str(load_error(scalar))


@pytest.mark.parametrize("suffix", [".jsonl", ".json"])
def test_save_and_load_round_trip(tmp_path: Path, suffix: str) -> None:
    convs = load_sample()
    convs[0].documents[0].text = "# Inlined\n\n1. A step.\n"
    path = save_conversations(convs, tmp_path / f"out{suffix}")
    assert load_conversations(path) == convs
    assert [p.name for p in tmp_path.iterdir()] == [f"out{suffix}"]  # no temp file left behind


def test_failed_save_keeps_the_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = save_conversations(load_sample("dev-officedocs")[:2], tmp_path / "keep.jsonl")
    before = path.read_bytes()

    def disk_full(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("inscoqa.io.os.fsync", disk_full)
    with pytest.raises(OSError, match="No space left"):
        save_conversations(load_sample(), path)
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["keep.jsonl"]


def test_missing_file_is_a_dataset_error(tmp_path: Path) -> None:
    error = load_error(tmp_path / "absent.jsonl")
    assert str(tmp_path / "absent.jsonl") in str(error)


def test_other_invalid_fields_of_the_record_are_named(real_records: list[dict[str, Any]]) -> None:
    record = broken(real_records[0], lambda r: r.update(domain="IT", procedures=[]))
    with pytest.raises(DatasetError) as info:
        validate_record(record, where="f.jsonl", line=9)
    assert info.value.field in ("domain", "procedures")
    assert info.value.also == [{"domain": "procedures", "procedures": "domain"}[info.value.field]]
    assert str(info.value).endswith(f"(also invalid: {info.value.also[0]})")
