"""Run an OpenAI-compatible server as a child process: free port, log file, health wait, shutdown.

A started server is stopped when its context exits, at interpreter exit, and on SIGTERM (SIGINT
arrives as ``KeyboardInterrupt`` and unwinds the context). If it exits or does not answer
``GET /v1/models`` in time, :class:`EngineStartError` carries the command and the log's tail.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import shlex
import signal
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING

import httpx

from serving.errors import EngineStartError

if TYPE_CHECKING:
    from collections.abc import Callable

    from serving.config import ServingConfig

HEALTH_PATH = "/v1/models"
_LIVE: set[ServerProcess] = set()
_LIVE_LOCK = threading.Lock()


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        return int(sock.getsockname()[1])


def _watched(argv: list[str]) -> list[str]:
    """Wrap a command so it stops when this process dies without cleaning up."""
    return [sys.executable, "-m", "serving.engines.watchdog", str(os.getpid()), "--", *argv]


def log_tail(path: Path, lines: int = 30) -> str:
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""
    return "\n".join(text.splitlines()[-lines:])


@dataclass(eq=False)
class ServerProcess:
    """One server child process; use as a context manager yielding its base URL."""

    name: str
    argv: list[str]
    host: str
    port: int
    log_path: Path
    startup_timeout_s: float = 120.0
    api_key: str = ""
    env: dict[str, str] = field(default_factory=dict)
    process: subprocess.Popen[bytes] | None = None

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def start(self) -> str:
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        with open(self.log_path, "ab") as log:
            log.write(f"$ {shlex.join(self.argv)}\n".encode())
            log.flush()
            try:
                self.process = subprocess.Popen(
                    _watched(self.argv),
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    stdin=subprocess.DEVNULL,
                    env={**os.environ, **self.env},
                    start_new_session=True,
                )
            except OSError as exc:
                raise self._error(f"cannot run {self.argv[0]}: {exc}") from exc
        _track(self)
        try:
            self._wait_ready()
        except BaseException:
            self.stop()
            raise
        return self.base_url

    def _wait_ready(self) -> None:
        assert self.process is not None
        headers = {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}
        deadline = time.monotonic() + self.startup_timeout_s
        with httpx.Client(timeout=2.0, headers=headers, trust_env=False) as http:
            while True:
                code = self.process.poll()
                if code is not None:
                    raise self._error(f"exited with code {code} before answering")
                with contextlib.suppress(httpx.HTTPError):
                    if http.get(self.base_url + HEALTH_PATH).status_code == 200:
                        return
                if time.monotonic() > deadline:
                    raise self._error(
                        f"did not answer {HEALTH_PATH} within {self.startup_timeout_s:.0f}s"
                    )
                time.sleep(0.25)

    def _error(self, what: str) -> EngineStartError:
        tail = log_tail(self.log_path)
        return EngineStartError(
            f"{self.name} engine {what}.\n  command: {shlex.join(self.argv)}\n"
            f"  log: {self.log_path}\n  last lines of the log:\n{tail}",
            log_path=str(self.log_path),
            log_tail=tail,
        )

    def stop(self, timeout_s: float = 15.0) -> None:
        """Terminate the process group (SIGTERM, then SIGKILL after ``timeout_s``)."""
        process, self.process = self.process, None
        _untrack(self)
        if process is None or process.poll() is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout_s)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()

    def __enter__(self) -> str:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def stop_all() -> None:
    with _LIVE_LOCK:
        servers = list(_LIVE)
    for server in servers:
        server.stop()


_previous_sigterm: object = None
_installed = False


def _on_sigterm(signum: int, frame: FrameType | None) -> None:
    stop_all()
    previous = _previous_sigterm
    if callable(previous):
        previous(signum, frame)
    else:
        raise SystemExit(128 + signum)


def _track(server: ServerProcess) -> None:
    global _installed, _previous_sigterm
    with _LIVE_LOCK:
        _LIVE.add(server)
        if _installed:
            return
        _installed = True
    atexit.register(stop_all)
    if threading.current_thread() is threading.main_thread():
        _previous_sigterm = signal.getsignal(signal.SIGTERM)
        signal.signal(signal.SIGTERM, _on_sigterm)


def _untrack(server: ServerProcess) -> None:
    with _LIVE_LOCK:
        _LIVE.discard(server)


def engine_server(name: str, config: ServingConfig, command: Callable[[int], list[str]]) -> ServerProcess:
    """A server for engine ``name`` on the configured (or a free) port, logging under log_dir."""
    port = config.port or free_port(config.host)
    log = config.log_path() / f"{name}-{time.strftime('%Y%m%d-%H%M%S')}-{port}.log"
    return ServerProcess(
        name=name,
        argv=command(port),
        host=config.host,
        port=port,
        log_path=log,
        startup_timeout_s=config.startup_timeout_s,
        api_key=config.api_key,
    )
