"""JSON schemas of every structured model reply.

Lengths and counts are capped so that constrained decoding closes the JSON within a small
token budget (the tiny CPU model otherwise rambles until it is cut off).
"""

from __future__ import annotations

from typing import Any

from procmem.answerers.parsing import NO_UPDATE


def _text(max_chars: int) -> dict[str, Any]:
    return {"type": "string", "minLength": 1, "maxLength": max_chars}


def protocol_schema(max_steps: int = 8, max_step_chars: int = 200,
                    max_answer_chars: int = 400) -> dict[str, Any]:
    """The answering protocol: a plain answer and ordered procedural instructions."""
    return {
        "type": "object",
        "properties": {
            "answer": _text(max_answer_chars),
            "procedures": {"type": "array", "items": _text(max_step_chars),
                           "minItems": 1, "maxItems": max_steps},
        },
        "required": ["answer", "procedures"],
        "additionalProperties": False,
    }


def rewrite_schema(n_queries: int, max_steps: int = 6) -> dict[str, Any]:
    """AAG query rewriting: an outline of the solution, then up to N search questions."""
    return {
        "type": "object",
        "properties": {
            "steps": {"type": "array", "items": _text(160), "maxItems": max_steps},
            "queries": {"type": "array", "items": _text(160), "minItems": 1, "maxItems": n_queries},
        },
        "required": ["steps", "queries"],
        "additionalProperties": False,
    }


def critic_schema(max_edits: int = 5) -> dict[str, Any]:
    """AAG critic: exactly ``NO UPDATE REQUIRED``, or edits to make."""
    return {
        "type": "object",
        "properties": {
            "verdict": {"type": "string", "enum": [NO_UPDATE, "EDITS"]},
            "edits": {"type": "array", "items": _text(200), "maxItems": max_edits},
        },
        "required": ["verdict", "edits"],
        "additionalProperties": False,
    }


def select_schema(n_units: int) -> dict[str, Any]:
    """Logic-unit selector: numbers of the units that apply, and a question back (or "")."""
    return {
        "type": "object",
        "properties": {
            "keep": {"type": "array", "items": {"type": "integer", "minimum": 1, "maximum": max(1, n_units)},
                     "maxItems": max(1, n_units)},
            "ask": {"type": "string", "maxLength": 200},
        },
        "required": ["keep", "ask"],
        "additionalProperties": False,
    }


def query_schema() -> dict[str, Any]:
    """Conversational query rewriting: one standalone search query."""
    return {
        "type": "object",
        "properties": {"query": _text(200)},
        "required": ["query"],
        "additionalProperties": False,
    }
