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


# --- protocol modes ---------------------------------------------------------------------------

PAPER_REPLY = ("Answer: Clear the jam, then restart.\nProcedural instructions:\n"
               + "\n".join(f"{i}. Step number {i} of the fix" for i in range(1, 37)))


def test_paper_mode_gives_whole_documents_and_history_and_reads_36_steps(script):
    llm, _ = script({"answer/protocol": [PAPER_REPLY]})
    long_doc = Document("d", "Long", " ".join(f"w{i}" for i in range(3000)), {})
    history = [(f"question {i} " + "x" * 900, f"answer {i}") for i in range(10)]
    answerer = make_answerer("inscoqa", llm=llm, memory=None, protocol="paper")
    answer = answerer.answer(AnswerRequest("q?", history=history, documents=[long_doc, DOCS[0]]))
    call = llm.calls[0]
    assert call.schema is None and call.params["max_tokens"] == 1536
    assert "w2999" in call.prompt and "question 0 " + "x" * 900 in call.prompt
    assert len(answer.procedures) == 36
    docs = answer.trace.stages[0].details
    assert docs["truncated"] is False and docs["token_count"].startswith("estimate")
    assert answer.trace.stages[-1].details["calls"][0]["reader"] == "text-strict"
    assert answerer.config()["protocol"] == "paper"
    assert answerer.config() != make_answerer("inscoqa", llm=llm, memory=None).config()


def test_paper_mode_cuts_only_to_fit_the_context_window(script):
    llm, _ = script({"answer/protocol": [PAPER_REPLY]})
    long_doc = Document("d", "Long", " ".join(f"w{i}" for i in range(6000)), {})
    answer = make_answerer("inscoqa", llm=llm, memory=None, protocol="paper",
                           context_tokens=4096, max_tokens=1024).answer(
        AnswerRequest("q?", history=[("first question", "first answer")],
                      documents=[long_doc, DOCS[1]]))
    details = answer.trace.stages[0].details
    assert details["truncated"] is True
    assert details["prompt_tokens"] <= details["budget_tokens"] == 4096 - 1024 - 64
    prompt = llm.calls[0].prompt
    assert "w0 " in prompt and "w5999" not in prompt
    assert "Open Settings" in prompt  # the short document stays whole
    assert "first question" in prompt


def test_paper_mode_is_strict_no_lenient_or_json_reading(script):
    llm, _ = script({"answer/protocol": ["1. Turn it off\n2. Open the cover"]})
    with pytest.raises(ReplyParseError, match="Answer:"):
        make_answerer("inscoqa", llm=llm, memory=None, protocol="paper").answer(
            AnswerRequest("q?", documents=DOCS))
    llm, _ = script({"answer/protocol": ['{"answer": "x", "procedures": ["a"]}']})
    with pytest.raises(ReplyParseError):
        make_answerer("inscoqa", llm=llm, memory=None, protocol="paper").answer(
            AnswerRequest("q?", documents=DOCS))


def test_protocol_mode_is_checked():
    with pytest.raises(ValueError, match="protocol='exact'"):
        make_answerer("inscoqa", llm=object(), memory=None, protocol="exact")


def test_share_words_keeps_short_documents_whole():
    from procmem.answerers.protocol import share_words

    assert share_words([100, 5000, 3000], 2100) == [100, 1000, 1000]
    assert share_words([100, 200], 1000) == [100, 200]
    assert share_words([1000, 1000], 50) == [60, 60]


def test_token_counter_uses_the_engines_tokenize_endpoint():
    """The counter asks llama-cpp-python's /extras/tokenize, or vLLM's /tokenize."""
    import json
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    from procmem.answerers.protocol import TokenCounter

    seen: list[str] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):  # noqa: N802
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            seen.append(self.path)
            if self.path != "/tokenize":
                self.send_response(404)
                self.end_headers()
                return
            data = json.dumps({"count": len(body["prompt"]), "tokens": []}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self):  # noqa: N802
            seen.append(self.path)
            data = json.dumps({"data": [{"id": "m", "max_model_len": 32768}]}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        class Client:
            base_url = f"http://127.0.0.1:{server.server_port}"
            model = "m"

        counter = TokenCounter(Client())
        assert counter.count("hello world") == (11, "/tokenize")
        assert counter.count("abc") == (3, "/tokenize")
        assert seen == ["/extras/tokenize", "/tokenize", "/tokenize"]
        assert counter.context_window() == 32768 == TokenCounter(Client()).context_window()
        assert seen.count("/v1/models") == 1  # asked once per endpoint
    finally:
        server.shutdown()


@pytest.mark.slow
def test_paper_mode_on_the_embedded_engine_counts_with_its_tokenizer(embedded_llm):
    """The real engine: the prompt is counted by its tokenizer, and the strict reader either
    reads both sections or the failure names the missing one (the tiny model may miss it)."""
    from procmem.answerers.protocol import TokenCounter

    tokens, method = TokenCounter(embedded_llm).count("Open the rear cover of the printer.")
    assert method == "/extras/tokenize" and 5 <= tokens <= 20
    answerer = make_answerer("inscoqa", llm=embedded_llm, memory=None, protocol="paper",
                             max_tokens=200)
    try:
        answer = answerer.answer(AnswerRequest("How do I clear a paper jam?", documents=DOCS))
    except ReplyParseError as exc:
        assert "Answer:" in str(exc) or "Procedural instructions" in str(exc)
    else:
        assert answer.procedures and answer.answer
        assert answer.trace.stages[0].details["token_count"] == "/extras/tokenize"
