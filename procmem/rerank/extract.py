"""Step-by-step instructions of each candidate document, grounded in the document's own text.

For a how-to query and its candidate documents (from a memory), each document's instructions
come from the chat model (JSON-schema constrained, prompt ``rerank/instructions``) or, when no
model is given or its reply is unusable, from the memory's own procedures of that document (the
one sharing most words with the query), then its ``Step`` logic units. Every step is grounded in
the document text with :mod:`procmem.grounding`; documents with no grounded step are dropped by
the reranker (they keep their retrieval order after the verified ones).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from procmem.grounding import Grounder, Source, StepGrounding
from procmem.retrieval.bm25 import tokenize
from procmem.retrieval.index import unit_doc_ids
from procmem.units import LogicUnit, Procedure
from serving.errors import LLMError
from serving.prompts import load_prompt

if TYPE_CHECKING:
    from procmem.memory import Memory
    from procmem.records import DocumentHit
    from serving.types import ChatModel

StepSource = Literal["llm", "procedure", "step_units", "none"]

INSTRUCTIONS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["steps"],
    "properties": {"steps": {"type": "array", "maxItems": 12, "items": {"type": "string", "minLength": 1}}},
}
MAX_PAGE_WORDS = 500


@dataclass
class Candidate:
    """One candidate document of a query: its retrieval evidence, instructions and groundings."""

    doc_id: str
    title: str
    text: str
    retrieval_score: float
    retrieval_rank: int
    unit_hits: int
    steps: list[str] = field(default_factory=list)
    step_source: StepSource = "none"
    groundings: list[StepGrounding | None] = field(default_factory=list)

    @property
    def grounded(self) -> list[StepGrounding]:
        return [g for g in self.groundings if g is not None]

    @property
    def verified(self) -> bool:
        """Kept by the reranker: at least one step is grounded in the document."""
        return bool(self.grounded)

    def to_dict(self) -> dict[str, Any]:
        return {"doc_id": self.doc_id, "title": self.title, "retrieval_score": self.retrieval_score,
                "retrieval_rank": self.retrieval_rank, "unit_hits": self.unit_hits, "steps": self.steps,
                "step_source": self.step_source,
                "groundings": [g.to_dict() if g else None for g in self.groundings]}


def trim_words(text: str, words: int) -> str:
    parts = text.split()
    return text if len(parts) <= words else " ".join(parts[:words]) + " ..."


def llm_instructions(llm: ChatModel, query: str, title: str, text: str, *,
                     max_tokens: int = 400) -> list[str] | None:
    """The model's steps for ``query`` from one page, or None when it gives no usable reply."""
    messages = load_prompt("procmem", "rerank/instructions").render(
        query=query, title=title, text=trim_words(text, MAX_PAGE_WORDS))
    try:
        result = llm.chat(messages, schema=INSTRUCTIONS_SCHEMA, temperature=0.0, max_tokens=max_tokens)
    except LLMError:
        return None
    data = result.data if isinstance(result.data, dict) else {}
    steps = [s.strip() for s in data.get("steps", []) if isinstance(s, str) and s.strip()]
    return steps or None


class MemoryProcedures:
    """The memory's procedures and step units, by document, for the model-free instructions."""

    def __init__(self, memory: Memory):
        self.procedures: dict[str, list[Procedure]] = {}
        self.step_units: dict[str, list[LogicUnit]] = {}
        self.texts: dict[str, str] = {}
        for unit in memory.units():
            for doc_id in unit_doc_ids(unit):
                if isinstance(unit, Procedure):
                    self.procedures.setdefault(doc_id, []).append(unit)
                elif isinstance(unit, LogicUnit) and unit.type == "Step":
                    self.step_units.setdefault(doc_id, []).append(unit)
                elif unit.kind == "document":
                    self.texts[doc_id] = unit.render()

    def steps(self, doc_id: str, query: str) -> tuple[list[str], StepSource]:
        terms = set(tokenize(query))

        def overlap(text: str) -> int:
            return len(terms.intersection(tokenize(text)))

        procedures = [p for p in self.procedures.get(doc_id, []) if p.steps]
        if procedures:
            best = max(procedures, key=lambda p: overlap(p.render()))
            return list(best.steps), "procedure"
        units = self.step_units.get(doc_id, [])
        if units:
            best_unit = max(units, key=lambda u: overlap(u.render()))
            lines = [ln.strip(" -*\t") for ln in best_unit.body.splitlines()]
            return [ln for ln in lines if ln], "step_units"
        return [], "none"


def candidates_for(memory: Memory, hits: Sequence[DocumentHit], query: str, *,
                   grounder: Grounder, llm: ChatModel | None = None,
                   procedures: MemoryProcedures | None = None) -> list[Candidate]:
    """Instructions and groundings of each retrieved document, in retrieval order."""
    procedures = procedures or MemoryProcedures(memory)
    out: list[Candidate] = []
    for hit in hits:
        text = procedures.texts.get(hit.doc_id, "")
        candidate = Candidate(hit.doc_id, hit.title, text, float(hit.score), hit.rank, len(hit.hits))
        steps = llm_instructions(llm, query, hit.title, text) if llm is not None and text else None
        if steps:
            candidate.steps, candidate.step_source = steps, "llm"
        else:
            candidate.steps, candidate.step_source = procedures.steps(hit.doc_id, query)
        if text and candidate.steps:
            candidate.groundings = grounder.ground(candidate.steps, [Source(hit.doc_id, text)])
        else:
            candidate.groundings = [None] * len(candidate.steps)
        out.append(candidate)
    return out
