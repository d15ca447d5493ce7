"""Built-in answerers; importing this package registers them by name."""

from procmem.answerers.base import (
    Answer,
    Answerer,
    AnswerRequest,
    Source,
    Trace,
    answerer_names,
    make_answerer,
    register,
)

__all__ = [
    "Answer",
    "AnswerRequest",
    "Answerer",
    "Source",
    "Trace",
    "answerer_names",
    "make_answerer",
    "register",
]
