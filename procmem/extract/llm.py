"""LLM extraction (THREAD): optional reformulation, then logic-unit extraction, both as JSON.

Stage 1 (``extract/reformulate``) rewrites a messy document into a structured Markdown text;
stage 2 (``extract/units``) turns it into logic units and the main procedure. Both requests carry a
JSON schema, so the client validates each reply and re-asks on an invalid one; what still fails
raises :class:`LLMExtractionError` naming the stage. A reply is taken whole or not at all: one
unusable unit rejects the document's reply, nothing half-valid is stored.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from procmem.extract.base import Extraction, unit_meta
from procmem.units import Linker, LogicUnit, Procedure
from serving.errors import LLMError
from serving.prompts import load_prompt, prompts_hash

if TYPE_CHECKING:
    from inscoqa.corpus.document import Document
    from serving.types import ChatModel

UNIT_TYPES = ["Step", "Terminology", "FAQ", "Appendix"]
LINKER_TAGS = ["CONTINUE", "CROSS", "MITIGATE"]

LINKER_SCHEMA: dict[str, Any] = {
    "type": "array",
    "maxItems": 4,
    "items": {
        "type": "object",
        "required": ["condition", "next", "tag"],
        "properties": {
            "condition": {"type": "string"},
            "next": {"type": "string"},
            "tag": {"type": "string", "enum": LINKER_TAGS},
        },
    },
}
REFORMULATE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["structured_text"],
    "properties": {"structured_text": {"type": "string", "minLength": 1}},
}
UNITS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["units", "procedure"],
    "properties": {
        "units": {
            "type": "array",
            "minItems": 1,
            "maxItems": 4,
            "items": {
                "type": "object",
                "required": ["type", "header", "prerequisite", "body", "linker"],
                "properties": {
                    "type": {"type": "string", "enum": UNIT_TYPES},
                    "header": {"type": "string", "minLength": 1},
                    "prerequisite": {"type": "string"},
                    "body": {"type": "string", "minLength": 1},
                    "linker": LINKER_SCHEMA,
                },
            },
        },
        "procedure": {
            "type": "object",
            "required": ["input", "output", "steps"],
            "properties": {
                "input": {"type": "string"},
                "output": {"type": "string"},
                "steps": {"type": "array", "maxItems": 12, "items": {"type": "string"}},
            },
        },
    },
}
MERGE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["prerequisite", "body", "linker"],
    "properties": {
        "prerequisite": {"type": "string"},
        "body": {"type": "string", "minLength": 1},
        "linker": LINKER_SCHEMA,
    },
}


class LLMExtractionError(ValueError):
    """A document the model could not turn into valid units; ``stage`` says where."""

    def __init__(self, doc_id: str, stage: str, problem: str):
        self.doc_id, self.stage, self.problem = doc_id, stage, problem
        super().__init__(f"{doc_id}: LLM extraction failed at {stage}: {problem}")


@dataclass
class LLMExtractionSettings:
    reformulate: bool = True
    max_input_words: int = 600
    max_tokens: int = 700
    temperature: float = 0.0


def prompt_hashes() -> str:
    return prompts_hash([load_prompt("procmem", f"extract/{n}") for n in ("reformulate", "units", "merge")])


def _trim(text: str, words: int) -> str:
    parts = text.split(" ")
    return text if len(text.split()) <= words else " ".join(parts[:words]) + " ..."


def _ask(llm: ChatModel, doc_id: str, stage: str, schema: dict[str, Any], settings: LLMExtractionSettings,
         **values: str) -> dict[str, Any]:
    messages = load_prompt("procmem", f"extract/{stage}").render(**values)
    try:
        result = llm.chat(messages, schema=schema, temperature=settings.temperature,
                          max_tokens=settings.max_tokens)
    except LLMError as exc:
        raise LLMExtractionError(doc_id, stage, f"{type(exc).__name__}: {exc}") from exc
    if not isinstance(result.data, dict):
        raise LLMExtractionError(doc_id, stage, "the reply is not a JSON object")
    return result.data


def extract_with_llm(doc: Document, llm: ChatModel,
                     settings: LLMExtractionSettings | None = None) -> Extraction:
    """Units and the main procedure of ``doc`` as the model reads them; raises LLMExtractionError."""
    settings = settings or LLMExtractionSettings()
    text = _trim(doc.text, settings.max_input_words)
    if settings.reformulate:
        data = _ask(llm, doc.doc_id, "reformulate", REFORMULATE_SCHEMA, settings, title=doc.title, text=text)
        text = _trim(str(data["structured_text"]), settings.max_input_words)
    data = _ask(llm, doc.doc_id, "units", UNITS_SCHEMA, settings, title=doc.title, text=text)
    return _to_extraction(doc, data)


def _clean(value: Any) -> str:
    return " ".join(str(value).split()) if not isinstance(value, str) or "\n" not in value else value.strip()


def _linkers(doc_id: str, raw: list[dict[str, Any]], where: str) -> list[Linker]:
    linkers = []
    for j, link in enumerate(raw):
        condition, nxt = _clean(link.get("condition", "")), _clean(link.get("next", ""))
        if not condition or not nxt or link.get("tag") not in LINKER_TAGS:
            raise LLMExtractionError(doc_id, "units", f"{where}.linker[{j}]: empty condition or next, or bad tag")
        linkers.append(Linker(condition, nxt, link["tag"]))
    return linkers


def _to_extraction(doc: Document, data: dict[str, Any]) -> Extraction:
    extraction = Extraction(doc_id=doc.doc_id, method="llm")
    for i, raw in enumerate(data["units"]):
        header, body = _clean(raw.get("header", "")), _clean(raw.get("body", ""))
        if not header or not body or raw.get("type") not in UNIT_TYPES:
            raise LLMExtractionError(doc.doc_id, "units", f"units[{i}]: empty header or body, or bad type")
        extraction.logic_units.append(LogicUnit(
            raw["type"], _clean(raw.get("prerequisite", "")), header, body,
            _linkers(doc.doc_id, raw.get("linker", []), f"units[{i}]"),
            unit_meta(doc, method="llm", section="", order=i + 1),
        ))
    procedure = data.get("procedure") or {}
    steps = [_clean(s) for s in procedure.get("steps", []) if _clean(s)]
    if steps:
        output = _clean(procedure.get("output", "")) or doc.title
        extraction.procedures.append(Procedure(_clean(procedure.get("input", "")), output, steps,
                                               unit_meta(doc, method="llm", section="", order=0)))
    extraction.structured = bool(extraction.procedures)
    return extraction.dedupe()


def merge_with_llm(parts: list[LogicUnit], merged: LogicUnit, llm: ChatModel,
                   settings: LLMExtractionSettings | None = None) -> LogicUnit:
    """The model's merge of ``parts`` (header and meta from the rule merge ``merged``)."""
    settings = settings or LLMExtractionSettings(reformulate=False)
    doc_id = str(merged.meta.get("doc_id", ""))
    rendered = "\n\n".join(f"Unit {i}:\n{p.render()}" for i, p in enumerate(parts, 1))
    data = _ask(llm, doc_id, "merge", MERGE_SCHEMA, settings, header=merged.header, units=rendered)
    body = _clean(data.get("body", ""))
    if not body:
        raise LLMExtractionError(doc_id, "merge", "empty body")
    return LogicUnit(merged.type, _clean(data.get("prerequisite", "")), merged.header, body,
                     _linkers(doc_id, data.get("linker", []), "merge"), dict(merged.meta))
