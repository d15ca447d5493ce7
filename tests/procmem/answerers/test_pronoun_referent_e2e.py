"""A follow-up that names what it asks about by a pronoun ("how do I bring it together …?"): the
page whose title names what the question before it was about scores as a page the question
names. The extractive answerer over a bundled conversation's own documents (real reader, units
and answerer)."""

from __future__ import annotations

from inscoqa.bundled import load_sample
from procmem.answerers import AnswerRequest, make_answerer
from procmem.answerers.extractive import compose
from procmem.answerers.retrieval import Hit
from procmem.answerers.turn import Turn
from tests.procmem.answerers.conftest import step_unit


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


def test_a_pronoun_where_the_action_takes_place_points_back_too():
    """"How do I add a row to it?" names a thing of its own (the row) and acts on what the
    question before named (the table), as "How do I load it again?" acts on that thing itself; a
    pronoun that says what the thing is for does not point back ("Can I make my own for it?")."""
    history = [("How do I insert a table in a text document?", "Choose Table > Insert Table.")]
    referent = Turn("How do I add a row to it?", history).referent_terms
    assert "tabl" in referent and "insert" not in referent  # the table, not the inserting done already
    assert Turn("So how do I actually send the photos to it?", history).referent_terms
    assert Turn("How do I connect to it, and which security option should I choose?", history).referent_terms
    assert not Turn("Can I make my own garam masala for it?", history).referent_terms
    assert not Turn("How do I add a row to the table?", history).referent_terms  # names its own
    assert not Turn("How do I add a row to it?").referent_terms  # nothing to point back to



def test_asking_whether_it_can_be_done_to_it_points_back_too():
    """"Can I make it smaller too?" after moving a panel asks about the panel; a question that
    names its thing before asking ("I don't have any mayo. Can I make it myself?") does not."""
    history = [("How do I move a panel to the left side of the screen?", "Press and hold Alt and drag the panel.")]
    assert "panel" in Turn("Can I make it smaller too?", history).referent_terms
    assert "panel" in Turn("OK. Could I give it its own colour?", history).referent_terms
    assert not Turn("I don't have any mayo, though. Can I make it myself?", history).referent_terms
    assert not Turn("Can I make the window smaller?", history).referent_terms
    # so does one that asks, first thing, how to do something to "that"
    assert "panel" in Turn("How do I undo that?", history).referent_terms
    assert not Turn("The topping is orange jam. How do I make that?", history).referent_terms
    assert Turn("How do I make that one smaller?", history).referent_terms  # "that one", as before



def test_asked_whether_it_can_be_made_smaller_the_answer_is_about_what_it_points_back_to():
    """The MATE user guide: "Can I make it smaller too?" after moving a panel got the steps to
    resize a window, which the searches ranked first; the page about panels now counts as one
    the question names."""
    window = step_unit("Resizing a Window", "1. Choose Resize from the Window Menu, or press Alt+F8.\n"
                       "2. Move the mouse in the direction of the edge you want to resize.", "guide/overview.xml",
                       "Desktop Overview")
    panel = step_unit("Panel Properties", "1. Right-click on a vacant space on the panel, then choose "
                      "Properties.\n2. In the General tab, modify the panel's size with the Size spin box.",
                      "guide/panels.xml", "Using the Panels")
    history = [("How do I move a panel to the left side of the screen?",
                "Press and hold Alt and drag the panel to its new location.")]

    _, steps, _ = compose([Hit(window, 1.0, 1, "x"), Hit(panel, 0.8, 2, "x")],
                          Turn("Can I make it smaller too?", history), cite=False)

    assert steps[0].startswith("Right-click on a vacant space on the panel"), steps


def test_a_pronoun_after_a_question_that_pointed_back_points_to_the_same_thing():
    """"How do I delete it?" after "How do I rename it?" after "How do I create a new folder?" is
    about the folder: what the question before pointed back to, with its own words."""
    history = [("How do I create a new folder in the file manager?", "Press the Create Folder button."),
               ("How do I rename it?", "Select the folder and press F2.")]
    assert {"folder", "file", "manag"} <= Turn("How do I delete it?", history).referent_terms
    assert "creat" not in Turn("How do I delete it?", history).referent_terms  # not what was done
    smaller = [("How do I move a panel to the left side of the screen?", "Drag it."),
               ("Can I make it smaller too?", "Set its size.")]
    assert {"panel", "smaller"} <= Turn("How do I hide it?", smaller).referent_terms


def test_another_units_sentence_on_another_thing_neither_leads_nor_says_why():
    """Over the MATE user guide, "How do I delete it?" (after making a folder, then renaming it)
    chose the files page's section first, but led with the panels page's "To delete a panel …"
    and said why with "If you have only one panel …": a unit that names nothing of what the
    question points back to leads nothing before the best unit's steps and says why of nothing."""
    from procmem.answerers.candidates import Candidate
    from procmem.answerers.lead import plain_answer
    from procmem.answerers.steps import unit_steps

    files = step_unit("Deleting a file or folder", "Select the file or folder that you want to delete. When you "
                      "delete a file or folder, it is moved to the Trash.\n\n- Choose Edit > Delete.",
                      "files.md", "Working with files")
    panel = step_unit("Deleting a panel", "To delete a panel from the desktop, right-click on the panel that "
                      "you want to delete, then choose Delete This Panel. If you have only one panel on the "
                      "desktop, you cannot delete that panel because the desktop needs one.",
                      "panels.md", "Using the panels")
    chosen = [Candidate(Hit(files, 1.0, 1, "hybrid")), Candidate(Hit(panel, 0.9, 2, "hybrid"))]
    history = [("How do I create a new folder?", "Choose File > Create Folder."),
               ("How do I rename it?", "Select the folder, then choose Edit > Rename.")]
    answer = plain_answer(chosen, [], Turn("How do I delete it?", history), unit_steps(files))
    assert "panel" not in answer, answer
    assert answer.split(". ")[0].rstrip(".") in files.body, answer  # the files section's own
    # asked of a panel, the panel's sentence may lead
    about_panel = [("How do I add a panel?", "Right-click the desktop and choose New Panel.")]
    assert "panel" in plain_answer(chosen, [], Turn("How do I delete it?", about_panel), unit_steps(files))
