"""Linear how-to metrics: action-item extraction, one-to-one matching, P/R/F1 and success."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from eval.howto import (
    EXTRACT_SCHEMA,
    PAIR_SCHEMA,
    SUCCESS_SCHEMA,
    HowToError,
    HowToScorer,
    judged_pairs,
    match_items,
    prf,
    rouge_similarity,
)
from serving.scripted import ScriptedLLM
from serving.types import Message

TASK = "Send a photo to a phone over Bluetooth"
REFERENCE = [
    "Open Settings and go to Bluetooth.",
    "Select the phone, then click Send Files.",
    "Choose the file.",
]
GENERATED = ["Open the Bluetooth settings.", "Click Send Files.", "Restart the computer."]
ITEMS = {
    "Open Settings and go to Bluetooth.": ["open the bluetooth settings", "select the device"],
    "Open the Bluetooth settings.": [
        "open bluetooth settings",
        "click send files",
        "restart the computer",
    ],
}


def scripted(solved: bool = True, reference_items: list[str] | None = None) -> ScriptedLLM:
    def reply(messages: list[Message], schema: dict[str, Any] | None) -> dict[str, Any]:
        prompt = messages[-1]["content"]
        if schema == SUCCESS_SCHEMA:
            return {"reasoning": "It covers the needed actions.", "solved": solved}
        assert schema == EXTRACT_SCHEMA
        if "Open Settings and go to Bluetooth." in prompt:
            items = (
                reference_items
                if reference_items is not None
                else [
                    "open the bluetooth settings",
                    "select the device",
                    "click send files",
                    "choose the file",
                ]
            )
            return {"actions": items}
        return {"actions": ITEMS["Open the Bluetooth settings."]}

    return ScriptedLLM(reply)


def test_precision_recall_f1_from_matched_items() -> None:
    llm = scripted()
    score = HowToScorer(llm).score(TASK, GENERATED, REFERENCE)
    # "open bluetooth settings" ~ "open the bluetooth settings" (ROUGE-L F 0.86) and
    # "click send files" = "click send files"; "restart the computer" matches nothing (<= 0.33).
    assert sorted((g, r) for g, r, _ in score.matches) == [(0, 0), (1, 2)]
    assert (score.precision, score.recall) == (2 / 3, 2 / 4)
    assert score.f1 == pytest.approx(2 * (2 / 3) * (2 / 4) / (2 / 3 + 2 / 4))
    assert score.success is True
    assert score.generated_items == ITEMS["Open the Bluetooth settings."]
    # two extractions (reference, generated) and one success judgement, all deterministic
    assert [c.schema for c in llm.calls] == [EXTRACT_SCHEMA, EXTRACT_SCHEMA, SUCCESS_SCHEMA]
    assert all(c.params["temperature"] == 0.0 for c in llm.calls)
    success_prompt = llm.calls[2].prompt
    assert all(step in success_prompt for step in GENERATED + REFERENCE)


def test_failure_to_solve_is_reported() -> None:
    assert HowToScorer(scripted(solved=False)).score(TASK, GENERATED, REFERENCE).success is False


def test_matching_is_one_to_one() -> None:
    llm = scripted(reference_items=["click send files"])
    score = HowToScorer(llm).score(TASK, GENERATED, REFERENCE)
    assert [(g, r) for g, r, _ in score.matches] == [(1, 0)]
    assert (score.precision, score.recall) == (1 / 3, 1.0)


def test_assignment_maximises_total_similarity_not_greedy() -> None:
    sim = np.array([[0.9, 0.8], [0.85, 0.1]])
    # Greedy would take (0, 0) and leave row 1 unmatched; the optimum matches both.
    assert sorted((g, r) for g, r, _ in match_items(sim, 0.5)) == [(0, 1), (1, 0)]
    assert match_items(sim, 0.95) == []
    assert match_items(np.zeros((0, 3)), 0.5) == []


def test_rouge_similarity_shape_and_values() -> None:
    sim = rouge_similarity(["click send files", "open it"], ["click send files", "x", "open files"])
    assert sim.shape == (2, 3)
    assert sim[0, 0] == 1.0 and sim[0, 1] == 0.0


def test_empty_generated_steps_score_zero_without_calls() -> None:
    llm = ScriptedLLM()
    score = HowToScorer(llm).score(TASK, [], REFERENCE)
    assert (score.precision, score.recall, score.f1, score.success) == (0.0, 0.0, 0.0, False)
    assert llm.calls == []


def test_reference_without_actions_is_an_error() -> None:
    with pytest.raises(HowToError, match="reference"):
        HowToScorer(scripted(reference_items=[])).score(TASK, GENERATED, REFERENCE)


def test_prf_edges_and_config() -> None:
    assert prf(0, 0, 4) == (0.0, 0.0, 0.0)
    assert prf(2, 2, 2) == (1.0, 1.0, 1.0)
    config = HowToScorer(ScriptedLLM(model="m"), matcher="rouge").config()
    assert config["matcher"] == "rouge" and config["threshold"] == 0.5 and config["model"] == "m"
    assert HowToScorer(ScriptedLLM(), threshold=0.3).threshold == 0.3
    with pytest.raises(ValueError, match="matcher"):
        HowToScorer(ScriptedLLM(), matcher="exact")


@pytest.mark.slow
def test_embedding_matcher_pairs_paraphrases() -> None:
    from eval.howto import embedding_similarity

    generated = ["turn on bluetooth on the phone", "preheat the oven to 200 degrees"]
    reference = ["heat the oven to 200 C", "switch the phone's Bluetooth on"]
    sim = embedding_similarity(generated, reference)
    assert sim.shape == (2, 2)
    assert sorted((g, r) for g, r, _ in match_items(sim, 0.5)) == [(0, 1), (1, 0)]


def pair_reply(pairs: list[dict[str, int]], solved: bool = True) -> Any:
    def reply(messages: list[Message], schema: dict[str, Any] | None) -> dict[str, Any]:
        if schema == SUCCESS_SCHEMA:
            return {"reasoning": "ok", "solved": solved}
        assert schema == PAIR_SCHEMA
        return {"reference": ["open the bluetooth settings", "select the device",
                              "click send files", "choose the file"],
                "generated": ["open bluetooth settings", "click send files",
                              "restart the computer"],
                "pairs": pairs}

    return reply


def test_judge_matcher_extracts_and_pairs_in_one_call() -> None:
    llm = ScriptedLLM(pair_reply([{"generated": 1, "reference": 1},
                                  {"generated": 2, "reference": 3}]))
    score = HowToScorer(llm, matcher="judge").score(TASK, GENERATED, REFERENCE)
    assert [c.schema for c in llm.calls] == [PAIR_SCHEMA, SUCCESS_SCHEMA]
    pair_prompt = llm.calls[0].prompt
    assert all(step in pair_prompt for step in GENERATED + REFERENCE)
    assert [(g, r) for g, r, _ in score.matches] == [(0, 0), (1, 2)]
    assert (score.precision, score.recall) == (2 / 3, 2 / 4) and score.success
    assert len(score.reference_items) == 4 and len(score.generated_items) == 3
    config = HowToScorer(ScriptedLLM(), matcher="judge").config()
    assert config["matcher"] == "judge" and config["threshold"] is None
    lexical = HowToScorer(ScriptedLLM(), matcher="lexical").config()
    # what the model is asked for is part of the key of stored scores
    assert config["prompt_hash"] != lexical["prompt_hash"]
    assert config["schema_hash"] != lexical["schema_hash"]


def test_judge_pairs_stay_one_to_one_and_in_range() -> None:
    pairs = [{"generated": 1, "reference": 1}, {"generated": 1, "reference": 2},
             {"generated": 2, "reference": 1}, {"generated": 9, "reference": 2},
             {"generated": 3, "reference": 4}]
    assert judged_pairs(pairs, 3, 4) == [(0, 0, 1.0), (2, 3, 1.0)]
    llm = ScriptedLLM(pair_reply(pairs))
    score = HowToScorer(llm, matcher="judge").score(TASK, GENERATED, REFERENCE)
    assert (score.precision, score.recall) == (2 / 3, 2 / 4)


def test_lexical_matcher_keeps_its_former_name() -> None:
    a = HowToScorer(scripted()).score(TASK, GENERATED, REFERENCE)
    b = HowToScorer(scripted(), matcher="rouge").score(TASK, GENERATED, REFERENCE)
    assert HowToScorer(ScriptedLLM()).matcher == "lexical"
    assert (a.precision, a.recall, a.matches) == (b.precision, b.recall, b.matches)


@pytest.mark.slow
def test_judge_matcher_on_the_embedded_engine(embedded_llm: Any) -> None:
    score = HowToScorer(embedded_llm, matcher="judge").score(TASK, GENERATED, REFERENCE)
    assert 0.0 <= score.precision <= 1.0 and 0.0 <= score.recall <= 1.0
    assert all(0 <= g < len(score.generated_items) and 0 <= r < len(score.reference_items)
               for g, r, _ in score.matches)
    assert len({g for g, _, _ in score.matches}) == len(score.matches)
