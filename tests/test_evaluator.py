"""The first evaluator: EV per hand per role, common random numbers, intervals."""

from __future__ import annotations

import numpy as np
import pytest

from agents import make_agent
from evaluate.ev import compare, paired_difference, play, ratio_estimate, table_seeds


def test_ratio_estimate_is_the_mean_with_a_shrinking_interval() -> None:
    rng = np.random.default_rng(0)
    small = ratio_estimate(rng.normal(0.5, 1, 100) * 10, np.full(100, 10))
    large = ratio_estimate(rng.normal(0.5, 1, 10_000) * 10, np.full(10_000, 10))
    assert large.low < 0.5 < large.high
    assert large.half_width < small.half_width / 5
    assert large.hands == 100_000
    assert np.isnan(ratio_estimate(np.zeros(3), np.zeros(3)).mean)


def test_tables_get_the_same_seeds_for_the_same_seed() -> None:
    assert table_seeds(3, 5) == table_seeds(3, 5)
    assert table_seeds(3, 5) != table_seeds(4, 5)


def test_play_counts_hands_by_role_and_chips_balance_without_a_jackpot() -> None:
    seats = [make_agent("threshold:5"), make_agent("careful", rules="pagat"),
             make_agent("random", seed=1)]
    tally = play("pagat", 3, seats, hands=400, seed=2, table_hands=20)
    assert tally.hands[:, :, 1].sum() == 400            # one bank per hand
    assert tally.hands[:, :, 0].sum() <= 2 * 400        # at most two players per hand
    assert np.allclose(tally.chips.sum(axis=(1, 2)), 0)  # zero-sum table (no jackpot)
    again = play("pagat", 3, seats, hands=400, seed=2, table_hands=20)
    assert np.array_equal(tally.chips, again.chips)


def test_identical_agents_compare_equal_on_common_deals() -> None:
    result = compare({"a": make_agent("threshold:5"), "b": make_agent("threshold:5")},
                     "player", {"bank": make_agent("reader"), "players": make_agent("careful")},
                     "catalan", 3, hands=600, seed=1)
    assert result.ev["a"] == result.ev["b"]
    diff = result.versus("a", "b")
    assert diff.mean == 0 and diff.half_width == 0


def test_common_random_numbers_narrow_the_difference() -> None:
    candidates = {f"t{t}": make_agent(f"threshold:{t}") for t in (4.5, 5)}
    result = compare(candidates, "bank", {"players": make_agent("careful")}, "catalan", 2,
                     hands=4000, seed=3)
    diff = result.versus("t4.5", "t5")
    assert diff.half_width < min(e.half_width for e in result.ev.values())
    assert result.best(list(candidates)) in candidates


def test_bad_inputs_are_named() -> None:
    with pytest.raises(ValueError, match="role 'dealer'"):
        compare({}, "dealer", {}, "catalan", 2, 10)
    with pytest.raises(ValueError, match="3 policies for 2 seats"):
        play("catalan", 2, [make_agent("random")] * 3, hands=10)
    with pytest.raises(ValueError, match="same tables"):
        paired_difference((np.ones(3), np.ones(3)), (np.ones(4), np.ones(4)))
