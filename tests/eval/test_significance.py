"""Bootstrap intervals and the paired test between systems, on known data."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from scipy import stats

from eval.significance import bootstrap_ci, compare_systems, holm, paired_test


def test_bootstrap_interval_contains_the_mean_and_narrows_with_more_samples() -> None:
    rng = np.random.default_rng(1)
    small = bootstrap_ci(list(rng.normal(5, 2, 15)))
    large = bootstrap_ci(list(rng.normal(5, 2, 1500)))
    assert small.low < small.mean < small.high and large.low < large.mean < large.high
    assert (large.high - large.low) < (small.high - small.low) / 5
    # about the normal-theory width for a large sample: 2 * 1.96 * sd / sqrt(n)
    assert (large.high - large.low) == pytest.approx(2 * 1.96 * 2 / np.sqrt(1500), rel=0.15)
    assert bootstrap_ci([]) is None
    assert bootstrap_ci([7.0]).low == bootstrap_ci([7.0]).high == 7.0
    assert bootstrap_ci([1, 2, 3, 9]) == bootstrap_ci([1, 2, 3, 9])  # seeded


def test_exact_paired_test_equals_brute_force() -> None:
    a = [7, 8, 6, 9, 7, 8, 5, 8]
    b = [6, 8, 5, 7, 7, 6, 5, 7]
    diff = np.subtract(a, b)
    observed = abs(diff.mean())
    patterns = list(itertools.product((1, -1), repeat=len(diff)))
    expected = sum(abs((np.array(s) * diff).mean()) >= observed - 1e-12 for s in patterns) / len(patterns)
    assert paired_test(a, b) == pytest.approx(expected)
    assert paired_test(a, a) == 1.0
    assert paired_test([], []) is None
    with pytest.raises(ValueError, match="as many values"):
        paired_test([1, 2], [1])


def test_randomised_paired_test_agrees_with_a_t_test_on_large_samples() -> None:
    rng = np.random.default_rng(3)
    a = rng.normal(0, 1, 200)
    b = a + rng.normal(0.25, 1, 200)
    assert paired_test(list(a), list(b)) == pytest.approx(stats.ttest_rel(a, b).pvalue, abs=0.01)


def test_holm_adjustment() -> None:
    assert holm([0.01, 0.04, 0.03, None]) == [pytest.approx(0.03), pytest.approx(0.06),
                                               pytest.approx(0.06), None]


def test_fifteen_close_samples_are_not_a_ranking_but_a_clear_gap_is() -> None:
    ids = [f"s{i}" for i in range(15)]
    rng = np.random.default_rng(0)
    base = rng.integers(3, 9, 15)
    noise = np.array([1, -1, 0, 1, 0, -1, 1, 0, 0, -1, 1, 0, -1, 1, 0])  # y a touch better
    values = {
        "x": {"js": dict(zip(ids, base, strict=True))},
        "y": {"js": dict(zip(ids, base + noise, strict=True))},
        "z": {"js": dict(zip(ids, np.clip(base + 3, 1, 10), strict=True))},
    }
    result = compare_systems(values)
    by_pair = {(d["a"], d["b"]): d for d in result["differences"]}
    assert by_pair[("x", "y")]["significant"] is False and by_pair[("x", "y")]["p_value"] > 0.5
    assert by_pair[("x", "z")]["significant"] and by_pair[("y", "z")]["significant"]
    assert by_pair[("x", "z")]["n"] == 15 and by_pair[("x", "z")]["mean_diff"] < 0
    assert set(result["intervals"]["x"]) == {"js"}
    with pytest.raises(ValueError, match="alpha"):
        compare_systems(values, alpha=1.5)


def test_pairs_use_only_samples_both_systems_have() -> None:
    values = {"a": {"tcr": {"1": 50.0, "2": 60.0, "3": 70.0}}, "b": {"tcr": {"2": 40.0, "3": 50.0}}}
    diff = compare_systems(values)["differences"][0]
    assert diff["n"] == 2 and diff["mean_diff"] == pytest.approx(20.0)
