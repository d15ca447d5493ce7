"""Every model call made for a sample carries its conversation id as the session header, so a
router in front of replicas keeps a conversation on one of them (and its prefix cache)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from inscoqa.cli import main
from serving.fake_server import FakeLLMServer
from serving.headers import SESSION_HEADER


def test_each_call_of_a_bench_sample_names_its_conversation(
        clean_env: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with FakeLLMServer() as server:
        code = main(["bench", "--systems", "inscoqa", "--limit", "3", "--base-url",
                     server.base_url, "--model", "fake-model", "--out", str(clean_env / "runs"),
                     "--no-plots", "--no-progress", "--json"])
        headers = list(server.request_headers)
    assert code == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["systems"]["inscoqa"]["n"] == 3
    sessions = [{k.lower(): v for k, v in h.items()}.get(SESSION_HEADER.lower())
                for h in headers]
    (results,) = (clean_env / "runs").glob("inscoqa-*/results.jsonl")
    ids = {json.loads(line)["sample_id"] for line in results.read_text().splitlines()}
    assert None not in sessions and set(sessions) == ids  # answer and judge calls alike
