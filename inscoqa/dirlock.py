"""One writer per output directory: an exclusive lock held for as long as a process writes it.

The lock is an ``flock`` on ``<dir>/.lock``, so the kernel releases it when the holder exits,
however it exits: a crashed run never leaves a stale lock behind. The file records the holder's
pid and command for the message a second process prints. Benchmark runs, data builds and
THREAD studies all take it on the directories they write.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import sys
from pathlib import Path
from types import TracebackType


class DirectoryLockedError(RuntimeError):
    """Another process is writing the same directory."""

    def __init__(self, message: str, *, path: str = "", holder: str = "") -> None:
        super().__init__(message)
        self.path = path
        self.holder = holder


class DirectoryLock:
    """``with DirectoryLock(dir):`` — raises :class:`DirectoryLockedError` naming the holder if
    another process (or another lock in this one) holds it."""

    def __init__(self, directory: str | Path) -> None:
        self.path = Path(directory) / ".lock"
        self._fd: int | None = None

    def acquire(self) -> DirectoryLock:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 4096, 0).decode("utf-8", "replace").strip() or "unknown"
            os.close(fd)
            raise DirectoryLockedError(
                f"another process is writing {self.path.parent} ({holder}); wait for it to "
                "finish or stop it, then run the command again",
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

    def __enter__(self) -> DirectoryLock:
        return self.acquire()

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.release()
