"""Which reader handles which file: a registry by format name and by file suffix."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from inscoqa.corpus.asciidoc import read_asciidoc
from inscoqa.corpus.common import read_text
from inscoqa.corpus.docbook import is_docbook, read_docbook
from inscoqa.corpus.document import Document, DocumentError
from inscoqa.corpus.html import read_html
from inscoqa.corpus.mallard import read_mallard
from inscoqa.corpus.markdown import read_markdown
from inscoqa.corpus.recipe import looks_like_recipe, read_recipe
from inscoqa.corpus.text import read_text_document

Reader = Callable[..., Document]


def read_rst(path: Path, *, doc_id: str) -> Document:
    """A reStructuredText page (:mod:`inscoqa.corpus.rst`); docutils, whose import takes about
    50 ms, is imported at the first such page."""
    from inscoqa.corpus.rst import read_rst as read

    return read(path, doc_id=doc_id)


READERS: dict[str, Reader] = {
    "markdown": read_markdown,
    "recipe": read_recipe,
    "mallard": read_mallard,
    "text": read_text_document,
    "html": read_html,
    "rst": read_rst,
    "docbook": read_docbook,
    "asciidoc": read_asciidoc,
}

FORMAT_BY_SUFFIX: dict[str, str] = {
    ".md": "markdown",
    ".markdown": "markdown",
    ".page": "mallard",
    ".txt": "text",
    ".text": "text",
    ".html": "html",
    ".htm": "html",
    ".rst": "rst",
    ".rest": "rst",
    ".docbook": "docbook",
    ".dbk": "docbook",
    ".xml": "docbook",  # when its root is a DocBook element (:func:`is_document`)
    ".adoc": "asciidoc",
    ".asciidoc": "asciidoc",
    ".asc": "asciidoc",
}


def detect_format(path: Path) -> str:
    """The reader for a file: by suffix, and Markdown with Ingredients + Directions is a recipe."""
    fmt = FORMAT_BY_SUFFIX.get(path.suffix.lower())
    if fmt is None:
        known = ", ".join(sorted(FORMAT_BY_SUFFIX))
        raise DocumentError(path, f"unknown document format '{path.suffix}' (known: {known})")
    if fmt == "markdown" and looks_like_recipe(read_text(path)):
        return "recipe"
    return fmt


def is_document(path: Path) -> bool:
    """A file a folder of documents holds as one: a known suffix, and an ``.xml`` file only
    when it is DocBook (a site's ``sitemap.xml`` or a build's configuration is none)."""
    suffix = path.suffix.lower()
    if suffix not in FORMAT_BY_SUFFIX:
        return False
    if suffix != ".xml":
        return True
    with open(path, "rb") as handle:
        return is_docbook(handle.read(65536).decode("utf-8", "replace"))


def read_document(path: str | Path, *, doc_id: str | None = None, format: str | None = None) -> Document:
    """Read one document with the reader for its format (given, or detected from the file).

    ``doc_id`` defaults to the file name. Raises ``DocumentError`` naming the file and the problem.
    """
    path = Path(path)
    if not path.is_file():
        raise DocumentError(path, "no such file")
    fmt = format or detect_format(path)
    reader = READERS.get(fmt)
    if reader is None:
        raise DocumentError(path, f"unknown document format '{fmt}' (known: {', '.join(READERS)})")
    return reader(path, doc_id=doc_id or path.name)
