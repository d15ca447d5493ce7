"""From reviewers' verdicts to the final dataset: acceptance rate, agreement, accepted samples.

A sample is kept when more of its reviewers accepted it (or edited it) than rejected it; a tie
or no verdict at all leaves it out. When reviewers edited a kept sample, the latest edit is
applied. Agreement is measured on samples seen by two or more reviewers, on keep/reject: the
share of reviewer pairs that agree, and Cohen's kappa for each pair of reviewers.
"""

from __future__ import annotations

import itertools
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from inscoqa.io import save_conversations
from inscoqa.records import Conversation
from inscoqa.review.verdicts import Verdict
from inscoqa.schema import DatasetError, validate_record


@dataclass
class PairAgreement:
    a: str
    b: str
    samples: int
    agreement: float | None
    kappa: float | None


@dataclass
class ReviewReport:
    samples: int
    reviewed: int
    unreviewed: int
    kept: int
    edited: int
    rejected: int
    tied: int
    acceptance_rate: float | None  # kept / reviewed
    reviewers: dict[str, dict[str, Any]] = field(default_factory=dict)
    agreement: float | None = None  # over every pair of verdicts on the same sample
    pairs: list[PairAgreement] = field(default_factory=list)
    invalid_edits: list[str] = field(default_factory=list)
    out: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def text(self) -> str:
        def pct(x: float | None) -> str:
            return "-" if x is None else f"{100 * x:.1f}%"
        lines = [f"{self.samples} samples: {self.reviewed} reviewed, {self.unreviewed} not reviewed",
                 f"kept {self.kept} ({self.edited} edited), rejected {self.rejected}, tied "
                 f"{self.tied}; acceptance rate {pct(self.acceptance_rate)}"]
        for name, r in self.reviewers.items():
            lines.append(f"  {name}: {r['reviewed']} reviewed, accepted {r['accepted']}, edited "
                         f"{r['edited']}, rejected {r['rejected']} ({pct(r['acceptance_rate'])})")
        if self.pairs:
            lines.append(f"agreement (keep/reject): {pct(self.agreement)}")
            for p in self.pairs:
                kappa = "-" if p.kappa is None else f"{p.kappa:.3f}"
                lines.append(f"  {p.a} vs {p.b}: {p.samples} samples, {pct(p.agreement)} agree, "
                             f"Cohen's kappa {kappa}")
        for problem in self.invalid_edits:
            lines.append(f"  left out (invalid edit): {problem}")
        if self.out:
            lines.append(f"final dataset: {self.out} ({self.kept} conversations)")
        return "\n".join(lines)


def cohen_kappa(a: list[bool], b: list[bool]) -> float | None:
    """Cohen's kappa of two raters' yes/no labels; None when chance agreement is total."""
    n = len(a)
    if n == 0:
        return None
    observed = sum(x == y for x, y in zip(a, b, strict=True)) / n
    pa, pb = sum(a) / n, sum(b) / n
    expected = pa * pb + (1 - pa) * (1 - pb)
    if expected >= 1.0:
        return None
    return round((observed - expected) / (1 - expected), 4)


def combine(convs: list[Conversation], verdicts: dict[str, dict[str, Verdict]],
            ) -> tuple[list[Conversation], ReviewReport]:
    """The kept (and edited) conversations, in dataset order, and the report."""
    kept: list[Conversation] = []
    report = ReviewReport(samples=len(convs), reviewed=0, unreviewed=0, kept=0, edited=0,
                          rejected=0, tied=0, acceptance_rate=None)
    for conv in convs:
        given = [v[conv.id] for v in verdicts.values() if conv.id in v]
        if not given:
            report.unreviewed += 1
            continue
        report.reviewed += 1
        keeps = sum(v.keeps for v in given)
        if keeps * 2 == len(given):
            report.tied += 1
            continue
        if keeps * 2 < len(given):
            report.rejected += 1
            continue
        edits = sorted((v for v in given if v.decision == "edit"), key=lambda v: v.at)
        final = edits[-1].apply(conv) if edits else conv
        if edits:
            final.meta = {**final.meta, "review": {"edited_by": edits[-1].reviewer}}
        try:
            final = validate_record(final.to_dict(), where=f"edit by {edits[-1].reviewer}"
                                    if edits else "review")
        except DatasetError as exc:
            report.invalid_edits.append(str(exc))
            continue
        report.kept += 1
        report.edited += bool(edits)
        kept.append(final)
    ids = {c.id for c in convs}
    report.acceptance_rate = round(report.kept / report.reviewed, 4) if report.reviewed else None
    for name, given in verdicts.items():
        mine = [v for sid, v in given.items() if sid in ids]
        counts = {d: sum(v.decision == d for v in mine) for d in ("accept", "edit", "reject")}
        report.reviewers[name] = {
            "reviewed": len(mine), "accepted": counts["accept"], "edited": counts["edit"],
            "rejected": counts["reject"],
            "acceptance_rate": round((counts["accept"] + counts["edit"]) / len(mine), 4) if mine else None}
    agree = total = 0
    for a, b in itertools.combinations(sorted(verdicts), 2):
        common = [sid for sid in verdicts[a] if sid in verdicts[b] and sid in ids]
        la = [verdicts[a][s].keeps for s in common]
        lb = [verdicts[b][s].keeps for s in common]
        same = sum(x == y for x, y in zip(la, lb, strict=True))
        agree, total = agree + same, total + len(common)
        if common:
            report.pairs.append(PairAgreement(a, b, len(common), round(same / len(common), 4),
                                              cohen_kappa(la, lb)))
    report.agreement = round(agree / total, 4) if total else None
    return kept, report


def write_final(convs: list[Conversation], verdicts: dict[str, dict[str, Verdict]],
                out: str | Path) -> ReviewReport:
    kept, report = combine(convs, verdicts)
    report.out = str(save_conversations(kept, out))
    return report
