"""Recipe Markdown (based.cooking style): front matter, ``## Ingredients`` bullets, ``## Directions`` steps."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from inscoqa.corpus.common import read_text, split_front_matter
from inscoqa.corpus.document import Document
from inscoqa.corpus.markdown import (
    clean_markdown,
    front_matter_date,
    markdown_title,
    with_title_heading,
)

_SECTION = re.compile(r"^##\s+(.+?)\s*$", re.MULTILINE)
_ITEM = re.compile(r"^(?:[-*+]|\d+[.)])\s+(.+?)\s*$", re.MULTILINE)


def looks_like_recipe(text: str) -> bool:
    """A Markdown text with both an Ingredients and a Directions (or Steps/Instructions) section."""
    headings = {h.lower() for h in _SECTION.findall(text)}
    return "ingredients" in headings and bool(headings & {"directions", "steps", "instructions", "method"})


def recipe_sections(text: str) -> dict[str, list[str]]:
    """The list items under each ``## `` heading, by lower-cased heading."""
    sections: dict[str, list[str]] = {}
    parts = _SECTION.split(text)
    for heading, content in zip(parts[1::2], parts[2::2], strict=True):
        sections[heading.lower()] = _ITEM.findall(content)
    return sections


def read_recipe(path: Path, *, doc_id: str) -> Document:
    """A recipe: the text keeps its ingredient bullets and numbered directions."""
    fields, body, _ = split_front_matter(read_text(path), path)
    title = markdown_title(fields, body, path)
    text = with_title_heading(clean_markdown(body, path), title)
    sections = recipe_sections(text)
    meta: dict[str, Any] = {**fields, "format": "recipe", "path": str(path)}
    meta["date"] = front_matter_date(fields)
    meta["tags"] = [str(t) for t in fields.get("tags") or []]
    meta["ingredients"] = sections.get("ingredients", [])
    meta["directions"] = sections.get("directions") or sections.get("steps", [])
    return Document(doc_id=doc_id, title=title, text=text, meta=meta)
