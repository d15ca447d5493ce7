"""The one answerer interface: (history, question[, documents | memory]) -> Answer with a trace.

Answerers are registered by name with :func:`register`, so the CLI, the benchmark and the demo
all choose them by name; :func:`procmem.answerers.grounded.make_answerer` builds them.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from inscoqa.corpus.document import Document
from serving.types import ChatResult, Usage

if TYPE_CHECKING:
    from procmem.grounding import StepGrounding
    from procmem.records import Hit
    from procmem.units import Unit


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
    """One retrieved unit an answer draws on. ``section`` is where the unit sits in its document
    as :func:`section_label` shows it ("Basic mail handling > Filtering"), empty when unknown:
    the sources of a one-page manual are all one document, and only their sections tell them
    apart."""

    doc_id: str
    title: str
    snippet: str = ""
    unit_id: str = ""
    score: float | None = None
    section: str = ""


NumberedSource = tuple[int, Source]  # a source and its citation number, [n] = the n-th source
_CITATION = re.compile(r"\[(\d+)\]")
_ENDING_CITATIONS = re.compile(r"(?:\s*\[\d+\])+$")  # "… the file. [2][3]"


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

    def cited_sources(self) -> tuple[list[NumberedSource], list[NumberedSource]]:
        """The sources as ``(n, source)`` (``[n]`` in the steps cites the n-th), split into those
        the reply cites and the others retrieved; with no citations at all, every source counts
        as cited."""
        numbered = list(enumerate(self.sources, 1))
        text = "\n".join([self.answer, *self.procedures])
        cited = {int(n) for n in _CITATION.findall(text)}
        if not cited & {n for n, _ in numbered}:
            return numbered, []
        return ([(n, s) for n, s in numbered if n in cited],
                [(n, s) for n, s in numbered if n not in cited])

    def said(self) -> str:
        """The reply as a conversation's history keeps it: the answer, the steps numbered and
        without their citations, the question back; the next turn then knows which steps the
        user has already been given."""
        steps = [f"{i}. {_ENDING_CITATIONS.sub('', step)}" for i, step in enumerate(self.procedures, 1)]
        return "\n".join([self.answer, *steps, self.clarification or ""]).strip()

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


def by_document(sources: Sequence[NumberedSource]) -> dict[str, list[NumberedSource]]:
    """Numbered sources grouped by their document (a procedure and a section of one page are two
    sources of one document), documents in the order of their first source."""
    groups: dict[str, list[NumberedSource]] = {}
    for n, source in sources:
        groups.setdefault(source.doc_id, []).append((n, source))
    return groups


SECTION_SEPARATOR = " > "  # between the headings of a unit's section path


def section_label(section: str | None, title: str | None = "") -> str:
    """A unit's section path as a reader is shown it: without its first heading when that is the
    page's ``title`` (on "The Claws Mail User Manual", "The Claws Mail User Manual > Basic mail
    handling > Filtering" is "Basic mail handling > Filtering"); "" for none, or for the title
    alone."""
    section = " ".join(str(section or "").split())
    first, _, rest = section.partition(SECTION_SEPARATOR)
    title = " ".join(str(title or "").split())
    return rest if title and first.casefold() == title.casefold() else section


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


def registered(name: str) -> AnswererFactory:
    """The factory of the answerer registered under ``name``."""
    _load_builtin()
    if name not in _REGISTRY:
        raise KeyError(f"unknown answerer {name!r}; choose one of {sorted(_REGISTRY)}")
    return _REGISTRY[name]


def _load_builtin() -> None:
    import procmem.answerers  # noqa: F401  (registers the built-in answerers)


def record_call(stage: StageRecord, result: ChatResult) -> ChatResult:
    """Add one LLM call's usage to a stage."""
    stage.usage = stage.usage + result.usage
    return result
