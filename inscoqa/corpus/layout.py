"""Structure from layout, for documents without markup (plain text, HTML without heading tags).

A Markdown heading is given to:

- numbered headings at the left margin (``1.2. Title``, ``3.1.1. Title``, ``Chapter 7. Title``),
  a heading wrapped over several lines included, when a blank line follows; a one-level number
  (``7. Title``) counts only in a document that also numbers sections ``7.1.``, otherwise it is
  a numbered step;
- question lines: a paragraph of at most :data:`MAX_QUESTION_WORDS` words ending in ``?`` that
  text follows (a line that asks "How/What/Can ...?" directly followed by its answer is split
  from it, and so is a short one that asks without its question mark);
- title-like lines: one short line (at most :data:`MAX_TITLE_WORDS` words) without final
  punctuation, standing alone and followed by a paragraph or a list;
- a line underlined with ``===`` or ``---``.

Question and title headings sit one level below the last numbered heading. Numbered and bulleted
lines become Markdown lists (the readers' own conversion); rules (``-----``) are dropped.
"""

from __future__ import annotations

import re

MAX_QUESTION_WORDS = 30
MAX_TITLE_WORDS = 10
MAX_TITLE_CHARS = 80

NUMBERED_HEADING = re.compile(r"^(?P<number>\d{1,3}(?:\.\d{1,3})*)\.?\s+(?P<text>\S.*)$")
CHAPTER_HEADING = re.compile(r"^(?:Chapter|Part|Appendix)\s+(?:\d{1,3}|[A-Z])\.?\s+(?P<text>\S.*)$")
RULE = re.compile(r"^\s*([-=_*~])(?:\s*\1){2,}\s*$")
SETEXT = re.compile(r"^\s*(=+|-+)\s*$")
LIST_LINE = re.compile(r"^\s*(?:\d{1,3}[.)]|[-*+•·])\s+")
FINAL_PUNCTUATION = re.compile(r"[.,;:!)\]]$")
HEADING = re.compile(r"^#{1,6}\s")
# a line that ends in a word a phrase goes on after: a sentence wrapped there, not a heading
WRAPPED_END = re.compile(r"\b(?:the|a|an|of|to|on|in|for|and|or|with|by|at|from|is|are|your|my|if|that)$", re.I)
QUESTION_START = re.compile(r"^(?:how|what|why|when|where|who|whom|which|can|could|do|does|did|is|are|"
                            r"should|will|would|may|i|my|is there|are there)\b", re.I)


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def numbered_headings(lines: list[str]) -> list[str]:
    """Margin headings (numbered, ``Chapter N.``) as Markdown headings; other lines unchanged."""
    multi = {m.group("number").split(".")[0] for line in lines
             if not line.startswith(" ") and (m := NUMBERED_HEADING.match(line)) and "." in m.group("number")}
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        level, text = _margin_heading(line, multi)
        if level:
            parts, j = [text], i + 1
            while (j < len(lines) and lines[j].strip() and not lines[j].startswith(" ")
                   and not LIST_LINE.match(lines[j]) and len(parts) < 4):
                parts.append(lines[j].strip())
                j += 1
            heading = " ".join(parts)
            if (j >= len(lines) or not lines[j].strip()) and not heading.endswith("."):
                out += ["", "#" * level + " " + heading, ""]
                i = j
                continue
        out.append(line)
        i += 1
    return out


def _margin_heading(line: str, multi: set[str]) -> tuple[int, str]:
    if not line.strip() or line.startswith(" "):
        return 0, ""
    if m := CHAPTER_HEADING.match(line):
        return 2, m.group("text").strip()
    m = NUMBERED_HEADING.match(line)
    if not m:
        return 0, ""
    number = m.group("number").split(".")
    if len(number) == 1 and number[0] not in multi:
        return 0, ""
    return min(6, len(number) + 1), m.group("text").strip()


def dedent_sections(lines: list[str]) -> list[str]:
    """Each run of lines between headings loses its common indentation (so an indented body's
    lists and paragraphs read as Markdown)."""
    out: list[str] = []
    run: list[str] = []

    def flush() -> None:
        width = min((_indent(x) for x in run if x.strip()), default=0)
        out.extend(x[width:] if x.strip() else "" for x in run)
        run.clear()

    for line in lines:
        if HEADING.match(line):
            flush()
            out.append(line)
        else:
            run.append(line)
    flush()
    return out


def layout_headings(markdown: str, *, base_level: int = 2) -> str:
    """Question lines, title-like lines and underlined lines of a Markdown text as headings."""
    paragraphs = _paragraphs(markdown)
    out: list[str] = []
    level = base_level
    numbered_level = base_level - 1
    for i, para in enumerate(paragraphs):
        lines = para.split("\n")
        if HEADING.match(lines[0]):
            hashes = len(lines[0]) - len(lines[0].lstrip("#"))
            if hashes > 1:
                numbered_level = hashes
            level = max(base_level, numbered_level + 1)
            out.append(para)
            continue
        following = paragraphs[i + 1] if i + 1 < len(paragraphs) else ""
        if len(lines) == 2 and SETEXT.match(lines[1]) and _short(lines[0]):
            out.append("#" * (base_level if lines[1].strip()[0] == "=" else level) + " " + lines[0].strip())
            continue
        if RULE.match(para):
            continue
        if len(lines) > 1 and _asks(lines[0], lines[1]) and not LIST_LINE.match(lines[1]) \
                and lines[0].count("“") <= lines[0].count("”"):
            out += ["#" * level + " " + lines[0].strip(), "\n".join(lines[1:])]
            continue
        joined = _unbold(" ".join(x.strip() for x in lines))
        question = _is_question(joined) and _is_text(following)
        title = len(lines) == 1 and _title_like(joined) and (_is_text(following) or _is_list(following))
        if question or title:
            out.append("#" * level + " " + joined)
        else:
            out.append(para)
    return "\n\n".join(out) + "\n"


def has_headings(markdown: str, *, below_title: bool = True) -> bool:
    count = sum(1 for line in markdown.split("\n") if HEADING.match(line))
    return count > (1 if below_title and markdown.lstrip().startswith("# ") else 0)


def _paragraphs(markdown: str) -> list[str]:
    """Blank-line separated paragraphs; fenced code stays one paragraph; a heading line is its own."""
    out: list[str] = []
    current: list[str] = []
    fence = False
    for line in markdown.split("\n"):
        if line.lstrip().startswith(("```", "~~~")):
            fence = not fence
            current.append(line)
            continue
        if fence:
            current.append(line)
            continue
        if not line.strip() or HEADING.match(line):
            if current:
                out.append("\n".join(current))
                current = []
            if line.strip():
                out.append(line)
            continue
        current.append(line)
    if current:
        out.append("\n".join(current))
    return out


def _unbold(text: str) -> str:
    """A paragraph that is all bold or italic, without its markers (a title set in bold)."""
    m = re.fullmatch(r"(\*\*|__|\*|_)(?P<inner>[^*_]+)\1", text.strip())
    return m.group("inner").strip() if m else text


def _short(line: str) -> bool:
    text = line.strip()
    return 0 < len(text.split()) <= MAX_TITLE_WORDS and len(text) <= MAX_TITLE_CHARS


def _is_question(text: str) -> bool:
    text = text.strip()
    return (text.endswith("?") and 2 <= len(text.split()) <= MAX_QUESTION_WORDS
            and not LIST_LINE.match(text) and not text.startswith((">", "|", "`")))


def _asks(line: str, following: str) -> bool:
    """A line that asks "How/What/Can ...", with its question mark or, when it is short, not cut
    off mid-phrase ("How long it takes depends on the") and the next line starts a sentence,
    without it."""
    text = line.strip()
    if not QUESTION_START.match(text):
        return False
    return _is_question(text) or (_title_like(text) and not WRAPPED_END.search(text)
                                  and following.strip()[:1].isupper())


def _title_like(text: str) -> bool:
    return (_short(text) and not FINAL_PUNCTUATION.search(text) and not LIST_LINE.match(text)
            and (text[0].isupper() or text[0].isdigit()) and "://" not in text
            and not text.startswith(("|", ">", "`", "[", "!")))


def _is_text(paragraph: str) -> bool:
    """A paragraph of running text (not a heading, list, table or another short line)."""
    if not paragraph.strip() or HEADING.match(paragraph) or _is_list(paragraph):
        return False
    if paragraph.lstrip().startswith(("|", "```", "~~~")):
        return False
    words = len(paragraph.split())
    return words > MAX_TITLE_WORDS or "\n" in paragraph.strip() or bool(FINAL_PUNCTUATION.search(paragraph.strip()))


def _is_list(paragraph: str) -> bool:
    return bool(LIST_LINE.match(paragraph))
