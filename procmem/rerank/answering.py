"""A memory searched through a trained ranker, for answerers (``make_answerer(..., rerank=FILE)``).

A search that is not limited to given documents first takes the memory's candidate documents
for the query (as many as the ranker was trained with), verifies them and computes their features
as ``inscoqa rerank`` does (:class:`procmem.rerank.dataset.Verifier`), and orders them with the
ranker (verified documents first, by score). The units the answerer asked for are then searched
in those documents only and returned in that document order (a document's units keep their
retrieval order among themselves). When the candidates hold no unit of the asked kind, the plain
search answers.

What was reordered is recorded per answer (:meth:`RerankedMemory.recording`) and becomes the
answer's ``rerank`` trace stage, with the model file's SHA-256.
"""

from __future__ import annotations

import contextvars
import hashlib
import threading
import time
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from procmem.rerank.features import LLM_FEATURES
from procmem.rerank.ranker import PairwiseRanker
from procmem.retrieval.index import unit_doc_ids

if TYPE_CHECKING:
    from procmem.answerers.base import AnswerRequest, StageRecord
    from procmem.memory import Memory
    from procmem.records import Hit
    from procmem.rerank.dataset import Verifier
    from procmem.units import Unit
    from serving.types import ChatModel

DEFAULT_CANDIDATES = 10  # candidate documents when the model file does not say
POOL = 4  # units searched in the candidate documents per unit returned
ORDERS_KEPT = 64  # document orders kept, by query (an answerer searches one query for several kinds)


@dataclass(frozen=True)
class RerankModel:
    """A ranker and the file it was read from."""

    path: Path
    sha256: str
    ranker: PairwiseRanker

    @classmethod
    def load(cls, path: str | Path) -> RerankModel:
        target = Path(path)
        try:
            digest = hashlib.sha256(target.read_bytes()).hexdigest()
        except OSError as exc:
            raise ValueError(f"rerank={path}: cannot read the model file: {exc}") from exc
        return cls(target, digest, PairwiseRanker.load(target))

    @property
    def candidates(self) -> int:
        return int(self.ranker.trained.get("candidates") or DEFAULT_CANDIDATES)

    @property
    def needs_llm(self) -> bool:
        return any(name in LLM_FEATURES for name in self.ranker.features)

    def config(self) -> dict[str, Any]:
        return {"file": self.path.name, "sha256": self.sha256, "features": list(self.ranker.features),
                "candidates": self.candidates}


_reranks: contextvars.ContextVar[list[dict[str, Any]] | None] = contextvars.ContextVar(
    "reranks", default=None)


class RerankedMemory:
    """A memory (``procmem.memory.Memory``) whose unlimited searches follow the ranker's
    document order; everything else is the memory's own."""

    def __init__(self, memory: Memory, model: RerankModel, *, llm: ChatModel | None = None) -> None:
        from procmem.rerank.dataset import Verifier

        if not callable(getattr(memory, "search_documents", None)):
            raise ValueError("rerank needs a procedural memory (one that ranks documents)")
        if model.needs_llm and llm is None:
            raise ValueError(f"rerank={model.path}: the model uses the features "
                             f"{[f for f in model.ranker.features if f in LLM_FEATURES]}, which need a "
                             "chat model; this answerer has none")
        self.memory = memory
        self.model = model
        self.verifier: Verifier = Verifier(memory, model.ranker.features,
                                           llm=llm if model.needs_llm else None,
                                           candidates=model.candidates)
        self._orders: OrderedDict[str, tuple[list[str], list[str]]] = OrderedDict()
        self._lock = threading.Lock()

    @classmethod
    def load(cls, path: str | Path, memory: Any, *, llm: ChatModel | None = None) -> RerankedMemory:
        return cls(memory, RerankModel.load(path), llm=llm)

    def __getattr__(self, attr: str) -> Any:
        if attr in ("memory", "model", "verifier", "_orders", "_lock"):
            raise AttributeError(attr)
        return getattr(self.memory, attr)

    def units(self, kind: str | None = None) -> list[Unit]:
        return self.memory.units(kind)

    def document_order(self, query: str) -> tuple[list[str], list[str]]:
        """The candidate documents of ``query``: in retrieval order, and in the ranker's."""
        with self._lock:
            known = self._orders.get(query)
        if known is None:
            candidates = self.verifier.candidates_of(query)
            query_features = self.verifier.features_of(query, candidates)
            known = list(query_features.doc_ids), self.model.ranker.rank(query_features)
            with self._lock:
                self._orders[query] = known
                while len(self._orders) > ORDERS_KEPT:
                    self._orders.popitem(last=False)
        return list(known[0]), list(known[1])

    def search(self, query: str, *, k: int = 5, kind: str | Sequence[str] | None = None,
               doc_ids: Sequence[str] | None = None, **options: Any) -> list[Hit]:
        if doc_ids is not None:  # the answerer already chose the documents
            return self.memory.search(query, k=k, kind=kind, doc_ids=doc_ids, **options)
        start = time.perf_counter()
        before, after = self.document_order(query)
        rank = {doc_id: i for i, doc_id in enumerate(after)}
        pool = self.memory.search(query, k=k * POOL, kind=kind, doc_ids=after, **options) if after else []

        def doc_rank(hit: Hit) -> int:
            return min((rank[d] for d in unit_doc_ids(hit.unit) if d in rank), default=len(rank))

        hits = [replace(h, rank=i) for i, h in
                enumerate(sorted(pool, key=lambda h: (doc_rank(h), h.rank))[:k], 1)]
        if not hits:
            hits = self.memory.search(query, k=k, kind=kind, **options)
        log = _reranks.get()
        if log is not None:
            log.append({"query": query, "kind": kind, "before": before, "after": after,
                        "units": [h.unit.id for h in hits], "fallback": not pool,
                        "seconds": round(time.perf_counter() - start, 4)})
        return hits

    @contextmanager
    def recording(self) -> Iterator[list[dict[str, Any]]]:
        """Collect, in this thread, the searches that were reranked."""
        log: list[dict[str, Any]] = []
        token = _reranks.set(log)
        try:
            yield log
        finally:
            _reranks.reset(token)

    def stage(self, reranks: list[dict[str, Any]], request: AnswerRequest) -> StageRecord:
        """The ``rerank`` trace stage of one answer."""
        from procmem.answerers.base import StageRecord

        details: dict[str, Any] = {"model": str(self.model.path), "sha256": self.model.sha256,
                                   "applied": bool(reranks), "searches": reranks}
        if request.documents:
            details["note"] = "the request carries its documents: nothing is picked from the memory"
        elif not reranks:
            details["note"] = "this answerer made no search of the memory"
        return StageRecord("rerank", seconds=sum(r["seconds"] for r in reranks), details=details)
