"""A section that its page sends the reader to for what the question asks ("The number of
workspaces can be changed: see Adding Workspaces.") answers it, before the overview that sent
the reader there (memory built with ``inscoqa memory build --path``: the real reader, units,
embedding model and search)."""

from __future__ import annotations

from pathlib import Path

import pytest

from procmem.answerers import AnswerRequest, make_answerer
from procmem.answerers.candidates import Candidate
from procmem.answerers.gathering import mark_pointed_to
from procmem.answerers.retrieval import Hit
from procmem.answerers.turn import Turn
from tests.procmem.answerers.conftest import memory_from_files, step_unit

DESKTOP = """\
# Desktop Overview

## Workspaces

Workspaces keep groups of windows apart. Think of them as virtual screens that you can move
between whenever you like: each one shows the same desktop and panels, but its own windows.

By default there are four workspaces, shown as a row of small rectangles in the workspace
switcher at the right of the bottom panel. Click one to move to that workspace.

A workspace can hold any number of windows. The number of workspaces can be changed: see
Adding Workspaces.

## Switching Between Workspaces

- Click the workspace you want in the workspace switcher.
- Press Ctrl+Alt+Right to move to the workspace on the right.
- Press Ctrl+Alt+Left to move to the workspace on the left.

## Adding Workspaces

To add workspaces, right-click the workspace switcher, then choose Preferences. In the
Preferences dialog, set the Number of workspaces box to as many workspaces as you need.
"""


def test_the_section_a_page_points_to_for_the_question_answers_it(clean_env: Path) -> None:
    memory = memory_from_files(clean_env, {"desktop.md": DESKTOP})
    answer = make_answerer("extractive", memory=memory).answer(
        AnswerRequest("How do I change the number of workspaces?"))
    steps = [step.rsplit(" [", 1)[0] for step in answer.procedures]
    assert steps[0] == "To add workspaces, right-click the workspace switcher, then choose Preferences.", steps
    assert "Number of workspaces" in answer.answer, answer.answer
    retrieve = next(s for s in answer.trace.stages if s.name == "retrieve")
    assert retrieve.details["pointed_to"], retrieve.details


def _candidates() -> list[Candidate]:
    overview = step_unit("Workspaces", "A workspace can hold any number of windows. The number of "
                         "workspaces can be changed: see Adding Workspaces. For more on windows, see "
                         "Switching Between Workspaces.", "desktop.md", "Desktop Overview", 1, "Appendix")
    switching = step_unit("Switching Between Workspaces", "- Press Ctrl+Alt+Right.", "desktop.md",
                          "Desktop Overview", 2)
    adding = step_unit("Adding Workspaces", "Set the Number of workspaces box.", "desktop.md",
                       "Desktop Overview", 3)
    other = step_unit("Adding Workspaces", "Another page's section of the same name.", "other.md", "Other", 1)
    return [Candidate(Hit(u, 1.0, rank, "bm25")) for rank, u in enumerate([overview, switching, adding, other], 1)]


@pytest.mark.parametrize(("question", "pointed"), [
    # the sentence that points there says what is asked
    ("How do I change the number of workspaces?", ["Adding Workspaces"]),
    # it names one of the question's terms only: a pointer for more reading, not the answer
    ("How do I switch workspaces from the keyboard?", []),
    # the question asks of too little to tell
    ("What now?", []),
])
def test_a_section_is_pointed_to_only_by_a_sentence_that_says_what_is_asked(question: str,
                                                                           pointed: list[str]) -> None:
    candidates = _candidates()
    marked = mark_pointed_to(Turn(question), candidates)
    assert [c.unit.header for c in candidates if c.pointed_to] == pointed
    assert marked == [c.unit.id for c in candidates if c.pointed_to]
    # a section of the same name on another page is not the one pointed to
    assert not candidates[3].pointed_to
