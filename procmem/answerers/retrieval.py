"""Where answerers get units from: a memory (open setting), the given documents, or both.

With a memory and given documents, the memory is searched within those documents; with given
documents only, they are cut into sections and ranked with BM25 (no memory needed).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass
from typing import Any

from inscoqa.corpus.document import Document
from procmem.answerers.base import Source
from procmem.units import Chunk, Unit

_TOKEN_RE = re.compile(r"[a-z0-9]+")
_HEADING_RE = re.compile(r"^#{1,6} ", re.M)

_STOPWORD_TEXT = """
a about above after again against all am an and any are as at be because been before being
below between both but by can could did do does doing down during each few for from further had
has have having he her here hers herself him himself his how i if in into is it its itself just
me more most my myself no nor not now of off on once only or other our ours ourselves out over
own same she should so some such than that the their theirs them themselves then there these
they this those through to too under until up very was we were what when where which while who
whom why will with would you your yours yourself yourselves get got also still way want need
use using one thing things like make sure please thanks yes ok okay tell know go done gets
even really actually anyway hi hello something anything said says """
STOPWORDS = frozenset(_STOPWORD_TEXT.split())


def tokens(text: str) -> list[str]:
    """Lower-cased word tokens without stopwords."""
    return [t for t in _TOKEN_RE.findall(text.casefold()) if t not in STOPWORDS]


@dataclass
class Hit:
    """A retrieved unit (the same shape as the memory's hits)."""

    unit: Unit
    score: float | None
    rank: int
    method: str


def unit_label(unit: Unit, chars: int = 90) -> str:
    """A short human name of a unit for traces: goal, header, or first words."""
    label = getattr(unit, "output", None) or getattr(unit, "header", None) or unit.render()
    label = " ".join(str(label).split())
    return label if len(label) <= chars else label[: chars - 1] + "…"


def hit_record(hit: Any) -> dict[str, Any]:
    unit = hit.unit
    return {
        "unit_id": unit.id, "kind": unit.kind, "doc_id": unit.meta.get("doc_id", ""),
        "label": unit_label(unit),
        "score": None if hit.score is None else round(float(hit.score), 6), "rank": hit.rank,
        "method": hit.method,
    }


def sources_from_hits(hits: list[Any], snippet_chars: int = 300) -> list[Source]:
    """One source per distinct unit, in the order first retrieved."""
    sources: dict[str, Source] = {}
    for hit in hits:
        unit = hit.unit
        if unit.id in sources:
            continue
        snippet = " ".join(unit.render().split())
        if len(snippet) > snippet_chars:
            snippet = snippet[: snippet_chars - 1] + "…"
        sources[unit.id] = Source(
            doc_id=str(unit.meta.get("doc_id", "")), title=str(unit.meta.get("title", "")),
            snippet=snippet, unit_id=unit.id,
            score=None if hit.score is None else round(float(hit.score), 6),
        )
    return list(sources.values())


# --------------------------------------------------------------------------- given documents


def document_sections(doc: Document, max_words: int = 200) -> list[Chunk]:
    """A document cut at its headings; long sections are packed paragraph by paragraph."""
    text = doc.text.strip() or doc.title
    starts = [m.start() for m in _HEADING_RE.finditer(text)]
    bounds = [0, *[s for s in starts if s > 0], len(text)]
    pieces: list[str] = []
    for start, end in zip(bounds, bounds[1:], strict=False):
        section = text[start:end].strip()
        if not section:
            continue
        current: list[str] = []
        for para in re.split(r"\n\s*\n", section):
            if current and len(" ".join(current).split()) + len(para.split()) > max_words:
                pieces.append("\n\n".join(current))
                current = []
            current.append(para.strip())
        if current:
            pieces.append("\n\n".join(current))
    return [
        Chunk(text=piece, meta={"doc_id": doc.doc_id, "title": doc.title, "order": i,
                                "start": i, "date": doc.meta.get("date", "")})
        for i, piece in enumerate(pieces)
    ]


class DocumentIndex:
    """BM25 over the sections of a few given documents."""

    def __init__(self, documents: list[Document], max_words: int = 200) -> None:
        self._units = [c for doc in documents for c in document_sections(doc, max_words)]
        self._tfs = [Counter(tokens(f"{u.meta['title']} {u.text}")) for u in self._units]
        lengths = [sum(tf.values()) for tf in self._tfs]
        self._avg = (sum(lengths) / len(lengths)) if lengths else 1.0
        self._lengths = lengths
        df: Counter[str] = Counter()
        for tf in self._tfs:
            df.update(tf.keys())
        n = len(self._units)
        self._idf = {t: math.log(1 + (n - d + 0.5) / (d + 0.5)) for t, d in df.items()}

    def units(self, kind: str | None = None) -> list[Unit]:
        return list(self._units)

    def search(self, query: str, *, k: int = 5, doc_ids: list[str] | None = None,
               **_: Any) -> list[Hit]:
        k1, b = 1.5, 0.75
        terms = tokens(query)
        scored = []
        for i, tf in enumerate(self._tfs):
            unit = self._units[i]
            if doc_ids is not None and unit.meta["doc_id"] not in doc_ids:
                continue
            norm = k1 * (1 - b + b * self._lengths[i] / self._avg)
            score = sum(self._idf.get(t, 0.0) * tf[t] * (k1 + 1) / (tf[t] + norm) for t in terms if t in tf)
            scored.append((score, -i, unit))
        scored.sort(key=lambda s: (s[0], s[1]), reverse=True)
        return [Hit(unit, score, rank, "bm25-sections")
                for rank, (score, _, unit) in enumerate(scored[:k], 1)]


# --------------------------------------------------------------------------- one entry point


class Retriever:
    """Search a memory and/or given documents for units of one kind.

    When the memory holds no unit of the asked kind, chunks are searched instead; the trace
    records the kind actually used.
    """

    FALLBACK_KIND = "chunk"

    def __init__(self, memory: Any = None, documents: list[Document] | None = None) -> None:
        if memory is None and not documents:
            raise ValueError("this answerer needs a memory or the request's documents")
        self.memory = memory
        self.documents = documents or None
        self._index = DocumentIndex(documents) if documents else None
        self._doc_ids = [d.doc_id for d in documents] if documents else None

    def search(self, query: str, *, k: int, kind: str | None,
               within: list[str] | None = None) -> tuple[list[Any], str]:
        """Hits for ``query`` (only from the documents ``within``, when given) and the kind of
        unit they are."""
        doc_ids = self._doc_ids
        if within is not None:
            doc_ids = [d for d in within if doc_ids is None or d in doc_ids]
        if self.memory is not None:
            for candidate in dict.fromkeys([kind, self.FALLBACK_KIND]):
                hits = list(self.memory.search(query, k=k, kind=candidate, doc_ids=doc_ids))
                if hits:
                    return hits, candidate or "any"
        if self._index is not None:
            return self._index.search(query, k=k, doc_ids=doc_ids), "section"
        return [], kind or "any"

    def units(self, kind: str | None) -> tuple[list[Unit], str]:
        """All units of ``kind`` (chunks when there are none), restricted to the given documents."""
        if self.memory is not None:
            for candidate in dict.fromkeys([kind, self.FALLBACK_KIND]):
                units = [u for u in self.memory.units(candidate)
                         if self._doc_ids is None or u.meta.get("doc_id") in self._doc_ids]
                if units:
                    return units, candidate or "any"
        if self._index is not None:
            return self._index.units(), "section"
        return [], kind or "any"
