"""Protocol modes, the judge's reply mode and note, the judge check and significance, end to end
through ``inscoqa bench`` / ``inscoqa judge check`` against a local OpenAI-compatible server."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from inscoqa.cli import main
from serving.fake_server import FakeLLMServer

ANSWER_FORMAT_MARK = "Write your reply in two parts"


def exact_reply(body: dict[str, Any]) -> str:
    """Answers in the requested format; judges like an oracle (exact step matching)."""
    prompt = "\n".join(str(m.get("content", "")) for m in body.get("messages", []))
    schema = json.dumps(body.get("response_format") or {})
    steps = [f"Step {i} of the answer" for i in range(1, 9)]
    if '"procedures"' in schema:
        return json.dumps({"answer": "Do it this way.", "procedures": steps[:3]})
    if ANSWER_FORMAT_MARK in prompt:
        numbered = "\n".join(f"{i}. {step}" for i, step in enumerate(steps, 1))
        return f"Answer: Do it this way.\nProcedural instructions:\n{numbered}"
    if "System procedural instructions:" not in prompt:
        return "ok"
    reference = re.findall(r"^\d+\. (.*)$", prompt.split("steps):\n", 1)[1].split("\n\n", 1)[0],
                           flags=re.M)
    system = re.findall(r"^\d+\. (.*)$", prompt.split("System procedural instructions:\n", 1)[1]
                        .split("\n\n", 1)[0], flags=re.M)
    coverage = 100 * sum(1 for s in system if s in reference) / max(1, len(reference))
    score = 10 if system == reference else 9 if sorted(system) == sorted(reference) else \
        1 + round(7 * coverage / 100)
    if '"total_rating"' in schema:
        return json.dumps({"evaluation": "exact", "total_rating": score,
                           "task_completion_rate": round(coverage)})
    return f"Feedback: exact.\nTotal rating: {score}\nTask completion rate: {coverage:.2f}%"


@pytest.fixture
def server() -> Iterator[FakeLLMServer]:
    with FakeLLMServer(default=exact_reply) as s:
        yield s


def bench(argv: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    assert main(["bench", "--no-progress", "--out", "runs", *argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_external_engines_get_the_paper_protocol_and_a_text_judge(
        clean_env: Path, server: FakeLLMServer, capsys: pytest.CaptureFixture[str]) -> None:
    summary = bench(["--systems", "inscoqa", "--limit", "2", "--base-url", server.base_url],
                    capsys)
    system = summary["systems"]["inscoqa"]
    assert system["judged"] == 2 and system["protocol"].startswith("paper")
    assert system["truncated"] == 0
    config = summary["meta"]["systems"]["inscoqa"]["config"]
    assert config["params"]["protocol"] == "paper" and config["params"]["max_tokens"] == 0
    answers = [r for r in server.requests if ANSWER_FORMAT_MARK in json.dumps(r)]
    judged = [r for r in server.requests if "Total rating" in json.dumps(r)]
    assert answers and all("response_format" not in r for r in answers)
    assert all(r["max_tokens"] == 1536 for r in answers)
    assert judged and all("response_format" not in r for r in judged)  # text judge
    assert summary["meta"]["judge"]["mode"] == "text"
    assert "the judge is the answerers' own model" in summary["meta"]["judge_note"]

    constrained = bench(["--systems", "inscoqa", "--limit", "2", "--base-url", server.base_url,
                         "--protocol", "constrained", "--judge-model", "judge-model"], capsys)
    assert constrained["systems"]["inscoqa"]["protocol"].startswith("constrained (JSON schema")
    assert constrained["meta"]["judge_note"] is None
    assert (constrained["meta"]["systems"]["inscoqa"]["run_key"]
            != summary["meta"]["systems"]["inscoqa"]["run_key"])


def test_console_marks_significance_the_judge_note_and_the_check(
        clean_env: Path, server: FakeLLMServer, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--systems", "extractive,inscoqa", "--limit", "3", "--base-url",
                 server.base_url, "--out", "runs", "--no-progress", "--no-plots",
                 "--judge-check", "3"]) == 0
    out = capsys.readouterr().out
    assert "95% bootstrap intervals:" in out and "| extractive |" in out
    assert re.search(r"JS: (no significant difference at 0.05|\w+ > \w+ \(p=)", out)
    assert "protocol of inscoqa: paper" in out
    assert "note: the judge is the answerers' own model" in out
    assert "judge check: judge fake-model: usable for ranking systems on this data" in out
    report = Path(out.strip().splitlines()[-1].removeprefix("report: "))
    text = report.read_text(encoding="utf-8")
    assert "## Confidence intervals and significant differences" in text
    assert "## Judge check" in text and "| drop50 |" in text
    data = json.loads(report.with_suffix(".json").read_text(encoding="utf-8"))
    assert data["judge_check"]["js_spearman"] == pytest.approx(1.0)
    assert {d["column"] for d in data["significance"]["differences"]} == {
        "js", "tcr", "w_rouge_l", "c_rouge_l"}


def test_judge_check_command(clean_env: Path, server: FakeLLMServer,
                             capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["judge", "check", "--limit", "3", "--judge-base-url", server.base_url,
                 "--out", "check.json"]) == 0
    out = capsys.readouterr().out
    assert "JS vs known order: Spearman 1.00" in out and "mean absolute error 0.0" in out
    assert out.count("usable for ranking systems on this data") == 1
    saved = json.loads((clean_env / "check.json").read_text(encoding="utf-8"))
    assert saved["n_conversations"] == 3 and saved["usable"] is True
    assert main(["judge", "check", "--data", "missing.jsonl"]) == 2
    assert "missing.jsonl" in capsys.readouterr().err


def test_a_judge_prompt_file_is_used_and_keyed(clean_env: Path, server: FakeLLMServer,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    prompt = clean_env / "appendix.txt"
    prompt.write_text("APPENDIX PROMPT\n$history\n$question\nReference procedural instructions "
                      "($n_reference_steps steps):\n$reference_procedures\n\nSystem answer:\n"
                      "$answer\n\nSystem procedural instructions:\n$procedures\n\n$format\n",
                      encoding="utf-8")
    base = ["--systems", "extractive", "--limit", "1", "--base-url", server.base_url]
    plain = bench(base, capsys)
    custom = bench([*base, "--judge-prompt", str(prompt)], capsys)
    assert any("APPENDIX PROMPT" in json.dumps(r) for r in server.requests)
    assert custom["meta"]["judge"]["prompt"] == "file:appendix.txt"
    assert (custom["meta"]["systems"]["extractive"]["run_key"]
            != plain["meta"]["systems"]["extractive"]["run_key"])
    prompt.write_text("Rate $answr", encoding="utf-8")
    assert main(["bench", *base, "--judge-prompt", str(prompt), "--out", "runs"]) == 2
    assert "unknown placeholder" in capsys.readouterr().err


@pytest.mark.parametrize(("flag", "message"), [
    (["--alpha", "2"], "--alpha must be between 0 and 1"),
    (["--judge-check", "-1"], "--judge-check must be 0 or more"),
])
def test_bad_flags_stop_before_any_work(clean_env: Path, server: FakeLLMServer,
                                        capsys: pytest.CaptureFixture[str], flag, message) -> None:
    assert main(["bench", "--systems", "extractive", "--limit", "1", "--base-url",
                 server.base_url, "--out", "runs", *flag]) == 2
    assert message in capsys.readouterr().err and server.request_count == 0


def test_protocol_and_judge_defaults_follow_the_engine() -> None:
    from eval.bench.session import (
        BenchOptions,
        default_judge_mode,
        judge_note,
        system_params,
    )
    from serving.config import ServingConfig

    embedded = ServingConfig(engine="embedded", n_ctx=4096)
    vllm = ServingConfig(engine="vllm", max_model_len=16384)
    external = ServingConfig(engine="external", base_url="http://h:8000")
    options = BenchOptions(systems=["extractive", "inscoqa"])
    assert system_params(options, embedded) == {"inscoqa": {"protocol": "constrained"}}
    assert system_params(options, vllm) == {"inscoqa": {"protocol": "paper",
                                                        "context_tokens": 16384}}
    assert system_params(options, external) == {"inscoqa": {"protocol": "paper"}}
    chosen = BenchOptions(systems=["inscoqa"], protocol="paper",
                          params={"inscoqa": {"context_tokens": 2048}})
    assert system_params(chosen, embedded) == {"inscoqa": {"protocol": "paper",
                                                           "context_tokens": 2048}}
    with pytest.raises(ValueError, match="--protocol"):
        system_params(BenchOptions(protocol="exact"), embedded)
    assert (default_judge_mode(embedded), default_judge_mode(vllm)) == ("json", "text")
    assert "answerers' own model" in judge_note(external, external)
    assert judge_note(external, ServingConfig(engine="external", base_url="http://j:8000")) is None
