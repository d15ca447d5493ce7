"""A follow-up that asks how to take back what the user just did, answered by the extractive
answerer over real GNOME help pages about files: the real reader, units, embedding model and
search."""

from __future__ import annotations

import pytest

from procmem.answerers import make_answerer
from procmem.answerers.sentence_roles import undoes_unasked
from procmem.answerers.turn import Turn
from tests.procmem.answerers.conftest import help_pages_memory, two_turns

PAGES = ["files-rename", "files-delete", "files-copy", "files-recover", "files-select", "files-sort",
         "files-hidden", "files-search"]
FIRST = "How do I change the name of a file in Files?"
FOLLOW_UP = "Oops, I typed the wrong name. Can I reverse that?"


@pytest.mark.parametrize(("question", "undo"), [
    ("Can I reverse that?", True),
    ("How do I roll it back?", True),
    ("Can I take it back?", True),
    ("How do I reverse the sort order?", False),  # an order reversed is nothing taken back
    ("How do I rename it?", False),
])
def test_a_question_that_takes_back_what_was_done_asks_to_undo(question, undo):
    turn = Turn(question, [(FIRST, "Right-click on the item and select Rename.")])
    assert turn.asks_to_undo is undo
    assert ("undo" in turn.question_terms) is undo
    assert ("revers" in turn.question_terms) is ("reverse" in question and not undo)
    assert not Turn(question, []).asks_to_undo  # nothing was done yet


@pytest.mark.parametrize(("sentence", "question", "unasked"), [
    # stopping what the user asks to set up is no way to set it up
    ("You can stop the firewall by executing nft flush ruleset as root.", "How do I set up a firewall?", True),
    ("To stop the screensaver and return to the desktop, move the mouse.", "How do I set a screensaver?", True),
    # ... and asked to stop something, disabling it answers ("How do I stop it from starting?")
    ("To disable a program from starting automatically, uncheck the checkbox.", "How do I stop it from starting?",
     False),
    ("You can start the firewall with systemctl.", "How do I set up a firewall?", False),
])
def test_a_sentence_that_stops_or_undoes_leads_only_when_asked(sentence, question, unasked):
    assert undoes_unasked(sentence, Turn(question, [])) is unasked


@pytest.fixture(scope="module")
def files_memory(corpus, embedder):
    return help_pages_memory(corpus, embedder, PAGES)


@pytest.mark.slow
def test_asked_to_take_back_a_rename_it_says_how_to_undo_it_not_how_to_rename_again(files_memory):
    answerer = make_answerer("extractive", memory=files_memory)
    first, follow_up = two_turns(answerer, FIRST, FOLLOW_UP)
    assert any("Rename" in step for step in first.procedures)
    text = follow_up.answer + " " + " ".join(follow_up.procedures)
    assert "Undo Rename" in text
    # the steps the first answer gave are not given again
    assert not set(follow_up.procedures) & set(first.procedures)
    # nor a page's steps for the word the user said it with (sorting in reversed order)
    assert not any("Reversed Order" in step for step in follow_up.procedures)
