"""The sentence that says why: from another page than the best unit's and the lead's, only one
that names something the question or the lead names (a manual's other sections say why of
other things: the MATE guide's "Click Night Light …" was followed by "When you leave your
computer, you can lock your screen to prevent other people from using it.")."""

from __future__ import annotations

from procmem.answerers.candidates import Candidate
from procmem.answerers.lead import NOTHING_FOUND, plain_answer
from procmem.answerers.retrieval import Hit
from procmem.answerers.turn import Turn
from tests.procmem.answerers.conftest import step_unit

BACKUP = step_unit("Backing up your data", "To keep a copy of your mail, contacts and calendars:\n\n"
                   "1. Select **File** > **Back up Evolution Data…**.\n"
                   "2. Choose where to save the archive, then click **Save**.",
                   "evolution/backup-restore.page", "Backing up and restoring")
SAME_PAGE = step_unit("Restoring", "Select **File** > **Restore Evolution Data…** and choose the archive. "
                      "Restoring replaces your data, because the archive holds all of it.",
                      "evolution/backup-restore.page", "Backing up and restoring", order=1)
DEBUGGING = step_unit("Debug logs", "Start Evolution from a terminal to see its debug output. Debug logs are "
                      "only relevant for advanced users who want to find the cause of a crash.",
                      "evolution/debug.page", "Debugging Evolution")
ARCHIVES = step_unit("Archive size", "Close the mail view before you start. A backup can take long, because "
                     "the archive holds every message and attachment.",
                     "evolution/mail-storage.page", "Where Evolution keeps its data")


STEPS = ["Select File > Back up Evolution Data….", "Choose where to save the archive, then click Save."]


def _answer(*units):
    """The plain answer of ``units`` chosen in this order, the first giving the steps."""
    chosen = [Candidate(Hit(u, 1.0 - i / 10, i + 1, "x")) for i, u in enumerate(units)]
    return plain_answer(chosen, [], Turn("How do I back up my Evolution data?"), STEPS)


def test_another_page_s_why_that_names_nothing_asked_is_left_out():
    text = _answer(BACKUP, DEBUGGING)
    assert text.startswith("Select File > Back up Evolution Data…"), text
    assert "advanced users" not in text, text


def test_another_page_s_why_that_names_what_is_asked_says_why():
    text = _answer(BACKUP, ARCHIVES)
    assert text.startswith("Select File > Back up Evolution Data…"), text
    assert "A backup can take long, because the archive holds every message and attachment." in text, text


def test_a_why_of_the_best_unit_s_page_needs_no_word_of_the_question():
    text = _answer(BACKUP, SAME_PAGE, DEBUGGING)
    assert "advanced users" not in text, text
    assert "Restoring replaces your data, because the archive holds all of it." in text, text


def test_nothing_chosen_is_nothing_found():
    assert plain_answer([], [], Turn("How do I back up my Evolution data?"), []) == NOTHING_FOUND
