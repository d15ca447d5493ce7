"""Vim's help files: tags, links, section rules, examples and commands read as Markdown."""

from __future__ import annotations

from pathlib import Path

from inscoqa.corpus.readers import read_document
from inscoqa.corpus.vimhelp import is_vim_help, vim_help_to_markdown

# a chapter of a user manual, written in the help files' markup
CHAPTER = """\
*usr_31.txt*\tFor Vim version 9.0.  Last change: 2024 Jan 02

\t\t     VIM USER MANUAL - by A. Writer

\t\t\t  Keeping notes


Notes live in a folder of their own.  This chapter shows how to start one
and how to find a note again.

|31.1|\tStarting a note
|31.2|\tFinding a note

     Next chapter: |usr_32.txt|  Archiving notes
 Previous chapter: |usr_30.txt|  Writing letters
Table of contents: |usr_toc.txt|

==============================================================================
*31.1*\tStarting a note\t\t\t\t\t*note-start* *notes*

To start a note in the notes folder, use this command: >

\t:NoteNew shopping

Vim opens an empty buffer and shows this message:

\tNew note: shopping ~

\tNote:
\tA note that already exists is opened instead of being replaced, so you
\tnever lose what you wrote before in it.

SAVING A NOTE\t\t\t\t\t\t*note-save*

Write the note as any file, see |:write|: >
\t:write
<The note is kept until you remove it.

MOVING BETWEEN NOTES

Use these commands to move between notes:

\t]n\t\tgo to the next note
\t[n\t\tgo to the previous note

1. Open the notes folder.  These keys are useful:

\tgf\t\topen the note under the cursor

2. Close the folder when you are done: >

\t:NoteClose

==============================================================================
*31.2*\tFinding a note

To list the notes whose name starts with "shop": >

\t:NoteList shop

==============================================================================

Next chapter: |usr_32.txt|  Archiving notes

Copyright: see |manual-copyright|  vim:tw=78:ts=8:noet:ft=help:norl:
"""

# a file of a reference manual: its subject on a line of its own with its tags
REFERENCE = """\
*notes.txt*\tFor Vim version 9.0.  Last change: 2024 Jan 02


\t\t  VIM REFERENCE MANUAL    by A. Writer


Keeping notes\t\t\t\t\t\t*notes* *note-taking*

The commands of this file keep notes.
"""

# a plugin's help, with a description on its first line and commands in the reference's layout
PLUGIN = """\
*notekeeper.txt*  Keep notes in a folder of their own

==============================================================================
1. Commands\t\t\t\t\t\t*notekeeper-commands*

:NoteNew {name}\t\tStart the note {name} in the notes folder, or open it
\t\t\twhen it exists.

:NoteList [prefix]
\t\t\tList the notes whose name starts with [prefix].
"""


def test_a_help_file_is_told_by_the_tag_on_its_first_line() -> None:
    assert is_vim_help(CHAPTER) and is_vim_help(PLUGIN)
    assert not is_vim_help("*bold* words on a first line\n\nAnd a |pipe| later.\n")
    assert not is_vim_help("Notes\n\n*usr_31.txt* is named here.\n")


def test_a_chapter_reads_as_its_sections_examples_and_notes() -> None:
    title, text = vim_help_to_markdown(CHAPTER)
    assert title == "Keeping notes"  # the chapter's name, not the version line or the manual's name
    assert "Vim version" not in text and "VIM USER MANUAL" not in text
    # the contents, the navigation and the modeline lead nowhere in a document of its own
    assert "31.2" not in text and "Next chapter" not in text and "usr_toc" not in text and "ft=help" not in text
    assert text.startswith("Notes live in a folder of their own.")
    # a section's heading without its number and tags; a line in capitals heads a subsection
    assert "## Starting a note\n" in text and "## Finding a note\n" in text and "*note" not in text
    assert "### SAVING A NOTE\n" in text
    # an example is code, without the marks that open and close it; a screen's output without "~"
    assert "use this command:\n\n```\n:NoteNew shopping\n```" in text
    assert "```\n:write\n```\n\nThe note is kept until you remove it." in text
    assert "New note: shopping\n" in text and "~" not in text
    # a note set in by a tab is prose; links keep their text
    assert "Note:\nA note that already exists is opened instead of being replaced" in text
    assert "see :write:" in text
    # a table set in under its paragraph is a list of its rows, inside the list item it follows
    assert "notes:\n\n- `]n`: go to the next note\n- `[n`: go to the previous note\n" in text
    assert ("1. Open the notes folder.  These keys are useful:\n\n   - `gf`: open the note under the cursor\n\n"
            "2. Close the folder when you are done:\n\n   ```\n   :NoteClose\n   ```") in text


def test_a_plugins_help_reads_its_commands_with_their_descriptions(tmp_path: Path) -> None:
    title, text = vim_help_to_markdown(PLUGIN)
    assert title == "Keep notes in a folder of their own"
    assert "## Commands" in text
    assert "`:NoteNew {name}`: Start the note {name} in the notes folder, or open it when it exists." in text
    assert "`:NoteList [prefix]`: List the notes whose name starts with [prefix]." in text
    (tmp_path / "notekeeper.txt").write_text(PLUGIN, encoding="utf-8")
    doc = read_document(tmp_path / "notekeeper.txt")
    assert doc.title == "Keep notes in a folder of their own"
    assert doc.text.startswith("# Keep notes in a folder of their own\n\n## Commands")


def test_a_reference_manuals_file_is_titled_by_its_subject_line():
    title, text = vim_help_to_markdown(REFERENCE)
    assert title == "Keeping notes"
    assert text == "The commands of this file keep notes.\n"
    assert vim_help_to_markdown(REFERENCE.replace("Keeping notes\t\t\t\t\t\t*notes* *note-taking*", ""))[0] == "notes"
    # a drawing's letters under the manual's name are no title
    drawn = REFERENCE.replace("by A. Writer\n", "by A. Writer\n\t\t\t\t k\n")
    assert vim_help_to_markdown(drawn)[0] == "Keeping notes"
