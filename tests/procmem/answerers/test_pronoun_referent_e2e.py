"""A follow-up that names what it asks about by a pronoun ("how do I bring it together …?"): the
page whose title names what the question before it was about scores as a page the question
names. The extractive answerer over a bundled conversation's own documents (real reader, units
and answerer)."""

from __future__ import annotations

from inscoqa.bundled import load_sample
from procmem.answerers import AnswerRequest, make_answerer
from procmem.answerers.turn import Turn


def test_the_referent_is_the_earlier_questions_subject():
    turn = Turn("How do I switch it on so she can control my mouse?",
                [("A colleague wants to take over my desktop from her PC. Is that possible?", "Yes.")])
    assert "desktop" in turn.referent_terms
    assert not Turn("How do I switch the mouse on?", turn.history).referent_terms  # names its own


def test_a_follow_up_by_pronoun_gets_the_steps_of_the_page_it_points_back_to(corpus):
    """dev-cook-007: "Should I salt the pasta water the way I normally do? And how do I bring it
    together without ending up with scrambled eggs?" after asking how to make a carbonara: the
    carbonara's first step (the yolks and the cheese in a bowl) was left out for the pasta pages'."""
    conv = next(c for c in load_sample() if c.id == "dev-cook-007")
    assert Turn(conv.question, conv.history).referent_terms >= {"carbonara"}
    answer = make_answerer("extractive", cite=False).answer(
        AnswerRequest(conv.question, history=conv.history, documents=corpus.resolve(conv)))
    steps = " ".join(answer.procedures)
    assert "Crack the eggs" in steps and "only add the yolks" in steps
    assert "Fry the preferred pork" in steps
