"""Confidence intervals against known distributions; IQM, probability of improvement and the
stratified bootstrap, computed by rliable."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.stats
from rliable import library, metrics

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
    # 9 entries: int(9 / 4) = 2 cut at each end, the middle five 3..7 kept.
    assert iqm([9, 1, 8, 2, 7, 3, 6, 4, 5]) == pytest.approx(5.0)
    assert iqm([-1000.0, 1, 2, 3, 4, 5, 6, 1000.0]) == pytest.approx(3.5)
    data = np.random.default_rng(0).normal(size=(9, 3))
    assert iqm(data) == pytest.approx(scipy.stats.trim_mean(data, 0.25, axis=None))
    assert iqm(data) != pytest.approx(float(np.mean(data)))


def test_probability_of_improvement_counts_pairs_and_ties():
    assert probability_of_improvement([[2.0], [3.0]], [[0.0], [1.0]]) == 1.0
    assert probability_of_improvement([[0.0], [1.0]], [[2.0], [3.0]]) == 0.0
    assert probability_of_improvement([[1.0], [1.0]], [[1.0], [1.0]]) == 0.5
    assert probability_of_improvement([[1.0], [1.0], [1.0]], [[1.0]]) == 0.5
    # x = 3, 5, 5 against y = 1, 5: pairs 1, 0, 1, 1/2, 1, 1/2 -> 4 of 6.
    x, y = [[3.0], [5.0], [5.0]], [[1.0], [5.0]]
    assert probability_of_improvement(x, y) == pytest.approx(2 / 3)
    # two tasks: 1.0 on the first, 0.0 on the second.
    assert probability_of_improvement([[5.0, 0.0]], [[1.0, 2.0]]) == 0.5
    rng = np.random.default_rng(1)
    x, y = rng.integers(0, 4, size=(7, 1)), rng.integers(0, 4, size=(5, 1))
    pairs = np.mean([(a > b) + 0.5 * (a == b) for a in x[:, 0] for b in y[:, 0]])
    assert probability_of_improvement(x, y) == pytest.approx(pairs)


def test_stratified_bootstrap_is_seeded_and_leaves_the_global_stream_alone():
    sample = np.random.default_rng(5).normal(size=(20, 1))
    np.random.seed(123)
    expected_next = np.random.random()
    np.random.seed(123)
    first = stratified_bootstrap(np.mean, sample, reps=300, seed=3)
    assert np.random.random() == expected_next
    assert first == stratified_bootstrap(np.mean, sample, reps=300, seed=3)
    assert first != stratified_bootstrap(np.mean, sample, reps=300, seed=4)
    assert first.value == pytest.approx(float(np.mean(sample)))
    two = (sample, sample[:7] + 1.0)
    pair = stratified_bootstrap(probability_of_improvement, *two, reps=100, seed=3)
    assert pair == stratified_bootstrap(probability_of_improvement, *two, reps=100, seed=3)
    assert pair != stratified_bootstrap(probability_of_improvement, *two, reps=100, seed=4)


def test_stratified_bootstrap_covers_a_normal_mean_and_narrows_with_more_runs():
    rng = np.random.default_rng(6)
    covered, trials = 0, 100
    for t in range(trials):
        iv = stratified_bootstrap(np.mean, rng.normal(1.0, 2.0, size=(30, 1)), reps=200, seed=t)
        covered += iv.low <= 1.0 <= iv.high
    assert 0.85 <= covered / trials <= 0.99
    widths = {}
    for runs in (10, 160):
        ivs = [stratified_bootstrap(iqm, rng.normal(1.0, 2.0, size=(runs, 2)), reps=200, seed=t)
               for t in range(5)]
        widths[runs] = np.mean([iv.high - iv.low for iv in ivs])
    assert widths[10] / widths[160] > 2.5  # about 4 = sqrt(160 / 10)


def test_stratified_bootstrap_resamples_runs_within_each_task():
    scores = np.array([[0.0, 100.0], [1.0, 101.0], [2.0, 102.0]])
    low_column = stratified_bootstrap(lambda s: s[:, 0].max(), scores, reps=200)
    high_column = stratified_bootstrap(lambda s: s[:, 1].min(), scores, reps=200)
    assert low_column.high <= 2.0 and high_column.low >= 100.0


def _rliable_interval(scores: object, func, reps: int, seed: int) -> list[float]:
    """rliable's own ``get_interval_estimates`` from the global state ``seed`` gives."""
    saved = np.random.get_state()
    np.random.set_state(np.random.RandomState(np.random.MT19937(seed)).get_state())
    try:
        _points, intervals = library.get_interval_estimates({"k": scores}, func, reps=reps)
    finally:
        np.random.set_state(saved)
    return intervals["k"][:, 0].tolist()


def test_same_numbers_as_rliable_from_the_same_global_state():
    rng = np.random.default_rng(0)
    x, y = rng.normal(size=(8, 2)), rng.normal(0.4, 1.0, size=(6, 2))
    assert iqm(x) == metrics.aggregate_iqm(x)
    assert probability_of_improvement(x, y) == metrics.probability_of_improvement(x, y)
    ours = stratified_bootstrap(iqm, x, reps=300, seed=3)
    assert [ours.low, ours.high] == pytest.approx(_rliable_interval(
        x, lambda s: np.array([metrics.aggregate_iqm(s)]), reps=300, seed=3))
    ours = stratified_bootstrap(probability_of_improvement, x, y, reps=100, seed=3)
    assert [ours.low, ours.high] == pytest.approx(_rliable_interval(
        [x, y], lambda a, b: np.array([metrics.probability_of_improvement(a, b)]),
        reps=100, seed=3))


def test_aggregate_seeds_gives_iqm_and_improvement_intervals():
    rng = np.random.default_rng(2)
    scores = {"good": rng.normal(1.0, 0.1, size=(5, 2)), "bad": rng.normal(0.0, 0.1, (4, 2))}
    agg = aggregate_seeds(scores, reps=200, seed=9)
    assert agg.runs == {"good": 5, "bad": 4}
    assert agg.iqm["good"].low <= agg.iqm["good"].value <= agg.iqm["good"].high
    assert agg.iqm["good"].low > agg.iqm["bad"].high
    assert agg.iqm["bad"].value == pytest.approx(iqm(scores["bad"]))
    assert agg.improvement[("good", "bad")] == Interval(1.0, 1.0, 1.0)
    assert ("bad", "good") not in agg.improvement
    assert agg == aggregate_seeds(scores, reps=200, seed=9)
    data = agg.to_dict()
    assert set(data["probability_of_improvement"]) == {"good > bad"}
    assert data["iqm"]["good"] == agg.iqm["good"].to_list()


def test_bad_inputs_are_named():
    with pytest.raises(ValueError, match="not finite.*nan"):
        as_scores([1.0, float("nan")])
    with pytest.raises(ValueError, match=r"shape \(0, 1\)"):
        iqm(np.zeros((0, 1)))
    with pytest.raises(ValueError, match="x has 2 tasks but y has 3"):
        probability_of_improvement(np.zeros((2, 2)), np.zeros((2, 3)))
    with pytest.raises(ValueError, match="reps=0"):
        stratified_bootstrap(np.mean, [1.0, 2.0], reps=0)
    with pytest.raises(ValueError, match="confidence=1.5"):
        stratified_bootstrap(np.mean, [1.0, 2.0], reps=10, confidence=1.5)
    with pytest.raises(ValueError, match="seed=-1"):
        stratified_bootstrap(np.mean, [1.0, 2.0], reps=10, seed=-1)
    with pytest.raises(ValueError, match="at least one sample"):
        stratified_bootstrap(np.mean, reps=10)
    with pytest.raises(ValueError, match="same tasks.*a 1, b 2"):
        aggregate_seeds({"a": np.zeros((2, 1)), "b": np.zeros((2, 2))}, reps=10)
    with pytest.raises(ValueError, match="scores of 'b'.*inf"):
        aggregate_seeds({"a": np.zeros((2, 1)), "b": [[float("inf")]]}, reps=10)


def test_interval_formats():
    assert str(Interval(0.5, 0.25, 0.75)) == "+0.5000 [+0.2500, +0.7500]"
    assert Interval(1.0, 0.0, 2.0).to_list() == [1.0, 0.0, 2.0]
