"""Pairwise judge: vote mapping under swapped order, the majority/tie rule, invalid votes."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from eval.pairwise import PAIRWISE_SCHEMA, PairwiseJudge, majority_vote
from serving.errors import LLMConnectionError
from serving.scripted import ScriptedLLM, unreachable_llm
from serving.types import Message

TASK_INPUT = "A laptop with GNOME and a paired Bluetooth phone"
TASK_OUTPUT = "Send a photo to the phone over Bluetooth"
GOOD = ["Open the Bluetooth settings", "Select the phone", "Click Send Files and pick the photo"]
WEAK = ["Email the photo to yourself"]


def shown_procedures(messages: list[Message]) -> tuple[str, str]:
    text = messages[-1]["content"]
    first = text.split("Procedure A:")[1].split("Procedure B:")[0]
    second = text.split("Procedure B:")[1].split("Compare the two")[0]
    return first, second


def prefers_good(messages: list[Message], schema: dict[str, Any] | None) -> dict[str, str]:
    """A judge that always picks the procedure with the Bluetooth steps, wherever it is shown."""
    first, _ = shown_procedures(messages)
    return {
        "reasoning": "One of them uses Bluetooth.",
        "better": "A" if "Bluetooth settings" in first else "B",
    }


# --- the vote rule ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("votes", "result"),
    [
        (["A"] * 10, "win"),
        (["B"] * 10, "loss"),
        (["A"] * 6 + ["B"] * 4, "win"),
        (["A"] * 4 + ["B"] * 6, "loss"),
        (["A"] * 5 + ["B"] * 5, "tie"),  # equal counts
        (["A"] * 3 + ["B"] * 2 + ["tie"] * 5, "tie"),  # tie votes lead
        (["A"] * 4 + ["B"] * 2 + ["tie"] * 4, "tie"),  # as many tie votes as the leading side
        (["A"] * 4 + ["B"] * 3 + ["tie"] * 3, "win"),  # plurality, not absolute majority
        (["A"] * 2 + ["invalid"] * 8, "win"),  # invalid votes never count for a side
        (["A"] * 3 + ["B"] * 3 + ["invalid"] * 4, "tie"),
        (["invalid"] * 10, "invalid"),  # nothing valid: not a tie
        ([], "invalid"),
    ],
)
def test_majority_vote(votes: list[str], result: str) -> None:
    assert majority_vote(votes) == result


def test_majority_vote_rejects_unknown_votes() -> None:
    with pytest.raises(ValueError, match="unknown votes"):
        majority_vote(["A", "first"])


# --- the judge -------------------------------------------------------------------------------


def test_order_alternates_and_answers_map_back_to_the_systems() -> None:
    llm = ScriptedLLM(prefers_good)
    outcome = PairwiseJudge(llm).compare(TASK_INPUT, TASK_OUTPUT, GOOD, WEAK)

    assert outcome.votes == ["A"] * 10 and outcome.result == "win"
    assert [c.swapped for c in outcome.calls] == [False, True] * 5
    # When swapped, the judge said "B" about the shown order, which is system A.
    assert [c.shown_better for c in outcome.calls] == ["A", "B"] * 5
    # Each call shows the systems in the planned order, with its own fixed seed.
    for i, call in enumerate(llm.calls):
        first, second = shown_procedures(call.messages)
        assert ("Bluetooth settings" in first) == (i % 2 == 0)
        assert ("Bluetooth settings" in second) == (i % 2 == 1)
        assert call.params["seed"] == i and call.params["temperature"] == 0.7
        assert call.schema == PAIRWISE_SCHEMA
        assert TASK_INPUT in call.prompt and TASK_OUTPUT in call.prompt

    # The same judge with the systems the other way round gives a loss.
    assert (
        PairwiseJudge(ScriptedLLM(prefers_good)).compare(TASK_INPUT, TASK_OUTPUT, WEAK, GOOD).result
        == "loss"
    )


def test_a_position_biased_judge_ends_in_a_tie() -> None:
    always_first = ScriptedLLM(lambda m, s: {"reasoning": "The first one.", "better": "A"})
    outcome = PairwiseJudge(always_first).compare(TASK_INPUT, TASK_OUTPUT, GOOD, WEAK)
    assert outcome.counts == {"A": 5, "B": 5, "tie": 0, "invalid": 0}
    assert outcome.result == "tie"


def test_invalid_replies_are_votes_of_their_own() -> None:
    replies: list[Any] = ["not json", {"reasoning": "x", "better": "both"}] + [
        {"reasoning": "x", "better": "A" if i % 2 == 0 else "B"} for i in range(2, 10)
    ]
    outcome = PairwiseJudge(ScriptedLLM(replies)).compare(TASK_INPUT, TASK_OUTPUT, GOOD, WEAK)
    assert outcome.votes[:2] == ["invalid", "invalid"]
    assert all(c.error and c.raw for c in outcome.calls[:2])
    # calls 2..9 alternate order with an unswapped "A" and a swapped "B": all for system A
    assert outcome.counts == {"A": 8, "B": 0, "tie": 0, "invalid": 2}
    assert outcome.result == "win"

    all_bad = PairwiseJudge(ScriptedLLM(lambda m, s: "{}")).compare(
        TASK_INPUT, TASK_OUTPUT, GOOD, WEAK
    )
    assert all_bad.result == "invalid"


def test_reference_steps_are_never_shown(conversations) -> None:
    conv = conversations[0]
    llm = ScriptedLLM(prefers_good)
    PairwiseJudge(llm, n_calls=2).compare(conv.question, conv.question, GOOD, WEAK)
    assert len(llm.calls) == 2
    assert not any(step in call.prompt for call in llm.calls for step in conv.procedures)


def test_tie_answers_stay_ties_in_both_orders() -> None:
    llm = ScriptedLLM(lambda m, s: {"reasoning": "Equal.", "better": "tie"})
    outcome = PairwiseJudge(llm, n_calls=4, seeds=(7, 8, 9, 10)).compare(
        TASK_INPUT, TASK_OUTPUT, GOOD, WEAK
    )
    assert outcome.votes == ["tie"] * 4 and outcome.result == "tie"
    assert [c.params["seed"] for c in llm.calls] == [7, 8, 9, 10]


def test_async_compare_matches_sync_and_transport_errors_propagate() -> None:
    sync = PairwiseJudge(ScriptedLLM(prefers_good)).compare(TASK_INPUT, TASK_OUTPUT, WEAK, GOOD)
    async_ = asyncio.run(
        PairwiseJudge(ScriptedLLM(prefers_good)).acompare(TASK_INPUT, TASK_OUTPUT, WEAK, GOOD)
    )
    assert async_.votes == sync.votes and async_.result == sync.result == "loss"
    with pytest.raises(LLMConnectionError):
        PairwiseJudge(unreachable_llm()).compare(TASK_INPUT, TASK_OUTPUT, GOOD, WEAK)


def test_config_and_arguments() -> None:
    config = PairwiseJudge(ScriptedLLM(model="judge")).config()
    assert config["n_calls"] == 10 and config["seeds"] == list(range(10))
    assert config["temperature"] == 0.7 and config["model"] == "judge" and config["prompt_hash"]
    with pytest.raises(ValueError, match="seeds"):
        PairwiseJudge(ScriptedLLM(), n_calls=4, seeds=(1, 2))
    with pytest.raises(ValueError, match="n_calls"):
        PairwiseJudge(ScriptedLLM(), n_calls=0)
