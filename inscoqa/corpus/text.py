"""Plain text: the first non-empty line is the title; list markers become Markdown lists."""

from __future__ import annotations

import re
from pathlib import Path

from inscoqa.corpus.common import read_text, tidy_markdown
from inscoqa.corpus.document import Document

_NUMBERED = re.compile(r"^(\s*)(\d+)[.)]\s+")
_BULLET = re.compile(r"^(\s*)[*•·+-]\s+")


def _markdown_line(line: str) -> str:
    line = _NUMBERED.sub(lambda m: f"{m.group(1)}{m.group(2)}. ", line)
    return _BULLET.sub(lambda m: f"{m.group(1)}- ", line)


def read_text_document(path: Path, *, doc_id: str) -> Document:
    raw = read_text(path)
    lines = [_markdown_line(line) for line in raw.split("\n")]
    body = tidy_markdown("\n".join(lines))
    first, _, rest = body.partition("\n")
    title = first.lstrip("#").strip() or path.stem
    text = tidy_markdown(f"# {title}\n\n{rest}") if body else f"# {title}\n"
    meta = {"format": "text", "path": str(path), "date": None}
    return Document(doc_id=doc_id, title=title, text=text, meta=meta)
