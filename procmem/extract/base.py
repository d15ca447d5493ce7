"""What an extractor returns for one document, and the metadata every unit carries."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from procmem.units import LogicUnit, Procedure, Unit

if TYPE_CHECKING:
    from inscoqa.corpus.document import Document

ExtractionMethod = Literal["rules", "llm"]


@dataclass
class Extraction:
    """Procedures and logic units found in one document.

    ``structured`` is True when the rules found steps (a numbered list, a recipe's directions or a
    resolution's methods); documents without structure are the ones LLM extraction is for.
    """

    doc_id: str
    procedures: list[Procedure] = field(default_factory=list)
    logic_units: list[LogicUnit] = field(default_factory=list)
    method: ExtractionMethod = "rules"
    structured: bool = False

    @property
    def units(self) -> list[Unit]:
        return [*self.procedures, *self.logic_units]

    def dedupe(self) -> Extraction:
        """Drop repeated units (a document may repeat a section word for word)."""
        self.procedures = _first_of_each(self.procedures)
        self.logic_units = _first_of_each(self.logic_units)
        return self


def _first_of_each(units: list[Any]) -> list[Any]:
    seen: set[str] = set()
    out = []
    for unit in units:
        if unit.id not in seen:
            seen.add(unit.id)
            out.append(unit)
    return out


@dataclass
class ExtractionFailure:
    """A document whose extraction failed; recorded in the build report, nothing stored."""

    doc_id: str
    stage: str
    error: str

    def to_dict(self) -> dict[str, str]:
        return {"doc_id": self.doc_id, "stage": self.stage, "error": self.error}


def with_title(goal: str, title: str) -> str:
    """A goal with its page's title, unless it holds it: "Method 2", "New EAC", "Use PowerShell"
    or a recipe's "Sauce" say what they achieve only on their page. The page's own heading under
    a title that adds the part the page belongs to ("7.4. Entering Payments" under "7.4.
    Entering Payments (Credit Cards)") is that title, not the heading and the title again."""
    if title.casefold() in goal.casefold():
        return goal
    return title if title.casefold().startswith(f"{goal.casefold()} (") else f"{goal} ({title})"


def unit_meta(doc: Document, *, method: ExtractionMethod, section: str = "", order: int = 0,
              **extra: Any) -> dict[str, Any]:
    """``doc_id``, ``title``, ``date``, ``content_hash`` of the source, and where the unit sits."""
    meta: dict[str, Any] = {
        "doc_id": doc.doc_id,
        "title": doc.title,
        "date": str(doc.meta.get("date", "") or ""),
        "content_hash": doc.content_hash,
        "corpus": doc.meta.get("corpus", doc.doc_id.split("/", 1)[0] if "/" in doc.doc_id else ""),
        "extraction": method,
        "section": section,
        "order": order,
    }
    if doc.meta.get("manual"):
        meta["manual"] = doc.meta["manual"]  # the product's manual, where a corpus holds several
    meta.update(extra)
    return meta


@cache
def extractor_version() -> str:
    """A hash of the extraction and chunking code: units built by other code are rebuilt."""
    h = hashlib.sha256()
    package = Path(__file__).resolve().parent
    for path in [*sorted(package.glob("*.py")), package.parent / "chunking.py"]:
        h.update(path.name.encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:12]
