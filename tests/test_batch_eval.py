"""The batch evaluator counts what the scalar evaluator counts, table for table, to the chip.

On the reference batch (:class:`envs.batch.reference.ScalarTables`, the scalar
engine behind the batch protocol) the tables are the scalar evaluator's, so
the tallies must be equal exactly — whatever the agents (batched kernels,
scalar ones asked row by row, seeded random play), the seats, the first
banks and how many tables play at once.
"""

from __future__ import annotations

import numpy as np
import pytest

from agents import make_agent
from envs.batch.reference import ScalarTables
from envs.single_seat import fixed_bank_rules
from evaluate import ev
from evaluate.batch_eval import batch_seats, play_tables


def _same(a: ev.Tally, b: ev.Tally) -> None:
    assert a.chips.shape == b.chips.shape
    np.testing.assert_array_equal(a.chips, b.chips)
    np.testing.assert_array_equal(a.hands, b.hands)
    assert a.seed == b.seed


CASES = [
    ("catalan", 2, ("threshold:5.5", "threshold:4")),
    ("catalan", 4, ("careful", "reader", "threshold:6", "careful|threshold:5")),
    ("pagat_italian", 3, ("careful|reader", "threshold", "careful")),
    ("spanish_full", 2, ("random", "careful|reader")),
    ("italian", 5, ("random", "threshold", "random", "reader:4", "careful")),
]


@pytest.mark.parametrize("rules,seats,specs", CASES, ids=[f"{r}-{n}" for r, n, _ in CASES])
def test_batch_tally_is_the_scalar_tally(rules: str, seats: int, specs: tuple[str, ...]) -> None:
    policies = [make_agent(spec, rules=rules) for spec in specs]
    hands, table_hands = 95, 10  # 10 tables, the last one played in full as in ev.play
    expected = ev.play(rules, seats, policies, hands, seed=3, table_hands=table_hands)
    for at_once in (4, 10):  # blocks of tables with a remainder, and all at once
        tables = ScalarTables(rules, seats, at_once, max_hands=table_hands)
        _same(play_tables(tables, policies, hands, seed=3), expected)
    assert expected.hands[:, :, 1].sum() == 100


def test_rotating_seats_and_first_banks_are_the_scalar_ones() -> None:
    """As :func:`evaluate.ev.compare` seats a candidate: a function of the table index."""
    rules = fixed_bank_rules("catalan")
    candidate, bank, player = (make_agent(s, rules=rules) for s in ("careful", "reader",
                                                                     "random"))

    def seating(t: int) -> list:
        out = [bank, player, player]
        out[1 + t % 2] = candidate
        return out

    def first_bank(t: int) -> int:
        return t % 3

    expected = ev.play(rules, 3, seating, 60, seed=11, table_hands=6, bank=first_bank)
    tables = ScalarTables(rules, 3, 4, max_hands=6)
    _same(play_tables(tables, seating, 60, seed=11, bank=first_bank), expected)
    assert (expected.hands[np.arange(10), np.arange(10) % 3, 1] == 6).all()  # fixed banks


def test_batch_seats_names_what_the_kernels_cover() -> None:
    assert batch_seats([make_agent(s) for s in ("threshold", "careful", "reader|threshold:6")])
    assert not batch_seats([make_agent("threshold"), make_agent("random")])
    assert not batch_seats([make_agent("careful|random")])


def test_bad_calls_are_named() -> None:
    tables = ScalarTables("catalan", 2, 2, max_hands=None)
    with pytest.raises(ValueError, match="max_hands"):
        play_tables(tables, [make_agent("threshold")] * 2, 10)
    tables = ScalarTables("catalan", 2, 2, max_hands=5)
    with pytest.raises(ValueError, match="3 policies for 2 seats"):
        play_tables(tables, [make_agent("threshold")] * 3, 10)
    with pytest.raises(ValueError, match="hands=0"):
        play_tables(tables, [make_agent("threshold")] * 2, 0)
