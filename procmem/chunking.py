"""Baseline retrieval units: whole documents and fixed-size recursive chunks.

Recursive chunking splits on the coarsest separator that keeps pieces under the size limit
(sections, then paragraphs, lines, sentences, words) and packs neighbouring pieces back together
up to the limit, the usual "recursive character splitter" measured in words.
"""

from __future__ import annotations

import re
from typing import Any

from procmem.units import Chunk

DEFAULT_CHUNK_WORDS = 200
SEPARATORS: tuple[str, ...] = (r"\n(?=#{1,6} )", r"\n\s*\n", r"\n", r"(?<=[.!?])\s+", r"\s+")


def n_words(text: str) -> int:
    return len(text.split())


def recursive_split(text: str, max_words: int = DEFAULT_CHUNK_WORDS,
                    separators: tuple[str, ...] = SEPARATORS) -> list[str]:
    """Pieces of ``text`` of at most ``max_words`` words (a single longer word stays whole)."""
    text = text.strip()
    if not text:
        return []
    if n_words(text) <= max_words:
        return [text]
    for i, separator in enumerate(separators):
        parts = [p.strip() for p in re.split(separator, text) if p.strip()]
        if len(parts) < 2:
            continue
        pieces: list[str] = []
        for part in parts:
            if n_words(part) > max_words:
                pieces += recursive_split(part, max_words, separators[i + 1 :])
            else:
                pieces.append(part)
        return _pack(pieces, max_words, joiner="\n\n" if i < 2 else "\n" if i == 2 else " ")
    words = text.split()
    return [" ".join(words[j : j + max_words]) for j in range(0, len(words), max_words)]


def _pack(pieces: list[str], max_words: int, joiner: str) -> list[str]:
    packed: list[str] = []
    current: list[str] = []
    size = 0
    for piece in pieces:
        w = n_words(piece)
        if current and size + w > max_words:
            packed.append(joiner.join(current))
            current, size = [], 0
        current.append(piece)
        size += w
    if current:
        packed.append(joiner.join(current))
    return packed


def document_unit(doc_id: str, title: str, text: str, meta: dict[str, Any]) -> Chunk:
    body = text if text.lstrip().startswith("#") else f"# {title}\n\n{text}"
    return Chunk(text=body, meta={**meta, "doc_id": doc_id, "title": title}, kind="document")


def chunk_units(doc_id: str, title: str, text: str, meta: dict[str, Any],
                max_words: int = DEFAULT_CHUNK_WORDS) -> list[Chunk]:
    chunks = []
    start = 0
    for order, piece in enumerate(recursive_split(text, max_words)):
        chunks.append(Chunk(text=piece, kind="chunk",
                            meta={**meta, "doc_id": doc_id, "title": title, "order": order,
                                  "start": start}))
        start += n_words(piece)
    return chunks
