"""Structure from layout, for documents without markup (plain text, HTML without heading tags).

A Markdown heading is given to:

- numbered headings at the left margin (``1.2. Title``, ``3.1.1. Title``, ``Chapter 7. Title``),
  a heading wrapped over several lines included, between blank lines (or a numbered question
  whose answer starts on the next line); a one-level number (``7. Title``) counts only in a
  document that also numbers sections ``7.1.``, otherwise it is a numbered step; a sentence
  counts only under a section number and with text after it (a problem an FAQ states);
- question lines: a paragraph of at most :data:`MAX_QUESTION_WORDS` words ending in ``?`` that
  text follows (a line that asks "How/What/Can ...?" directly followed by its answer is split
  from it, and so is a short one that asks without its question mark); ``Q:`` / ``A:`` labels
  are not the question's words, and an answer is never a heading;
- the items of an FAQ written as a numbered list, each with its answer indented under it, when
  most of them ask (:func:`numbered_questions`);
- title-like lines: one short line (at most :data:`MAX_TITLE_WORDS` words) without final
  punctuation, standing alone and followed by a paragraph, a list or a table (its caption); not
  a clause that breaks off ("You can also attach files to your message by specifying", before
  an example line);
- a line underlined with ``===`` or ``---``.

A table of contents (section numbers the text repeats as headings, with its group labels and
wrapped entries) is left out, and so is a block of entries under a label ("Table of Contents",
"List of Tables") whose titles the text gives again; a one-level number (``21. Title``) that such
a block lists is a heading, as a DocBook manual that numbers sections afresh in each chapter has.
A page that has headings keeps them, and only its questions set in bold become headings
(:func:`bold_questions`).

Question and title headings sit one level below the last numbered heading. Numbered and bulleted
lines become Markdown lists (the readers' own conversion); rules (``-----``) are dropped.
"""

from __future__ import annotations

import re
from collections.abc import Callable

MAX_QUESTION_WORDS = 30
MAX_TITLE_WORDS = 10
MAX_TITLE_CHARS = 80
MIN_FAQ_ITEMS = 3  # numbered questions with their answers indented under them

NUMBERED_HEADING = re.compile(r"^(?P<number>\d{1,3}(?:\.\d{1,3})*)\.?\s+(?P<text>\S.*)$")
SECTION_NUMBER = re.compile(r"^\s*\d{1,3}(?:\.\d{1,3})+\.?\s+\S")
# a block of entries under such a label: "List of Tables", then "2.4. Most common message index keys"
CONTENTS_LABEL = re.compile(r"^\s*(?:table of contents|contents|list of (?:tables|figures|examples|procedures))"
                            r"\s*:?\s*$", re.I)
CONTENTS_ENTRY = re.compile(r"^\s*(?:\d{1,3}(?:\.\d{1,3})*\.?|[A-Z]\.)\s+(?P<title>\S.*)$")
# what a heading the contents list may carry before its title: "Chapter 3.", "Table 2.4.", "21."
TITLE_PREFIX = re.compile(r"^\s*(?:(?:chapter|part|appendix|section|table|figure|example)\s+)?"
                          r"(?:\d{1,3}(?:\.\d{1,3})*\.?|[A-Z]\.)\s+", re.I)
CHAPTER_HEADING = re.compile(r"^(?:Chapter|Part|Appendix)\s+(?:\d{1,3}|[A-Z])\.?\s+(?P<text>\S.*)$")
RULE = re.compile(r"^\s*([-=_*~])(?:\s*\1){2,}\s*$")
SETEXT = re.compile(r"^\s*(=+|-+)\s*$")
LIST_LINE = re.compile(r"^\s*(?:\d{1,3}[.)]|[-*+•·])\s+")
NUMBERED_ITEM = re.compile(r"^\s{0,3}\d{1,3}[.)]\s+(?P<text>\S.*)$")
QUESTION_LABEL = re.compile(r"^\s*(?:Q|Question)\s*[:.]\s+", re.I)
ANSWER_LABEL = re.compile(r"^\s*(?:A|Answer)\s*[:.]\s+", re.I)
BOLD_NUMBER = re.compile(r"\*\*\d{1,3}(?:\.\d{1,3})*\.?\*\*")
FINAL_PUNCTUATION = re.compile(r"[.,;:!)\]]$")
HEADING = re.compile(r"^#{1,6}\s")
LINK_ONLY = re.compile(r"\[[^\]]*\]\([^)]*\)")  # a Markdown link and nothing else
# a line that ends in a word a phrase goes on after: a sentence wrapped there, not a heading
WRAPPED_END = re.compile(r"\b(?:the|a|an|of|to|on|in|for|and|or|with|by|at|from|is|are|your|my|if|that)$", re.I)
# how a clause starts, not a title: a condition, a time, a reason, or a pronoun as its subject
CLAUSE_START = re.compile(r"^(?:if|when|whenever|while|once|as|because|since|unless|although|though|so|"
                          r"you|we|i|it|they|this|these|then)\b", re.I)
QUESTION_START = re.compile(r"^(?:how|what|why|when|where|who|whom|which|can|could|do|does|did|is|are|"
                            r"should|will|would|may|i|my|is there|are there)\b", re.I)


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def numbered_headings(lines: list[str]) -> list[str]:
    """Margin headings (numbered, ``Chapter N.``) as Markdown headings; other lines unchanged.

    A heading stands after a blank line and before one. A section number that a later line
    repeats is an entry of the table of contents, which is left out: the headings give it again,
    and a search would find the contents' list of questions for every question."""
    numbers = [_section_number(line) for line in lines]
    multi = {n.split(".")[0] for n in numbers if "." in n}
    labelled, listed = _labelled_contents(lines)
    contents = _contents(lines, numbers) | labelled
    out: list[str] = []
    i = 0
    while i < len(lines):
        if i in contents:
            i += 1
            continue
        level, text = _margin_heading(lines[i], multi, listed)
        if level and (i == 0 or not lines[i - 1].strip()):
            heading, j = _wrapped(lines, i + 1, text, multi, listed)
            # a blank line follows, or the question ends and its answer starts on the next line;
            # a sentence is no heading unless a section number leads it and text follows it
            # ("3.1. Programs run OK, but crash at exit.", a problem an FAQ states; not a step)
            following = next((k for k in range(j, len(lines)) if lines[k].strip()), len(lines))
            sentence = heading.endswith(".") and (
                "." not in numbers[i] or len(heading.split()) > MAX_QUESTION_WORDS
                or following == len(lines) or bool(numbers[following]))
            if (j >= len(lines) or not lines[j].strip() or heading.endswith("?")) and not sentence:
                out += ["", "#" * level + " " + heading, ""]
                i = j
                continue
        out.append(lines[i])
        i += 1
    return out


def _contents(lines: list[str], numbers: list[str]) -> set[int]:
    """The lines of tables of contents: the entries (a section number that a later line repeats;
    a line that stands alone as a heading does must also share the later line's first words, as
    a manual that numbers sections afresh in each chapter has "12.1." in several), an entry's
    wrapped end (indented), and what stands between two entries when it is all short lines (a
    chapter's name, a group's label) and blank lines."""
    last = {n: i for i, n in enumerate(numbers) if n}
    keys = [f"{n} {_first_words(line)}" if n else "" for n, line in zip(numbers, lines, strict=True)]
    last_key = {key: i for i, key in enumerate(keys) if key}

    def alone(i: int) -> bool:  # a heading's place: no numbered line right before or after it
        return not any(0 <= k < len(lines) and numbers[k] for k in (i - 1, i + 1))

    entries = [i for i, n in enumerate(numbers)
               if "." in n and last[n] > i and (last_key[keys[i]] > i or not alone(i))]
    found = set(entries)
    for i in entries:
        k = i + 1
        while k < len(lines) and lines[k].startswith(" ") and lines[k].strip() and not numbers[k]:
            found.add(k)
            k += 1
    for a, b in zip(entries, entries[1:], strict=False):
        gap = [k for k in range(a + 1, b) if k not in found]
        if all(not lines[k].strip() or len(lines[k].split()) <= MAX_TITLE_WORDS for k in gap):
            found.update(gap)
    return found


def _first_words(line: str, count: int = 4) -> str:
    """The first words of a numbered line's title, as a contents entry and its heading share them
    (the rest may wrap at another place)."""
    m = NUMBERED_HEADING.match(line.strip())
    return " ".join((m.group("text") if m else line).lower().split()[:count])


def _labelled_contents(lines: list[str]) -> tuple[set[int], set[str]]:
    """The lines of the blocks of entries under a label ("Table of Contents", "List of Tables";
    the label, its entries and an entry's wrapped end), where the text gives most of the block's
    titles again after it; and those blocks' entries, stripped ("21. Change Settings Based Upon
    Message Recipients"). A block ends at the first other line, or at an entry it has listed
    already: the section that a chapter's own contents list starts with."""
    later: dict[str, int] = {}  # a title, and the last line that gives it
    for i, line in enumerate(lines):
        if line.strip():
            later[TITLE_PREFIX.sub("", line).strip()] = i
    found: set[int] = set()
    listed: set[str] = set()
    i = 0
    while i < len(lines):
        if not CONTENTS_LABEL.match(lines[i]):
            i += 1
            continue
        block, entries, seen, indent = [i], [], set(), 0
        k = i + 1
        while k < len(lines):
            line = lines[k].rstrip()
            entry = CONTENTS_ENTRY.match(line)
            if entry and line not in seen:
                seen.add(line)
                entries.append((line.strip(), entry.group("title").strip()))
                indent = _indent(line)
            elif line and not CONTENTS_LABEL.match(line):
                # an entry wrapped onto the next line, under it
                wrapped = (entries and lines[k - 1].strip() and _indent(line) >= indent
                           and len(line.split()) <= MAX_QUESTION_WORDS)
                if not wrapped:
                    break
            block.append(k)
            k += 1
        end = block[-1]
        if entries and 2 * sum(later.get(title, -1) > end for _, title in entries) >= len(entries):
            found.update(block)
            listed.update(line for line, _ in entries)
        i = k
    return found, listed


def _section_number(line: str) -> str:
    m = None if line.startswith(" ") else NUMBERED_HEADING.match(line)
    return m.group("number").rstrip(".") if m else ""


def _wrapped(lines: list[str], j: int, text: str, multi: set[str], listed: set[str]) -> tuple[str, int]:
    """A heading wrapped over the lines from ``j`` on, and the index after it: lines at the
    margin (not a numbered line, which is an entry of its own), or an indented line that ends
    the question (``1.2.4 Why can't I get the result reported in`` / ``README?``)."""
    parts = [text]
    while (j < len(lines) and lines[j].strip() and not lines[j].startswith(" ") and not parts[-1].endswith("?")
           and not LIST_LINE.match(lines[j]) and not _margin_heading(lines[j], multi, listed)[0]
           and len(parts) < 4):
        parts.append(lines[j].strip())
        j += 1
    if (j + 1 < len(lines) and lines[j].startswith(" ") and lines[j].rstrip().endswith("?")
            and not lines[j + 1].strip() and not parts[-1].endswith((".", "?"))):
        parts.append(lines[j].strip())
        j += 1
    return " ".join(parts), j


def _margin_heading(line: str, multi: set[str], listed: set[str]) -> tuple[int, str]:
    if not line.strip() or line.startswith(" "):
        return 0, ""
    if m := CHAPTER_HEADING.match(line):
        return 2, m.group("text").strip()
    m = NUMBERED_HEADING.match(line)
    if not m or LINK_ONLY.fullmatch(m.group("text").strip()):  # a link: an entry of a list of contents
        return 0, ""
    number = m.group("number").split(".")
    if len(number) == 1 and number[0] not in multi and line.strip() not in listed:
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
    paragraphs = split_paragraphs(markdown)
    questions = numbered_questions(paragraphs)
    # "Q: ... / A: ...": the labels are not the question's words, and an answer is never a heading
    labelled = any(QUESTION_LABEL.match(p) for p in paragraphs)
    out: list[str] = []
    level = base_level
    numbered_level = base_level - 1
    for i, para in enumerate(paragraphs):
        lines = para.split("\n")
        if i in questions:
            out.append("#" * level + " " + questions[i])
            continue
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
        if any(SECTION_NUMBER.match(line) for line in lines):
            out.append(para)  # numbered sections were read before: these are contents entries
            continue
        if labelled and ANSWER_LABEL.match(para):
            out.append(para)
            continue
        if labelled:
            lines[0] = QUESTION_LABEL.sub("", lines[0])
        if len(lines) > 1 and _asks(lines[0], lines[1]) and not LIST_LINE.match(lines[1]) \
                and lines[0].count("“") <= lines[0].count("”") and not _is_question(" ".join(lines)):
            out += ["#" * level + " " + lines[0].strip(), "\n".join(lines[1:])]
            continue
        joined = _unbold(" ".join(x.strip() for x in lines))
        answered = _is_text(following) or bool(labelled and ANSWER_LABEL.match(following))
        question = _is_question(joined) and answered
        title = (len(lines) == 1 and title_like(joined) and not clause(joined)
                 and (_is_text(following) or _is_list(following) or following.startswith("| ")))
        if question or title:
            out.append("#" * level + " " + joined)
        else:
            out.append(para)  # (a question label stays where no question follows it)
    return "\n\n".join(out) + "\n"


# a heading over a page's own table of contents: "Contents", "Content", "On this page"
CONTENTS_HEADING = re.compile(r"^#{1,6}\s+(?:(?:table of )?contents?|on this page|in this (?:article|page|section))"
                              r"\s*:?\s*$", re.I)
# the label of an answer set in bold: "**A:** The size depends on the font size"
BOLD_ANSWER_LABEL = re.compile(r"^\s*\*\*(?:A|Answer)\s*[:.]\*\*\s*|^\s*\*\*(?:A|Answer)\*\*\s*[:.]\s*", re.I)


def bold_questions(markdown: str) -> str:
    """In a page that has headings, a question set in bold on its own and followed by its answer
    (a DocBook question-and-answer set) as a heading one level below the heading it stands under,
    and so is any short bold line under a bold number (``**4.5.**``), which goes; so is a
    question labelled "Q:" over an answer labelled "A:", bold or not, both without their labels
    (a hand-written FAQ's ``<p class="bold">Q: How to make function keys bigger?</p>``, then
    ``<p><b>A:</b> The size depends on …</p>``). A section headed "Contents" (or "On this page")
    that holds only its entries, short lines and the headings they became, is left out: the
    page's headings say it again."""
    paragraphs = _without_contents_section(split_paragraphs(markdown))
    out: list[str] = []
    level = 1
    answer_label = False  # the paragraph is the answer of a labelled question
    for i, para in enumerate(paragraphs):
        if HEADING.match(para):
            level = _heading_level(para)
            out.append(para)
            continue
        if answer_label:
            para, answer_label = ANSWER_LABEL.sub("", BOLD_ANSWER_LABEL.sub("", para, count=1), count=1), False
        following = paragraphs[i + 1] if i + 1 < len(paragraphs) else ""
        question = _unbold(para.strip())
        numbered = bool(out) and bool(BOLD_NUMBER.fullmatch(out[-1].strip()))  # "**4.6.**" above it
        bold = question != para.strip() and "\n" not in question
        # the labels say what is asked and what answers, whether it ends with a question mark
        # or not ("Q: When all files are selected, there is no way to deselect them.")
        asked = QUESTION_LABEL.sub("", question, count=1)
        if asked != question and "\n" not in question and len(asked.split()) <= 2 * MAX_QUESTION_WORDS \
                and (ANSWER_LABEL.match(following) or BOLD_ANSWER_LABEL.match(following)):
            out.append("#" * min(6, level + 1) + " " + asked)
            answer_label = True
        elif bold and ((_is_question(question) and _is_text(following))
                       or (numbered and following.strip() and len(question.split()) <= MAX_QUESTION_WORDS)):
            if numbered:
                out.pop()
            out.append("#" * min(6, level + 1) + " " + question)
        else:
            out.append(para)
    return "\n\n".join(out) + "\n"


def _without_contents_section(paragraphs: list[str]) -> list[str]:
    """``paragraphs`` without a section headed "Contents" whose paragraphs, up to the next heading
    of its level or above, are all entries: headings (a contents list set as terms and
    descriptions becomes them) or short lines without a sentence's end ("1. Introduction",
    "3.1.1. Advanced patterns")."""
    out: list[str] = []
    i = 0
    while i < len(paragraphs):
        para = paragraphs[i]
        if CONTENTS_HEADING.match(para.strip()):
            level = _heading_level(para)
            end = i + 1
            while end < len(paragraphs) and not (HEADING.match(paragraphs[end]) and _heading_level(paragraphs[end]) <= level):
                end += 1
            entries = paragraphs[i + 1:end]
            if entries and all(HEADING.match(e) or all(_contents_line(line) for line in e.strip().splitlines())
                               for e in entries):
                i = end
                continue
        out.append(para)
        i += 1
    return out


def _contents_line(line: str) -> bool:
    """A line a table of contents lists: short and no sentence ("2. Tab "Standard""), or under
    a section number of two parts or more, however long (an FAQ's "4.7. How to automatically
    unpack and run file from an open archive? It is inconvenient to …")."""
    text = line.strip()
    short = bool(text) and len(text.split()) <= MAX_TITLE_WORDS and not FINAL_PUNCTUATION.search(text)
    numbered = bool(CONTENTS_ENTRY.match(text))
    return short or (numbered and (bool(SECTION_NUMBER.match(text)) or len(text.split()) <= MAX_TITLE_WORDS))


def _heading_level(heading: str) -> int:
    """The level of a Markdown heading: its number of ``#``."""
    text = heading.strip()
    return len(text) - len(text.lstrip("#"))


def numbered_questions(paragraphs: list[str]) -> dict[int, str]:
    """An FAQ numbered as a list: one-line items (`` 1. Is zlib Y2K-compliant?``), each with its
    answer indented under it. When most such items ask, all of them are the FAQ's questions
    ("4. compress() returns Z_BUF_ERROR." among them); a list of steps with notes under them
    (not asking) stays a list. Their index among ``paragraphs``, and their text."""
    items = {}
    for i, para in enumerate(paragraphs[:-1]):
        m = NUMBERED_ITEM.match(para)
        answer = paragraphs[i + 1]
        if m and "\n" not in para.strip() and _indent(answer) >= 2 and _is_text(answer.strip()):
            items[i] = m.group("text").strip()
    asking = sum(text.endswith("?") for text in items.values())
    return items if len(items) >= MIN_FAQ_ITEMS and 2 * asking >= len(items) else {}


def has_headings(markdown: str, *, below_title: bool = True) -> bool:
    count = sum(1 for line in markdown.split("\n") if HEADING.match(line))
    return count > (1 if below_title and markdown.lstrip().startswith("# ") else 0)


def divided_by_headings(markdown: str) -> bool:
    """Whether more than one heading has text of its own under it. A page whose headings all
    stand over its body (a site's name, the page's title, its chapter's number and title, one
    after the other) is one section, which only its layout may divide."""
    paragraphs = split_paragraphs(markdown)
    return sum(1 for para, following in zip(paragraphs, paragraphs[1:], strict=False)
               if HEADING.match(para) and not HEADING.match(following)) > 1


FENCED_CODE = re.compile(r"(^```[^\n]*\n.*?^```$)", re.M | re.S)


def outside_code(markdown: str, change: Callable[[str], str]) -> str:
    """``markdown`` with ``change`` made to each of its parts outside fenced code blocks."""
    return "".join(part if part.startswith("```") else change(part) for part in FENCED_CODE.split(markdown))


def numbered_sections(markdown: str) -> str:
    """A Markdown text's numbered margin headings (:func:`numbered_headings`) outside its code."""
    return outside_code(markdown, lambda part: "\n".join(numbered_headings(part.split("\n"))))


def split_paragraphs(markdown: str) -> list[str]:
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
    """A paragraph that is all bold or italic, without its markers (a title set in bold; code in
    it may hold underscores, as ``__libc_freeres`` does)."""
    m = re.fullmatch(r"(\*\*|__|\*|_)(?P<inner>(?:`[^`]*`|[^*_`])+)\1", text.strip())
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
    return _is_question(text) or (title_like(text) and not WRAPPED_END.search(text)
                                  and following.strip()[:1].isupper())


def title_like(text: str) -> bool:
    return (_short(text) and not FINAL_PUNCTUATION.search(text) and not LIST_LINE.match(text)
            and (text[0].isupper() or text[0].isdigit()) and "://" not in text
            and not text.startswith(("|", ">", "`", "[", "!")))


def clause(text: str) -> bool:
    """A short line that starts a sentence and breaks off in it ("If you specify", "You can also
    attach files to your message by specifying"): no title, which would end in a capital."""
    words = text.split()
    return bool(CLAUSE_START.match(text)) and words[-1][:1].islower()


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
