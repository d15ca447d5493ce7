"""Blocks of a plain text that are no prose, as a DocBook manual printed as text sets them.

- A table drawn with box characters (``┌──┬──┐`` / ``│c │change to a different mailbox│``)
  becomes a Markdown table (:func:`box_tables`).
- An example set on a line of its own inside a sentence goes back into it, as code, or under it
  as a code block (:func:`examples_in_sentences`).
"""

from __future__ import annotations

import re

from inscoqa.corpus.layout import HEADING, LIST_LINE, MAX_TITLE_WORDS, clause, title_like
from inscoqa.corpus.manpage import MAX_TERM_WORDS, term_markdown

BOX_TOP = re.compile(r"^\s*[┌╒╔┏][─═━┬╤╦┳]*[┐╕╗┓]\s*$")  # the top rule of a table drawn with box characters
BOX_LINE = re.compile(r"^\s*[│║┃├╞╠┣└╘╚┗]")
BOX_RULES = "├╞╠┣└╘╚┗"
CODE_CHARACTER = re.compile(r"[=/$@<>{}~\\\[\]]|(?:^|\s)--?\w")  # what a line of code has and prose does not
PROSE_LINE = re.compile(r"[A-Za-z][\w ,;'’()\"“”-]*")  # words and the punctuation between them


def box_tables(lines: list[str]) -> list[str]:
    """Tables drawn with box characters (``┌──┬──┐``, ``│c │change …│``, as a DocBook manual or a
    browser printed as text draws them) as Markdown tables: a row is the lines between two rules,
    each cell's lines joined; the first row is the header."""
    out: list[str] = []
    i = 0
    while i < len(lines):
        if not BOX_TOP.match(lines[i]):
            out.append(lines[i])
            i += 1
            continue
        rows: list[list[str]] = []
        cells: list[list[str]] = []
        i += 1
        while i < len(lines) and BOX_LINE.match(lines[i]):
            line = lines[i].strip()
            i += 1
            if line[0] in BOX_RULES:  # a rule between rows, or the bottom one
                if cells:
                    rows.append([" ".join(" ".join(cell).split()) for cell in cells])
                cells = []
                if line[0] in "└╘╚┗":
                    break
                continue
            parts = line.strip("│║┃").split(line[0])
            cells = cells or [[] for _ in parts]
            for cell, part in zip(cells, parts, strict=False):
                cell.append(part.strip())
        if cells:
            rows.append([" ".join(" ".join(cell).split()) for cell in cells])
        width = max((len(row) for row in rows), default=0)
        if width:
            table = [row + [""] * (width - len(row)) for row in rows]
            out += ["", _table_row(table[0]), _table_row(["---"] * width), *map(_table_row, table[1:]), ""]
    return out


def _table_row(cells: list[str]) -> str:
    return "| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |"


def examples_in_sentences(paragraphs: list[str]) -> list[str]:
    """An example set on a line of its own inside a sentence, as a DocBook manual printed as text
    has it, kept with its sentence: "If you specify / Fcc: filename / as a header, Mutt will ..."
    is one paragraph again, with the example as code; after a sentence that breaks off with no
    text that carries it on ("If you want to use PGP, you can specify / Pgp: [ E | S ]"), an
    example that cannot be a title is a code block under it, and so are lines typed as they are
    (:func:`_typed_lines`) under a sentence that ends with a colon ("To add an alias:")."""
    out: list[str] = []
    i = 0
    while i < len(paragraphs):
        para = paragraphs[i]
        example = paragraphs[i + 1] if i + 1 < len(paragraphs) else ""
        if example and para.rstrip().endswith(":") and _typed_lines(example) and not HEADING.match(para) \
                and not para.startswith(".."):
            out += [para, "```\n" + example.strip() + "\n```"]
            i += 2
            continue
        if example and _example_line(example) and _breaks_off(para) and _running(para):
            following = paragraphs[i + 2] if i + 2 < len(paragraphs) else ""
            if _goes_on(following) and following == following.lstrip():
                out.append(f"{para.rstrip()} `{example.strip()}` {following}")
                i += 3
                continue
            if not title_like(example.strip()):
                out += [para, f"```\n{example.strip()}\n```"]
                i += 2
                continue
        out.append(para)
        i += 1
    return out


def _breaks_off(paragraph: str) -> bool:
    """A paragraph of text that stops inside a sentence ("If you specify", before an example);
    not a heading, nor a short line in capitals that was not made one ("COMMANDS")."""
    text = paragraph.strip()
    return (not HEADING.match(text) and text[-1:].isalnum() and len(text.split()) > 2
            and not text.isupper())


def _running(paragraph: str) -> bool:
    """Running text, not a title or code: several lines, more words than a title has, or a
    clause, whose last line is words at the margin (no command, markup or path: "you can
    specify")."""
    text = paragraph.strip()
    last = paragraph.rstrip().split("\n")[-1].rstrip()
    return (("\n" in text or len(text.split()) > MAX_TITLE_WORDS or clause(text))
            and len(last.split()) >= 3 and bool(PROSE_LINE.fullmatch(last)))


def _example_line(paragraph: str) -> bool:
    """One line at the margin that is no sentence, heading (nor one in capitals), list item or
    code fence: an example's line, as DocBook's text leaves it."""
    return ("\n" not in paragraph.strip() and paragraph == paragraph.lstrip() and not paragraph.isupper()
            and not HEADING.match(paragraph) and not LIST_LINE.match(paragraph)
            and not paragraph.startswith(("```", "~~~", ">", "|", "`", ".. "))
            and not paragraph.rstrip().endswith((".", "!", "?", ":")) and len(paragraph.split()) <= 2 * MAX_TITLE_WORDS)


def _typed_lines(paragraph: str) -> bool:
    """Lines at the margin that are typed as they are, not sentences: none ends as a sentence
    does, and they hold a character of code ("alias muttdude me@cs.hmc.edu") or are several
    lines that start in lower case; not a list, table, heading, title or code fence, nor a
    reStructuredText directive."""
    lines = paragraph.rstrip().split("\n")
    if paragraph != paragraph.lstrip() or HEADING.match(paragraph) or LIST_LINE.match(paragraph) \
            or paragraph.startswith(("```", "~~~", ">", "|", "+", "..")) or (len(lines) == 1 and title_like(lines[0])):
        return False
    if any(line.rstrip().endswith((".", "!", "?", ":")) or line != line.lstrip() for line in lines):
        return False
    return bool(CODE_CHARACTER.search(paragraph)) or (len(lines) > 1 and all(x[:1].islower() for x in lines))


def _goes_on(paragraph: str) -> bool:
    """A paragraph that carries on a sentence ("as a header, Mutt will pick up …." after an
    example line): it starts in lower case and ends as a sentence does."""
    text = paragraph.strip()
    return text[:1].islower() and text.endswith((".", "!", "?")) and len(text.split()) > 5


_WORDS = re.compile(r"[A-Za-z]+(?: [A-Za-z]+)?[.:]?")  # "or" between two examples: words, no code
_PROSE_WORDS = 6  # each line but the last of an indented paragraph of sentences has this many words


def _runs_on(lines: list[str]) -> bool:
    """Two lines or more, each but the last of six words or more, as running text is wrapped."""
    return len(lines) > 1 and all(len(line.split()) >= _PROSE_WORDS for line in lines[:-1])


def _indented_prose(lines: list[str]) -> bool:
    """Sentences indented as a note ("    NOTE for Postfix versions …: do not use the …"):
    running text whose last line ends a sentence."""
    return _runs_on(lines) and lines[-1].rstrip().endswith((".", "!", "?"))


def _sentences(lines: list[str]) -> bool:
    """Lines of text that end a sentence or run on as text does."""
    return bool(lines) and (lines[-1].endswith((".", "!", "?")) or _runs_on(lines))


def _term_list(lines: list[str], widths: list[int]) -> list[str]:
    """Terms, each with its description indented under it in sentences ("    inet:host:port" /
    "        Connect to the specified TCP port …"), as Postfix's README files list what a
    setting takes: each a paragraph "term: description". Nothing when the block is not all
    such terms (a file's name over the settings it holds is code)."""
    margin = min(widths)
    entries: list[tuple[str, list[str]]] = []
    for line, width in zip(lines, widths, strict=True):
        if width == margin and len(line.split()) <= MAX_TERM_WORDS:
            entries.append((term_markdown(line), []))
        elif width > margin and entries and (entries[-1][1] or line.strip()[:1].isalpha()) and "=" not in line:
            entries[-1][1].append(line.strip())
        else:
            return []
    if not all(_sentences(described) for _, described in entries):
        return []
    return [f"{term}: {' '.join(described)}" for term, described in entries]


def indented_blocks(paragraphs: list[str]) -> list[str]:
    """A block that a text indents more than the paragraphs around it (deeper lines inside it
    or not), as a guide printed as text sets what a screen shows and what to type ("  # apt-get
    update", an apt.conf stanza, "Please give the base URL …" that a program prints, Postfix's
    "    /etc/postfix/main.cf:" settings), is a fenced code block, not a paragraph nor code
    that only its indentation marks (which the answerers would read as prose); such blocks
    with only blank lines between them are one. Sentences indented as a note are a
    paragraph, and terms with their descriptions under them are read as such
    (:func:`_term_list`). A list item's lines, and what goes on under one, stay as they are,
    and so does a word or two alone ("or" between two examples)."""
    out: list[str] = []
    after_item = False  # the paragraphs under a list item go on from it
    fenced = False  # the last block is one this made ...
    margin = 0  # ... and the indentation its first part had
    for para in paragraphs:
        lines = [line for line in para.split("\n") if line.strip()]
        widths = [len(line) - len(line.lstrip()) for line in lines]
        if lines and min(widths) >= 1 and not after_item and not LIST_LINE.match(lines[0]) \
                and not (len(lines) == 1 and _WORDS.fullmatch(lines[0].strip())) \
                and not para.lstrip().startswith(("```", "~~~", ">", "|", "#")):
            prose = ["\n".join(line.strip() for line in lines)] if _indented_prose(lines) else _term_list(lines, widths)
            if prose:
                out += prose
                fenced = False
                continue
            margin = margin if fenced else min(widths)
            code = "\n".join(line[min(margin, min(widths)):] for line in lines)
            if fenced:
                out[-1] = out[-1][: -len("\n```")] + "\n\n" + code + "\n```"
            else:
                out.append(f"```\n{code}\n```")
            fenced = True
            continue
        fenced = False
        if lines and widths[0] == 0:
            after_item = bool(LIST_LINE.match(lines[0]))
        out.append(para)
    return out
