"""The batch information state is the scalar one, bit for bit (RULES.md §8.10).

:meth:`envs.batch.observer.BatchObserver.information_state` (the observation,
then the hand's history as the seat saw it) equals
``InformationStateObserver.observe`` of the same engine for every seat after
every step: seeded random play in every preset at 2..8 seats, and the scripted
deals of ``tests/test_batch_observer.py`` where a card's rank is its owner's,
nobody's, or everybody's. A hand past the bound raises ``HistoryOverflow``
naming the table, as the scalar observer raises it.
"""

from __future__ import annotations

import numba
import numpy as np
import pytest

from envs.batch import ScalarTables
from envs.batch.event_rows import KIND_ID
from envs.batch.information_state import BatchHistory
from envs.batch.observer import BatchObserver
from envs.information_state import HistoryOverflow, InformationStateReader

from batch_feed import EngineRows
from scripted import play, start
from test_batch_observer import CASES, SCRIPTS, engine_play, random_play, scripted_play


@pytest.fixture(autouse=True, scope="module")
def one_thread():
    """One thread for these small batches (see tests/test_batch_observer.py)."""
    before = numba.get_num_threads()
    numba.set_num_threads(1)
    yield
    numba.set_num_threads(before)


@pytest.mark.parametrize("preset, seats", CASES)
def test_every_seats_information_state_is_the_scalar_one_after_every_step(preset, seats):
    kinds = random_play(preset, seats, information_state=True, seed=100 + seats)
    assert kinds[KIND_ID["hand"]] > kinds[KIND_ID["reset"]] > 12


@pytest.mark.parametrize("preset, seats", CASES)
def test_the_batch_engines_information_states_are_the_scalar_ones(preset, seats):
    engine_play(preset, seats, information_state=True, seed=300 + seats)


@pytest.mark.parametrize("name", SCRIPTS)
def test_a_scripted_deals_information_state_is_the_scalar_one(name):
    scripted_play(name, information_state=True)


def test_a_spanish_hand_reads_back_as_its_bets_raises_cards_and_reveals_in_order():
    """The batch vector decodes (InformationStateReader) to the hand's items in order: the
    player knows its own face-down 3 and 2, the bank knows neither until they are shown."""
    e = start("spanish", 2, ["3o", "2c", "Sb", "2e", "Rc"], bank=1)
    feed = EngineRows([e])
    observer = BatchObserver("spanish", 2, 1, max_hands=1, information_state=True)
    feed.feed(observer)
    for step in ["0:bet_1", "0:raise_1", "0:hit", "0:reveal_hit", "0:raise_2", "0:stand"]:
        play(e, [step])
        feed.feed(observer)

    def history(seat: int) -> list[tuple]:
        vector = observer.information_state(np.array([seat]))[0]
        return [(i.kind, i.seat, i.rank, i.amount)
                for i in InformationStateReader(vector, "spanish").history()]

    assert history(0) == [
        ("card_down", 0, "3", 0), ("card_down", 1, None, 0), ("bet", 0, None, 10),
        ("raise", 0, None, 10), ("card_up", 0, "S", 0), ("reveal", 0, "3", 0),
        ("card_down", 0, "2", 0), ("raise", 0, None, 20), ("stand", 0, None, 0),
        ("reveal", 1, "2", 0)]
    assert [item[2] for item in history(1) if item[0] == "card_down"] == [None, None, None]


def test_a_hand_past_the_bound_raises_naming_the_table_and_the_item():
    """Nothing is dropped: past the bound (made 2 here, as the scalar test does) the table's
    information state raises HistoryOverflow naming the table, the bound and the item; the
    observation and the other tables are unaffected."""
    ref = ScalarTables("catalan", 2, 2, 1)
    ref.engines[0].reset(seed=0, deck=["1o", "2c", "Sb"], bank=1)
    ref.engines[1].reset(seed=0, bank=1)
    feed = EngineRows(ref.engines)
    observer = BatchObserver("catalan", 2, 2, max_hands=1, information_state=True)
    observer.history = BatchHistory("catalan", 2, 2, slots=2)
    feed.feed(observer)
    play(ref.engines[0], ["0:bet_1"])                               # a bet and two cards
    feed.feed(observer)
    with pytest.raises(HistoryOverflow,
                       match="table 0: hand 1 has more than 2 history items.*card_down of seat 1"):
        observer.information_state(np.array([0, 0]))
    assert observer.observe(np.array([0, 0])).shape == (2, observer.observation_size)
    fine = observer.information_state(np.array([1]), tables=np.array([1]))
    assert fine.shape == (1, observer.information_state_size)
