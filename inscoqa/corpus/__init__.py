"""Corpus readers: real documents (Markdown, reStructuredText, Mallard, DocBook, recipes, text, HTML) into
``Document``s."""

from inscoqa.corpus.docbook import read_docbook
from inscoqa.corpus.document import Document, DocumentError
from inscoqa.corpus.html import read_html
from inscoqa.corpus.index import CorpusIndex, DocumentNotFound, detect_license
from inscoqa.corpus.mallard import read_mallard
from inscoqa.corpus.markdown import read_markdown
from inscoqa.corpus.readers import (
    FORMAT_BY_SUFFIX,
    READERS,
    detect_format,
    is_document,
    read_document,
)
from inscoqa.corpus.recipe import read_recipe
from inscoqa.corpus.text import read_text_document

__all__ = [
    "FORMAT_BY_SUFFIX",
    "READERS",
    "CorpusIndex",
    "Document",
    "DocumentError",
    "DocumentNotFound",
    "detect_format",
    "detect_license",
    "is_document",
    "read_docbook",
    "read_document",
    "read_html",
    "read_mallard",
    "read_markdown",
    "read_recipe",
    "read_text_document",
]
