"""Every answerer end to end: the real embedded engine, a real memory built from one bundled
conversation's documents, and that conversation's history and last question.

Outputs are kept short (small ``max_tokens``); AAG keeps N=4 and T=3. Identical requests hit the
engine's response cache, so the AAG ablations mostly reuse the full run's stages.
"""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import pytest

from procmem.answerers import AnswerRequest, answerer_names, make_answerer
from procmem.answerers.base import _REGISTRY

pytestmark = pytest.mark.slow

MAX_TOKENS = 160

ANSWER_SCHEMA = {
    "type": "object",
    "properties": {
        "answer": {"type": "string", "pattern": r"\S"},
        "procedures": {"type": "array", "minItems": 1, "items": {"type": "string", "pattern": r"\S"}},
        "sources": {"type": "array", "items": {
            "type": "object", "required": ["doc_id", "title", "snippet", "unit_id", "score"]}},
        "follow_ups": {"type": "array", "items": {"type": "string"}},
        "clarification": {"type": ["string", "null"]},
        "trace": {"type": "object", "required": ["stages", "prompt_hashes", "usage", "seconds"]},
    },
    "required": ["answer", "procedures", "sources", "follow_ups", "clarification", "trace"],
}

# (answerer, params, setting, stages that must be in the trace)
CASES: list[tuple[str, dict[str, Any], str, set[str]]] = [
    ("aag", {}, "memory", {"standalone_query", "retrieve", "draft", "rewrite", "retrieve_query",
                          "summarize", "update", "critic"}),
    ("aag-nosum", {}, "memory", {"draft", "rewrite", "retrieve_query", "concatenate", "update", "critic"}),
    ("aag-nocr", {}, "memory", {"draft", "rewrite", "summarize", "update"}),
    ("aag-nosum-nocr", {}, "memory", {"draft", "rewrite", "concatenate", "update"}),
    ("aag-noqr", {}, "memory", {"draft", "critic"}),
    ("aag", {"unit_kind": "logic_unit", "n_queries": 2, "max_rounds": 1}, "memory",
     {"draft", "rewrite", "summarize", "update", "critic"}),
    ("zero-shot", {}, "memory", {"generate"}),
    ("few-shot", {}, "memory", {"examples", "generate"}),
    ("rag", {}, "memory", {"standalone_query", "retrieve", "generate"}),
    ("inscoqa", {}, "documents", {"documents", "generate"}),
    ("inscoqa", {}, "memory", {"standalone_query", "retrieve", "generate"}),
    ("logic-units", {}, "memory", {"linker", "retrieve", "select", "generate"}),
    ("logic-units", {"mode": "single"}, "memory", {"retrieve", "select", "plan", "generate"}),
    ("extractive", {}, "memory", {"standalone_query", "retrieve", "compose"}),
    ("extractive", {}, "documents", {"retrieve", "compose"}),
]
MODEL_FREE = {"extractive"}


def test_every_built_in_answerer_is_covered():
    # other test modules may register answerers of their own; the built-in ones live in procmem
    built_in = {n for n in answerer_names() if _REGISTRY[n].__module__.startswith("procmem.")}
    assert {name for name, *_ in CASES} == built_in


@pytest.mark.parametrize(("name", "params", "setting", "stages"), CASES,
                         ids=[f"{c[0]}-{c[2]}{'-' + '-'.join(map(str, c[1].values())) if c[1] else ''}"
                              for c in CASES])
def test_answerer_end_to_end(name, params, setting, stages, embedded_llm, small_memory,
                             conversation, conversation_documents):
    llm = None if name in MODEL_FREE else embedded_llm
    memory = small_memory if setting == "memory" else None
    documents = conversation_documents if setting == "documents" else None
    answerer = make_answerer(name, llm=llm, memory=memory, max_tokens=MAX_TOKENS, **params) \
        if name not in MODEL_FREE else make_answerer(name, memory=memory, **params)
    answer = answerer.answer(AnswerRequest(conversation.question, history=conversation.history,
                                           documents=documents))

    data = json.loads(json.dumps(answer.to_dict()))  # the whole answer and trace serialise
    jsonschema.validate(data, ANSWER_SCHEMA)
    names = [s["name"] for s in data["trace"]["stages"]]
    assert stages <= set(names), f"missing stages {stages - set(names)} in {names}"
    assert all(s["seconds"] >= 0 for s in data["trace"]["stages"])
    conversation_doc_ids = {d.doc_id for d in conversation_documents}
    if name != "zero-shot":
        assert data["sources"] and {s["doc_id"] for s in data["sources"]} <= conversation_doc_ids
    if llm is None:
        assert data["trace"]["usage"]["calls"] == 0 and not data["trace"]["prompt_hashes"]
        return
    usage = data["trace"]["usage"]
    assert usage["calls"] + usage["cached_calls"] >= 1
    # every stage that called the model recorded the call, the reader used and the usage
    for stage in data["trace"]["stages"]:
        for call in stage["details"].get("calls", []):
            assert call.get("reader") or stage["details"].get("fallback") or stage["details"].get("stop")
            assert stage["usage"]["calls"] + stage["usage"]["cached_calls"] >= 1
    # every prompt used has its hash, and config() names them with the model
    config = answerer.config()
    assert config["model"] and set(data["trace"]["prompt_hashes"]) <= set(config["prompts"])
    assert all(config["prompts"][n] == h for n, h in data["trace"]["prompt_hashes"].items())
    if name.startswith("aag"):
        critic = [s for s in data["trace"]["stages"] if s["name"] == "critic"]
        assert len(critic) <= answerer.params.max_rounds
        if critic:
            assert critic[-1]["details"]["stop"]
