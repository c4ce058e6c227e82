"""Confidence intervals against known distributions; IQM, probability of improvement, bootstrap."""

from __future__ import annotations

import numpy as np
import pytest

from evaluate.ev import paired_difference, ratio_estimate
from evaluate.stats import (Interval, aggregate_seeds, as_scores, iqm,
                            probability_of_improvement, stratified_bootstrap)


def _tables(rng: np.random.Generator, mean: float, tables: int, hands: int,
            common: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per-table chips of ``hands`` hands worth +1 or -1 each, P(+1) = (1 + mean) / 2."""
    u = rng.random((tables, hands)) if common is None else common
    outcomes = np.where(u < (1 + mean) / 2, 1.0, -1.0)
    return outcomes.sum(axis=1), np.full(tables, float(hands)), u


def test_ratio_estimate_covers_a_known_mean_95_percent_of_the_time():
    rng = np.random.default_rng(7)
    true_mean, trials = -0.1, 400
    covered = 0
    for _ in range(trials):
        chips, hands, _u = _tables(rng, true_mean, tables=60, hands=10)
        est = ratio_estimate(chips, hands)
        covered += est.low <= true_mean <= est.high
    assert 0.92 <= covered / trials <= 0.98


def test_ratio_estimate_matches_the_binomial_standard_error():
    rng = np.random.default_rng(3)
    chips, hands, _u = _tables(rng, 0.2, tables=2000, hands=10)
    est = ratio_estimate(chips, hands)
    assert est.hands == 20000
    expected_se = np.sqrt((1 - 0.2 ** 2) / 20000)  # variance of a ±1 outcome: 1 - mean²
    assert est.half_width == pytest.approx(1.959964 * expected_se, rel=0.05)


def test_paired_difference_with_common_numbers_covers_and_is_tighter():
    rng = np.random.default_rng(11)
    covered, trials = 0, 300
    widths = []
    for _ in range(trials):
        a_chips, hands, u = _tables(rng, 0.0, tables=50, hands=10)
        b_chips, _h, _u = _tables(rng, -0.1, tables=50, hands=10, common=u)
        diff = paired_difference((a_chips, hands), (b_chips, hands))
        covered += diff.low <= 0.1 <= diff.high
        widths.append((diff.half_width, ratio_estimate(a_chips, hands).half_width))
    assert 0.92 <= covered / trials <= 0.99
    paired, alone = np.mean(widths, axis=0)
    assert paired < alone / 2


def test_iqm_is_the_quarter_trimmed_mean():
    assert iqm([1, 2, 3, 4, 5, 6, 7, 100]) == pytest.approx(4.5)  # 3, 4, 5, 6
    assert iqm([[1.0, 5.0], [2.0, 6.0]]) == pytest.approx(3.5)     # 2, 5 of 1, 2, 5, 6
    scipy_stats = pytest.importorskip("scipy.stats")
    data = np.random.default_rng(0).normal(size=(9, 3))
    assert iqm(data) == pytest.approx(scipy_stats.trim_mean(data, 0.25, axis=None))


def test_probability_of_improvement_counts_pairs_and_ties():
    assert probability_of_improvement([[2.0], [3.0]], [[0.0], [1.0]]) == 1.0
    assert probability_of_improvement([[1.0], [1.0]], [[1.0], [1.0]]) == 0.5
    # x = 1, 3 against y = 2: one of two pairs is greater.
    assert probability_of_improvement([[1.0], [3.0]], [[2.0]]) == 0.5
    # two tasks: 1.0 on the first, 0.0 on the second.
    assert probability_of_improvement([[5.0, 0.0]], [[1.0, 2.0]]) == 0.5
    scipy_stats = pytest.importorskip("scipy.stats")
    rng = np.random.default_rng(1)
    x, y = rng.integers(0, 4, size=(7, 1)), rng.integers(0, 4, size=(5, 1))
    u = scipy_stats.mannwhitneyu(x[:, 0], y[:, 0], alternative="greater").statistic
    assert probability_of_improvement(x, y) == pytest.approx(u / 35)


def test_stratified_bootstrap_is_seeded_and_covers_a_normal_mean():
    rng = np.random.default_rng(5)
    sample = rng.normal(size=(20, 1))
    first = stratified_bootstrap(np.mean, sample, reps=500, seed=3)
    assert first == stratified_bootstrap(np.mean, sample, reps=500, seed=3)
    assert first != stratified_bootstrap(np.mean, sample, reps=500, seed=4)
    covered, trials = 0, 100
    for _ in range(trials):
        iv = stratified_bootstrap(np.mean, rng.normal(1.0, 2.0, size=(30, 1)), reps=200)
        covered += iv.low <= 1.0 <= iv.high
    assert 0.85 <= covered / trials <= 0.99


def test_stratified_bootstrap_resamples_runs_within_each_task():
    scores = np.array([[0.0, 100.0], [1.0, 101.0], [2.0, 102.0]])
    low_column = stratified_bootstrap(lambda s: s[:, 0].max(), scores, reps=200)
    high_column = stratified_bootstrap(lambda s: s[:, 1].min(), scores, reps=200)
    assert low_column.high <= 2.0 and high_column.low >= 100.0


def test_aggregate_seeds_gives_iqm_and_improvement_intervals():
    rng = np.random.default_rng(2)
    scores = {"good": rng.normal(1.0, 0.1, size=(5, 2)), "bad": rng.normal(0.0, 0.1, (4, 2))}
    agg = aggregate_seeds(scores, reps=300, seed=9)
    assert agg.runs == {"good": 5, "bad": 4}
    assert agg.iqm["good"].low <= agg.iqm["good"].value <= agg.iqm["good"].high
    assert agg.improvement[("good", "bad")].value == 1.0
    assert agg == aggregate_seeds(scores, reps=300, seed=9)
    data = agg.to_dict()
    assert set(data["probability_of_improvement"]) == {"good > bad"}


def test_bad_inputs_are_named():
    with pytest.raises(ValueError, match="not finite"):
        as_scores([1.0, float("nan")])
    with pytest.raises(ValueError, match="tasks"):
        probability_of_improvement(np.zeros((2, 2)), np.zeros((2, 3)))
    with pytest.raises(ValueError, match="reps=0"):
        stratified_bootstrap(np.mean, [1.0, 2.0], reps=0)
    with pytest.raises(ValueError, match="same tasks"):
        aggregate_seeds({"a": np.zeros((2, 1)), "b": np.zeros((2, 2))}, reps=10)


def test_interval_formats():
    assert str(Interval(0.5, 0.25, 0.75)) == "+0.5000 [+0.2500, +0.7500]"
    assert Interval(1.0, 0.0, 2.0).to_list() == [1.0, 0.0, 2.0]


def _rliable():
    try:  # rliable 1.2 fails on import next to pandas 3; any failure means: not usable here
        from rliable import library, metrics
    except Exception:
        pytest.skip("rliable is not installed or does not import here")
    return library, metrics


def test_agrees_with_rliable_where_it_imports():
    library, metrics = _rliable()
    rng = np.random.default_rng(0)
    x, y = rng.normal(size=(8, 2)), rng.normal(0.4, 1.0, size=(6, 2))
    assert iqm(x) == pytest.approx(metrics.aggregate_iqm(x))
    assert probability_of_improvement(x, y) == pytest.approx(
        metrics.probability_of_improvement(x, y))
    np.random.seed(0)
    _points, intervals = library.get_interval_estimates(
        {"x": x}, lambda s: np.array([metrics.aggregate_iqm(s)]), reps=2000)
    ours = stratified_bootstrap(iqm, x, reps=2000)
    width = ours.high - ours.low
    assert ours.low == pytest.approx(intervals["x"][0, 0], abs=0.1 * width)
    assert ours.high == pytest.approx(intervals["x"][1, 0], abs=0.1 * width)
