"""DokuWiki and Zim pages (plain ``.txt`` files with wiki markup) read as Markdown."""

from __future__ import annotations

from pathlib import Path

from inscoqa.corpus import read_document
from inscoqa.corpus.wikitext import inline, is_wiki_text

ZIM_PAGE = """\
Content-Type: text/x-zim-wiki
Wiki-Format: zim 0.6
Creation-Date: 2024-03-01T10:00:00+01:00

====== Backing Up a Notebook ======

A notebook is a folder of text files; see [[Help:Notebooks|Notebooks]] and [[Plugins:Version Control]].

===== Copy it by hand =====
1. Close the notebook with //File// -> //Close//.
2. Copy the folder, for example with ''cp -r ~/Notes /media/usb''.
3. Open the copy from the **Open Notebook** dialog.
	a. Pick "Add" and choose the folder.

[ ] check the copy opens
[*] done once a week

==== From a script ====
'''
zim --export --output=/tmp/site ~/Notes
'''

|Where|What|
|-----|----|
|Linux|~/.local/share|

**Save Version <Shift><Ctrl><S>**
Prompt for a comment and save a new version.

Only available if the [[Plugins:Version Control|Version Control plugin]] is enabled.

**Note:**
bold labels that end a sentence stay as they are.

{{./insert-table.png}} or press the menu item **Insert -> Table**
After this step you can name the columns.
"""

DOKUWIKI_PAGE = """\
====== Resetting a Password ======

Users who forget their password can set a new one from the login page.\\\\ No admin is needed.

===== Steps =====
  - Open the login page and pick **Forgotten password**.
  - Type the e-mail address of your account.
    * The address must be the one in your profile.
  - Follow the link in the mail ((it is valid for one hour)).

===== Settings for admins =====
^ Option ^ Meaning ^
| resendpasswd | allow resets at all |

<code bash>
php bin/plugin.php usermanager
</code>

  indented lines are code too
"""


def _read(tmp_path: Path, text: str, name: str = "page.txt") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return read_document(path)


def test_zim_page_headings_lists_code_and_tables(tmp_path: Path) -> None:
    doc = _read(tmp_path, ZIM_PAGE)
    assert doc.title == "Backing Up a Notebook"
    text = doc.text
    assert "Content-Type" not in text and "Creation-Date" not in text
    assert text.startswith("# Backing Up a Notebook\n")
    assert "\n## Copy it by hand\n" in text and "\n### From a script\n" in text
    assert "see Notebooks and Version Control." in text  # links read as their labels
    assert "1. Close the notebook with *File* -> *Close*." in text
    assert "1. Copy the folder, for example with `cp -r ~/Notes /media/usb`." in text
    assert "    1. Pick \"Add\" and choose the folder." in text  # a nested "a." item
    assert "- check the copy opens" in text and "- done once a week" in text  # checkboxes
    assert "```\nzim --export --output=/tmp/site ~/Notes\n```" in text
    assert "| Where | What |\n|---|---|\n| Linux | ~/.local/share |" in text
    # a term in bold on its own line and its description are one line
    assert ("**Save Version <Shift><Ctrl><S>**: Prompt for a comment and save a new version. Only available "
            "if the Version Control plugin is enabled.\n") in text  # what is said under a term is said of it
    assert "**Note:**\n\nbold labels" in text
    # a line break is kept: a line is a paragraph of its own
    assert "or press the menu item **Insert -> Table**\n\nAfter this step" in text


def test_dokuwiki_page_numbered_items_tables_and_code(tmp_path: Path) -> None:
    doc = _read(tmp_path, DOKUWIKI_PAGE)
    assert doc.title == "Resetting a Password"
    text = doc.text
    assert "login page. No admin is needed." in text  # a forced line break
    assert "1. Open the login page and pick **Forgotten password**." in text
    assert "    - The address must be the one in your profile." in text
    assert "1. Follow the link in the mail (it is valid for one hour)." in text
    assert "| Option | Meaning |\n|---|---|\n| resendpasswd | allow resets at all |" in text
    assert "```bash\nphp bin/plugin.php usermanager\n```" in text
    assert "```\nindented lines are code too\n```" in text


def test_procedure_steps_come_from_the_wiki_list(tmp_path: Path) -> None:
    from procmem.extract.deterministic import extract_rules

    extraction = extract_rules(_read(tmp_path, DOKUWIKI_PAGE))
    steps = {p.output: p.steps for p in extraction.procedures}
    assert any(s[0].startswith("Open the login page and pick") and
               s[-1].startswith("Follow the link in the mail") for s in steps.values()), steps


def test_what_is_wiki_text() -> None:
    assert is_wiki_text(ZIM_PAGE) and is_wiki_text(DOKUWIKI_PAGE)
    assert not is_wiki_text("Release notes\n\n== not a heading here\n\nSome text.\n")
    assert not is_wiki_text("Title\n=====\n\nText under a Setext title.\n")
    # one heading at the top and nothing else like it: a text, not a wiki page
    assert not is_wiki_text("== Note ==\nJust one line of text.\n")


def test_inline_markup() -> None:
    assert inline("see [[https://example.org/a//b|the site]] at https://example.org//x") == \
        "see the site at https://example.org//x"
    assert inline("[[Usage:Getting Things Done#what-is-a-project-]]") == "Getting Things Done"
    assert inline("see [[doku>namespaces]] and [[wp>Wiki|the wiki]]") == "see namespaces and the wiki"
    assert inline("H_{2}O and x^{2}, __underlined__ {{./shot.png}}") == "H2O and x2, underlined "
    assert inline("''**not bold**''") == "`**not bold**`"
