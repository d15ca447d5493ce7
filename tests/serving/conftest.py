"""Fixtures for the serving tests: a scripted local server and clients pointed at it."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from serving import LLMClient, ServingConfig
from serving.fake_server import FakeLLMServer

ClientFactory = Callable[..., LLMClient]


@pytest.fixture
def fake_server() -> Iterator[FakeLLMServer]:
    with FakeLLMServer() as server:
        yield server


@pytest.fixture
def make_client(fake_server: FakeLLMServer, tmp_path: Path) -> Iterator[ClientFactory]:
    """Clients on the fake server with fast retries; keyword arguments override config fields."""
    clients: list[LLMClient] = []

    def make(**overrides: Any) -> LLMClient:
        values: dict[str, Any] = {
            "engine": "external",
            "base_url": fake_server.base_url,
            "model": "fake-model",
            "cache_dir": str(tmp_path / "cache"),
            "timeout_s": 5.0,
            "retries": 3,
            "backoff_s": 0.01,
            "max_backoff_s": 0.05,
            "schema_retries": 2,
        }
        values.update(overrides)
        client = LLMClient(ServingConfig(**values))
        clients.append(client)
        return client

    yield make
    for client in clients:
        client.close()
