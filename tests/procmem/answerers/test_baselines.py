"""AAG's baselines with a scripted model: zero-shot, few-shot (k random procedures, fixed seed)
and RAG (k retrieved)."""

from __future__ import annotations

import pytest

from procmem.answerers import AnswerRequest, make_answerer
from procmem.answerers.parsing import ReplyParseError

QUESTION = "How do I make coffee with a kettle?"
HISTORY = [("I have ground coffee and a filter.", "Good, pour-over works with that.")]
REPLY = {"answer": "Use pour-over.", "procedures": ["1. Boil water", "2. Pour slowly", "Pour slowly"]}


def test_zero_shot_is_one_call_without_retrieval(memory, script):
    llm, router = script({"answer/zero_shot": [REPLY]})
    answer = make_answerer("zero-shot", llm=llm, memory=memory).answer(
        AnswerRequest(QUESTION, history=HISTORY))
    assert router.names == ["answer/zero_shot"] and memory.searches == []
    assert "ground coffee and a filter" in llm.calls[0].prompt and QUESTION in llm.calls[0].prompt
    # numbering stripped, repeated step dropped
    assert answer.procedures == ["Boil water", "Pour slowly"]
    assert answer.sources == [] and [s.name for s in answer.trace.stages] == ["generate"]
    assert llm.calls[0].params["temperature"] == 0.7


def few_shot_examples(memory, script, seed):
    llm, _ = script({"answer/few_shot": [REPLY]})
    answer = make_answerer("few-shot", llm=llm, memory=memory, seed=seed).answer(AnswerRequest(QUESTION))
    return answer, llm


def test_few_shot_uses_k_random_procedures_fixed_by_the_seed(memory, script):
    first, llm = few_shot_examples(memory, script, seed=0)
    again, _ = few_shot_examples(memory, script, seed=0)
    examples = first.trace.stages[0].details["examples"]
    assert len(examples) == 3 and {e["kind"] for e in examples} == {"procedure"}
    assert examples == again.trace.stages[0].details["examples"]
    assert memory.searches == []  # random, not retrieved
    for source in first.sources:
        unit = next(u for u in memory.units() if u.id == source.unit_id)
        assert f"Goal: {unit.output}" in llm.calls[0].prompt
    seeds = {tuple(e["unit_id"] for e in few_shot_examples(memory, script, seed=s)[0]
                   .trace.stages[0].details["examples"]) for s in range(6)}
    assert len(seeds) > 1


def test_rag_retrieves_k_procedures_for_the_standalone_query(memory, script):
    llm, router = script({"rewrite/standalone": [{"query": "make pour-over coffee with ground coffee"}],
                          "answer/rag": [REPLY]})
    answer = make_answerer("rag", llm=llm, memory=memory).answer(AnswerRequest(QUESTION, history=HISTORY))
    assert router.names == ["rewrite/standalone", "answer/rag"]
    # a model's rewrite stands alone: no question orders its results
    assert memory.searches == [{"query": "make pour-over coffee with ground coffee", "k": 3,
                                "kind": "procedure", "doc_ids": None, "question": None}]
    assert "Goal: make pour-over coffee" in llm.calls[1].prompt
    assert answer.sources[0].title == "Pour-over coffee" and answer.sources[0].score is not None
    retrieve = next(s for s in answer.trace.stages if s.name == "retrieve")
    assert retrieve.details["hits"][0]["label"] == "make pour-over coffee"


def test_the_history_aware_query_is_ordered_by_the_last_question(memory, script):
    llm, _ = script({"answer/rag": [REPLY, REPLY]})
    rag = make_answerer("rag", llm=llm, memory=memory, query_rewrite="heuristic")
    rag.answer(AnswerRequest(QUESTION, history=HISTORY))
    searched = memory.searches[-1]
    assert "ground coffee and a filter" in searched["query"] and searched["question"] == QUESTION
    rag.answer(AnswerRequest(QUESTION))  # a first question is the query itself
    assert memory.searches[-1]["query"] == QUESTION and memory.searches[-1]["question"] is None


def test_unreadable_generation_is_a_typed_error(memory, script):
    llm, _ = script({"answer/zero_shot": ['{"answer": "x", "procedures": []}']})
    with pytest.raises(ReplyParseError, match="procedures"):
        make_answerer("zero-shot", llm=llm, memory=memory).answer(AnswerRequest(QUESTION))


def test_copied_format_placeholders_are_dropped(memory, script):
    llm, _ = script({"answer/zero_shot": [{"answer": "<a short answer>",
                                           "procedures": ["<first step>", "Boil water", "..."]}]})
    answer = make_answerer("zero-shot", llm=llm, memory=memory).answer(AnswerRequest(QUESTION))
    assert answer.procedures == ["Boil water"] and answer.answer == "Boil water"
