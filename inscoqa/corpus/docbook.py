"""DocBook XML (``.docbook``, ``.dbk``, and ``.xml`` whose root is a DocBook element) rendered
as Markdown: the help of many desktop applications (KDE's handbooks, GNOME's older help,
Gnumeric's) and of projects that publish from DocBook sources.

Chapters and sections (``chapter``, ``sect1`` … ``sect5``, ``section``, ``refsect1`` …) become
headings, ``procedure`` and ``orderedlist`` numbered items (``substeps`` nested under their
step), ``itemizedlist`` bullets, ``variablelist`` entries ``**term**: description``,
``programlisting`` and ``screen`` code fences, ``note``, ``tip``, ``warning`` … quoted notes
("> **Note:** …"), ``table`` pipe tables, ``qandaentry`` a question heading over its answer.
Inline: ``command``, ``literal``, ``filename``, ``userinput`` … are code; ``menuchoice`` reads
"File → Save"; ``keycombo`` "Ctrl+S"; ``ulink`` and ``link`` are links and ``xref`` the title
of the section it points to. Figures, screenshots, index terms, remarks and the book's metadata
(``bookinfo``, ``info``) give nothing.

Entities: those the file declares in its DOCTYPE, else those the other DocBook files of its
folder declare (a book's chapters, each a file of its own, use the entities the book's main
file declares: Gnumeric's ``&gnum;``), else HTML's named characters (``&mdash;``); one declared
nowhere reads as its name (KDE's ``&kmail;``, ``&Ctrl;``), and an external entity (a chapter the
main file includes) as nothing. An ``xref`` to another file of the folder reads as that file's
section title too.
"""

from __future__ import annotations

import html.entities
import re
import textwrap
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from inscoqa.corpus.common import (
    collapse_spaces,
    flush_running_text,
    pipe_table,
    quoted_note,
    read_text,
    tidy_markdown,
)
from inscoqa.corpus.document import Document, DocumentError

# the elements a DocBook document or a file of one starts with
ROOTS = frozenset({"book", "article", "part", "chapter", "preface", "appendix", "sect1", "sect2", "sect3",
                   "section", "refentry", "reference", "glossary", "glossdiv", "set", "simplesect", "para"})
_SECTIONS = frozenset({"book", "part", "chapter", "preface", "appendix", "article", "sect1", "sect2", "sect3",
                       "sect4", "sect5", "section", "simplesect", "refentry", "refsect1", "refsect2",
                       "refsect3", "refsection", "refsynopsisdiv", "reference", "glossary", "glossdiv",
                       "bibliography", "colophon", "dedication", "set", "qandadiv"})
_SKIP = frozenset({"title", "subtitle", "titleabbrev", "info", "bookinfo", "articleinfo", "chapterinfo",
                   "sectioninfo", "sect1info", "sect2info", "sect3info", "prefaceinfo", "appendixinfo",
                   "refmeta", "indexterm", "remark", "comment", "figure", "informalfigure", "mediaobject",
                   "screenshot", "inlinemediaobject", "graphic", "inlinegraphic", "toc", "lot", "index",
                   "footnote", "anchor", "legalnotice", "authorgroup", "author", "revhistory", "abstract"})
_PICTURES = frozenset({"inlinemediaobject", "inlinegraphic"})  # an icon in a sentence, left out
_PUNCTUATION_FIRST = re.compile(r"^\s*[.,;:!?)]")
_CODE = frozenset({"command", "literal", "filename", "userinput", "computeroutput", "option", "varname",
                   "envar", "function", "parameter", "code", "systemitem", "constant", "classname",
                   "methodname", "type", "prompt", "tag", "markup", "uri", "sgmltag", "returnvalue"})
_NOTES = {"note": "Note", "tip": "Tip", "warning": "Warning", "important": "Important", "caution": "Caution"}
_CODE_BLOCKS = frozenset({"programlisting", "screen", "synopsis", "literallayout", "cmdsynopsis", "funcsynopsis"})
_INDENT = "   "
_DOCTYPE = re.compile(r"<!DOCTYPE\s[^\[>]*(?:\[(?P<subset>.*?)\]\s*)?>", re.S)
_ENTITY = re.compile(r"<!ENTITY\s+(?P<name>[\w.-]+)\s+(?:(?P<q>[\"'])(?P<value>.*?)(?P=q)|(?:SYSTEM|PUBLIC)\b[^>]*)\s*>",
                     re.S)
_COMMENT = re.compile(r"<!--.*?-->", re.S)
_REFERENCE = re.compile(r"&(?P<name>[A-Za-z_][\w.-]*);")
# an element with an id, then its title (in its info element or not)
_TITLED = re.compile(r"<\w+\s[^>]*?\bid=[\"'](?P<id>[^\"']+)[\"'][^>]*>\s*(?:<\w*info\b[^>]*>\s*)?<title>"
                     r"(?P<title>.*?)</title>", re.S)
_TEX_QUOTES = re.compile(r"``([^`']+?)''|`([^`'\s][^`']*?)'")  # ``Set Cell'', `<=0'


def _words(text: str | None) -> str:
    """A text node as prose: TeX's quotes as quotes, not as the start of code."""
    return _TEX_QUOTES.sub(lambda m: f"“{m[1]}”" if m[1] is not None else f"‘{m[2]}’", text or "")
_XML_ENTITIES = frozenset({"amp", "lt", "gt", "quot", "apos"})


def _local(el: ET.Element) -> str:
    return el.tag.rsplit("}", 1)[-1] if isinstance(el.tag, str) else ""


# ---------------------------------------------------------------- entities


def declared_entities(source: str) -> dict[str, str | None]:
    """The entities a DOCTYPE's internal subset declares: a text for an internal one, None for
    an external one (a file it includes)."""
    found = _DOCTYPE.search(_COMMENT.sub("", source))
    if not found or not found["subset"]:
        return {}
    return {m["name"]: (m["value"] if m["q"] else None) for m in _ENTITY.finditer(found["subset"])}


@dataclass(frozen=True)
class _Folder:
    """What the DocBook files of one folder declare for each other: entities, and the titles
    of the elements that their ``xref``s point to."""

    entities: dict[str, str | None]
    titles: dict[str, str]


@lru_cache(maxsize=64)
def _folder(folder: Path) -> _Folder:
    entities: dict[str, str | None] = {}
    titles: dict[str, str] = {}
    for path in sorted(folder.glob("*")):
        if path.suffix.lower() in (".xml", ".docbook", ".dbk") and path.is_file():
            text = path.read_bytes().decode("utf-8", "replace")
            for name, value in declared_entities(text[:65536]).items():
                entities.setdefault(name, value)
            for m in _TITLED.finditer(text):
                titles.setdefault(m["id"], collapse_spaces(re.sub(r"<[^>]*>|&[\w.-]+;", "", m["title"])))
    return _Folder(entities, titles)


MAX_ENTITY_CHARS = 1_000_000  # an entity that expands to more (entities nested to blow up) is refused


def expand_entities(source: str, entities: dict[str, str | None]) -> str:
    """``source`` with its comments and DOCTYPE left out and every entity reference but XML's
    own replaced (see the module's docstring). An entity's text may use other entities, each
    expanded once, up to :data:`MAX_ENTITY_CHARS` characters (else ValueError)."""
    source = _DOCTYPE.sub("", _COMMENT.sub("", source), count=1)
    done: dict[str, str] = {}

    def replace(m: re.Match[str], seen: tuple[str, ...] = ()) -> str:
        name = m["name"]
        if name in _XML_ENTITIES:
            return m[0]
        if name in entities:
            if name not in done:
                value = entities[name]
                text = "" if value is None or name in seen else \
                    _REFERENCE.sub(lambda n: replace(n, (*seen, name)), value)
                if len(text) > MAX_ENTITY_CHARS:
                    raise ValueError(f"entity '{name}' expands to more than {MAX_ENTITY_CHARS:,} characters")
                done[name] = text
            return done[name]
        if name in html.entities.name2codepoint:
            return chr(html.entities.name2codepoint[name])
        # its name, apart from a reference right after it (KDE's "&Ctrl;&Shift;" reads "Ctrl Shift")
        return f"{name} " if _REFERENCE.match(m.string, m.end()) else name

    return _REFERENCE.sub(replace, source)


# ---------------------------------------------------------------- inline content


class _Reader:
    """One document's rendering: the titles its ``xref``s name, by id."""

    def __init__(self, root: ET.Element, titles: dict[str, str]) -> None:
        self.titles = dict(titles)
        for el in root.iter():
            title = _title_of(el)
            if el.get("id") and title is not None:
                self.titles[el.get("id", "")] = collapse_spaces("".join(title.itertext()))

    def inline(self, el: ET.Element) -> str:
        """An element's mixed content as one Markdown line (whitespace collapsed)."""
        return collapse_spaces(self._inline_raw(el))

    def _inline_raw(self, el: ET.Element) -> str:
        parts = [_words(el.text)]
        for child in el:
            if isinstance(child.tag, str):
                parts.append(self._inline_child(child))
            tail = _words(child.tail)
            if isinstance(child.tag, str) and _local(child) in _PICTURES and _PUNCTUATION_FIRST.match(tail):
                # the comma set before an icon left out: "the toolbar graph button, [icon]. Another …"
                parts[-2] = parts[-2].rstrip().removesuffix(",")
            parts.append(tail)
        return "".join(parts)

    def _inline_child(self, el: ET.Element) -> str:
        name = _local(el)
        if name in _SKIP:
            return ""
        if name in _CODE:
            label = collapse_spaces("".join(el.itertext()))
            return f"`{label}`" if label else ""
        if name == "emphasis":
            label = self.inline(el)
            mark = "**" if el.get("role") in ("bold", "strong") else "*"
            return f"{mark}{label}{mark}" if label else ""
        if name == "menuchoice":
            return " → ".join(p for p in (self.inline(c) for c in el if isinstance(c.tag, str)
                                           and _local(c) != "shortcut") if p)
        if name == "keycombo":  # its keys, each a keycap or a word of text ("&Ctrl;<keycap>H</keycap>")
            keys = (el.text or "").split()
            for child in el:
                keys += [self.inline(child)] if isinstance(child.tag, str) else []
                keys += (child.tail or "").split()
            return "+".join(k for k in keys if k)
        if name in ("ulink", "link"):
            target = el.get("url") or el.get("{http://www.w3.org/1999/xlink}href") or el.get("linkend") or ""
            label = self.inline(el)
            if el.get("linkend") and not label:
                return self.titles.get(el.get("linkend", ""), "")
            return f"[{label or target}]({target})" if target and not el.get("linkend") else label or target
        if name == "xref":
            return self.titles.get(el.get("linkend", ""), "")
        if name in ("quote", "citetitle"):
            return f"“{self.inline(el)}”"
        return self._inline_raw(el)

    # ------------------------------------------------------------ blocks

    def blocks(self, el: ET.Element, depth: int) -> list[str]:
        """Markdown blocks (each one or more lines) for the block children of ``el``."""
        out: list[str] = []
        loose: list[str] = [el.text or ""]
        for child in el:
            if not isinstance(child.tag, str):
                loose.append(child.tail or "")
                continue
            rendered = self._block(child, depth)
            if rendered is None:  # an inline element among blocks: running text
                loose.append(self._inline_child(child))
            else:
                flush_running_text(loose, out)
                out.extend(rendered)
            loose.append(child.tail or "")
        flush_running_text(loose, out)
        return out

    def _block(self, el: ET.Element, depth: int) -> list[str] | None:
        name = _local(el)
        if name in _SKIP:
            return []
        if name in _SECTIONS:
            return self._section(el, depth)
        if name in ("para", "simpara"):  # a paragraph, or one that holds a list or code: its blocks
            if any(_is_block(c) for c in el):
                return self.blocks(el, depth)
            text = self.inline(el)
            return [text] if text else []
        if name == "formalpara":
            title = self.inline(_title_of(el)) if _title_of(el) is not None else ""
            body = self.blocks(el, depth)
            return [f"**{title}.** {body[0]}", *body[1:]] if title and body else body
        if name in ("procedure", "orderedlist", "substeps", "stepalternatives"):
            return self._list(el, depth, numbered=name != "stepalternatives")
        if name in ("itemizedlist", "simplelist", "segmentedlist"):
            return self._list(el, depth, numbered=False)
        if name in ("variablelist", "glosslist"):
            return self._terms(el, depth)
        if name == "glossentry":
            return self._entry(el, depth)
        if name in _NOTES:
            return self._note(el, depth, _NOTES[name])
        if name in _CODE_BLOCKS:
            code = textwrap.dedent("".join(el.itertext())).strip("\n")
            return [f"```\n{code}\n```"] if code.strip() else []
        if name in ("table", "informaltable"):
            return self._table(el)
        if name == "qandaset":
            return self.blocks(el, depth)
        if name == "qandaentry":
            return self._question(el, depth)
        if name == "refnamediv":
            names = ", ".join(self.inline(n) for n in el if _local(n) == "refname")
            purpose = next((self.inline(p) for p in el if _local(p) == "refpurpose"), "")
            return [f"{names} — {purpose}" if purpose else names]
        if name in ("blockquote", "epigraph"):
            return ["> " + b.replace("\n", "\n> ") for b in self.blocks(el, depth)]
        if _is_block(el):  # example, sidebar, a step's or an item's wrapper …
            title = _title_of(el)
            label = [f"**{self.inline(title)}**"] if title is not None and name in ("example", "sidebar") else []
            return label + self.blocks(el, depth)
        return None

    def _section(self, el: ET.Element, depth: int) -> list[str]:
        title = _title_of(el)
        heading = self.inline(title).replace("**", "") if title is not None else ""
        body = self.blocks(el, depth + 1)
        return ([f"{'#' * min(depth + 1, 6)} {heading}"] if heading else []) + body

    def _item_lines(self, item: ET.Element, depth: int) -> list[str]:
        """One item: its paragraphs on one line, nested lists and code indented below it."""
        head: list[str] = []
        nested: list[str] = []
        for block in self.blocks(item, depth):
            if "\n" in block or re.match(r"^(?:- |\d+\. |> |```|\*\*[^*]+\*\*:)", block):  # a list, code, an entry
                nested.extend(_INDENT + line if line else line for line in block.split("\n"))
            elif not nested:
                head.append(block)
            else:
                nested.append(_INDENT + block)
        return [" ".join(head), *nested]

    def _list(self, el: ET.Element, depth: int, *, numbered: bool) -> list[str]:
        lines: list[str] = []
        n = 0
        for item in el:
            name = _local(item)
            if name == "title":
                lines.append(f"**{self.inline(item)}**")
            elif name in ("listitem", "step", "member", "seglistitem"):
                first, *rest = self._item_lines(item, depth) if name != "member" else [self.inline(item)]
                # a step's title says what to do, the paragraphs under it how ("Open the File Save
                # dialog." over "First, the dialog must be opened …")
                if name == "step" and (title := _title_of(item)) is not None and (said := self.inline(title)):
                    first = " ".join(part for part in (said if said.endswith((".", ":", "!", "?")) else f"{said}.",
                                                       first) if part)
                if first or rest:
                    n += 1
                    lines.append(f"{n}. {first}" if numbered else f"- {first}")
                    lines.extend(rest)
        return ["\n".join(lines)] if lines else []

    def _terms(self, el: ET.Element, depth: int) -> list[str]:
        out: list[str] = []
        for entry in el:
            if _local(entry) == "title":
                out.append(f"**{self.inline(entry)}**")
            elif _local(entry) in ("varlistentry", "glossentry"):
                out.extend(self._entry(entry, depth))
        return out

    def _entry(self, entry: ET.Element, depth: int) -> list[str]:
        terms = [self.inline(t).replace("**", "") for t in entry if _local(t) in ("term", "glossterm")]
        term = ", ".join(t for t in terms if t)
        body: list[str] = []
        for part in entry:
            if _local(part) in ("listitem", "glossdef"):
                body.extend(self.blocks(part, depth))
        if not term:
            return body
        if body and "\n" not in body[0] and not body[0].startswith(("```", "> ")):
            return [f"**{term}**: {body[0]}", *body[1:]]
        return [f"**{term}**:", *body]

    def _note(self, el: ET.Element, depth: int, label: str) -> list[str]:
        body = self.blocks(el, depth)
        if not body:
            return []
        return [quoted_note(label, body)]

    def _question(self, el: ET.Element, depth: int) -> list[str]:
        question = next((q for q in el if _local(q) == "question"), None)
        answer = next((a for a in el if _local(a) == "answer"), None)
        asked = " ".join(self.blocks(question, depth)) if question is not None else ""
        heading = [f"{'#' * min(depth + 1, 6)} {asked}"] if asked else []
        return heading + (self.blocks(answer, depth + 1) if answer is not None else [])

    def _table(self, el: ET.Element) -> list[str]:
        rows: list[list[str]] = []
        for row in el.iter():
            if _local(row) == "row":
                cells = [self.inline(c) if not any(_is_block(b) for b in c)
                         else " ".join(self.blocks(c, 1)).replace("\n", " ") for c in row if _local(c) == "entry"]
                if cells:
                    rows.append(cells)
        return [pipe_table(rows)] if rows else []


_BLOCKS = frozenset({"para", "simpara", "formalpara", "procedure", "orderedlist", "itemizedlist", "simplelist",
                     "variablelist", "glosslist", "note", "tip", "warning", "important", "caution", "table",
                     "informaltable", "example", "informalexample", "sidebar", "blockquote", "qandaset",
                     "substeps", "stepalternatives", "segmentedlist", "refnamediv", "epigraph", "task",
                     "tasksummary", "taskprerequisites", "taskrelated", "equation", "informalequation",
                     "msgset", "calloutlist", "bridgehead", "address"}
                    | _CODE_BLOCKS | _SECTIONS)


def _is_block(el: ET.Element) -> bool:
    return isinstance(el.tag, str) and _local(el) in _BLOCKS


def _title_of(el: ET.Element) -> ET.Element | None:
    """An element's title: its own ``title``, or the one in its ``info`` (DocBook 5) or
    ``*info`` (DocBook 4's ``bookinfo``, ``articleinfo``)."""
    for child in el:
        name = _local(child)
        if name == "title":
            return child
        if name == "info" or name.endswith("info") and name != "refmiscinfo":
            found = next((t for t in child if _local(t) == "title"), None)
            if found is not None:
                return found
    return None


# ---------------------------------------------------------------- document


_PROLOG = re.compile(r"<\?xml.*?\?>", re.S)


def root_element(source: str) -> str:
    """The local name of a document's first element, after its prolog, comments and DOCTYPE."""
    body = re.sub(r"<\?.*?\?>|<!--.*?-->|<!DOCTYPE\s[^\[>]*(?:\[.*?\]\s*)?>", "", source[:200000], flags=re.S)
    found = re.search(r"<([A-Za-z_][\w.-]*:)?([A-Za-z_][\w.-]*)", body)
    return found[2] if found else ""


def is_docbook(source: str) -> bool:
    return root_element(source) in ROOTS


def parse_docbook(source: str, path: Path, *, doc_id: str) -> Document:
    """A DocBook document or a file of one (a chapter, a ``sect1``) as Markdown."""
    if not is_docbook(source):
        raise DocumentError(path, f"not DocBook XML: root element is <{root_element(source) or '?'}>, expected "
                                  f"one of <{'>, <'.join(sorted(ROOTS))}>")
    folder = _folder(path.parent.resolve()) if path.parent.is_dir() else _Folder({}, {})
    entities = {**folder.entities, **declared_entities(source)}
    try:
        body = _PROLOG.sub("", expand_entities(source, entities))
    except ValueError as exc:
        raise DocumentError(path, str(exc)) from exc
    try:  # a file that a book includes may hold several sections one after the other
        wrapper = ET.fromstring(f"<fragment>{body}</fragment>")
    except ET.ParseError as exc:
        line, column = exc.position
        message = str(exc).split(":", 1)[0]
        raise DocumentError(path, f"XML parse error at line {line}, column {column + 1}: {message}") from exc
    tops = [el for el in wrapper if isinstance(el.tag, str)]
    root, others = tops[0], tops[1:]
    reader = _Reader(wrapper, folder.titles)
    title_el = _title_of(root)
    title = reader.inline(title_el).replace("**", "") if title_el is not None else ""
    title = title or path.stem
    blocks = reader.blocks(root, 1) if _local(root) in _SECTIONS else reader._block(root, 1) or []
    for other in others:  # the next sections, each under its own heading
        blocks.extend(reader._block(other, 1) or [])
    text = tidy_markdown("\n\n".join([f"# {title}", *blocks]))
    meta = {"format": "docbook", "path": str(path), "element": _local(root), "page_id": root.get("id")}
    return Document(doc_id=doc_id, title=title, text=text, meta=meta)


def read_docbook(path: Path, *, doc_id: str) -> Document:
    return parse_docbook(read_text(path), path, doc_id=doc_id)
