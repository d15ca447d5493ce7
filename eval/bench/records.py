"""Typed run records: one writer (``to_dict``) and one reader (``from_dict``) per kind, with a
format version in every line, so a renamed field fails loudly instead of emptying a column.

A result line of ``<run>/results.jsonl`` is a :class:`SampleRecord`; a line of a second judge's
file (``judge2-<hash>.jsonl``) an :class:`ExtraJudgeRecord`, of a how-to file
(``howto-<hash>.jsonl``) a :class:`HowtoRecord`, of a pairwise run a :class:`PairRecord`.
Format history:

* 1: no ``format`` field (files written before versioned records): the same fields, read as is;
* 2: ``format: 2`` in every line;
* 3: a sample record has ``groundings``, one entry per step (a :class:`GroundingRecord` or
  null); records of formats 1 and 2 read with ``groundings`` None (not recorded).

A line of a newer format than this code knows, or one missing a required field, raises
:class:`RecordFormatError` naming the file, the line's sample and the format version.
"""

from __future__ import annotations

from dataclasses import MISSING, asdict, dataclass, field, fields
from typing import Any, Literal

RECORD_FORMAT = 3
KNOWN_FORMATS = (1, 2, 3)
SampleStatus = Literal["ok", "judge_failed", "answer_failed"]
STATUSES: tuple[str, ...] = ("ok", "judge_failed", "answer_failed")


class RecordFormatError(ValueError):
    """A stored record this code cannot read (another format version, a missing field)."""


@dataclass(frozen=True)
class JudgeRecord:
    """A judge verdict as stored: score and TCR only when the reply was read, the raw reply
    always."""

    score: int | None
    tcr: float | None
    ok: bool
    error: str | None
    raw: str
    evaluation: str = ""


@dataclass(frozen=True)
class RougeRecord:
    word: float
    char: float


@dataclass(frozen=True)
class GroundingRecord:
    """Where one answer step is grounded (see :mod:`procmem.grounding`): the source unit or
    document, the snippet and its span there, the method (``rouge`` or ``embedding``), the score
    that grounded it and both scores."""

    step: int
    unit: str
    snippet: str
    start: int
    end: int
    by: str
    score: float
    rouge: float
    distance: float

    @classmethod
    def of(cls, value: Any) -> GroundingRecord:
        """From a :class:`procmem.grounding.StepGrounding` or its stored dict."""
        data = value if isinstance(value, dict) else asdict(value)
        return cls(**{f.name: data[f.name] for f in fields(cls)})


@dataclass
class SampleRecord:
    """One conversation answered (or not) by one system, and its scores."""

    sample_id: str
    system: str
    domain: str
    status: SampleStatus = "answer_failed"
    transient: bool = False
    error: str | None = None
    answer: str | None = None
    procedures: list[str] | None = None
    sources: list[dict[str, Any]] = field(default_factory=list)
    # one per step of ``procedures``: its grounding or None; None when not recorded (format < 3)
    groundings: list[GroundingRecord | None] | None = None
    trace: dict[str, Any] | None = None
    clarification: str | None = None
    judge: JudgeRecord | None = None
    rouge: RougeRecord | None = None
    retrieval: dict[str, Any] | None = None
    cost: dict[str, Any] = field(default_factory=lambda: {"answer": None, "judge": None})
    traceback: str | None = None
    finished_at: str = ""
    format: int = RECORD_FORMAT

    @property
    def judged(self) -> bool:
        return self.status == "ok" and self.judge is not None and self.judge.ok

    @property
    def grounded_steps(self) -> int | None:
        """How many steps are grounded (None when groundings were not recorded)."""
        return None if self.groundings is None else sum(g is not None for g in self.groundings)

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["format"] = RECORD_FORMAT
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any], source: str = "results") -> SampleRecord:
        values = _checked(cls, data, source)
        values["judge"] = _judge(values.get("judge"), data, source)
        rouge = values.get("rouge")
        values["rouge"] = RougeRecord(float(rouge["word"]), float(rouge["char"])) if rouge else None
        values["groundings"] = _groundings(values.get("groundings"), data, source)
        if values.get("status") not in STATUSES:
            raise RecordFormatError(f"{source}: sample {data.get('sample_id')!r} has status "
                                    f"{values.get('status')!r}; expected one of {list(STATUSES)}")
        return cls(**values)


@dataclass
class ExtraJudgeRecord:
    """A stored answer scored again by a second judge (judge agreement)."""

    sample_id: str
    system: str
    domain: str
    status: str = "skipped"  # ok, judge_failed, skipped (no answer to judge)
    error: str | None = None
    transient: bool = False
    judge: JudgeRecord | None = None
    cost: dict[str, Any] | None = None
    finished_at: str = ""
    format: int = RECORD_FORMAT

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["format"] = RECORD_FORMAT
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any], source: str = "second judge") -> ExtraJudgeRecord:
        values = _checked(cls, data, source)
        values["judge"] = _judge(values.get("judge"), data, source)
        return cls(**values)


@dataclass
class HowtoRecord:
    """A stored procedure scored with the linear how-to metrics."""

    sample_id: str
    system: str
    domain: str
    status: str = "skipped"  # ok, failed, skipped (no answer to score)
    error: str | None = None
    transient: bool = False
    howto: dict[str, Any] | None = None  # precision, recall, f1, success, items, matches
    cost: dict[str, Any] | None = None
    finished_at: str = ""
    format: int = RECORD_FORMAT

    @classmethod
    def from_dict(cls, data: dict[str, Any], source: str = "how-to") -> HowtoRecord:
        return cls(**_checked(cls, data, source))


@dataclass
class PairRecord:
    """Two systems' procedures for one conversation compared by the pairwise judge."""

    sample_id: str
    domain: str
    a: str
    b: str
    status: str = "skipped"  # ok, failed, skipped (a system has no answer)
    result: str | None = None  # win, loss, tie (from a's side)
    votes: list[str] | None = None
    error: str | None = None
    transient: bool = False
    call_errors: list[str] = field(default_factory=list)
    cost: dict[str, Any] | None = None
    finished_at: str = ""
    format: int = RECORD_FORMAT

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["format"] = RECORD_FORMAT
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any], source: str = "pairwise") -> PairRecord:
        return cls(**_checked(cls, data, source))


def _judge(value: Any, data: dict[str, Any], source: str) -> JudgeRecord | None:
    if value is None:
        return None
    try:
        return JudgeRecord(**{f.name: value.get(f.name, f.default) for f in fields(JudgeRecord)
                              if f.name in value or f.name == "evaluation"})
    except (TypeError, AttributeError) as exc:
        raise RecordFormatError(f"{source}: sample {data.get('sample_id')!r}: judge field is not "
                                f"a verdict ({exc})") from exc


def _groundings(value: Any, data: dict[str, Any], source: str) -> list[GroundingRecord | None] | None:
    if value is None:
        return None
    try:
        return [GroundingRecord.of(g) if g is not None else None for g in value]
    except (TypeError, KeyError) as exc:
        raise RecordFormatError(f"{source}: sample {data.get('sample_id')!r}: groundings field is "
                                f"not a list of step groundings ({exc!r})") from exc


def _checked(cls: type[Any], data: dict[str, Any], source: str) -> dict[str, Any]:
    """The known fields of ``data`` after checking its format version and required fields."""
    version = data.get("format", 1)
    sample = data.get("sample_id")
    if version not in KNOWN_FORMATS:
        raise RecordFormatError(
            f"{source}: sample {sample!r} is in result format {version!r}, which this "
            f"version cannot read (it reads formats {list(KNOWN_FORMATS)}); rerun with a matching version "
            "or into a new --out directory")
    required = [f.name for f in fields(cls) if _is_required(f)]
    missing = [name for name in required if name not in data]
    if missing:
        raise RecordFormatError(f"{source}: sample {sample!r} (result format {version}) lacks "
                                f"field(s) {missing}")
    known = {f.name for f in fields(cls)}
    values = {k: v for k, v in data.items() if k in known}
    values["format"] = version
    return values


def _is_required(f: Any) -> bool:
    return f.default is MISSING and f.default_factory is MISSING


def judge_record(verdict: Any) -> JudgeRecord:
    """A stored verdict from an :class:`eval.inseval.JudgeVerdict`."""
    return JudgeRecord(score=verdict.score, tcr=verdict.tcr, ok=verdict.ok, error=verdict.error,
                       raw=verdict.raw, evaluation=verdict.evaluation)


def read_samples(records: list[dict[str, Any]], source: str) -> list[SampleRecord]:
    return [SampleRecord.from_dict(r, source) for r in records]


def read_extra_judges(records: list[dict[str, Any]], source: str) -> list[ExtraJudgeRecord]:
    return [ExtraJudgeRecord.from_dict(r, source) for r in records]


def read_howto(records: list[dict[str, Any]], source: str) -> list[HowtoRecord]:
    return [HowtoRecord.from_dict(r, source) for r in records]


def read_pairs(records: list[dict[str, Any]], source: str) -> list[PairRecord]:
    return [PairRecord.from_dict(r, source) for r in records]
