"""Reviewers' verdicts on built conversations (SPEC §1, step 4: the human check).

A verdict accepts a sample, rejects it with a reason, or edits its answer and steps (an edit
accepts the edited sample). Verdicts are saved the moment they are given, one JSONL file per
reviewer beside the dataset (``data.jsonl`` -> ``data.review/<reviewer>.jsonl``); a later verdict
of the same reviewer on the same sample replaces the earlier one, so several reviewers can work on
the same file at once and a closed page loses nothing.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal, get_args

from inscoqa.keyed_store import KeyedStore
from inscoqa.records import Conversation

Decision = Literal["accept", "reject", "edit"]
DECISIONS: tuple[str, ...] = get_args(Decision)
REVIEWER_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")


class VerdictError(ValueError):
    """A verdict that cannot be recorded: says which field is wrong and what was expected."""


@dataclass
class Verdict:
    sample_id: str
    reviewer: str
    decision: Decision
    reason: str = ""
    answer: str | None = None  # the edited answer (edit only)
    procedures: list[str] | None = None  # the edited steps (edit only)
    at: str = field(default_factory=lambda: datetime.now(UTC).isoformat(timespec="seconds"))

    def __post_init__(self) -> None:
        check_reviewer(self.reviewer)
        if self.decision not in DECISIONS:
            raise VerdictError(f"decision: expected one of {', '.join(DECISIONS)}; got {self.decision!r}")
        if self.decision == "reject" and not self.reason.strip():
            raise VerdictError("reason: a rejection needs a reason")
        if self.decision == "edit":
            if self.answer is None or not self.answer.strip():
                raise VerdictError("answer: an edit needs a non-empty answer")
            steps = [s.strip() for s in self.procedures or [] if s.strip()]
            if not steps:
                raise VerdictError("procedures: an edit needs at least one non-empty step")
            self.procedures = steps
        else:
            self.answer, self.procedures = None, None

    @property
    def keeps(self) -> bool:
        return self.decision != "reject"

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Verdict:
        known = {k: data[k] for k in ("sample_id", "reviewer", "decision", "reason", "answer",
                                      "procedures", "at") if k in data}
        return cls(**known)

    def apply(self, conv: Conversation) -> Conversation:
        """The sample with this verdict's edit applied (unchanged for accept)."""
        if self.decision != "edit":
            return conv
        assert self.answer is not None and self.procedures is not None
        return Conversation(conv.id, conv.domain, list(conv.documents), list(conv.history),
                            conv.question, self.answer.strip(), list(self.procedures), [],
                            dict(conv.meta))


def check_reviewer(name: str) -> str:
    if not isinstance(name, str) or not REVIEWER_NAME.match(name):
        raise VerdictError(f"reviewer: expected a name of letters, digits, '.', '_' or '-' "
                           f"(at most 64); got {name!r}")
    return name


def verdicts_dir(dataset: str | Path) -> Path:
    """Where the verdicts on ``dataset`` are kept: ``<name>.review/`` beside it."""
    path = Path(dataset)
    return path.with_name(f"{path.stem}.review")


class VerdictStore:
    """Every reviewer's verdicts on one dataset file."""

    def __init__(self, dataset: str | Path, directory: str | Path | None = None) -> None:
        self.dataset = Path(dataset)
        self.dir = Path(directory) if directory is not None else verdicts_dir(dataset)

    def _store(self, reviewer: str) -> KeyedStore:
        return KeyedStore(self.dir / f"{check_reviewer(reviewer)}.jsonl", key_field="sample_id")

    def save(self, verdict: Verdict) -> Verdict:
        """Write one verdict durably before returning."""
        self._store(verdict.reviewer).append(verdict.to_dict())
        return verdict

    def save_many(self, verdicts: list[Verdict]) -> None:
        by_reviewer: dict[str, list[dict[str, Any]]] = {}
        for verdict in verdicts:
            by_reviewer.setdefault(verdict.reviewer, []).append(verdict.to_dict())
        for reviewer, records in by_reviewer.items():
            self._store(reviewer).append_many(records)

    def of(self, reviewer: str) -> dict[str, Verdict]:
        """One reviewer's latest verdict per sample id."""
        return {sid: Verdict.from_dict(r) for sid, r in self._store(reviewer).load().items()}

    def reviewers(self) -> list[str]:
        return sorted(p.stem for p in self.dir.glob("*.jsonl")) if self.dir.is_dir() else []

    def all(self) -> dict[str, dict[str, Verdict]]:
        """Verdicts by reviewer, then by sample id."""
        return {name: self.of(name) for name in self.reviewers()}
