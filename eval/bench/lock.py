"""One writer per run: an exclusive lock on a run directory for as long as a process writes it.

The lock is an ``flock`` on ``<run dir>/.lock``, so it is released by the kernel when the holder
exits, however it exits: a crashed run never leaves a stale lock behind. The file records the
holder's pid and command for the message a second process prints.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import sys
from pathlib import Path
from types import TracebackType


class RunLockedError(RuntimeError):
    """Another process is writing the same run."""

    def __init__(self, message: str, *, path: str, holder: str) -> None:
        super().__init__(message)
        self.path = path
        self.holder = holder


class RunLock:
    """``with RunLock(run_dir):`` — raises :class:`RunLockedError` if another process holds it."""

    def __init__(self, directory: str | Path) -> None:
        self.path = Path(directory) / ".lock"
        self._fd: int | None = None

    def acquire(self) -> RunLock:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 4096, 0).decode("utf-8", "replace").strip() or "unknown"
            os.close(fd)
            raise RunLockedError(
                f"another process is writing this run ({holder}); wait for it to finish or "
                f"stop it, then run the command again (lock: {self.path})",
                path=str(self.path), holder=holder) from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"pid {os.getpid()}: {' '.join(sys.argv)[:300]}".encode(), 0)
        self._fd = fd
        return self

    def release(self) -> None:
        fd, self._fd = self._fd, None
        if fd is not None:
            with contextlib.suppress(OSError):
                os.ftruncate(fd, 0)
            fcntl.flock(fd, fcntl.LOCK_UN)
            os.close(fd)

    def __enter__(self) -> RunLock:
        return self.acquire()

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.release()
