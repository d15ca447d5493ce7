"""What the CLI, the benchmark and the demo build answerers with: :func:`make_answerer`.

It makes a registered answerer (:mod:`procmem.answerers.base`) by name and wraps it so that
every answer's steps are grounded in the answer's sources (:class:`GroundedAnswerer`, the rule
of :mod:`procmem.grounding`); given ``rerank=MODEL_FILE`` the answerer searches a memory whose
candidate documents a trained ranker orders (:mod:`procmem.rerank.answering`).
"""

from __future__ import annotations

import re
import threading
from contextlib import nullcontext
from typing import TYPE_CHECKING, Any

from procmem.answerers.base import Answer, Answerer, AnswerRequest, Searchable, registered
from serving.types import ChatModel

if TYPE_CHECKING:
    from procmem.embed import Embedder
    from procmem.grounding import Grounder
    from procmem.grounding import Source as GroundingSource
    from procmem.rerank.answering import RerankedMemory

CITATION = re.compile(r"\s*\[\d+\]")  # "[2]": a step's reference to a source, not its content


def make_answerer(name: str, *, llm: ChatModel | None = None, memory: Searchable | None = None,
                  rerank: str | None = None, **params: Any) -> GroundedAnswerer:
    """Build a registered answerer. ``memory`` is what it searches in the open setting (a
    ``procmem.memory.Memory``); requests that carry documents are answered from those.

    ``rerank`` names a ranker file (``inscoqa rerank train``): the answerer then searches the
    memory through it, so the units it gets come from the candidate documents in the ranker's
    order (see :mod:`procmem.rerank.answering`). Every answer's steps are grounded in its sources.
    """
    factory = registered(name)
    reranked: RerankedMemory | None = None
    if rerank:
        from procmem.rerank.answering import RerankedMemory

        if memory is None:
            raise ValueError(f"answerer {name!r}: rerank needs a memory to pick documents from")
        memory = reranked = RerankedMemory.load(rerank, memory, llm=llm)
    return GroundedAnswerer(factory(llm=llm, memory=memory, **params), memory, reranked)


class GroundedAnswerer:
    """A registered answerer whose answers carry their steps' groundings.

    After the answerer answers, each step is matched to a snippet of what the answer came from
    (:mod:`procmem.grounding`): the request's documents when it carries some, else the units
    of the answer's sources. Vectors come from the embedding model the memory already uses (no
    chat model call); without one, only ROUGE-L grounds. With a reranked memory, the trace's
    first stage says what the ranker reordered and which model file (by hash) did it.
    Everything else (``name``, ``llm``, ``params``, ...) is the answerer's own.
    """

    def __init__(self, inner: Answerer, memory: Searchable | None,
                 reranked: RerankedMemory | None = None) -> None:
        self.inner = inner
        self.grounding_memory = memory
        self.reranked = reranked

    @property
    def name(self) -> str:
        return self.inner.name

    def __getattr__(self, attr: str) -> Any:
        if attr in ("inner", "grounding_memory", "reranked"):
            raise AttributeError(attr)  # not set yet (copying, unpickling)
        return getattr(self.inner, attr)

    def config(self) -> dict[str, Any]:
        config = dict(self.inner.config())
        if self.reranked is not None:
            config["rerank"] = self.reranked.model.config()
        return config

    def answer(self, request: AnswerRequest) -> Answer:
        recording = self.reranked.recording() if self.reranked is not None else nullcontext(None)
        with recording as reranks:
            answer = self.inner.answer(request)
        if self.reranked is not None:
            answer.trace.stages.insert(0, self.reranked.stage(reranks or [], request))
        steps = [CITATION.sub("", step) for step in answer.procedures]
        embedder = _embedder_of(None if request.documents else self.grounding_memory)
        answer.groundings = shared_grounder(embedder).ground(steps, self._sources(answer, request))
        return answer

    def _sources(self, answer: Answer, request: AnswerRequest) -> list[GroundingSource]:
        """What the steps may be grounded in: the given documents, or the answer's units."""
        from procmem.grounding import Source as Text

        if request.documents:
            return [Text(d.doc_id, d.text) for d in request.documents]
        memory = self.grounding_memory
        ids = list(dict.fromkeys(s.unit_id for s in answer.sources if s.unit_id))
        if memory is None or not ids:
            return []
        get = getattr(memory, "get", None)
        if get is None:
            by_id = {u.id: u for u in memory.units()}
            get = by_id.get
        units = [u for u in map(get, ids) if u is not None]
        return [Text(u.id, u.render()) for u in units]


_grounders: dict[str | None, Grounder] = {}
_grounders_lock = threading.Lock()


def shared_grounder(embedder: Embedder | None) -> Grounder:
    """One grounder per embedding model for every answerer, so the vectors of a source's
    snippets are made once however many answerers and turns ground steps in it."""
    from procmem.grounding import Grounder

    key = embedder.name if embedder is not None else None
    with _grounders_lock:
        if key not in _grounders:
            _grounders[key] = Grounder(embedder)
        return _grounders[key]


def _embedder_of(memory: Searchable | None) -> Embedder | None:
    """The memory's embedding model (for given documents: the one their memories share), or
    None when none is installed."""
    from procmem.answerers.retrieval import given_embedder
    from procmem.embed import EmbedderNotFound

    try:
        return getattr(memory, "embedder", None) if memory is not None else given_embedder()
    except EmbedderNotFound:
        return None
