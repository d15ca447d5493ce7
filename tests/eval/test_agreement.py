"""Judge agreement: rank correlation of systems and per-sample agreement, on known rankings."""

from __future__ import annotations

import random
from itertools import combinations

import numpy as np
import pytest

from eval.agreement import pair_concordance, per_sample_agreement, system_rank_agreement


def test_identical_and_reversed_rankings() -> None:
    a = {"gpt": 8.5, "llama": 7.5, "mistral": 7.4, "wizard": 7.8}
    same_order = {"gpt": 7.1, "llama": 6.5, "mistral": 6.2, "wizard": 6.9}  # lower, same ranking
    result = system_rank_agreement(a, same_order)
    assert result["kendall"] == pytest.approx(1.0) and result["spearman"] == pytest.approx(1.0)
    assert result["ranking_a"] == result["ranking_b"] == ["gpt", "wizard", "llama", "mistral"]
    assert result["n_systems"] == 4 and result["missing"] == []

    reversed_ = {name: -score for name, score in a.items()}
    result = system_rank_agreement(a, reversed_)
    assert result["kendall"] == pytest.approx(-1.0) and result["spearman"] == pytest.approx(-1.0)


def test_one_swapped_pair_of_four_systems() -> None:
    a = {"s1": 4.0, "s2": 3.0, "s3": 2.0, "s4": 1.0}
    b = {"s1": 4.0, "s2": 2.0, "s3": 3.0, "s4": 1.0}
    result = system_rank_agreement(a, b)
    # 5 concordant and 1 discordant pair of 6; sum of squared rank differences 2.
    assert result["kendall"] == pytest.approx((5 - 1) / 6)
    assert result["spearman"] == pytest.approx(1 - 6 * 2 / (4 * (16 - 1)))


def test_undefined_correlations_are_none_and_missing_systems_listed() -> None:
    result = system_rank_agreement({"x": 5.0, "y": 5.0, "z": 1.0}, {"x": 3.0, "y": 3.0, "w": 2.0})
    assert result["n_systems"] == 2 and result["missing"] == ["w", "z"]
    assert result["kendall"] is None and result["spearman"] is None  # judge B scores x = y
    assert system_rank_agreement({"x": 1.0}, {"x": 2.0})["kendall"] is None


def test_per_sample_agreement_on_known_scores() -> None:
    a = [1, 5, 9, 10, 7]
    b = [2, 5, 7, 10, 6]
    result = per_sample_agreement(a, b)
    assert result["n"] == 5
    assert result["exact"] == 2 / 5
    assert result["within_tolerance"] == 4 / 5  # |9 - 7| = 2 is the only miss
    assert result["mean_abs_diff"] == pytest.approx(4 / 5)
    # a and b order every pair of samples the same way (samples 0, 1, 4, 2, 3)
    assert result["pairwise_concordance"] == 1.0
    assert (result["concordant"], result["discordant"], result["tied"]) == (10, 0, 0)
    assert result["kendall"] == pytest.approx(1.0)
    swapped = per_sample_agreement([1, 2, 3], [1, 3, 2])
    assert (swapped["concordant"], swapped["discordant"]) == (2, 1)
    assert swapped["pairwise_concordance"] == 2 / 3
    assert per_sample_agreement(a, b, tolerance=2)["within_tolerance"] == 1.0


def test_pair_concordance_equals_brute_force_in_blocks() -> None:
    rng = random.Random(0)
    a = np.array([rng.randint(1, 10) for _ in range(60)], dtype=float)
    b = np.array([x + rng.choice([-2, -1, 0, 0, 1, 3]) for x in a], dtype=float)
    expected = {"concordant": 0, "discordant": 0, "tied": 0}
    for i, j in combinations(range(len(a)), 2):
        s = np.sign(a[i] - a[j]) * np.sign(b[i] - b[j])
        expected["concordant" if s > 0 else "discordant" if s < 0 else "tied"] += 1
    assert pair_concordance(a, b, block=7) == expected
    assert pair_concordance(a, b) == expected


def test_per_sample_agreement_rejects_bad_input() -> None:
    with pytest.raises(ValueError, match="3 scores from judge A but 2"):
        per_sample_agreement([1, 2, 3], [1, 2])
    with pytest.raises(ValueError, match="no samples"):
        per_sample_agreement([], [])
