"""HTML pages rendered as Markdown with the standard library's ``html.parser``.

``h1``-``h6`` become headings, ``ol``/``li`` numbered items, ``ul``/``li`` bullets, ``a`` links,
``pre`` code fences, ``table`` rows pipe tables (unless the page is laid out with tables: a cell
that holds a heading or another table makes every cell a block), ``br`` line breaks (two in a
row end a paragraph, as in a text file published with ``<br>`` for its newlines), hidden
``span`` alternatives that a script chooses among (LibreOffice's "Command" on macOS, else
"Ctrl") one after the other with "or" (one that says nothing, a module's that has no such
heading, is none). ``script``, ``style`` and other non-content elements are
dropped, and so are DocBook's figures and Asciidoctor's image blocks, an image's alt text in a
``figure`` or alone in its block (a screenshot's title and caption, a note's icon, say what the
text says) or made from
its file's name (an icon's "add component 24" from ``add_component_24.png``), navigation
bars, breadcrumbs, sidebars and tables of contents (by class, id or ARIA role), the lines a
code block hides (mdBook's "boring" lines), permalinks (a link to ``#...`` that shows only
"#", "¶" or nothing, as documentation generators put beside each heading) and lines that only
link to a place on the same page; a heading that links to itself is its words. The terms of a
``dl`` become headings when its descriptions are sections (POD's ``=item`` questions); a
glossary's stay lines, each with its description. DocBook's variable list set as a table (a row
per term) reads as the ``dl`` it stands for. A command set on a line of its own inside a
sentence goes back into the sentence as code. A page's footnotes are ``[^1]: ...`` lines,
not a list to follow, without their links back. A page without heading tags gets headings from
its layout (question lines, short title-like paragraphs; see :mod:`inscoqa.corpus.layout`); in
one with headings, a question set in bold above its answer becomes one, as does a question
labelled "Q:" over an answer labelled "A:", and a section headed "Contents" that holds only its
entries goes. An Asciidoctor note (a
table of its icon and its text) is a note, under the step it is set in; Sphinx's "<no title>"
is no title (the page is named by its file, and ``meta["untitled"]`` says so). SiSU's pages (the
Debian Live manual): a layout table whose summary says it navigates is left out, a paragraph of
class ``code`` is a code block whose ``<br>``s end its lines, a title that is the page's file name
is spelled as the heading that has its words, and a page whose heading tags only stand over its
body gets its sections from its numbered lines.
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

from inscoqa.corpus.common import (
    NOTE_LABELS,
    collapse_spaces,
    notes_as_quotes,
    pipe_table,
    quoted_note,
    read_text,
    tidy_markdown,
)
from inscoqa.corpus.document import Document
from inscoqa.corpus.layout import (
    bold_questions,
    divided_by_headings,
    has_headings,
    layout_headings,
    numbered_sections,
)
from inscoqa.corpus.manpage import is_man_page, man_to_markdown

_DROPPED = frozenset({"script", "style", "noscript", "template", "svg", "iframe", "canvas", "nav",
                      "button", "select", "form"})
_BLOCK = frozenset({"p", "div", "section", "article", "main", "header", "footer", "aside", "dl",
                    "dt", "dd", "figure", "figcaption", "details", "summary", "address", "hr",
                    "tr", "table", "thead", "tbody"})
_HEADINGS = {f"h{n}": n for n in range(1, 7)}
_VOID = frozenset({"br", "img", "hr", "meta", "link", "input", "wbr", "source", "area", "col"})
_WRAP = {"strong": "**", "b": "**", "em": "*", "i": "*", "code": "`", "kbd": "`", "samp": "`", "tt": "`"}  # tt: older HTML's code (Texinfo's)
# what a heading's permalink shows (Sphinx and MkDocs "¶", Node.js "#", icons dropped as svg)
_PERMALINK_MARKS = frozenset({"", "#", "¶", "§", "🔗", "⚓"})
# an icon font's glyph, a character of Unicode's private use area (Kea's Sphinx theme links each
# heading with U+F0C1, Font Awesome's link icon): it shows nothing without the font
_ICON_GLYPHS = re.compile("[\ue000-\uf8ff]+")
# a bulleted item's first line that is one term alone: "- experimental", "- `must_reload`" (a
# numbered item's is a step: "1. Install")
_ITEM_TERM = re.compile(r"\s*[-*] (?:`[\w.-]+`|\*{1,2}[\w.-]+\*{1,2}|[\w-]+)")
_BACK_MARKS = frozenset({"↩", "↩\ufe0e", "↑", "^"})  # a footnote's link back to where it is cited
# a page's footnotes: mdBook's <ol class="footnote-definition">, pandoc's <section class="footnotes">,
# Python-Markdown's <div class="footnote">
_FOOTNOTES = re.compile(r"^footnotes?(?:-definitions?|-list)?$")
# Publican's (DocBook) <ul class="docnav"> of Prev, Up, Home and Next links and its site <div id="banner">
_CHROME_NAMES = frozenset({"nav", "navbar", "navheader", "navfooter", "navigation", "docnav", "banner", "breadcrumb",
                           "breadcrumbs", "sidebar", "toc", "gtoc", "skip-link", "skiplink",
                           "toctree-wrapper",  # Sphinx's lists of the pages below a page
                           "debug",  # LibreOffice's help: the page's source file and title, for its writers
                           # Sphinx's "[source]" beside an entry, a link to its code, and "[docs]" back
                           "viewcode-link", "viewcode-back"})
# "mdbook-menu-bar", "mdbook-help-popup", SQLite's "fancy_toc"
_CHROME_SUFFIX = re.compile(r"(?:^|[-_])(?:menu-?bar|popup|modal|toc)$")
# a site's menu or tagline, as a block of its own (SQLite's <div class="menu mainmenu">); a word
# of the text may be set as a menu's name ("<span class='gui menu'>")
_MENU_NAMES = frozenset({"menu", "mainmenu", "submenu", "tagline"})
_MENU_BLOCKS = frozenset({"div", "ul", "ol", "section", "aside", "header", "footer"})
_ADMONITIONS = ("note", "tip", "important", "warning", "caution")  # Asciidoctor's kinds of note
# DocBook's <div class="...">, and Asciidoctor's image block (an image and its "Figure 5. Create
# database - Welcome screen" title)
_PICTURE_NAMES = frozenset({"figure", "informalfigure", "mediaobject", "imageblock"})
_TABLE_PARTS = frozenset({"table", "thead", "tbody", "tfoot", "tr", "td", "th", "caption"})
# a cell that holds a heading or another table: the page is laid out with tables (as older
# documentation sites are), and its tables are no data to show as rows
_LAYOUT_CELL = re.compile(r"<t[dh]\b[^>]*>(?:(?!</?t[dh]\b).)*?<(?:h[1-6]|table)\b", re.S | re.I)
# a line that is only a link to an anchor (a list marker and a section number before it)
_PAGE_LINK = re.compile(r"^\s*(?:[-*]|\d+\.)?\s*(?:\d+(?:\.\d+)*\.?\s*)?\[[^\]]*\]\((?P<page>[^)#\s]*)#[^)]*\)\s*$")
# the encoding a page declares: <meta charset>, <meta http-equiv ... charset=>, <?xml encoding?>
_CHARSET = re.compile(rb"""<meta[^>]*?charset\s*=\s*["']?([\w.:-]+)|<\?xml[^>]*?encoding\s*=\s*["']([\w.:-]+)""", re.I)
# Latin-1 as browsers read it: Windows-1252 (its curly quotes and dashes where Latin-1 has controls)
_AS_BROWSERS_READ = {"iso-8859-1": "cp1252", "latin1": "cp1252", "latin-1": "cp1252", "us-ascii": "cp1252"}
# a code block's language as a class names it: Prism and highlight.js "language-bash", "lang-sh",
# Sphinx's wrapper "highlight-python", GitHub's "highlight-source-shell"
_LANGUAGE_CLASS = re.compile(r"^(?:language|lang|highlight(?:-source)?)-([\w+#.-]+)$")
# a shell's prompt as a session shows it before a command: "$ ", "# ", "user@host:~$ ", "C:\\> "
# (not the "> " of a command's next line)
_SHELL_PROMPT = re.compile(r"^\s*(?:[\w.@:~/\\-]{1,40}\s?[$#%>]|[$#%])\s*$")
_LINK = re.compile(r"\[(?P<text>[^\[\]]*)\]\((?P<href>[^()\s]*)\)")  # a link as Markdown writes it
_BREAK = "\ue000"  # a <br> in the inline text until it is flushed (collapsing spaces keeps it)
_NOTE_ICON = re.compile(rf"^\[?({NOTE_LABELS})\]?$", re.I)  # a note's icon's alt text: "Warning", "[Note]"


def _without_icons(data: str) -> str:
    """Text without an icon font's glyphs, which show nothing without the font; a run of them
    with nothing but marks between is nothing at all (Django's tabs of a shell session for
    Linux/macOS and for Windows are labelled "\uf17c/\uf179" and "\uf17a")."""
    if not _ICON_GLYPHS.search(data):
        return data
    rest = _ICON_GLYPHS.sub("", data)
    return rest if any(ch.isalnum() for ch in rest) else ""


def _heading_without_icons(heading: str, alts: list[str]) -> str:
    """A heading's words without the alt texts of the images at its ends: an icon beside the
    words ("People" before KeePass's "General Information about Shared Databases") names a
    picture, not the section."""
    for alt in alts:
        if heading.startswith(alt + " "):
            heading = heading[len(alt) + 1 :]
        elif heading.endswith(" " + alt):
            heading = heading[: -len(alt) - 1]
    return heading


def code_language(attrs: list[tuple[str, str | None]]) -> str:
    """The language a code block's classes name ("" when none does)."""
    for name, value in attrs:
        if name == "class" and value:
            for token in value.split():
                found = _LANGUAGE_CLASS.match(token)
                if found and found[1] not in ("none", "default"):
                    return found[1].lower()
    return ""


@dataclass
class _ListLevel:
    numbered: bool
    count: int = 0
    footnotes: bool = False  # its items are a page's footnotes: "[^1]: ...", no list to follow


@dataclass
class _TermTable:
    """An open ``<table class="variablelist">``: the cell of its row being read, and how many
    tables of its own are open in a description."""

    column: int = 0
    nested: int = 0


@dataclass
class _Terms:
    """An open ``<dl>``: the heading level its terms would take, and per term its block, how
    many blocks its description holds and the block it starts at."""

    level: int
    entries: list[list[int]]  # [term block, description blocks, first description block]
    described_from: int = -1  # the block the open <dd> starts at


_COMMAND_PARAGRAPH = re.compile(r"`[^`]*[^`\s]\s+[^`\s][^`]*`")  # code of two words or more, alone


_NOTE_LABEL = re.compile(NOTE_LABELS, re.I)


class _MarkdownBuilder(HTMLParser):
    def __init__(self, *, layout_tables: bool = False) -> None:
        super().__init__(convert_charrefs=True)
        self.layout_tables = layout_tables  # tables place the page's parts: their cells are blocks
        self.blocks: list[tuple[str, bool]] = []  # (markdown, is a list line)
        self.title = ""
        self.h1 = ""
        self.links: dict[str, tuple[str, str]] = {}  # <link rel="up">, "home", …: (href, title)
        self._spans: list[list[str]] = [[]]  # inline buffers; nested for a/strong/em/...
        self._span_tags: list[tuple[str, str]] = []  # (tag, href) for each open inline wrapper
        self._lists: list[_ListLevel] = []
        self._prefix = ""  # marker for the next flushed line (list item) or heading hashes
        self._continuation = ""
        self._item_line = -1  # the block that opened the list item being read, while it is its only one
        self._skipping = ""  # the element being left out (script, nav, a navigation bar, ...)
        self._skip_depth = 0  # ... and how many of its kind are open
        self._in_title = False
        self._in_head = False
        self._pre: list[str] | None = None
        self._pre_code_ended = False  # the code block's text so far ends with a whole <code>
        self._pre_text = False  # the open <pre> holds text, not code (<pre class="text">)
        self._pre_tag = ""  # the element that holds the open code block: "pre", or a <p class="code">
        self._in_keyword = False  # in a keyword's entry line (<div class="keyword">)
        self._language = ""  # of the next or open code block, as its classes or its wrapper's name it
        self._row: list[str] | None = None
        self._table: list[list[str]] = []
        self._level = 1  # of the last heading
        self._in_term = False  # in a <dt>
        self._in_signature = False  # in a <dt> that is an API entry's signature
        self._lists_of_terms: list[_Terms] = []  # the open <dl>s
        self._quotes: list[int] = []  # for each open <blockquote>, the number of blocks before it
        self._term_tables: list[_TermTable] = []  # the open DocBook variable lists set as tables
        self._notes = ""  # the element that holds the page's footnotes (_FOOTNOTES) ...
        self._notes_depth = 0  # ... and how many of its kind are open
        self._figures = 0  # open <figure>s: their images' alt texts are left out
        self._admonition = ("", -1)  # the label of the Asciidoctor note whose table comes next, and
        # the number of blocks before it (a block between them: it was no note's table)
        self._alts: list[str] = []  # the alt texts of the block being read
        # for each open <span>, whether it is hidden and how many pieces of text came before it ...
        self._open_spans: list[tuple[bool, int]] = []
        self._alternative_ended = False  # ... and whether a hidden one that said something has just ended
        self._pieces = 0  # the pieces of text read so far (not blank)

    # -- buffers
    def _text(self) -> str:
        """The inline text read so far, spaces collapsed; a ``<br>`` is a line break, two in a
        row end a paragraph."""
        text = collapse_spaces("".join(self._spans[0]))
        return re.sub(rf" ?{_BREAK} ?", "\n", text).strip()

    def _flush(self) -> None:
        while len(self._spans) > 1:  # unclosed inline elements: keep their text
            inner = "".join(self._spans.pop())
            self._span_tags.pop()
            self._spans[-1].append(inner)
        text = self._text()
        if self._alts and text == collapse_spaces(" ".join(self._alts)):
            text = ""  # an image alone ("Note Icon", a toolbar's icon): a picture of what the text says
        elif self._alts and self._prefix.startswith("#"):
            text = _heading_without_icons(collapse_spaces(text), self._alts)
        elif self._alts and not self._prefix and (label := _NOTE_ICON.match(self._alts[0])) \
                and text.startswith(self._alts[0] + " "):
            # a paragraph that opens with a note's icon ("Warning" before KeePass's "In repair
            # mode, the integrity of the data is not checked"): a note, as the readers give it
            text = quoted_note(label[1].capitalize(), [text[len(self._alts[0]) + 1 :]])
        self._spans, self._alts = [[]], []
        if self._row is not None or self._prefix.startswith("#"):
            text = collapse_spaces(text)  # a table cell, a heading: one line
        if self._row is not None:
            if text:
                self._row.append(text)
            return
        in_list = bool(self._lists) and not self._lists[-1].footnotes
        for paragraph in re.split(r"\n{2,}", text):
            if not paragraph.strip():
                continue
            if not self._prefix and not self._in_term and _COMMAND_PARAGRAPH.fullmatch(paragraph):
                # a command set as a paragraph of its own (Sphinx's "To run it, simply do" /
                # ``docker run -ti rsyslog/syslog_appliance_alpine``): a code block, as it is shown
                paragraph = f"```\n{paragraph.strip('`')}\n```"
            paragraph = paragraph.replace("\n", "\n" + self._continuation)
            if self._prefix:
                self.blocks.append((self._prefix + paragraph, in_list and not self._prefix.startswith("#")))
                self._item_line = len(self.blocks) - 1 if in_list else -1
                self._prefix = ""
            elif in_list and self._item_line == len(self.blocks) - 1 and paragraph[:1].isupper() \
                    and _ITEM_TERM.fullmatch(self.blocks[-1][0]):
                # an item that names a term in a paragraph of its own and says what it is in the next
                # (Varnish's parameter flags: "experimental", then "We have no solid information …"):
                # one line, as a list of terms is written
                self.blocks[-1] = (f"{self.blocks[-1][0]}: {paragraph}", True)
                self._item_line = -1
            else:
                self.blocks.append((self._continuation + paragraph, in_list))
                self._item_line = -1

    # -- parser callbacks
    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self._skipping:
            self._skip_depth += tag == self._skipping
            return
        if _is_picture(tag, attrs) and self.blocks and self.blocks[-1][0].endswith(":"):
            # the sentence that shows the picture ends there ("Click the create new database
            # button (A):" over a screenshot, "The following screen appears:")
            self.blocks[-1] = (f"{self.blocks[-1][0][:-1]}.", self.blocks[-1][1])
        if tag in _DROPPED or _is_chrome(tag, attrs) or _is_picture(tag, attrs) \
                or self._pre is not None and _is_hidden_code(attrs):
            if tag not in _VOID:
                self._skipping, self._skip_depth = tag, 1
            return
        if (as_terms := self._as_terms(tag, attrs)) is not None:
            if not as_terms:
                return
            tag = as_terms
        elif self.layout_tables and tag in _TABLE_PARTS:
            tag = "div"
        if self._notes:
            self._notes_depth += tag == self._notes
        elif tag not in _VOID and any(_FOOTNOTES.match(name) for name in _classes(attrs)):
            self._notes, self._notes_depth = tag, 1
        if tag == "div" and "admonitionblock" in (classes := _classes(attrs)):
            # Asciidoctor's note: a table of its icon and its text, in the list item it belongs to
            label = next((kind.capitalize() for kind in _ADMONITIONS if kind in classes), "Note")
            self._admonition = (label, len(self.blocks))
        if tag == "span":  # hidden alternatives, of which a script shows one: "Command or Ctrl+F"
            hidden = any(name == "hidden" for name, _ in attrs)
            if hidden and self._alternative_ended:
                (self._spans[-1] if self._pre is None else self._pre).append(" or ")
            self._open_spans.append((hidden, self._pieces))
            self._alternative_ended = False
            return
        if tag == "head":
            self._in_head = True
        elif tag == "link" and (rel := ((link := dict(attrs)).get("rel") or "").casefold()) in _PAGE_LINKS:
            self.links[rel] = (link.get("href") or "", link.get("title") or "")
        elif tag == "title":
            self._in_title = True
        elif self._pre is not None and self._pre_tag == "p" and tag in _BLOCK:
            self.handle_endtag("p")  # a paragraph of code left open ends where the next block starts
            self.handle_starttag(tag, attrs)
        elif self._pre is not None:
            if tag == "br" and self._pre_tag != "pre":
                self._pre.append("\n")
            elif tag == "code" and self._pre_code_ended:
                self._pre.append("\n")  # another version of the code in the same block (Node's mjs / cjs)
            elif "userinput" in _classes(attrs):
                self._typed_after_prompt()
            self._pre_code_ended = False
            self._language = self._language or code_language(attrs)
            return
        elif tag == "pre" or tag == "p" and "code" in _classes(attrs):
            # SiSU sets a block of code as a paragraph (<p class="code">), its lines ended by <br>
            self._flush()
            self._pre, self._pre_tag = [], tag
            self._language = code_language(attrs) or self._language
            self._pre_text = "text" in _classes(attrs)
        elif tag in _HEADINGS:
            self._flush()
            self._level = _HEADINGS[tag]
            self._prefix = "#" * self._level + " "
            self._continuation = ""
        elif tag == "dl":
            self._flush()
            outer = self._lists_of_terms[-1].level if self._lists_of_terms else self._level
            self._lists_of_terms.append(_Terms(level=min(outer + 1, 6), entries=[]))
        elif tag == "dt" and self._lists_of_terms:
            self._flush()
            self._lists_of_terms[-1].entries.append([len(self.blocks), 0, -1])
            self._in_term = True
            if "sig" in _classes(attrs):  # Sphinx's <dt class="sig sig-object py">
                # an API entry's signature (Sphinx: a function, an option, a command) is code,
                # written as it is typed: its parameters' emphasis and "*" / "**" stay as they are
                self._spans.append([])
                self._span_tags.append(("code", ""))
                self._in_signature = True
        elif tag == "dd" and self._lists_of_terms:
            self._flush()
            self._lists_of_terms[-1].described_from = len(self.blocks)
        elif tag in ("ul", "ol"):
            self._flush()
            self._lists.append(_ListLevel(numbered=tag == "ol", footnotes=bool(self._notes)))
        elif tag == "li":
            self._flush()
            level = self._lists[-1] if self._lists else _ListLevel(numbered=False)
            level.count += 1
            indent = "   " * (len(self._lists) - 1)
            self._prefix = indent + (f"[^{level.count}]: " if level.footnotes
                                     else f"{level.count}. " if level.numbered else "- ")
            self._continuation = indent + "   "
        elif tag == "br":
            self._spans[-1].append(_BREAK)
        elif tag == "blockquote":
            self._flush()
            self._quotes.append(len(self.blocks))
            self._continuation = "> "
        elif tag in ("td", "th"):
            self._flush()
            if self._row is None:
                self._row = []
        elif tag == "tr":
            self._flush()
            self._row = []
        elif tag == "div" and "keyword" in _classes(attrs):
            # a manual's entry for a keyword (HAProxy's <div class="keyword">): a heading under
            # the section's, in code as it is typed ("stats refresh <delay>")
            self._flush()
            self._prefix = "#" * min(self._level + 1, 6) + " "
            self._spans.append([])
            self._span_tags.append(("code", ""))
            self._in_keyword = True
        elif tag in _BLOCK:
            self._flush()
            self._figures += tag == "figure"
            if tag == "div":  # a wrapper that names the language of the code block it holds
                self._language = code_language(attrs) or self._language
        elif tag == "a":
            self._spans.append([])
            self._span_tags.append(("a", dict(attrs).get("href") or ""))
        elif tag in _WRAP:
            self._spans.append([])
            self._span_tags.append((tag, ""))
        elif tag == "img" and not self._figures:
            alt = collapse_spaces(dict(attrs).get("alt") or "")
            if alt and not names_its_file(alt, dict(attrs).get("src") or ""):
                self._spans[-1].append(alt)
                self._alts.append(alt)

    def _typed_after_prompt(self) -> None:
        """DocBook marks what a session's user types (``userinput``): the prompt before it
        (``#`` for root, ``user@host:~$``) is written ``$ ``, the prompt Markdown's sessions use."""
        if self._pre is None:
            return
        text = "".join(self._pre)
        line_start = text.rfind("\n") + 1
        if _SHELL_PROMPT.match(text[line_start:]):
            self._pre[:] = [text[:line_start], "$ "]

    def handle_endtag(self, tag: str) -> None:
        if self._skipping:
            if tag == self._skipping:
                self._skip_depth -= 1
                self._skipping = self._skipping if self._skip_depth else ""
            return
        if tag == "span":
            # an alternative for a module that says nothing there is none ("or or Regular expressions"
            # read LibreOffice's heading, empty for Draw and Impress)
            hidden, pieces = self._open_spans.pop() if self._open_spans else (False, self._pieces)
            self._alternative_ended = hidden and self._pieces > pieces
            return
        if (as_terms := self._as_terms(tag, None)) is not None:
            if not as_terms:
                return
            tag = as_terms
        elif self.layout_tables and tag in _TABLE_PARTS:
            tag = "div"
        if self._notes and tag == self._notes:
            self._notes_depth -= 1
            self._notes = self._notes if self._notes_depth else ""
        if tag == "head":
            self._in_head = False
        elif tag == "title":
            self._in_title = False
        elif tag == "pre" and self._pre is not None and self._pre_text:
            # a manual's text set in <pre class="text"> (HAProxy's): its paragraphs, and what
            # is indented under them (an example's lines) as code
            self.blocks += [(block, False) for block in _preformatted_text("".join(self._pre))]
            self._pre, self._pre_text, self._language = None, False, ""
        elif tag == self._pre_tag and self._pre is not None:
            code = "".join(self._pre).strip("\n")
            if tag != "pre":  # the paragraph's source lines are spaces; its <br>s end its lines
                code = "\n".join(line.strip(" ").replace("\xa0", " ") for line in code.split("\n")).strip("\n")
            if code.strip():
                # under a list item, indented as the item's own paragraphs: the step it belongs to
                indent = self._continuation if self._lists and not self._lists[-1].footnotes else ""
                block = "\n".join(indent + line if line else line
                                  for line in f"```{self._language}\n{code}\n```".split("\n"))
                self.blocks.append((block, bool(indent)))
            self._pre, self._pre_code_ended, self._language = None, False, ""
        elif self._pre is not None:
            self._pre_code_ended = tag == "code"
            return
        elif tag in _HEADINGS:
            if tag == "h1" and not self.h1:
                self.h1 = collapse_spaces(self._text())
            self._flush()
            self._prefix = ""
        elif tag in ("ul", "ol"):
            self._flush()
            if self._lists:
                self._lists.pop()
            depth = len(self._lists)
            self._continuation = "   " * depth if depth else ""
            self._prefix = ""
        elif tag == "li":
            self._flush()
        elif tag == "blockquote":
            self._flush()
            self._continuation = ""
            self._unquote_code(self._quotes.pop() if self._quotes else len(self.blocks))
        elif tag == "dl" and self._lists_of_terms:
            self._flush()
            self._title_terms(self._lists_of_terms.pop())
        elif tag == "dt":
            if self._in_signature and self._span_tags and self._span_tags[-1][0] == "code":
                self.handle_endtag("code")
            self._in_signature = False
            self._flush()
            self._in_term = False
        elif tag == "dd" and self._lists_of_terms:
            self._flush()
            terms = self._lists_of_terms[-1]
            if terms.entries and terms.described_from >= 0:
                terms.entries[-1][1:] = [len(self.blocks) - terms.described_from, terms.described_from]
            terms.described_from = -1
        elif tag in ("td", "th"):
            self._flush()
        elif tag == "tr":
            self._flush()
            if self._row:
                self._table.append(self._row)
            self._row = None
        elif tag == "table":
            self._flush_table()
        elif tag == "div" and self._in_keyword:
            if self._span_tags and self._span_tags[-1][0] == "code":
                self.handle_endtag("code")
            self._in_keyword = False
            self._flush()
        elif tag in _BLOCK:
            self._flush()
            self._figures -= tag == "figure" and self._figures > 0
        elif (tag == "a" or tag in _WRAP) and self._span_tags and self._span_tags[-1][0] == tag:
            _, href = self._span_tags.pop()
            raw = "".join(self._spans.pop())
            inner = collapse_spaces(raw)
            lead = " " if raw[:1].isspace() else ""
            trail = " " if raw[-1:].isspace() else ""
            if tag == "a" and href.startswith("#") and _ICON_GLYPHS.sub("", inner) in _PERMALINK_MARKS | _BACK_MARKS:
                inner = ""  # a permalink to this very place, or a footnote's way back, says nothing
            elif tag == "a" and href.startswith("#") and (self._prefix.startswith("#") or self._in_term):
                pass  # a heading or a term that links to itself (mdBook, Cargo's options): its words
            elif tag == "a":
                inner = f"[{inner}]({href})" if href and inner else inner  # an icon alone says nothing
            elif inner and _WRAP[tag] == "`" and (link := _LINK.fullmatch(inner)):
                inner = f"[`{link['text']}`]({link['href']})"  # code that is a link: a link in Markdown
            elif inner and any(_WRAP[t] == "`" for t, _ in self._span_tags if t in _WRAP):
                pass  # emphasis or code in code (DocBook's replaceable "chsh -s <em>shell</em>") shows as code does
            elif inner and any(_WRAP.get(t) == _WRAP[tag] for t, _ in self._span_tags):
                pass  # bold in bold (DocBook's <strong><span class="guilabel"><strong>Date</strong>…): once
            elif inner:
                if _WRAP[tag] == "`":
                    inner = _LINK.sub(r"\g<text>", inner)  # code shows no link syntax
                inner = f"{_WRAP[tag]}{inner}{_WRAP[tag]}"
            self._spans[-1].append(f"{lead}{inner}{trail}")

    def handle_data(self, data: str) -> None:
        if self._skipping:
            return
        data = _without_icons(data)
        if data.strip():
            self._alternative_ended = False
            self._pieces += 1
        if self._in_title:
            self.title += data
        elif self._in_head:
            return
        elif self._pre is not None:
            self._pre.append(data if self._pre_tag == "pre" else re.sub(r"[ \t\r\n]+", " ", data))
            self._pre_code_ended = self._pre_code_ended and not data.strip()
        else:
            self._spans[-1].append(data)

    def _as_terms(self, tag: str, attrs: list[tuple[str, str | None]] | None) -> str | None:
        """A part of a DocBook variable list set as a table (``<table class="variablelist">``,
        a row per entry: its term in one cell, its description in the next) read as the ``<dl>``
        it stands for: the tag to read instead ("dl", "dt", "dd"), "" to pass it by, None when it
        is no such part. ``attrs``: the start tag's, None for an end tag. cockpit.conf's options
        were cells, each its own paragraph ("`Banner`", then what it does). A table inside a
        description is read as the page's other tables are."""
        start = attrs is not None
        if start and tag == "table" and "variablelist" in _classes(attrs):
            self._term_tables.append(_TermTable())
            return "dl"
        if not self._term_tables or tag not in _TABLE_PARTS:
            return None
        table = self._term_tables[-1]
        if tag == "table" or table.nested:
            if tag == "table":
                table.nested += 1 if start else -1
                if table.nested < 0:  # the variable list's own end
                    self._term_tables.pop()
                    return "dl"
            return None
        if tag in ("td", "th"):
            table.column += start
            return "dt" if table.column == 1 else "dd"
        if tag == "tr":
            table.column = 0
        return ""

    def _title_terms(self, terms: _Terms) -> None:
        """A list of terms whose descriptions are sections of their own (most hold several
        blocks: paragraphs, code, a list), or whose terms mostly ask, as POD's ``=item``
        questions do: its terms become headings. A glossary of one-line definitions stays, each
        term on the line of its description (:meth:`_define_terms`)."""
        found = [(self.blocks[term], count) for term, count, _ in terms.entries
                 if term < len(self.blocks) and count]
        sections = sum(1 for _, count in found if count >= 2)
        asking = sum(1 for (text, _), _ in found if text.rstrip().endswith("?"))
        if not found or 2 * max(sections, asking) < len(found):
            self._define_terms(terms)
            return
        for term, count, _ in terms.entries:
            text, in_list = self.blocks[term] if term < len(self.blocks) else ("", True)
            words = collapse_spaces(text)
            bold = re.fullmatch(r"\*\*([^*]+)\*\*", words)  # a term set in bold: its words
            words = bold.group(1) if bold else words
            if count and not in_list and words and not words.startswith(("#", "```", "|")):
                self.blocks[term] = ("#" * terms.level + " " + words, False)

    def _define_terms(self, terms: _Terms) -> None:
        """A glossary's term and the paragraph that opens its description as one line, "`--no-run`:
        Compile, but don't run tests.": a step or a passage read alone keeps what it is about. The
        terms right before it without a description of their own are its other names, on its line
        ("-m, --move: Move/rename a branch …", as git's manual pages list an option's short and
        long forms)."""
        others: list[int] = []  # the blocks of the terms so far without a description
        for term, _, start in terms.entries:
            if start < 0:
                others = [*others, term] if not others or others[-1] == term - 1 else [term]
                continue
            aliases = [i for i in others if i < len(self.blocks)] if others and others[-1] == term - 1 else []
            others = []
            if start != term + 1 or start >= len(self.blocks):
                continue  # a term of several blocks, or none; several terms of one description
            (name, name_in_list), (text, text_in_list) = self.blocks[term], self.blocks[start]
            end = name.rstrip("*_ ")[-1:]  # "**You probably can:**" ends with its colon
            if name.endswith("..."):  # "-Mrm <message id> <message id> ...": arguments, no sentence
                end = " "
            if name_in_list or text_in_list or "\n" in name or len(name.split()) > 12 or end in ".!?" \
                    or name.startswith(("#", "```", "|")) or not text or text.startswith(("#", "```", "|")):
                continue
            if aliases and all(self._names(self.blocks[i]) for i in aliases):
                name = ", ".join([*(self.blocks[i][0] for i in aliases), name])
                for i in aliases:
                    self.blocks[i] = ("", False)
            quoted = re.match(r"(?:> )*", name)[0]  # a list of terms in a quote: its marks once
            text = text[len(quoted):] if quoted and text.startswith(quoted) else text
            self.blocks[term] = (f"{name}{' ' if end == ':' else ': '}{text}", False)
            self.blocks[start] = ("", False)

    @staticmethod
    def _names(block: tuple[str, bool]) -> bool:
        """A term's block that can stand beside another's name: one short line of words, no list
        item, heading, code block or table, and no sentence."""
        text, in_list = block
        return bool(text) and not in_list and "\n" not in text and len(text.split()) <= 6 \
            and not text.startswith(("#", "```", "|")) and text.rstrip("*_ ")[-1:] not in ".!?:"

    def _unquote_code(self, start: int) -> None:
        """A quotation that holds code alone is the code: Sphinx indents a literal block, or a
        command set as a paragraph of its own, inside a ``blockquote`` ("This is done by placing
        the" / ``$ModLoad ommysql`` / "directive at the beginning of /etc/rsyslog.conf"), and
        quoted, it was no code block to the steps nor to the sentence around it."""
        quoted = self.blocks[start:]
        unquoted = [(re.sub(r"(?m)^> ?", "", block), is_list) for block, is_list in quoted]
        if quoted and all(block.startswith("> ") and text.startswith("```") and text.rstrip().endswith("```")
                          for (block, _), (text, _) in zip(quoted, unquoted, strict=True)):
            self.blocks[start:] = unquoted

    def _flush_table(self) -> None:
        self._flush()
        rows, self._table = self._table, []
        if not rows:
            return
        (label, at), self._admonition = self._admonition, ("", -1)
        if label and at == len(self.blocks) and len(rows) == 1:
            # an Asciidoctor note (its icon's cell has no text): a note, under the step it is set in
            in_list = bool(self._lists) and not self._lists[-1].footnotes
            self.blocks.append((f"{self._continuation if in_list else ''}> **{label}:** {' '.join(rows[0])}", in_list))
            return
        if all(len(r) == 1 for r in rows) and len(rows) > 1 and _NOTE_LABEL.fullmatch(rows[0][0]):
            # a note DocBook sets as a table of its label and its text: the label, then the text,
            # which the reader gives as a note
            self.blocks += [(rows[0][0], False), (" ".join(r[0] for r in rows[1:]), False)]
            return
        self.blocks.append((pipe_table(rows), False))

    def markdown(self) -> str:
        self._flush()
        if self._table:
            self._flush_table()
        out: list[str] = []
        previous_is_list = False
        for block, is_list in _code_in_sentences(self.blocks):
            if not block:
                continue  # joined to the block before it
            if out:
                out.append("\n" if is_list and previous_is_list else "\n\n")
            out.append(block)
            previous_is_list = is_list
        return "".join(out)


_ONE_LINE_CODE = re.compile(r"```[\w+-]*\n([^\n`]{1,80})\n```")  # a code block of one short line
# words that go on with a phrase, not a clause: what follows says where the code above goes
_PLACE_WORD = re.compile(r"(?:in|into|inside|within|on|at|under|from|of)\b")


def _code_in_sentences(blocks: list[tuple[str, bool]]) -> list[tuple[str, bool]]:
    """A command or value that DocBook sets on a line of its own inside a sentence, back in its
    sentence as code: Exim's "It runs / exim -bpu / or (in case -a switch is specified) / exim
    -bp / to obtain a queue listing, …" is one paragraph, not a step "Run exim -bpu" and a step
    "or (in case …): exim -bp". The paragraph before the block breaks off (no ".", "!", "?" or
    ":" at its end, or a ":" when the next says where the code goes: "by uncommenting the line: /
    #Include conf/extra/httpd-userdir.conf / in the default config file …", Apache's) and the one
    after it starts in lower case."""
    out: list[tuple[str, bool]] = []
    for block, is_list in blocks:
        if len(out) >= 2 and not is_list and block[:1].islower():
            (before, before_in_list), (code, code_in_list) = out[-2], out[-1]
            shown = _ONE_LINE_CODE.fullmatch(code)
            ends = ".!?" if _PLACE_WORD.match(block) else ".!?:"
            if shown and not code_in_list and before and before[-1:] not in ends \
                    and not before.startswith(("#", "```", "|", ">")) and "\n" not in before.strip():
                out[-2:] = [(f"{before} `{shown.group(1).strip()}` {block}", before_in_list)]
                continue
        out.append((block, is_list))
    return out


_OPENING_HEADING = re.compile(r"\A\s*#{2,6} ([^\n]*\S)[^\n]*(?:\n|\Z)")
# what Sphinx writes as the title of a page that has no heading ("<no title> — Nextcloud Client
# Manual 3.7.3 documentation"): a part that other pages include, which names no title
_NO_TITLE = re.compile(r"^<no title>(?:\s+[|·•–—-]\s+.*)?$")
# a title that names the page by its file's name ("customizing-binary - Live Systems Manual",
# "bugs - Live Systems Manual"): lower-case words joined by hyphens, before the site's name
_SLUG_TITLE = re.compile(r"^(?P<slug>[a-z0-9]+(?:[-_][a-z0-9]+)*)(?P<rest>\s+[|·•–—-]\s+.*)$|"
                         r"^(?P<alone>[a-z0-9]+(?:[-_][a-z0-9]+)+)$")
_HEADING_WORDS = re.compile(r"^#{1,6}\s+(?:[\d.]+\s+)?(?P<words>.*\S)\s*$", re.M)


def _spelled_out(title: str, body: str) -> str:
    """A title that is the page's file name, spelled out by the first heading that has its words
    in their order ("Customizing the binary image - Live Systems Manual")."""
    if not (found := _SLUG_TITLE.match(title)):
        return title
    slug = re.split(r"[-_]", found.group("slug") or found.group("alone"))
    for heading in _HEADING_WORDS.finditer(body):
        words = iter(re.findall(r"[a-z0-9]+", heading.group("words").casefold()))
        if all(word in words for word in slug):  # in order: each is looked for after the last
            return heading.group("words") + (found.group("rest") or "")
    return title


def parse_html(source: str, path: Path, *, doc_id: str) -> Document:
    builder = _MarkdownBuilder(layout_tables=bool(_LAYOUT_CELL.search(source)))
    builder.feed(source)
    builder.close()
    body = _without_contents(builder.markdown(), path.name)
    title = collapse_spaces(builder.title)
    title = _spelled_out("" if _NO_TITLE.match(title) else title, body) or builder.h1
    if not title and (opening := _OPENING_HEADING.match(body)):
        # a part of a manual without a <title> or an <h1> ("Backups.part.html" opens with its
        # "<h2>Backups</h2>"): its first heading is its title
        title, body = opening.group(1).strip(), body[opening.end():]
    untitled = not title
    title = title or path.stem
    if parent := _parent_title(builder.links):
        title = f"{title} ({parent})"
    if (page := _man_page(body)) is not None:  # a manual page as ``man`` prints it, in one <pre>
        title, body = man_to_markdown(page)
        untitled = False
    first = body.lstrip().split("\n", 1)[0]
    text = tidy_markdown(body if first.startswith("# ") else f"# {title}\n\n{body}")
    if not divided_by_headings(text):
        # its heading tags stand over the whole body: its sections are numbered lines (SiSU's
        # <p class="bold">10.1 Customizing the live user</p>)
        text = numbered_sections(text)
    text = bold_questions(text) if has_headings(text) else layout_headings(text)
    text = tidy_markdown(notes_as_quotes(text, wrapped=False))
    meta = {"format": "html", "path": str(path), "date": None}
    if untitled:
        meta["untitled"] = True  # a page that names no title: the file's name stands for one
    return Document(doc_id=doc_id, title=title, text=text, meta=meta)


# the label a manual numbers its parts with: "Chapter 7. ", "Part II. ", "Appendix A. ", "5.4. "
_PART_LABEL = re.compile(r"^(?:(?:chapter|part|appendix|section)\s+[\w.]+\s+|[\d.]+\s+)", re.I)


# the links of a page to the part it belongs to ("up") and to the manual's first page, as
# DocBook's stylesheets ("home"), Texinfo and gtk-doc ("start") and Sphinx ("top") name it
_PAGE_LINKS = ("up", "home", "start", "top")


def _parent_title(links: dict[str, tuple[str, str]]) -> str:
    """The title of the part that a page of a manual split into pages belongs to, as its
    ``<link rel="up">`` names it ("Credit Cards" of "Chapter 7. Credit Cards" for the page
    "7.4. Entering Payments"): what the page's own title leaves unsaid. Empty when the part is
    the manual itself, its first page (every chapter of the Debian FAQ points up to its
    ``rel="home"``, every chapter of a Texinfo manual to its ``rel="start"``, titled "Top")."""
    href, title = links.get("up", ("", ""))
    first = {links[rel][0] for rel in _PAGE_LINKS[1:] if rel in links}
    if not title or href in first:
        return ""
    return _PART_LABEL.sub("", collapse_spaces(title)).strip()


def _man_page(body: str) -> str | None:
    """The text of a page that is one code block holding a manual page (:func:`is_man_page`),
    as Postfix's ``virtual.8.html`` is; None for any other page."""
    found = re.fullmatch(r"\s*```[^\n]*\n((?:(?!\n```).)*)\n```\s*", body, re.S)  # one block, not two
    return found[1] if found and is_man_page(found[1]) else None


def names_its_file(alt: str, src: str) -> bool:
    """An alt text that a generator made from an icon's file name, size and all ("add component
    24" for ``images/icons/add_component_24.png``): the text beside it names the button already.
    An alt that is a plain name ("Enter" for ``enter.png``) stays: it is the key to press."""
    stem = src.rsplit("/", 1)[-1].split("?", 1)[0].rsplit(".", 1)[0]
    words = re.sub(r"[\W_]+", " ", alt).strip().casefold()
    return any(word.isdigit() for word in words.split()) and \
        re.sub(r"[\W_]+", " ", stem).strip().casefold() == words


def _is_hidden_code(attrs: list[tuple[str, str | None]]) -> bool:
    """Lines of a code block that its page hides (mdBook's ``<span class="boring">``: the
    ``fn main() {`` wrapped around an example so that it compiles)."""
    return "boring" in _classes(attrs)


def _classes(attrs: list[tuple[str, str | None]]) -> set[str]:
    """An element's class names."""
    return set((dict(attrs).get("class") or "").split())


def _preformatted_text(text: str) -> list[str]:
    """The blocks of a text set in ``<pre>``: each paragraph's lines joined, and a paragraph
    indented deeper than the text's margin as a code block."""
    paragraphs = [p for p in re.split(r"\n\s*\n", text.strip("\n")) if p.strip()]
    margin = min((len(line) - len(line.lstrip()) for p in paragraphs for line in p.split("\n") if line.strip()),
                 default=0)
    blocks = []
    for paragraph in paragraphs:
        lines = [line[margin:].rstrip() for line in paragraph.split("\n")]
        if all(line[:1] == " " for line in lines if line):
            blocks.append("```\n" + textwrap.dedent("\n".join(lines)) + "\n```")
        else:
            blocks.append(" ".join(line.strip() for line in lines if line.strip()))
    return blocks


def _is_chrome(tag: str, attrs: list[tuple[str, str | None]]) -> bool:
    """An element that navigates the site rather than says something: a navigation bar, a
    breadcrumb trail, a sidebar, a table of contents, a menu bar or a site's menu, a panel of
    debugging facts about the page, a pop-up the page hides until asked (by its class or id, or
    its ARIA role; Node.js's site-wide contents is ``<div id="gtoc">``, mdBook's keyboard help
    ``<div id="mdbook-help-popup">`` in every page); a layout table that its summary says
    navigates (SiSU's ``<table summary="segment navigation band with banner">``)."""
    found = dict(attrs)
    names = _classes(attrs) | {found.get("id") or ""}
    return bool(names & _CHROME_NAMES) or any(map(_CHROME_SUFFIX.search, names)) \
        or tag in _MENU_BLOCKS and bool(names & _MENU_NAMES) or found.get("role") in ("navigation", "dialog") \
        or tag == "table" and "navigation" in (found.get("summary") or "").casefold()


def _is_picture(tag: str, attrs: list[tuple[str, str | None]]) -> bool:
    """A DocBook figure or image with its title and caption ("Figure 3.27. Example Image for
    Cropping" and the screenshot's alt text, said twice), or an Asciidoctor image block with its
    title: it shows what the text says."""
    return tag == "div" and bool(_classes(attrs) & _PICTURE_NAMES)


def _without_contents(markdown: str, page: str) -> str:
    """Without the lines that are only a link to a place on this same page (its table of
    contents, "back to top"): the headings say it again, and a search would find the contents'
    list of questions for every question."""
    def elsewhere(line: str) -> bool:
        m = _PAGE_LINK.match(line)
        return m is None or m.group("page") not in ("", page)
    return "\n".join(line for line in markdown.split("\n") if elsewhere(line))


def page_encoding(data: bytes) -> str:
    """The encoding a browser reads a page in that is not UTF-8: the one it declares in its
    first 2 KB, else Windows-1252 (the web's default for a page that declares none)."""
    found = _CHARSET.search(data[:2048])
    name = (found.group(1) or found.group(2)).decode("ascii").lower() if found else "cp1252"
    return _AS_BROWSERS_READ.get(name, name)


def read_html(path: Path, *, doc_id: str) -> Document:
    return parse_html(read_text(path, declared=page_encoding), path, doc_id=doc_id)
