"""Pages of a DokuWiki site or a Zim notebook: plain text files with a wiki markup of their own.

The two share most of it:

- a heading is set between runs of ``=``, more of them for a higher level: ``====== Page ======``
  is the page's title, ``===== Section =====`` a section, down to ``== Level 5 ==``;
- ``[[target|label]]`` links (the label is what a reader sees; without one, the target's last
  name: ``[[Plugins:Tray Icon]]`` reads "Tray Icon"), ``{{image.png}}`` shows an image;
- ``**bold**``, ``//italic//``, ``__underline__``, ``''code''`` and ``~~struck~~`` inline;
- a Zim page opens with its headers (``Content-Type: text/x-zim-wiki``, ``Wiki-Format:``,
  ``Creation-Date:``); a line break is kept (a paragraph is a line); its lists are ``* item``, ``1.``/``a.`` items and checkboxes (``[ ]``,
  ``[*]``, ``[x]``, ``[>]``), nested by a tab; a block between two lines of ``'''`` is verbatim,
  and ``{{{code: lang="sh"`` … ``}}}`` an example;
- DokuWiki indents a list item by two spaces a level (``  * item``, ``  - numbered``), sets code
  in ``<code>`` and ``<file>`` blocks, or indented by two spaces outside a list, draws a table's
  header cells with ``^`` and its others with ``|``, and breaks a line with ``\\\\``.

:func:`wiki_text_to_markdown` reads them as Markdown: the first heading is the title, sections
are headings one level below it, lists are Markdown's (a checkbox item as a plain one), code
blocks are fenced, tables are pipe tables, and inline markup is Markdown's or the text alone.
"""

from __future__ import annotations

import re

from inscoqa.corpus.common import notes_as_quotes, pipe_table, tidy_markdown

ZIM_HEADER = re.compile(r"^(?:Content-Type|Wiki-Format|Creation-Date):", re.I)
HEADING = re.compile(r"^(?P<marks>={2,6})[ \t]*(?P<text>[^=\n].*?)[ \t]*={2,6}[ \t]*$")
LINK = re.compile(r"\[\[(?P<target>[^\]|]*)(?:\|(?P<label>[^\]]*))?\]\]")
IMAGE = re.compile(r"\{\{[^{}]*\}\}")
# a list item: its indent (tabs or spaces), its marker, its text
ITEM = re.compile(r"^(?P<indent>[ \t]*)(?P<marker>[*-]|\d{1,3}\.|[a-zA-Z]\.|\[[ *x>]\])[ \t]+(?P<text>\S.*)$")
VERBATIM_FENCE = re.compile(r"^[ \t]*'''[ \t]*$")  # Zim: a block of verbatim text
CODE_OBJECT = re.compile(r'^[ \t]*\{\{\{code:?(?:[^}\n]*?lang="(?P<lang>[\w+-]+)")?[^}\n]*$')
CODE_OBJECT_END = re.compile(r"^[ \t]*\}\}\}[ \t]*$")
CODE_TAG = re.compile(r"^[ \t]*<(?P<tag>code|file)\b(?:[ \t]+(?P<lang>[\w+-]+))?[^>]*>(?P<rest>.*)$", re.I)
TABLE_ROW = re.compile(r"^[ \t]*[|^].*[|^][ \t]*$")
TABLE_RULE = re.compile(r"^[ \t]*\|[ \t]*:?-{2,}.*\|[ \t]*$")  # Zim's row under a table's header
RULE = re.compile(r"^[ \t]*-{4,}[ \t]*$")
# a term in bold alone on its line, its description on the lines under it (Zim's menu reference:
# "**New Page <Ctrl><N>**", then "Prompt for a page name and create a new page.")
TERM = re.compile(r"^\*\*(?P<term>[^*]+?)\*\*[ \t]*$")
MAX_TERM_WORDS = 12
MIN_HEADINGS = 2  # a page without Zim's headers is wiki text when it has this many headings


def is_wiki_text(text: str) -> bool:
    """Whether ``text`` is a Zim page (its ``Content-Type: text/x-zim-wiki`` header) or a DokuWiki
    page: its first line is a heading set between ``=`` runs and it has another (a page of
    plain text does not draw its headings so)."""
    lines = [line for line in text.splitlines() if line.strip()]
    if not lines:
        return False
    if lines[0].lower().startswith("content-type: text/x-zim-wiki"):
        return True
    headings = [line for line in lines if HEADING.match(line)]
    return bool(HEADING.match(lines[0])) and len(headings) >= MIN_HEADINGS


def _link(m: re.Match[str]) -> str:
    label = (m.group("label") or "").strip()
    if label:
        return label
    target = m.group("target").strip()
    if re.match(r"^[a-z][\w+.-]*://|^mailto:", target, re.I):
        return target
    target = re.sub(r"^\w+>", "", target)  # DokuWiki's interwiki link: [[wp>Wiki]] shows "Wiki"
    name = target.split("#")[0].rstrip(":").split(":")[-1].lstrip("+") or target.split("#")[-1]
    return name.replace("_", " ")


def inline(text: str) -> str:
    """A line's inline markup as Markdown: links as their labels, images dropped, ``''code''``
    as code, ``//italic//`` as ``*italic*`` (not the ``//`` of an address), line breaks as spaces."""
    parts = re.split(r"(''.+?''|%%.+?%%)", text)  # verbatim and DokuWiki's %%unformatted%%
    out = []
    for part in parts:
        if len(part) > 4 and part[:2] in ("''", "%%") and part[-2:] == part[:2]:
            out.append(f"`{part[2:-2]}`" if part[0] == "'" else part[2:-2])
            continue
        part = LINK.sub(_link, IMAGE.sub("", part))
        part = re.sub(r"(?<![:/\w])//(?=\S)(.+?)(?<=\S)//", r"*\1*", part)
        part = re.sub(r"__(?=\S)(.+?)(?<=\S)__", r"\1", part)
        part = re.sub(r"[_^]\{([^{}]*)\}", r"\1", part)  # Zim's sub- and superscript
        part = re.sub(r"\s*\(\((.+?)\)\)", r" (\1)", part)  # DokuWiki's footnote, in brackets
        part = part.replace("\\\\ ", " ").replace("\\\\", " ")
        part = re.sub(r"</?(?:del|sub|sup|wrap|WRAP|note)\b[^>]*>", "", part)
        out.append(part)
    return "".join(out)


def _table(rows: list[str]) -> str:
    cells = [[inline(cell.strip()) for cell in re.split(r"[|^]", row.strip())[1:-1]]
             for row in rows if not TABLE_RULE.match(row)]
    return pipe_table(cells) if cells else ""


class _Reader:
    def __init__(self, lines: list[str], *, zim: bool) -> None:
        self.lines = lines
        self.zim = zim
        self.i = 0
        self.out: list[str] = []
        self.title = ""
        self.top = 0  # the number of "=" of the title's heading

    def run(self) -> tuple[str, str]:
        while self.i < len(self.lines):
            self.step()
        return self.title, tidy_markdown("\n".join(self.out))

    def step(self) -> None:
        line = self.lines[self.i]
        heading = HEADING.match(line)
        code = CODE_TAG.match(line)
        if heading:
            self.heading(len(heading.group("marks")), inline(heading.group("text")).strip())
        elif VERBATIM_FENCE.match(line):
            self.block(VERBATIM_FENCE, "")
        elif m := CODE_OBJECT.match(line):
            self.block(CODE_OBJECT_END, m.group("lang") or "")
        elif code:
            self.code_tag(code)
        elif TABLE_ROW.match(line):
            start = self.i
            while self.i < len(self.lines) and TABLE_ROW.match(self.lines[self.i]):
                self.i += 1
            self.out += ["", _table(self.lines[start : self.i]), ""]
            return
        elif (m := TERM.match(line)) and self.described(m.group("term")):
            self.term(m.group("term"))
        elif m := ITEM.match(line):
            self.item(m)
        elif not self.zim and line.startswith("  ") and line.strip():
            self.dokuwiki_code()
            return
        elif RULE.match(line):
            self.out.append("")
        elif line.strip():
            # Zim keeps a text's line breaks (a paragraph is a line); DokuWiki wraps its lines
            self.out += [inline(line.strip())] + ([""] if self.zim else [])
        else:
            self.out.append("")
        self.i += 1

    def described(self, term: str) -> bool:
        """A term in bold on its own line with its description right under it: they are one line
        ("**New Page <Ctrl><N>**: Prompt for …"), so that a passage read alone keeps its name."""
        following = self.lines[self.i + 1] if self.i + 1 < len(self.lines) else ""
        return len(term.split()) <= MAX_TERM_WORDS and term.rstrip()[-1:] not in ".!?:" \
            and bool(following.strip()) and not self.opens_block(following)

    @staticmethod
    def opens_block(line: str) -> bool:
        """The line opens something other than running text: a heading, an item, a term, a table,
        code or a rule."""
        return any(p.match(line) for p in (HEADING, ITEM, TERM, TABLE_ROW, VERBATIM_FENCE, CODE_OBJECT,
                                           CODE_TAG, RULE))

    def term(self, term: str) -> None:
        """A term and its description, the lines of text under it up to the next term, heading,
        list or block, as one line: the menu reference's "Only available if the Version Control
        plugin is enabled." under "**Save Version**" is said of that entry, not of the next."""
        said: list[str] = []
        j = self.i + 1
        while j < len(self.lines) and not self.opens_block(self.lines[j]):
            if self.lines[j].strip():
                said.append(inline(self.lines[j].strip()))
            j += 1
        self.out += ["", f"**{inline(term).strip()}**: {' '.join(said)}", ""]
        self.i = j - 1

    def heading(self, marks: int, text: str) -> None:
        if not self.title:
            self.title, self.top = text, marks
            return
        level = min(6, max(2, 1 + self.top - marks))
        self.out += ["", "#" * level + " " + text, ""]

    def block(self, end: re.Pattern[str], lang: str) -> None:
        """A verbatim block up to the line that ends it (or the page's end), fenced."""
        j = next((k for k in range(self.i + 1, len(self.lines)) if end.match(self.lines[k])), len(self.lines))
        self.out += ["", f"```{lang}", *self.lines[self.i + 1 : j], "```", ""]
        self.i = j

    def code_tag(self, m: re.Match[str]) -> None:
        closing = re.compile(rf"</{m.group('tag')}>", re.I)
        rest = m.group("rest")
        if closing.search(rest):  # a one-line block
            self.out += ["", f"```{m.group('lang') or ''}", closing.split(rest)[0], "```", ""]
            return
        j = next((k for k in range(self.i + 1, len(self.lines)) if closing.search(self.lines[k])), len(self.lines))
        body = ([rest] if rest.strip() else []) + self.lines[self.i + 1 : j]
        if j < len(self.lines) and closing.split(self.lines[j])[0].strip():
            body.append(closing.split(self.lines[j])[0])
        self.out += ["", f"```{m.group('lang') or ''}", *body, "```", ""]
        self.i = j

    def dokuwiki_code(self) -> None:
        """DokuWiki's lines indented by two spaces outside a list, as code (Zim's are text)."""
        j = self.i
        while j < len(self.lines) and self.lines[j].startswith("  ") and not ITEM.match(self.lines[j]):
            j += 1
        self.out += ["", "```", *(x[2:] for x in self.lines[self.i : j]), "```", ""]
        self.i = j

    def item(self, m: re.Match[str]) -> None:
        indent = m.group("indent").replace("\t", "  ")
        depth = len(indent) // 2 - (0 if self.zim else 1)
        marker = m.group("marker")
        # DokuWiki numbers its "-" items (indented, as its items are); Zim its "1." and "a." ones
        numbered = marker[0].isalnum() or (marker == "-" and not self.zim and len(indent) >= 2)
        if self.out and self.out[-1] and not re.match(r"^\s*(?:-|\d+\.) ", self.out[-1]):
            self.out.append("")  # a list opens after its paragraph, as Markdown needs
        self.out.append("    " * max(0, depth) + ("1. " if numbered else "- ") + inline(m.group("text")))


def wiki_text_to_markdown(text: str) -> tuple[str, str]:
    """``(title, markdown)`` of a DokuWiki or Zim page (see the module's description)."""
    lines = text.replace("\r\n", "\n").split("\n")
    zim = bool(lines) and lines[0].lower().startswith("content-type: text/x-zim-wiki")
    if zim:
        while lines and (ZIM_HEADER.match(lines[0]) or not lines[0].strip()):
            lines.pop(0)
    title, markdown = _Reader(lines, zim=zim).run()
    return title, notes_as_quotes(markdown)
