"""Multi-turn evaluation: the simulated user, and the dialogue loop outcome -> linker -> next
query -> stop at done or after T turns, over logic units of a real bundled document."""

from __future__ import annotations

import re
from typing import Any

import pytest

from eval.multiturn import (
    Exchange,
    LLMSimulator,
    RuleSimulator,
    make_simulator,
    run_dialogue,
    simulate_schema,
)
from inscoqa.bundled import corpus_index
from inscoqa.records import Conversation
from procmem.answerers import make_answerer
from procmem.answerers.base import Answer
from serving.scripted import ScriptedLLM
from serving.types import Message


@pytest.fixture(scope="module")
def bluetooth(conversations: list[Conversation]) -> Conversation:
    conv = next(c for c in conversations if c.id == "dev-gnome-001")
    assert len(conv.procedures) >= 4
    return conv


def scripted_answerer(turns: list[list[str]]) -> tuple[Any, ScriptedLLM]:
    """The logic-unit answerer (multi-turn) whose generator gives ``turns[i]`` at turn i."""
    given = iter(turns)

    def reply(messages: list[Message], schema: dict[str, Any] | None) -> dict[str, Any]:
        props = (schema or {}).get("properties", {})
        if "units" in props:  # the selector keeps the best unit
            n = props["units"]["maxItems"]
            return {"units": [{"unit": i, "relevant": i == 1, "prerequisite": "none"}
                              for i in range(1, n + 1)], "ask": ""}
        if "outcome" in props:  # the outcome matcher: the listed condition the message states
            prompt = messages[-1]["content"]
            message = prompt.split("The user's new message:", 1)[1].split("\n", 1)[0]
            listed = re.findall(r"^(\d+)\. (.+?) \(after: ", prompt, re.M)
            return {"outcome": next((int(n) for n, c in listed if c in message), 0)}
        assert "procedures" in props, props
        return {"answer": "Here is what to do.", "procedures": next(given)}

    llm = ScriptedLLM(reply)
    return make_answerer("logic-units", llm=llm, query_rewrite="heuristic", mode="multi"), llm


def test_outcome_is_turned_into_the_linkers_next_query_until_done(bluetooth: Conversation) -> None:
    steps = list(bluetooth.procedures)
    answerer, _ = scripted_answerer([steps[:2], steps[2:]])
    docs = corpus_index().resolve(bluetooth)
    dialogue = run_dialogue(bluetooth, answerer, RuleSimulator(), max_turns=5, documents=docs)
    first, second = dialogue.to_dict()["turns"]
    # turn 1: two reference steps done; the user reports the follow-up that fits step 3
    assert first["feedback"]["outcome"] == "linker"
    assert first["feedback"]["done_steps"] == [0, 1]
    condition = first["feedback"]["condition"]
    assert condition in first["follow_ups"] and "Connected" in condition
    assert second["question"] == first["feedback"]["message"]
    # turn 2: the answerer matched that outcome and searched for the linker's next intent
    assert second["linker"]["matched"] == condition
    assert second["query"] == second["linker"]["next"] and second["query"]
    # every reference step is now given: the dialogue stops
    assert second["feedback"]["outcome"] == "done" and dialogue.outcome == "done"
    assert dialogue.steps == steps


def test_dialogue_stops_after_max_turns_when_never_done(bluetooth: Conversation) -> None:
    answerer, llm = scripted_answerer([["Restart the computer."]] * 10)
    docs = corpus_index().resolve(bluetooth)
    dialogue = run_dialogue(bluetooth, answerer, RuleSimulator(), max_turns=3, documents=docs)
    assert len(dialogue.exchanges) == 3 and dialogue.outcome != "done"
    assert all(f.done_steps == [] for f in dialogue.feedback)
    assert sum(1 for c in llm.calls if "procedures" in (c.schema or {}).get("properties", {})) == 3
    with pytest.raises(ValueError, match="max_turns"):
        run_dialogue(bluetooth, answerer, RuleSimulator(), max_turns=0, documents=docs)


def answer(steps: list[str], follow_ups: list[str] | None = None) -> Answer:
    return Answer(answer="ok", procedures=steps, follow_ups=follow_ups or [])


def test_rule_simulator_outcomes(bluetooth: Conversation) -> None:
    sim = RuleSimulator()
    ref = list(bluetooth.procedures)
    done = sim.react(bluetooth, [Exchange("q", answer(ref[:3])), Exchange("q2", answer(ref[3:]))])
    assert done.outcome == "done" and done.message == "" and done.done_steps == list(range(len(ref)))
    stuck = sim.react(bluetooth, [Exchange("q", answer(ref[:1], ["the oven is too hot"]))])
    assert stuck.outcome == "stuck" and stuck.condition is None
    assert bluetooth.question in stuck.message and stuck.done_steps == [0]
    empty = Conversation("x", "Others", [], [], "q", "a", [])
    with pytest.raises(ValueError, match="no reference steps"):
        sim.react(empty, [Exchange("q", answer(["a"]))])
    assert make_simulator("rules").config()["simulator"] == "rules"
    with pytest.raises(ValueError, match="simulator"):
        make_simulator("oracle")
    with pytest.raises(ValueError, match="chat model"):
        make_simulator("llm")


def test_llm_simulator_reads_a_constrained_reply(bluetooth: Conversation) -> None:
    follow_ups = ["the desired device is not shown as Connected in the list", "that happens"]
    llm = ScriptedLLM([{"outcome": "linker", "condition": follow_ups[0],
                        "message": "The phone is not listed."},
                       {"outcome": "linker", "condition": "", "message": ""}])
    sim = LLMSimulator(llm)
    fb = sim.react(bluetooth, [Exchange(bluetooth.question, answer(["Open Bluetooth."], follow_ups))])
    assert fb.outcome == "linker" and fb.condition == follow_ups[0]
    assert follow_ups[0] in fb.message  # the answerer's linker matching can read it
    assert llm.calls[0].schema == simulate_schema(follow_ups)
    prompt = llm.calls[0].prompt
    assert all(step in prompt for step in bluetooth.procedures)  # grounded in the reference
    # a follow-up reported without naming one is read as stuck
    fb = sim.react(bluetooth, [Exchange(bluetooth.question, answer(["Open Bluetooth."], follow_ups))])
    assert fb.outcome == "stuck" and fb.condition is None and fb.message


@pytest.mark.slow
def test_llm_simulator_on_the_embedded_engine(embedded_llm: Any, bluetooth: Conversation) -> None:
    follow_ups = ["the desired device is not shown as Connected in the list"]
    sim = LLMSimulator(embedded_llm)
    fb = sim.react(bluetooth, [Exchange(bluetooth.question,
                                        answer(list(bluetooth.procedures[:2]), follow_ups))])
    assert fb.outcome in ("done", "linker", "stuck")
    assert fb.condition in (None, *follow_ups)
    assert (fb.message == "") == (fb.outcome == "done")
    assert fb.done_steps == RuleSimulator().done_steps(list(bluetooth.procedures[:2]),
                                                       list(bluetooth.procedures))
