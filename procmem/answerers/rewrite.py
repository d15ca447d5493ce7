"""Conversational query rewriting: history + last question -> one standalone search query.

The model rewrites the question under a JSON schema; when there is no model, or its reply is
unusable (empty, rambling, or sharing no word with the conversation), a deterministic
history-aware query is used instead: the question plus the key terms of earlier questions.
The trace records which one was used and why.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from procmem.answerers.base import Trace
from procmem.answerers.common import LLMParams, ask, format_history, key_terms, render, terms
from procmem.answerers.parsing import ReplyParseError, is_placeholder, parse_query_text
from procmem.answerers.schemas import query_schema
from serving.types import ChatModel

REWRITE_MODES = ("llm", "heuristic", "none")
PROMPTS = ("rewrite/standalone", "rewrite/format_json", "rewrite/format_text")
MAX_QUERY_WORDS = 60


@dataclass
class StandaloneQuery:
    query: str
    method: str  # "question" (as asked), "llm" or "heuristic"
    note: str = ""  # why the fallback was used


def heuristic_query(history: list[tuple[str, str]], question: str, max_terms: int = 8) -> str:
    """The question plus the terms that recur in earlier questions (the more frequent and the
    more recent first) and are not already in it."""
    asked = set(terms(question))
    counts: Counter[str] = Counter()
    recency: dict[str, int] = {}
    surface: dict[str, str] = {}
    for turn, (earlier, _) in enumerate(history):
        for stem, word in key_terms(earlier):
            counts[stem] += 1
            recency[stem] = turn
            surface.setdefault(stem, word)
    extra = sorted((t for t in counts if t not in asked), key=lambda t: (-counts[t], -recency[t]))
    words = [surface[t] for t in extra[:max_terms]]
    return f"{question.strip()} {' '.join(words)}".strip()


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
            result = StandaloneQuery(heuristic_query(history, question), "heuristic",
                                     "no model" if mode == "llm" else "")
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
                result = StandaloneQuery(heuristic_query(history, question), "heuristic", reason)
                stage.details["rejected"] = candidate
        stage.details.update(query=result.query, method=result.method, note=result.note)
    return result
