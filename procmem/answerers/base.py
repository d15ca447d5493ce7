"""The one answerer interface: (history, question[, documents | memory]) -> Answer with a trace.

Answerers are registered by name with :func:`register` and built with :func:`make_answerer`,
so the CLI, the benchmark and the demo all choose them by name. What :func:`make_answerer`
returns grounds every answer's steps in the answer's sources (:class:`GroundedAnswerer`, the
rule of :mod:`procmem.grounding`) and, given ``rerank=MODEL_FILE``, lets the answerer search a
memory whose candidate documents a trained ranker orders (:mod:`procmem.rerank.answering`).
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, nullcontext
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from inscoqa.corpus.document import Document
from serving.types import ChatModel, ChatResult, Usage

if TYPE_CHECKING:
    from procmem.embed import Embedder
    from procmem.grounding import Grounder, StepGrounding
    from procmem.grounding import Source as GroundingSource
    from procmem.memory import Hit
    from procmem.rerank.answering import RerankedMemory
    from procmem.units import Unit


CITATION = re.compile(r"\s*\[\d+\]")  # "[2]": a step's reference to a source, not its content


class Searchable(Protocol):
    """What answerers search: a ``procmem.memory.Memory`` (or anything with these two methods)."""

    def search(self, query: str, *, k: int = 5, kind: str | Sequence[str] | None = None,
               doc_ids: Sequence[str] | None = None, question: str | None = None) -> list[Hit]: ...

    def units(self, kind: str | None = None) -> list[Unit]: ...


@dataclass
class AnswerRequest:
    question: str
    history: list[tuple[str, str]] = field(default_factory=list)
    # given-documents setting (InsCoQA protocol); None in the open (memory) setting
    documents: list[Document] | None = None


@dataclass
class Source:
    doc_id: str
    title: str
    snippet: str = ""
    unit_id: str = ""
    score: float | None = None


@dataclass
class StageRecord:
    """One stage of an answerer: what it did, what it cost."""

    name: str
    seconds: float = 0.0
    usage: Usage = field(default_factory=Usage)
    details: dict[str, Any] = field(default_factory=dict)


@dataclass
class Trace:
    stages: list[StageRecord] = field(default_factory=list)
    prompt_hashes: dict[str, str] = field(default_factory=dict)

    @contextmanager
    def stage(self, name: str, **details: Any) -> Iterator[StageRecord]:
        record = StageRecord(name=name, details=dict(details))
        start = time.perf_counter()
        try:
            yield record
        finally:
            record.seconds = time.perf_counter() - start
            self.stages.append(record)

    @property
    def usage(self) -> Usage:
        total = Usage()
        for s in self.stages:
            total = total + s.usage
        return total

    @property
    def seconds(self) -> float:
        return sum(s.seconds for s in self.stages)

    def to_dict(self) -> dict[str, Any]:
        return {
            "stages": [
                {"name": s.name, "seconds": round(s.seconds, 4), "usage": s.usage.to_dict(),
                 "details": s.details}
                for s in self.stages
            ],
            "prompt_hashes": dict(self.prompt_hashes),
            "usage": self.usage.to_dict(),
            "seconds": round(self.seconds, 4),
        }


@dataclass
class Answer:
    answer: str
    procedures: list[str]
    sources: list[Source] = field(default_factory=list)
    trace: Trace = field(default_factory=Trace)
    # logic-unit mode: outcomes the user can report next ("that worked", "I still get error X")
    follow_ups: list[str] = field(default_factory=list)
    # logic-unit mode: a question back to the user about an unmet prerequisite
    clarification: str | None = None
    # per step (same order as ``procedures``): where it is grounded in the sources, or None;
    # None as a whole when the steps were not checked
    groundings: list[StepGrounding | None] | None = None

    @property
    def grounded_steps(self) -> int:
        return sum(g is not None for g in self.groundings or [])

    def to_dict(self) -> dict[str, Any]:
        return {
            "answer": self.answer,
            "procedures": list(self.procedures),
            "sources": [asdict(s) for s in self.sources],
            "groundings": grounding_dicts(self.groundings),
            "follow_ups": list(self.follow_ups),
            "clarification": self.clarification,
            "trace": self.trace.to_dict(),
        }


def grounding_dicts(groundings: Sequence[StepGrounding | None] | None) -> list[dict[str, Any] | None] | None:
    """Groundings as stored: one dict per grounded step, None for the others."""
    if groundings is None:
        return None
    return [g.to_dict() if g is not None else None for g in groundings]


class Answerer(Protocol):
    name: str

    def answer(self, request: AnswerRequest) -> Answer: ...

    def config(self) -> dict[str, Any]:
        """Everything that determines its output (params + prompt hashes), for run keys."""
        ...


AnswererFactory = Callable[..., Answerer]
_REGISTRY: dict[str, AnswererFactory] = {}


def register(name: str) -> Callable[[AnswererFactory], AnswererFactory]:
    def deco(factory: AnswererFactory) -> AnswererFactory:
        _REGISTRY[name] = factory
        return factory

    return deco


def answerer_names() -> list[str]:
    _load_builtin()
    return sorted(_REGISTRY)


def make_answerer(name: str, *, llm: ChatModel | None = None, memory: Searchable | None = None,
                  rerank: str | None = None, **params: Any) -> GroundedAnswerer:
    """Build a registered answerer. ``memory`` is what it searches in the open setting (a
    ``procmem.memory.Memory``); requests that carry documents are answered from those.

    ``rerank`` names a ranker file (``inscoqa rerank train``): the answerer then searches the
    memory through it, so the units it gets come from the candidate documents in the ranker's
    order (see :mod:`procmem.rerank.answering`). Every answer's steps are grounded in its sources.
    """
    _load_builtin()
    if name not in _REGISTRY:
        raise KeyError(f"unknown answerer {name!r}; choose one of {sorted(_REGISTRY)}")
    reranked: RerankedMemory | None = None
    if rerank:
        from procmem.rerank.answering import RerankedMemory

        if memory is None:
            raise ValueError(f"answerer {name!r}: rerank needs a memory to pick documents from")
        memory = reranked = RerankedMemory.load(rerank, memory, llm=llm)
    return GroundedAnswerer(_REGISTRY[name](llm=llm, memory=memory, **params), memory, reranked)


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


def _load_builtin() -> None:
    import procmem.answerers  # noqa: F401  (registers the built-in answerers)


def record_call(stage: StageRecord, result: ChatResult) -> ChatResult:
    """Add one LLM call's usage to a stage."""
    stage.usage = stage.usage + result.usage
    return result
