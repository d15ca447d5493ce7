"""Step coverage on fixed steps."""

from __future__ import annotations

from eval.step_coverage import step_coverage


def test_a_step_covers_a_reference_step_holding_half_its_words_in_order() -> None:
    reference = ["Open Settings and select Privacy.", "Turn off Location Services for every app."]
    assert step_coverage(["Open the Settings window, then select Privacy. [1]"], reference) == 0.5
    assert step_coverage(["Select Privacy and open Settings."], reference) == 0.0  # words out of order
    assert step_coverage(["Open Settings and select Privacy.", "Turn off Location Services."], reference) == 1.0
    assert step_coverage([], reference) == 0.0
    assert step_coverage(["Open Settings."], []) == 0.0
