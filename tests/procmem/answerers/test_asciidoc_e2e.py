"""A folder of AsciiDoc pages built into a memory with ``inscoqa memory build --path`` and
answered by the extractive answerer: the real reader, units, embedding model and search."""

from __future__ import annotations

from pathlib import Path

import pytest

from procmem.answerers import AnswerRequest, make_answerer
from procmem.memory import Memory
from tests.procmem.answerers.conftest import memory_from_files

BRANCHES = """\
= Working with Branches

Branches let you work apart from the main line.

== Renaming a branch

. Check out the branch you want to rename.
. Rename it:
+
----
$ git branch -m old-name new-name  <1>
----
<1> The branch keeps its history.
. Push the branch under its new name.

== Deleting a branch

NOTE: A deleted branch's commits stay in the reflog for a while.

To delete a branch that is merged, run:

[source,shell]
----
git branch -d topic
----
"""

REMOTES = """\
Remotes
=======

Adding a remote
---------------

To add a remote repository, give it a name and its address:

----
git remote add upstream https://example.org/project.git
----
"""


@pytest.fixture
def asciidoc_memory(clean_env: Path) -> Memory:
    return memory_from_files(clean_env, {"branches.adoc": BRANCHES, "remotes.asciidoc": REMOTES})


def test_asciidoc_pages_answer_with_their_steps_and_commands(asciidoc_memory: Memory) -> None:
    answerer = make_answerer("extractive", memory=asciidoc_memory)
    renamed = answerer.answer(AnswerRequest(history=[], question="How do I rename a branch?"))
    steps = " | ".join(renamed.procedures)
    assert "Check out the branch you want to rename" in steps
    assert "git branch -m old-name new-name" in steps and "<1>" not in steps
    cited, _ = renamed.cited_sources()
    assert cited[0][1].title == "Working with Branches"
    added = answerer.answer(AnswerRequest(history=[], question="How do I add a remote repository?"))
    assert "git remote add upstream https://example.org/project.git" in added.answer + " ".join(added.procedures)
