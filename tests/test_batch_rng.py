"""numpy's default generator in numba (envs/batch/rng.py), held to numpy bit for bit.

The batch engine deals exactly the scalar engine's hands only if its
generator is ``np.random.default_rng(seed)`` to the bit: the seeding
(SeedSequence, PCG64's srandom), the 64- and buffered 32-bit draws,
``Generator.shuffle`` (the shoe, RULES.md §3) and ``Generator.integers(n)``
(a random first bank, RULES.md §5).
"""

from __future__ import annotations

import numpy as np
import pytest

from envs.batch.rng import integers, new_generator, next_uint32, next_uint64, shuffle

SEEDS = [0, 1, 2, 7, 12345, 2**31 - 1, 2**32 - 1, 2**32, 2**40 + 7, 2**62 + 3, 2**63 - 1]


def _state(g: np.ndarray) -> tuple[int, int]:
    return (int(g[0]) << 64) | int(g[1]), (int(g[2]) << 64) | int(g[3])


@pytest.mark.parametrize("seed", SEEDS + list(range(100, 400, 7)))
def test_seeding_is_numpys(seed):
    """SeedSequence(seed) -> PCG64's state and increment, for one- and two-word seeds."""
    state = np.random.default_rng(seed).bit_generator.state["state"]
    assert _state(new_generator(seed)) == (state["state"], state["inc"])


@pytest.mark.parametrize("seed", SEEDS[:6])
def test_raw_draws_are_numpys(seed):
    """64-bit draws, and 32-bit draws that use both halves of one 64-bit draw."""
    reference = np.random.default_rng(seed).bit_generator
    g = new_generator(seed)
    assert [int(next_uint64(g)) for _ in range(50)] == \
        [int(x) for x in reference.random_raw(50)]
    reference = np.random.default_rng(seed)
    g = new_generator(seed)
    mine = [int(next_uint32(g)) for _ in range(51)]
    theirs = [int(x) for x in reference.integers(0, 2**32, size=51, dtype=np.uint32)]
    assert mine == theirs


@pytest.mark.parametrize("size", [1, 2, 3, 5, 40, 41, 80, 120, 320])
def test_shuffle_is_generator_shuffle(size):
    """Shuffle after shuffle from one generator, as the engine shuffles its shoe."""
    for seed in range(25):
        reference = np.random.default_rng(seed)
        g = new_generator(seed)
        pile = list(range(size))
        cards = np.arange(size, dtype=np.int8 if size < 128 else np.int64)
        for _ in range(3):
            reference.shuffle(pile)
            shuffle(g, cards, size)
            assert cards.tolist() == pile


def test_integers_is_generator_integers():
    """Bounded draws (Lemire's method), interleaved with shuffles: the generator's state
    after each call is numpy's too."""
    for seed in range(60):
        reference = np.random.default_rng(seed)
        g = new_generator(seed)
        pile = list(range(40))
        cards = np.arange(40, dtype=np.int8)
        for n in (2, 3, 4, 5, 7, 8, 16, 1000, 2**31 + 5, 2**32):
            assert integers(g, n) == int(reference.integers(n))
            reference.shuffle(pile)
            shuffle(g, cards, 40)
            assert cards.tolist() == pile
        assert integers(g, 1) == int(reference.integers(1)) == 0
