"""The thread pool that the benchmark runner and the data builder share."""

from __future__ import annotations

import threading

from inscoqa.work_pool import WorkPool


def test_every_result_is_saved_and_the_pool_reports_no_stop():
    saved: list[tuple[int, int]] = []
    lock = threading.Lock()

    def save(batch: list[tuple[int, int]]) -> None:
        with lock:
            saved.extend(batch)

    pool = WorkPool(lambda n: n * n, save, stop_reason=lambda r: None, concurrency=4, label="t",
                    unit="item", progress=False, commit_interval=0.01)
    assert pool.run(list(range(20))) is None
    assert sorted(saved) == [(n, n * n) for n in range(20)]


def test_a_result_that_says_the_engine_is_gone_cancels_the_items_not_started():
    started: list[int] = []
    saved: list[int] = []
    gate = threading.Event()

    def work(n: int) -> str:
        started.append(n)
        if n == 2:
            return "down: connection refused"
        gate.wait(0.05)
        return "ok"

    pool = WorkPool(work, lambda batch: saved.extend(n for n, _ in batch),
                    stop_reason=lambda r: r if r.startswith("down") else None,
                    concurrency=1, label="t", unit="item", progress=False)
    assert pool.run(list(range(10))) == "down: connection refused"
    # one worker: of the items after the failing one, at most the one it had already taken up
    # ran, and every item that ran is saved
    assert started[:3] == [0, 1, 2] and len(started) <= 4
    assert sorted(saved) == sorted(started)
