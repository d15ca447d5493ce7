"""Run a server command and stop it when the process that launched it goes away.

``python -m serving.engines.watchdog <parent-pid> -- <command...>``: a parent that dies without
cleaning up (SIGKILL, a crash) must not leave an engine running and holding memory and cores.
The watchdog polls its parent once a second and terminates the server when the parent is gone;
SIGTERM and SIGINT sent to the watchdog are passed on to the server. The watchdog exits with the
server's exit code, or with 128 + N when the server was killed by signal N (as a shell reports it),
and says so on its output (the engine's log).
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
from types import FrameType

POLL_S = 1.0
GRACE_S = 10.0


def _stop(child: subprocess.Popen[bytes]) -> None:
    if child.poll() is not None:
        return
    child.terminate()
    try:
        child.wait(GRACE_S)
    except subprocess.TimeoutExpired:
        child.kill()
        child.wait()


def main(argv: list[str]) -> int:
    if len(argv) < 3 or argv[1] != "--":
        print("usage: python -m serving.engines.watchdog PARENT_PID -- COMMAND...", file=sys.stderr)
        return 2
    parent = int(argv[0])
    child = subprocess.Popen(argv[2:])

    def forward(signum: int, frame: FrameType | None) -> None:
        _stop(child)
        sys.exit(128 + signum)

    signal.signal(signal.SIGTERM, forward)
    signal.signal(signal.SIGINT, forward)
    while child.poll() is None:
        if os.getppid() != parent:
            _stop(child)
            break
        with contextlib.suppress(subprocess.TimeoutExpired):
            child.wait(POLL_S)
    code = child.returncode or 0
    if code < 0:
        print(f"[watchdog] the server was killed by signal {-code}", file=sys.stderr, flush=True)
        return 128 - code
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
