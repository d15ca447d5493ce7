"""What ``inscoqa answer`` prints of an answer's groundings, and the answer's JSON form."""

from __future__ import annotations

from inscoqa.cli.answer import format_answer
from procmem.answerers.base import Answer, Source
from procmem.grounding import StepGrounding

SNIPPET = "Open the print dialog by pressing Ctrl+P."


def grounded_answer() -> Answer:
    return Answer("Print both sides.", [f"{SNIPPET} [1]", "Sing to the printer."],
                  [Source("printing-2sided.page", "Print on both sides", SNIPPET, "u-1", 0.9)],
                  groundings=[StepGrounding(0, "u-1", SNIPPET, 10, 51, "rouge", 1.0, 1.0, 0.02),
                              None])


def test_ungrounded_steps_are_marked_and_counted() -> None:
    lines = format_answer(grounded_answer()).splitlines()
    start = lines.index("Procedural instructions:")
    assert lines[start + 1: start + 4] == [
        f"1. {SNIPPET} [1]", "2. Sing to the printer. (not found in the sources)",
        "(1/2 steps grounded in the sources)"]


def test_unchecked_steps_carry_no_mark() -> None:
    answer = grounded_answer()
    answer.groundings = None
    out = format_answer(answer)
    assert "not found" not in out and "grounded" not in out


def test_the_json_form_has_one_grounding_per_step() -> None:
    data = grounded_answer().to_dict()
    assert data["groundings"][1] is None
    assert data["groundings"][0] == {"step": 0, "unit": "u-1", "snippet": SNIPPET, "start": 10,
                                     "end": 51, "by": "rouge", "score": 1.0, "rouge": 1.0,
                                     "distance": 0.02}
