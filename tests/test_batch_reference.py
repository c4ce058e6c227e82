"""The batch contract's own pieces: events as integer rows, and the scalar reference of a batch.

Every compiled path of :mod:`envs.batch` is held to :class:`ScalarTables`;
these tests hold ScalarTables to the scalar engine it wraps, and the row
encoding to the event tuples it stands for.
"""

from __future__ import annotations

import numpy as np
import pytest

from envs.batch import ENGINES, ScalarTables, TableBatch, make_tables
from envs.batch.event_rows import K_CARD, K_HAND, ROW, decode, encode, encode_log
from envs.engine import Engine, IllegalActionError
from envs.observer import Observer
from envs.rules import PRESETS


def _random_episode(engine: Engine, seed: int) -> None:
    rng = np.random.default_rng(seed)
    while not engine.over:
        engine.step(int(rng.choice(engine.legal_actions())))


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("seats", [2, 5, 8])
def test_every_event_round_trips_through_its_row(preset: str, seats: int) -> None:
    engine = Engine(preset, seats, max_hands=6)
    kinds = set()
    for seed in range(4):
        engine.reset(seed=seed)
        _random_episode(engine, seed)
        rows = encode_log(engine.events, engine.layout)
        assert rows.shape == (len(engine.events), ROW)
        for event, row in zip(engine.events, rows):
            kinds.add(event[0])
            back = decode(row, engine.layout)
            if event[0] == "reset":
                assert back == ("reset", seed, None, None, None)
            else:
                assert back == event
                assert [type(x) for x in back] == [type(x) for x in event]
    assert {"hand", "card", "chips", "status"} <= kinds


def test_rows_keep_the_fields_a_reader_needs() -> None:
    engine = Engine("pagat", 3, max_hands=1)
    engine.reset(seed=0, bank=2, deck=["7o", "2c", "Rc"])
    hand = encode(("hand", 1, 2, 1, (0, 1)), engine.layout)
    assert hand[0] == K_HAND and list(hand[1:6]) == [1, 2, 1, 2, 0] and hand[6] == 1
    card = encode(("card", 1, 17, True, 0, False), engine.layout)
    assert card[0] == K_CARD and list(card[1:6]) == [1, 17, 1, 0, 0]
    bought = ("first_bank", 3, "bought for 40 to each seat")
    assert decode(encode(bought, engine.layout), engine.layout) == bought


def test_rows_refuse_what_they_cannot_encode() -> None:
    layout = Engine("catalan", 2).layout
    with pytest.raises(ValueError, match="unknown event kind 'shout'"):
        encode(("shout", 1), layout)
    with pytest.raises(ValueError, match="unknown reason 'because'"):
        encode(("bank", 1, "because"), layout)
    with pytest.raises(ValueError, match="has 4 items, not 2"):
        encode(("bet", 1), layout)


@pytest.mark.parametrize("preset", ["catalan", "spanish_full", "pagat_italian"])
def test_scalar_tables_are_the_scalar_engine_table_by_table(preset: str) -> None:
    """Same seeds, same actions: every array, mask, observation and row is the lone engine's."""
    tables = ScalarTables(preset, 3, 4, max_hands=4)
    assert isinstance(tables, TableBatch)
    seeds = np.array([11, 12, 13, 11])
    tables.reset(seeds)
    alone = [Engine(preset, 3, max_hands=4) for _ in range(4)]
    observers = [Observer(e) for e in alone]
    for e, s in zip(alone, seeds):
        e.reset(seed=int(s))
    rng = np.random.default_rng(5)
    while not tables.over.all():
        masks = tables.masks()
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])
        stepped = ~tables.over
        for t, e in enumerate(alone):
            assert tables.over[t] == e.over
            if not e.over:
                assert np.array_equal(masks[t], e.action_mask())
                e.step(int(actions[t]))
        tables.step(actions)
        for t, e in enumerate(alone):
            assert list(tables.chips[t]) == e.chips and tables.jackpot[t] == e.jackpot
            assert list(np.flatnonzero(tables.in_hand[t])) == sorted(e.order)
            rewards = tuple(e.pending_rewards) if stepped[t] else (0.0,) * 3
            assert tuple(tables.rewards[t]) == rewards
            seat = t % 3
            assert np.array_equal(tables.observe(np.full(4, seat))[t], observers[t].observe(seat))
    for t, e in enumerate(alone):
        assert np.array_equal(tables.events(t), encode_log(e.events, e.layout))
    some = tables.observe(np.array([2, 0]), tables=np.array([3, 1]))
    assert np.array_equal(some, [observers[3].observe(2), observers[1].observe(0)])
    # tables 0 and 3 share a seed: the same reset and shuffle, whatever their actions
    assert np.array_equal(tables.events(0)[:2], tables.events(3)[:2])


def test_scalar_tables_refuse_bad_calls_by_name() -> None:
    tables = ScalarTables("catalan", 2, 3, max_hands=2)
    with pytest.raises(ValueError, match="2 seeds for 3 tables"):
        tables.reset(np.array([1, 2]))
    with pytest.raises(ValueError, match="non-negative"):
        tables.reset(np.array([1, -2, 3]))
    tables.reset(np.array([1, 2, 3]))
    legal = np.flatnonzero(tables.masks()[1])
    illegal = next(a for a in range(tables.layout.size) if a not in legal)
    before = tables.chips.copy()
    with pytest.raises(IllegalActionError, match=f"table 1: action {illegal} is not legal"):
        tables.step(np.array([int(np.flatnonzero(tables.masks()[0])[0]), illegal, 0]))
    assert np.array_equal(tables.chips, before) and tables.engines[0].events[-1][0] != "action"
    with pytest.raises(ValueError, match="num_tables=0"):
        ScalarTables("catalan", 2, 0)
    with pytest.raises(ValueError, match="engine='fast' is not one of"):
        make_tables("catalan", 2, 2, engine="fast")
    assert ENGINES == ("auto", "compiled", "reference")
    assert isinstance(make_tables("catalan", 2, 2, engine="reference"), ScalarTables)
