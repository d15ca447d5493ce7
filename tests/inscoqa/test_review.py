"""The human check: verdicts saved as given, sheets for reviewers elsewhere, and the import that
reports acceptance and agreement and writes only accepted (or edited) samples."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from inscoqa.bundled import load_sample
from inscoqa.cli import main
from inscoqa.io import load_conversations, save_conversations
from inscoqa.review import (
    ReviewSession,
    Verdict,
    VerdictError,
    VerdictStore,
    cohen_kappa,
    combine,
    parse_steps,
)
from inscoqa.schema import DatasetError


@pytest.fixture
def dataset(tmp_path: Path) -> Path:
    convs = load_sample("dev-officedocs")[:5]
    return save_conversations(convs, tmp_path / "built" / "dataset.jsonl")


def test_a_session_records_each_verdict_at_once_and_resumes(dataset: Path) -> None:
    session = ReviewSession(dataset, "ana")
    convs = session.convs
    assert session.first_open() == 0
    session.decide(0, "accept")
    with pytest.raises(VerdictError, match="reason"):
        session.decide(1, "reject")
    session.decide(1, "reject", reason="the history is not informative")
    session.decide(2, "edit", answer="A better answer.", steps="1. First.\n\n2) Second.\n- Third.")
    # an edit that changes nothing is an accept
    session.decide(3, "edit", answer=convs[3].answer, steps="\n".join(convs[3].procedures))
    # a new session (a reloaded page) sees every verdict and starts at the open sample
    again = ReviewSession(dataset, "ana")
    verdicts = again.verdicts()
    assert [verdicts[c.id].decision for c in convs[:4]] == ["accept", "reject", "edit", "accept"]
    assert verdicts[convs[2].id].procedures == ["First.", "Second.", "Third."]
    assert verdicts[convs[1].id].reason == "the history is not informative"
    assert again.first_open() == 4
    view = again.view(4)
    assert view.reviewed == 4 and view.counts == {"accept": 2, "edit": 1, "reject": 1}
    # changing one's mind replaces the verdict (one line more, one verdict per sample)
    again.decide(1, "accept")
    assert ReviewSession(dataset, "ana").verdicts()[convs[1].id].decision == "accept"
    assert (dataset.parent / "dataset.review" / "ana.jsonl").exists()


def test_reviewer_names_and_verdicts_are_checked() -> None:
    with pytest.raises(VerdictError, match="reviewer"):
        Verdict("s1", "../etc", "accept")
    with pytest.raises(VerdictError, match="decision"):
        Verdict("s1", "ana", "maybe")  # type: ignore[arg-type]
    with pytest.raises(VerdictError, match="procedures"):
        Verdict("s1", "ana", "edit", answer="x", procedures=[" "])
    assert parse_steps("1. a\n2) b\n\n* c\nd") == ["a", "b", "c", "d"]


def test_combining_two_reviewers(dataset: Path) -> None:
    convs = list(load_conversations(dataset))
    a, b, c, d, e = (conv.id for conv in convs)
    store = VerdictStore(dataset)
    store.save_many([
        Verdict(a, "ana", "accept"), Verdict(a, "bo", "accept"),
        Verdict(b, "ana", "reject", reason="vague"), Verdict(b, "bo", "reject", reason="off topic"),
        Verdict(c, "ana", "edit", answer="Edited.", procedures=["One.", "Two."]),
        Verdict(c, "bo", "accept"),
        Verdict(d, "ana", "accept"), Verdict(d, "bo", "reject", reason="wrong steps"),
    ])
    kept, report = combine(convs, store.all())
    assert [k.id for k in kept] == [a, c]  # d is tied, e not reviewed
    assert kept[1].answer == "Edited." and kept[1].procedures == ["One.", "Two."]
    assert kept[1].meta["review"] == {"edited_by": "ana"}
    assert (report.reviewed, report.unreviewed, report.kept, report.edited, report.rejected,
            report.tied) == (4, 1, 2, 1, 1, 1)
    assert report.acceptance_rate == 0.5
    assert report.agreement == 0.75
    [pair] = report.pairs
    assert (pair.a, pair.b, pair.samples) == ("ana", "bo", 4)
    # ana keeps 3 of 4, bo keeps 2 of 4, they agree on 3: kappa = (0.75 - 0.5) / 0.5
    assert pair.kappa == cohen_kappa([True, False, True, True], [True, False, True, False]) == 0.5
    assert report.reviewers["ana"] == {"reviewed": 4, "accepted": 2, "edited": 1, "rejected": 1,
                                       "acceptance_rate": 0.75}


def test_export_fill_and_import_two_reviewers_sheets(dataset: Path, tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    convs = list(load_conversations(dataset))
    # ana reviews in the page (the store), bo fills a CSV sheet and carl a JSONL one
    session = ReviewSession(dataset, "ana")
    for i in range(5):
        session.decide(i, "accept" if i != 4 else "reject", reason="no steps" if i == 4 else "")
    sheet = tmp_path / "bo.csv"
    assert main(["data", "review-export", str(dataset), "--out", str(sheet),
                 "--reviewer", "bo"]) == 0
    assert "5 samples to review" in capsys.readouterr().out
    rows = list(csv.DictReader(sheet.open(encoding="utf-8")))
    assert [r["sample_id"] for r in rows] == [c.id for c in convs]
    assert rows[0]["question"] == convs[0].question and rows[0]["reviewer"] == "bo"
    assert rows[0]["procedures"].startswith("1. ")
    rows[0].update(decision="accept")
    rows[1].update(decision="edit", edited_answer="Shorter answer.",
                   edited_procedures="Open the file.\nSave it.")
    rows[2].update(decision="reject", reason="the last question repeats the history")
    rows[3].update(decision="")  # not reviewed by bo
    rows[4].update(decision="reject", reason="no steps")
    with sheet.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    final = tmp_path / "final.jsonl"
    assert main(["data", "review-import", str(dataset), str(sheet), "--out", str(final),
                 "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["imported"] == 4
    assert report["reviewed"] == 5 and report["kept"] == 3 and report["rejected"] == 1
    assert report["tied"] == 1  # sample 3: ana accepted, bo rejected
    [pair] = report["pairs"]
    assert pair["samples"] == 4 and pair["agreement"] == 0.75
    kept = load_conversations(final)
    assert [k.id for k in kept] == [convs[0].id, convs[1].id, convs[3].id]
    assert kept[1].answer == "Shorter answer." and kept[1].procedures == ["Open the file.", "Save it."]
    # the text report, and a bad sheet named by file, row and column
    assert main(["data", "review-import", str(dataset), "--out", str(final)]) == 0
    out = capsys.readouterr().out
    assert "acceptance rate 60.0%" in out and "ana vs bo: 4 samples, 75.0% agree" in out
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({"sample_id": convs[0].id, "decision": "reject",
                               "reviewer": "carl"}) + "\n")
    assert main(["data", "review-import", str(dataset), str(bad), "--out", str(final)]) == 2
    err = capsys.readouterr().err
    assert "bad.jsonl, line 1" in err and "field 'reason'" in err and err.count("\n") == 1


def test_a_sheet_row_for_an_unknown_sample_is_refused(dataset: Path, tmp_path: Path) -> None:
    from inscoqa.review import read_sheet

    sheet = tmp_path / "s.jsonl"
    sheet.write_text(json.dumps({"sample_id": "nope", "decision": "accept", "reviewer": "x"}) + "\n")
    with pytest.raises(DatasetError, match="field 'sample_id'"):
        read_sheet(sheet, list(load_conversations(dataset)))


def test_import_without_any_verdict_says_so(dataset: Path, tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["data", "review-import", str(dataset), "--out", str(tmp_path / "f.jsonl")]) == 1
    assert "no verdict on any sample yet" in capsys.readouterr().err


def test_review_refuses_a_bad_file_or_name_in_one_line(dataset: Path, tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["data", "review", str(tmp_path / "missing.jsonl"), "--reviewer", "ana"]) == 2
    err = capsys.readouterr().err
    assert "missing.jsonl" in err and err.count("\n") == 1
    assert main(["data", "review", str(dataset), "--reviewer", "a b"]) == 2
    assert "reviewer: expected a name" in capsys.readouterr().err
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    with pytest.raises(ValueError, match="no conversation to review"):
        ReviewSession(empty, "ana")
