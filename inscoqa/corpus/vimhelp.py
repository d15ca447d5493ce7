"""Vim's help files: the user and reference manuals that ship with Vim, and the help of its
plugins. Plain text, with a markup of its own:

- the first line names the file as a tag, then describes it (``*fugitive.txt*  A Git wrapper``)
  or gives Vim's version and a date; centred lines under it name the manual and the chapter
  ("VIM USER MANUAL - by Bram Moolenaar", "Editing more than one file");
- a rule of ``=`` or ``-`` across the page opens a section, whose heading is the next line
  (``*07.1*  Edit another file    *edit-another*``); a line in capitals at the margin heads a
  subsection ("WHERE AM I?", "GLOBAL PLUGINS  *standard-plugin*");
- ``*tag*`` marks a place to jump to and ``|tag|`` jumps there;
- a line that ends in ``>`` introduces an example, the indented lines after it, which ends at a
  line that starts with ``<`` or at the margin; a line that ends in ``~`` is a screen's output;
- in the reference manual, a command at the margin with its description after it or indented
  under it (``["x]x<TAB>Delete [count] characters``);
- a chapter's contents (its sections' links), its navigation ("Next chapter: …") and the
  modeline at the end (``vim:tw=78:ts=8:ft=help``) lead nowhere in a document of its own.

:func:`vim_help_to_markdown` reads them as Markdown: the chapter's name is the title (the first
line's description when it has one), sections and subsections are headings without their tags
and numbers, examples and output are code, a command is its description's label.
"""

from __future__ import annotations

import re

from inscoqa.corpus.common import tidy_markdown
from inscoqa.corpus.layout import LIST_LINE, split_paragraphs

FIRST_LINE = re.compile(r"^\*(?P<name>[\w.+-]+)\.txt\*(?:\s+(?P<description>.*?))?\s*$")
VERSION = re.compile(r"^for vim version\b|last change:", re.I)
TAG = re.compile(r"(?<!\S)\*[^*\s|]+\*(?!\S)")
LINK = re.compile(r"\|([^|\s]+)\|")
RULE = re.compile(r"^[=-]{20,}\s*$")
SECTION_NUMBER = re.compile(r"^\d{1,2}(?:\.\d{1,2})*\.?\s+")
EXAMPLE_END = re.compile(r"^<")
OUTPUT_MARK = re.compile(r"\s+~$|^~$")
NAVIGATION = re.compile(r"^\s*(?:next chapter|previous chapter|table of contents|copyright):", re.I)
MODELINE = re.compile(r"(?:^|\s)vim?:\s*(?:set?\s+)?\w+=?\S*:\s*$")
CAPITALS = re.compile(r"^[A-Z][A-Z0-9 ,.'’/()&?!-]*$")
# a command at the margin, a tab, then its description (prose puts two spaces between sentences)
DESCRIBED = re.compile(r"^(?P<term>[^\s\t][^\t]{0,59}?)(?<![.!?])\t+(?P<text>\S.*)$")
TERM = re.compile(r"^\S.{0,59}(?<![.,;:!?])$")  # a command alone on its line, no sentence
# a row of a table set in under its paragraph: a key or a name, a tab, what it does
# ("<TAB>CTRL-W h<TAB>move to the window on the left")
TABLE_ROW = re.compile(r"^[ \t]+(?P<term>[^\s\t][^\t]{0,29}?)\t+(?P<text>[^\s\t].*)$")
ROW = re.compile(r"^\s*- `[^`]+`: ")  # a table's row, as it is read
CENTRED_INDENT = 8
DESCRIPTION_INDENT = 16  # a reference manual's description under its command (two tab stops)
MAX_HEADING_WORDS = 10
MIN_TITLE_LETTERS = 3
MIN_PROSE_WORDS = 10
PROSE_WORD = re.compile(r"(?<!\S)[A-Za-z][a-z']*[.,;:!?]?(?!\S)")


def is_vim_help(text: str) -> bool:
    """Whether ``text`` is a Vim help file: its first line is its name as a tag
    (``*usr_07.txt*``), and it links (``|tag|``) or draws a section rule."""
    first = next((line.strip() for line in text.splitlines() if line.strip()), "")
    if not FIRST_LINE.match(first):
        return False
    return bool(LINK.search(text)) or any(RULE.match(line) for line in text.splitlines())


def _plain(line: str) -> str:
    """A line without its tags, with its links' text, and without a screen's output mark."""
    line = OUTPUT_MARK.sub("", LINK.sub(r"\1", TAG.sub("", line.rstrip())))
    return line.rstrip()


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _title(lines: list[str], name: str, description: str) -> tuple[str, int]:
    """The title and the index of the first line after the opening: the first line's
    description; or else the last of the centred lines under it that does not name the manual
    (its first, when there are several: "Editing more than one file" under "VIM USER MANUAL");
    or else the short line with its tags that opens the text ("Undo and redo  *undo-redo*", in
    the reference manual); or else the file's name."""
    i = 0
    centred: list[str] = []
    while i < len(lines) and (not lines[i].strip() or _indent(lines[i]) >= CENTRED_INDENT):
        text = " ".join(_plain(lines[i]).split())
        if sum(c.isalpha() for c in text) >= MIN_TITLE_LETTERS and not RULE.match(text):
            centred.append(text)  # not a rule, nor a drawing's letters ("k" over "h   l")
        i += 1
    if description and not VERSION.search(description):
        return " ".join(_plain(description).split()), i
    if len(centred) > 1:
        return centred[-1], i
    opening = " ".join(_plain(lines[i]).split()) if i < len(lines) else ""
    if TAG.search(lines[i] if i < len(lines) else "") and 0 < len(opening.split()) <= MAX_HEADING_WORDS:
        return opening, i + 1
    return name, i


def _heading(line: str) -> str:
    return SECTION_NUMBER.sub("", " ".join(_plain(line).split()))


def _is_subheading(line: str, previous: str) -> bool:
    """A line in capitals at the margin, after a blank line: a subsection's heading."""
    text = " ".join(_plain(line).split())
    words = text.split()
    return (not previous.strip() and bool(line[:1].strip()) and bool(CAPITALS.match(text))
            and 0 < len(words) <= MAX_HEADING_WORDS and sum(c.isalpha() for c in text) >= 4
            and not text.startswith("CTRL-") and (len(words) > 1 or len(text) >= 5))


def _item_indent(out: list[str]) -> str:
    """The indentation that keeps a block inside the list item it follows ("2. Edit the color
    scheme file.  These entries are useful:", then a table): the width of the item's marker, when
    the last line at the margin opens an item; else none."""
    for line in reversed(out):
        if line.strip() and not line[:1].isspace():
            m = LIST_LINE.match(line)
            return " " * len(m.group()) if m else ""
    return ""


def _code(lines: list[str], indent: str = "") -> list[str]:
    """An example's lines as a code block, without its blank lines around and its common
    indentation, set in by ``indent``."""
    while lines and not lines[-1].strip():
        lines.pop()
    while lines and not lines[0].strip():
        lines.pop(0)
    if not lines:
        return []
    width = min(_indent(x) for x in lines if x.strip())
    return ["", f"{indent}```", *(f"{indent}{x[width:]}" for x in lines), f"{indent}```", ""]


def _body(lines: list[str]) -> list[str]:
    """The Markdown lines of a help file's text after its opening (see the module's account)."""
    out: list[str] = []
    example: list[str] | None = None
    opens_section = False
    previous = ""
    for tabbed in lines:
        raw = tabbed.expandtabs(8)
        if example is not None:
            if EXAMPLE_END.match(raw):
                out += _code([_plain(x) for x in example], _item_indent(out))
                example = None
                raw = raw[1:]
                if not raw.strip():
                    previous = ""
                    continue
            elif not raw.strip() or raw[:1] == " ":
                example.append(raw)
                continue
            else:
                out += _code([_plain(x) for x in example], _item_indent(out))
                example = None
                previous = ""
        if RULE.match(raw):
            opens_section = True
            out.append("")
            previous = ""
            continue
        if NAVIGATION.match(raw) or MODELINE.search(raw):
            continue
        line = _plain(raw)
        if not line.strip():
            if raw.strip():  # only tags, for the line below
                continue
            out.append("")
            previous = ""
            continue
        if opens_section:
            opens_section = False
            out += ["", f"## {_heading(line)}", ""]
            previous = ""
            continue
        if _is_subheading(line, previous):
            out += ["", f"### {_heading(line)}", ""]
            previous = ""
            continue
        if line.endswith(">") and (line == ">" or line[-2] == " "):
            line = line[:-1].rstrip()
            example = []
        if _indent(line) >= DESCRIPTION_INDENT and out and out[-1].strip() and not out[-1].startswith("```"):
            if TERM.match(out[-1]) and not out[-1].startswith("`"):  # a command, its description under it
                out[-1] = f"`{out[-1]}`: {line.strip()}"
            else:  # a description wrapped under its command
                out[-1] += " " + line.strip()
        elif (m := TABLE_ROW.match(_plain(tabbed))) and example is None:
            last = next((x for x in reversed(out) if x.strip()), "")
            indent = last[:_indent(last)] if ROW.match(last) else _item_indent(out)  # the table's rows align
            out.append(f"{indent}- `{m.group('term')}`: {' '.join(m.group('text').split())}")
        elif m := DESCRIBED.match(_plain(tabbed)):
            text = " ".join(m.group("text").split())
            out.append(f"`{m.group('term').strip()}`: {text[:-1].rstrip() if example is not None else text}")
        elif line.strip() and _indent(line) >= DESCRIPTION_INDENT:
            out.append(line.strip())
        else:
            out.append(line)
        previous = line
    if example is not None:
        out += _code([_plain(x) for x in example], _item_indent(out))
    return out


CONTENTS_LINE = re.compile(r"^\s*\|[^|\s]+\||\|[^|\s]+\|\s*$")  # "|07.1|  Edit another file", "1. Deleting text  |deleting|"


def _without_contents(lines: list[str]) -> list[str]:
    """The lines without the chapter's contents: the lines before its first rule that start or
    end with a link to a section."""
    first_rule = next((i for i, line in enumerate(lines) if RULE.match(line)), 0)
    return [line for line in lines[:first_rule] if not CONTENTS_LINE.search(TAG.sub("", line).rstrip())] + lines[first_rule:]


def _prose_dedented(paragraphs: list[str]) -> list[str]:
    """Paragraphs set in by a tab that are prose (a note: "Note: / Vim puts an error ID at the
    start of each error message.  If you do …"), at the margin; an indented example stays code."""
    out = []
    for para in paragraphs:
        lines = para.split("\n")
        words = para.split()
        prose = (all(_indent(x) >= 4 for x in lines) and len(words) >= MIN_PROSE_WORDS
                 and para.rstrip()[-1:] in ".:!?" and len(PROSE_WORD.findall(para)) >= 0.8 * len(words))
        out.append("\n".join(x.strip() for x in lines) if prose else para)
    return out


def vim_help_to_markdown(raw: str) -> tuple[str, str]:
    """``(title, markdown)`` of a Vim help file (:func:`is_vim_help`)."""
    lines = raw.replace("\r\n", "\n").split("\n")
    start = next(i for i, line in enumerate(lines) if line.strip())
    m = FIRST_LINE.match(lines[start].strip())
    assert m is not None
    title, opening = _title([x.expandtabs(8) for x in lines[start + 1:]], m.group("name"),
                            m.group("description") or "")
    body = _body(_without_contents(lines[start + 1 + opening:]))
    return title, tidy_markdown("\n\n".join(_prose_dedented(split_paragraphs("\n".join(body)))))


__all__ = ["is_vim_help", "vim_help_to_markdown"]
