"""Engine command lines, start-up failures, and `inscoqa serve` with the real embedded engine."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import httpx
import jsonschema
import pytest

from serving import EngineStartError, ServingConfig, connect
from serving.config import ConfigError
from serving.engines import ENGINES, get_engine
from serving.engines.llama_server import llama_cpp_response_format
from serving.fake_server import FakeLLMServer


def test_registry_knows_the_engines() -> None:
    assert {"embedded", "vllm", "external"} <= set(ENGINES)
    with pytest.raises(ConfigError, match="expected one of"):
        get_engine("tgi")


def test_vllm_command_line() -> None:
    config = ServingConfig(
        engine="vllm",
        model="org/model",
        tensor_parallel_size=2,
        max_model_len=4096,
        dtype="bfloat16",
        api_key="k",
        enforce_eager=True,
        seed=3,
        vllm_args="--gpu-memory-utilization 0.8",
    )
    argv = get_engine("vllm").command(config, 8123)
    assert argv[1:3] == ["-m", "vllm.entrypoints.openai.api_server"]
    pairs = dict(zip(argv[3::2], argv[4::2], strict=False))
    assert pairs["--model"] == "org/model" and pairs["--port"] == "8123"
    assert pairs["--tensor-parallel-size"] == "2" and pairs["--max-model-len"] == "4096"
    assert pairs["--dtype"] == "bfloat16" and pairs["--api-key"] == "k" and pairs["--seed"] == "3"
    assert "--enforce-eager" in argv and argv[-2:] == ["--gpu-memory-utilization", "0.8"]


def test_vllm_needs_a_model() -> None:
    with pytest.raises(ConfigError, match="model"):
        get_engine("vllm").command(ServingConfig(engine="vllm"), 8000)


def test_external_engine_does_not_launch(tmp_path: Path) -> None:
    with (
        pytest.raises(ConfigError, match="base_url"),
        connect(ServingConfig(engine="external", cache_dir=str(tmp_path))),
    ):
        pass


def test_connect_attaches_to_a_running_server_and_discovers_its_model(tmp_path: Path) -> None:
    with (
        FakeLLMServer() as server,
        connect(
            ServingConfig(engine="external", base_url=server.base_url, cache_dir=str(tmp_path))
        ) as client,
    ):
        assert client.model == "fake-model"
        assert client.chat([{"role": "user", "content": "hi"}]).text == "reply to: hi"


def test_missing_model_file_is_a_clear_error(tmp_path: Path) -> None:
    config = ServingConfig(
        model=str(tmp_path / "nope.gguf"), log_dir=str(tmp_path), cache_dir=str(tmp_path)
    )
    with pytest.raises(EngineStartError, match="nope.gguf"), connect(config):
        pass


@pytest.mark.slow
def test_engine_that_exits_reports_the_log_tail(tmp_path: Path) -> None:
    broken = tmp_path / "broken.gguf"
    broken.write_bytes(b"this is not a gguf file")
    config = ServingConfig(
        model=str(broken),
        log_dir=str(tmp_path / "logs"),
        cache_dir=str(tmp_path),
        startup_timeout_s=60,
    )
    with pytest.raises(EngineStartError) as info, connect(config):
        pass
    message = str(info.value)
    assert "died (exit code 1)" in message and "broken.gguf" in message
    assert info.value.log_path and Path(info.value.log_path).is_file()
    assert info.value.log_tail  # the server's own complaint


FRUIT_SCHEMA = {
    "type": "object",
    "properties": {"fruit": {"type": "string", "maxLength": 20},
                   "colour": {"type": "string", "maxLength": 20}},
    "required": ["fruit", "colour"],
    "additionalProperties": False,
}


def test_openai_json_schema_requests_reach_llama_cpp_in_its_own_form() -> None:
    body = {"messages": [], "response_format": {
        "type": "json_schema", "json_schema": {"name": "f", "schema": FRUIT_SCHEMA}}}
    assert llama_cpp_response_format(body)["response_format"] == {
        "type": "json_object", "schema": FRUIT_SCHEMA}
    plain = {"messages": [], "response_format": {"type": "json_object"}}
    assert llama_cpp_response_format(plain) is plain


@pytest.mark.slow
def test_serve_runs_until_interrupted(tmp_path: Path) -> None:
    env = {
        **os.environ,
        "INSCOQA_LOG_DIR": str(tmp_path),
        "INSCOQA_CONFIG": str(tmp_path / "none.toml"),
    }
    (tmp_path / "none.toml").write_text("", encoding="utf-8")
    proc = subprocess.Popen(
        [sys.executable, "-m", "inscoqa", "serve", "--engine", "embedded", "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        line = proc.stdout.readline() if proc.stdout else ""
        endpoint = json.loads(line)
        assert endpoint["base_url"].endswith("/v1")  # the OpenAI base URL, as clients take it
        models = httpx.get(endpoint["base_url"] + "/models", timeout=10, trust_env=False).json()
        assert models["data"][0]["id"] == endpoint["model"]
        # a plain OpenAI structured-output request (not the project's client) gets a reply
        # that follows the schema, as from vLLM
        reply = httpx.post(endpoint["base_url"] + "/chat/completions", timeout=120,
                           trust_env=False, json={
            "model": endpoint["model"], "max_tokens": 60, "temperature": 0,
            "messages": [{"role": "user", "content": "Name a fruit and its colour."}],
            "response_format": {"type": "json_schema", "json_schema": {
                "name": "fruit", "strict": True, "schema": FRUIT_SCHEMA}}})
        assert reply.status_code == 200, reply.text
        data = json.loads(reply.json()["choices"][0]["message"]["content"])
        jsonschema.validate(data, FRUIT_SCHEMA)
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=60) == 130
        with pytest.raises(httpx.ConnectError):
            httpx.get(endpoint["base_url"] + "/models", timeout=5, trust_env=False)
    finally:
        if proc.poll() is None:
            proc.kill()
