"""The observation schema (envs/observation.py): one table, and the reader beside the encoder.

The table of fields is the one definition of the vector the observer writes:
its docstring, slices, bounds and per-hand wipes come from it, a table the
observer cannot lay out is refused by name, and ObservationReader reads back,
in chips, stakes and half points, what the engine holds (RULES.md §4: each
seat reads only what it may see).
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import envs.observation as schema
from envs.cards import HALF_POINTS
from envs.engine import PHASE_NAMES, Engine
from envs.hands import WAITING, best_total
from envs.observation import (FIELDS, GLOBAL_FIELDS, SEAT_FIELDS, Field, ObservationReader,
                              observation_bounds, observation_size, observation_slices)
from envs.observer import OBSERVED_KINDS, UNOBSERVED_KINDS, Observer
from envs.rules import Rules


def test_the_docstring_table_is_the_schema():
    assert schema.schema_table() in schema.__doc__, \
        "envs/observation.py's table is out of date: paste envs.observation.schema_table()"


def test_the_vector_is_laid_out_in_table_order():
    """table fields, then the observer's own, then one block per seat, each field once."""
    n = 3
    sl = observation_slices(n)
    offset = 0
    for f in FIELDS:
        name = f.name if f.scope != schema.SEAT else f"seat_0.{f.name}"
        assert sl[name] == slice(offset, offset + f.size), f.name
        offset += f.size
    assert offset == observation_size(1)
    assert observation_size(n) == schema.GLOBAL_SIZE + n * schema.SEAT_BLOCK
    scopes = [f.scope for f in FIELDS]
    assert scopes == sorted(scopes, key=schema.SCOPES.index)
    assert schema.OWN_START == GLOBAL_FIELDS["own_hidden"].start


def test_bounds_come_from_each_fields_max():
    n = 4
    low, high = observation_bounds(n)
    sl = observation_slices(n)
    assert not low.any()
    for f in FIELDS:
        names = [f.name] if f.scope != schema.SEAT else [f"seat_{i}.{f.name}" for i in range(n)]
        for name in names:
            assert (high[sl[name]] == f.high).all(), name


def test_a_new_hand_wipes_the_wiped_fields_to_waiting_with_one_hand():
    wiped = [f for f in FIELDS if f.scope == schema.SEAT and f.wiped]
    covered = {}
    for start, stop, dealt, empty in schema.seat_wipes():
        assert len(dealt) == len(empty) == stop - start and not any(empty)
        for i in range(start, stop):
            covered[i] = dealt[i - start]
    expected = {}
    for f in wiped:
        for k in range(f.size):
            expected[SEAT_FIELDS[f.name].start + k] = 0.0
    expected[SEAT_FIELDS["status"].start + WAITING] = 1.0
    expected[SEAT_FIELDS["hands"].start] = 1.0
    assert covered == expected
    assert schema.own_wipe() == [0.0] * (schema.GLOBAL_SIZE - schema.OWN_START)


def _field(name: str, **changes) -> Field:
    return schema.FIELD[name]._replace(**changes)


@pytest.mark.parametrize("fields, message", [
    ((_field("phase"), _field("phase")), "'phase' is defined twice"),
    ((_field("own_total"), _field("phase")), "'phase': a 'table' field must come before"),
    ((_field("phase"), _field("is_bank"), _field("jackpot")), "'jackpot': a 'table' field"),
    ((_field("phase", scope="global"),), "scope 'global' is not one of"),
    ((_field("phase", unit="points"),), "unit 'points' is not one of"),
    ((_field("status", wiped=False),), "'status': dealt=0 must index a wiped field"),
    ((_field("hands", dealt=1),), "'hands': dealt=1 must index"),
    ((_field("own_total", wiped=False),), "'own_total': an 'own' field"),
])
def test_a_table_the_observer_cannot_lay_out_is_refused_by_name(fields, message):
    with pytest.raises(ValueError, match=message):
        schema._check(fields)


def _truth(engine: Engine, seat: int, block: int) -> dict:
    """What seat block ``block`` of ``seat``'s view should read, from the engine itself."""
    e, n = engine, engine.num_seats
    who = (seat + block) % n
    is_bank = who == e.bank
    hands = ([e.bank_hand] if not e.over else []) if is_bank else e.hands[who]
    current = (hands[0] if is_bank else hands[e.current[who]]) if hands else None
    up = [c for c, face_up in zip(current.cards, current.face_up) if face_up] if current else []
    wilds = sum(c == e.wild for c in up)
    return {
        "bank": is_bank, "chips": e.chips[who],
        "stake": sum(h.bet for h in hands),
        "status": current.status if current else -1,
        "cards": sum(len(h.cards) for h in hands),
        "hidden": sum(not f for h in hands for f in h.face_up),
        "up_total": best_total(sum(HALF_POINTS[c] for c in up if c != e.wild), wilds),
    }


@pytest.mark.parametrize("preset, seats", [("catalan", 3), ("spanish_full", 4),
                                           ("catalan_house", 2), ("italian", 5)])
def test_the_reader_reads_back_what_the_engine_holds(preset, seats):
    """Chips, stakes in min_bets, bank, statuses, cards, totals in half points, unseen cards."""
    engine = Engine(preset, seats, max_hands=4)
    observer = Observer(engine)
    rnd = random.Random(seats)
    decks = engine.rules.decks
    checked = 0
    for episode in range(3):
        engine.reset(seed=episode)
        while not engine.over:
            for seat in range(seats):
                reader = ObservationReader(observer.observe(seat), engine.rules)
                assert reader.num_seats == seats
                assert reader.phase_name == PHASE_NAMES[engine.phase]
                assert reader.own_total_half == observer.own_total(seat)
                assert reader.own_total == observer.own_total(seat) / 2
                assert reader.is_bank == (seat == engine.bank)
                for block in range(seats):
                    truth = _truth(engine, seat, block)
                    got = {"bank": reader.holds_bank(block), "chips": reader.chips(block),
                           "stake": reader.stake_units(block) * engine.rules.min_bet,
                           "status": reader.status(block),
                           "cards": reader.cards(block), "hidden": reader.hidden(block),
                           "up_total": reader.up_total_half(block)}
                    assert got == truth, (seat, block)
                unseen = reader.unseen_counts()
                seen = np.array(engine.seen) + reader.own_hidden_counts()
                assert unseen.dtype == np.float32
                assert unseen.tolist() == np.maximum(4 * decks - seen, 0).tolist()
                checked += 1
            engine.step(rnd.choice(engine.legal_actions()))
    assert checked > 20 * seats


def test_the_reader_says_what_it_needs():
    engine = Engine("catalan", 2)
    engine.reset(seed=0)
    observation = Observer(engine).observe(0)
    reader = ObservationReader(observation)
    with pytest.raises(ValueError, match="needs the table's rules"):
        reader.chips(0)
    with pytest.raises(ValueError, match="needs the table's rules"):
        reader.unseen_counts()
    with pytest.raises(ValueError, match="pass the game's max_hands"):
        reader.value("hands_played")
    with pytest.raises(KeyError, match="'stake' is not a seat field"):
        reader.seat(0, "stake")
    with pytest.raises(KeyError, match="'bets' is not an observation field"):
        reader["bets"]
    with pytest.raises(KeyError, match="'chips' with seat block None"):
        reader.value("chips")
    with pytest.raises(IndexError, match="seat block 2 is not in this observation"):
        reader.seat(2, "chips")
    with pytest.raises(ValueError, match="length 40 is not a sette e mezzo observation"):
        ObservationReader(np.zeros(40, dtype=np.float32))
    assert ObservationReader(observation, Rules.preset("catalan")).chips(1) == engine.chips[1]


def test_kinds_the_observer_skips_change_nothing_it_holds():
    """Every UNOBSERVED_KINDS event of seeded house-rule play leaves the observer's numbers as
    they were; every kind is observed or skipped with a reason."""
    assert not set(OBSERVED_KINDS) & set(UNOBSERVED_KINDS) and all(UNOBSERVED_KINDS.values())
    skipped = set()
    for preset in ("spanish_full", "catalan_house", "italian"):
        engine = Engine(preset, 4, max_hands=4)
        observer = Observer(engine)
        rnd = random.Random(1)
        engine.reset(seed=2)
        while not engine.over:
            observer.observe(0)
            before = (bytes(observer._public), [bytes(own) for own in observer._own],
                      bytes(observer._table), observer._dirty.copy())
            for event in engine.events:
                if event[0] in UNOBSERVED_KINDS:
                    observer._apply(event)
                    skipped.add(event[0])
            assert (bytes(observer._public), [bytes(own) for own in observer._own],
                    bytes(observer._table), observer._dirty) == before
            engine.step(rnd.choice(engine.legal_actions()))
    assert {"action", "win", "lose", "chips", "special", "bust"} <= skipped
