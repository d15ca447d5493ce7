"""Conversational query rewriting: history + last question -> one standalone search query.

The model rewrites the question under a JSON schema; when there is no model, or its reply is
unusable (empty, rambling, or sharing no word with the conversation), the memory's own
history-aware query is used instead (:func:`procmem.retrieval.query.conversation_query`: the
last question leading, then the earlier questions and the start of the last answer). The trace
records which one was used and why.
"""

from __future__ import annotations

from dataclasses import dataclass

from procmem.answerers.base import Trace
from procmem.answerers.common import LLMParams, ask, format_history, render
from procmem.answerers.parsing import ReplyParseError, is_placeholder, parse_query_text
from procmem.answerers.schemas import query_schema
from procmem.retrieval.query import conversation_query, terms
from serving.types import ChatModel

REWRITE_MODES = ("llm", "heuristic", "none")
PROMPTS = ("rewrite/standalone", "rewrite/format_json", "rewrite/format_text")
MAX_QUERY_WORDS = 60


@dataclass
class StandaloneQuery:
    query: str
    method: str  # "question" (as asked), "llm" or "heuristic" (the history-aware query, no model)
    note: str = ""  # why the fallback was used
    # the last question, when the query is the history-aware one: it orders the first results
    # (an LLM's rewrite stands alone)
    question: str | None = None


def unusable_reason(candidate: str, history: list[tuple[str, str]], question: str) -> str | None:
    """Why a rewritten query should not be used, or None when it is fine."""
    words = candidate.split()
    if is_placeholder(candidate):
        return "empty or placeholder rewrite"
    if len(words) > MAX_QUERY_WORDS:
        return f"rewrite longer than {MAX_QUERY_WORDS} words"
    known = set(terms(question)) | {t for q, _ in history for t in terms(q)}
    if known and not known & set(terms(candidate)):
        return "rewrite shares no word with the conversation"
    return None


def standalone_query(
    trace: Trace,
    history: list[tuple[str, str]],
    question: str,
    *,
    llm: ChatModel | None,
    params: LLMParams,
    max_tokens: int = 64,
) -> StandaloneQuery:
    """The retrieval query for this turn, made as ``params.query_rewrite`` says (stage
    ``standalone_query`` in the trace)."""
    mode = params.query_rewrite
    if mode not in REWRITE_MODES:
        raise ValueError(f"query_rewrite={mode!r}: expected one of {list(REWRITE_MODES)}")
    with trace.stage("standalone_query", mode=mode) as stage:
        if not history or mode == "none":
            result = StandaloneQuery(question.strip(), "question",
                                     "first turn" if not history else "rewriting disabled")
        elif mode == "heuristic" or llm is None:
            result = StandaloneQuery(conversation_query(history, question), "heuristic",
                                     "no model" if mode == "llm" else "", question.strip())
        else:
            messages = render(trace, "rewrite/standalone",
                              "rewrite/format_json" if params.structured else "rewrite/format_text",
                              history=format_history(history), question=question.strip())
            try:
                data = ask(llm, stage, messages, schema=query_schema(),
                           readers=[("text", parse_query_text)], params=params,
                           temperature=0.0, max_tokens=max_tokens)
                candidate = " ".join(str(data["query"]).split())
                reason = unusable_reason(candidate, history, question)
            except ReplyParseError as exc:
                candidate, reason = "", f"unreadable reply: {exc}"
            if reason is None:
                result = StandaloneQuery(candidate, "llm")
            else:
                result = StandaloneQuery(conversation_query(history, question), "heuristic", reason,
                                         question.strip())
                stage.details["rejected"] = candidate
        stage.details.update(query=result.query, method=result.method, note=result.note)
    return result
