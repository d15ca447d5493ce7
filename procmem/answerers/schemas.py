"""JSON schemas of every structured model reply.

Lengths and counts are capped so that constrained decoding closes the JSON within the call's
token budget (the tiny CPU model otherwise rambles until it is cut off). Strings are bounded by a
``pattern`` rather than ``maxLength``: it also keeps raw control characters, quotes and
backslashes out of the decoded text (llama.cpp's default string grammar lets raw newlines
through, which strict JSON readers reject), and grammar converters turn it into a character
class with a bounded repetition.
"""

from __future__ import annotations

from typing import Any

from procmem.answerers.parsing import NO_UPDATE

CHARS_PER_TOKEN = 4  # a rough English average, used to fit replies into max_tokens
MIN_QUERY_CHARS = 12


def _text(max_chars: int, min_chars: int = 1) -> dict[str, Any]:
    """A one-line string of min..max characters without quotes or backslashes."""
    return {"type": "string", "pattern": f'^[^"\\\\\\x00-\\x1f]{{{min_chars},{max_chars}}}$'}


def protocol_caps(max_tokens: int | None) -> dict[str, int]:
    """Caps of the protocol reply that fit ``max_tokens`` (generous when unknown)."""
    budget = CHARS_PER_TOKEN * (max_tokens or 512) - 40  # JSON punctuation
    # grows with the budget so larger models are not cut short (InsCoQA answers run to ~1,000
    # characters and procedures to ~36 steps)
    answer = max(60, int(budget * 0.35))
    step = max(60, min(300, int(budget * 0.1)))
    steps = max(1, min(36, (budget - answer) // (step + 6)))
    return {"max_steps": steps, "max_step_chars": step, "max_answer_chars": answer}


def protocol_schema(max_steps: int = 8, max_step_chars: int = 160,
                    max_answer_chars: int = 300) -> dict[str, Any]:
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


def rewrite_schema(n_queries: int, max_steps: int = 4, min_queries: int | None = None) -> dict[str, Any]:
    """AAG query rewriting: an outline of the solution, then N search questions (a reply read
    from plain text is accepted with ``min_queries`` of them)."""
    return {
        "type": "object",
        "properties": {
            "steps": {"type": "array", "items": _text(80), "maxItems": max_steps},
            # a lower bound keeps the model from writing labels ("query1") instead of questions
            "queries": {"type": "array", "items": _text(100, min_chars=MIN_QUERY_CHARS),
                        "minItems": n_queries if min_queries is None else min_queries,
                        "maxItems": n_queries},
        },
        "required": ["steps", "queries"],
        "additionalProperties": False,
    }


def critic_schema(max_edits: int = 3) -> dict[str, Any]:
    """AAG critic: exactly ``NO UPDATE REQUIRED``, or edits to make."""
    return {
        "type": "object",
        "properties": {
            "verdict": {"type": "string", "enum": [NO_UPDATE, "EDITS"]},
            "edits": {"type": "array", "items": _text(120), "maxItems": max_edits},
        },
        "required": ["verdict", "edits"],
        "additionalProperties": False,
    }


def query_schema() -> dict[str, Any]:
    """Conversational query rewriting: one standalone search query."""
    return {
        "type": "object",
        "properties": {"query": _text(160)},
        "required": ["query"],
        "additionalProperties": False,
    }
