"""Are differences between systems real? Bootstrap confidence intervals of each score column,
and a paired test between two systems on the samples both have a value for.

* :func:`bootstrap_ci`: percentile interval of the mean over ``resamples`` bootstrap resamples
  (seeded, so a report is reproducible).
* :func:`paired_test`: a sign-flip permutation test of the mean per-sample difference (exact over
  all 2^n sign patterns up to n = 16, else ``permutations`` random ones); two-sided, no
  assumption about the scores' distribution, ties allowed.
* :func:`compare_systems`: both, for every score column and every pair of systems, with Holm's
  correction over the pairs of a column, so that with several systems one lucky pair is not
  read as a ranking.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass

import numpy as np

DEFAULT_LEVEL = 0.95
DEFAULT_ALPHA = 0.05
RESAMPLES = 2000
EXACT_UP_TO = 16


@dataclass(frozen=True)
class Interval:
    mean: float
    low: float
    high: float
    n: int
    level: float


@dataclass(frozen=True)
class PairedDifference:
    column: str
    a: str
    b: str
    n: int  # samples with a value from both systems
    mean_diff: float | None  # mean of a - b
    p_value: float | None
    p_adjusted: float | None  # Holm over the pairs of this column
    significant: bool
    alpha: float


def bootstrap_ci(values: Sequence[float], *, level: float = DEFAULT_LEVEL,
                 resamples: int = RESAMPLES, seed: int = 0) -> Interval | None:
    """Mean and percentile bootstrap interval; None without values. One value: a point."""
    data = np.asarray(values, dtype=float)
    if data.size == 0:
        return None
    mean = float(data.mean())
    if data.size == 1:
        return Interval(mean, mean, mean, 1, level)
    rng = np.random.default_rng(seed)
    means = data[rng.integers(0, data.size, size=(resamples, data.size))].mean(axis=1)
    tail = (1 - level) / 2 * 100
    low, high = np.percentile(means, [tail, 100 - tail])
    return Interval(mean, float(low), float(high), int(data.size), float(level))


def paired_test(a: Sequence[float], b: Sequence[float], *, permutations: int = 20000,
                seed: int = 0) -> float | None:
    """Two-sided p-value that the mean of ``a[i] - b[i]`` is 0 (None without pairs)."""
    if len(a) != len(b):
        raise ValueError(f"paired test needs as many values from each system ({len(a)} vs {len(b)})")
    diff = np.asarray(a, dtype=float) - np.asarray(b, dtype=float)
    n = diff.size
    if n == 0:
        return None
    observed = abs(diff.mean())
    if not np.any(diff):
        return 1.0
    if n <= EXACT_UP_TO:
        signs = np.array(list(itertools.product((1.0, -1.0), repeat=n)))
    else:
        signs = np.random.default_rng(seed).choice((1.0, -1.0), size=(permutations, n))
    means = np.abs((signs * diff).mean(axis=1))
    # the observed pattern counts as one of the permutations (never a p of 0)
    hits = int(np.count_nonzero(means >= observed - 1e-12))
    if n > EXACT_UP_TO:
        return (hits + 1) / (permutations + 1)
    return hits / len(signs)


def holm(p_values: Sequence[float | None]) -> list[float | None]:
    """Holm-Bonferroni adjusted p-values (None stays None)."""
    present = sorted((p, i) for i, p in enumerate(p_values) if p is not None)
    adjusted: list[float | None] = [None] * len(p_values)
    running = 0.0
    m = len(present)
    for rank, (p, i) in enumerate(present):
        running = max(running, min(1.0, (m - rank) * p))
        adjusted[i] = running
    return adjusted


def compare_systems(values: Mapping[str, Mapping[str, Mapping[str, float]]], *,
                    alpha: float = DEFAULT_ALPHA, level: float = DEFAULT_LEVEL,
                    seed: int = 0) -> dict[str, object]:
    """``values[system][column][sample_id]`` -> intervals per system and column, and the
    paired differences of every pair of systems per column."""
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be between 0 and 1, got {alpha}")
    values = {system: {column: {str(k): float(v) for k, v in per.items()}
                       for column, per in columns_of.items()}
              for system, columns_of in values.items()}
    systems = list(values)
    columns = list(dict.fromkeys(c for per in values.values() for c in per))
    intervals = {
        system: {column: _plain(bootstrap_ci(list(values[system].get(column, {}).values()),
                                             level=level, seed=seed))
                 for column in columns}
        for system in systems}
    differences: list[PairedDifference] = []
    for column in columns:
        rows = []
        for a, b in itertools.combinations(systems, 2):
            va, vb = values[a].get(column, {}), values[b].get(column, {})
            both = [s for s in va if s in vb]
            xa, xb = [va[s] for s in both], [vb[s] for s in both]
            rows.append((a, b, both, (sum(xa) - sum(xb)) / len(both) if both else None,
                         paired_test(xa, xb, seed=seed)))
        for (a, b, both, diff, p), adjusted in zip(rows, holm([r[4] for r in rows]), strict=True):
            differences.append(PairedDifference(
                column, a, b, len(both), diff, p, adjusted,
                bool(adjusted is not None and adjusted < alpha and diff is not None and diff != 0),
                alpha))
    return {"level": level, "alpha": alpha, "test": "paired sign-flip permutation test, Holm "
            "correction over the pairs of a column", "intervals": intervals,
            "differences": [asdict(d) for d in differences]}


def _plain(interval: Interval | None) -> dict[str, float] | None:
    if interval is None:
        return None
    return {k: (v if not isinstance(v, float) or math.isfinite(v) else None)
            for k, v in asdict(interval).items()}
