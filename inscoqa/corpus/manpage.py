"""A manual page as ``man`` prints it (nroff's layout): plain text, or the one ``<pre>`` block of an
HTML page made from it (Postfix's ``virtual.8.html``).

Its layout says what each line is: a line at the left margin is a section's heading ("NAME",
"MAILBOX LOCATION"), one indented by three spaces a subsection's; the text sits indented under
them, justified with runs of spaces and with words hyphenated at line ends. A line that the
next lines are indented under is a term, with its description (an option: ``-c config_dir``,
then what it does), and so is a tag with its description after it on the line (``-f     Flush
the queue``); options on lines of their own before one description share it; a tag that numbers
(``1)``) or marks (``o``) an item makes a list. The synopsis, text indented deeper than the text
around it, lines indented unevenly, and lines without a sentence's end after a paragraph that
ends with a colon are examples, kept as code. The header and footer lines (``VIRTUAL(8)
VIRTUAL(8)``) are left out; the title is the name line ("virtual - Postfix virtual domain mail
delivery agent").
"""

from __future__ import annotations

import itertools
import re

# "VIRTUAL(8)        VIRTUAL(8)", "git-log(1)   Git Manual   git-log(1)": a page's header
HEADER = re.compile(r"^\s*(?P<name>[\w.:+-]+)\((?P<section>\w+)\)(?:\s{2,}.*)?\s{2,}(?P=name)\((?P=section)\)\s*$")
_COLUMNS = re.compile(r"\S\s{2,}\S.*\S\s{2,}\S")  # three columns: a page's header or footer
# "ser-\n       vices", "ENVIRON‐\n       MENT": one word
_HYPHENATED = re.compile(r"(?<=[a-z])[-\u2010\u00ad]\n\s*(?=[a-z])|(?<=[A-Z])[-\u2010\u00ad]\n\s*(?=[A-Z])")
# an option, a name or a sign written as code: "-c config_dir", "virtual_mailbox_base", "*"
_TERM_CODE = re.compile(r"^(?:-{1,2}\w|\w+[_.]\w|[^\w\s]+$)")
_BULLETS = frozenset({"o", "•", "-", "+"})  # what nroff sets before a list's items
SUBSECTION_INDENT = 3  # nroff sets a subsection's heading three spaces in
MAX_TERMS = 3  # terms that share one description ("-e queue_id", "-f queue_id")
MAX_TERM_WORDS = 6
# a tag, then its text after two spaces or more: "-f     Flush the queue"
_TAGGED = re.compile(r"^\s+(?P<tag>\S+(?: \S+)*?)(?P<gap>\s{2,})(?P<text>\S.*)$")


def is_man_page(text: str) -> bool:
    """Whether ``text`` is a manual page as ``man`` prints it: its first line is the page's
    header, and a NAME section follows."""
    lines = [line for line in text.splitlines() if line.strip()]
    return len(lines) >= 3 and bool(HEADER.match(lines[0])) and any(line.strip() == "NAME" for line in lines[1:4])


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _words(line: str) -> str:
    return " ".join(line.split())


def term_markdown(line: str) -> str:
    """A term as Markdown: an option or a name as code ("`-c config_dir`"), other words as they are."""
    words = _words(line)
    return f"`{words}`" if _TERM_CODE.match(words) else words


def man_to_markdown(text: str) -> tuple[str, str]:
    """``(title, markdown)`` of a manual page (:func:`is_man_page`)."""
    lines = _HYPHENATED.sub("", text.expandtabs(8)).splitlines()  # `man | col -b` keeps nroff's tabs
    header = next((line for line in lines if line.strip()), "")
    found = HEADER.match(header)
    page = f"{found['name']}({found['section']})" if found else ""
    footer = re.compile(r"(?:^|\s{2,})" + re.escape(page) + r"\s*$") if page else None
    lines = [line.rstrip() for line in lines if not (line.strip() and HEADER.match(line))
             and not (footer and footer.search(line))]  # header, footers ("GNU tar 1.34   July 2022   TAR(1)")
    last = max((i for i, line in enumerate(lines) if line.strip()), default=-1)
    if last >= 0 and _indent(lines[last]) == 0 and _COLUMNS.search(lines[last]):
        del lines[last]  # the last footer, in three columns: "BSD    November 28, 2022    BSD"
    out: list[str] = []
    title = section = ""
    base = current = 0  # the indent of the section's text, and of the text being read
    described = -1  # where the last term's description starts
    introduced = False  # the paragraph before ends with a colon: what follows may be an example
    terms: list[str] = []  # options that share the description of the next one
    blocks = _blocks(lines)
    for k, (block, next_indent) in enumerate(blocks):
        first = block[0]
        indent = _indent(first)
        while block and (indent == 0 or indent <= SUBSECTION_INDENT < base):  # headings, maybe with text under them
            if terms:
                out.append(", ".join(terms))
                terms = []
            if indent == 0:  # the section's text: the first line after it indented more than a subsection
                section = _words(first)
                after = itertools.chain(block[1:], (later[0] for later, _ in blocks[k + 1:]))
                base = current = next((_indent(line) for line in after if _indent(line) > SUBSECTION_INDENT), base)
            out.append(f"{'##' if indent == 0 else '###'} {_words(first)}")
            block = block[1:]
            first = block[0] if block else ""
            indent = _indent(first)
        if not block:
            continue
        if indent < current:
            current = max(indent, base)
        heads = _same_indent(block)
        tail = block[len(heads):]
        indents = {_indent(line) for line in tail}
        column = min(indents) if tail else next_indent  # where a term's description starts
        tagged = _TAGGED.match(first)
        text_at = indent + len(tagged["tag"]) + len(tagged["gap"]) if tagged else -1  # where a tag's text starts
        if section == "SYNOPSIS" and not block[-1].endswith(":"):
            out.append(_code(block, min(indent, current)))
        elif tagged and len(heads) == 1 and len(indents) <= 1 \
                and (text_at in (column, described)
                     or tagged["tag"].startswith("-") and not tail):  # an option alone: "-4     Forces IPv4"
            # a term, its description after it on the line: "-f     Flush the queue"; a list's item
            text = " ".join([_words(tagged["text"]), *map(_words, tail)])
            number = re.fullmatch(r"(\d{1,2})[.)]", tagged["tag"])
            out.append(f"{number[1]}. {text}" if number else f"- {text}" if tagged["tag"] in _BULLETS
                       else f"{', '.join([*terms, term_markdown(tagged['tag'])])}: {text}")
            current = described = text_at
            terms = []
        elif tail and len(indents) == 1 and column > indent and (
                len(heads) == 1 or len(heads) <= MAX_TERMS and all(len(line.split()) <= MAX_TERM_WORDS for line in heads)):
            # terms, their description indented under them: "-e queue_id" / "-f queue_id" / "   Request ..."
            out.append(f"{', '.join([*terms, *map(term_markdown, heads)])}: {' '.join(map(_words, tail))}")
            current = described = column
            terms = []
        elif len(block) == 1 and first.strip().startswith("-") and len(first.split()) <= MAX_TERM_WORDS \
                and next_indent == indent:
            terms.append(term_markdown(first))  # an option that shares the next one's description
            continue
        elif tail or indent > current \
                or introduced and not any(line.rstrip().endswith((".", "!", "?")) for line in block):
            out.append(_code(block, min(indent, current)))
        else:
            out.append(" ".join(map(_words, block)))
            title = title or (out[-1] if section == "NAME" else "")
        if terms:  # options whose description did not follow
            out.insert(len(out) - 1, ", ".join(terms))
            terms = []
        introduced = out[-1].endswith(":") and not out[-1].startswith("```")
    return title or page, "\n\n".join(out)


def _same_indent(block: list[str]) -> list[str]:
    """The first lines of ``block`` that are indented as its first line is."""
    indent = _indent(block[0])
    return list(itertools.takewhile(lambda line: _indent(line) == indent, block))


def _code(block: list[str], indent: int) -> str:
    return "```\n" + "\n".join(line[indent:] for line in block) + "\n```"


def _blocks(lines: list[str]) -> list[tuple[list[str], int]]:
    """The runs of lines between blank lines, each with the indent of the line after it; a run
    is cut where a line comes back to its first line's indent after lines indented deeper (terms
    one after another without a blank line: "( expression )" / "   Returns …" / "! expression")."""
    runs: list[list[str]] = []
    for line in lines:
        if not line.strip():
            if runs and runs[-1]:
                runs.append([])
        elif runs and runs[-1] and not (_indent(line) == _indent(runs[-1][0]) < _indent(runs[-1][-1])):
            runs[-1].append(line)
        else:
            runs.append([line])
    runs = [run for run in runs if run]
    return [(run, _indent(runs[i + 1][0]) if i + 1 < len(runs) else 0) for i, run in enumerate(runs)]


__all__ = ["HEADER", "is_man_page", "man_to_markdown"]
