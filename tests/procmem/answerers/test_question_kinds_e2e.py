"""What kind of question the last one is decides what answers it: a question that asks only why
is answered by the passage that explains, steps or none; a how-question by the section that
names its action, beside one that shares more of its other words; a question that asks what a
thing does by what the page says it does, before what to do with it (memory built with
``inscoqa memory build --path``: the real reader, units, embedding model and search)."""

from __future__ import annotations

from pathlib import Path

import pytest

from procmem.answerers import AnswerRequest, make_answerer
from procmem.answerers.candidates import header_share
from procmem.answerers.turn import Turn
from procmem.retrieval.query import terms
from tests.procmem.answerers.conftest import memory_from_files

VIEWER = {
    "annotations.md": """\
# Adding annotations

An annotation is a comment that you attach to a PDF document in the document viewer.

1. Open the side pane with the button in the top-left corner, or press F9.
2. Click the Annotate button in the header bar.
3. Choose Note text or Highlight text, then click where the annotation goes.
""",
    "annotations-save.md": """\
# Save a copy of an annotated PDF

To keep a copy of your annotated PDF for the document viewer or any other PDF viewer:

1. Open the file menu and choose Save As.
2. Choose a name and a folder for the copy, then click Save.
""",
    "annotations-disabled.md": """\
# Can't add annotations?

Annotations can only be added to PDF files. When the open document is in any other format, the
buttons that add annotations are greyed out.
""",
    "printing.md": """\
# Printing a document

1. Press Ctrl+P to open the print dialog.
2. Choose the printer and the pages, then click Print.
""",
}

SCANNER = {
    "scanning.md": """\
# Scanning a page

To scan a document from your scanner:

1. Connect the scanner to the computer and switch it on.
2. Open Document Scanner.
3. Choose the kind of document you scan: Text or Image.
4. Click Scan on the toolbar.
""",
    "email.md": """\
# Sending by email

To email the current document, open the main menu and choose Email, or press Ctrl+E. Your mail
program opens a new message with the scanned pages attached, one PDF per page for text.
""",
    "feeder.md": """\
# Using an automatic document feeder

If your scanner has a document feeder, it can scan a stack of pages in one go.

1. Put the pages in the feeder.
2. Click the arrow beside the Scan button and choose All Pages From Feeder.
3. Each scanned page is added at the end of the document.
""",
    "crop.md": """\
# Cropping a scanned page

1. Select the scanned page in the document.
2. Click Crop on the toolbar and drag the frame over the part you keep.
""",
    "mail-program.md": """\
# Change which mail program writes your email

1. Open Settings and click Default Applications.
2. Choose the mail program under Mail.
""",
    "share-file.md": """\
# Share a file by email

1. Open the file manager and right-click the file.
2. Choose Send To, then Email, and pick the contact to send it to.
""",
    "resolution.md": """\
# Setting the scan resolution

1. Open the main menu and choose Preferences.
2. Select Quality.
3. Change the text or image resolution, then close the dialog.
""",
}


def _ask(root: Path, files: dict[str, str], question: str) -> tuple[str, list[str]]:
    answer = make_answerer("extractive", memory=memory_from_files(root, files)).answer(
        AnswerRequest(question, history=[]))
    return answer.answer, [step.rsplit(" [", 1)[0] for step in answer.procedures]


def test_a_question_that_asks_why_is_answered_by_what_explains(clean_env: Path) -> None:
    text, steps = _ask(clean_env, VIEWER, "I opened a file in the document viewer but the highlight "
                                          "button is greyed out. Why can't I annotate it?")
    # the page that says why, though it has no steps, and another page's procedure shares more
    # of the question's words
    assert text.startswith("Annotations can only be added to PDF files."), text
    assert "Open the file menu and choose Save As." not in steps[:1], steps


def test_a_how_question_is_answered_by_the_section_that_names_its_action(clean_env: Path) -> None:
    text, steps = _ask(clean_env, SCANNER, "How do I email a scanned document straight from the scanner app?")
    # "Sending by email", not "Scanning a page", which names "scan", "document" and "scanner"
    assert text.startswith("To email the current document, open the main menu and choose Email"), text
    assert "Click Scan on the toolbar." not in steps, steps


def test_a_header_that_names_the_asked_action_counts_half_the_question_more() -> None:
    turn = Turn("How do I email a scanned document?")
    asked = turn.question_terms
    assert header_share(asked, set(terms("Sending by email")), None, turn) == pytest.approx(0.5 + 1 / 3)
    assert header_share(asked, set(terms("Scanning a document")), None, turn) == pytest.approx(2 / 3)


@pytest.mark.parametrize(("question", "action"), [
    ("How do I record buying shares of a stock?", {"buy"}),  # the verb's object is the action
    ("How do I stop wrapping long lines?", {"wrap"}),
    ("How do I record something on screen?", {"record"}),  # a word in -ing that is no verb's form
    ("How do I split string values?", {"split"}),
    ("How do I record a stock split?", {"record"}),
])
def test_the_action_asked_is_the_one_the_verb_takes_as_its_object(question: str, action: set[str]) -> None:
    assert Turn(question).named_action == action


LEDGER = {
    "stock-split.md": """\
# Recording a Stock Split

Use the Stock Split assistant to record a stock split or a merger of shares.

1. Select the stock account from the list of accounts.
2. Enter the date of the split and the shares it distributed.
""",
    "buying-shares.md": """\
# Buying Shares

## Buying New Shares

1. Open the register of the brokerage account.
2. Enter the number of shares bought and the price paid, then the commission on its own line.
""",
}


def test_a_how_question_whose_verb_takes_an_action_is_answered_by_that_action(clean_env: Path) -> None:
    text, steps = _ask(clean_env, LEDGER, "How do I record buying shares of a stock?")
    # "Buying New Shares", not "Recording a Stock Split", which says "record", "stock" and "shares"
    assert steps[0].startswith("Open the register of the brokerage account."), (text, steps)
    assert not any("Select the stock account" in step for step in steps), steps


@pytest.mark.parametrize("question", [
    "How do I make the scanned text bigger?",  # a light verb names no action
    "How do I find it later?",  # the action on what a pronoun points back to
    "How do I steep black tea and brew green tea?",  # several things asked
])
def test_no_action_is_named_by_a_light_verb_a_pronouns_action_or_several_asked(question: str) -> None:
    assert Turn(question).named_action == set()


EDITOR = {
    "modelines.md": """\
# Modelines

The Modelines plugin lets the editor read settings from the first and last lines of a file and
apply them to that document. It understands a part of the settings other editors write there.

To enable the Modelines plugin, select Preferences > Plugins > Modelines.

## Options

Settings that modelines can set: the tab width, the indent width, spaces instead of tabs and
text wrapping.
""",
    "plugins.md": """\
# Configure plugins

1. Open Preferences and select the Plugins tab.
2. Check the box next to a plugin to enable it.
""",
}


def test_a_question_that_asks_what_a_thing_does_is_answered_by_what_it_does(clean_env: Path) -> None:
    text, _ = _ask(clean_env, EDITOR, "What does the Modelines plugin do?")
    assert text.startswith("The Modelines plugin lets the editor read settings from the first and last lines"), text


@pytest.mark.parametrize(("question", "asks"), [
    ("What does the Modelines plugin do in gedit?", True),
    ("What is the Trash folder for?", True),
    ("What do I do now?", False),
    ("What does it mean when a process says zombie?", False),
])
def test_a_question_asks_what_a_thing_does_by_do_or_for(question: str, asks: bool) -> None:
    assert Turn(question).asks_what_it_does is asks


FORMATS = {
    "opening.md": """\
# Open a document

You can open a document in the document viewer in any of these ways:

1. Double-click the file in the file manager.
2. Press Ctrl+O and choose the file in the Open Document dialog.
""",
    "formats.md": """\
# Supported formats

The document viewer supports the following formats:

- Comic Book Archive (.cbr, .cbz)
- DjVu (.djvu)
- Portable Document Format (.pdf)
- PostScript (.ps)

> **Note:** Some distributions do not install every format's backend by default, so some of the
> formats listed above may not open.
""",
    "open-error.md": """\
# Why can't I open a file?

If the document viewer does not recognise the format of a document, it shows "Unable to open
document". Click Close to return to the window.
""",
}


def test_a_question_that_asks_which_is_answered_by_the_section_that_says_so(clean_env: Path) -> None:
    text, _ = _ask(clean_env, FORMATS, "Which file formats can the document viewer open?")
    # the section without steps that lists them, its opening with what it introduces (not its note)
    assert text.startswith("The document viewer supports the following formats: Comic Book Archive (.cbr, .cbz); "
                           "DjVu (.djvu); Portable Document Format (.pdf); PostScript (.ps)"), text


MEMOS = {
    "memo-add.md": """\
# Adding a memo

1. Click File > New > Memo, or press Shift+Ctrl+O.
2. Select the memo list in which you keep it.
3. Enter a summary and a description, then click Save.
""",
    "memo-shared.md": """\
# Sending a shared memo

A shared memo is sent to other people, who see it in their calendars.

1. Click File > New > Shared Memo, or press Shift+Ctrl+H.
2. Select the memo list in which you would like to create the entry.
3. In the To field, type a username, then press Enter.
4. Click Send.
""",
}


def test_a_text_that_does_the_asked_action_by_another_verb_says_the_questions_verb(clean_env: Path) -> None:
    """Evolution's "Adding a Memo" says "New" where the question says "create"; the shared
    memo's steps say "create" of an entry, and answered "How do I create a memo?". A text that
    names the asked action by another verb (a header's, :attr:`Turn.other_verbs`) says the question's
    verb too, as such a header does."""
    text, steps = _ask(clean_env, MEMOS, "How do I create a memo?")
    assert text.startswith("Click File > New > Memo, or press Shift+Ctrl+O."), text
    assert steps[0].startswith("Click File > New > Memo"), steps
