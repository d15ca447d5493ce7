"""The prose of a Markdown text as plain text, read without a model: markup, escapes, footnote
marks and quote markers dropped (:func:`plain_text`), its paragraphs (headings, lists, tables and
code left out), where its sentences break, and what a paragraph that ends with a colon introduces
(:func:`introduced`). What a sentence says is judged in :mod:`procmem.answerers.clauses`.
"""

from __future__ import annotations

import re

from procmem.extract.markdown import code_line
from procmem.units import SOURCE_LINE

# the HTML elements a Markdown page writes in its prose (not a placeholder: "Rename the remote
# named <old> to <new>")
_INLINE_TAGS = (r"(?:a|abbr|b|br|center|code|del|details|div|em|font|i|img|ins|kbd|li|mark|ol|p|s|small|span"
                r"|strong|sub|summary|sup|table|td|th|tr|u|ul)\b")
# markup to drop: emphasis marks (a pair around words; the underscores of INSTALL_BASE and the
# stars of `*.pm` or Net::* are no emphasis), a link (its text kept), an HTML tag (of the
# elements above, lower-case, attributes with values), a stray backtick; a code span keeps its
# text as written, placeholders such as <mailbox name> included
_MARKUP_RE = re.compile(
    r"`+(?P<code>[^`]*)`+|\[(?P<link>[^\]]*)\]\([^)]*\)"
    r"|(?<![\w*])(?P<stars>\*{1,3})(?=[^\s*])(?P<starred>[^*]*?[^\s*])(?P=stars)(?![\w*])"
    # bold that touches a word, where a page left out the space ("by using the**Actions**menu")
    r"|(?P<bold>\*\*)(?=[A-Za-z])(?P<touching>[^*]*?[^\s*])(?P=bold)(?!\*)"
    r"|(?<![\w_])(?P<lines>_{1,3})(?=[^\s_])(?P<underlined>[^_]*?[^\s_])(?P=lines)(?![\w_])"
    r"|</?" + _INLINE_TAGS + r"(?:\s+[\w:-]+=(?:\"[^\"]*\"|'[^']*'|[^\s>]+))*\s*/?>|`+")
_KEPT = ("code", "link", "starred", "underlined")
# Markdown's backslash escapes of punctuation; a backslash itself stays (a \\server path)
_ESCAPED = re.compile(r"\\([`*_{}\[\]()#+\-.!<>|\"@?])")
LIST_ITEM = re.compile(r"^(?:\d+[.)]|[-*•])\s")
_EDGE_DASH = re.compile(r"^-+(?:\s|$)|\s-+$")  # a list marker's dash, not an option's ("-gdb")
_INNER_QUOTE = re.compile(r"(?<=[.!?:])\s+>[\s>]*")  # "... setting. > Note: ..." in a joined step


def plain_text(text: str) -> str:
    """Plain text: markup and footnote marks dropped, Markdown's escapes (``Recipients \\>
    Groups``) undone, quote markers left out, at the start and where a quoted note follows a
    sentence."""
    text = _ESCAPED.sub(r"\1", _MARKUP_RE.sub(_markup_text, _FOOTNOTE_MARK.sub("", text)))
    text = _INNER_QUOTE.sub(" ", re.sub(r"^\s*>[\s>]*", "", text))
    # a dash left of a list marker goes, the dash of an option ("-gdb tcp::3333") stays
    return _EDGE_DASH.sub("", " ".join(text.split()).strip(" :")).strip(" :")


# a mark that points to a footnote: Markdown's "[^3]", DocBook's "[[10]](#ftn.idm17115)", a
# numbered link to a place on the page ("[1](#id3)")
_FOOTNOTE_MARK = re.compile(r"\s*(?:\[\^[\w-]{1,12}\](?!:)|\[\[\d{1,3}\]\]\([^)\s]*\)|\[\d{1,3}\]\(#[^)\s]*\))")


def _markup_text(m: re.Match[str]) -> str:
    """What a piece of markup shows; bold that touches a word on either side is set apart from it."""
    if m["touching"]:
        before = " " if m.start() and m.string[m.start() - 1].isalnum() else ""
        after = " " if m.end() < len(m.string) and m.string[m.end()].isalnum() else ""
        return f"{before}{m['touching']}{after}"
    return next((m[k] for k in _KEPT if m[k]), "")


def _is_prose_line(line: str) -> bool:
    """Not a heading, table row, linker line, footnote ("[^1]: ..."), list item or a merged
    unit's "From <title>:" line."""
    return not line.startswith(("#", "|", "[CONTINUE]", "[CROSS]", "[MITIGATE]", "[^")) \
        and not LIST_ITEM.match(line) and not SOURCE_LINE.match(line)


def prose_runs(text: str) -> list[str]:
    """Runs of prose lines: paragraphs. A line ending with a colon ends its run, as what it
    introduced was left out (a list) or follows it inline (fenced code, as
    ``: `command; command` ``). Indented lines under a list item are the item's, not prose
    (the error message a symptom's bullet quotes)."""
    runs: list[str] = []
    current: list[str] = []
    code: list[str] | None = None  # lines of the fenced block being read
    in_item = False  # the lines read since the last list item are indented or blank
    for raw in text.splitlines():
        line = raw.strip().lstrip(">").strip()  # a quoted block's lines read as any other
        if code is None and line and not line.startswith("```"):
            if LIST_ITEM.match(raw.lstrip()):
                in_item = True
            elif not raw[:1].isspace():
                in_item = False
            elif in_item:
                continue
        if line.startswith("```"):
            if code is None:
                code = []
                continue
            if current:
                runs.append(" ".join(current))
                current = []
            if code and runs and runs[-1].endswith(":"):
                runs[-1] = f"{runs[-1]} `{code_line(code)}`"
            code = None
        elif code is not None:
            if line:
                code.append(line)
        elif not line and current:
            runs.append(" ".join(current))  # a blank line ends a paragraph, and its sentence
            current = []
        elif line and _is_prose_line(line):
            current.append(line)
            if line.endswith(":"):
                runs.append(" ".join(current))
                current = []
    return runs + ([" ".join(current)] if current else [])


def paragraphs(text: str) -> list[str]:
    """The prose paragraphs of a text, as plain text (headings, lists, tables and code left out)."""
    return [p for p in (plain_text(run) for run in prose_runs(text)) if p]




# a sentence that ends by introducing what follows it without a colon: "You can change it by the
# following.", "Make the image from the CD-ROM device as follows."
INTRODUCES = re.compile(r"\b(?:the following|as follows|like this)\s*[.:]?$", re.I)


def _introduces(line: str) -> bool:
    """A paragraph that ends with a colon, says it introduces (:data:`INTRODUCES`), or runs on
    with a comma into the list under it ("To fix that,")."""
    return line.endswith((":", ",")) or bool(INTRODUCES.search(line))


def introduced(text: str) -> list[str]:
    """What a text's first paragraph introduces when it ends with a colon ("It identifies local
    ports this way:") or a comma ("To fix that,") or says that it does (:data:`INTRODUCES`): the
    list items or lines of code that follow it, as plain text; none when the first paragraph
    ends otherwise."""
    lines = text.splitlines()
    i = 0
    while i < len(lines) and (not lines[i].strip() or lines[i].lstrip().startswith("#")):
        i += 1
    while i < len(lines) and lines[i].strip() and _is_prose_line(lines[i].strip()):
        if _introduces(lines[i].rstrip()):
            break
        i += 1
    if i >= len(lines) or not _introduces(lines[i].rstrip()):
        return []
    items: list[str] = []
    in_code = False
    for raw in lines[i + 1:]:
        line = raw.strip()
        if line.startswith(("```", "~~~")):
            in_code = not in_code
            if not in_code:
                break  # the code it introduced ends
        elif in_code:
            items += [line] if line else []
        elif not line:
            continue
        elif LIST_ITEM.match(line):
            items.append(LIST_ITEM.sub("", line))
        elif raw[:1].isspace() and items:
            items[-1] += " " + line  # an item's wrapped line
        else:
            if not items:
                items.append(line)  # a line of its own: the message it quotes
            break
    return [plain_text(item) for item in items if plain_text(item)]


SENTENCE_END = re.compile(r"[.!?…][\"”’)]?$")  # "… named \"Outlook.\"" ends as it is
# ... and goes on as "… named \"Outlook\", then …"
_END_MARKS = re.compile(r"[.;,:]+(?=[\"”’]$)|[.;,: ]+$")


def unended(text: str) -> str:
    """``text`` without the marks that end it, a closing quotation mark kept."""
    return _END_MARKS.sub("", text)


def ended(text: str) -> str:
    """``text`` ending as a sentence ends: as it is, or with a full stop for what it ended with."""
    return text if SENTENCE_END.search(text) else f"{unended(text)}."


def colon_outside_brackets(text: str) -> int:
    """Where the first ": " outside brackets is in ``text`` (-1 when there is none): the colon
    that introduces a step's code or follows an entry's name, not one of a note in brackets
    before it ("Add the following line to master.cf if not already present (note: there must be
    no whitespace at the start of the line): postlog unix-dgram …")."""
    depth = 0
    for i, char in enumerate(text):
        if char == "(":
            depth += 1
        elif char == ")" and depth:
            depth -= 1
        elif char == ":" and not depth and text[i + 1:i + 2] == " ":
            return i
    return -1
