"""Mallard XML help pages (``.page``, GNOME help) rendered as Markdown.

``<steps>`` become numbered lists, ``<list>`` bullets, ``<section>`` headings, ``<link xref>``
Markdown links, ``<note>`` quoted notes, ``<code>``/``<screen>`` fences. Conditional content
(``if:if``, ``if:choose``, ``if:test``) is resolved for the standard GNOME desktop, and XInclude
(a section that several pages share, :mod:`inscoqa.corpus.xinclude`) from the page's folder.
"""

from __future__ import annotations

import re
import textwrap
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from inscoqa.corpus.common import (
    collapse_spaces,
    flush_running_text,
    pipe_table,
    quoted_note,
    read_text,
    tidy_markdown,
)
from inscoqa.corpus.document import Document, DocumentError
from inscoqa.corpus.xinclude import resolve_includes

MALLARD_NS = "http://projectmallard.org/1.0/"
IF_NS = "http://projectmallard.org/if/1.0/"
# Conditions true on the standard desktop; every other condition token is false.
TRUE_CONDITIONS = frozenset({"platform:gnome", "target:desktop"})

_SKIP = frozenset({"info", "comment", "links", "media", "rules", "thumb", "include", "title", "subtitle"})
_INLINE = frozenset({"gui", "guiseq", "keyseq", "key", "link", "em", "app", "span", "cite", "hi",
                     "date"})
_CODE_INLINE = frozenset({"code", "cmd", "file", "sys", "input", "output", "var"})
_NOTE_LABELS = {"tip": "Tip", "warning": "Warning", "important": "Important", "caution": "Caution",
                "bug": "Bug", "danger": "Danger", "advanced": "Advanced"}
_INDENT = "   "
_EMPTY_PARENS = re.compile(r" ?\(\s*\)")  # left behind by dropped inline images


def _local(el: ET.Element) -> str:
    return el.tag.rsplit("}", 1)[-1] if isinstance(el.tag, str) else ""


def _namespace(el: ET.Element) -> str:
    return el.tag[1:].split("}", 1)[0] if isinstance(el.tag, str) and el.tag.startswith("{") else ""


def condition_holds(test: str) -> bool:
    """Mallard conditional test: comma-separated alternatives of space-separated tokens, ``!`` negates."""
    for alternative in test.split(","):
        tokens = alternative.split()
        if all((tok[1:] not in TRUE_CONDITIONS) if tok.startswith("!") else (tok in TRUE_CONDITIONS)
               for tok in tokens):
            return True
    return False


def _shown(el: ET.Element) -> bool:
    test = el.get(f"{{{IF_NS}}}test")
    return test is None or condition_holds(test)


def _chosen(choose: ET.Element) -> list[ET.Element]:
    """Children of ``if:choose`` that apply: the first passing ``if:when`` (else ``if:else``), plus
    any plain children."""
    picked: list[ET.Element] = []
    branch_taken = False
    for child in choose:
        if _namespace(child) == IF_NS and _local(child) == "when":
            if not branch_taken and condition_holds(child.get("test", "")):
                picked.extend(child)
                branch_taken = True
        elif _namespace(child) == IF_NS and _local(child) == "else":
            if not branch_taken:
                picked.extend(child)
                branch_taken = True
        else:
            picked.append(child)
    return picked


def _children(el: ET.Element) -> list[ET.Element]:
    """Element children with conditional processing applied."""
    out: list[ET.Element] = []
    for child in el:
        if not isinstance(child.tag, str) or not _shown(child):
            continue
        if _namespace(child) == IF_NS and _local(child) == "if":
            if condition_holds(child.get("test", "")):
                out.extend(_children(child))
        elif _namespace(child) == IF_NS and _local(child) == "choose":
            wrapper = ET.Element("wrapper")
            wrapper.extend(_chosen(child))
            out.extend(_children(wrapper))
        else:
            out.append(child)
    return out


# ---------------------------------------------------------------- inline content


def inline(el: ET.Element) -> str:
    """An element's mixed content as one Markdown line (whitespace collapsed)."""
    return _EMPTY_PARENS.sub("", collapse_spaces(_inline_raw(el))).strip()


def _inline_raw(el: ET.Element) -> str:
    parts = [el.text or ""]
    for child in el:
        if isinstance(child.tag, str) and _shown(child):
            parts.append(_inline_child(child))
        parts.append(child.tail or "")
    return "".join(parts)


def _inline_child(el: ET.Element) -> str:
    name = _local(el)
    if _namespace(el) == IF_NS:
        kept = _chosen(el) if name == "choose" else (list(el) if condition_holds(el.get("test", "")) else [])
        wrapper = ET.Element("wrapper")
        wrapper.text = el.text if name == "if" and kept else ""
        wrapper.extend(kept)
        return _inline_raw(wrapper)
    if name in ("comment", "info", "rules", "thumb"):
        return ""
    if name == "media":
        return inline(el)
    if name == "link":
        target = el.get("xref") or el.get("href")
        label = inline(el)
        if not target:
            return label
        return f"[{label or target}]({target})"
    if name == "gui":
        label = inline(el)
        return f"**{label}**" if label else ""
    if name == "guiseq":
        return " > ".join(_inline_child(g) for g in el if _local(g) == "gui")
    if name == "keyseq":
        keys = [inline(k) for k in el if isinstance(k.tag, str)]
        return "+".join(k for k in keys if k) if keys else inline(el)
    if name == "em":
        label = inline(el)
        return f"*{label}*" if label else ""
    if name in _CODE_INLINE:
        label = inline(el)
        return f"`{label}`" if label else ""
    return _inline_raw(el)


# ---------------------------------------------------------------- blocks


def blocks(el: ET.Element, depth: int) -> list[str]:
    """Markdown blocks (each one or more lines) for the block children of ``el``."""
    out: list[str] = []
    loose: list[str] = [el.text or ""]
    for child in _children(el):
        rendered = _block(child, depth)
        if rendered is None:  # inline element among blocks: keep as running text
            loose.append(_inline_child(child))
        else:
            flush_running_text(loose, out)
            out.extend(rendered)
        loose.append(child.tail or "")
    flush_running_text(loose, out)
    return out


def _block(el: ET.Element, depth: int) -> list[str] | None:
    name = _local(el)
    renderer = _BLOCK_RENDERERS.get(name)
    if renderer is not None:
        return renderer(el, depth)
    if name in _SKIP:
        return []
    if name in _INLINE or name in _CODE_INLINE:
        return None
    # Containers (example, div, synopsis, item outside lists, ...) and unknown elements.
    return blocks(el, depth)


def _paragraph(el: ET.Element, depth: int) -> list[str]:
    text = inline(el)
    return [text] if text else []


def _section(el: ET.Element, depth: int) -> list[str]:
    title_el = next((c for c in el if _local(c) == "title"), None)
    title = inline(title_el) if title_el is not None else ""
    body = blocks(el, depth + 1)
    heading = [f"{'#' * min(depth + 1, 6)} {title.replace('**', '')}"] if title else []
    return heading + body


def _item_lines(item: ET.Element, depth: int) -> list[str]:
    """One list item: its paragraphs joined on one line, nested lists indented below it."""
    head: list[str] = []
    nested: list[str] = []
    for block in blocks(item, depth):
        if "\n" in block or _is_list_line(block):
            nested.extend(_INDENT + line for line in block.split("\n"))
        elif not nested:
            head.append(block)
        else:
            nested.append(_INDENT + block)
    return [" ".join(head), *nested]


def _is_list_line(text: str) -> bool:
    return bool(re.match(r"^(?:- |\d+\. |> )", text))


def _list(el: ET.Element, depth: int, numbered: bool) -> list[str]:
    lines: list[str] = []
    n = 0
    for item in _children(el):
        if _local(item) == "title":
            lines.append(f"**{inline(item).replace('**', '')}**")
            continue
        if _local(item) != "item":
            continue
        first, *rest = _item_lines(item, depth)
        if not first and not rest:
            continue
        n += 1
        marker = f"{n}. " if numbered else "- "
        lines.append(marker + first)
        lines.extend(rest)
    return ["\n".join(lines)] if lines else []


def _steps(el: ET.Element, depth: int) -> list[str]:
    return _list(el, depth, numbered=True)


def _bullets(el: ET.Element, depth: int) -> list[str]:
    return _list(el, depth, numbered=el.get("type") == "numbered")


def _terms(el: ET.Element, depth: int) -> list[str]:
    lines: list[str] = []
    for item in _children(el):
        if _local(item) != "item":
            continue
        # a term is bold as a whole: a <gui> label inside it is not bold a second time
        terms = [inline(t).replace("**", "") for t in item if _local(t) == "title"]
        definition = [b for b in blocks(item, depth) if b]
        term = " / ".join(t for t in terms if t)
        text = " ".join(d.replace("\n", " ") for d in definition)
        lines.append(f"- **{term}**: {text}" if term else f"- {text}")
    return ["\n".join(lines)] if lines else []


def _note(el: ET.Element, depth: int) -> list[str]:
    style = (el.get("style") or "").split()
    label = next((_NOTE_LABELS[s] for s in style if s in _NOTE_LABELS), "Note")
    body = blocks(el, depth)
    if not body:
        return []
    return [quoted_note(label, body)]


def _code(el: ET.Element, depth: int) -> list[str]:
    code = textwrap.dedent("".join(el.itertext())).strip("\n")
    return [f"```\n{code}\n```"] if code.strip() else []


def _table(el: ET.Element, depth: int) -> list[str]:
    rows: list[list[str]] = []
    for tr in el.iter(f"{{{MALLARD_NS}}}tr"):
        cells = [" ".join(blocks(td, depth)).replace("\n", " ") for td in tr if _local(td) in ("td", "th")]
        if cells:
            rows.append(cells)
    return [pipe_table(rows)] if rows else []


def _quote(el: ET.Element, depth: int) -> list[str]:
    return ["> " + b.replace("\n", "\n> ") for b in blocks(el, depth)]


def _figure(el: ET.Element, depth: int) -> list[str]:
    parts = [inline(c) for c in el if _local(c) in ("title", "desc")]
    return [p for p in parts if p]


_BLOCK_RENDERERS: dict[str, Any] = {
    "p": _paragraph,
    "desc": _paragraph,
    "section": _section,
    "steps": _steps,
    "list": _bullets,
    "terms": _terms,
    "note": _note,
    "code": _code,
    "screen": _code,
    "table": _table,
    "quote": _quote,
    "figure": _figure,
}


# ---------------------------------------------------------------- page


def _info_meta(info: ET.Element | None) -> dict[str, Any]:
    meta: dict[str, Any] = {}
    if info is None:
        return meta
    dates = [r.get("date", "") for r in info if _local(r) == "revision" and r.get("date")]
    meta["date"] = max(dates) if dates else None
    versions = [r.get("pkgversion") for r in info if _local(r) == "revision" and r.get("pkgversion")]
    if versions:
        meta["version"] = versions[-1]
    desc = next((inline(d) for d in info if _local(d) == "desc"), "")
    if desc:
        meta["description"] = desc
    links: dict[str, list[str]] = {}
    for link in info:
        if _local(link) == "link" and link.get("xref"):
            links.setdefault(link.get("type", "link"), []).append(link.get("xref", ""))
    meta["links"] = links
    link_title = next((inline(t) for t in info if _local(t) == "title" and t.get("type") == "link"), "")
    if link_title:
        meta["link_title"] = link_title
    return meta


def parse_mallard(source: str, path: Path, *, doc_id: str) -> Document:
    try:
        root = ET.fromstring(source)
    except ET.ParseError as exc:
        line, column = exc.position
        message = str(exc).split(":", 1)[0]
        raise DocumentError(path, f"XML parse error at line {line}, column {column + 1}: {message}") from exc
    if _local(root) != "page" or _namespace(root) != MALLARD_NS:
        raise DocumentError(path, f"not a Mallard page: root element is <{root.tag}>, expected "
                                  f"<page xmlns=\"{MALLARD_NS}\">")
    # the sections it shares with other pages of its folder (the license in its info says
    # nothing of the page; another page is a document of its own)
    unresolved = resolve_includes(root, path.parent, skip=frozenset({"info"}), documents=(".page",))
    info = next((c for c in root if _local(c) == "info"), None)
    meta = _info_meta(info)
    title_el = next((c for c in root if _local(c) == "title"), None)
    title = inline(title_el) if title_el is not None else ""
    title = title or meta.get("link_title") or root.get("id") or path.stem
    body = blocks(root, 1)
    text = tidy_markdown("\n\n".join([f"# {title}", *body]))
    meta.update({"format": "mallard", "path": str(path), "page_id": root.get("id"),
                 "page_type": root.get("type"), "style": root.get("style")})
    if unresolved:
        meta["unresolved_includes"] = unresolved
    return Document(doc_id=doc_id, title=title, text=text, meta=meta)


def read_mallard(path: Path, *, doc_id: str) -> Document:
    return parse_mallard(read_text(path), path, doc_id=doc_id)
