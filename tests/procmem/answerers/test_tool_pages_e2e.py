"""An image editor's manual, one page per tool, built into a memory with ``inscoqa memory build
--path`` and answered by the extractive answerer: the real HTML reader, units, embedding model
and search. A tool's page says what the tool does in its opening, in words that are the tool's
own name ("the Select by Color tool selects all pixels …"), and how to reach it in a list that
goes on with the sentence before it ("You can activate the tool in several ways:" over "- from
the image menu …,", "- by clicking …,"); a filter's page that only shares the words has steps."""

from __future__ import annotations

from pathlib import Path

import pytest

from procmem.answerers import AnswerRequest, make_answerer
from procmem.answerers.candidates import offering_sentence, subject_does_asked
from procmem.answerers.steps import joined_enumerations
from procmem.answerers.turn import Turn
from procmem.memory import Memory
from tests.procmem.answerers.conftest import memory_from_files, step_unit

BY_COLOR = """\
<html><head><title>3.4. Select By Color</title></head><body>
<h1>3.4. Select By Color</h1>
<p>The Select by Color tool picks out regions of an image by how alike their colors are. It
behaves much like the Fuzzy Select tool. The two differ in one way: the Fuzzy Select tool only
takes regions that touch the point you start from, while the Select by Color tool selects all
pixels whose color is close enough to the color of the pixel you click, wherever they lie in the
image.</p>
<h2>3.4.1. Activating the tool</h2>
<p>You can activate the tool in several ways:</p>
<ul>
<li>from the image menu through Tools &#8594; Selection Tools &#8594; By Color Select,</li>
<li>by clicking on the tool icon in the Toolbox,</li>
<li>by pressing <b>Shift</b>+<b>O</b> on the keyboard.</li>
</ul>
<h2>3.4.2. Options</h2>
<p>The Threshold option sets how different a color may be and still be taken.</p>
</body></html>
"""

TO_ALPHA = """\
<html><head><title>5.2. Color to Alpha</title></head><body>
<h1>5.2. Color to Alpha</h1>
<p>This filter turns one color of a layer into transparency; pixels of other colors become
partly transparent as they come close to it.</p>
<h2>5.2.1. Using the filter</h2>
<ol>
<li>Give the layer an alpha channel with Layer &#8594; Transparency &#8594; Add Alpha Channel.</li>
<li>Open Colors &#8594; Color to Alpha.</li>
<li>Pick the color whose pixels should go, with the color button or the eye dropper.</li>
<li>Click OK.</li>
</ol>
</body></html>
"""


TO_CHANNEL = """\
<html><head><title>4.18. Save to Channel (The “Select” Menu)</title></head><body>
<h1>4.18. Save to Channel</h1>
<p>The Save to Channel command saves the selection as a channel, which can later be used as a
selection mask again. You can find more information about them in the Channels Dialog section.</p>
<h2>4.18.1. Activating the command</h2>
<ul>
<li>You can reach this command from the image menu through Select &#8594; Save to Channel.</li>
<li>You can also reach it from the Selection Editor.</li>
</ul>
</body></html>
"""

SAVE_AS = """\
<html><head><title>2.9. Save as (The “File” Menu)</title></head><body>
<h1>2.9. Save as</h1>
<p>The Save as command saves the image under another name, to use it again later.</p>
<h2>2.9.1. The Save Image dialog</h2>
<ol>
<li>To add a bookmark, select a folder in the middle panel and click the Add button.</li>
<li>Enter the name of the new image file in the Name box.</li>
<li>Click Save.</li>
</ol>
</body></html>
"""


@pytest.fixture
def tool_memory(clean_env: Path) -> Memory:
    return memory_from_files(clean_env, {"tools/select-by-color.html": BY_COLOR,
                                         "filters/color-to-alpha.html": TO_ALPHA})


def test_the_tool_that_does_what_is_asked_answers_with_the_ways_to_reach_it(tool_memory: Memory) -> None:
    answer = make_answerer("extractive", memory=tool_memory).answer(
        AnswerRequest("How do I select all the pixels of one color?"))
    assert answer.answer.startswith("The Select by Color tool selects all pixels whose color is close enough")
    assert answer.procedures[0].startswith(
        "You can activate the tool in several ways: from the image menu through Tools → Selection Tools → "
        "By Color Select, by clicking on the tool icon in the Toolbox, by pressing Shift+O"), answer.procedures
    cited, _ = answer.cited_sources()
    assert cited[0][1].doc_id.endswith("select-by-color.html")


def test_a_commands_page_answers_what_it_does_without_its_pointer_and_the_users_purpose(clean_env: Path) -> None:
    """"How do I save a selection so I can use it again later?": what the user wants to do with
    the selection ("use it again later") is no part of what the command must do; the command's
    page says what it does and how to reach it, and its pointer to another section is no step
    (it was the lead; without it, the Save as dialog's steps were)."""
    memory = memory_from_files(clean_env, {"menus/select-to-channel.html": TO_CHANNEL,
                                           "menus/file-save-as.html": SAVE_AS})
    answer = make_answerer("extractive", memory=memory).answer(
        AnswerRequest("How do I save a selection so I can use it again later?"))
    assert answer.answer.startswith("The Save to Channel command saves the selection as a channel"), answer.answer
    assert answer.procedures[0].startswith("You can reach this command from the image menu through Select → "
                                           "Save to Channel."), answer.procedures
    assert not any("more information" in step or "bookmark" in step for step in answer.procedures)
    cited, _ = answer.cited_sources()
    assert cited[0][1].doc_id.endswith("select-to-channel.html")


def test_what_a_pages_subject_does_is_read_in_its_own_clause() -> None:
    turn = Turn("How do I select all the pixels of one color?")
    title = "2.6. Select By Color (Selection Tools)"
    sentence = ("The difference is that the Magic Wand selects contiguous regions; while the Select by Color "
                "tool selects all pixels that are similar in color to the pixel you click on.")
    assert subject_does_asked(sentence, title, turn) == \
        "The Select by Color tool selects all pixels that are similar in color to the pixel you click on."
    # another tool does it, the subject is only said after the verb, or it does something else
    assert subject_does_asked("The Magic Wand selects all pixels of one color.", title, turn) == ""
    assert subject_does_asked("It selects all pixels of one color, like Select by Color.", title, turn) == ""
    assert subject_does_asked("The Select by Color tool shows the pixels of one color.", title, turn) == ""
    # a question that names no action of its own asks nothing a subject does
    assert subject_does_asked(sentence, title, Turn("How do I make the pixels of one color go?")) == ""


def test_what_a_pages_subject_lets_one_do_counts_the_words_of_its_name() -> None:
    """"How do I add a new layer?" says nothing but "add" beside the words of the page's title
    ("New Layer"): the sentence offers what is asked when it names the page's subject first."""
    turn = Turn("How do I add a new layer?")
    title = "7.2. New Layer (The Layer Menu)"
    opening = step_unit(title, "The New Layer command opens a dialog that allows you to add a new, empty layer "
                        "to the image, just above the active layer.", "gimp/layer-new.html", title)
    assert offering_sentence(opening, turn).startswith("The New Layer command opens a dialog")
    unnamed = step_unit(title, "It allows you to add a new, empty layer to the image.", "gimp/layer-new.html", title)
    assert offering_sentence(unnamed, turn) == ""


def test_a_list_that_goes_on_with_a_sentence_saying_what_to_do_is_one_step() -> None:
    text = ("You can access these commands from the image menu through\n\n"
            "- Image → Transform → Rotate 90° clockwise,\n"
            "- Image → Transform → Rotate 180°.\n\nThey act at once.")
    assert joined_enumerations(text) == (
        "You can access these commands from the image menu through Image → Transform → Rotate 90° clockwise, "
        "Image → Transform → Rotate 180°.\n\nThey act at once.")
    # ... and so is a list of ways, each a whole line, after a sentence that ends in a colon
    ways = ("You can activate this tool in several ways:\n\n- From the image menu through Tools → Clone.\n"
            "- By clicking on the tool icon in Toolbox.\n- By pressing the **C** keyboard shortcut.")
    assert joined_enumerations(ways) == (
        "You can activate this tool in several ways: from the image menu through Tools → Clone, by clicking on "
        "the tool icon in Toolbox, by pressing the **C** keyboard shortcut.")
    # a list of steps, or a list that goes on with a sentence saying what something is, stays
    steps = "Do this:\n\n- Open the menu.\n- Click Rotate."
    assert joined_enumerations(steps) == steps
    places = "You can set it in two places:\n\n- In the Settings window, click Display.\n- From the menu, choose Zoom."
    assert joined_enumerations(places) == places
    reasons = "The log grows for several reasons:\n\n- rotating the logs,\n- back-ups,\n- maintenance scripts."
    assert joined_enumerations(reasons) == reasons
