"""Replicas behind ``vllm-router``: real router processes in front of fake OpenAI servers."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import httpx
import pytest

from serving import LLMClient, ServingConfig
from serving.engines import process
from serving.engines.base import ENGINES, Engine, register_engine
from serving.errors import EngineDiedError, EngineStartError
from serving.fake_server import FakeLLMServer
from serving.headers import SESSION_HEADER, current_headers, session
from serving.router import gpu_groups, replicas, router, router_executable

pytest.importorskip("vllm_router")


def client_for(base_url: str, tmp_path: Path) -> LLMClient:
    return LLMClient(ServingConfig(engine="external", base_url=base_url, model="fake-model",
                                   cache=False, retries=0, cache_dir=str(tmp_path / "cache")))


@pytest.fixture
def two_backends() -> Iterator[list[FakeLLMServer]]:
    with FakeLLMServer() as a, FakeLLMServer() as b:
        yield [a, b]


def test_session_header_is_set_only_inside_the_block() -> None:
    assert current_headers() == {}
    with session("conv-1"):
        assert current_headers() == {SESSION_HEADER: "conv-1"}
        with session("conv-2"):
            assert current_headers() == {SESSION_HEADER: "conv-2"}
        assert current_headers() == {SESSION_HEADER: "conv-1"}
    assert current_headers() == {}


def test_router_keeps_each_conversation_on_one_replica(two_backends: list[FakeLLMServer],
                                                       tmp_path: Path) -> None:
    config = ServingConfig(log_dir=str(tmp_path / "logs"))
    with router([s.base_url for s in two_backends], config, model="fake-model") as endpoint, \
            client_for(endpoint.base_url, tmp_path) as client:
        replica_of: dict[str, set[int]] = {}
        for n in range(16):
            conversation = f"conv-{n}"
            for turn in range(3):
                before = [s.request_count for s in two_backends]
                with session(conversation):
                    client.chat([{"role": "user", "content": f"{conversation} turn {turn}"}],
                                use_cache=False)
                served = [i for i, s in enumerate(two_backends)
                          if s.request_count > before[i]]
                assert len(served) == 1
                replica_of.setdefault(conversation, set()).update(served)
        # every turn of a conversation reached the same replica; both replicas have work
        assert all(len(r) == 1 for r in replica_of.values()), replica_of
        assert {next(iter(r)) for r in replica_of.values()} == {0, 1}


def test_router_reports_a_missing_replica_in_one_line(tmp_path: Path) -> None:
    down = FakeLLMServer().start()
    url = down.base_url
    down.stop()
    config = ServingConfig(log_dir=str(tmp_path / "logs"), startup_timeout_s=3)
    with pytest.raises(EngineStartError) as caught, router([url], config):
        pass
    assert "vllm-router engine did not answer" in str(caught.value).splitlines()[0]


class FakeReplicaEngine(Engine):
    """Starts ``serving.fake_server`` processes: the replica path without a GPU."""

    name = "fake-replica"

    def default_model(self, config: ServingConfig) -> str:
        return "fake-model"

    def command(self, config: ServingConfig, port: int) -> list[str]:
        return [sys.executable, "-m", "serving.fake_server", "--host", config.host,
                "--port", str(port)]


@pytest.fixture
def fake_replica_engine() -> Iterator[str]:
    register_engine(FakeReplicaEngine)
    try:
        yield FakeReplicaEngine.name
    finally:
        ENGINES.pop(FakeReplicaEngine.name, None)


def test_replicas_start_servers_and_a_router_and_report_a_dead_replica(
        fake_replica_engine: str, tmp_path: Path) -> None:
    config = ServingConfig(engine=fake_replica_engine,  # type: ignore[arg-type]
                           log_dir=str(tmp_path / "logs"), startup_timeout_s=30)
    with ExitStack() as stack:
        endpoint = stack.enter_context(replicas(config, 2))
        client = stack.enter_context(client_for(endpoint.base_url, tmp_path))
        assert endpoint.model == "fake-model"
        with session("conv-1"):
            assert client.chat([{"role": "user", "content": "hello"}]).text
        assert endpoint.check is not None
        endpoint.check()
        logs = sorted(p.name.split("-2")[0] for p in (tmp_path / "logs").iterdir())
        assert logs == ["fake-replica-0", "fake-replica-1", "router"]
        # a replica that dies is reported by the endpoint's check
        replica = next(s for s in process._LIVE if s.name == "fake-replica-0")
        assert replica.process is not None
        os.killpg(replica.process.pid, signal.SIGKILL)
        with pytest.raises(EngineDiedError, match="fake-replica-0 engine died"):
            endpoint.check(5.0)


def test_gpu_groups_give_each_replica_its_own_devices() -> None:
    assert gpu_groups(2, 1) == ["0", "1"]
    assert gpu_groups(2, 2) == ["0,1", "2,3"]
    assert gpu_groups(1, 4) == ["0,1,2,3"]


def test_router_executable_is_installed() -> None:
    assert Path(router_executable()).exists()


@pytest.mark.slow
def test_serve_two_embedded_replicas_behind_the_router(tmp_path: Path) -> None:
    """``inscoqa serve --engine embedded --replicas 2``: two real llama.cpp servers and the
    router; a conversation's calls go through the router until Ctrl-C stops all three."""
    (tmp_path / "none.toml").write_text("", encoding="utf-8")
    env = {**os.environ, "INSCOQA_LOG_DIR": str(tmp_path / "logs"),
           "INSCOQA_CONFIG": str(tmp_path / "none.toml")}
    proc = subprocess.Popen(
        [sys.executable, "-m", "inscoqa", "serve", "--engine", "embedded", "--replicas", "2",
         "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        line = proc.stdout.readline() if proc.stdout else ""
        endpoint = json.loads(line)
        assert endpoint["engine"] == "embedded x2 behind vllm-router"
        with client_for(endpoint["base_url"], tmp_path) as client, session("conv-1"):
            for turn in ("Say hello.", "Say goodbye."):
                result = client.chat([{"role": "user", "content": turn}], max_tokens=8)
                assert result.text.strip()
        logs = sorted(p.name.split("-2")[0] for p in (tmp_path / "logs").iterdir())
        assert logs == ["embedded-0", "embedded-1", "router"]
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=60) == 130
        with pytest.raises(httpx.ConnectError):
            httpx.get(endpoint["base_url"] + "/models", timeout=5, trust_env=False)
    finally:
        if proc.poll() is None:
            proc.kill()
