"""Conversational query rewriting: the model's standalone query, or the history-aware fallback."""

from __future__ import annotations

from procmem.answerers.base import Trace
from procmem.answerers.common import LLMParams
from procmem.answerers.rewrite import standalone_query, unusable_reason
from procmem.retrieval.query import conversation_query
from serving.scripted import unreachable_llm

HISTORY = [
    ("I gave a colleague Full Access to our shared mailbox. She cannot send from it.", "..."),
    ("Where do I set Send As for the shared mailbox?", "..."),
]
QUESTION = "How long until it works?"


def run(llm, history=HISTORY, question=QUESTION, **params):
    trace = Trace()
    result = standalone_query(trace, history, question, llm=llm, params=LLMParams(**params))
    return result, trace.stages[-1]


def test_without_a_model_the_query_is_the_memorys_history_aware_query():
    result, stage = run(None)
    assert result.query == conversation_query(HISTORY, QUESTION)
    assert result.query.startswith(QUESTION) and "Send As for the shared mailbox" in result.query
    assert stage.details["query"] == result.query


def test_first_turn_uses_the_question_without_a_model_call(script):
    llm, router = script({})
    result, stage = run(llm, history=[])
    assert (result.query, result.method) == (QUESTION, "question")
    assert router.names == [] and stage.details["method"] == "question"


def test_model_rewrite_is_used_when_usable(script):
    llm, router = script({"rewrite/standalone": [{"query": "shared mailbox Send As delay"}]})
    result, stage = run(llm)
    assert (result.query, result.method) == ("shared mailbox Send As delay", "llm")
    call = llm.calls[0]
    assert "Full Access" in call.prompt and QUESTION in call.prompt
    assert call.schema["required"] == ["query"] and call.params["temperature"] == 0.0
    assert stage.details["calls"][0]["reader"] == "json"


def test_unrelated_rewrite_falls_back_to_the_heuristic(script):
    llm, _ = script({"rewrite/standalone": [{"query": "banana bread recipe"}]})
    result, stage = run(llm)
    assert result.method == "heuristic" and result.query == conversation_query(HISTORY, QUESTION)
    assert "shares no word" in result.note and stage.details["rejected"] == "banana bread recipe"


def test_unreadable_rewrite_falls_back_to_the_heuristic(script):
    llm, _ = script({"rewrite/standalone": ["   "]})
    result, stage = run(llm, structured=False)
    assert result.method == "heuristic" and "unreadable" in result.note
    assert llm.calls[0].schema is None


def test_plain_text_rewrite(script):
    llm, _ = script({"rewrite/standalone": ["Query: shared mailbox send as propagation time"]})
    result, _ = run(llm, structured=False)
    assert result == result.__class__("shared mailbox send as propagation time", "llm")


def test_modes_without_a_model():
    result, _ = run(None)
    assert result.method == "heuristic" and result.note == "no model"
    result, _ = run(unreachable_llm(), query_rewrite="heuristic")
    assert result.method == "heuristic"
    result, _ = run(None, query_rewrite="none")
    assert (result.query, result.method) == (QUESTION, "question")


def test_unusable_reasons():
    assert unusable_reason("", HISTORY, QUESTION) == "empty or placeholder rewrite"
    assert unusable_reason("<the standalone search query>", HISTORY, QUESTION) is not None
    assert "longer" in unusable_reason("word " * 80, HISTORY, QUESTION)
    assert unusable_reason("mailbox send as", HISTORY, QUESTION) is None
