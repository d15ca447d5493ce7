"""Many replicas behind one endpoint: ``vllm-router`` in front of N engine servers.

* :func:`router` starts ``vllm-router`` in front of running OpenAI-compatible servers (any that
  answer ``/health``, as vLLM does). The default policy is consistent hashing on the session
  header the client sends (:mod:`serving.headers`): every turn of a conversation reaches the same
  replica, which finds the conversation's prefix in its cache.
* :func:`replicas` starts N servers of one engine (each on its own port and, for vLLM, its own
  ``tensor_parallel_size`` GPUs) and the router in front of them; the endpoint it yields is the
  router's, so a client cannot tell one replica from many.

``vllm-router`` is an optional extra (``pip install 'inscoqa[router]'``).
"""

from __future__ import annotations

import dataclasses
import shutil
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Literal

from serving.config import ConfigError, ServingConfig
from serving.engines import Endpoint, get_engine
from serving.engines.process import ServerProcess, engine_server, free_port

RouterPolicy = Literal["consistent_hash", "round_robin", "cache_aware", "power_of_two", "random"]
ROUTER = "vllm-router"


def router_executable() -> str:
    """The ``vllm-router`` program: beside this interpreter, else on PATH."""
    beside = Path(sys.executable).with_name(ROUTER)
    found = str(beside) if beside.exists() else shutil.which(ROUTER)
    if not found:
        raise ConfigError(f"{ROUTER} is not installed: pip install 'inscoqa[router]'")
    return found


def router_command(worker_urls: Sequence[str], *, host: str, port: int,
                   policy: RouterPolicy = "consistent_hash", api_key: str = "",
                   startup_timeout_s: float = 120.0) -> list[str]:
    """The ``vllm-router`` command line in front of ``worker_urls``."""
    if not worker_urls:
        raise ConfigError("a router needs at least one replica")
    argv = [router_executable(), "--host", host, "--port", str(port),
            "--policy", policy, "--worker-urls", *worker_urls,
            "--worker-startup-timeout-secs", str(max(1, round(startup_timeout_s))),
            "--log-level", "warning"]
    if api_key:
        argv += ["--api-key", api_key]
    return argv


@contextmanager
def router(worker_urls: Sequence[str], config: ServingConfig, *, model: str = "",
           policy: RouterPolicy = "consistent_hash") -> Iterator[Endpoint]:
    """Run ``vllm-router`` on ``config.host``/``config.port`` (0: a free port) in front of
    ``worker_urls``; yield its endpoint once it has answered a chat request."""
    port = config.port or free_port(config.host)
    log = config.log_path() / f"router-{time.strftime('%Y%m%d-%H%M%S')}-{port}.log"
    server = ServerProcess(
        name=ROUTER,
        argv=router_command(worker_urls, host=config.host, port=port, policy=policy,
                            api_key=config.api_key, startup_timeout_s=config.startup_timeout_s),
        host=config.host, port=port, log_path=log, startup_timeout_s=config.startup_timeout_s,
        api_key=config.api_key, model=model)
    with server as base_url:
        yield Endpoint(base_url=base_url, model=model, check=server.check)


def gpu_groups(replicas: int, tensor_parallel_size: int) -> list[str]:
    """``CUDA_VISIBLE_DEVICES`` of each replica: consecutive groups of TP GPUs."""
    size = max(1, tensor_parallel_size)
    return [",".join(str(i * size + g) for g in range(size)) for i in range(replicas)]


@contextmanager
def replicas(config: ServingConfig, count: int, *,
             policy: RouterPolicy = "consistent_hash") -> Iterator[Endpoint]:
    """Start ``count`` servers of ``config.engine`` and a router in front of them.

    Each replica gets a free port (the router takes ``config.port``) and, for vLLM, its own
    group of ``tensor_parallel_size`` GPUs. The endpoint's ``check`` raises once the router or
    any replica has died."""
    if count < 1:
        raise ConfigError(f"--replicas must be at least 1, got {count}")
    engine = get_engine(config.engine)
    command = getattr(engine, "command", None)
    if command is None:
        raise ConfigError(f"engine {config.engine!r} does not start servers to replicate")
    replica_config = dataclasses.replace(config, port=0)
    model = engine.default_model(config) or config.model
    with ExitStack() as stack:
        servers: list[ServerProcess] = []
        for index, gpus in enumerate(gpu_groups(count, config.tensor_parallel_size)):
            server = engine_server(f"{engine.name}-{index}", replica_config,
                                   lambda port: command(replica_config, port), model=model)
            if engine.name == "vllm":
                server.env = {**server.env, "CUDA_VISIBLE_DEVICES": gpus}
            stack.enter_context(server)
            servers.append(server)
        front = stack.enter_context(router([s.base_url for s in servers], config, model=model,
                                           policy=policy))

        def check(grace_s: float = 0.0) -> None:
            for part in servers:
                part.check(grace_s)
            if front.check is not None:
                front.check(grace_s)

        yield Endpoint(base_url=front.base_url, model=model, check=check)
