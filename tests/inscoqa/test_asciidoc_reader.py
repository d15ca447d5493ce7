"""AsciiDoc pages (``.adoc``, and git's manual sources written in it as ``.txt``) as Markdown."""

from __future__ import annotations

from pathlib import Path

from inscoqa.corpus import read_document
from inscoqa.corpus.asciidoc import is_asciidoc

GUIDE = """\
= Working with Branches
:product: Gitty
:toc:

// a comment the page keeps for its writers
Branches let you work apart from the main line of {product}.

[[deleting]]
== Deleting a branch

.Delete branches you no longer need
[source,shell]
------------
$ git branch -d topic       <1>
$ git branch -D experiment  <2>
------------
<1> Delete a merged branch.
<2> Delete one that was never merged.

NOTE: A deleted branch's commits stay in the reflog for a while.

[WARNING]
====
Use `-D` with care: it deletes unmerged work.
====

Renaming a branch
~~~~~~~~~~~~~~~~~

. Check out the branch.
. Run the rename:
+
----
git branch -m old-name new-name
----
. Push the new name with link:https://example.org/push.html[git push].

See <<deleting>> before you clean up, <<options>> and <<_options>> after, and 'git branch' for more. Search the
https://lore.kernel.org/git/[`lore.kernel.org` archive] +++[[archive]]+++ for {cpp}, `a{plus}b` and `+--all+`.

[#options]
== Options

-m::
--move::
	Move/rename a branch, together with its config and reflog.

-d;; Delete a branch.

|===
|Option |What it does

|-a
|List all branches.
|===

////
A block comment
////
include::footer.adoc[]
"""


def test_an_asciidoc_page_reads_as_markdown(tmp_path: Path) -> None:
    page = tmp_path / "branches.adoc"
    page.write_text(GUIDE, encoding="utf-8")
    doc = read_document(page)
    assert doc.title == "Working with Branches"
    assert doc.meta["format"] == "asciidoc"
    text = doc.text
    assert text.startswith("# Working with Branches\n\nBranches let you work apart from the main line of Gitty.")
    assert "comment" not in text and "include::" not in text and ":toc:" not in text
    assert "\n## Deleting a branch\n" in text and "\n### Renaming a branch\n" in text
    assert "**Delete branches you no longer need**\n\n```shell\n$ git branch -d topic\n$ git branch -D experiment\n```" in text
    assert "- Delete a merged branch.\n- Delete one that was never merged." in text  # the callouts' notes
    assert "> **Note:** A deleted branch's commits stay in the reflog for a while." in text
    assert "> **Warning:** Use `-D` with care: it deletes unmerged work." in text
    assert ("1. Check out the branch.\n1. Run the rename:\n\n   ```\n   git branch -m old-name new-name\n   ```\n\n"
            "1. Push the new name with [git push](https://example.org/push.html).") in text
    assert ("See Deleting a branch before you clean up, Options and Options after, and git branch for more. "
            "Search the [`lore.kernel.org` archive](https://lore.kernel.org/git/) for C++, `a+b` and `--all`.") in text
    assert "\n-m, --move: Move/rename a branch, together with its config and reflog.\n" in text
    assert "\n-d: Delete a branch.\n" in text
    assert "| Option | What it does |\n|---|---|\n| -a | List all branches. |" in text


def test_a_plain_text_page_written_in_asciidoc_is_read_as_asciidoc(tmp_path: Path) -> None:
    """git's manual sources are AsciiDoc saved as ``.txt``: "NAME" underlined with "----" is a
    section, and the synopsis keeps its lines; a plain-text page stays plain text, though its
    sections are underlined with dashes and its lines hold colons and brackets."""
    source = tmp_path / "git-stash.txt"
    source.write_text("git-stash(1)\n============\n\nNAME\n----\ngit-stash - Stash the changes away\n\n"
                      "SYNOPSIS\n--------\n[verse]\n'git stash' list [<log-options>]\n'git stash' drop [<stash>]\n\n"
                      "COMMANDS\n--------\n\nlist [<log-options>]::\n\n\tList the stash entries that you have.\n"
                      "\tSee linkgit:git-log[1].\n", encoding="utf-8")
    assert is_asciidoc(source.read_text(encoding="utf-8"))
    doc = read_document(source)
    assert doc.title == "git-stash(1)"
    assert "\n## NAME\n\ngit-stash - Stash the changes away\n" in doc.text
    assert "```\n'git stash' list [<log-options>]\n'git stash' drop [<stash>]\n```" in doc.text
    assert "list [<log-options>]: List the stash entries that you have. See git-log(1)." in doc.text
    notes = tmp_path / "notes.txt"
    notes.write_text("Notes\n=====\n\nKeep notes short.\n\nDictionaries\n------------\n\n"  # a wiki's export
                     "proxy:[<dict path>]:<destination dict>\n\nUsers\n-----\n\ntest:{PLAIN}pass::::::\n",
                     encoding="utf-8")
    assert not is_asciidoc(notes.read_text(encoding="utf-8"))
    assert read_document(notes).meta["format"] == "text"
