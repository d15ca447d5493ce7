"""Searching a memory: units for a query, and documents ranked by the evidence of their units.

:class:`MemorySearch` is the search half of :class:`procmem.memory.Memory`: it reads the
memory's configuration (:class:`procmem.config.MemoryConfig`), its search structure
(``index()``, :mod:`procmem.retrieval.index`), its embedder and the links between its documents,
and ranks with them; building, updating and saving stay with the memory.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from procmem.config import ALL_KINDS, MemoryConfig, kind_names
from procmem.records import DocumentHit, DocumentRecord, Hit
from procmem.retrieval.bm25 import query_tokens, tokenize
from procmem.retrieval.fusion import reorder_head
from procmem.retrieval.index import Fusion, Method, SearchIndex, SearchSettings, unit_doc_ids
from procmem.retrieval.language import text_language
from procmem.retrieval.links import lift_linked
from procmem.retrieval.query import (
    action_terms,
    asks_how_to,
    conversation_query,
    other_verbs,
    terms,
)
from procmem.retrieval.quotes import named_codes, quoted_fragments, quoting_first
from procmem.units import asks

if TYPE_CHECKING:
    from procmem.embed import Embedder

QUERY_VECTORS_KEPT = 256


class QueryVectors:
    """The vectors of the last ``size`` texts a memory was searched for, each encoded once:
    one answer searches its query and its last question for several kinds of unit, with and
    without its own answerer's filters, and for the document ranking (an extractive answer
    from the memory over every bundled document encoded 12 texts, 3 of them distinct).
    Safe to share between threads."""

    def __init__(self, size: int = QUERY_VECTORS_KEPT) -> None:
        self.size = size
        self._kept: OrderedDict[str, np.ndarray] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, text: str, encode: Callable[[str], np.ndarray]) -> np.ndarray:
        """The vector of ``text``: kept, or made by ``encode`` and kept."""
        with self._lock:
            vector = self._kept.get(text)
            if vector is not None:
                self._kept.move_to_end(text)
                return vector
        vector = encode(text)
        with self._lock:
            self._kept[text] = vector
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)
        return vector


class MemorySearch:
    """Search over a memory's units (mixed into :class:`procmem.memory.Memory`)."""

    config: MemoryConfig
    kinds: tuple[str, ...]
    query_vectors: QueryVectors

    if TYPE_CHECKING:  # what the memory provides
        @property
        def embedder(self) -> Embedder: ...
        def index(self) -> SearchIndex: ...
        def links(self, doc_id: str) -> list[str]: ...
        def document(self, doc_id: str) -> DocumentRecord | None: ...
        def page_languages(self) -> dict[str, str]: ...
        def pages_named(self, tokens: Sequence[str]) -> list[str]: ...

    def search(self, query: str, *, k: int = 5, kind: str | Sequence[str] | None = None,
               method: Method | None = None, types: Sequence[str] | None = None,
               doc_ids: Sequence[str] | None = None, fusion: Fusion | None = None,
               question: str | None = None) -> list[Hit]:
        """The ``k`` best units for ``query``. ``kind`` None searches the configured
        ``search_kinds`` (logic units and chunks) the memory holds, else every kind it holds;
        ``types`` keeps logic units of those types; ``doc_ids`` keeps units from those documents.
        ``question``: the last question of a conversation whose ``query`` draws on its history
        too; it orders the first results (see :meth:`arrange`)."""
        method = method or self.config.method  # type: ignore[assignment]
        if method not in ("hybrid", "bm25", "dense"):
            raise ValueError(f"unknown method {method!r}: use hybrid, bm25 or dense")
        kinds = self._kinds(kind, self.config.search_kinds)
        settings = SearchSettings(candidates=self.config.candidates, fusion=fusion or self.config.fusion,  # type: ignore[arg-type]
                                  rrf_k=self.config.rrf_k, dense_weight=self.config.dense_weight)

        last = question or query  # the last question: its language, its verbs, its sections first
        language = self.search_language(last)

        def ranked(text: str, n: int, by: Method = method) -> list[Hit]:
            return self.ranked_units(text, n, kinds=kinds, method=by, types=types, doc_ids=doc_ids,
                                     settings=settings, language=language, asked=last)

        asked = last if method != "dense" else None  # a dense search stays dense
        return self.arrange(ranked, query, k, self.ordering_question(question, query, kinds, method), asked)

    def search_language(self, text: str) -> str | None:
        """The language a search for ``text`` keeps to: the one ``text`` is written in, when the
        memory's pages come in it and in others (a site and its translations); None (every page)
        otherwise. A page whose language is unknown is always searched."""
        languages = set(self.page_languages().values()) - {""}
        if len(languages) < 2:
            return None
        found = text_language(text)
        return found if found in languages else None

    def ranked_units(self, text: str, n: int, *, kinds: Sequence[str], method: Method,
                     types: Sequence[str] | None, doc_ids: Sequence[str] | None,
                     settings: SearchSettings, language: str | None = None,
                     asked: str | None = None) -> list[Hit]:
        """The ``n`` best units for ``text`` alone, from the memory's own search structure
        (another search backend answers this and keeps the rest of the search); ``language``:
        none of a page written in another; ``asked``: the question whose verbs the search adds
        (:func:`query_tokens`; None: ``text``'s), not an earlier turn's ("I turned it on")."""
        index = self.index()
        tokens = query_tokens(text, asked)
        found = index.search(tokens, lambda: self.query_vector(text), k=n, kinds=kinds,
                             method=method, types=types, doc_ids=doc_ids, language=language,
                             settings=settings, named=self.pages_named(tokens) if doc_ids is None else ())
        return [Hit(index.units[row], score, rank, method) for rank, (row, score) in enumerate(found, 1)]

    def query_vector(self, text: str) -> np.ndarray:
        """The embedding of a search text (see :class:`QueryVectors`)."""
        return self.query_vectors.get(text, lambda t: self.embedder.encode([t])[0])

    def ordering_question(self, question: str | None, query: str, kinds: Sequence[str],
                          method: str) -> str | None:
        """``question``, when it should order the first results of a search for ``query``: not
        when it is the query, only for the ``question_kinds`` (logic units and chunks) and not
        by BM25 alone. Ordered by the question, the other kinds and BM25 alone put the evidence
        first less often in the retrieval benchmark (procedures 0.78 -> 0.63, whole documents
        0.85 -> 0.80, logic units by BM25 0.72 -> 0.67): a short question matches a procedure's
        goal or a passage somewhere in a long document, and its words alone rank loosely."""
        config = self.config
        if not question or question.strip() == query.strip() or config.question_weight <= 0 \
                or config.question_window < 2 or method == "bm25" \
                or not set(kinds) <= set(kind_names(config.question_kinds)):
            return None
        return question

    def arrange(self, ranked: Callable[..., list[Hit]], query: str, k: int,
                question: str | None = None, asked: str | None = None) -> list[Hit]:
        """The ``k`` results of a search, given ``ranked(text, n)``, the ``n`` best units for a
        text: the documents the best unit's documents link to come forward
        (:meth:`follow_links`); then, for a ``question`` other than the query, the first
        ``question_window`` results are reordered by their rank for the query fused with their
        rank for the question alone (weight ``question_weight``): the history decides which
        units lead, the last question which of them comes first; when it asks how to do
        something, the definitions among them come last (:func:`definitions_last`). A reordered
        result takes the score of the place it takes, so scores still fall with rank.
        ``question`` is what :meth:`ordering_question` lets through. Last, the sections whose
        header asks ``asked`` (the question, or the query) come first (:func:`headers_first`),
        and before them the best unit of each document that holds what ``asked`` quotes (an
        error message) or names the codes it names ("5.7.57": :func:`quoting_first`)."""
        config = self.config
        quotes, codes = (quoted_fragments(asked), named_codes(asked)) if asked else ([], [])
        wanted = max(k, config.question_window) if question else k
        if quotes or codes:  # a document that holds them comes forward from among all the candidates
            wanted = max(wanted, config.candidates)
        hits = self.follow_links(ranked(query, self.pool_size(wanted)), wanted)
        if question and len(hits) > 1:
            order = reorder_head([h.unit.id for h in hits],
                                 [h.unit.id for h in ranked(question, config.candidates)],
                                 window=config.question_window, weight=config.question_weight,
                                 k=config.rrf_k)
            hits = [Hit(hits[i].unit, hits[place].score, place + 1, hits[i].method)
                    for place, i in enumerate(order)]
        if asks_how_to(question or query):
            hits = definitions_last(hits, config.question_window)
        if asked:
            hits = headers_first(hits, ranked(asked, HEADER_POOL, "bm25"), asked, follow_up=asked != query)
            if quotes or codes:
                order = quoting_first(hits, quotes, lambda h: h.doc_id, lambda h: h.unit.render(), codes)
                hits = [Hit(h.unit, hits[place].score, place + 1, h.method) for place, h in enumerate(order)]
        return hits[:k]

    def pool_size(self, k: int) -> int:
        """How many ranked units :meth:`follow_links` needs to return ``k``."""
        return max(k, self.config.candidates) if self.config.link_weight > 0 else k

    def follow_links(self, hits: list[Hit], k: int) -> list[Hit]:
        """The ``k`` best of ``hits`` (best first) once the documents that the best hit's
        documents link to come forward by ``link_weight`` (see :mod:`procmem.retrieval.links`)."""
        scores = lift_linked([unit_doc_ids(h.unit) for h in hits], [h.score for h in hits],
                             self.links, self.config.link_weight)
        order = sorted(range(len(hits)), key=lambda i: (-scores[i], i))[:k]
        return [Hit(hits[i].unit, scores[i], rank, hits[i].method) for rank, i in enumerate(order, 1)]

    def search_conversation(self, history: Sequence[Sequence[str]], question: str, **kwargs: Any) -> list[Hit]:
        """Search with a query built from the last question and the recent history; the last
        question alone orders the first results."""
        query = conversation_query(history, question, turns=self.config.history_turns)
        return self.search(query, question=question if history else None, **kwargs)

    def search_documents(self, query: str, *, k: int = 5, kind: str | Sequence[str] | None = None,
                         method: Method | None = None, doc_ids: Sequence[str] | None = None,
                         units: int | None = None, question: str | None = None) -> list[DocumentHit]:
        """The ``k`` best documents for ``query``, ranked by the evidence of their units.

        Each kind (``kind`` None: the configured ``document_kinds``, logic units, chunks and
        whole documents) is searched on its own for ``units`` candidates (default
        ``candidates``); each kind ranks documents by their best unit there, and the kinds'
        document rankings are fused by reciprocal rank (``sum 1 / (rrf_k + rank)``): a document
        that several kinds of unit find ranks above one that a single kind finds. Every retrieved
        unit of a document is kept in its ``hits``; each kind's search follows the links of its
        best unit's document (:meth:`follow_links`) and is ordered by ``question`` as in
        :meth:`search`. (Adding a share for a document's further
        units favoured long documents and lowered recall in the retrieval benchmark.)
        """
        kinds = self._kinds(kind, self.config.document_kinds)
        n = units or self.config.candidates
        scores: dict[str, float] = {}
        evidence: dict[str, list[Hit]] = {}
        for one in kinds:
            doc_rank: dict[str, int] = {}
            for hit in self.search(query, k=n, kind=one, method=method, doc_ids=doc_ids,
                                   question=question):
                for doc_id in unit_doc_ids(hit.unit):
                    if doc_id not in doc_rank:
                        doc_rank[doc_id] = len(doc_rank) + 1
                        scores[doc_id] = scores.get(doc_id, 0.0) + 1.0 / (self.config.rrf_k + doc_rank[doc_id])
                    evidence.setdefault(doc_id, []).append(hit)
        ranked = sorted(scores, key=lambda d: (-scores[d], d))[:k]
        out = []
        for rank, doc_id in enumerate(ranked, 1):
            record = self.document(doc_id)
            hits = sorted(evidence[doc_id], key=lambda h: -h.score)
            title = record.title if record else str(hits[0].unit.meta.get("title", ""))
            out.append(DocumentHit(doc_id, title, scores[doc_id], rank, hits))
        return out

    def search_documents_conversation(self, history: Sequence[Sequence[str]], question: str,
                                      **kwargs: Any) -> list[DocumentHit]:
        """:meth:`search_documents` with the history-aware query of :meth:`search_conversation`."""
        query = conversation_query(history, question, turns=self.config.history_turns)
        return self.search_documents(query, question=question if history else None, **kwargs)

    def _kinds(self, kind: str | Sequence[str] | None, default: Sequence[str]) -> tuple[str, ...]:
        if kind is not None:
            return (kind,) if isinstance(kind, str) else tuple(kind)
        wanted = kind_names(default)
        unknown = set(wanted) - set(ALL_KINDS)
        if unknown:
            raise ValueError(f"[memory] search kinds: unknown unit kinds {sorted(unknown)}; known: {list(ALL_KINDS)}")
        return tuple(k for k in self.kinds if k in wanted) or self.kinds


def _asking(hits: list[Hit], wanted: set[str], tokens: Callable[[str], list[str]]) -> list[Hit]:
    """The hits whose unit's header asks the question whose terms are ``wanted`` (:func:`asks`),
    each unit once."""
    return list({h.unit.id: h for h in hits if asks(h.unit, wanted, tokens)}.values())


def definitions_last(hits: list[Hit], window: int) -> list[Hit]:
    """Among the first ``window`` hits, the definitions (Terminology units) after the others: a
    question that asks how to do something wants the steps before what the thing is ("how do I
    give it a fixed address?": the page on static addresses before the one on what an IP address
    is). A moved hit takes the score of the place it takes."""
    head = hits[:window]
    order = [h for h in head if getattr(h.unit, "type", "") != "Terminology"] \
        + [h for h in head if getattr(h.unit, "type", "") == "Terminology"]
    if order == head:
        return hits
    return [Hit(h.unit, head[place].score, place + 1, h.method) for place, h in enumerate(order)] + hits[window:]


# the first results, of BM25 for the question and of the search, among which a header may ask it
HEADER_POOL = 10


def headers_first(hits: list[Hit], lexical: list[Hit], question: str, *, follow_up: bool = False) -> list[Hit]:
    """``hits`` with the sections whose header asks ``question`` first: those among the first
    :data:`HEADER_POOL` of ``hits`` in their order (the search's, which weighs the history and
    the meaning of the words), then those only ``lexical`` (BM25's first results for the
    question alone) holds, in its order (an FAQ entry "Memcheck doesn't report any errors and I
    know my program has errors." for that question, which the dense side may not find at all);
    each result takes the score of the place it takes.

    A header asks the question in all its words ("Where can I get more help?") or, where none
    does and a question asked first (not a ``follow_up``) names its task in two words or more,
    in the words of the task, a verb that names the question's action read as the question's
    (:func:`action_terms`, :func:`other_verbs`): "How do I create a contact list?" asks "Creating a contact list",
    and "How do I create an appointment?" asks "Adding an Appointment". A follow-up's task is
    said with what the history holds: "Can I save that search?" after a question on mail asks
    no calendar's "Saved Searches", nor "How do I delete it?" after one on a folder "Deleting
    a Panel"."""
    pool = [*hits[:HEADER_POOL], *lexical]
    first = _asking(pool, set(tokenize(question)), tokenize)
    task = set(terms(question))
    if not first and not follow_up and len(task) > 1:
        first = _asking(pool, *action_terms(task, other_verbs(question, task)))
    if not first:
        return hits
    ids = {h.unit.id for h in first}
    order = first + [h for h in hits if h.unit.id not in ids]
    scores = [h.score for h in hits] + [hits[-1].score if hits else 0.0] * len(first)
    return [Hit(h.unit, scores[place], place + 1, h.method) for place, h in enumerate(order)]
