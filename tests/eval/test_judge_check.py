"""The judge self-check: probes of known quality, an oracle judge, a random judge, the real one."""

from __future__ import annotations

import random
import re

import pytest

from eval.inseval import InsEvalJudge
from eval.judge_check import build_probes, run_judge_check
from serving.scripted import ScriptedLLM


def _section(prompt: str, head: str) -> list[str]:
    block = prompt.split(head, 1)[1].split("\n\n", 1)[0]
    return re.findall(r"^\d+\. (.*)$", block, flags=re.M)


def oracle(messages, schema):
    """Reads the reference and system steps from the prompt and scores them exactly."""
    prompt = "\n".join(m["content"] for m in messages)
    reference = _section(prompt, "steps):\n")
    system = _section(prompt, "System procedural instructions:\n")
    coverage = 100 * sum(1 for s in system if s in reference) / len(reference)
    if system == reference:
        score = 10
    elif sorted(system) == sorted(reference):
        score = 9
    else:
        score = 1 + round(7 * coverage / 100)
    return f"Feedback: exact.\nTotal rating: {score}\nTask completion rate: {coverage:.4f}%"


def random_judge(seed: int):
    rng = random.Random(seed)

    def reply(messages, schema):
        return f"Feedback: dice.\nTotal rating: {rng.randint(1, 10)}\nTask completion rate: {rng.randint(0, 100)}%"

    return reply


def test_probes_have_known_coverage(conversations) -> None:
    probes = build_probes(conversations[:5])
    by_kind = {}
    for probe in probes:
        by_kind.setdefault(probe.kind, []).append(probe)
    assert set(by_kind) == {"reference", "shuffled", "drop25", "drop50", "drop75", "irrelevant", "empty"}
    for probe in probes:
        conv = next(c for c in conversations if c.id == probe.conversation_id)
        if probe.kind.startswith("drop"):
            assert probe.procedures and set(probe.procedures) <= set(conv.procedures)
            assert probe.known_tcr == pytest.approx(100 * len(probe.procedures) / len(conv.procedures))
        if probe.kind == "shuffled":
            assert sorted(probe.procedures) == sorted(conv.procedures) != probe.procedures
            assert probe.known_order is None
        if probe.kind == "irrelevant":
            assert probe.answer != conv.answer and probe.known_tcr == 0
    long = max(conversations, key=lambda c: len(c.procedures))
    shares = {p.kind: p.known_tcr for p in build_probes([long, conversations[0]])
              if p.conversation_id == long.id}
    assert shares["drop25"] > shares["drop50"] > shares["drop75"] > 0
    assert build_probes(conversations[:3]) == build_probes(conversations[:3])  # seeded


def test_an_oracle_judge_gets_correlation_one_and_no_tcr_error(conversations) -> None:
    check = run_judge_check(InsEvalJudge(ScriptedLLM(oracle), mode="text"), conversations[:8])
    assert check.js_spearman == pytest.approx(1.0) and check.js_kendall == pytest.approx(1.0)
    assert check.tcr_spearman == pytest.approx(1.0)
    assert check.tcr_mae == pytest.approx(0.0, abs=1e-3)
    assert check.failures == 0 and check.usable
    assert "usable for ranking systems on this data" in check.verdict
    assert check.by_probe["reference"]["js"] == 10 and check.by_probe["shuffled"]["js"] == 9


def test_a_random_judge_gets_about_zero_and_is_not_usable(conversations) -> None:
    check = run_judge_check(InsEvalJudge(ScriptedLLM(random_judge(1)), mode="text"),
                            conversations, concurrency=1)
    assert abs(check.js_spearman) < 0.25 and abs(check.tcr_spearman) < 0.25
    assert check.tcr_mae > 25 and not check.usable
    assert "NOT usable" in check.verdict and "Spearman" in check.verdict


def test_parse_failures_are_counted(conversations) -> None:
    replies = iter(["Total rating: 8\nTask completion rate: 50%", "I cannot say."] * 200)
    check = run_judge_check(InsEvalJudge(ScriptedLLM(lambda m, s: next(replies)), mode="text"),
                            conversations[:3], concurrency=1)
    assert check.failures == check.n_probes // 2 and check.failure_rate == pytest.approx(0.5, abs=0.05)
    assert not check.usable and "parse failures" in check.verdict
    few = run_judge_check(InsEvalJudge(ScriptedLLM(oracle), mode="text"), conversations[:2])
    assert few.js_spearman == pytest.approx(1.0) and not few.usable
    assert "only 2 conversation(s), fewer than 3" in few.verdict
    with pytest.raises(ValueError, match="at least one conversation"):
        run_judge_check(InsEvalJudge(ScriptedLLM(oracle)), [])


@pytest.mark.slow
def test_the_embedded_judge_is_checked_honestly(embedded_llm, conversations) -> None:
    """The real engine: every probe is judged or counted as a failure, the figures are computed
    from its replies, and the verdict line follows from the thresholds (whatever they say)."""
    conv = min(conversations, key=lambda c: len(c.answer) + sum(map(len, c.procedures)))
    other = next(c for c in conversations if c.domain != conv.domain)
    check = run_judge_check(InsEvalJudge(embedded_llm, max_tokens=160), [conv, other],
                            concurrency=2)
    assert check.n_probes == len(build_probes([conv, other])) == 14
    assert check.failures == sum(1 for r in check.results if not r["ok"])
    assert sum(row["n"] for row in check.by_probe.values()) == check.n_probes
    meets = (check.js_spearman is not None and check.js_spearman >= 0.6
             and check.tcr_mae is not None and check.tcr_mae <= 25
             and check.failure_rate <= 0.1)
    assert check.usable == meets
    assert check.verdict.startswith(f"judge {embedded_llm.model}: ")
