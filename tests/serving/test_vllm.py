"""vLLM integration: runs where vLLM is importable (see scripts/vllm_cpu_test.sh), skipped elsewhere.

The model is ``$INSCOQA_VLLM_TEST_MODEL`` (a Hugging Face model directory), else the bundled
SmolLM2 GGUF exported to safetensors for the test session.
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Iterator
from pathlib import Path

import jsonschema
import pytest

from serving import LLMClient, ServingConfig, connect

pytestmark = [
    pytest.mark.vllm,
    pytest.mark.slow,
    pytest.mark.skipif(importlib.util.find_spec("vllm") is None, reason="vLLM is not installed"),
]

STEPS_SCHEMA = {
    "title": "steps",
    "type": "object",
    "properties": {
        "steps": {"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 3}
    },
    "required": ["steps"],
    "additionalProperties": False,
}


@pytest.fixture(scope="module")
def vllm_model(tmp_path_factory: pytest.TempPathFactory) -> str:
    if os.environ.get("INSCOQA_VLLM_TEST_MODEL"):
        return os.environ["INSCOQA_VLLM_TEST_MODEL"]
    from serving.engines.embedded import bundled_model_path
    from serving.engines.gguf_export import export_gguf

    return str(export_gguf(bundled_model_path(), tmp_path_factory.mktemp("vllm-model")))


@pytest.fixture(scope="module")
def vllm_llm(vllm_model: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LLMClient]:
    work: Path = tmp_path_factory.mktemp("vllm")
    config = ServingConfig(
        engine="vllm",
        model=vllm_model,
        dtype=os.environ.get("INSCOQA_VLLM_TEST_DTYPE", "float32"),
        enforce_eager=True,
        max_model_len=2048,
        api_key="test-key",
        startup_timeout_s=900,
        timeout_s=120,
        cache_dir=str(work / "cache"),
        log_dir=str(work / "logs"),
    )
    with connect(config) as client:
        yield client


def test_chat_reply(vllm_llm: LLMClient) -> None:
    result = vllm_llm.chat(
        [{"role": "user", "content": "Say hello."}], max_tokens=16, use_cache=False
    )
    assert result.text.strip()
    assert result.usage.calls == 1 and result.usage.completion_tokens > 0


def test_schema_reply_validates(vllm_llm: LLMClient) -> None:
    result = vllm_llm.chat(
        [{"role": "user", "content": "List the steps to boil an egg as JSON."}],
        schema=STEPS_SCHEMA,
        max_tokens=80,
        use_cache=False,
    )
    jsonschema.validate(result.data, STEPS_SCHEMA)


def test_seeded_sampling_is_reproducible(vllm_llm: LLMClient) -> None:
    ask = [{"role": "user", "content": "Write one sentence about tea."}]
    first = vllm_llm.chat(ask, temperature=1.0, seed=7, max_tokens=24, use_cache=False)
    second = vllm_llm.chat(ask, temperature=1.0, seed=7, max_tokens=24, use_cache=False)
    assert first.text == second.text
