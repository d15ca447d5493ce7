"""Baseline retrieval units: whole documents, fixed-size recursive chunks and semantic chunks.

Recursive chunking splits on the coarsest separator that keeps pieces under the size limit
(sections, then paragraphs, lines, sentences, words) and packs neighbouring pieces back together
up to the limit, the usual "recursive character splitter" measured in words. With an overlap of
``n`` words, every chunk after the first starts with the last ``n`` words before it (its own
new text is then at most ``max_words - n`` words, so a chunk stays within the limit). Code stays
code: no cut falls at a blank line or a "#" line inside a code block, nor between a block and
the line left open before it ("you need to change this setting to"), and a block cut at a line
between two chunks is closed at the end of the first and opened again at the start of the next.

Semantic chunking cuts a document between sentences whose meaning drifts apart: each sentence is
embedded, the cosine distance ``1 - cos`` of every pair of neighbours is taken, and the text is
cut wherever that distance lies above the given percentile of the document's distances (95 by
default: about one gap in twenty becomes a cut). A chunk is a verbatim span of the document,
from its first sentence to its last. Sentences end at ``.``, ``!`` or ``?`` followed by a space,
at blank lines, and before a heading, list item or table row; a fenced code block is one sentence.
"""

from __future__ import annotations

import itertools
import re
from typing import Any

import numpy as np

from procmem.units import Chunk

DEFAULT_CHUNK_WORDS = 200
DEFAULT_BREAKPOINT_PERCENTILE = 95.0
# (where to cut, what joins neighbouring pieces packed back together), coarsest first
Separator = tuple[str, str]
SEPARATORS: tuple[Separator, ...] = ((r"\n(?=#{1,6} )", "\n\n"), (r"\n\s*\n", "\n\n"), (r"\n", "\n"),
                                     (r"(?<=[.!?])\s+", " "), (r"\s+", " "))


def n_words(text: str) -> int:
    return len(text.split())


def recursive_split(text: str, max_words: int = DEFAULT_CHUNK_WORDS,
                    separators: tuple[Separator, ...] = SEPARATORS) -> list[str]:
    """Pieces of ``text`` of at most ``max_words`` words (a single longer word stays whole).
    A piece too long is cut at the next finer separator, and pieces are packed back together
    with the joiner of the separator they were cut at (sentences of a long paragraph with a
    space, not a blank line)."""
    text = _trimmed(text)
    if not text:
        return []
    if n_words(text) <= max_words:
        return [text]
    for i, (separator, joiner) in enumerate(separators):
        parts = [_trimmed(p) for p in re.split(separator, text) if p.strip()]
        if len(parts) < 2:
            continue
        pieces: list[str] = []
        for part in parts:
            if n_words(part) > max_words:
                pieces += recursive_split(part, max_words, separators[i + 1 :])
            else:
                pieces.append(part)
        return _pack(pieces, max_words, joiner)
    words = text.split()
    return [" ".join(words[j : j + max_words]) for j in range(0, len(words), max_words)]


_BLANK_LINES = re.compile(r"^(?:[ \t]*\n)+")


def _trimmed(text: str) -> str:
    """``text`` without its blank lines before and its white space after; the indentation of
    its first line stays (a list item's paragraph or code block, set in under its item)."""
    return _BLANK_LINES.sub("", text).rstrip()


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


FENCE = re.compile(r"^\s*(?:```|~~~)", re.M)
FENCE_ROOM = 2  # words a part's budget keeps for the fences that close and reopen its code
CODE_GAP = "\u2060"  # a blank line inside a code block, or what leads a "#" line there, while a text is cut


def guard_code_gaps(body: str) -> str:
    """``body`` with each blank line inside a code block holding :data:`CODE_GAP`, which no
    paragraph separator matches, and each line inside one that starts with "#" (a comment, a
    shell prompt) led by it, so that no heading separator matches; so do the blank lines between
    a code block and the line before it that leads to it, a sentence left open ("you need to
    change this setting to", "Run:") or a heading, which a cut would leave without its code."""
    lines: list[str] = []
    inside = False
    for line in body.split("\n"):
        if FENCE.match(line):
            if not inside:
                blank = len(lines) - len(list(itertools.takewhile(lambda kept: not kept.strip(),
                                                                  reversed(lines))))
                if 0 < blank < len(lines) and _leads_to_code(lines[blank - 1]):
                    lines[blank:] = [CODE_GAP] * (len(lines) - blank)
            inside = not inside
        elif inside and not line.strip():
            line = CODE_GAP
        elif inside and line.lstrip().startswith("#"):
            line = CODE_GAP + line
        lines.append(line)
    return "\n".join(lines)


def _leads_to_code(line: str) -> bool:
    """A line that a code block under it finishes: no sentence's end, no code fence, no table row."""
    text = line.strip()
    return bool(text) and not text.endswith((".", "!", "?", "|")) and not FENCE.match(text) \
        and not text.startswith((CODE_GAP, "|"))


def split_keeping_code(text: str, max_words: int, separators: tuple[Separator, ...] = SEPARATORS) -> list[str]:
    """:func:`recursive_split` of ``text`` with no cut at a blank or a "#" line inside a code
    block (:func:`guard_code_gaps`), each piece's budget keeping :data:`FENCE_ROOM` for the
    fences that :func:`with_fences` adds when a block is cut between two pieces."""
    room = FENCE_ROOM if FENCE.search(text) else 0
    return [piece.replace(CODE_GAP, "").strip("\n")
            for piece in recursive_split(guard_code_gaps(text), max_words - room, separators)]


def with_fences(pieces: list[str]) -> list[str]:
    """``pieces`` of one text, each a whole Markdown text: a piece that ends inside a code block
    closes it, and the next opens it again with the same fence line (```` ```rust ````)."""
    out: list[str] = []
    carried = ""
    for piece in pieces:
        if carried:
            piece = f"{carried}\n{piece}"
        opened = ""
        for line in piece.splitlines():
            if FENCE.match(line):
                opened = "" if opened else line.strip()
        if opened:
            piece = f"{piece}\n{opened[:3]}"
        carried = opened
        out.append(piece)
    return out


def document_unit(doc_id: str, title: str, text: str, meta: dict[str, Any]) -> Chunk:
    body = text if text.lstrip().startswith("#") else f"# {title}\n\n{text}"
    return Chunk(text=body, meta={**meta, "doc_id": doc_id, "title": title}, kind="document")


def chunk_units(doc_id: str, title: str, text: str, meta: dict[str, Any],
                max_words: int = DEFAULT_CHUNK_WORDS, overlap: int = 0) -> list[Chunk]:
    """Recursive chunks of ``text``; ``start`` is the word offset in ``text`` where a chunk's
    text begins (its overlap included), ``overlap`` the words it repeats from before it. Apart
    from the fences that close and reopen a code block cut between two chunks, a chunk's words
    are the text's words from ``start`` on."""
    if not 0 <= overlap < max_words:
        raise ValueError(f"chunk overlap must be at least 0 and below the chunk size "
                         f"({max_words} words), got {overlap}")
    chunks = []
    before: list[str] = []  # the words of the pieces so far
    pieces = split_keeping_code(text, max_words - overlap)
    for order, (piece, fenced) in enumerate(zip(pieces, with_fences(pieces), strict=True)):
        carried = before[-overlap:] if overlap and before else []
        body = f"{' '.join(carried)} {fenced}" if carried else fenced
        chunks.append(Chunk(text=body, kind="chunk",
                            meta={**meta, "doc_id": doc_id, "title": title, "order": order,
                                  "start": len(before) - len(carried), "overlap": len(carried)}))
        before += piece.split()
    return chunks


# --------------------------------------------------------------------------- semantic chunks

_FENCE = re.compile(r"^[ \t]*(```|~~~)[^\n]*\n.*?^[ \t]*\1[^\n]*$", re.M | re.S)
_SENTENCE_GAP = re.compile(
    r"(?<=[^\s\d][.!?])[\"')\]]*[ \t]+(?=\S)"  # after a sentence's end (not "1." of a list)
    r"|[ \t]*\n(?:[ \t]*\n)+[ \t]*"  # a blank line
    r"|[ \t]*\n[ \t]*(?=#{1,6} |[-*+] |\d+[.)] |\|)"  # before a heading, list item or table row
)


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of each sentence of ``text``, in order, without surrounding spaces."""
    fences = [m.span() for m in _FENCE.finditer(text)]
    gaps = [m.span() for m in _SENTENCE_GAP.finditer(text)
            if not any(a <= m.start() < b for a, b in fences)]
    gaps += [(a, a) for a, _ in fences] + [(b, b) for _, b in fences]
    spans = []
    start = 0
    for end, following in sorted(gaps) + [(len(text), len(text))]:
        if end > start:
            piece = text[start:end]
            lead = len(piece) - len(piece.lstrip())
            if piece.strip():
                spans.append((start + lead, start + len(piece.rstrip())))
        start = max(start, following)
    return spans


def semantic_cuts(vectors: np.ndarray, percentile: float = DEFAULT_BREAKPOINT_PERCENTILE) -> list[int]:
    """Indices of the sentences that start a new chunk: those whose cosine distance from the
    sentence before lies above ``percentile`` of all such distances (rows are unit vectors)."""
    if not 0 <= percentile <= 100:
        raise ValueError(f"breakpoint percentile must be within 0-100, got {percentile}")
    if len(vectors) < 2:
        return []
    distances = 1.0 - np.einsum("ij,ij->i", vectors[:-1], vectors[1:])
    threshold = np.percentile(distances, percentile)
    return [int(i) + 1 for i in np.flatnonzero(distances > threshold)]


def semantic_chunk_units(doc_id: str, title: str, text: str, meta: dict[str, Any],
                         spans: list[tuple[int, int]], vectors: np.ndarray,
                         percentile: float = DEFAULT_BREAKPOINT_PERCENTILE) -> list[Chunk]:
    """Semantic chunks of ``text``, given its :func:`sentence_spans` and their unit vectors."""
    if len(spans) != len(vectors):
        raise ValueError(f"{doc_id}: {len(spans)} sentences but {len(vectors)} vectors")
    bounds = [0, *semantic_cuts(vectors, percentile), len(spans)]
    chunks = []
    for order, (first, stop) in enumerate(zip(bounds, bounds[1:], strict=False)):
        if first == stop:
            continue
        begin, end = spans[first][0], spans[stop - 1][1]
        chunks.append(Chunk(text=text[begin:end], kind="semantic_chunk",
                            meta={**meta, "doc_id": doc_id, "title": title, "order": order,
                                  "start": n_words(text[:begin]), "sentences": stop - first}))
    return chunks
