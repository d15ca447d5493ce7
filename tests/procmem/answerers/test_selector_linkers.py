"""The logic-unit selector and linker matching: per-unit verdicts (relevance, prerequisite),
questions back about unknown prerequisites, outcomes matched to linkers by the model with word
overlap as the recorded fallback, and the loop outcome -> linker -> next unit.

Control flow runs on scripted models (and the fake server for the client's re-asks); the last
test runs both calls on the real embedded engine."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from procmem.answerers import AnswerRequest, make_answerer
from procmem.answerers.base import StageRecord, Trace
from procmem.answerers.logic_units import (
    LogicUnitParams,
    judge_outcome,
    outcome_schema,
    outcome_score,
    parse_outcome_text,
    parse_verdicts_text,
    verdict_schema,
)
from serving import LLMClient, ServingConfig
from serving.errors import LLMConnectionError
from serving.fake_server import FakeLLMServer
from serving.prompts import load_prompt

REPLY = {"answer": "Here is how.", "procedures": ["Open Settings", "Add the printer"]}
INSTALL = "Install the printer driver"
TEST_PAGE = "Print a test page"
TROUBLESHOOT = "Troubleshoot printer driver errors"


def stage(answer: Any, name: str) -> Any:
    return next(s for s in answer.trace.stages if s.name == name)


def stages(answer: Any, name: str) -> list[Any]:
    return [s for s in answer.trace.stages if s.name == name]


def units_in_prompt(prompt: str) -> dict[str, int]:
    """Header -> number of each unit listed in a selector prompt."""
    return {header: int(n) for n, header in re.findall(r"Unit (\d+) \[\w+\]\nHeader: (.+)", prompt)}


def verdicts(by_header: dict[str, tuple[bool, str]], ask: str = "") -> Any:
    """A selector reply function: the verdict for each listed unit by its header (units not
    named are judged not relevant)."""

    def reply(messages: list[dict[str, str]], schema: Any) -> dict[str, Any]:
        listed = units_in_prompt(messages[-1]["content"])
        return {"units": [{"unit": n, "relevant": by_header.get(h, (False, "none"))[0],
                           "prerequisite": by_header.get(h, (False, "none"))[1]}
                          for h, n in listed.items()], "ask": ask}

    return reply


def outcome_numbers(prompt: str) -> dict[str, int]:
    """Condition -> number of each outcome listed in an outcome prompt."""
    return {cond: int(n) for n, cond in re.findall(r"^(\d+)\. (.+?) \(after: ", prompt, re.M)}


def choose(by_message: dict[str, str | None]) -> Any:
    """An outcome reply function: for each user message, the condition it reports (0 when it
    names none, or one not listed)."""

    def reply(messages: list[dict[str, str]], schema: Any) -> dict[str, Any]:
        prompt = messages[-1]["content"]
        message = re.search(r"The user's new message: (.+)", prompt).group(1).strip()
        listed = outcome_numbers(prompt)
        condition = by_message.get(message)
        return {"outcome": listed.get(condition, 0) if condition else 0}

    return reply


# --------------------------------------------------------------------------- selector


def test_selector_sees_header_body_and_prerequisite_and_drops_a_failed_prerequisite(memory, script):
    llm, router = script({
        "lu/select": verdicts({INSTALL: (True, "none"), TEST_PAGE: (True, "holds"),
                               TROUBLESHOOT: (True, "fails")}),
        "lu/generate": [REPLY]})
    question = "I am on a Mac. How do I install the printer driver and print a test page?"
    answer = make_answerer("logic-units", llm=llm, memory=memory).answer(AnswerRequest(question))
    assert router.names == ["lu/select", "lu/generate"]
    prompt = llm.calls[0].prompt
    # every retrieved unit is judged, each with its header, body and prerequisite
    assert set(units_in_prompt(prompt)) == {INSTALL, TEST_PAGE, TROUBLESHOOT}
    assert "Body: 1. Open the printer properties. 2. Press Print test page." in prompt
    assert "Prerequisite: The printer driver is installed" in prompt
    assert "Prerequisite: The computer runs Windows" in prompt
    assert "Prerequisite: none" in prompt and question in prompt
    assert llm.calls[0].schema == verdict_schema(3)
    decisions = {d["header"]: d for d in stage(answer, "select").details["decisions"]}
    assert decisions[TROUBLESHOOT]["decision"] == "dropped"
    assert decisions[TROUBLESHOOT]["reason"] == "prerequisite fails"
    assert decisions[TEST_PAGE]["kept"] and decisions[INSTALL]["kept"]
    generate_prompt = llm.calls[1].prompt
    assert "Press Print test page" in generate_prompt
    assert "Run the printer troubleshooter" not in generate_prompt
    assert {s.title for s in answer.sources} == {"Printer problems"}
    assert len(answer.sources) == 2 and answer.clarification is None
    assert answer.procedures == REPLY["procedures"]


def test_irrelevant_units_are_dropped(memory, script):
    llm, _ = script({"lu/select": verdicts({INSTALL: (True, "none")}), "lu/generate": [REPLY]})
    answer = make_answerer("logic-units", llm=llm, memory=memory).answer(
        AnswerRequest("How do I install the printer driver and print a test page?"))
    decisions = {d["header"]: d for d in stage(answer, "select").details["decisions"]}
    assert [h for h, d in decisions.items() if d["kept"]] == [INSTALL]
    assert decisions[TEST_PAGE]["reason"] == "not relevant"
    assert "Press Print test page" not in llm.calls[-1].prompt


def test_unknown_prerequisite_makes_the_answer_a_question_back(memory, script):
    llm, router = script({"lu/select": verdicts({TROUBLESHOOT: (True, "unknown")})})
    answer = make_answerer("logic-units", llm=llm, memory=memory).answer(
        AnswerRequest("How do I troubleshoot printer driver errors?"))
    # no generator call: the turn is the question about the prerequisite
    assert router.names == ["lu/select"]
    assert answer.procedures == [] and answer.follow_ups == []
    assert answer.clarification and "The computer runs Windows" in answer.clarification
    assert answer.clarification.endswith("?")
    select = stage(answer, "select")
    assert select.details["ask_back"] and select.details["question_from"] == "prerequisite"
    assert [d["decision"] for d in select.details["decisions"] if d["header"] == TROUBLESHOOT] == ["in doubt"]
    assert [s.unit_id for s in answer.sources] == [
        d["unit_id"] for d in select.details["decisions"] if d["decision"] == "in doubt"]


def test_the_selectors_own_question_is_asked_alongside_kept_units(memory, script):
    llm, router = script({
        "lu/select": verdicts({INSTALL: (True, "none"), TROUBLESHOOT: (True, "unknown")},
                              ask="Does your computer run Windows?"),
        "lu/generate": [REPLY]})
    answer = make_answerer("logic-units", llm=llm, memory=memory).answer(
        AnswerRequest("How do I install the printer driver, and what if it fails?"))
    assert router.names == ["lu/select", "lu/generate"]
    assert answer.clarification == "Does your computer run Windows?"
    assert answer.procedures == REPLY["procedures"]
    select = stage(answer, "select")
    assert select.details["question_from"] == "selector" and not select.details["ask_back"]
    # the unit in doubt is not used until the user answers
    assert "Run the printer troubleshooter" not in llm.calls[-1].prompt


def test_a_question_back_that_is_no_question_is_replaced(memory, script):
    llm, _ = script({"lu/select": verdicts({TROUBLESHOOT: (True, "unknown")}, ask="true")})
    answer = make_answerer("logic-units", llm=llm, memory=memory).answer(
        AnswerRequest("How do I troubleshoot printer driver errors?"))
    select = stage(answer, "select")
    assert select.details["rejected_question"] == "true"
    assert select.details["question_from"] == "prerequisite"
    assert "The computer runs Windows" in answer.clarification


def test_a_question_without_a_prerequisite_in_doubt_is_ignored(memory, script):
    llm, _ = script({"lu/select": verdicts({INSTALL: (True, "none")}, ask="Which printer model do you have?"),
                     "lu/generate": [REPLY]})
    answer = make_answerer("logic-units", llm=llm, memory=memory).answer(
        AnswerRequest("How do I install the printer driver?"))
    assert answer.clarification is None
    assert stage(answer, "select").details["ignored_question"] == "Which printer model do you have?"


def test_single_turn_mode_answers_from_units_in_doubt_and_asks_alongside(memory, script):
    llm, router = script({"lu/select": verdicts({TROUBLESHOOT: (True, "unknown")}),
                          "lu/generate": [REPLY]})
    answer = make_answerer("logic-units", llm=llm, memory=memory, mode="single").answer(
        AnswerRequest("How do I troubleshoot printer driver errors?"))
    assert router.names[-1] == "lu/generate"
    assert "Run the printer troubleshooter" in llm.calls[-1].prompt
    assert answer.procedures and "The computer runs Windows" in answer.clarification


def test_garbled_selector_reply_falls_back_and_the_trace_says_so(memory, script):
    llm, _ = script({"lu/select": ["Units one and two look fine to me."], "lu/generate": [REPLY]})
    answer = make_answerer("logic-units", llm=llm, memory=memory).answer(
        AnswerRequest("How do I install the printer driver and print a test page?"))
    select = stage(answer, "select")
    assert "kept every unit" in select.details["fallback"]
    assert select.details["calls"][0]["reader"] is None
    assert "schema_error" in select.details["calls"][0]
    assert all(d["kept"] and d["reason"] == "selector reply unreadable"
               for d in select.details["decisions"])
    assert answer.procedures


def test_selector_reply_in_plain_text_is_read(memory, script):
    llm, _ = script({"lu/select": ["1. relevant, none\n2. not relevant, holds\n3. relevant, fails\nAsk: none"],
                     "lu/generate": [REPLY]})
    answer = make_answerer("logic-units", llm=llm, memory=memory, structured=False).answer(
        AnswerRequest("How do I install the printer driver and print a test page?"))
    select = stage(answer, "select")
    assert select.details["calls"][0]["reader"] == "text"
    assert [d["decision"] for d in select.details["decisions"]] == ["kept", "dropped", "dropped"]
    assert 'Write one line per unit' in llm.calls[0].prompt


def test_the_client_re_asks_a_garbled_selector_reply(memory, tmp_path):
    """Real client on the fake server: a garbled selector reply is re-asked by the client and
    the corrected one is used; a reply that stays garbled falls back."""
    systems = {load_prompt("procmem", n).system: n for n in ("lu/select", "lu/generate")}
    garbled = {"left": 1}

    def serve(body: dict[str, Any]) -> str:
        name = systems[body["messages"][0]["content"]]
        if name == "lu/generate":
            return json.dumps(REPLY)
        if garbled["left"]:
            garbled["left"] -= 1
            return "Keep the first one, I think."
        listed = units_in_prompt(body["messages"][1]["content"])
        return json.dumps({"units": [{"unit": n, "relevant": h == INSTALL, "prerequisite": "none"}
                                     for h, n in listed.items()], "ask": ""})

    with FakeLLMServer() as server:
        server.always(serve)
        client = LLMClient(ServingConfig(engine="external", base_url=server.base_url, model="fake-model",
                                         cache_dir=str(tmp_path / "cache"), schema_retries=2,
                                         backoff_s=0.01, max_backoff_s=0.05))
        try:
            question = AnswerRequest("How do I install the printer driver?")
            answer = make_answerer("logic-units", llm=client, memory=memory).answer(question)
            select = stage(answer, "select")
            assert select.details["calls"][0]["reader"] == "json"
            assert select.usage.calls == 2  # the first reply and the client's re-ask
            assert [d["header"] for d in select.details["decisions"] if d["kept"]] == [INSTALL]

            garbled["left"] = 10
            question = AnswerRequest("How do I print a test page with the printer driver?")
            answer = make_answerer("logic-units", llm=client, memory=memory).answer(question)
            select = stage(answer, "select")
            assert select.usage.calls == 3  # asked, then re-asked twice
            assert "kept every unit" in select.details["fallback"]
        finally:
            client.close()


def test_selector_readers():
    assert parse_verdicts_text("Unit 2: not relevant, holds\n1) relevant - unknown\nAsk: Is it on?", 2) == {
        "units": [{"unit": 2, "relevant": False, "prerequisite": "holds"},
                  {"unit": 1, "relevant": True, "prerequisite": "unknown"}], "ask": "Is it on?"}
    with pytest.raises(ValueError, match="verdict lines"):
        parse_verdicts_text("all of them", 3)
    assert parse_outcome_text("Outcome: 2", 3) == {"outcome": 2}
    assert parse_outcome_text("none of these", 3) == {"outcome": 0}
    with pytest.raises(ValueError, match="outcome number"):
        parse_outcome_text("Outcome: 7", 3)
    assert outcome_schema(2)["properties"]["outcome"] == {"type": "integer", "minimum": 0, "maximum": 2}


# --------------------------------------------------------------------------- linkers

HISTORY = [("How do I install the printer driver?", "Open Settings > Printers ...")]
STILL_FAILING = "No luck, setup stops halfway with a red message"


def test_model_matches_an_outcome_whose_wording_overlaps_little(memory, script):
    assert outcome_score(STILL_FAILING, "the installer reports an error") < 70
    llm, router = script({"lu/outcome": choose({STILL_FAILING: "the installer reports an error"}),
                          "lu/select": verdicts({TROUBLESHOOT: (True, "holds")}),
                          "lu/generate": [REPLY]})
    answer = make_answerer("logic-units", llm=llm, memory=memory).answer(
        AnswerRequest(STILL_FAILING, history=HISTORY))
    assert router.names == ["lu/outcome", "lu/select", "lu/generate"]
    outcome_call = llm.calls[0]
    assert outcome_call.schema == outcome_schema(len(outcome_numbers(outcome_call.prompt)))
    assert "the driver installs" in outcome_call.prompt and STILL_FAILING in outcome_call.prompt
    linker = stage(answer, "linker")
    assert linker.details["method"] == "model" and "fallback" not in linker.details
    assert linker.details["matched"] == "the installer reports an error"
    assert linker.details["tag"] == "CROSS" and linker.details["next"] == TROUBLESHOOT
    assert memory.searches[-1]["query"] == TROUBLESHOOT
    assert "Run the printer troubleshooter" in llm.calls[-1].prompt


def test_the_models_none_is_final(memory, script):
    message = "the driver installs, but where is the paper tray?"
    llm, router = script({"lu/outcome": choose({message: None}),
                          "rewrite/standalone": [{"query": "printer paper tray"}],
                          "lu/select": verdicts({}), "lu/generate": [REPLY]})
    answer = make_answerer("logic-units", llm=llm, memory=memory).answer(
        AnswerRequest(message, history=HISTORY))
    linker = stage(answer, "linker")
    assert linker.details["method"] == "model" and linker.details["choice"] == 0
    assert linker.details["matched"] is None  # though the overlap with a condition is 100 %
    assert router.names[:2] == ["lu/outcome", "rewrite/standalone"]


@pytest.mark.parametrize(("reply", "why"), [
    ("I would say it is probably that one.", "unreadable reply"),
    (LLMConnectionError("engine unreachable", url="http://127.0.0.1:9"), "LLMConnectionError"),
])
def test_overlap_decides_when_the_model_does_not_answer(memory, script, reply, why):
    llm, _ = script({"lu/outcome": [reply], "lu/select": verdicts({TROUBLESHOOT: (True, "holds")}),
                     "lu/generate": [REPLY]})
    answer = make_answerer("logic-units", llm=llm, memory=memory).answer(
        AnswerRequest("The installer reports an error.", history=HISTORY))
    linker = stage(answer, "linker")
    assert linker.details["method"] == "overlap" and why in linker.details["fallback"]
    assert linker.details["fallback"].startswith("word overlap: ")
    assert linker.details["matched"] == "the installer reports an error"
    assert linker.details["score"] >= 70
    assert memory.searches[-1]["query"] == TROUBLESHOOT


def test_overlap_below_the_threshold_matches_nothing_on_the_fallback(memory, script):
    llm, router = script({"lu/outcome": ["garbled"], "rewrite/standalone": [{"query": "printer setup"}],
                          "lu/select": verdicts({INSTALL: (True, "none")}), "lu/generate": [REPLY]})
    answer = make_answerer("logic-units", llm=llm, memory=memory).answer(
        AnswerRequest(STILL_FAILING, history=HISTORY))
    linker = stage(answer, "linker")
    assert linker.details["method"] == "overlap" and linker.details["matched"] is None
    assert "rewrite/standalone" in router.names


def test_no_model_means_word_overlap():
    from procmem.units import Linker, LogicUnit

    unit = LogicUnit("Step", "", "Reset the router", "Hold the reset button.",
                     [Linker("the lights stay red", "Call your provider", "MITIGATE")], {"doc_id": "d"})
    record = StageRecord("linker")
    decision = judge_outcome(None, Trace(), record, LogicUnitParams(), [], "the lights stay red", [unit])
    assert decision.method == "overlap" and decision.match.linker.tag == "MITIGATE"
    assert record.details["fallback"] == "word overlap: no chat model"
    assert judge_outcome(None, Trace(), record, LogicUnitParams(), [], "hi", []).method == "none"


def test_full_loop_outcome_linker_next_unit(memory, script):
    """Three turns: a question, an outcome in other words (-> CONTINUE), then success
    (-> MITIGATE); the earlier outcome is matched again when the units are found again."""
    installed = "Done, it is on my laptop now"
    printed = "Yes! A sheet came out"
    llm, router = script({
        "lu/outcome": choose({installed: "the driver installs", printed: "the test page prints"}),
        "lu/select": verdicts({INSTALL: (True, "none"), TEST_PAGE: (True, "holds")}),
        "lu/generate": [REPLY]})
    answerer = make_answerer("logic-units", llm=llm, memory=memory)

    first = answerer.answer(AnswerRequest("How do I install the printer driver?"))
    assert "the driver installs" in first.follow_ups
    history = [("How do I install the printer driver?", first.answer)]

    assert outcome_score(installed, "the driver installs") < 70
    second = answerer.answer(AnswerRequest(installed, history=history))
    linker = stage(second, "linker")
    assert (linker.details["method"], linker.details["tag"]) == ("model", "CONTINUE")
    assert stage(second, "retrieve").details["query"] == TEST_PAGE
    assert stage(second, "retrieve").details["hits"][0]["label"] == TEST_PAGE
    assert "Press Print test page" in llm.calls[-1].prompt
    assert "the test page prints" in second.follow_ups
    history.append((installed, second.answer))

    calls_before = len(llm.calls)
    third = answerer.answer(AnswerRequest(printed, history=history))
    replay = stages(third, "linker_replay")
    assert [(r.details["method"], r.details["matched"]) for r in replay] == [
        ("model", "the driver installs")]
    linker = stage(third, "linker")
    assert linker.details["matched"] == "the test page prints" and linker.details["tag"] == "MITIGATE"
    assert stage(third, "retrieve").details["query"] == "Done"
    names = router.names[-(len(llm.calls) - calls_before):]
    assert names[:2] == ["lu/outcome", "lu/outcome"]  # the replayed turn, then this one


def test_replay_by_overlap_makes_no_model_call(memory, script):
    installed = "Done, it is on my laptop now"
    llm, router = script({"lu/outcome": choose({"the test page prints": "the test page prints"}),
                          "lu/select": verdicts({}), "lu/generate": [REPLY]})
    history = [("How do I install the printer driver?", "Open Settings."), (installed, "Print it.")]
    answer = make_answerer("logic-units", llm=llm, memory=memory, replay_match="overlap",
                           query_rewrite="heuristic").answer(
        AnswerRequest("the test page prints", history=history))
    replay = stage(answer, "linker_replay")
    assert replay.details["method"] == "overlap" and replay.usage.calls == 0
    assert replay.details["matched"] is None  # the other wording is not recognised by overlap
    assert router.names.count("lu/outcome") == 1  # this turn only


# --------------------------------------------------------------------------- real engine


@pytest.mark.slow
def test_selector_and_outcome_calls_on_the_embedded_engine(embedded_llm, small_memory, conversation):
    """Both calls reach the real model and give a valid decision (its judgement is not
    asserted: the model is tiny)."""
    answerer = make_answerer("logic-units", llm=embedded_llm, memory=small_memory,
                             max_tokens=160, query_rewrite="heuristic")
    answer = answerer.answer(AnswerRequest(conversation.question, history=conversation.history))
    select = stage(answer, "select")
    assert select.usage.calls + select.usage.cached_calls >= 1
    call = select.details["calls"][0]
    assert call.get("reader") in ("json", "json-repaired", "text") or "kept every unit" in select.details["fallback"]
    decisions = select.details["decisions"]
    assert decisions and all(d["decision"] in ("kept", "dropped", "in doubt") for d in decisions)
    assert all(d["state"] in (None, "holds", "fails", "unknown", "none") for d in decisions)
    if select.details["ask_back"]:
        assert answer.clarification and answer.procedures == []
    else:
        assert answer.procedures and stage(answer, "generate")

    units = [u for u in small_memory.units("logic_unit") if u.linker][:3]
    assert units, "the conversation's documents give units with linkers"
    record = StageRecord("linker")
    decision = judge_outcome(embedded_llm, Trace(), record, LogicUnitParams(),
                             conversation.history, "That did not work, I still get the same error.", units)
    assert record.usage.calls + record.usage.cached_calls >= 1
    n_outcomes = sum(len([x for x in u.linker if x.condition.strip()]) for u in units)
    if decision.method == "model":
        assert record.details["calls"][-1]["reader"] and 0 <= decision.choice <= n_outcomes
        assert (decision.match is None) == (decision.choice == 0)
    else:
        assert decision.method == "overlap" and record.details["fallback"].startswith("word overlap")
