"""The extractive answerer (no model) and the fallback helper."""

from __future__ import annotations

import re

from inscoqa.corpus.document import Document
from procmem.answerers import AnswerRequest, answer_with_fallback, make_answerer
from procmem.answerers.extractive import compose
from procmem.answerers.retrieval import Hit
from procmem.units import Procedure
from serving.scripted import unreachable_llm


def test_steps_from_the_best_units_in_document_order_with_citations(memory):
    answer = make_answerer("extractive", memory=memory).answer(
        AnswerRequest("How do I steep black tea and brew green tea with a kettle?"))
    titles = [s.title for s in answer.sources]
    assert titles[0] == "Green tea"
    # the two tea procedures, in document order (green tea is first in the document)
    plain = [re.sub(r" \[\d+\]$", "", s) for s in answer.procedures]
    assert plain[:3] == ["Heat water to 80 C in the kettle", "Put the green tea leaves in the cup",
                         "Pour the water and steep for 2 minutes"]
    assert "Boil water in the kettle" in plain
    assert len(plain) == len(set(plain))
    for step in answer.procedures:
        index = int(re.search(r"\[(\d+)\]$", step).group(1))
        source = answer.sources[index - 1]
        unit = next(u for u in memory.units() if u.id == source.unit_id)
        assert step.rsplit(" [", 1)[0] in unit.steps
    assert answer.answer.startswith("Follow the steps for “brew green tea”")
    assert answer.answer.endswith("(from “Green tea”)")
    assert [s.name for s in answer.trace.stages] == ["standalone_query", "retrieve", "compose"]
    assert answer.trace.usage.calls == 0 and answer.trace.prompt_hashes == {}


def test_near_duplicate_steps_are_dropped():
    a = Procedure("", "make tea", ["Boil water in the kettle", "Add tea"], {"doc_id": "a", "title": "A"})
    b = Procedure("", "make coffee", ["Boil water in the kettle.", "Add coffee"], {"doc_id": "b", "title": "B"})
    _, steps, _ = compose([Hit(a, 2.0, 1, "x"), Hit(b, 1.0, 2, "x")], cite=False)
    assert steps == ["Boil water in the kettle", "Add tea", "Add coffee"]


def test_history_aware_query_without_a_model(memory):
    history = [("I want to brew green tea.", "Sure.")]
    answer = make_answerer("extractive", memory=memory).answer(AnswerRequest("How hot?", history=history))
    query = answer.trace.stages[0].details["query"]
    assert query.startswith("How hot?") and "green" in query and "tea" in query
    assert answer.sources[0].title == "Green tea"


def test_given_documents_without_memory(lexical):
    docs = [Document("help/jam.page", "Paper jam",
                     "# Paper jam\n\nJams happen.\n\n## Clear it\n\n1. Turn the printer off.\n"
                     "2. Open the rear cover.\n3. Pull the paper out.", {}),
            Document("cooking/tea.md", "Tea", "1. Boil water.\n2. Steep.", {})]
    answer = make_answerer("extractive").answer(AnswerRequest("clear a paper jam", documents=docs))
    assert answer.sources[0].doc_id == "help/jam.page"
    assert answer.procedures[:3] == ["Turn the printer off. [1]", "Open the rear cover. [1]",
                                     "Pull the paper out. [1]"]


def test_nothing_found(memory):
    answer = make_answerer("extractive", memory=memory).answer(AnswerRequest("zzz qqq"))
    assert answer.procedures == [] and "No matching" in answer.answer


def test_fallback_records_the_engine_failure(memory):
    failing = make_answerer("rag", llm=unreachable_llm(), memory=memory)
    extractive = make_answerer("extractive", memory=memory)
    answer = answer_with_fallback(failing, extractive, AnswerRequest("brew green tea"))
    first = answer.trace.stages[0]
    assert first.name == "fallback" and first.details["failed_answerer"] == "rag"
    assert "LLMConnectionError" in first.details["error"] and answer.procedures


def test_fallback_is_not_used_when_the_answerer_works(memory, script):
    llm, _ = script({"answer/zero_shot": [{"answer": "a", "procedures": ["b"]}]})
    answer = answer_with_fallback(make_answerer("zero-shot", llm=llm, memory=memory),
                                  make_answerer("extractive", memory=memory), AnswerRequest("q?"))
    assert answer.procedures == ["b"] and answer.trace.stages[0].name == "generate"
