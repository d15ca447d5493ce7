"""Markdown with YAML front matter (Microsoft Office support articles and similar docs sites).

Headings, numbered lists, tables, notes and code stay as they are; a table written without its
outer pipes (``Name | Type``) gets them, as every reader writes tables. Dropped: HTML comments,
image-only lines (``![..](..)`` and ``:::image ...:::`` blocks), docs-site directives and
Hugo shortcodes. ``[!INCLUDE [..](file.md)]`` is replaced by the included file's body when that
file exists beside the article, and dropped otherwise. MyST's directives and roles (Sphinx sites
written in Markdown) become plain Markdown (:mod:`inscoqa.corpus.myst`), and reference-style
links inline links.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from inscoqa.corpus.common import (
    iso_date,
    map_outside_code,
    read_text,
    split_front_matter,
    tidy_markdown,
)
from inscoqa.corpus.document import Document
from inscoqa.corpus.myst import myst_to_markdown

_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
_UNCLOSED_COMMENT = re.compile(r"<!--.*\Z", re.DOTALL)
_SCRIPT_STYLE = re.compile(r"<(script|style)\b.*?</\1\s*>", re.DOTALL | re.IGNORECASE)
_INCLUDE = re.compile(r"\[!INCLUDE\s*\[[^\]]*\]\(([^)\s]+)\)\s*\]", re.IGNORECASE)
_COMPLEX_IMAGE = re.compile(r"^[ \t>]*:::image\b[^\n]*\n.*?:::image-end:::[ \t]*$", re.DOTALL | re.MULTILINE)
_DIRECTIVE_LINE = re.compile(r"^[ \t>]*:::[^\n]*:::[ \t]*$", re.MULTILINE)
_IMAGE = r"!\[[^\]]*\]\([^)]*\)"
_LINKED_IMAGE = rf"\[{_IMAGE}\]\([^)]*\)"
_IMAGE_ONLY_LINE = re.compile(rf"^[ \t>]*(?:{_LINKED_IMAGE}|{_IMAGE})[ \t]*$", re.MULTILINE)
_INLINE_IMAGE = re.compile(rf"{_LINKED_IMAGE}|{_IMAGE}")
_IMAGE_BEFORE_PUNCTUATION = re.compile(rf"[ \t]+(?:{_LINKED_IMAGE}|{_IMAGE})(?=[,.;:])")
_SHORTCODE = re.compile(r"\{\{[<%].*?[>%]\}\}", re.DOTALL)
_INLINE_DIRECTIVE = re.compile(r"\(\s*:::image\b.*?:::\s*\)|[ \t]*:::image\b.*?:::(?=[,.;:])|:::image\b.*?:::")
_DIV_DIRECTIVE_LINE = re.compile(r"^[ \t]*>[ \t]*\[!div\b[^\]]*\][ \t]*$", re.MULTILINE | re.IGNORECASE)
_ANCHOR = re.compile(r"<a\s+(?:name|id)\s*=\s*[\"'][^\"']*[\"']\s*/?>\s*(?:</a>)?", re.IGNORECASE)
_HTML_LINK = re.compile(r"<a\s+[^>]*?href\s*=\s*[\"']?([^\"'\s>]*)[\"']?[^>]*>(.*?)</a>", re.IGNORECASE | re.DOTALL)
_STRAY_LINK_END = re.compile(r"</a\s*>", re.IGNORECASE)
_DOUBLED_BOLD = re.compile(r"\*{4}(?=\S)|(?<=\S)\*{4}")
_BREAK = re.compile(r"</?br\s*/?>", re.IGNORECASE)
_LIST_ITEM_TAG = re.compile(r"<li\b[^>]*>", re.IGNORECASE)
_LAYOUT_TAG = re.compile(r"</?(?:table|tr|td|th|tbody|thead|ul|ol|li|p|img|span|div|center|sup|sub|u|font)\b[^>]*>", re.IGNORECASE)
_LEADING_LAYOUT_TAGS = re.compile(rf"^[ \t]*(?:{_LAYOUT_TAG.pattern}[ \t]*)+", re.MULTILINE | re.IGNORECASE)
_SPACE_RUN = re.compile(r"(?<=\S)[ \t]{2,}(?=\S)")
_INLINE_CODE = re.compile(r"(`+[^`\n]*`+)")
_BOLD = re.compile(r"</?(?:b|strong)>", re.IGNORECASE)
_SUMMARY = re.compile(r"<summary>(.*?)</summary>", re.IGNORECASE | re.DOTALL)
_LAYOUT_TAG_LINE = re.compile(r"^[ \t]*</?(?:details|div|span|button|input|svg|center)\b[^\n]*>[ \t]*$", re.MULTILINE | re.IGNORECASE)
_ALERT = re.compile(r"^([ \t]*>[ \t]*)\[!(NOTE|TIP|IMPORTANT|WARNING|CAUTION)\][ \t]*", re.MULTILINE | re.IGNORECASE)
_VIDEO_LINE = re.compile(r"^[ \t>]*\[!VIDEO\b[^\n]*$", re.MULTILINE | re.IGNORECASE)
_NO_LOC = re.compile(r":::no-loc\s+text=\"([^\"]*)\":::")
_H1 = re.compile(r"^# +(.+?)\s*#*\s*$", re.MULTILINE)
_REFERENCE = re.compile(r"^[ \t]{0,3}\[(?!\^)(?P<label>[^\]\n]+)\]:[ \t]*<?(?P<url>[^\s>]+)>?(?:[ \t]+[\"'(][^\n]*)?[ \t]*$\n?",
                        re.MULTILINE)
_REFERENCE_LINK = re.compile(r"\[(?P<text>[^\]\n]+)\]\[(?P<label>[^\]\n]*)\]")  # not a footnote's "[^1]:" line
_MAX_INCLUDE_DEPTH = 3
_TABLE_DELIMITER = re.compile(r"^[ \t]{0,3}\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)+\|?[ \t]*$")


def clean_markdown(body: str, path: Path, *, depth: int = 0) -> str:
    """Normalise a Markdown body (without front matter) as described in the module docstring."""

    body = myst_to_markdown(body)
    urls = _reference_urls(body)

    def prose(text: str) -> str:
        text = _inline_links(text, urls) if urls else text
        text = _COMMENT.sub("", text)
        text = _UNCLOSED_COMMENT.sub("", text)
        text = _SCRIPT_STYLE.sub("", text)
        text = _INCLUDE.sub(lambda m: _included(m.group(1), path, depth), text)
        text = _COMPLEX_IMAGE.sub("", text)
        text = _DIRECTIVE_LINE.sub("", text)
        text = _DIV_DIRECTIVE_LINE.sub("", text)
        text = _VIDEO_LINE.sub("", text)
        text = _NO_LOC.sub(lambda m: m.group(1), text)
        text = _IMAGE_ONLY_LINE.sub("", text)
        text = _SHORTCODE.sub("", text)
        text = _LAYOUT_TAG_LINE.sub("", text)
        text = "".join(part if i % 2 else _clean_html(part) for i, part in enumerate(_INLINE_CODE.split(text)))
        text = _outer_pipes(text)
        return _ALERT.sub(lambda m: f"{m.group(1)}**{m.group(2).capitalize()}:** ", text)

    return tidy_markdown(map_outside_code(body, prose))


def _outer_pipes(text: str) -> str:
    """Tables written without their outer pipes ("  Name | Type | Description" over
    "  -----|-----|-----") with them, unindented: a table is the line before a delimiter row and
    the lines with a "|" after it, up to a blank line."""
    lines = text.split("\n")
    in_table = False
    for i, line in enumerate(lines):
        starts = i + 1 < len(lines) and "|" in line and bool(_TABLE_DELIMITER.match(lines[i + 1]))
        in_table = starts or (in_table and "|" in line and bool(line.strip()))
        row = line.strip()
        closed = row.endswith("|") and not row.endswith("\\|")
        if in_table and not (row.startswith("|") and closed):
            lines[i] = f"{row if row.startswith('|') else '| ' + row}{'' if closed else ' |'}"
    return "\n".join(lines)


def _reference_urls(body: str) -> dict[str, str]:
    """The targets of reference-style links, by label: ``[pypi]: https://pypi.org``."""
    return {found["label"].strip().lower(): found["url"] for found in _REFERENCE.finditer(body)}


def _inline_links(text: str, urls: dict[str, str]) -> str:
    """Reference-style links (``[Python Package Index][pypi]``) as inline links, without their
    definitions."""
    def inline(found: re.Match[str]) -> str:
        url = urls.get((found["label"] or found["text"]).strip().lower())
        return f"[{found['text']}]({url})" if url else found[0]
    return _REFERENCE_LINK.sub(inline, _REFERENCE.sub("", text))


def _clean_html(text: str) -> str:
    """Inline images and the few HTML tags used in Markdown articles, outside inline code."""
    text = _INLINE_DIRECTIVE.sub("", text)
    text = _IMAGE_BEFORE_PUNCTUATION.sub("", text)
    text = _INLINE_IMAGE.sub("", text)
    text = _ANCHOR.sub("", text)
    text = _HTML_LINK.sub(lambda m: f"[{m.group(2).strip() or m.group(1)}]({m.group(1)})", text)
    text = _SUMMARY.sub(lambda m: f"**{m.group(1).strip()}**", text)
    text = _BREAK.sub(" ", text)
    text = _STRAY_LINK_END.sub("", text)
    text = _DOUBLED_BOLD.sub("**", _BOLD.sub("**", text))
    text = _LIST_ITEM_TAG.sub(" - ", text)
    text = _LEADING_LAYOUT_TAGS.sub("", text)
    text = _LAYOUT_TAG.sub(" ", text)
    text = _SPACE_RUN.sub(" ", text.replace("&nbsp;", " "))
    return text


def _included(target: str, path: Path, depth: int) -> str:
    include = (path.parent / target).resolve()
    if depth >= _MAX_INCLUDE_DEPTH or include.suffix.lower() != ".md" or not include.is_file():
        return ""
    _, body, _ = split_front_matter(read_text(include), include)
    return clean_markdown(body, include, depth=depth + 1).strip()


def markdown_title(fields: dict[str, Any], body: str, path: Path) -> str:
    """Front-matter ``title``, else the first ``# `` heading, else the file name."""
    title = fields.get("title")
    if isinstance(title, str) and title.strip():
        return title.strip()
    h1 = _H1.search(body)
    heading = _ANCHOR.sub("", h1.group(1)).strip() if h1 else ""  # "Advanced Topics <a id="advanced-topics"></a>"
    return heading or path.stem.replace("-", " ").replace("_", " ")


def with_title_heading(text: str, title: str) -> str:
    """Make the text start with a ``# title`` heading when it has none of its own."""
    first = text.lstrip().split("\n", 1)[0]
    if first.startswith("# "):
        return text
    return f"# {title}\n\n{text}"


def front_matter_date(fields: dict[str, Any]) -> str | None:
    for key in ("ms.date", "date", "updated", "lastmod"):
        if fields.get(key):
            return iso_date(fields[key])
    return None


def read_markdown(path: Path, *, doc_id: str) -> Document:
    """A Markdown article with optional YAML front matter."""
    fields, body, _ = split_front_matter(read_text(path), path)
    title = markdown_title(fields, body, path)
    text = with_title_heading(clean_markdown(body, path), title)
    meta: dict[str, Any] = {**fields, "format": "markdown", "path": str(path)}
    meta["date"] = front_matter_date(fields)
    return Document(doc_id=doc_id, title=title, text=text, meta=meta)
