"""The records a memory writes and its readers read: search hits, ranked documents, the record
of each source document, and the report of an update."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from procmem.extract.base import ExtractionFailure
from procmem.units import Unit, unit_to_dict


@dataclass
class Hit:
    unit: Unit
    score: float
    rank: int
    method: str

    @property
    def doc_id(self) -> str:
        return str(self.unit.meta.get("doc_id", ""))

    def to_dict(self) -> dict[str, Any]:
        return {"rank": self.rank, "score": round(self.score, 6), "method": self.method,
                "id": self.unit.id, "kind": self.unit.kind, "doc_id": self.doc_id,
                "title": self.unit.meta.get("title", ""), "unit": unit_to_dict(self.unit)}


@dataclass
class DocumentHit:
    """A document ranked by the evidence of its retrieved units (see :meth:`Memory.search_documents`)."""

    doc_id: str
    title: str
    score: float
    rank: int
    hits: list[Hit]  # its units among the retrieved ones, best first

    def to_dict(self) -> dict[str, Any]:
        return {"rank": self.rank, "score": round(self.score, 6), "doc_id": self.doc_id,
                "title": self.title, "units": [h.unit.id for h in self.hits]}


@dataclass
class DocumentRecord:
    doc_id: str
    title: str
    content_hash: str
    date: str = ""
    n_words: int = 0
    extraction: str = "rules"
    part_ids: list[str] = field(default_factory=list)
    extractor: str = ""  # the extraction code that made its units (extractor_version); "": unknown


@dataclass
class UpdateReport:
    added: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    units_added: int = 0
    units_removed: int = 0
    embedded: int = 0  # units given a vector: encoded, or pooled from other units' vectors
    encoded: int = 0  # texts the embedding model encoded for them
    merged: int = 0
    llm_extracted: list[str] = field(default_factory=list)
    failures: list[ExtractionFailure] = field(default_factory=list)
    seconds: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["failures"] = [f.to_dict() for f in self.failures]
        return data

    def summary(self) -> str:
        return (f"{len(self.added)} added, {len(self.updated)} updated, {len(self.unchanged)} unchanged, "
                f"{len(self.removed)} removed documents; +{self.units_added}/-{self.units_removed} units, "
                f"{self.embedded} embedded ({self.encoded} encoded), {self.merged} merged units changed, "
                f"{len(self.failures)} extraction failures, {self.seconds:.1f}s")
