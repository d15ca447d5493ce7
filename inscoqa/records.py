"""In-memory form of one InsCoQA conversation (see conversation.schema.json)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

DOMAINS = (
    "Fashion", "Study", "Gourmet", "Makeup", "Movies & TV", "Workplace", "Relationships",
    "Home Decor", "Games", "Travel", "Health & Fitness", "Technology", "Others",
)


@dataclass
class DocRef:
    """A document a conversation draws on: referenced by ``doc_id`` or inlined with ``text``."""

    doc_id: str
    title: str
    text: str | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"doc_id": self.doc_id, "title": self.title}
        if self.text is not None:
            out["text"] = self.text
        return out


@dataclass
class Conversation:
    id: str
    domain: str
    documents: list[DocRef]
    history: list[tuple[str, str]]
    question: str
    answer: str
    procedures: list[str]
    evidence: list[str] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Conversation:
        """From an already schema-validated record."""
        return cls(
            id=data["id"],
            domain=data["domain"],
            documents=[DocRef(d["doc_id"], d["title"], d.get("text")) for d in data["documents"]],
            history=[(q, a) for q, a in data["history"]],
            question=data["question"],
            answer=data["answer"],
            procedures=list(data["procedures"]),
            evidence=list(data.get("evidence", [])),
            meta=dict(data.get("meta", {})),
        )

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.id,
            "domain": self.domain,
            "documents": [d.to_dict() for d in self.documents],
            "history": [[q, a] for q, a in self.history],
            "question": self.question,
            "answer": self.answer,
            "procedures": list(self.procedures),
        }
        if self.evidence:
            out["evidence"] = list(self.evidence)
        if self.meta:
            out["meta"] = dict(self.meta)
        return out
