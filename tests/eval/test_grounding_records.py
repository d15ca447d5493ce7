"""Step groundings in the bench's sample records (format 3) and the grounded-step rate in the
report; records of earlier formats load with no groundings."""

from __future__ import annotations

import json

import pytest

from eval.bench.records import (
    RECORD_FORMAT,
    GroundingRecord,
    RecordFormatError,
    SampleRecord,
    read_samples,
)
from eval.report import grounded_cell, grounding_summary
from procmem.grounding import ground_steps

PAGE = "Open the print dialog by pressing Ctrl+P.\nClick the Page Setup tab.\n"
STEPS = ["Open the print dialog by pressing Ctrl+P.", "Bake the bread for an hour."]


def record(sample_id: str, procedures: list[str], **values: object) -> SampleRecord:
    return SampleRecord(sample_id=sample_id, system="s", domain="d", status="answer_failed",
                        answer="a", procedures=procedures, **values)  # type: ignore[arg-type]


def grounded_record(sample_id: str = "c1") -> SampleRecord:
    groundings = ground_steps(STEPS, PAGE, source_id="doc.page")
    return record(sample_id, STEPS, groundings=[GroundingRecord.of(g) if g else None
                                                 for g in groundings])


def test_groundings_round_trip_through_a_json_line() -> None:
    original = grounded_record()
    first, second = original.groundings or []
    assert second is None and first is not None
    assert (first.unit, first.snippet, first.by, first.score) == ("doc.page", STEPS[0], "rouge", 1.0)
    data = json.loads(json.dumps(original.to_dict()))
    assert data["format"] == RECORD_FORMAT == 3
    assert data["groundings"][1] is None and data["groundings"][0]["snippet"] == STEPS[0]
    again = SampleRecord.from_dict(data)
    assert again == original and again.grounded_steps == 1


@pytest.mark.parametrize("version", [None, 2])
def test_records_of_earlier_formats_load_without_groundings(version: int | None) -> None:
    data = {k: v for k, v in grounded_record().to_dict().items()
            if k not in ("groundings", "format")}
    if version is not None:
        data["format"] = version
    (old,) = read_samples([data], "runs/x/results.jsonl")
    assert old.groundings is None and old.grounded_steps is None and old.format == (version or 1)


def test_a_malformed_grounding_fails_naming_the_file() -> None:
    data = {**grounded_record().to_dict(), "groundings": [{"snippet": "x"}]}
    with pytest.raises(RecordFormatError, match="runs/x/results.jsonl.*groundings"):
        read_samples([data], "runs/x/results.jsonl")


def test_the_rate_counts_steps_of_the_answers_that_recorded_groundings() -> None:
    old = record("c2", ["Step one.", "Step two.", "Step three."])  # format 2: not recorded
    none_grounded = record("c3", ["Bake.", "Wait."], groundings=[None, None])
    summary = grounding_summary([grounded_record(), old, none_grounded])
    assert summary == {"samples": 2, "steps": 4, "grounded": 1, "rate": 0.25}
    assert grounded_cell(summary) == "25% (1/4)"
    assert grounding_summary([old]) == {"samples": 0, "steps": 0, "grounded": 0, "rate": None}
    assert grounded_cell(grounding_summary([old])) == "–"
