"""Plain text: the first non-empty line is the title; structure comes from the layout.

Numbered and bulleted lines become Markdown lists; numbered headings (``1.2. Title``), question
lines and title-like lines become headings (see :mod:`inscoqa.corpus.layout`); tables drawn with
box characters, examples set inside sentences and blocks indented under their paragraphs are
read as such (:mod:`inscoqa.corpus.textblocks`); footnotes ("^[1]") are Markdown's ("[^1]").
"""

from __future__ import annotations

import re
from pathlib import Path

from inscoqa.corpus.common import notes_as_quotes, read_text, tidy_markdown
from inscoqa.corpus.document import Document
from inscoqa.corpus.layout import (
    RULE,
    dedent_sections,
    layout_headings,
    numbered_headings,
    split_paragraphs,
)
from inscoqa.corpus.manpage import is_man_page, man_to_markdown
from inscoqa.corpus.textblocks import box_tables, examples_in_sentences, indented_blocks
from inscoqa.corpus.vimhelp import is_vim_help, vim_help_to_markdown

_HASH = "\ue000"  # a "#" that starts a line of the text, until the layout is known
# where such a line ends up as a heading would (not indented as code, "#" then a space): escaped
_HASH_LINE = re.compile(f"^( {{0,3}}){_HASH}(?=#{{0,5}}(?:\\s|$))", re.M)
_NUMBERED = re.compile(r"^(\s*)(\d+)[.)]\s+")
_BULLET = re.compile(r"^(\s*)[*•·+-]\s+")


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


def text_to_markdown(raw: str) -> tuple[str, str]:
    """``(title, markdown)`` of a plain-text document; a manual page as ``man`` prints it is read
    by its own layout (:mod:`inscoqa.corpus.manpage`), a Vim help file by its markup
    (:mod:`inscoqa.corpus.vimhelp`)."""
    if is_man_page(raw):
        return man_to_markdown(raw)
    if is_vim_help(raw):
        return vim_help_to_markdown(raw)
    raw = raw.replace("\xa0", " ").replace("\t", "    ")
    lines = [_footnotes(line.rstrip()) for line in raw.split("\n")]
    start = next((i for i, line in enumerate(lines) if line.strip()), len(lines))
    title = lines[start].strip().lstrip("#").strip() if start < len(lines) else ""
    # a line of the text that starts with "#" (a shell prompt, a comment) is text, not a heading
    rest = [re.sub(r"^(\s*)#", f"\\1{_HASH}", line) for line in box_tables(lines[start + 1 :]) if not RULE.match(line)]
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
    parts = re.split(r"(^```[^\n]*\n.*?^```$)", body, flags=re.M | re.S)
    body = "".join(part if part.startswith("```") else _HASH_LINE.sub(r"\1\\#", part) for part in parts)
    return title, body.replace(_HASH, "#")


def read_text_document(path: Path, *, doc_id: str) -> Document:
    title, body = text_to_markdown(read_text(path))
    title = title or path.stem
    text = tidy_markdown(f"# {title}\n\n{body}") if body.strip() else f"# {title}\n"
    meta = {"format": "text", "path": str(path), "date": None}
    return Document(doc_id=doc_id, title=title, text=text, meta=meta)
