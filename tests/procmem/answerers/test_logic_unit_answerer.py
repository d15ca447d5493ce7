"""The logic-unit answerer with a scripted model: selector fallbacks, linkers in multi-turn mode
and CONTINUE plans in single-turn mode (verdicts, questions back and outcome matching in detail:
test_selector_linkers.py)."""

from __future__ import annotations

import re

from procmem.answerers import AnswerRequest, make_answerer
from procmem.answerers.logic_units import match_outcome, outcome_score

REPLY = {"answer": "Here is how.", "procedures": ["Open Settings", "Add the printer"]}
INSTALL_Q = "How do I install the printer driver and print a test page?"


def stage(answer, name):
    return next(s for s in answer.trace.stages if s.name == name)


def keep_first(messages, schema):
    """Selector reply: only the first listed unit is relevant (and its prerequisite holds)."""
    n = schema["properties"]["units"]["maxItems"]
    return {"units": [{"unit": i, "relevant": i == 1, "prerequisite": "holds"} for i in range(1, n + 1)],
            "ask": ""}


def keep_none(messages, schema):
    n = schema["properties"]["units"]["maxItems"]
    return {"units": [{"unit": i, "relevant": False, "prerequisite": "none"} for i in range(1, n + 1)],
            "ask": ""}


def report(condition):
    """Outcome reply: the number of ``condition`` in the listed outcomes (0 when absent)."""

    def reply(messages, schema):
        listed = dict(re.findall(r"^(\d+)\. (.+?) \(after: ", messages[-1]["content"], re.M))
        return {"outcome": next((int(n) for n, c in listed.items() if c == condition), 0)}

    return reply


def test_selector_keeping_nothing_falls_back_to_the_top_unit(memory, script):
    llm, _ = script({"lu/select": keep_none, "lu/generate": [REPLY]})
    answer = make_answerer("logic-units", llm=llm, memory=memory).answer(
        AnswerRequest("troubleshoot errors"))
    decisions = stage(answer, "select").details["decisions"]
    assert decisions[0]["kept"] and "top unit used" in decisions[0]["reason"]


def test_unreadable_selector_reply_keeps_every_unit(memory, script):
    llm, _ = script({"lu/select": ["I think so"], "lu/generate": [REPLY]})
    answer = make_answerer("logic-units", llm=llm, memory=memory).answer(AnswerRequest(INSTALL_Q))
    select = stage(answer, "select")
    assert "kept every unit" in select.details["fallback"]
    assert all(d["kept"] for d in select.details["decisions"])


def test_reported_outcome_follows_the_linker_of_the_previous_turn(memory, script):
    llm, router = script({"lu/outcome": report("the driver installs"), "lu/select": keep_first,
                          "lu/generate": [REPLY]})
    history = [("How do I install the printer driver?", "Open Settings > Printers ...")]
    answer = make_answerer("logic-units", llm=llm, memory=memory).answer(
        AnswerRequest("OK, the driver installs fine.", history=history))
    linker = stage(answer, "linker")
    assert linker.details["matched"] == "the driver installs"
    assert linker.details["next"] == "Print a test page" and linker.details["tag"] == "CONTINUE"
    # the linker's next intent is the query; no model rewrite
    assert "rewrite/standalone" not in router.names
    assert memory.searches[-1]["query"] == "Print a test page"
    assert stage(answer, "retrieve").details["hits"][0]["label"] == "Print a test page"


def test_error_outcome_follows_the_cross_linker(memory, script):
    llm, _ = script({"lu/outcome": report("the installer reports an error"), "lu/select": keep_first,
                     "lu/generate": [REPLY]})
    history = [("How do I install the printer driver?", "Open Settings > Printers ...")]
    answer = make_answerer("logic-units", llm=llm, memory=memory).answer(
        AnswerRequest("the installer reports an error", history=history))
    assert stage(answer, "linker").details["tag"] == "CROSS"
    assert memory.searches[-1]["query"] == "Troubleshoot printer driver errors"


def test_message_without_a_reported_outcome_is_rewritten(memory, script):
    llm, router = script({"lu/outcome": report(None), "rewrite/standalone": [{"query": "printer paper jam"}],
                          "lu/select": keep_first, "lu/generate": [REPLY]})
    history = [("How do I install the printer driver?", "Open Settings > Printers ...")]
    answer = make_answerer("logic-units", llm=llm, memory=memory).answer(
        AnswerRequest("And a paper jam?", history=history))
    assert stage(answer, "linker").details["matched"] is None
    assert router.names[:2] == ["lu/outcome", "rewrite/standalone"]


def test_single_turn_mode_follows_continue_linkers_into_a_plan(memory, script):
    llm, _ = script({"lu/select": keep_first, "lu/generate": [REPLY]})
    answer = make_answerer("logic-units", llm=llm, memory=memory, mode="single", k=1).answer(
        AnswerRequest("install the printer driver"))
    plan = stage(answer, "plan")
    assert plan.details["followed"][0]["next"] == "Print a test page"
    assert len(plan.details["units"]) == 2
    assert "Press Print test page" in llm.calls[-1].prompt
    # the followed CONTINUE linker is no longer a follow-up; the others are
    assert "the driver installs" not in answer.follow_ups
    assert {"the installer reports an error", "the test page prints"} <= set(answer.follow_ups)


def test_outcome_matching():
    assert outcome_score("the driver installed fine", "the driver installs") == 100.0
    assert outcome_score("what about paper?", "the driver installs") == 0.0
    assert outcome_score("I still get errors", "the installer reports an error") == 100 / 3
    assert match_outcome("nothing related", [], 70.0) is None
