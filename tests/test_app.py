"""The demo's callbacks, without a browser: replies, streaming, engine failures, follow-ups,
uploads.

Fast tests use the scripted model and a small file-backed memory double (so a failed upload can
be checked against what is on disk); the slow ones use the real memory and answerers.
"""

from __future__ import annotations

import json
from contextlib import nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

import app
from procmem.answerers.base import Answer, AnswerRequest, Source, Trace, record_call
from serving.config import ServingConfig
from serving.errors import LLMConnectionError
from serving.scripted import ScriptedLLM, unreachable_llm

FIXTURES = Path(__file__).parent / "app_fixtures"


# --------------------------------------------------------------------------- doubles


@dataclass
class FileMemory:
    """A memory double that keeps documents in a JSON file, like a saved memory directory."""

    documents: dict[str, dict[str, str]] = field(default_factory=dict)
    fail_on_add: bool = False

    @classmethod
    def load(cls, path: Path) -> FileMemory:
        return cls(json.loads((path / "docs.json").read_text()))

    def save(self, path: Path) -> None:
        path.mkdir(parents=True, exist_ok=True)
        (path / "docs.json").write_text(json.dumps(self.documents))

    def doc_ids(self) -> list[str]:
        return sorted(self.documents)

    def units(self, kind: str | None = None) -> list[Any]:
        return []

    def add_documents(self, docs: list[Any], *, llm: Any = None, progress: bool = False) -> Any:
        for doc in docs:
            self.documents[doc.doc_id] = {"title": doc.title, "text": doc.text}
            if FileMemory.fail_on_add:
                raise RuntimeError("index write failed")
        return None


@dataclass
class StepsAnswerer:
    """Asks the model once and returns its reply as the answer, with fixed steps and sources."""

    llm: Any
    memory: Any
    name: str = "steps"
    follow_ups: list[str] = field(default_factory=list)
    clarification: str | None = None
    requests: list[AnswerRequest] = field(default_factory=list)

    def answer(self, request: AnswerRequest) -> Answer:
        self.requests.append(request)
        trace = Trace()
        with trace.stage("generate", rewritten_queries=[request.question]) as stage:
            result = record_call(stage, self.llm.chat(
                [{"role": "user", "content": request.question}]))
        return Answer(
            answer=result.text,
            procedures=["Open Settings. [1]", "2. Choose Wi-Fi. [1]", "Pick the network. [3]"],
            sources=[Source("net-wireless-connect.page", "Connect to a wireless network",
                            "Open the system menu and select Wi-Fi.", "lu-1", 0.9),
                     Source("banana-bread.md", "Banana Bread", "Mash the bananas.", "p-1", 0.2),
                     Source("net-wireless-connect.page", "Connect to a wireless network",
                            "Click the name of the network you want.", "lu-2", 0.8)],
            trace=trace, follow_ups=list(self.follow_ups), clarification=self.clarification)

    def config(self) -> dict[str, Any]:
        return {"name": self.name}


@dataclass
class FromDocuments:
    """An answerer that needs no model (like the extractive one)."""

    name: str = "extractive"

    def answer(self, request: AnswerRequest) -> Answer:
        return Answer("Found it in the documents.", ["Do this. [1]"],
                      [Source("doc.md", "The document", "Do this.")])


class Factory:
    """An answerer factory that remembers the model-based answerers it made; "extractive"
    makes one that needs no model."""

    def __init__(self, **params: Any) -> None:
        self.params = params
        self.made: list[StepsAnswerer] = []

    def __call__(self, name: str, *, llm: Any, memory: Any) -> Any:
        if name == "extractive":
            return FromDocuments()
        answerer = StepsAnswerer(llm, memory, name=name, **self.params)
        self.made.append(answerer)
        return answerer


def make_service(tmp_path: Path, llm: Any = None, *, factory: Any = None,
                 connect: Any = None) -> app.DemoService:
    path = tmp_path / "memory"
    FileMemory({"kept.md": {"title": "Kept", "text": "# Kept"}}).save(path)
    memory = app.MemoryHolder.of(FileMemory.load(path), path, loader=FileMemory.load)
    engines = app.EngineProvider(ServingConfig(), connect=connect or (lambda c: nullcontext(llm)))
    config = app.DemoConfig(stream_delay_s=0.0, max_upload_kb=4)
    return app.DemoService(memory, engines, config=config, answerer_factory=factory or Factory())


def final(states: Any) -> app.ChatState:
    *_, last = list(states)
    return last


# --------------------------------------------------------------------------- replies


def test_reply_streams_answer_then_shows_steps_sources_and_trace(tmp_path: Path) -> None:
    llm = ScriptedLLM(["Open the Wi-Fi menu in Settings and pick your network from the list."])
    service = make_service(tmp_path, llm)
    state = app.ChatState()
    settings = app.Settings("steps", temperature=0.3)

    replies = [s.messages[-1]["content"] for s in service.respond("How do I join Wi-Fi?", state,
                                                                  settings)]

    assert replies[0] == "_Thinking …_"
    streamed = replies[1:-1]
    assert len(streamed) > 2 and all(a != b for a, b in zip(streamed, streamed[1:], strict=False))
    assert all(replies[-1].startswith(piece) for piece in streamed)
    reply = replies[-1]
    assert reply.startswith("Open the Wi-Fi menu")
    steps = "1. Open Settings. [1]\n2. Choose Wi-Fi. [1]\n3. Pick the network. [3]"
    assert steps in reply
    assert state.steps == steps
    # sources are numbered as the steps cite them, grouped by document; uncited ones come last
    assert reply.endswith("**Sources:** [1][3] Connect to a wireless network")
    assert state.sources.splitlines() == [
        "**Connect to a wireless network** · `net-wireless-connect.page`", "",
        "> **[1]** Open the system menu and select Wi-Fi.", "",
        "> **[3]** Click the name of the network you want.", "",
        "_Also retrieved:_ [2] Banana Bread"]
    assert state.trace["answerer"] == "steps"
    assert state.trace["model"] == "scripted"
    assert state.trace["stages"][0]["details"]["rewritten_queries"] == ["How do I join Wi-Fi?"]
    assert state.trace["usage"]["calls"] == 1
    assert llm.calls[0].params["temperature"] == 0.3  # the temperature chosen in the page
    assert state.messages[0] == {"role": "user", "content": "How do I join Wi-Fi?"}


def test_angle_brackets_from_a_model_stay_visible() -> None:
    answer = Answer("Use <Ctrl> & <Alt>.", ["Press <Ctrl>+<Alt>+<T>."],
                    [Source("keys.page", "Keys <and> shortcuts", "Press <Ctrl>.")])
    assert app.render_steps(answer.procedures) == "1. Press &lt;Ctrl&gt;+&lt;Alt&gt;+&lt;T&gt;."
    assert app.render_reply(answer).startswith("Use &lt;Ctrl&gt; &amp; &lt;Alt&gt;.")
    assert "> **[1]** Press &lt;Ctrl&gt;." in app.render_sources(answer)
    assert "**Keys &lt;and&gt; shortcuts**" in app.render_sources(answer)


def test_each_snippet_names_its_section_when_its_source_has_one() -> None:
    """A one-page manual's sources are all one document: their sections tell them apart."""
    manual = "The Claws Mail User Manual"
    sources = [Source("en/manual.html", manual, "To add a POP account: 1. Open the menu.", "p1", 0.03,
                      "Account customisation > Account types"),
               Source("en/manual.html", manual, "To switch accounts: 1. Pick one.", "p2", 0.02,
                      "Account customisation > <Multiple> accounts"),
               Source("en/manual.html", manual, "Welcome.", "c1", 0.01)]
    text = app.render_sources(Answer("Add it.", ["Open the menu. [1]", "Pick one. [2]", "Read. [3]"],
                                     sources))
    assert text.count(f"**{manual}** · `en/manual.html`") == 1
    assert "> **[1]** *Account customisation &gt; Account types* — To add a POP account: 1. Open the menu." \
        in text
    assert "> **[2]** *Account customisation &gt; &lt;Multiple&gt; accounts* — To switch accounts" in text
    assert "> **[3]** Welcome." in text  # no section, the snippet alone


def test_grounded_steps_show_their_snippet_and_ungrounded_ones_a_marker() -> None:
    from procmem.grounding import StepGrounding

    snippet = "Open the system menu and select <Wi-Fi>."
    answer = Answer("Join it.", ["Open the menu, choose <Wi-Fi>. [1]", "Sing to the router."],
                    [Source("net-wireless-connect.page", "Connect to a wireless network",
                            snippet, "lu-1", 0.9)],
                    groundings=[StepGrounding(0, "lu-1", snippet, 0, len(snippet), "embedding",
                                              0.81, 0.4, 0.19), None])
    assert app.render_grounded_steps(answer).splitlines() == [
        "1. Open the menu, choose &lt;Wi-Fi&gt;. [1]",
        "   > “Open the system menu and select &lt;Wi-Fi&gt;.” — **Connect to a wireless "
        "network** (embedding similarity 0.81)",
        f"2. Sing to the router. {app.UNGROUNDED}"]
    steps = app.render_reply(answer).split("**Steps**\n\n", 1)[1].split("\n\n", 1)[0]
    assert steps.splitlines() == ["1. Open the menu, choose &lt;Wi-Fi&gt;. [1]",
                                  f"2. Sing to the router. {app.UNGROUNDED}"]
    answer.groundings = None  # steps that were not checked carry no marker
    assert app.UNGROUNDED not in app.render_grounded_steps(answer) + app.render_reply(answer)


def test_a_slow_answerer_shows_how_long_it_has_been_thinking(tmp_path: Path) -> None:
    import threading

    release = threading.Event()

    def slow_reply(messages: Any, schema: Any) -> str:
        release.wait(10)
        return "Done."

    service = make_service(tmp_path, ScriptedLLM(slow_reply))
    service.config.thinking_tick_s = 0.01
    replies = service.respond("How?", app.ChatState(), app.Settings("steps"))
    assert next(replies).messages[-1]["content"] == "_Thinking …_"
    ticking = next(replies).messages[-1]["content"]
    assert ticking.startswith("_Thinking … ") and ticking.endswith(" s_")
    release.set()
    assert final(replies).messages[-1]["content"].startswith("Done.")


def test_second_turn_sees_the_first_one_as_history(tmp_path: Path) -> None:
    factory = Factory()
    service = make_service(tmp_path, ScriptedLLM(["First answer.", "Second answer."]),
                           factory=factory)
    state = app.ChatState()
    final(service.respond("How do I join Wi-Fi?", state, app.Settings("steps")))
    final(service.respond("And a hidden network?", state, app.Settings("steps")))

    # the history holds the steps the user was given, without their citations
    given = "1. Open Settings.\n2. 2. Choose Wi-Fi.\n3. Pick the network."
    assert factory.made[1].requests[0].history == [("How do I join Wi-Fi?", f"First answer.\n{given}")]
    assert [m["role"] for m in state.messages] == ["user", "assistant"] * 2
    assert state.turns[-1] == ("And a hidden network?", f"Second answer.\n{given}")


def test_empty_question_changes_nothing(tmp_path: Path) -> None:
    service = make_service(tmp_path, ScriptedLLM([]))
    state = app.ChatState()
    assert final(service.respond("   ", state, app.Settings("steps"))).messages == []


def test_page_outputs_follow_the_order_of_the_page(tmp_path: Path) -> None:
    state = app.ChatState(messages=[{"role": "user", "content": "q"}], steps="1. a",
                          sources="**[1] T**", trace={"stages": []}, follow_ups=["It worked"])
    outputs = app.page_outputs(state, "engine: ok")
    assert outputs[:8] == (state.messages, state, "", "1. a", "**[1] T**", "", {"stages": []},
                           "engine: ok")
    assert len(outputs) == 8 + app.N_FOLLOW_UP_BUTTONS


def test_trace_summary_has_a_row_per_stage_and_a_total(tmp_path: Path) -> None:
    service = make_service(tmp_path, ScriptedLLM(["Use the menu."]))
    state = final(service.respond("How?", app.ChatState(), app.Settings("steps")))
    summary = app.render_trace_summary(state.trace).splitlines()
    assert summary[0].startswith("| stage | seconds | calls | tokens |")
    assert summary[2].startswith("| generate |")
    assert 'rewritten_queries: ["How?"]' in summary[2]
    assert summary[-1].startswith("| **total** |")
    assert len(summary) == 4


# --------------------------------------------------------------------------- the engine


def test_engine_down_gives_a_clear_message_and_the_extractive_answer(tmp_path: Path) -> None:
    service = make_service(tmp_path, unreachable_llm())
    state = final(service.respond("How do I join Wi-Fi?", app.ChatState(), app.Settings("rag")))
    reply = state.messages[-1]["content"]
    assert reply.startswith("⚠ **The chat engine is not reachable**, so the `rag` answerer "
                            "cannot reply.")
    assert "Details: engine unreachable" in reply
    assert "Below is the `extractive` answer" in reply
    assert reply.endswith("Found it in the documents.\n\n**Steps**\n\n1. Do this. [1]\n\n"
                          "**Sources:** [1] The document")
    assert "Traceback" not in reply
    assert state.trace["answerer"] == "extractive (for rag)"
    assert state.turns == [("How do I join Wi-Fi?", "Found it in the documents.\n1. Do this.")]
    assert service.engines.status == "⚠ engine failure: engine unreachable"


def test_engine_down_without_a_fallback_still_explains(tmp_path: Path) -> None:
    def no_extractive(name: str, *, llm: Any, memory: Any) -> Any:
        if name == "extractive":
            raise KeyError("unknown answerer 'extractive'")
        return StepsAnswerer(llm, memory, name=name)

    service = make_service(tmp_path, unreachable_llm(), factory=no_extractive)
    state = final(service.respond("How do I join Wi-Fi?", app.ChatState(), app.Settings("rag")))
    reply = state.messages[-1]["content"]
    assert reply.startswith("⚠ **The chat engine is not reachable**")
    assert "`extractive` answerer works without an engine: choose it" in reply
    assert state.turns == []  # a failed reply is not history


def test_a_failing_answerer_is_reported_in_the_chat(tmp_path: Path) -> None:
    def broken(name: str, *, llm: Any, memory: Any) -> Any:
        raise KeyError("unknown answerer 'nope'")

    service = make_service(tmp_path, factory=broken)
    state = final(service.respond("How?", app.ChatState(), app.Settings("nope")))
    assert state.messages[-1]["content"] == (
        "⚠ **The `nope` answerer failed:** KeyError: \"unknown answerer 'nope'\"")


def test_engine_that_cannot_start_is_reported_as_down(tmp_path: Path) -> None:
    def cannot_start(config: ServingConfig) -> Any:
        raise RuntimeError("llama.cpp server exited with status 1")

    service = make_service(tmp_path, connect=cannot_start)
    state = final(service.respond("How do I join Wi-Fi?", app.ChatState(), app.Settings("aag")))
    assert state.messages[-1]["content"].startswith("⚠ **The chat engine is not reachable**")
    assert "llama.cpp server exited with status 1" in state.messages[-1]["content"]
    assert service.engines.status.startswith("⚠")


def test_answerer_without_a_model_never_starts_the_engine(tmp_path: Path) -> None:
    started: list[ServingConfig] = []

    def connect(config: ServingConfig) -> Any:
        started.append(config)
        raise LLMConnectionError("engine unreachable")

    service = make_service(tmp_path, connect=connect)
    state = final(service.respond("How?", app.ChatState(), app.Settings("extractive")))
    assert state.messages[-1]["content"].startswith("Found it in the documents.")
    assert started == []


def test_base_url_from_the_page_opens_an_external_client(tmp_path: Path) -> None:
    opened: list[ServingConfig] = []

    def connect(config: ServingConfig) -> Any:
        opened.append(config)
        return nullcontext(ScriptedLLM(["ok"]))

    service = make_service(tmp_path, connect=connect)
    settings = app.Settings("steps", base_url="http://gpu-host:8000/v1", model="qwen")
    final(service.respond("How?", app.ChatState(), settings))
    final(service.respond("And then?", app.ChatState(), settings))  # the client is reused
    assert [(c.engine, c.base_url, c.model) for c in opened] == [
        ("external", "http://gpu-host:8000/v1", "qwen")]


# --------------------------------------------------------------------------- logic-unit mode


def test_follow_ups_become_buttons_that_continue_the_conversation(tmp_path: Path) -> None:
    factory = Factory(follow_ups=["That worked", "I still get error 0x80070005"])
    service = make_service(tmp_path, ScriptedLLM(["Restart the service.", "Then reinstall."]),
                           factory=factory)
    state = final(service.respond("Update fails", app.ChatState(), app.Settings("logic-units")))

    buttons = app.follow_up_buttons(state.follow_ups)
    assert [(b["visible"], b["value"]) for b in buttons] == [
        (True, "That worked"), (True, "I still get error 0x80070005"), (False, ""), (False, "")]
    assert "Pick an outcome below" in state.messages[-1]["content"]

    clicked = buttons[1]["value"]  # a button's click sends its label as the next question
    state = final(service.respond(clicked, state, app.Settings("logic-units")))
    request = factory.made[1].requests[0]
    assert request.question == "I still get error 0x80070005"
    assert request.history == [("Update fails", "Restart the service.\n1. Open Settings.\n"
                                                "2. 2. Choose Wi-Fi.\n3. Pick the network.")]
    assert state.messages[-2] == {"role": "user", "content": "I still get error 0x80070005"}


def test_more_outcomes_than_slots_fill_every_slot() -> None:
    labels = [f"outcome {i}" for i in range(app.N_FOLLOW_UP_BUTTONS + 2)]
    buttons = app.follow_up_buttons(labels)
    assert [b["value"] for b in buttons] == labels[: app.N_FOLLOW_UP_BUTTONS]
    assert all(b["visible"] for b in buttons)
    assert not any(b["visible"] for b in app.follow_up_buttons([]))


def test_clarification_is_asked_and_kept_in_history(tmp_path: Path) -> None:
    factory = Factory(clarification="Are you signed in as an administrator?")
    service = make_service(tmp_path, ScriptedLLM(["Installing needs admin rights."]),
                           factory=factory)
    state = final(service.respond("Install the printer", app.ChatState(),
                                  app.Settings("logic-units")))
    assert ("**Question for you:** Are you signed in as an administrator?"
            in state.messages[-1]["content"])
    assert state.turns[-1][1].endswith("Are you signed in as an administrator?")


# --------------------------------------------------------------------------- uploads


def saved_doc_ids(service: app.DemoService) -> list[str]:
    return FileMemory.load(service.memory.path).doc_ids()


def test_upload_of_a_good_file_adds_it_and_saves_the_memory(tmp_path: Path) -> None:
    service = make_service(tmp_path)
    message = service.upload([str(FIXTURES / "descale-espresso-machine.md")])
    assert message == "✅ Added to the memory: “Descale an espresso machine”."
    expected = ["kept.md", "upload/descale-espresso-machine.md"]
    assert service.memory.memory.doc_ids() == expected
    assert saved_doc_ids(service) == expected


@pytest.mark.parametrize(("name", "reason"), [
    ("manual.pdf", "unsupported file type '.pdf'"),
    ("broken.page", "cannot read it as mallard: XML parse error"),
])
def test_upload_of_a_bad_file_is_explained_and_changes_nothing(tmp_path: Path, name: str,
                                                               reason: str) -> None:
    service = make_service(tmp_path)
    before = service.memory.memory
    message = service.upload([str(FIXTURES / name)])
    assert message.startswith(f"⚠ `{name}`: {reason}")
    assert service.memory.memory is before
    assert before.doc_ids() == saved_doc_ids(service) == ["kept.md"]


def test_upload_of_docbook_xml_adds_it_and_other_xml_is_explained(tmp_path: Path) -> None:
    service = make_service(tmp_path)
    chapter = tmp_path / "sheets.xml"
    chapter.write_text("<sect1 id='s'><title>Renaming a Worksheet</title><procedure><step><para>Choose "
                       "<menuchoice><guimenu>Edit</guimenu><guimenuitem>Rename</guimenuitem></menuchoice>."
                       "</para></step><step><para>Type the new name.</para></step></procedure></sect1>")
    assert service.upload([str(chapter)]) == "✅ Added to the memory: “Renaming a Worksheet”."
    sitemap = tmp_path / "sitemap.xml"
    sitemap.write_text("<?xml version='1.0'?><urlset><url><loc>https://example.org/</loc></url></urlset>")
    message = service.upload([str(sitemap)])
    assert message.startswith("⚠ `sitemap.xml`: cannot read it as docbook: not DocBook XML: root element is <urlset>")
    assert saved_doc_ids(service) == ["kept.md", "upload/sheets.xml"]


def test_upload_over_the_size_limit_or_empty_is_refused(tmp_path: Path) -> None:
    service = make_service(tmp_path)  # limit: 4 KB
    big = tmp_path / "big.md"
    big.write_text("# Big\n\n" + "word " * 2000)
    empty = tmp_path / "empty.txt"
    empty.touch()
    message = service.upload([str(big), str(empty)])
    assert "`big.md`: 10 KB is over the 4 KB limit" in message
    assert "`empty.txt`: the file is empty" in message
    assert saved_doc_ids(service) == ["kept.md"]


def test_good_files_are_added_even_when_another_one_is_refused(tmp_path: Path) -> None:
    service = make_service(tmp_path)
    message = service.upload([str(FIXTURES / "manual.pdf"),
                              str(FIXTURES / "descale-espresso-machine.md")])
    assert message.splitlines()[0] == "✅ Added to the memory: “Descale an espresso machine”."
    assert "⚠ `manual.pdf`: unsupported file type '.pdf'" in message
    assert "upload/descale-espresso-machine.md" in saved_doc_ids(service)


def test_failure_while_adding_leaves_memory_in_use_and_on_disk_unchanged(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    service = make_service(tmp_path)
    before = service.memory.memory
    monkeypatch.setattr(FileMemory, "fail_on_add", True)
    message = service.upload([str(FIXTURES / "descale-espresso-machine.md")])
    assert message == ("⚠ Nothing added, the memory is unchanged: RuntimeError: "
                       "index write failed")
    assert service.memory.memory is before
    assert before.doc_ids() == saved_doc_ids(service) == ["kept.md"]


# --------------------------------------------------------------------------- memory loading


def test_chat_and_upload_wait_for_the_memory(tmp_path: Path) -> None:
    import threading

    release = threading.Event()

    def slow_loader(path: Path) -> FileMemory:
        release.wait(10)
        return FileMemory({"a.md": {"title": "A", "text": "# A"}})

    holder = app.MemoryHolder(tmp_path, slow_loader)
    service = app.DemoService(holder, app.EngineProvider(ServingConfig()),
                              answerer_factory=Factory())
    holder.start()
    assert holder.status().startswith("⏳ Loading the memory")
    state = final(service.respond("How?", app.ChatState(), app.Settings("steps")))
    assert state.messages[-1]["content"].startswith("The memory is not ready yet.")
    assert service.upload([str(FIXTURES / "descale-espresso-machine.md")]).startswith(
        "⚠ Nothing added: the memory is not ready.")
    release.set()
    assert holder.wait(10)
    assert holder.status().startswith(f"Memory `{tmp_path}`: 1 documents")


def test_a_memory_that_cannot_load_is_reported(tmp_path: Path) -> None:
    holder = app.MemoryHolder(tmp_path / "nowhere", app.load_memory)
    holder.start()
    assert holder.wait(60)
    assert holder.memory is None
    assert "no memory here; build one with `inscoqa memory build" in holder.status()


# --------------------------------------------------------------------------- the page and start-up


def test_page_has_the_stable_element_ids(tmp_path: Path) -> None:
    page = app.build_app(make_service(tmp_path))
    ids = {block.elem_id for block in page.blocks.values() if block.elem_id}
    expected = {"question", "send", "answerer", "chat", "steps", "sources", "trace", "upload",
                "upload-status", "memory-status", "engine-status", "temperature", "base-url",
                "model", *(f"followup-{i}" for i in range(app.N_FOLLOW_UP_BUTTONS))}
    assert expected <= ids


def test_start_up_switches_off_telemetry_and_the_hub() -> None:
    import os

    assert os.environ["GRADIO_ANALYTICS_ENABLED"] == "False"
    assert os.environ["HF_HUB_OFFLINE"] == "1"
    assert {"127.0.0.1", "localhost"} <= set(os.environ["NO_PROXY"].split(","))


def test_missing_memory_dir_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                             ) -> None:
    from inscoqa.cli import main

    assert main(["demo", "--memory", str(tmp_path / "none")]) == 2
    assert "no memory here; build one with `inscoqa memory build" in capsys.readouterr().err


def test_bad_configuration_is_a_clear_error(monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("INSCOQA_DEMO_MAX_UPLOAD_KB", "lots")
    assert app.main([]) == 2
    assert "INSCOQA_DEMO_MAX_UPLOAD_KB: expected int, got 'lots'" in capsys.readouterr().err


def test_engine_down_with_the_real_client_on_a_closed_port(tmp_path: Path) -> None:
    import socket

    with socket.socket() as sock:  # a port nobody listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    config = ServingConfig(engine="external", base_url=f"http://127.0.0.1:{port}/v1", model="m",
                           retries=0, cache_dir=str(tmp_path / "cache"))
    service = make_service(tmp_path)
    service.engines = app.EngineProvider(config)
    try:
        state = final(service.respond("How?", app.ChatState(), app.Settings("rag")))
    finally:
        service.engines.close()
    reply = state.messages[-1]["content"]
    assert "chat engine is not reachable" in reply
    assert f"127.0.0.1:{port}" in reply


# --------------------------------------------------------------------------- the real memory

REAL_DOCS = ["gnome-help/net-wireless-connect.page", "gnome-help/net-wireless-hidden.page",
             "based-cooking/banana-bread.md"]


@pytest.fixture(scope="module")
def saved_memory(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real memory over three bundled documents, saved once; tests work on copies."""
    from inscoqa.bundled import corpus_index
    from procmem.memory import build_memory

    index = corpus_index()
    path = tmp_path_factory.mktemp("app-memory") / "memory"
    build_memory([index.get(d) for d in REAL_DOCS], progress=False).save(path)
    return path


@pytest.fixture
def real_service(saved_memory: Path, tmp_path: Path) -> app.DemoService:
    import shutil

    from procmem.memory import Memory

    path = tmp_path / "memory"
    shutil.copytree(saved_memory, path)
    holder = app.MemoryHolder.of(Memory.load(path), path)
    engines = app.EngineProvider(ServingConfig(), connect=lambda c: nullcontext(unreachable_llm()))
    return app.DemoService(holder, engines, config=app.DemoConfig(stream_delay_s=0.0))


def unit_ids_on_disk(path: Path) -> list[str]:
    from procmem.memory import Memory

    return sorted(u.id for u in Memory.load(path).units())


@pytest.mark.slow
def test_real_extractive_answerer_over_a_real_memory_two_turns(
        real_service: app.DemoService) -> None:
    state = app.ChatState()
    first = final(real_service.respond("How do I connect to a wireless network?", state,
                                       app.Settings("extractive"))).messages[-1]["content"]
    assert "**Steps**\n\n1. " in first
    assert "Connect to a wireless network" in state.sources
    second = final(real_service.respond("What if the network is hidden?", state,
                                        app.Settings("extractive"))).messages[-1]["content"]
    assert "**Steps**\n\n1. " in second
    assert "Connect to a hidden wireless network" in state.sources
    assert [q for q, _ in state.turns] == ["How do I connect to a wireless network?",
                                           "What if the network is hidden?"]
    assert [s["name"] for s in state.trace["stages"]][:2] == ["standalone_query", "retrieve"]
    # the steps are the pages' own: each shows the snippet that grounds it and its source
    assert "   > “" in state.steps and app.UNGROUNDED not in state.steps
    assert "— **Connect to a hidden wireless network**" in state.steps


@pytest.mark.slow
def test_real_model_answerer_with_the_engine_down_falls_back(
        real_service: app.DemoService) -> None:
    state = final(real_service.respond("How do I connect to a wireless network?",
                                       app.ChatState(), app.Settings("rag")))
    reply = state.messages[-1]["content"]
    assert reply.startswith("⚠ **The chat engine is not reachable**, so the `rag` answerer")
    assert "**Steps**\n\n1. " in reply
    assert state.trace["answerer"] == "extractive (for rag)"


@pytest.mark.slow
def test_real_upload_is_searchable_and_saved(real_service: app.DemoService) -> None:
    message = real_service.upload([str(FIXTURES / "descale-espresso-machine.md")])
    assert message == "✅ Added to the memory: “Descale an espresso machine”."
    doc_id = "upload/descale-espresso-machine.md"
    assert doc_id in real_service.memory.memory.doc_ids()
    from procmem.memory import Memory

    assert doc_id in Memory.load(real_service.memory.path).doc_ids()
    state = final(real_service.respond("How do I descale an espresso machine?", app.ChatState(),
                                       app.Settings("extractive")))
    assert "Descale an espresso machine" in state.sources
    assert "citric acid" in state.steps
    again = real_service.upload([str(FIXTURES / "descale-espresso-machine.md")])
    assert again == "ℹ Already in the memory, unchanged: “Descale an espresso machine”."


@pytest.mark.slow
def test_real_failed_uploads_leave_the_memory_as_it_was(
        real_service: app.DemoService, monkeypatch: pytest.MonkeyPatch) -> None:
    from procmem.memory import Memory

    path = real_service.memory.path
    before_units = sorted(u.id for u in real_service.memory.memory.units())
    before_docs = real_service.memory.memory.doc_ids()

    message = real_service.upload([str(FIXTURES / "broken.page"), str(FIXTURES / "manual.pdf")])
    assert "⚠ `broken.page`: cannot read it as mallard: XML parse error" in message
    assert "⚠ `manual.pdf`: unsupported file type '.pdf'" in message

    def embedding_fails(self: Memory, units: list[Any], *, progress: bool) -> int:
        raise MemoryError("no room for the embeddings")

    monkeypatch.setattr(Memory, "_embed", embedding_fails)  # fails after extraction
    message = real_service.upload([str(FIXTURES / "descale-espresso-machine.md")])
    assert message == ("⚠ Nothing added, the memory is unchanged: MemoryError: "
                       "no room for the embeddings")
    monkeypatch.undo()

    in_use = real_service.memory.memory
    assert sorted(u.id for u in in_use.units()) == before_units == unit_ids_on_disk(path)
    assert in_use.doc_ids() == before_docs == Memory.load(path).doc_ids()
    assert in_use.search("descale espresso machine", k=3)[0].unit.meta["doc_id"] in before_docs
