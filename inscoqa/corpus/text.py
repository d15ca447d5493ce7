"""Plain text: the first non-empty line is the title; structure comes from the layout.

Numbered and bulleted lines become Markdown lists; numbered headings (``1.2. Title``), question
lines and title-like lines become headings, and so do lines underlined with "===" or "---" (see
:mod:`inscoqa.corpus.layout`); examples set between scissors lines ("---%<---") are code; tables
drawn with box characters, examples set inside sentences and blocks indented under their
paragraphs are read as such (:mod:`inscoqa.corpus.textblocks`); footnotes ("^[1]") are
Markdown's ("[^1]").
"""

from __future__ import annotations

import re
from pathlib import Path

from inscoqa.corpus.asciidoc import asciidoc_to_markdown, is_asciidoc
from inscoqa.corpus.common import notes_as_quotes, read_text, tidy_markdown
from inscoqa.corpus.document import Document
from inscoqa.corpus.layout import (
    CONTENTS_LABEL,
    LIST_LINE,
    MAX_TITLE_WORDS,
    RULE,
    SETEXT,
    dedent_sections,
    layout_headings,
    numbered_headings,
    outside_code,
    split_paragraphs,
)
from inscoqa.corpus.manpage import is_man_page, man_to_markdown
from inscoqa.corpus.rst import is_rst, read_rst
from inscoqa.corpus.textblocks import box_tables, examples_in_sentences, indented_blocks
from inscoqa.corpus.vimhelp import is_vim_help, vim_help_to_markdown
from inscoqa.corpus.wikitext import is_wiki_text, wiki_text_to_markdown

_HASH = "\ue000"  # a "#" that starts a line of the text, until the layout is known
# where such a line ends up as a heading would (not indented as code, "#" then a space): escaped
_HASH_LINE = re.compile(f"^( {{0,3}}){_HASH}(?=#{{0,5}}(?:\\s|$))", re.M)
_NUMBERED = re.compile(r"^(\s*)(\d+)[.)]\s+")
# a line of dashes with scissors in it ("---%<-----", "-- >8 --") that opens or closes an example
SCISSORS = re.compile(r"^\s*-{2,}\s*(?:%<|8<|>8|>%)\s*-*\s*$")
_CODE_SLOT = "\ue001"  # where an example cut out of the text goes back, as a code block
_BULLET = re.compile(r"^(\s*)[*•·+-]\s+")
# a character struck over by the next, as nroff prints bold ("H\bH") and underlined ("_\bH") text
_OVERSTRUCK = re.compile(r"[^\n]\x08")
_BOLD_LINE = re.compile(r"(?:([^\s\x08])\x08\1|[ \t])*[A-Za-z]\x08[A-Za-z](?:([^\s\x08])\x08\2|[ \t])*")
_BOLD = "\ue002"  # a line nroff printed in bold, a heading, until the layout is read


# a footnote as a DocBook manual printed as text marks it, "^[1]", and the note itself, "^[1] If …"
_FOOTNOTE = re.compile(r"\^\[(\d{1,3})\]")
_FOOTNOTE_TEXT = re.compile(r"^(\s*)\^\[(\d{1,3})\](?:\s+|$)")


def _footnotes(line: str) -> str:
    """DocBook's text footnotes as Markdown's: "^[1]" is "[^1]", a line that opens with it "[^1]: …"."""
    return _FOOTNOTE.sub(r"[^\1]", _FOOTNOTE_TEXT.sub(r"\1[^\2]: ", line))


def _markdown_line(line: str) -> str:
    if line.startswith("#"):
        return line
    line = _NUMBERED.sub(lambda m: f"{m.group(1)}{m.group(2)}. ", line)
    return _BULLET.sub(lambda m: f"{m.group(1)}- ", line)


def cut_examples(lines: list[str]) -> tuple[list[str], list[str]]:
    """The examples a text sets between scissors lines ("---%<-----" above and below, as a wiki
    exported as text has them), each cut out and left as a code block that holds only its
    number, so that nothing reads their lines as text: ``(lines, examples)``. A scissors line
    without a partner stays."""
    out: list[str] = []
    examples: list[str] = []
    i = 0
    while i < len(lines):
        end = next((j for j in range(i + 1, len(lines)) if SCISSORS.match(lines[j])), None) \
            if SCISSORS.match(lines[i]) else None
        if end is None:
            out.append(lines[i])
            i += 1
            continue
        body = lines[i + 1 : end]
        indent = min((len(x) - len(x.lstrip()) for x in body if x.strip()), default=0)
        examples.append("\n".join(x[indent:] for x in body).strip("\n"))
        out += ["", "```", f"{_CODE_SLOT}{len(examples) - 1}{_CODE_SLOT}", "```", ""]
        i = end + 1
    return out, examples


def _put_back(markdown: str, examples: list[str]) -> str:
    return re.sub(f"{_CODE_SLOT}(\\d+){_CODE_SLOT}", lambda m: examples[int(m.group(1))], markdown)


def _underline(lines: list[str], i: int) -> bool:
    """Line ``i`` underlines the short line above it with "===" or "---" (a heading)."""
    return bool(i and SETEXT.match(lines[i]) and lines[i - 1].strip() and not RULE.match(lines[i - 1])
                and not LIST_LINE.match(lines[i - 1]) and len(lines[i - 1].split()) <= MAX_TITLE_WORDS)


def _bold_lines_marked(text: str, struck: str) -> str:
    """``text`` with each line that nroff printed all in bold (in ``struck``, the text as
    printed) and a blank line after marked as a heading: Postfix's "Configuring Postfix as
    primary or backup MX host for a remote site" is longer than a title found in the layout
    alone. A bold line with lines under it is a term ("encrypt", its description indented)."""
    lines, printed = text.split("\n"), struck.split("\n")
    return "\n".join(f"{_BOLD}{line}" if _BOLD_LINE.fullmatch(printed[i]) and (i + 1 == len(lines) or not lines[i + 1].strip())
                     else line for i, line in enumerate(lines))


def text_to_markdown(raw: str) -> tuple[str, str]:
    """``(title, markdown)`` of a plain-text document; a manual page as ``man`` prints it is read
    by its own layout (:mod:`inscoqa.corpus.manpage`), a Vim help file, a page written in AsciiDoc
    and a DokuWiki or Zim page by their markup (:mod:`inscoqa.corpus.vimhelp`,
    :mod:`inscoqa.corpus.asciidoc`, :mod:`inscoqa.corpus.wikitext`). Text printed by nroff
    for a terminal keeps what it strikes over (bold, underlined): the last character is kept."""
    struck, raw = raw, _OVERSTRUCK.sub("", raw)
    if is_man_page(raw):
        return man_to_markdown(raw)
    if is_vim_help(raw):
        return vim_help_to_markdown(raw)
    if is_asciidoc(raw):
        return asciidoc_to_markdown(raw)
    if is_wiki_text(raw):
        return wiki_text_to_markdown(raw)
    raw = _bold_lines_marked(raw, struck)
    raw = raw.replace("\xa0", " ").replace("\t", "    ")
    lines, examples = cut_examples([_footnotes(line.rstrip()) for line in raw.split("\n")])
    start = next((i for i, line in enumerate(lines) if line.strip()), len(lines))
    title = lines[start].strip().lstrip(_BOLD).lstrip("#").strip() if start < len(lines) else ""
    if CONTENTS_LABEL.match(title):  # a page that opens with its contents has no title line
        title, start = "", start - 1
    # a line of the text that starts with "#" (a shell prompt, a comment) is text, not a heading
    # a rule is dropped, but a line it underlines is a heading (the title's own underline goes)
    rest = box_tables([line for i, line in enumerate(lines) if i > start and (not RULE.match(line) or
                       (i > start + 1 and _underline(lines, i)))])
    rest = [re.sub(r"^(\s*)#", f"\\1{_HASH}", line) for line in rest]
    rest = [f"## {line.strip().removeprefix(_BOLD).strip()}" if line.lstrip().startswith(_BOLD) else line
            for line in rest]  # a line in bold is a heading, however long
    rest = dedent_sections(numbered_headings(rest))
    body = tidy_markdown("\n".join(_markdown_line(line) for line in rest))
    if not body.strip():
        return title, ""
    # an example inside a sentence is no title; the headings found in the layout free what is
    # indented under them (an FAQ's answers)
    body = layout_headings("\n\n".join(examples_in_sentences(split_paragraphs(body))))
    body = notes_as_quotes("\n".join(dedent_sections(body.split("\n"))))
    body = "\n\n".join(indented_blocks(split_paragraphs(body)))  # a screen or an example set in
    # a "#" that would start a heading is escaped, outside code
    body = outside_code(body, lambda part: _HASH_LINE.sub(r"\1\\#", part))
    return title, _put_back(body.replace(_HASH, "#"), examples)


def title_from_name(stem: str) -> str:
    """A file's name as a title, for a text without a title line: "SSL.DovecotConfiguration" is
    "SSL Dovecot Configuration"."""
    words = re.sub(r"(?<=[a-z])(?=[A-Z])", " ", re.sub(r"[._]+", " ", stem))
    return " ".join(words.split()) or stem


def read_text_document(path: Path, *, doc_id: str) -> Document:
    """A plain-text page; one written in reStructuredText (``.. contents::``, a title between two
    rules, ":Author:" fields) is read as such (:mod:`inscoqa.corpus.rst`)."""
    raw = read_text(path)
    if is_rst(raw) and not is_asciidoc(raw):  # AsciiDoc's attributes and "term::" lists look alike
        return read_rst(path, doc_id=doc_id, source=raw)
    title, body = text_to_markdown(raw)
    title = title or title_from_name(path.stem)
    text = tidy_markdown(f"# {title}\n\n{body}") if body.strip() else f"# {title}\n"
    meta = {"format": "text", "path": str(path), "date": None}
    return Document(doc_id=doc_id, title=title, text=text, meta=meta)
