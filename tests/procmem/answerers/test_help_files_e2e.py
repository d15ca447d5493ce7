"""A folder of an editor's help files (Vim's markup) built into a memory with ``inscoqa memory
build --path`` and answered by the extractive answerer: the real reader, units, embedding model
and search."""

from __future__ import annotations

from pathlib import Path

import pytest

from procmem.answerers import AnswerRequest, make_answerer
from procmem.memory import Memory
from tests.procmem.answerers.conftest import memory_from_files

NOTES = """\
*usr_31.txt*\tFor Vim version 9.0.  Last change: 2024 Jan 02

\t\t     VIM USER MANUAL - by A. Writer

\t\t\t  Keeping notes


Notes live in a folder of their own.  This chapter shows how to start one
and how to move between them.

==============================================================================
*31.1*\tStarting a note\t\t\t\t\t*note-start*

Sometimes you want to write down an idea quickly.  Not to worry; there is a
start-a-note command.  It is: >

\t:NoteNew shopping

The note opens in a window of its own.

==============================================================================
*31.2*\tMoving between notes

When you keep many notes, you can use these commands to move between them:

\t]n\t\tmove to the next note
\t[n\t\tmove to the previous note

 vim:tw=78:ts=8:noet:ft=help:norl:
"""

PRINTING = """\
*usr_32.txt*\tFor Vim version 9.0.  Last change: 2024 Jan 02

\t\t     VIM USER MANUAL - by A. Writer

\t\t\t  Printing a file


==============================================================================
*32.1*\tPrinting

To print the current file, use this command: >

\t:hardcopy

 vim:tw=78:ts=8:noet:ft=help:norl:
"""


@pytest.fixture
def help_memory(clean_env: Path) -> Memory:
    return memory_from_files(clean_env, {"usr_31.txt": NOTES, "usr_32.txt": PRINTING})


def test_a_help_files_command_and_table_answer_their_questions(help_memory: Memory) -> None:
    answerer = make_answerer("extractive", memory=help_memory)
    started = answerer.answer(AnswerRequest(history=[], question="How do I start a new note?"))
    assert any(":NoteNew shopping" in step for step in started.procedures), started.procedures
    cited, _ = started.cited_sources()
    assert cited[0][1].title == "Keeping notes"  # the chapter's name, not the version line
    moved = answerer.answer(AnswerRequest(history=[], question="How do I move to the next note?"))
    assert any(step.startswith("]n: move to the next note") for step in moved.procedures), moved.procedures
