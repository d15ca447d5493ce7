"""Two products' manuals in one folder of help: a follow-up stays with the product the
conversation opened with, though its words find another product's page first. Built with
``inscoqa memory build --path`` (real reader, units, embedding model and search)."""

from __future__ import annotations

import pytest

from procmem.answerers import make_answerer
from tests.procmem.answerers.conftest import memory_from_files, two_turns

FILES = {
    "terminal/index.md": "# Terminal help\n\nThe terminal runs a shell in a window with tabs.\n",
    "terminal/scrollback.md": (
        "# Scrollback\n\n## Keep more lines\n\nBy default the terminal keeps 1000 lines of output.\n\n"
        "1. Right-click in the terminal and choose **Adjust Scrollback**.\n"
        "2. Set the number of lines to keep, or choose **Unlimited**.\n"),
    "terminal/saving.md": (
        "# Saving the output\n\n## Save the output of a session\n\n"
        "1. Choose **File → Save Output As**.\n"
        "2. Pick plain text or HTML and a name for the file, then click **Save**.\n"),
    "mail/index.md": "# Mail reader help\n\nThe mail reader reads and sends mail.\n",
    "mail/drafts.md": (
        "# Draft files\n\n## Resume a draft file\n\nA draft file holds a message you have not sent yet: "
        "everything you wrote or printed in it is saved into the file, line by line.\n\n"
        "1. Open the drafts folder.\n2. Select the draft file and press **Resume** to print it into a "
        "new message and go on writing.\n"),
}
FIRST = "The first lines of my build's output scrolled off in the terminal. How do I keep more lines?"
FOLLOW_UP = "Next time I'd rather dump everything the build printed into a file."


@pytest.mark.slow
def test_a_follow_up_stays_with_the_product_the_conversation_opened_with(tmp_path):
    memory = memory_from_files(tmp_path, FILES)
    answerer = make_answerer("extractive", memory=memory)
    first, follow_up = two_turns(answerer, FIRST, FOLLOW_UP)
    assert any("Adjust Scrollback" in step for step in first.procedures)
    assert any("Save Output As" in step for step in follow_up.procedures)
    assert not any("draft" in step.lower() for step in follow_up.procedures)
