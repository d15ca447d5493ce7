"""Two products' help in one memory: a follow-up stays with the product the conversation opened
with, though its words find another product's page first. Built as ``inscoqa memory build``
builds (real reader, units, embedding model and search)."""

from __future__ import annotations

import pytest

from procmem.answerers import make_answerer
from procmem.memory import build_memory
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


# the desktop's help and the office suite's administration articles, as the bundled corpora hold them
DESKTOP_AND_OFFICE = ["gnome-help/user-changepassword.page", "gnome-help/user-goodpassword.page",
                      "gnome-help/net-default-browser.page", "gnome-help/net-default-email.page",
                      "officedocs/Microsoft365/admin/sign-in/forgot-sign-in-password.md",
                      "officedocs/Microsoft365/admin/group-policy/configure-email-client-using-policy.md"]


@pytest.fixture(scope="module")
def desktop_and_office(corpus, embedder):
    return build_memory([corpus.get(doc_id) for doc_id in DESKTOP_AND_OFFICE], embedder=embedder, progress=False)


@pytest.mark.slow
@pytest.mark.parametrize(("first", "follow_up", "wanted", "unwanted"), [
    # the office suite's Group Policy article on the default email client says "set", "default" and
    # "email", and the memory ranks it first for the conversation
    ("How do I set a default web browser?", "How do I set a default email app too?", "Mail option",
     ("Group Policy", "gpedit")),
    # ... and its "Forgot password to sign in to Microsoft 365"
    ("How do I change my password?", "I forgot my old one. What now?", "", ("Microsoft", "Self-Service")),
])
def test_another_products_page_that_shares_the_conversations_words_does_not_answer_a_follow_up(
        desktop_and_office, first, follow_up, wanted, unwanted):
    answerer = make_answerer("extractive", memory=desktop_and_office)
    _, reply = two_turns(answerer, first, follow_up)
    text = "\n".join([reply.answer, *reply.procedures])
    assert wanted in reply.answer, reply.answer
    assert not any(word in text for word in unwanted), text
