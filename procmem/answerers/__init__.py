"""Built-in answerers; importing this package registers them by name.

Names: ``inscoqa`` (the answering protocol, given documents or memory), ``aag`` and its ablations
``aag-nosum``, ``aag-nocr``, ``aag-nosum-nocr``, ``aag-noqr``, the baselines ``zero-shot``,
``few-shot`` and ``rag``, ``logic-units``, and ``extractive`` (no model).
"""

from procmem.answerers import aag, baselines, extractive, logic_units, protocol  # noqa: F401  (register)
from procmem.answerers.base import (
    Answer,
    Answerer,
    AnswerRequest,
    Source,
    Trace,
    answerer_names,
    by_document,
    register,
    section_label,
)
from procmem.answerers.extractive import answer_with_fallback
from procmem.answerers.grounded import make_answerer
from procmem.answerers.parsing import ReplyParseError
from procmem.answerers.rewrite import StandaloneQuery, standalone_query

__all__ = [
    "Answer",
    "AnswerRequest",
    "Answerer",
    "ReplyParseError",
    "Source",
    "StandaloneQuery",
    "Trace",
    "answer_with_fallback",
    "answerer_names",
    "by_document",
    "make_answerer",
    "register",
    "section_label",
    "standalone_query",
]
