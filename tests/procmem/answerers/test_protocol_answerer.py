"""The InsCoQA answering protocol with a scripted model: given documents or the memory."""

from __future__ import annotations

import pytest

from inscoqa.corpus.document import Document
from procmem.answerers import AnswerRequest, make_answerer
from procmem.answerers.parsing import ReplyParseError
from serving.prompts import load_prompt

DOCS = [
    Document("help/printer.page", "Printer problems",
             "# Printer problems\n\n## Paper jam\n\n1. Turn the printer off.\n2. Open the rear cover.",
             {}),
    Document("help/driver.page", "Install a driver", "1. Open Settings.\n2. Add the printer.", {}),
]
REPLY = {"answer": "Clear the jam.", "procedures": ["Turn the printer off", "Open the rear cover"]}


def test_given_documents_are_in_the_prompt_and_are_the_sources(script):
    llm, router = script({"answer/protocol": [REPLY]})
    history = [("My printer stopped.", "What does its display say?")]
    answer = make_answerer("inscoqa", llm=llm, memory=None).answer(
        AnswerRequest("It says paper jam. What now?", history=history, documents=DOCS))
    prompt = llm.calls[0].prompt
    assert router.names == ["answer/protocol"]
    assert "## Printer problems" in prompt and "Open the rear cover" in prompt
    assert "User: My printer stopped." in prompt and "It says paper jam. What now?" in prompt
    assert [s.doc_id for s in answer.sources] == ["help/printer.page", "help/driver.page"]
    assert answer.procedures == REPLY["procedures"]
    assert [s.name for s in answer.trace.stages] == ["documents", "generate"]
    assert set(answer.trace.prompt_hashes) == {"answer/protocol", "answer/format_json"}


def test_document_budget_clips_long_documents(script):
    llm, _ = script({"answer/protocol": [REPLY]})
    long_doc = Document("d", "Long", "word " * 5000, {})
    make_answerer("inscoqa", llm=llm, memory=None, context_words=300).answer(
        AnswerRequest("q?", documents=[long_doc]))
    assert llm.calls[0].prompt.count("word") < 400


def test_open_setting_retrieves_from_the_memory(memory, script):
    llm, router = script({"answer/protocol": [REPLY]})
    answer = make_answerer("inscoqa", llm=llm, memory=memory).answer(
        AnswerRequest("Why is my green tea bitter?"))
    assert memory.searches[0]["kind"] == "chunk" and memory.searches[0]["k"] == 5
    assert "water is too hot" in llm.calls[0].prompt
    assert answer.sources[0].snippet.startswith("Green tea tastes bitter")


def test_plain_text_protocol_reply(script):
    llm, _ = script({"answer/protocol": [
        "Answer: Clear the jam.\nProcedural instructions:\n1. Turn it off\n2. Open the cover"]})
    answer = make_answerer("inscoqa", llm=llm, memory=None, structured=False).answer(
        AnswerRequest("q?", documents=DOCS))
    assert answer.procedures == ["Turn it off", "Open the cover"]
    assert load_prompt("procmem", "answer/format_text").user in llm.calls[0].prompt
    assert answer.trace.stages[-1].details["calls"][0]["reader"] == "text"


def test_schema_failure_is_read_as_plain_text_and_recorded(script):
    llm, _ = script({"answer/protocol": [
        "Answer: Clear it.\nProcedural instructions:\n1. Turn it off"]})
    answer = make_answerer("inscoqa", llm=llm, memory=None).answer(AnswerRequest("q?", documents=DOCS))
    call = answer.trace.stages[-1].details["calls"][0]
    assert call["reader"] == "text" and "schema" in call["schema_error"]
    assert answer.procedures == ["Turn it off"]


def test_unreadable_reply_is_a_typed_error_naming_the_expected_shape(script):
    llm, _ = script({"answer/protocol": ["I am not sure."]})
    with pytest.raises(ReplyParseError, match=r"answer, procedures"):
        make_answerer("inscoqa", llm=llm, memory=None).answer(AnswerRequest("q?", documents=DOCS))


def test_needs_documents_or_memory(script):
    llm, _ = script({})
    with pytest.raises(ValueError, match="memory or the request's documents"):
        make_answerer("inscoqa", llm=llm, memory=None).answer(AnswerRequest("q?"))
    with pytest.raises(ValueError, match="empty question"):
        make_answerer("inscoqa", llm=llm, memory=None).answer(AnswerRequest("  ", documents=DOCS))
