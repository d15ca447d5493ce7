"""One reviewer going through one dataset file: what the review page shows and records.

Kept free of any UI so it can be tested directly; :mod:`inscoqa.review.page` only wires it to
Gradio. Every verdict is written durably when it is given (:class:`VerdictStore`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from inscoqa.io import load_conversations
from inscoqa.records import Conversation
from inscoqa.review.verdicts import Decision, Verdict, VerdictStore, check_reviewer

NUMBER = re.compile(r"^\s*(?:\d+[.)]|[-*•])\s+")


def parse_steps(text: str) -> list[str]:
    """Steps from a text box: one a line, leading ``1.``/``1)``/``-`` removed, blank lines dropped."""
    return [NUMBER.sub("", line).strip() for line in text.splitlines() if line.strip()]


def format_steps(steps: list[str]) -> str:
    return "\n".join(f"{i}. {s}" for i, s in enumerate(steps, 1))


@dataclass
class SampleView:
    index: int
    total: int
    conversation: Conversation
    verdict: Verdict | None
    reviewed: int
    counts: dict[str, int]


class ReviewSession:
    """``reviewer`` reviewing ``dataset`` (its verdicts in ``<dataset stem>.review/``)."""

    def __init__(self, dataset: str | Path, reviewer: str,
                 verdicts_dir: str | Path | None = None) -> None:
        self.dataset = Path(dataset)
        self.reviewer = check_reviewer(reviewer.strip())
        self.convs = list(load_conversations(self.dataset))
        if not self.convs:
            raise ValueError(f"{self.dataset}: no conversation to review")
        self.store = VerdictStore(self.dataset, verdicts_dir)

    def verdicts(self) -> dict[str, Verdict]:
        return self.store.of(self.reviewer)

    def first_open(self) -> int:
        """The first sample this reviewer has not judged yet (the last one when all are)."""
        done = self.verdicts()
        return next((i for i, c in enumerate(self.convs) if c.id not in done), len(self.convs) - 1)

    def next_open(self, after: int) -> int:
        done = self.verdicts()
        n = len(self.convs)
        for step in range(1, n + 1):
            i = (after + step) % n
            if self.convs[i].id not in done:
                return i
        return after

    def view(self, index: int) -> SampleView:
        index = max(0, min(index, len(self.convs) - 1))
        done = self.verdicts()
        ids = {c.id for c in self.convs}
        mine = [v for sid, v in done.items() if sid in ids]
        counts = {d: sum(v.decision == d for v in mine) for d in ("accept", "edit", "reject")}
        conv = self.convs[index]
        return SampleView(index, len(self.convs), conv, done.get(conv.id), len(mine), counts)

    def decide(self, index: int, decision: Decision, *, reason: str = "", answer: str = "",
               steps: str = "") -> Verdict:
        """Record a verdict on sample ``index``. An edit that changes nothing is an accept."""
        conv = self.convs[index]
        edited_steps = parse_steps(steps)
        if decision == "edit" and answer.strip() == conv.answer.strip() \
                and edited_steps == list(conv.procedures):
            decision = "accept"
        verdict = Verdict(conv.id, self.reviewer, decision, reason=reason.strip(),
                          answer=answer if decision == "edit" else None,
                          procedures=edited_steps if decision == "edit" else None)
        return self.store.save(verdict)
