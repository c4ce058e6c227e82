"""The fast incremental Observer agrees with the plain definition of the observation.

``envs.observer.reference_observation`` computes a seat's view from scratch
(RULES.md §4: own cards, others' face-up cards, the bank's cards only from
its turn). The Observer used by every environment updates its buffers from
the event log; these tests hold it to the reference after every step, for
all eight presets (RULES.md §7) and table sizes 2, 4 and 8 — house rules
included: split hands, doubles, secret threes, Mort and fusilar cards, side
bets, the auction and sales of the bank — also when observations are asked
for rarely.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from envs.engine import Engine
from envs.observer import (GLOBAL_SIZE, SEAT_BLOCK, Observer, observation_size,
                           observation_slices, reference_observation)
from envs.rules import PRESETS

# Events of the house rules (§5, §6) whose observation the comparison must go through.
HOUSE_EVENTS = ("split", "double", "discarded", "four_back", "special", "side_bet", "bid",
                "sell", "decline_mort")
ALLOWED_HOUSE_EVENTS = {
    "catalan": set(),
    "catalan_house": {"split", "double", "discarded", "special", "decline_mort"},
    "spanish": set(),
    "spanish_full": {"split", "four_back", "special", "side_bet", "bid", "sell"},
    "pagat": set(),
    "pagat_italian": {"special"},
    "pagat_spanish": {"split"},
    "italian": {"special"},
}
# ... and those the seeded random play below reaches at every table size.
REACHED_HOUSE_EVENTS = {
    "catalan_house": {"double", "discarded", "special", "decline_mort"},
    "spanish_full": {"four_back", "special", "bid", "sell"},
}


@pytest.mark.parametrize("preset", list(PRESETS))
@pytest.mark.parametrize("seats", [2, 4, 8])
def test_observer_matches_reference_every_step(preset: str, seats: int) -> None:
    engine = Engine(preset, seats, max_hands=6)
    observer = Observer(engine)
    rnd = random.Random(seats)
    own_total = observation_slices(seats)["own_total"].start
    checked = 0
    kinds = set()
    for episode in range(8 if seats < 8 else 5):
        engine.reset(seed=episode)
        while True:
            for seat in range(seats):
                fast = observer.observe(seat)
                assert fast.dtype == np.float32 and fast.shape == (observation_size(seats),)
                reference = reference_observation(engine, seat)
                np.testing.assert_allclose(fast, reference, atol=1e-6)
                assert observer.own_total(seat) == round(float(reference[own_total]) * 15)
                checked += 1
            if engine.over:
                break
            engine.step(rnd.choice(engine.legal_actions()))
        kinds |= {ev[0] for ev in engine.events if ev[0] in HOUSE_EVENTS}
    assert checked > 80 * seats
    assert REACHED_HOUSE_EVENTS.get(preset, set()) <= kinds <= ALLOWED_HOUSE_EVENTS[preset]


@pytest.mark.parametrize("preset", list(PRESETS))
def test_observer_catches_up_after_many_unobserved_steps(preset: str) -> None:
    """Asked only now and then (as a single-seat view does), it still agrees."""
    engine = Engine(preset, 4, max_hands=None)
    observer = Observer(engine)
    rnd = random.Random(7)
    engine.reset(seed=3)
    for step in range(3000):
        if engine.over:
            engine.reset(seed=step)
        if step % 37 == 0:
            seat = step % 4
            np.testing.assert_allclose(observer.observe(seat),
                                       reference_observation(engine, seat), atol=1e-6)
        engine.step(rnd.choice(engine.legal_actions()))


def test_observation_is_a_fresh_array() -> None:
    """Callers may keep or modify what they get without touching the next one."""
    engine = Engine("catalan", 3)
    engine.reset(seed=0)
    observer = Observer(engine)
    first = observer.observe(0)
    first[:] = 99.0
    assert observer.observe(0).max() < 99.0


def test_slices_cover_the_vector_once() -> None:
    slices = observation_slices(5)
    covered = np.zeros(observation_size(5), dtype=int)
    for name, sl in slices.items():
        if "." in name or name.startswith("seat_") or name == "seats":
            continue
        covered[sl] += 1
    for i in range(5):
        for name, sl in slices.items():
            if name.startswith(f"seat_{i}."):
                covered[sl] += 1
    assert covered.tolist() == [1] * observation_size(5)
    assert slices["seats"] == slice(GLOBAL_SIZE, GLOBAL_SIZE + 5 * SEAT_BLOCK)


def test_observe_takes_numpy_integers_and_refuses_what_is_no_seat():
    """The compiled observer gives the pure one's answers: named errors, not TypeError."""
    engine = Engine("catalan", 3)
    engine.reset(seed=1)
    observer = Observer(engine)
    assert np.array_equal(observer.observe(np.int64(2)), observer.observe(2))
    for bad in (1.0, True, "0", None, 3, -1):
        with pytest.raises(ValueError, match="seat"):
            observer.observe(bad)
