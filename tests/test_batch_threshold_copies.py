"""Every compiled copy of the threshold decision chooses as :func:`envs.seat_play.dealer_action`.

numba cannot call the scalar rule, so the batch engine keeps compiled copies of
it: :func:`agents.batch_policies._threshold_action` (the batched threshold
policy), :func:`envs.batch.kernels_fused.dealer_action` (the fused evaluation
loop) and :func:`envs.batch.kernels_headsup.hits` (the flat heads-up kernel,
which is only ever offered hit or stand). This file holds each to the scalar
rule over every known total, thresholds on and off the half-point grid, and
every mask of the core actions with the stakes on offer in several ways, so a
copy cannot drift from the rule (RULES.md §4.3–§4.6: hit below the threshold,
stand at or above it; §5: take or claim the bank when offered).
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import envs.actions as A
from agents.batch_policies import _threshold_action
from envs.actions import ActionLayout
from envs.batch.kernels_fused import dealer_action as fused_dealer_action
from envs.batch.kernels_headsup import hits
from envs.rules import Rules
from envs.seat_play import dealer_action

SIZE = ActionLayout(tuple(Rules.preset("catalan").bet_ladder)).size
CORE = len(A.CORE_ACTIONS)
TOTALS = range(0, 41)  # half points: nothing dealt up to well past a bust
THRESHOLDS = sorted({*np.arange(0.0, 8.01, 0.25).tolist(), 3.9999995, 4.0000005, 5.4999999,
                     5.5000001, -1.0, 99.0})
"""Points: the grid, values just inside and outside the rule's 1e-6 margin, and the extremes."""


def _mask(actions: tuple[int, ...]) -> np.ndarray:
    mask = np.zeros(SIZE, dtype=np.int8)
    mask[list(actions)] = 1
    return mask


def _scalar(threshold: float, total: int, mask: np.ndarray) -> int:
    try:
        return dealer_action(threshold, total, mask)
    except ValueError:  # no legal action: the compiled copies answer -1
        return -1


def test_every_total_and_threshold_when_hit_or_stand_is_offered() -> None:
    offers = [(A.HIT,), (A.STAND,), (A.HIT, A.STAND), (A.HIT, A.STAND, A.DOUBLE),
              (A.HIT, A.STAND, A.SPLIT, CORE)]
    for actions in offers:
        mask = _mask(actions)
        for threshold, total in itertools.product(THRESHOLDS, TOTALS):
            want = _scalar(threshold, total, mask)
            assert _threshold_action(threshold, total, mask) == want, (threshold, total, actions)
            assert fused_dealer_action(threshold, total, mask) == want, (threshold, total, actions)
    both = _mask((A.HIT, A.STAND))
    for threshold, total in itertools.product(THRESHOLDS, TOTALS):
        assert hits(threshold, total) == (dealer_action(threshold, total, both) == A.HIT), \
            (threshold, total)


@pytest.mark.parametrize("stakes", ["none", "first", "middle", "every"])
def test_every_mask_of_the_core_actions(stakes: str) -> None:
    bets = {"none": (), "first": (CORE,), "middle": (CORE + 5, CORE + 9),
            "every": tuple(range(CORE, SIZE))}[stakes]
    for bits in range(1 << CORE):
        actions = tuple(a for a in range(CORE) if bits >> a & 1) + bets
        mask = _mask(actions)
        threshold, total = (5.0, 9) if bits % 2 else (5.0, 11)  # one hits, one stands
        want = _scalar(threshold, total, mask)
        assert _threshold_action(threshold, total, mask) == want, actions
        assert fused_dealer_action(threshold, total, mask) == want, actions
