"""The given-documents setting: answerers search a memory over exactly the request's documents."""

from __future__ import annotations

import dataclasses

import pytest

from inscoqa.corpus.document import Document
from procmem.answerers import AnswerRequest, make_answerer
from procmem.answerers.retrieval import RANKED_AMONG, Retriever, given_memory
from procmem.memory import Memory
from procmem.units import Procedure
from tests.procmem.answerers.conftest import MemoryDouble

PRINTER = Document("help/printer.md", "Printer problems", """# Printer problems

## Install the printer driver

1. Open Settings > Printers & scanners.
2. Select Add a printer and choose the model.
3. Wait until Windows installs the driver.

## Clear a paper jam

If the printer reports a paper jam, clear it:

1. Turn the printer off and unplug it.
2. Open the rear cover.
3. Pull the jammed paper out gently.
""", {})
TEA = Document("cooking/tea.md", "Green tea", """# Green tea

## Brew green tea

1. Heat water to 80 C.
2. Put the leaves in the cup.
3. Steep for two minutes.
""", {})


def test_given_documents_are_searched_as_a_memory_with_procedures_and_logic_units(lexical):
    retriever = Retriever(None, [PRINTER, TEA])
    assert retriever.setting == "given" and isinstance(retriever.memory, Memory)
    hits, kind = retriever.search("clear a paper jam", k=3, kind="procedure")
    assert kind == "procedure" and hits[0].unit.output.lower().startswith("clear a paper jam")
    assert hits[0].unit.steps[0] == "Turn the printer off and unplug it."
    assert {h.method for h in hits} == {"bm25"}  # no embedding model: lexical search only
    units, kind = retriever.units("logic_unit")
    assert kind == "logic_unit" and {u.meta["doc_id"] for u in units} == {"help/printer.md", "cooking/tea.md"}
    hits, _ = retriever.search("paper jam", k=5, kind="logic_unit", within=["cooking/tea.md"])
    assert all(h.unit.meta["doc_id"] == "cooking/tea.md" for h in hits)


def test_one_build_per_document_set_and_a_new_one_when_a_document_changes(lexical):
    first = given_memory([PRINTER, TEA])
    assert given_memory([TEA, PRINTER]) is first  # same documents, any order
    assert first.config.chunk_vectors == "encoded"  # the chunk baseline's vectors are its own
    changed = dataclasses.replace(TEA, text=TEA.text.replace("two minutes", "three minutes"))
    second = given_memory([PRINTER, changed])
    assert second is not first
    steps = [s for u in second.units("procedure") for s in u.steps]
    assert "Steep for three minutes." in steps and "Steep for two minutes." not in steps
    with pytest.raises(ValueError, match="at least one document"):
        given_memory([])


def test_answerers_retrieve_procedures_and_logic_units_from_given_documents(lexical, script):
    request = AnswerRequest("How do I clear a paper jam?", documents=[PRINTER, TEA])
    llm, router = script({"answer/rag": [{"answer": "Open the cover.", "procedures": ["Open it"]}]})
    answer = make_answerer("rag", llm=llm, memory=None).answer(request)
    retrieve = next(s for s in answer.trace.stages if s.name == "retrieve")
    assert retrieve.details["kind"] == "procedure"
    assert retrieve.details["hits"][0]["label"].lower().startswith("clear a paper jam")

    llm, _ = script({"lu/generate": [{"answer": "Clear it.", "procedures": ["Pull the paper"]}],
                     "lu/select": [{"keep": [1], "ask": ""}] * 3})
    answer = make_answerer("logic-units", llm=llm, memory=None).answer(request)
    retrieve = next(s for s in answer.trace.stages if s.name == "retrieve")
    assert retrieve.details["kind"] == "logic_unit"
    assert {s.doc_id for s in answer.sources} <= {"help/printer.md", "cooking/tea.md"}


def test_a_request_without_memory_or_documents_is_refused():
    with pytest.raises(ValueError, match="needs a memory or the request's documents"):
        make_answerer("extractive").answer(AnswerRequest("clear a paper jam"))


@pytest.mark.slow
def test_given_documents_use_dense_retrieval_when_the_embedder_is_installed(conversation,
                                                                            conversation_documents):
    retriever = Retriever(None, conversation_documents)
    hits, kind = retriever.search(conversation.question, k=5, kind="logic_unit")
    assert kind == "logic_unit" and {h.method for h in hits} == {"hybrid"}
    assert {h.unit.meta["doc_id"] for h in hits} <= {d.doc_id for d in conversation_documents}
    assert Retriever(None, list(reversed(conversation_documents))).memory is retriever.memory


@pytest.mark.slow
def test_a_kind_the_given_memory_lacks_is_built_when_first_asked_for():
    """Semantic chunks are no default kind; over given documents they are built on demand with
    the real embedding model, and the memory with them is the cached one for those kinds."""
    retriever = Retriever(None, [PRINTER, TEA])
    assert "semantic_chunk" not in retriever.memory.kinds
    hits, kind = retriever.search("clear a paper jam", k=3, kind="semantic_chunk")
    assert kind == "semantic_chunk" and hits and {h.unit.kind for h in hits} == {"semantic_chunk"}
    assert "paper jam" in hits[0].unit.render().lower()
    assert retriever.memory is given_memory([PRINTER, TEA], kinds=["semantic_chunk"])
    assert given_memory([PRINTER, TEA]) is not retriever.memory  # the default kinds stay as they were
    # a kind written by a model is never built here: the search falls back to chunks
    _, kind = retriever.search("clear a paper jam", k=3, kind="proposition")
    assert kind == "chunk"


def test_a_rank_among_few_units_of_a_kind_counts_for_less_in_a_memory_not_over_given_documents(lexical):
    """A memory with 3 procedures ranks them loosely (3 / RANKED_AMONG); one with RANKED_AMONG
    or more, fully; over given documents every rank counts fully."""
    procedures = [Procedure("", f"Task {i}", ["Open the settings."], {"doc_id": f"d{i}.md"}) for i in range(3)]
    assert Retriever(MemoryDouble(procedures)).rank_weight("procedure") == pytest.approx(3 / RANKED_AMONG)
    many = [Procedure("", f"Task {i}", ["Open the settings."], {"doc_id": f"d{i}.md"}) for i in range(RANKED_AMONG)]
    assert Retriever(MemoryDouble(many)).rank_weight("procedure") == 1.0
    assert Retriever(None, [PRINTER, TEA]).rank_weight("procedure") == 1.0
