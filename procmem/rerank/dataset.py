"""Labelled queries for the reranker from InsCoQA conversations and a memory.

A conversation gives one labelled query: its last question (with the recent history, as the
memory's conversation search builds it), and its reference documents as the relevant ones. The
candidates are the memory's ``candidates`` best documents for it; each gets its instructions,
groundings and features. Features can be written to and read from a JSONL file.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from procmem.grounding import Grounder
from procmem.rerank.extract import Candidate, MemoryProcedures, candidates_for
from procmem.rerank.features import check_features, feature_matrix
from procmem.rerank.ranker import LabelledQuery
from procmem.retrieval.query import conversation_query

if TYPE_CHECKING:
    from inscoqa.records import Conversation
    from procmem.memory import Memory
    from serving.types import ChatModel


class Verifier:
    """Candidates of a query from a memory, with instructions, groundings and features."""

    def __init__(self, memory: Memory, features: Sequence[str], *, llm: ChatModel | None = None,
                 candidates: int = 10, grounder: Grounder | None = None):
        self.memory = memory
        self.features = check_features(features)
        self.llm = llm
        self.candidates = candidates
        self.grounder = grounder or Grounder(memory.embedder)
        self.procedures = MemoryProcedures(memory)

    def query_text(self, history: Sequence[Sequence[str]], question: str) -> str:
        return conversation_query(history, question, turns=self.memory.config.history_turns)

    def verify(self, history: Sequence[Sequence[str]], question: str) -> tuple[str, list[Candidate]]:
        query = self.query_text(history, question)
        return query, self.candidates_of(query)

    def candidates_of(self, query: str) -> list[Candidate]:
        """The memory's best documents for ``query`` with their instructions and groundings."""
        hits = self.memory.search_documents(query, k=self.candidates)
        return candidates_for(self.memory, hits, query, grounder=self.grounder, llm=self.llm,
                              procedures=self.procedures)

    def features_of(self, query: str, candidates: list[Candidate]) -> LabelledQuery:
        """``candidates`` of ``query`` with their features (no labels)."""
        rows = feature_matrix(query, candidates, self.features, llm=self.llm)
        return LabelledQuery("", query, [], [c.doc_id for c in candidates], rows,
                             [c.verified for c in candidates], list(self.features),
                             [c.to_dict() for c in candidates])

    def labelled(self, conv: Conversation) -> LabelledQuery:
        query, candidates = self.verify(conv.history, conv.question)
        labelled = self.features_of(query, candidates)
        labelled.id, labelled.relevant = conv.id, [d.doc_id for d in conv.documents]
        return labelled


def labelled_queries(convs: Iterable[Conversation], verifier: Verifier, *,
                     progress: Callable[[int, LabelledQuery], None] | None = None) -> list[LabelledQuery]:
    out = []
    for n, conv in enumerate(convs, 1):
        out.append(verifier.labelled(conv))
        if progress:
            progress(n, out[-1])
    return out


def write_queries(path: str | Path, queries: Sequence[LabelledQuery]) -> Path:
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text("".join(json.dumps(q.to_dict(), ensure_ascii=False) + "\n" for q in queries),
                      encoding="utf-8")
    return target


def read_queries(path: str | Path) -> list[LabelledQuery]:
    out = []
    with Path(path).open(encoding="utf-8") as handle:
        for line_no, line in enumerate(handle, 1):
            if not line.strip():
                continue
            try:
                out.append(LabelledQuery.from_dict(json.loads(line)))
            except (json.JSONDecodeError, TypeError) as exc:
                raise ValueError(f"{path}: line {line_no}: not a labelled query record: {exc}") from exc
    names = {tuple(q.feature_names) for q in out}
    if len(names) > 1:
        raise ValueError(f"{path}: records have different feature lists: {sorted(names)}")
    return out
