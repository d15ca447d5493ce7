"""The JSON Schema of one InsCoQA conversation, and validation with errors people can act on.

A ``DatasetError`` names the file, the line (1-based), the record id when known, the field path
(``history[1]``, ``documents[0].doc_id``) and what was expected there.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from functools import cache
from importlib import resources
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError, best_match

from inscoqa.records import Conversation

SCHEMA_FILE = "conversation.schema.json"


class DatasetError(ValueError):
    """A bad record in a dataset file: where it is, which field, what was expected, what was found."""

    def __init__(
        self,
        file: object,
        line: int | None,
        field: str | None,
        expected: str,
        *,
        record_id: str | None = None,
        got: str | None = None,
        also: list[str] | None = None,
    ) -> None:
        self.file = str(file)
        self.line = line
        self.field = field
        self.expected = expected
        self.record_id = record_id
        self.got = got
        self.also = list(also or [])  # other invalid fields of the same record
        super().__init__(self.message)

    @property
    def location(self) -> str:
        where = self.file if self.line is None else f"{self.file}, line {self.line}"
        if self.record_id is not None:
            where += f" (record '{self.record_id}')"
        return where

    @property
    def message(self) -> str:
        field = f"field '{self.field}': " if self.field else ""
        got = f"; got {self.got}" if self.got else ""
        also = f" (also invalid: {', '.join(self.also)})" if self.also else ""
        return f"{self.location}: {field}expected {self.expected}{got}{also}"

    def to_dict(self) -> dict[str, Any]:
        return {"file": self.file, "line": self.line, "record_id": self.record_id,
                "field": self.field, "expected": self.expected, "got": self.got,
                "also": self.also, "message": self.message}


@cache
def conversation_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of one conversation, as shipped with the package."""
    text = resources.files("inscoqa").joinpath(SCHEMA_FILE).read_text(encoding="utf-8")
    return json.loads(text)


@cache
def _validator() -> Draft202012Validator:
    schema = conversation_schema()
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def field_path(parts: Iterable[str | int]) -> str:
    """``["history", 1, 0]`` -> ``history[1][0]``; ``["documents", 0, "doc_id"]`` -> ``documents[0].doc_id``."""
    out = ""
    for part in parts:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def describe(value: Any) -> str:
    """A short description of a JSON value for an error message."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"a boolean ({str(value).lower()})"
    if isinstance(value, int | float):
        return f"a number ({value})"
    if isinstance(value, str):
        shown = value if len(value) <= 40 else value[:37] + "..."
        return "an empty string" if not value.strip() else f"the string {json.dumps(shown, ensure_ascii=False)}"
    if isinstance(value, list):
        return f"an array of {len(value)} item{'s' if len(value) != 1 else ''}"
    if isinstance(value, dict):
        keys = ", ".join(sorted(value)) or "no fields"
        return f"an object with {keys}"
    return type(value).__name__


def _pick(error: ValidationError) -> ValidationError:
    """The most useful error: for a document, judge it as inlined when it has ``text``."""
    if error.validator == "oneOf" and isinstance(error.instance, dict) and error.context:
        branch = 1 if "text" in error.instance else 0
        in_branch = [e for e in error.context if e.schema_path and e.schema_path[0] == branch]
        if in_branch:
            return _pick(best_match(in_branch))
    return error


def _expected(error: ValidationError) -> tuple[list[str | int], str, str | None]:
    """(field path, expected, got) for one jsonschema error."""
    path: list[str | int] = list(error.absolute_path)
    schema = error.schema if isinstance(error.schema, dict) else {}
    if error.validator == "required":
        missing = str(error.message).split("'")[1]
        prop = _resolve(schema.get("properties", {}).get(missing, {}))
        return [*path, missing], prop.get("description", "a value"), "nothing (the field is missing)"
    if error.validator == "additionalProperties":
        allowed = ", ".join(schema.get("properties", {}))
        extra = sorted(set(error.instance) - set(schema.get("properties", {})))
        return path, f"only the fields {allowed}", f"unknown field{'s' if len(extra) > 1 else ''} {', '.join(extra)}"
    description = schema.get("description")
    if description is None:
        description = _parent_description(error) or error.message
    return path, description, describe(error.instance)


def _resolve(schema: dict[str, Any]) -> dict[str, Any]:
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        return conversation_schema()["$defs"][ref.rsplit("/", 1)[1]]
    return schema


def _parent_description(error: ValidationError) -> str | None:
    parent = error.parent
    while parent is not None:
        if isinstance(parent.schema, dict) and "description" in parent.schema:
            return parent.schema["description"]
        parent = parent.parent
    return None


def schema_errors(data: Any) -> list[tuple[str, str, str | None]]:
    """Every schema violation as (field path, expected, got), most useful first."""
    if not isinstance(data, dict):
        return [("", "a JSON object (one conversation)", describe(data))]
    errors = sorted(_validator().iter_errors(data), key=lambda e: list(e.path).__len__())
    out: list[tuple[str, str, str | None]] = []
    for error in errors:
        path, expected, got = _expected(_pick(error))
        out.append((field_path(path), expected, got))
    return out


def semantic_errors(data: dict[str, Any]) -> list[tuple[str, str, str | None]]:
    """Rules JSON Schema cannot state: ``evidence`` has one entry per procedure step."""
    evidence = data.get("evidence")
    procedures = data.get("procedures")
    if evidence and isinstance(evidence, list) and isinstance(procedures, list) and len(evidence) != len(procedures):
        return [("evidence", f"one doc_id per procedure step ({len(procedures)} items, as many as procedures)",
                 describe(evidence))]
    return []


def validate_record(data: Any, *, where: str = "<record>", line: int | None = None) -> Conversation:
    """Check one record against the schema and build its ``Conversation``.

    Raises ``DatasetError`` for the first problem found, naming ``where`` (the file), ``line``,
    the record id, the field and what was expected.
    """
    problems = schema_errors(data)
    if not problems and isinstance(data, dict):
        problems = semantic_errors(data)
    if problems:
        field, expected, got = problems[0]
        record_id = data.get("id") if isinstance(data, dict) and isinstance(data.get("id"), str) else None
        also = list(dict.fromkeys(p[0] or "(record)" for p in problems[1:] if p[0] != field))
        raise DatasetError(where, line, field or None, expected, record_id=record_id, got=got, also=also)
    return Conversation.from_dict(data)
