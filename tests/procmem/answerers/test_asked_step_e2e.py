"""A follow-up that asks how to do one of the steps the answer before it gave ("How do I print a
test page on it?" after the steps to set up a printer): that step is the answer, said again,
though the rest of its page was said. The extractive answerer over real GNOME help pages about
printing: the real reader, units, embedding model and search."""

from __future__ import annotations

import pytest

from procmem.answerers import make_answerer
from procmem.answerers.turn import Turn
from tests.procmem.answerers.conftest import help_pages_memory, two_turns

PAGES = ["printing-setup", "printing-2sided", "printing-select", "printing-cancel-job", "printing-order",
         "printing-setup-default-printer", "printing-to-file", "printing-envelopes"]
FIRST = "How do I set up a new printer?"
FOLLOW_UP = "How do I print a test page on it?"
TEST_PAGE_STEP = ("A message will appear when the system is finished installing the printer. Select Print Test "
                  "Page to print a test page, or Options to make additional changes in the printer setup.")


def test_a_step_that_says_every_word_of_the_question_is_asked_for():
    history = [(FIRST, f"Make sure the printer is turned on.\n{TEST_PAGE_STEP}")]
    turn = Turn(FOLLOW_UP, history)
    assert turn.asks_for_step(TEST_PAGE_STEP)
    assert not turn.already_said(TEST_PAGE_STEP)  # given before, and asked for now
    assert turn.already_said("Make sure the printer is turned on.")
    assert not Turn("How do I print two pages per sheet?", history).asks_for_step(TEST_PAGE_STEP)
    # a light verb and one word are too little to tell a step by ("How do I set it?")
    assert not Turn("How do I set the printer?", history).asks_for_step(TEST_PAGE_STEP)


@pytest.fixture(scope="module")
def printing_memory(corpus, embedder):
    return help_pages_memory(corpus, embedder, PAGES)


@pytest.mark.slow
def test_asked_how_to_do_a_step_already_given_it_gives_that_step_not_another_page(printing_memory):
    answerer = make_answerer("extractive", memory=printing_memory, cite=False)
    first, follow_up = two_turns(answerer, FIRST, FOLLOW_UP)
    assert TEST_PAGE_STEP in first.procedures
    assert "Print Test Page" in follow_up.answer
    assert follow_up.procedures[0] == TEST_PAGE_STEP
    # the setup page's other steps are not given again
    assert not {step for step in first.procedures if step != TEST_PAGE_STEP} & set(follow_up.procedures)
