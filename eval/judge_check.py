"""A judge's self-check on the data at hand, before anyone trusts its scores.

From each conversation's own reference it builds answers of known quality and runs the judge
on them:

==============  =============================================  ==========  ================
probe           what the judge sees                            known TCR   known order
==============  =============================================  ==========  ================
``reference``   the reference answer and procedure             100         best
``drop25``      25 % of the steps removed (answer cut alike)   ~75         by steps kept
``drop50``      50 % removed                                   ~50         by steps kept
``drop75``      75 % removed                                   ~25         by steps kept
``irrelevant``  another conversation's answer and procedure    0           worst (tied)
``empty``       an empty reply                                 0           worst (tied)
``shuffled``    the reference steps in another order            100         not ranked
==============  =============================================  ==========  ================

The known TCR is exact: the share of reference steps kept (at least one step is kept, so short
procedures give coarser shares). A shuffled procedure has every step, so its TCR is 100, but
whether it is worse than one missing a step is a matter of taste: it is left out of the JS
order and its mean JS is shown beside the reference's (how much the judge minds the order).

Correlations are computed within each conversation (the judge's task is to order answers to
the same question, as when it ranks systems) and averaged; a judge that gives every probe of a
conversation the same value counts 0 there. Reported: Spearman and Kendall of JS with the known
order and of TCR with the known coverage, the mean absolute TCR error, the parse-failure rate,
and one verdict line; the thresholds (:data:`THRESHOLDS`) are stated in README.
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np
from scipy import stats

from eval.inseval import InsEvalJudge, JudgeVerdict
from inscoqa.records import Conversation

DROPS = (("drop25", 0.25), ("drop50", 0.50), ("drop75", 0.75))
PROBES = ("reference", "shuffled", "drop25", "drop50", "drop75", "irrelevant", "empty")
REFERENCE_ORDER = 101.0  # above any share of kept steps
# a judge is usable for ranking systems on this data when all of these hold
THRESHOLDS = {"min_js_spearman": 0.6, "max_tcr_mae": 25.0, "max_failure_rate": 0.1,
              "min_conversations": 3}


@dataclass(frozen=True)
class Probe:
    """One answer of known quality for one conversation."""

    conversation_id: str
    kind: str
    answer: str
    procedures: list[str]
    known_tcr: float
    known_order: float | None  # None: not ranked (shuffled)


@dataclass
class ProbeResult:
    probe: Probe
    verdict: JudgeVerdict

    def to_dict(self) -> dict[str, Any]:
        return {"conversation_id": self.probe.conversation_id, "kind": self.probe.kind,
                "known_tcr": self.probe.known_tcr, "known_order": self.probe.known_order,
                "score": self.verdict.score, "tcr": self.verdict.tcr, "ok": self.verdict.ok,
                "error": self.verdict.error}


@dataclass
class JudgeCheck:
    """The check's figures and its verdict."""

    judge: dict[str, Any]
    n_conversations: int
    n_probes: int
    failures: int
    failure_rate: float
    js_spearman: float | None
    js_kendall: float | None
    tcr_spearman: float | None
    tcr_kendall: float | None
    tcr_mae: float | None
    usable: bool
    verdict: str
    thresholds: dict[str, float] = field(default_factory=lambda: dict(THRESHOLDS))
    by_probe: dict[str, dict[str, Any]] = field(default_factory=dict)
    results: list[dict[str, Any]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


# --------------------------------------------------------------------------- probes


def _sentences(text: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.!?])\s+", text.strip()) if s]


def _cut_answer(answer: str, keep: float) -> str:
    """The reference answer cut to about ``keep`` of its sentences (at least one)."""
    parts = _sentences(answer)
    return " ".join(parts[: max(1, round(len(parts) * keep))])


def build_probes(conversations: Sequence[Conversation], seed: int = 0) -> list[Probe]:
    """The probes of every conversation (deterministic for a seed)."""
    probes: list[Probe] = []
    for index, conv in enumerate(conversations):
        rng = random.Random(f"{seed}:{conv.id}")
        steps = list(conv.procedures)
        n = len(steps)
        probes.append(Probe(conv.id, "reference", conv.answer, steps, 100.0, REFERENCE_ORDER))
        if n >= 2 and len(set(steps)) > 1:
            shuffled = steps[:]
            while shuffled == steps:
                rng.shuffle(shuffled)
            probes.append(Probe(conv.id, "shuffled", conv.answer, shuffled, 100.0, None))
        for kind, share in DROPS:
            if n < 2:
                continue
            removed = min(n - 1, max(1, round(n * share)))
            drop = set(rng.sample(range(n), removed))
            kept = [s for i, s in enumerate(steps) if i not in drop]
            coverage = 100.0 * len(kept) / n
            probes.append(Probe(conv.id, kind, _cut_answer(conv.answer, len(kept) / n), kept,
                                coverage, coverage))
        others = [c for c in conversations if c.id != conv.id]
        if others:
            other = next((c for c in others if c.domain != conv.domain), others[index % len(others)])
            probes.append(Probe(conv.id, "irrelevant", other.answer, list(other.procedures), 0.0,
                                0.0))
        probes.append(Probe(conv.id, "empty", "", [], 0.0, 0.0))
    return probes


# --------------------------------------------------------------------------- figures


def _correlation(known: list[float], judged: list[float]) -> tuple[float, float] | None:
    """(Spearman, Kendall) of one conversation; None when the known values cannot order it;
    (0, 0) when the judge gives them all the same value."""
    if len(known) < 3 or len(set(known)) < 2:
        return None
    if len(set(judged)) < 2:
        return 0.0, 0.0
    rho = stats.spearmanr(known, judged).statistic
    tau = stats.kendalltau(known, judged).statistic
    return (float(rho) if math.isfinite(rho) else 0.0, float(tau) if math.isfinite(tau) else 0.0)


def mean_correlation(results: list[ProbeResult], known: Callable[[Probe], float | None],
                     judged: Callable[[JudgeVerdict], float | None]
                     ) -> tuple[float | None, float | None]:
    """Per-conversation correlations of judged with known values, averaged."""
    groups: dict[str, list[ProbeResult]] = {}
    for r in results:
        if r.verdict.ok and known(r.probe) is not None:
            groups.setdefault(r.probe.conversation_id, []).append(r)
    found = [c for group in groups.values()
             if (c := _correlation([float(known(r.probe) or 0) for r in group],
                                   [float(judged(r.verdict) or 0) for r in group])) is not None]
    if not found:
        return None, None
    return float(np.mean([c[0] for c in found])), float(np.mean([c[1] for c in found]))


def verdict_line(check: JudgeCheck) -> str:
    t = check.thresholds
    problems = []
    if check.js_spearman is None or check.js_spearman < t["min_js_spearman"]:
        problems.append(f"Spearman of JS with the known order {_fmt(check.js_spearman)} < "
                        f"{t['min_js_spearman']}")
    if check.tcr_mae is None or check.tcr_mae > t["max_tcr_mae"]:
        problems.append(f"TCR error {_fmt(check.tcr_mae, 1)} points > {t['max_tcr_mae']:g}")
    if check.failure_rate > t["max_failure_rate"]:
        problems.append(f"parse failures {check.failure_rate:.0%} > {t['max_failure_rate']:.0%}")
    if check.n_conversations < t["min_conversations"]:
        problems.append(f"only {check.n_conversations} conversation(s), fewer than "
                        f"{t['min_conversations']:g}")
    if not problems:
        return (f"judge {check.judge.get('model', '?')}: usable for ranking systems on this data "
                f"(JS Spearman {_fmt(check.js_spearman)}, TCR error {_fmt(check.tcr_mae, 1)} "
                f"points, parse failures {check.failure_rate:.0%}, {check.n_conversations} "
                "conversations)")
    return (f"judge {check.judge.get('model', '?')}: NOT usable for ranking systems on this data: "
            + "; ".join(problems) + f" ({check.n_conversations} conversations)")


def _fmt(value: float | None, digits: int = 2) -> str:
    return "n/a" if value is None else f"{value:.{digits}f}"


def summarize_check(results: list[ProbeResult], judge: dict[str, Any],
                    n_conversations: int) -> JudgeCheck:
    ok = [r for r in results if r.verdict.ok]
    failures = len(results) - len(ok)
    js = mean_correlation(results, lambda p: p.known_order, lambda v: v.score)
    tcr = mean_correlation(results, lambda p: p.known_tcr, lambda v: v.tcr)
    errors = [abs(float(r.verdict.tcr or 0) - r.probe.known_tcr) for r in ok]
    by_probe: dict[str, dict[str, Any]] = {}
    for kind in PROBES:
        mine = [r for r in results if r.probe.kind == kind]
        if not mine:
            continue
        scored = [r for r in mine if r.verdict.ok]
        by_probe[kind] = {
            "n": len(mine), "failed": len(mine) - len(scored),
            "known_tcr": float(np.mean([r.probe.known_tcr for r in mine])),
            "js": float(np.mean([r.verdict.score for r in scored])) if scored else None,
            "tcr": float(np.mean([r.verdict.tcr for r in scored])) if scored else None,
        }
    check = JudgeCheck(
        judge=dict(judge), n_conversations=n_conversations, n_probes=len(results),
        failures=failures, failure_rate=failures / len(results) if results else 1.0,
        js_spearman=js[0], js_kendall=js[1], tcr_spearman=tcr[0], tcr_kendall=tcr[1],
        tcr_mae=float(np.mean(errors)) if errors else None, usable=False, verdict="",
        by_probe=by_probe, results=[r.to_dict() for r in results])
    check.verdict = verdict_line(check)
    check.usable = check.verdict.split(": ", 1)[1].startswith("usable")
    return check


def run_judge_check(judge: InsEvalJudge, conversations: Sequence[Conversation], *,
                    concurrency: int = 4, seed: int = 0,
                    progress: Callable[[int, int], None] | None = None) -> JudgeCheck:
    """Build the probes of ``conversations``, judge them all, and summarise.

    Reply failures are counted (parse-failure rate); failures of the infrastructure (engine
    down, timeouts) propagate, since the check cannot say anything then."""
    if not conversations:
        raise ValueError("the judge check needs at least one conversation")
    probes = build_probes(conversations, seed)
    done = 0

    def one(probe: Probe) -> ProbeResult:
        nonlocal done
        conv = by_id[probe.conversation_id]
        result = ProbeResult(probe, judge.score(conv, probe.answer, probe.procedures))
        done += 1
        if progress is not None:
            progress(done, len(probes))
        return result

    by_id = {c.id: c for c in conversations}
    with ThreadPoolExecutor(max_workers=max(1, concurrency), thread_name_prefix="judge-check") as pool:
        results = list(pool.map(one, probes))
    return summarize_check(results, judge.config(), len(conversations))


def check_table(check: JudgeCheck) -> str:
    """A Markdown table of the probes: known TCR beside the judge's mean JS and TCR."""
    lines = ["| probe | n | known TCR | judge JS | judge TCR | failed |", "|---|---|---|---|---|---|"]
    for kind, row in check.by_probe.items():
        lines.append(f"| {kind} | {row['n']} | {row['known_tcr']:.1f}% | {_fmt(row['js'])} | "
                     f"{_fmt(row['tcr'], 1)}{'%' if row['tcr'] is not None else ''} | "
                     f"{row['failed']} |")
    return "\n".join(lines)


def check_lines(check: JudgeCheck) -> list[str]:
    """The figures of the check as report lines (Markdown), verdict last."""
    return [
        check_table(check), "",
        f"- JS vs known order: Spearman {_fmt(check.js_spearman)}, Kendall {_fmt(check.js_kendall)}",
        f"- TCR vs known coverage: Spearman {_fmt(check.tcr_spearman)}, Kendall "
        f"{_fmt(check.tcr_kendall)}, mean absolute error {_fmt(check.tcr_mae, 1)} points",
        f"- parse failures: {check.failures}/{check.n_probes} ({check.failure_rate:.0%})",
        f"- **{check.verdict}**",
    ]
