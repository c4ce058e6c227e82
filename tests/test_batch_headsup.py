"""The flat heads-up ``catalan`` kernel counts every hand as the general fused loop does.

:func:`envs.batch.kernels_headsup.play_headsup` is held, bit for bit, to
:func:`envs.batch.kernels_fused.play_thresholds` (itself held to the
tournament's count of the scalar engine's hands in ``tests/test_batch_engine.py``)
over thousands of seeded tables: thresholds on and off the half-point grid
per seat and role, first banks given and drawn by high card, episodes of 1,
10 and 100 hands (so shoes run out and are reshuffled, and the bank passes
on by 7½, by ``max_bank_hands`` and for want of cover).
"""

from __future__ import annotations

import numpy as np
import pytest

from envs.batch.engine import BatchEngine
from envs.batch.kernels_fused import BUSTS, HANDS, JACKPOT_HITS, play_thresholds
from envs.batch.kernels_headsup import play_headsup
from envs.rules import Rules
from envs.single_seat import fixed_bank_rules

_LEVELS = np.array([0.5, 2.0, 3.5, 4.0, 4.25, 5.0, 5.5, 6.0, 6.5, 7.0, 7.5])


def _both(rules, max_hands, tables, seed):  # type: ignore[no-untyped-def]
    """The counts of the general loop and of the flat kernel on the same seeded tables."""
    rng = np.random.default_rng(seed)
    levels = rng.choice(_LEVELS, size=(tables, 2, 2))
    seeds = rng.integers(0, 2**40, tables)
    banks = np.where(rng.random(tables) < 0.5, -1, rng.integers(0, 2, tables))
    engine = BatchEngine(rules, 2, 1, max_hands=max_hands, observe=False)
    general = np.zeros((tables, 2, 2, 9))
    flat = np.zeros((tables, 2, 2, 9))
    play_thresholds(engine._r, engine._ladder, seeds, banks, levels, general, 8)
    play_headsup(engine._r, seeds, banks, levels, flat, 8)
    return general, flat, banks


@pytest.mark.parametrize("fixed", [False, True], ids=["catalan", "fixed_bank"])
@pytest.mark.parametrize("max_hands, tables", [(1, 4000), (10, 3000), (100, 600)])
def test_flat_kernel_counts_bit_equal_to_the_general_loop(fixed, max_hands, tables):
    rules = fixed_bank_rules("catalan") if fixed else Rules.preset("catalan")
    general, flat, banks = _both(rules, max_hands, tables, seed=max_hands + fixed)
    assert np.array_equal(general, flat), \
        f"first differing table: {np.flatnonzero((general != flat).any(axis=(1, 2, 3)))[:1]}"
    hands = general[:, :, :, HANDS].sum(axis=1)  # (table, role): each hand has one player, one bank
    assert np.array_equal(hands[:, 0], hands[:, 1])
    assert general[..., BUSTS].sum() > 0 and general[..., JACKPOT_HITS].sum() > 0
    banked = general[:, :, 1, HANDS] > 0  # (table, seat): the seat held the bank some hand
    if fixed:
        given = banks >= 0
        assert np.array_equal(banked[given].argmax(axis=1), banks[given])
        assert not banked.all(axis=1).any()  # the bank never passes on
    elif max_hands == 100:
        assert banked.all(axis=1).mean() > 0.5  # the bank changed hands at most tables


def test_play_thresholds_takes_the_flat_kernel_only_for_heads_up_catalan():
    def takes(rules, seats):  # type: ignore[no-untyped-def]
        return BatchEngine(rules, seats, 1, observe=False)._heads_up_catalan()

    assert takes("catalan", 2) and takes(fixed_bank_rules("catalan"), 2)
    assert not takes("catalan", 3)
    assert not takes(Rules.preset("catalan").replace(natural_pays=3), 2)
    assert not takes(Rules.preset("catalan").replace(decks=2), 2)
    assert not takes("pagat", 2)


def test_play_thresholds_heads_up_catalan_equals_the_general_loop():
    rng = np.random.default_rng(7)
    levels = rng.choice(_LEVELS, size=(200, 2, 2))
    seeds = np.arange(200, dtype=np.int64) * 13 + 5
    engine = BatchEngine("catalan", 2, 1, max_hands=20, observe=False)
    general = np.zeros((200, 2, 2, 9))
    play_thresholds(engine._r, engine._ladder, seeds, np.full(200, -1), levels, general, 8)
    assert np.array_equal(engine.play_thresholds(seeds, None, levels), general)
