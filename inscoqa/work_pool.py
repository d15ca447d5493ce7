"""Items worked on by a thread pool, every result saved as soon as it is finished.

The benchmark runner and the data builder work the same way: each item is one call (answer and
judge a sample; build a conversation from a query) that returns a record; finished records are
saved in batches (one durable write each, a group commit) while the others run; and when a record
says the engine is gone, the items not yet started are cancelled, since every one of them would
fail the same way, and are left for the next run of the same command.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from typing import Generic, TypeVar

from tqdm.auto import tqdm

Item = TypeVar("Item")
Result = TypeVar("Result")


class WorkPool(Generic[Item, Result]):
    """``work`` over ``items`` on ``concurrency`` threads; see the module docstring.

    ``save`` gets the finished ``(item, result)`` pairs of a batch; ``stop_reason`` says why the
    rest cannot be done (or None); ``commit_interval`` seconds gathers results that finish soon
    after one another into one batch; ``postfix`` adds a note to the progress bar after a batch.
    """

    def __init__(self, work: Callable[[Item], Result], save: Callable[[list[tuple[Item, Result]]], None], *,
                 stop_reason: Callable[[Result], str | None], concurrency: int, label: str, unit: str,
                 progress: bool = True, commit_interval: float = 0.0,
                 postfix: Callable[[list[Result]], str] | None = None) -> None:
        self.work, self.save, self.stop_reason = work, save, stop_reason
        self.concurrency, self.label, self.unit, self.progress = concurrency, label, unit, progress
        self.commit_interval = commit_interval
        self.postfix = postfix

    def run(self, items: Sequence[Item]) -> str | None:
        """Work on every item, or stop early; the reason it stopped, or None when all are done."""
        stopped: str | None = None
        bar = tqdm(total=len(items), desc=self.label, unit=self.unit, disable=not self.progress,
                   dynamic_ncols=True)
        pool = ThreadPoolExecutor(max_workers=self.concurrency, thread_name_prefix=self.label)
        try:
            futures: dict[Future[Result], Item] = {pool.submit(self.work, item): item for item in items}
            pending = set(futures)
            last_commit = 0.0
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                gap = self.commit_interval - (time.monotonic() - last_commit)
                if gap > 0 and pending:  # gather what finishes meanwhile into the same batch
                    more, pending = wait(pending, timeout=gap)
                    done |= more
                finished = [(futures[f], f.result()) for f in done]
                self.save(finished)
                last_commit = time.monotonic()
                bar.update(len(finished))
                if self.postfix is not None:
                    bar.set_postfix_str(self.postfix([r for _, r in finished]), refresh=False)
                reason = next((r for r in (self.stop_reason(res) for _, res in finished) if r), None)
                if reason is not None and stopped is None:
                    stopped = reason
                    for future in pending:
                        future.cancel()
                    pending = {f for f in pending if not f.cancelled()}
        finally:
            pool.shutdown(wait=True, cancel_futures=True)
            bar.close()
        return stopped
