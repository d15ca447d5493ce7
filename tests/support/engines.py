"""An engine double: the fake OpenAI server run as a real engine process that can crash."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager

from serving.config import ServingConfig
from serving.engines import Endpoint, Engine
from serving.engines.process import engine_server


class FakeEngineProcess(Engine):
    """The fake OpenAI server as a real engine process, crashing after ``crash_after`` replies."""

    name = "embedded"
    schema_format = "llama_cpp"

    def __init__(self, crash_after: int = 0, signal_name: str = "SIGSEGV") -> None:
        self.crash_after = crash_after
        self.signal_name = signal_name

    def default_model(self, config: ServingConfig) -> str:
        return "fake-model"

    @contextmanager
    def launch(self, config: ServingConfig) -> Iterator[Endpoint]:
        def command(port: int) -> list[str]:
            return [sys.executable, "-m", "serving.fake_server", "--port", str(port),
                    "--crash-after", str(self.crash_after), "--crash-signal", self.signal_name]

        server = engine_server("embedded", config, command, model="fake-model")
        with server as base_url:
            yield Endpoint(base_url=base_url, model="fake-model", check=server.check)
