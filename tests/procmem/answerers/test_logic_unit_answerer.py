"""The logic-unit answerer with a scripted model: selector decisions, questions back, linkers
in multi-turn mode and CONTINUE plans in single-turn mode."""

from __future__ import annotations

from procmem.answerers import AnswerRequest, make_answerer
from procmem.answerers.logic_units import match_outcome, outcome_score

REPLY = {"answer": "Here is how.", "procedures": ["Open Settings", "Add the printer"]}
INSTALL_Q = "How do I install the printer driver and print a test page?"


def stage(answer, name):
    return next(s for s in answer.trace.stages if s.name == name)


def test_selector_keeps_units_whose_prerequisites_hold(memory, script):
    llm, router = script({"lu/select": [{"keep": [1], "ask": ""}], "lu/generate": [REPLY]})
    answer = make_answerer("logic-units", llm=llm, memory=memory).answer(AnswerRequest(INSTALL_Q))
    assert memory.searches[0]["kind"] == "logic_unit"
    assert router.names == ["lu/select", "lu/generate"]
    select_prompt = llm.calls[0].prompt
    # only units with a prerequisite are judged by the model
    assert "Prerequisite: The printer driver is installed" in select_prompt
    assert "Install the printer driver\n" not in select_prompt
    decisions = {d["header"]: d for d in stage(answer, "select").details["decisions"]}
    assert decisions["Install the printer driver"]["reason"] == "no prerequisite"
    kept = {h: d["kept"] for h, d in decisions.items()}
    judged = [h for h, d in decisions.items() if d["reason"] == "selector"]
    assert kept["Install the printer driver"] and sum(kept[h] for h in judged) == 1
    # the generator sees the kept bodies only
    generate_prompt = llm.calls[1].prompt
    assert "Choose Add printer" in generate_prompt
    assert {s.unit_id for s in answer.sources} == {
        d["unit_id"] for d in stage(answer, "select").details["decisions"] if d["kept"]}
    # follow-ups are the kept units' linker conditions
    assert "the driver installs" in answer.follow_ups
    assert answer.clarification is None


def test_unknown_prerequisite_becomes_a_question_back(memory, script):
    llm, _ = script({"lu/select": [{"keep": [], "ask": "Does your computer run Windows?"}],
                     "lu/generate": [REPLY]})
    answer = make_answerer("logic-units", llm=llm, memory=memory).answer(
        AnswerRequest("How do I troubleshoot printer driver errors?"))
    assert answer.clarification == "Does your computer run Windows?"
    assert stage(answer, "select").details["clarification"] == answer.clarification
    assert answer.answer and answer.procedures


def test_selector_is_skipped_when_no_unit_has_a_prerequisite(memory, script):
    llm, router = script({"lu/generate": [REPLY]})
    memory.all_units = [u for u in memory.all_units if not getattr(u, "prerequisite", "")]
    make_answerer("logic-units", llm=llm, memory=memory).answer(AnswerRequest(INSTALL_Q))
    assert router.names == ["lu/generate"]


def test_selector_keeping_nothing_falls_back_to_the_top_unit(memory, script):
    llm, _ = script({"lu/select": [{"keep": [], "ask": ""}], "lu/generate": [REPLY]})
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
    llm, router = script({"lu/select": [{"keep": [1], "ask": ""}], "lu/generate": [REPLY]})
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
    llm, _ = script({"lu/select": [{"keep": [1], "ask": ""}], "lu/generate": [REPLY]})
    history = [("How do I install the printer driver?", "Open Settings > Printers ...")]
    answer = make_answerer("logic-units", llm=llm, memory=memory).answer(
        AnswerRequest("the installer reports an error", history=history))
    assert stage(answer, "linker").details["tag"] == "CROSS"
    assert memory.searches[-1]["query"] == "Troubleshoot printer driver errors"


def test_message_without_a_reported_outcome_is_rewritten(memory, script):
    llm, router = script({"rewrite/standalone": [{"query": "printer paper jam"}],
                          "lu/select": [{"keep": [1], "ask": ""}], "lu/generate": [REPLY]})
    history = [("How do I install the printer driver?", "Open Settings > Printers ...")]
    answer = make_answerer("logic-units", llm=llm, memory=memory).answer(
        AnswerRequest("And a paper jam?", history=history))
    assert stage(answer, "linker").details["matched"] is None
    assert router.names[0] == "rewrite/standalone"


def test_single_turn_mode_follows_continue_linkers_into_a_plan(memory, script):
    llm, _ = script({"lu/select": [{"keep": [], "ask": ""}], "lu/generate": [REPLY]})
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
