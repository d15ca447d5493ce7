"""Agreement of two judges scoring the same predictions (InsCoQA's judge-agreement table).

* :func:`system_rank_agreement`: do the judges rank the systems the same way? Kendall's tau-b
  and Spearman's rho between the systems' mean scores under each judge.
* :func:`per_sample_agreement`: how close are the two judges on each sample? Share of samples
  scored identically and within ``tolerance`` (default 1 point), mean absolute difference, and
  pairwise concordance: over all pairs of samples that both judges order strictly, the share
  they order the same way (pairs tied by either judge are counted apart).

Correlations that are undefined (fewer than two items, or a judge giving every item the same
score) are ``None``, never a made-up number.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from scipy import stats


def _finite(value: float) -> float | None:
    value = float(value)
    return value if math.isfinite(value) else None


def _correlations(a: np.ndarray, b: np.ndarray) -> dict[str, float | None]:
    if len(a) < 2 or np.all(a == a[0]) or np.all(b == b[0]):
        return {"kendall": None, "kendall_p": None, "spearman": None, "spearman_p": None}
    kendall = stats.kendalltau(a, b)
    spearman = stats.spearmanr(a, b)
    return {
        "kendall": _finite(kendall.statistic),
        "kendall_p": _finite(kendall.pvalue),
        "spearman": _finite(spearman.statistic),
        "spearman_p": _finite(spearman.pvalue),
    }


def system_rank_agreement(
    scores_a: Mapping[str, float], scores_b: Mapping[str, float]
) -> dict[str, Any]:
    """Rank correlation of systems' scores under judge A and judge B.

    ``scores_a``/``scores_b`` map system name to its (mean) score; systems scored by only one
    judge are left out and listed under ``"missing"``.
    """
    systems = sorted(set(scores_a) & set(scores_b))
    a = np.array([scores_a[s] for s in systems], dtype=float)
    b = np.array([scores_b[s] for s in systems], dtype=float)
    return {
        "n_systems": len(systems),
        **_correlations(a, b),
        "ranking_a": sorted(systems, key=lambda s: -scores_a[s]),
        "ranking_b": sorted(systems, key=lambda s: -scores_b[s]),
        "missing": sorted(set(scores_a) ^ set(scores_b)),
    }


def pair_concordance(a: np.ndarray, b: np.ndarray, block: int = 1024) -> dict[str, int]:
    """Counts over all pairs i < j: concordant, discordant, tied by either judge."""
    concordant = discordant = tied = 0
    n = len(a)
    for start in range(0, n, block):
        rows = slice(start, min(start + block, n))
        da = np.sign(a[rows, None] - a[None, :])
        db = np.sign(b[rows, None] - b[None, :])
        upper = np.arange(rows.start, rows.stop)[:, None] < np.arange(n)[None, :]
        product = (da * db)[upper]
        concordant += int(np.count_nonzero(product > 0))
        discordant += int(np.count_nonzero(product < 0))
        tied += int(np.count_nonzero(product == 0))
    return {"concordant": concordant, "discordant": discordant, "tied": tied}


def per_sample_agreement(
    scores_a: Sequence[float], scores_b: Sequence[float], *, tolerance: float = 1.0
) -> dict[str, Any]:
    """Agreement of two judges on the same samples (``scores_a[i]`` and ``scores_b[i]``)."""
    if len(scores_a) != len(scores_b):
        raise ValueError(f"{len(scores_a)} scores from judge A but {len(scores_b)} from judge B")
    a = np.asarray(scores_a, dtype=float)
    b = np.asarray(scores_b, dtype=float)
    n = len(a)
    if n == 0:
        raise ValueError("no samples scored by both judges")
    diff = np.abs(a - b)
    pairs = pair_concordance(a, b)
    ordered = pairs["concordant"] + pairs["discordant"]
    sample_corr = _correlations(a, b)
    return {
        "n": n,
        "exact": float(np.mean(diff == 0)),
        "within_tolerance": float(np.mean(diff <= tolerance)),
        "tolerance": tolerance,
        "mean_abs_diff": float(np.mean(diff)),
        "mean_a": float(np.mean(a)),
        "mean_b": float(np.mean(b)),
        "pairwise_concordance": pairs["concordant"] / ordered if ordered else None,
        **pairs,
        "kendall": sample_corr["kendall"],
        "spearman": sample_corr["spearman"],
    }
