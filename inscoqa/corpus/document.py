"""The one document type every reader produces and every upper layer consumes."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Document:
    """An instructional document, normalised to Markdown.

    ``text`` is Markdown whatever the source format: headings as ``#``/``##``, numbered steps as
    ``1. ...`` (one per line), bullets as ``- ...``, links as ``[label](target)``, code in fences.
    ``meta`` holds what the source says about itself: ``format`` (markdown, mallard, recipe,
    text, html), ``path``, ``date``, ``corpus``, ``license`` and any front-matter fields.
    """

    doc_id: str
    title: str
    text: str
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def content_hash(self) -> str:
        h = hashlib.sha256()
        h.update(self.title.encode("utf-8"))
        h.update(b"\0")
        h.update(self.text.encode("utf-8"))
        return h.hexdigest()[:16]

    @property
    def n_words(self) -> int:
        return len(self.text.split())


class DocumentError(ValueError):
    """A document that cannot be read: names the file and what is wrong with it."""

    def __init__(self, path: object, problem: str) -> None:
        self.path = str(path)
        self.problem = problem
        super().__init__(f"{self.path}: {problem}")
