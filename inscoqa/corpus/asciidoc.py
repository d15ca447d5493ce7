"""AsciiDoc (``.adoc``, ``.asciidoc``, ``.asc``; a ``.txt`` page written in it, as git's manual
sources are) as Markdown.

- The title: a ``= Title`` line, or a line underlined with "=" (the two-line form); sections
  ``== Name`` to ``====== Name``, or underlined with "-", "~", "^" and "+".
- Listing and literal blocks (between "----" or "...." lines, or a paragraph indented by a
  space) are fenced code, in the language a ``[source,sh]`` line names; example, sidebar and
  open blocks are read as their content, a quote block as a Markdown quote; a passthrough block
  ("++++"), comments, attribute entries (``:name: value``, whose values fill ``{name}``) and
  preprocessor lines (``include::``, ``ifdef::`` …) give nothing.
- Admonitions ("NOTE: …", or ``[WARNING]`` over a block) are quoted notes ("> **Note:** …").
- Lists: "*", "-" and "." bullets (nested by repeating them), "1." numbers; a "+" line attaches
  the block after it to the item. A labelled list's terms ("-m::" then "--move::") share the
  line of the paragraph that describes them: "-m, --move: Move/rename a branch …".
- A block title (".Title") is a bold line; a table (``|===``) a pipe table.
- Inline: ``link:url[text]`` and ``https://url[text]`` are links, ``<<id,text>>`` and other
  macros (``linkgit:git-add[1]``, ``kbd:[Ctrl+C]``) their text, ``+text+`` and backquotes code,
  ``*bold*`` bold, ``'text'`` plain; images give nothing. A listing's callouts ("<1>") go, and
  the notes they point to are a list.
"""

from __future__ import annotations

import re
from pathlib import Path

from inscoqa.corpus.common import pipe_table, read_text, tidy_markdown
from inscoqa.corpus.document import Document

ADMONITIONS = ("NOTE", "TIP", "IMPORTANT", "WARNING", "CAUTION")
_TITLE = re.compile(r"^=\s+(\S.*?)\s*$")
_SECTION = re.compile(r"^(={2,6}|#{2,6})\s+(\S.*?)\s*=*$")
_UNDERLINE = {"=": 1, "-": 2, "~": 3, "^": 4, "+": 5}  # the two-line title's level by its underline
_ATTRIBUTE_ENTRY = re.compile(r"^:(!?[\w][\w-]*!?):(?:\s+(.*))?$")
_PREPROCESSOR = re.compile(r"^(?:include|ifdef|ifndef|ifeval|endif|toc)::.*\[.*\]\s*$")
_BLOCK_ATTRIBUTES = re.compile(r"^\[(?:[^\[\]]|\[[^\]]*\])*\]\s*$")  # "[source,sh]", "[[anchor]]", "[NOTE]"
_BLOCK_TITLE = re.compile(r"^\.([^\s.].*)$")
_DELIMITER = re.compile(r"^(-{4,}|\.{4,}|={4,}|\*{4,}|_{4,}|\+{4,}|--)\s*$")  # a comment block's "////": step()
_TABLE_DELIMITER = re.compile(r"^[|!,:]={3,}\s*$")
_ADMONITION = re.compile(rf"^({'|'.join(ADMONITIONS)}):\s+(.*)$")
_ITEM = re.compile(r"^(\*{1,5}|-|\.{1,5}|\d+\.)\s+(\S.*)$")
_TERM = re.compile(r"^(\S.*?)(?<!:)(:{2,4}|;;)(?:\s+(\S.*))?$")
_IMAGE = re.compile(r"image::?[^\s\[]*\[[^\]]*\]")
_URL_MACRO = re.compile(r"(?:link:)?((?:https?|ftp|mailto|file):[^\s\[]+|(?<=link:)[^\s\[]+)\[([^\]]*)\]")
_PLAIN_LINK = re.compile(r"link:([^\s\[]+)\[([^\]]*)\]")
_XREF = re.compile(r"<<([^,>]+)(?:,\s*([^>]+))?>>")
_MACRO = re.compile(r"\b([a-z][\w-]*):{1,2}([^\s\[]*)\[([^\]]*)\]")  # "linkgit:git-add[1]", "kbd:[Ctrl+C]"
_KNOWN_MACRO = re.compile(r"\b(?:link|xref|image|kbd|btn|menu|footnote|linkgit|anchor):{1,2}[^\s\[]*\[|"
                          r"\bhttps?://[^\s\[]+\[[^\]\n]*\]")  # AsciiDoc's own, for telling its pages apart
_PASSTHROUGH = re.compile(r"(?<![\w+])\+([^+\s](?:[^+]*[^+\s])?)\+(?![\w+])")  # "+git add+": code
_STRONG = re.compile(r"(?<![\w*])\*([^*\s](?:[^*]*[^*\s])?)\*(?![\w*])")
_EMPHASIS = re.compile(r"(?<![\w'])'([^'\s](?:[^'\n]*[^'\s])?)'(?![\w'])")  # "'git diff'", as the page shows it
_CALLOUT = re.compile(r"(?:\s*(?://|#)?\s*<\d{1,2}>)+\s*$")  # "git branch -d foo <1>": the mark of a note below
_CALLOUT_NOTE = re.compile(r"^<(\d{1,2})>\s+(\S.*)$")  # "<1> Delete the branch.": that note
_ATTRIBUTE_REFERENCE = re.compile(r"\{([\w-]+)\}")
# the attributes every AsciiDoc page has, for the characters its markup would take
BUILT_IN = {"nbsp": " ", "sp": " ", "empty": "", "zwsp": "", "amp": "&", "lt": "<", "gt": ">", "vbar": "|",
            "brvbar": "¦", "startsb": "[", "endsb": "]", "caret": "^", "asterisk": "*", "tilde": "~",
            "plus": "+", "backslash": "\\", "backtick": "`", "apos": "'", "quot": '"', "cpp": "C++",
            "two-colons": "::", "two-semicolons": ";;", "deg": "°"}
_INLINE_PASS = re.compile(r"\+\+\+(.*?)\+\+\+|pass:\[(.*?)\]")  # "+++[[dco]]+++": shown as it is
_INLINE_ANCHOR = re.compile(r" ?\[\[[^\[\]]+\]\]")  # "[[dco]]" inside a line: a target, no text
_HARD_BREAK = re.compile(r"\s\+$")
_LITERAL_CODE = re.compile(r"^`\+(.+)\+`$")


def is_asciidoc(text: str) -> bool:
    """A plain-text page written in AsciiDoc: it opens with its title (``= Title``, or a line
    underlined with "=") and sets at least two of AsciiDoc's marks apart from plain text
    (delimited listing blocks, labelled lists, block attributes, attribute entries, macros)."""
    lines = [line.rstrip() for line in text.lstrip().splitlines()[:400]]
    if not lines:
        return False
    titled = bool(_TITLE.match(lines[0])) or (len(lines) > 1 and _is_underline(lines[0], lines[1], "="))
    marks = [
        # a listing block opens after a blank line (a line of dashes under a title underlines it)
        any(re.fullmatch(r"-{4,}", line) and (not before.strip() or _BLOCK_ATTRIBUTES.match(before))
            for before, line in zip(lines, lines[1:], strict=False)),
        any(_TERM.match(line) and line.endswith("::") for line in lines),
        any(re.fullmatch(r"\[(?:source|verse|listing|literal|NOTE|TIP|WARNING|IMPORTANT|CAUTION)\b[^\]]*\]", line)
            for line in lines),
        any(_ATTRIBUTE_ENTRY.match(line) for line in lines),
        any(_KNOWN_MACRO.search(line) for line in lines),
    ]
    return titled and sum(marks) >= 2


def _is_underline(text: str, line: str, chars: str = "=-~^+") -> bool:
    """``line`` underlines ``text`` as a two-line title: one of ``chars`` repeated, as long as
    the text give or take two."""
    return bool(text.strip()) and len(line) >= 2 and line[0] in chars and line == line[0] * len(line) \
        and abs(len(line) - len(text)) <= 2 and not _DELIMITER.match(text) and not _ITEM.match(text) \
        and not _BLOCK_ATTRIBUTES.match(text.strip()) and not text.startswith(("//", "."))


def inline(text: str, attributes: dict[str, str], sections: dict[str, str] | None = None) -> str:
    """AsciiDoc's inline marks in a line of prose, as Markdown's (see the module docstring); a
    cross reference without text shows the title of the section it names (``sections``), else
    its name in words."""
    sections = sections or {}
    text = _ATTRIBUTE_REFERENCE.sub(lambda m: attributes.get(m[1], BUILT_IN.get(m[1], m[0])), text)
    text = _INLINE_ANCHOR.sub("", _INLINE_PASS.sub(lambda m: m[1] if m[1] is not None else m[2], text))
    text = _URL_MACRO.sub(lambda m: f"[{m[2] or m[1]}]({m[1]})", text)  # its text may hold code
    text = _PLAIN_LINK.sub(lambda m: f"[{m[2] or m[1]}]({m[1]})", text)
    parts = re.split(r"(`[^`\n]+`)", text)  # what backquotes hold stays as it is ("`+--all+`": "`--all`")
    parts[1::2] = [_LITERAL_CODE.sub(r"`\1`", part) for part in parts[1::2]]
    for i in range(0, len(parts), 2):
        part = _IMAGE.sub("", parts[i])
        part = _XREF.sub(lambda m: (m[2] or sections.get(m[1].strip()) or m[1].replace("-", " ").replace("_", " ")).strip(),
                         part)
        part = _MACRO.sub(_macro_text, part)
        part = _PASSTHROUGH.sub(r"`\1`", part)
        part = _STRONG.sub(r"**\1**", part)
        part = _EMPHASIS.sub(r"\1", part)
        parts[i] = _HARD_BREAK.sub("", part)
    return "".join(parts)


def _macro_text(m: re.Match[str]) -> str:
    """What an inline macro shows: its text ("kbd:[Ctrl+C]"), a menu's path ("menu:File[Save]":
    "File > Save"), or its target with its text ("linkgit:git-add[1]": "git-add(1)")."""
    name, target, text = m[1], m[2], m[3].strip()
    if name == "menu":
        return " > ".join([target, *(t.strip() for t in text.split(">") if t.strip())])
    if not target:
        return text.strip('"')
    return f"{target}({text})" if text.isdigit() else (text or target)


class _Converter:
    """Reads AsciiDoc line by line into Markdown blocks (see :func:`asciidoc_to_markdown`)."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.i = 0
        self.out: list[str] = []
        self.attributes: dict[str, str] = {}
        self.title = ""
        self.pending: list[str] = []  # block attribute lines before the next block
        self.terms: list[str] = []  # labelled-list terms waiting for their description
        self.indent = ""  # of the list item a "+" line attaches the next block to
        self.sections: dict[str, str] = {}  # section titles by anchor (:func:`section_names`)
        self.after_item = False  # the last block is a list item
        self.bullet = ""  # of the last list's first level: "-" or "1."

    def inline(self, text: str) -> str:
        return inline(text, self.attributes, self.sections)

    def run(self) -> str:
        while self.i < len(self.lines):
            self.step()
        self.flush_terms()
        return "\n".join(self.out)

    def emit(self, text: str, *, item: bool = False) -> None:
        """A block of Markdown, after a blank line; the items of one list go without one."""
        if not (item and self.after_item):
            self.out.append("")
        self.out.extend(f"{self.indent}{line}" if line else "" for line in text.split("\n"))
        self.after_item = item

    def step(self) -> None:
        line = self.lines[self.i].rstrip()
        following = self.lines[self.i + 1].rstrip() if self.i + 1 < len(self.lines) else ""
        if not line.strip():
            self.i += 1
            if not (self.i < len(self.lines) and self.lines[self.i].strip() == "+"):
                self.indent = ""
            return
        if line.startswith("//"):
            self.skip_comment(line)
            return
        if (entry := _ATTRIBUTE_ENTRY.match(line)) or _PREPROCESSOR.match(line):
            if entry:
                self.attributes[entry[1].strip("!")] = self.inline(entry[2] or "")
            self.i += 1
            return
        if line == "+":  # the next block belongs to the list item before
            self.i += 1
            return
        if (found := _TITLE.match(line)) and not self.title and not self.out:
            self.title = self.inline(found[1])
            self.i += 1
            return
        if found := _SECTION.match(line):
            self.heading(len(found[1]), found[2])
            self.i += 1
            return
        previous = self.lines[self.i - 1].strip() if self.i else ""
        # "NAME" over "----" is a title, as AsciiDoc reads it, when a paragraph does not end there
        if _is_underline(line, following) and (not previous or _BLOCK_ATTRIBUTES.match(previous)):
            self.heading(_UNDERLINE[following[0]], line.strip())
            self.i += 2
            return
        if _BLOCK_ATTRIBUTES.match(line) and not line.startswith("[["):
            self.pending.append(line.strip()[1:-1])
            self.i += 1
            return
        if line.startswith("[["):
            self.i += 1
            return
        if (found := _BLOCK_TITLE.match(line)) and not _ITEM.match(line):
            self.flush_terms()
            self.emit(f"**{self.inline(found[1])}**")
            self.i += 1
            return
        if _TABLE_DELIMITER.match(line):
            self.table()
            return
        if found := _DELIMITER.match(line):
            self.delimited(found[1])
            return
        if (found := _TERM.match(line)) and (not _ITEM.match(line.strip()) or line.endswith("::")):
            self.term(found[1], found[3])
            return
        if found := _ITEM.match(line):
            self.item(found[1], found[2])
            return
        if found := _CALLOUT_NOTE.match(line):
            self.item("-", found[2])
            return
        if line[:1] in " \t" and not self.terms and not self.indent:
            self.literal()
            return
        self.paragraph()

    def skip_comment(self, line: str) -> None:
        self.i += 1
        if re.fullmatch(r"/{4,}", line):
            while self.i < len(self.lines) and self.lines[self.i].rstrip() != line:
                self.i += 1
            self.i += 1

    def heading(self, level: int, text: str) -> None:
        self.flush_terms()
        self.pending = []
        self.indent = ""
        text = self.inline(text.strip())
        if level <= 1 and not self.title:
            self.title = text
            return
        self.emit(f"{'#' * max(level, 2)} {text}")

    def take_pending(self) -> tuple[str, str]:
        """The style and the language the block attribute lines before a block name."""
        style = language = ""
        for attrs in self.pending:
            values = [v.strip() for v in attrs.split(",")]
            if values and values[0] and "=" not in values[0]:
                style = values[0].lstrip("#.%") or style
            if style in ("source", "listing") and len(values) > 1 and "=" not in values[1]:
                language = values[1]
        self.pending = []
        return style, language

    def delimited(self, delimiter: str) -> None:
        style, language = self.take_pending()
        self.i += 1
        body: list[str] = []
        while self.i < len(self.lines) and self.lines[self.i].rstrip() != delimiter:
            body.append(self.lines[self.i].rstrip())
            self.i += 1
        self.i += 1
        if delimiter[0] in "-." and delimiter != "--" or style in ("source", "listing", "literal"):
            self.flush_terms()
            self.emit("\n".join([f"```{language}", *(_CALLOUT.sub("", line) for line in _dedent(body)), "```"]))
        elif delimiter[0] == "+":
            return  # a passthrough block: what another backend would show
        elif style.upper() in ADMONITIONS or delimiter[0] == "_" or style in ("quote", "verse"):
            text = self.nested(body)
            label = f"**{style.capitalize()}:** " if style.upper() in ADMONITIONS else ""
            self.flush_terms()
            self.emit("\n".join(f"> {label if i == 0 else ''}{line}".rstrip() for i, line in enumerate(text.split("\n"))))
        else:  # example, sidebar, open block: its content
            text = self.nested(body)
            if text.strip():
                self.emit(text)

    def nested(self, body: list[str]) -> str:
        inner = _Converter(body)
        inner.attributes, inner.sections = self.attributes, self.sections
        inner.title = "-"  # a nested block holds no page title
        return tidy_markdown(inner.run()).strip()

    def table(self) -> None:
        self.take_pending()
        delimiter = self.lines[self.i].rstrip()
        self.i += 1
        rows: list[list[str]] = []
        current: list[str] = []
        while self.i < len(self.lines) and self.lines[self.i].rstrip() != delimiter:
            line = self.lines[self.i].strip()
            self.i += 1
            if not line:
                if current:
                    rows.append(current)
                    current = []
                continue
            cells = [self.inline(c.strip()) for c in re.split(r"(?<!\\)\|", line)[1:]] \
                if line.startswith("|") else [self.inline(line)]
            if not line.startswith("|") and current:
                current[-1] = f"{current[-1]} {cells[0]}"
            else:
                current.extend(cells)
        self.i += 1
        if current:
            rows.append(current)
        if rows:
            width = len(rows[0])  # rows written one cell per line: cut to the header's width
            flat = [cell for row in rows for cell in row]
            rows = [flat[k:k + width] for k in range(0, len(flat), width)] if width else rows
            self.flush_terms()
            self.emit(pipe_table(rows))

    def term(self, name: str, description: str | None) -> None:
        self.i += 1
        self.terms.append(self.inline(name.strip()))
        if description:
            self.describe(self.inline(description))

    def describe(self, text: str) -> None:
        """The first paragraph under the terms waiting: one line with their names."""
        self.indent = ""
        self.emit(f"{', '.join(self.terms)}: {text}")
        self.terms = []

    def flush_terms(self) -> None:
        if self.terms:
            self.emit(", ".join(self.terms))
            self.terms = []

    def item(self, marker: str, text: str) -> None:
        self.flush_terms()
        self.take_pending()
        depth = len(marker) - 1 if marker[0] in "*." else 0
        bullet = "1." if marker[0] == "." or marker[0].isdigit() else "-"
        self.i += 1
        words = [text]
        while self.i < len(self.lines) and self._continues(self.lines[self.i]):
            words.append(self.lines[self.i].strip())
            self.i += 1
        self.indent = ""
        self.after_item = self.after_item and (depth > 0 or bullet == self.bullet)  # the same list
        self.bullet = bullet if depth == 0 else self.bullet
        self.emit(f"{'   ' * depth}{bullet} {self.inline(' '.join(words))}", item=True)
        self.indent = "   " * (depth + 1)

    def literal(self) -> None:
        self.take_pending()
        body: list[str] = []
        while self.i < len(self.lines) and self.lines[self.i].strip():
            body.append(self.lines[self.i].rstrip())
            self.i += 1
        self.emit("\n".join(["```", *_dedent(body), "```"]))

    def paragraph(self) -> None:
        style, _ = self.take_pending()
        words: list[str] = []
        while self.i < len(self.lines) and self._continues(self.lines[self.i], first=not words):
            words.append(self.lines[self.i].strip())
            self.i += 1
        text = self.inline(" ".join(words))
        if style == "verse":  # lines kept as written (a command's synopsis)
            text = "\n".join(["```", *words, "```"])
        elif found := _ADMONITION.match(text):
            text = f"> **{found[1].capitalize()}:** {found[2]}"
        elif style.upper() in ADMONITIONS:
            text = f"> **{style.capitalize()}:** {text}"
        if self.terms:
            self.describe(text)
        else:
            self.emit(text)

    def _continues(self, raw: str, first: bool = False) -> bool:
        """A line that goes on with the paragraph or list item before it."""
        line = raw.rstrip()
        if first:
            return True
        return bool(line.strip()) and line.strip() != "+" and not _ITEM.match(line.strip()) \
            and not _CALLOUT_NOTE.match(line.strip()) \
            and not _DELIMITER.match(line) and not _BLOCK_ATTRIBUTES.match(line) \
            and not _TABLE_DELIMITER.match(line) and not (_TERM.match(line) and line.endswith("::")) \
            and not line.startswith("//") and not _SECTION.match(line)


def _dedent(lines: list[str]) -> list[str]:
    lines = [line.expandtabs(8) for line in lines]
    margin = min((len(line) - len(line.lstrip()) for line in lines if line.strip()), default=0)
    return [line[margin:] for line in lines]


_ANCHOR_LINE = re.compile(r"^\[(?:\[([^\],]+)(?:,[^\]]*)?\]|#([\w:.-]+)(?:[.%][^\]]*)?)\]\s*$")  # "[[id]]", "[#id]"


def section_names(lines: list[str]) -> dict[str, str]:
    """The title of each section by the names a cross reference without text of its own gives
    it (``<<how-to-check-out>>`` shows "How to check out a different version"): the anchor line
    over it (``[[how-to-check-out]]``, ``[#how-to-check-out]``) and the name AsciiDoc makes of its
    title ("_configuring_ssl" for "Configuring SSL")."""
    names: dict[str, str] = {}
    for i, line in enumerate(lines):
        title = ""
        if found := _SECTION.match(line.rstrip()):
            title = found[2]
        elif i + 1 < len(lines) and _is_underline(line.rstrip(), lines[i + 1].rstrip()):
            title = line.strip()
        if not title:
            continue
        names.setdefault("_" + re.sub(r"\W+", "_", title.lower()).strip("_"), title)
        above = i - 1
        while above >= 0 and _BLOCK_ATTRIBUTES.match(lines[above].strip()):
            if anchor := _ANCHOR_LINE.match(lines[above].strip()):
                names[anchor[1] or anchor[2]] = title
            above -= 1
    return names


def asciidoc_to_markdown(text: str) -> tuple[str, str]:
    """``(title, markdown)`` of an AsciiDoc page ("" when it names no title)."""
    lines = text.replace("\r\n", "\n").split("\n")
    converter = _Converter(lines)
    converter.sections = section_names(lines)
    body = converter.run()
    return converter.title, tidy_markdown(body)


def read_asciidoc(path: Path, *, doc_id: str) -> Document:
    """An AsciiDoc page: its title (else the file's name) and its text as Markdown."""
    title, body = asciidoc_to_markdown(read_text(path))
    title = title or path.stem.replace("-", " ").replace("_", " ")
    return Document(doc_id=doc_id, title=title, text=f"# {title}\n\n{body}",
                    meta={"format": "asciidoc", "path": str(path)})
