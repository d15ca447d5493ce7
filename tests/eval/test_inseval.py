"""InsEval judge: the strict plain-text parser, the schema path, failures, and the real engine."""

from __future__ import annotations

import asyncio
import json
import re

import pytest

from eval.inseval import (
    JUDGE_SCHEMA,
    InsEvalJudge,
    JudgeVerdict,
    parse_judge_reply,
    verdict_from_data,
)
from serving.errors import LLMConnectionError, LLMResponseError
from serving.scripted import ScriptedLLM, unreachable_llm

# --- the plain-text parser -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("reply", "score", "tcr"),
    [
        ("Evaluation: covers all steps.\nTotal rating: 8\nTask completion rate: 75%", 8, 75.0),
        ("Total rating: 10\nTask completion rate: 100", 10, 100.0),
        ("Total rating: 1\nTask completion rate: 0%", 1, 0.0),
        ("**Total rating:** 7/10\n**Task completion rate:** 62.5 %", 7, 62.5),
        ("total rating: [[9]]\ntask completion rate: 80/100", 9, 80.0),
        ("Total rating: 6.0\nTask completion rate: 50%", 6, 50.0),
        ("Total rating: 5\nTotal rating: 5\nTask completion rate: 40%", 5, 40.0),
        # extra text before, between and after the labels
        (
            "Sure! Here is my assessment.\nThe answer misses the registry fix.\n\n"
            "Total rating: 6 (helpful but incomplete)\nSome more words.\n"
            "Task completion rate: 50% of the reference steps.\nThanks for asking.",
            6,
            50.0,
        ),
    ],
)
def test_parser_reads_valid_replies(reply: str, score: int, tcr: float) -> None:
    verdict = parse_judge_reply(reply)
    assert verdict == JudgeVerdict(score, tcr, True, None, reply, verdict.evaluation)
    assert isinstance(verdict.score, int)


def test_parser_keeps_the_evaluation_text() -> None:
    verdict = parse_judge_reply(
        "Evaluation: clear and complete.\nTotal rating: 9\nTask completion rate: 90%"
    )
    assert verdict.evaluation == "clear and complete."


@pytest.mark.parametrize(
    ("reply", "error"),
    [
        ("", "no 'Total rating:'"),
        ("The answer is good, I would give it an 8 and 75%.", "no 'Total rating:'"),
        ("Total rating: 8", "no 'Task completion rate:'"),
        ("Task completion rate: 75%", "no 'Total rating:'"),
        ("Total rating: 0\nTask completion rate: 75%", "total rating 0 is outside 1-10"),
        ("Total rating: 11\nTask completion rate: 75%", "total rating 11 is outside 1-10"),
        ("Total rating: -3\nTask completion rate: 75%", "total rating -3 is outside 1-10"),
        (
            "Total rating: 8\nTask completion rate: 120%",
            "task completion rate 120 is outside 0-100",
        ),
        ("Total rating: 8\nTask completion rate: -5%", "task completion rate -5 is outside 0-100"),
        ("Total rating: 7.5\nTask completion rate: 75%", "total rating 7.5 is not an integer"),
        ("Total rating: 4/5\nTask completion rate: 75%", "Total rating is on another scale"),
        ("Total rating: eight\nTask completion rate: 75%", "Total rating has no numeric value"),
        (
            "Total rating: <integer from 1 to 10>\nTask completion rate: <number>%",
            "no numeric value",
        ),
        ("Total rating: 8\nTotal rating: 6\nTask completion rate: 75%", "conflicting Total rating"),
        # truncated replies
        ("Evaluation: good.\nTotal rating: 8\nTask completion ra", "no 'Task completion rate:'"),
        (
            "Evaluation: good.\nTotal rating: 8\nTask completion rate:",
            "Task completion rate has no numeric value",
        ),
        ("Evaluation: good.\nTotal rat", "no 'Total rating:'"),
    ],
)
def test_parser_fails_without_coercing(reply: str, error: str) -> None:
    verdict = parse_judge_reply(reply)
    assert not verdict.ok
    assert verdict.score is None and verdict.tcr is None
    assert error in (verdict.error or "")
    assert verdict.raw == reply


def test_schema_data_is_checked_again() -> None:
    ok = verdict_from_data(
        {"evaluation": "fine", "total_rating": 7, "task_completion_rate": 60}, "raw"
    )
    assert ok == JudgeVerdict(7, 60.0, True, None, "raw", "fine")
    for data, error in [
        ({"evaluation": "x", "total_rating": 7}, "missing task_completion_rate"),
        ({"evaluation": "x", "total_rating": 12, "task_completion_rate": 5}, "outside 1-10"),
        ({"evaluation": "x", "total_rating": True, "task_completion_rate": 5}, "not a number"),
        ({"evaluation": "x", "total_rating": "7", "task_completion_rate": 5}, "not a number"),
        ({"evaluation": "x", "total_rating": 7, "task_completion_rate": 101}, "outside 0-100"),
        (["not", "an", "object"], "not a JSON object"),
    ]:
        verdict = verdict_from_data(data, "the raw reply")
        assert not verdict.ok and verdict.score is None and verdict.tcr is None
        assert error in (verdict.error or "") and verdict.raw == "the raw reply"


# --- the judge with a scripted model ---------------------------------------------------------


def test_json_mode_sends_every_input_and_the_schema(conversations) -> None:
    conv = next(c for c in conversations if c.history)
    reply = {"evaluation": "Covers most steps.", "total_rating": 7, "task_completion_rate": 62}
    llm = ScriptedLLM([reply])
    verdict = InsEvalJudge(llm).score(conv, "SYSTEM ANSWER TEXT", ["SYS STEP ONE", "SYS STEP TWO"])

    assert verdict == JudgeVerdict(7, 62.0, True, None, json.dumps(reply), "Covers most steps.")
    call = llm.calls[0]
    assert call.schema == JUDGE_SCHEMA
    assert call.params["temperature"] == 0.0
    prompt = call.prompt
    for text in [
        conv.question,
        conv.answer,
        *conv.procedures,
        conv.history[0][0],
        conv.history[-1][1],
        "SYSTEM ANSWER TEXT",
        "1. SYS STEP ONE",
        "2. SYS STEP TWO",
    ]:
        assert text in prompt
    assert f"Reference procedural instructions ({len(conv.procedures)} steps)" in prompt


def test_bundled_prompt_has_ten_levels_and_counts_only_the_procedure(conversations) -> None:
    llm = ScriptedLLM(["Feedback: fine.\nTotal rating: 6\nTask completion rate: 40%"])
    verdict = InsEvalJudge(llm, mode="text").score(conversations[0], "answer", ["step"])
    assert verdict.ok and verdict.evaluation == "fine."
    prompt = llm.calls[0].prompt
    levels = re.findall(r"^\s+(\d+): \w", prompt, flags=re.M)
    assert levels == [str(i) for i in range(1, 11)]
    assert "the system answer does not" in prompt


def test_a_users_prompt_file_replaces_the_bundled_one(conversations, tmp_path) -> None:
    path = tmp_path / "appendix.txt"
    path.write_text("Judge this.\n--- user ---\nQ: $question\nA: $answer\nSteps:\n$procedures\n"
                    "Reference:\n$reference_procedures\nPrice: $$5\n$format\n", encoding="utf-8")
    llm = ScriptedLLM(["Total rating: 3\nTask completion rate: 0%"])
    judge = InsEvalJudge(llm, mode="text", prompt_file=path)
    verdict = judge.score(conversations[0], "MY ANSWER", ["MY STEP"])
    assert (verdict.score, verdict.tcr) == (3, 0.0)
    call = llm.calls[0]
    assert call.messages[0]["content"] == "Judge this."
    assert "MY ANSWER" in call.prompt and "1. MY STEP" in call.prompt and "Price: $5" in call.prompt
    bundled = InsEvalJudge(ScriptedLLM(), mode="text").config()
    assert judge.config()["prompt_hash"] != bundled["prompt_hash"]
    assert judge.config()["prompt"] == "file:appendix.txt"
    path.write_text(path.read_text(encoding="utf-8") + "more\n", encoding="utf-8")
    assert InsEvalJudge(ScriptedLLM(), mode="text", prompt_file=path).config()["prompt_hash"] \
        != judge.config()["prompt_hash"]


@pytest.mark.parametrize(("text", "error"), [
    ("Rate $answer for $topic", "unknown placeholder(s) ['topic']"),
    ("Rate it: $question", "neither $answer nor $procedures"),
    ("Costs $ 5 for $answer", "lone '$'"),
])
def test_bad_prompt_files_are_refused_naming_the_file(tmp_path, text, error) -> None:
    path = tmp_path / "bad.txt"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ValueError, match="bad.txt") as info:
        InsEvalJudge(ScriptedLLM(), prompt_file=path)
    assert error in str(info.value)
    with pytest.raises(ValueError, match="cannot be read"):
        InsEvalJudge(ScriptedLLM(), prompt_file=tmp_path / "missing.txt")


def test_text_mode_parses_labels_and_sends_no_schema(conversations) -> None:
    llm = ScriptedLLM(["Evaluation: ok.\nTotal rating: 4\nTask completion rate: 25%"])
    judge = InsEvalJudge(llm, mode="text")
    verdict = judge.score(conversations[0], "answer", ["step"])
    assert (verdict.ok, verdict.score, verdict.tcr) == (True, 4, 25.0)
    assert llm.calls[0].schema is None
    assert "Total rating:" in llm.calls[0].prompt and "Task completion rate:" in llm.calls[0].prompt


@pytest.mark.parametrize(
    "reply",
    [
        {"evaluation": "x", "total_rating": 11, "task_completion_rate": 50},  # out of range
        {"evaluation": "x", "total_rating": 5},  # missing field
        "Total rating: 8\nTask completion rate: 75%",  # not JSON
        '{"evaluation": "cut off',  # truncated
    ],
)
def test_schema_failures_become_failed_verdicts_with_the_raw_reply(conversations, reply) -> None:
    verdict = InsEvalJudge(ScriptedLLM([reply])).score(conversations[0], "answer", ["step"])
    assert not verdict.ok and verdict.score is None and verdict.tcr is None
    assert verdict.error and verdict.error.startswith("LLMSchemaError")
    assert verdict.raw == (reply if isinstance(reply, str) else json.dumps(reply))


def test_response_errors_fail_the_verdict_and_transport_errors_propagate(conversations) -> None:
    broken = ScriptedLLM([LLMResponseError("no choices", raw='{"object": "error"}')])
    verdict = InsEvalJudge(broken).score(conversations[0], "answer", [])
    assert not verdict.ok and verdict.raw == '{"object": "error"}'
    with pytest.raises(LLMConnectionError):
        InsEvalJudge(unreachable_llm()).score(conversations[0], "answer", [])


def test_async_score_and_config(conversations) -> None:
    reply = {"evaluation": "fine", "total_rating": 9, "task_completion_rate": 100}
    judge = InsEvalJudge(ScriptedLLM([reply], model="judge-model"))
    verdict = asyncio.run(judge.ascore(conversations[0], "answer", ["a step"]))
    assert (verdict.ok, verdict.score, verdict.tcr) == (True, 9, 100.0)

    config = judge.config()
    assert config["model"] == "judge-model" and len(config["prompt_hash"]) == 16
    assert InsEvalJudge(ScriptedLLM(), mode="text").config()["prompt_hash"] != config["prompt_hash"]
    with pytest.raises(ValueError, match="mode"):
        InsEvalJudge(ScriptedLLM(), mode="xml")


# --- the real engine -------------------------------------------------------------------------


@pytest.mark.slow
def test_real_judge_gives_a_verdict_or_a_recorded_failure(embedded_llm, conversations) -> None:
    conv = min(conversations, key=lambda c: len(c.answer) + sum(map(len, c.procedures)))
    judge = InsEvalJudge(embedded_llm, max_tokens=160)
    verdict = judge.score(
        conv, conv.history[-1][1] if conv.history else conv.answer, conv.procedures[:2]
    )
    if verdict.ok:
        assert isinstance(verdict.score, int) and 1 <= verdict.score <= 10
        assert verdict.tcr is not None and 0 <= verdict.tcr <= 100
        assert verdict.error is None
    else:
        assert verdict.score is None and verdict.tcr is None and verdict.error
    assert verdict.raw.strip()
