"""Run an OpenAI-compatible server as a child process: free port, log file, readiness, shutdown.

A server is ready only once it has answered a real one-token chat completion (a server can list
its models and still crash on the first request). A started server is stopped when its context
exits, at interpreter exit, and on SIGTERM (SIGINT arrives as ``KeyboardInterrupt`` and unwinds
the context). If it exits or is not ready in time, :class:`EngineStartError` carries the command
and the log's tail; if it dies later, :meth:`ServerProcess.check` raises :class:`EngineDiedError`
naming the exit code or signal and the log.
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

from serving.errors import EngineDiedError, EngineStartError

if TYPE_CHECKING:
    from collections.abc import Callable

    from serving.config import ServingConfig

HEALTH_PATH = "/v1/models"
READY_PATH = "/v1/chat/completions"
READY_REQUEST = {"messages": [{"role": "user", "content": "Say OK."}], "max_tokens": 1,
                 "temperature": 0.0}
_LIVE: set[ServerProcess] = set()
_LIVE_LOCK = threading.Lock()


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        return int(sock.getsockname()[1])


def _watched(argv: list[str]) -> list[str]:
    """Wrap a command so it stops when this process dies without cleaning up."""
    return [sys.executable, "-m", "serving.engines.watchdog", str(os.getpid()), "--", *argv]


def describe_exit(returncode: int) -> str:
    """'exit code 1' or 'signal 11 (SIGSEGV)'; the watchdog reports a signal as 128 + its number."""
    number = -returncode if returncode < 0 else returncode - 128 if returncode > 128 else 0
    if not number:
        return f"exit code {returncode}"
    try:
        return f"signal {number} ({signal.Signals(number).name})"
    except ValueError:
        return f"signal {number}"


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
    model: str = ""
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
        """Poll until the model list answers, then until a one-token chat completion does."""
        assert self.process is not None
        headers = {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}
        request = {**READY_REQUEST, **({"model": self.model} if self.model else {})}
        deadline = time.monotonic() + self.startup_timeout_s
        listed, last = False, "no answer"
        with httpx.Client(timeout=30.0, headers=headers, trust_env=False) as http:
            while True:
                code = self.process.poll()
                if code is not None:
                    stage = "its first chat reply" if listed else "answering"
                    raise self._error(f"died ({describe_exit(code)}) before {stage}")
                try:
                    if not listed:
                        response = http.get(self.base_url + HEALTH_PATH, timeout=2.0)
                        listed = response.status_code == 200
                        last = f"{HEALTH_PATH}: HTTP {response.status_code}"
                    if listed:
                        response = http.post(self.base_url + READY_PATH, json=request)
                        if response.status_code == 200:
                            return
                        last = f"{READY_PATH}: HTTP {response.status_code} {response.text[:200]}"
                except httpx.HTTPError as exc:
                    last = f"{type(exc).__name__}"
                if time.monotonic() > deadline:
                    raise self._error(
                        f"did not answer a chat request within {self.startup_timeout_s:.0f}s "
                        f"(last: {last})"
                    )
                time.sleep(0.25)

    def check(self, grace_s: float = 0.0) -> None:
        """Raise :class:`EngineDiedError` if the server process has exited, or exits within
        ``grace_s`` (a dropped connection arrives a moment before the process is gone)."""
        process = self.process
        if process is None:
            return
        try:
            code = process.wait(grace_s) if grace_s > 0 else process.poll()
        except subprocess.TimeoutExpired:
            code = None
        if code is None:
            return
        tail = log_tail(self.log_path)
        raise EngineDiedError(
            f"the {self.name} engine died ({describe_exit(code)}), log: {self.log_path}",
            url=self.base_url, returncode=code, log_path=str(self.log_path), log_tail=tail,
        )

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


def engine_server(name: str, config: ServingConfig, command: Callable[[int], list[str]],
                  *, model: str = "") -> ServerProcess:
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
        model=model,
    )
