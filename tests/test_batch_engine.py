"""The compiled batch engine (envs/batch/engine.py) against the scalar engine, table for table.

The contract (issue 13): from the same seeds and the same actions the
compiled engine deals the same cards and logs the same events, moves the
same chips, pays the same rewards and offers the same actions as one scalar
``Engine`` per table (:class:`envs.batch.ScalarTables`). Each case below
steps both in lockstep with seeded random legal actions and compares every
array after every step and every table's event rows at the end; then the
invariants (chips conserved), the refusals, the errors, determinism, and
the fused threshold loop against the tournament's own counting.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from envs.batch import ScalarTables, UnsupportedRules
from envs.batch.engine import BatchEngine, check_supported
from envs.batch.event_rows import decode
from envs.engine import Engine, IllegalActionError
from envs.observer import Observer
from envs.rules import PRESETS, Rules
from envs.single_seat import fixed_bank_rules

STATE = ("actor", "over", "phase", "bank", "chips", "jackpot", "pile_left", "hands_played",
         "bank_streak", "refused", "rewards", "in_hand")

CASES = [
    ("catalan", 2), ("catalan", 3), ("catalan", 5), ("catalan", 8),
    ("catalan_house", 2), ("catalan_house", 4), ("catalan_house", 7),
    ("spanish", 2), ("spanish", 6),
    ("pagat", 2), ("pagat", 8),
    ("pagat_italian", 3), ("pagat_italian", 5),
    ("pagat_spanish", 2), ("pagat_spanish", 4),
    ("italian", 2), ("italian", 6),
]
SUPPORTED_PRESETS = sorted({preset for preset, _ in CASES})


def random_actions(rng: np.random.Generator, masks: np.ndarray) -> np.ndarray:
    """One uniformly random legal action per table (0 where none is legal)."""
    keys = np.where(masks > 0, rng.random(masks.shape), -1.0)
    return keys.argmax(axis=1).astype(np.int64)


def assert_same_state(fast: BatchEngine, slow: ScalarTables, when: str) -> None:
    for name in STATE:
        mine, theirs = getattr(fast, name), getattr(slow, name)
        if not np.array_equal(mine, theirs):
            table = int(np.flatnonzero(np.asarray(mine != theirs).reshape(len(mine), -1)
                                       .any(axis=1))[0])
            raise AssertionError(f"{when}: {name} of table {table}: {mine[table]} != "
                                 f"{theirs[table]}")
    mine, theirs = fast.masks(), slow.masks()
    if not np.array_equal(mine, theirs):
        table = int(np.flatnonzero((mine != theirs).any(axis=1))[0])
        raise AssertionError(f"{when}: mask of table {table}: {np.flatnonzero(mine[table])} "
                             f"!= {np.flatnonzero(theirs[table])}")


def assert_same_events(fast: BatchEngine, slow: ScalarTables, table: int) -> None:
    mine, theirs = fast.events(table), slow.events(table)
    if mine.shape == theirs.shape and np.array_equal(mine, theirs):
        return
    for i in range(min(len(mine), len(theirs))):
        if not np.array_equal(mine[i], theirs[i]):
            raise AssertionError(f"table {table}, event {i}: {decode(mine[i], fast.layout)} "
                                 f"!= {decode(theirs[i], slow.layout)}")
    raise AssertionError(f"table {table}: {len(mine)} events, the scalar engine logged "
                         f"{len(theirs)}")


def lockstep(rules: Rules | str, seats: int, tables: int, seed: int,
             max_hands: int | None = 10) -> BatchEngine:
    """Play ``tables`` seeded tables to their end on both engines, comparing after every step."""
    fast = BatchEngine(rules, seats, tables, max_hands=max_hands, record=True, observe=False)
    slow = ScalarTables(rules, seats, tables, max_hands=max_hands)
    seeds = np.arange(tables, dtype=np.int64) * 1009 + seed
    fast.reset(seeds)
    slow.reset(seeds)
    assert_same_state(fast, slow, "after reset")
    wealth = fast.chips.sum(axis=1) + fast.jackpot
    played = fast.hands_played.copy()
    rng = np.random.default_rng(seed)
    steps = 0
    while not slow.over.all():
        actions = random_actions(rng, slow.masks())
        fast.step(actions)
        slow.step(actions)
        steps += 1
        assert_same_state(fast, slow, f"after step {steps}")
        settled = fast.hands_played != played  # no stake is left on the table
        assert np.array_equal((fast.chips.sum(axis=1) + fast.jackpot)[settled],
                              wealth[settled]), "chips + jackpot changed at a table"
        played = fast.hands_played.copy()
    assert np.array_equal(fast.chips.sum(axis=1) + fast.jackpot, wealth)
    for t in range(tables):
        assert_same_events(fast, slow, t)
    return fast


@pytest.mark.parametrize("preset, seats", CASES)
def test_same_play_as_the_scalar_engine(preset, seats):
    """Every preset the compiled engine plays, at table sizes from 2 to 8 seats."""
    lockstep(preset, seats, tables=240 // seats, seed=seats)


@pytest.mark.parametrize("preset, seats", [("catalan", 2), ("catalan", 4), ("pagat", 2),
                                           ("spanish", 3), ("pagat_italian", 2)])
def test_same_play_with_the_bank_kept_on_one_seat(preset, seats):
    """The fixed-bank rules of the Player and Bank views and the evaluator's compare."""
    lockstep(fixed_bank_rules(preset), seats, tables=160 // seats, seed=11, max_hands=6)


def test_long_episodes_run_the_shoe_out_and_reshuffle():
    """Thirty hands of one shoe (catalan: the discards come back when the pile runs out, §3)."""
    fast = lockstep("catalan", 4, tables=20, seed=5, max_hands=30)
    assert fast.hands_played.max() >= 20


def test_given_banks_and_stacks_are_the_scalar_engines():
    """``reset(banks=, chips=)`` as ``Engine.reset(bank=, chips=)``, short stacks included."""
    rules = Rules.preset("catalan")
    tables, seats = 60, 3
    fast = BatchEngine(rules, seats, tables, record=True, observe=False)
    slow = ScalarTables(rules, seats, tables)
    rng = np.random.default_rng(3)
    seeds = np.arange(tables, dtype=np.int64)
    banks = rng.integers(-1, seats, tables)
    chips = rng.integers(15, 200, (tables, seats))
    fast.reset(seeds, banks=banks, chips=chips)
    slow.reset(seeds, banks=banks, chips=chips)
    assert_same_state(fast, slow, "after reset")
    while not slow.over.all():
        actions = random_actions(rng, slow.masks())
        fast.step(actions)
        slow.step(actions)
        assert_same_state(fast, slow, "after a step")
    for t in range(tables):
        assert_same_events(fast, slow, t)


def test_stepping_some_tables_leaves_the_others_alone():
    """``step(actions, tables=)`` moves only those tables; the rows of the call are theirs."""
    tables = 30
    fast = BatchEngine("pagat", 3, tables, record=True, observe=False)
    slow = ScalarTables("pagat", 3, tables)
    seeds = np.arange(tables, dtype=np.int64) + 40
    fast.reset(seeds)
    slow.reset(seeds)
    rng = np.random.default_rng(8)
    while not slow.over.all():
        live = np.flatnonzero(~slow.over)
        chosen = live[rng.random(len(live)) < 0.5]
        actions = random_actions(rng, slow.masks())[chosen]
        fast.step(actions, tables=chosen)
        slow.step(actions, tables=chosen)
        assert_same_state(fast, slow, "after a partial step")
        moved = np.zeros(tables, dtype=bool)
        moved[chosen] = True
        assert (fast.row_count[moved] > 0).all() and (fast.row_count[~moved] == 0).all()
    for t in range(tables):
        assert_same_events(fast, slow, t)


def test_resets_and_steps_of_some_tables_keep_every_tables_rows_rewards_and_views():
    """The kernels visit only the tables a call moves: the rows of the last call, the rewards
    of the last step (a reset keeps the others'), every seat's observation and information
    state stay the reference's at every table, moved or not, call after call."""
    tables, seats = 40, 3
    fast = BatchEngine("catalan", seats, tables, information_state=True)
    slow = ScalarTables("catalan", seats, tables)
    rng = np.random.default_rng(21)
    seeds = np.arange(tables, dtype=np.int64) + 500
    fast.reset(seeds)
    slow.reset(seeds)
    for call in range(400):
        if call % 3 == 2:  # deal again at some of the tables, over or not
            chosen = np.flatnonzero(rng.random(tables) < 0.2)
            fast.reset(seeds[chosen] + call, tables=chosen)
            slow.reset(seeds[chosen] + call, tables=chosen)
        else:
            live = np.flatnonzero(~slow.over)
            chosen = live[rng.random(len(live)) < 0.3]
            actions = random_actions(rng, slow.masks())[chosen]
            fast.step(actions, tables=chosen)
            slow.step(actions, tables=chosen)
        assert_same_state(fast, slow, f"call {call}")
        moved = np.zeros(tables, dtype=bool)
        moved[chosen] = True
        assert (fast.row_count[~moved] == 0).all(), f"call {call}: rows at a table left alone"
        for seat in range(seats):
            at = np.full(tables, seat)
            assert np.array_equal(fast.observe(at), slow.observe(at)), f"call {call}"
            assert np.array_equal(fast.information_state(at), slow.information_state(at)), \
                f"call {call}"


def test_a_table_plays_the_same_whatever_the_batch():
    """Same seed, same hands: alone, or among other tables stepping at other times."""
    def play_alone() -> np.ndarray:
        alone = BatchEngine("catalan_house", 4, 1, record=True, observe=False)
        alone.reset(np.array([77]))
        rng = np.random.default_rng(0)
        while not alone.over[0]:
            alone.step(random_actions(rng, alone.masks()))
        return alone.events(0)

    crowd = BatchEngine("catalan_house", 4, 25, record=True, observe=False)
    crowd.reset(np.arange(25, dtype=np.int64) + 70)  # table 7 has seed 77
    mine, theirs = np.random.default_rng(0), np.random.default_rng(1)
    while not crowd.over[7]:
        action = random_actions(mine, crowd.masks()[7:8])
        others = np.flatnonzero(~crowd.over)
        others = others[(others != 7) & (theirs.random(len(others)) < 0.7)]
        crowd_actions = random_actions(theirs, crowd.masks())[others]
        crowd.step(np.append(crowd_actions, action), tables=np.append(others, 7))
    assert np.array_equal(play_alone(), crowd.events(7))
    assert np.array_equal(play_alone(), crowd.events(7))


def test_an_illegal_action_names_the_table_and_moves_nothing():
    fast = BatchEngine("catalan", 2, 4, observe=False)
    fast.reset(np.arange(4, dtype=np.int64))
    before = {name: np.copy(getattr(fast, name)) for name in STATE}
    masks = fast.masks()
    actions = random_actions(np.random.default_rng(0), masks)
    actions[2] = 1 if not masks[2, 1] else 5  # hit while betting, or claim_bank: not legal
    with pytest.raises(IllegalActionError, match=r"table 2: action \d+ \(\w+\) is not legal; "
                                                 r"legal: 14 \(bet_1\)"):
        fast.step(actions)
    for name in STATE:
        assert np.array_equal(getattr(fast, name), before[name]), name
    with pytest.raises(IllegalActionError, match="table 1: action 99 is not legal"):
        fast.step(np.array([99]), tables=np.array([1]))


def test_unsupported_rules_are_refused_by_name():
    """RULES.md §5, §6: what the compiled engine does not play is named, never approximated."""
    with pytest.raises(UnsupportedRules) as refusal:
        BatchEngine("spanish_full", 3, 2)
    message = str(refusal.value)
    for switch in ("side_bets=True", "bank_sale=True", "first_bank='auction'", "fusilar=True",
                   "split_rule='abrirse'", "change_four='optional'"):
        assert switch in message
    assert "supported: 'none', 'two_figures_once', 'two_figures_unlimited'" in message
    assert message.endswith("are not played by the compiled batch engine; the scalar engine "
                            "plays them (--engine scalar or auto, run.vec_env='views' or 'auto', "
                            "or envs.batch.ScalarTables)")
    for preset in SUPPORTED_PRESETS:
        check_supported(PRESETS[preset])
    with pytest.raises(UnsupportedRules, match=r"fusilar=True \(supported: False\)"):
        check_supported(Rules.preset("spanish").replace(fusilar=True))


def test_events_need_the_record_flag():
    fast = BatchEngine("catalan", 2, 2, observe=False)
    fast.reset(np.array([1, 2]))
    with pytest.raises(ValueError, match="record=True"):
        fast.events(0)


@pytest.mark.parametrize("preset, seats, fixed", [("catalan", 2, False), ("catalan", 2, True),
                                                  ("catalan", 4, False), ("pagat", 3, True),
                                                  ("catalan_house", 3, False)])
def test_fused_threshold_loop_counts_as_the_tournament(preset, seats, fixed):
    """``play_thresholds``: every decision the built-in dealer's (``dealer_action``) from the
    seat's known total, every hand counted as ``evaluate.tournament`` counts it."""
    from agents.scripted import ThresholdAgent
    from agents.seating import RoleSplitAgent, Table
    from evaluate.tournament import _count_hand

    rules = fixed_bank_rules(preset) if fixed else Rules.preset(preset)
    tables, max_hands = 40, 8
    rng = np.random.default_rng(seats)
    levels = rng.choice([3.5, 4.0, 5.0, 5.5, 6.0, 6.5, 7.0], size=(tables, seats, 2))
    seeds = np.arange(tables, dtype=np.int64) * 31 + 2
    banks = np.where(rng.random(tables) < 0.5, -1, rng.integers(0, seats, tables)) if fixed \
        else None
    fast = BatchEngine(rules, seats, 1, max_hands=max_hands, observe=False)
    counts = fast.play_thresholds(seeds, banks, levels)
    table = Table(rules, seats, max_hands)
    scale = 1.0 / rules.min_bet
    for t in range(tables):
        expected = np.zeros((seats, 2, counts.shape[-1]))
        policies = [RoleSplitAgent(ThresholdAgent(levels[t, s, 0]), ThresholdAgent(levels[t, s, 1]))
                    for s in range(seats)]
        bank = None if banks is None or banks[t] < 0 else int(banks[t])
        for hand in table.hands(policies, int(seeds[t]), bank):
            _count_hand(expected, hand, scale)
        np.testing.assert_allclose(counts[t], expected, rtol=0, atol=1e-9,
                                   err_msg=f"table {t}")


@pytest.mark.parametrize("make", [lambda: BatchEngine("catalan", 2, 4),
                                  lambda: ScalarTables("catalan", 2, 4)],
                         ids=["compiled", "reference"])
def test_both_batches_refuse_the_same_table_indices(make):
    """One check (``envs.batch.api.table_indices``): a reset or step moves a table once, so a
    repeated table is refused by name; reads may name a table twice."""
    tables = make()
    tables.reset(np.arange(4, dtype=np.int64))
    before = np.copy(tables.chips)
    with pytest.raises(ValueError, match="table 2 is named 2 times"):
        tables.reset(np.array([1, 2]), tables=np.array([2, 2]))
    with pytest.raises(ValueError, match="table 2 is named 2 times"):
        tables.step(np.array([14, 14]), tables=np.array([2, 2]))
    with pytest.raises(ValueError, match="table 4 is not one of the tables 0..3"):
        tables.step(np.array([14]), tables=np.array([4]))
    with pytest.raises(ValueError, match="1-D array of table indices"):
        tables.reset(np.array([1]), tables=np.array([0.5]))
    assert np.array_equal(tables.chips, before)
    twice = tables.observe(np.array([0, 1]), tables=np.array([3, 3]))
    assert np.array_equal(twice, tables.observe(np.array([0, 1]), tables=np.array([3, 3])))


@pytest.mark.parametrize("make", [lambda: BatchEngine("catalan", 2, 4),
                                  lambda: ScalarTables("catalan", 2, 4)],
                         ids=["compiled", "reference"])
def test_both_batches_refuse_the_same_seats_and_actions(make):
    """One check each (``envs.batch.api.seat_rows``, ``action_array``): a seat off the
    table, a seat count that is not the rows', and an action that is no integer index are
    named alike by both batches (the reference used to fail deep inside, or play a float)."""
    tables = make()
    tables.reset(np.arange(4, dtype=np.int64))
    with pytest.raises(ValueError, match="seat 3 is not a seat at these tables; seats are "
                                         "the integers 0..1"):
        tables.observe(np.array([0, 1, 3, 0]))
    with pytest.raises(ValueError, match="seats must be 4 integer seats, one a table; got "
                                         "int64 of shape"):
        tables.observe(np.array([0, 1]))
    with pytest.raises(ValueError, match="seats must be 2 integer seats"):
        tables.observe(np.array([0.0, 1.0]), tables=np.array([0, 1]))
    before = np.copy(tables.chips)
    for bad in (np.full(4, 14.0), np.full(4, True)):
        with pytest.raises(ValueError, match=f"actions must be a 1-D array of integers, not "
                                             f"{bad.dtype}"):
            tables.step(bad)
    assert np.array_equal(tables.chips, before)


@pytest.mark.parametrize("make", [
    lambda: BatchEngine("catalan", 2, 4, information_state=True),
    lambda: ScalarTables("catalan", 2, 4)], ids=["compiled", "reference"])
def test_both_batches_refuse_to_observe_before_the_first_reset(make):
    """Before any table is dealt there is nothing to see: both batches say to reset (the
    reference used to fail inside the scalar observer on chips it did not have, and the
    compiled one to return the rows of tables never dealt)."""
    tables = make()
    seats = np.zeros(4, dtype=np.int64)
    for read in (tables.observe, tables.information_state):
        with pytest.raises(ValueError, match=re.escape("no table has been dealt yet: call "
                                                       "reset() first")):
            read(seats)
    tables.reset(np.arange(4, dtype=np.int64))
    assert tables.observe(seats).shape[0] == tables.information_state(seats).shape[0] == 4


def test_the_reference_names_a_table_it_has_not_dealt():
    """The reference deals table by table (a test may reset one engine by hand): a row of a
    table never dealt is named, where the scalar observer failed on chips it did not have."""
    tables = ScalarTables("catalan", 2, 3)
    tables.engines[0].reset(seed=1)
    with pytest.raises(ValueError, match=re.escape("table 1 has not been dealt yet: call "
                                                   "reset() first")):
        tables.observe(np.zeros(3, dtype=np.int64))
    assert tables.observe(np.zeros(1, dtype=np.int64), tables=np.array([0])).shape[0] == 1


def test_a_seed_past_2_63_deals_the_same_table_in_both_batches():
    """Seeds drawn as ``uint64`` (``SeedSequence.generate_state``) reach 2**64 - 1: both
    batches deal the table ``Engine.reset(seed=s)`` deals (the reference refused them)."""
    seeds = np.array([2**63 + 5, 2**64 - 1, 7], dtype=np.uint64)
    compiled, reference = BatchEngine("catalan", 2, 3), ScalarTables("catalan", 2, 3)
    compiled.reset(seeds)
    reference.reset(seeds)
    seat = np.zeros(3, dtype=np.int64)
    assert np.array_equal(compiled.observe(seat), reference.observe(seat))
    single = Engine("catalan", 2)
    single.reset(seed=2**64 - 1)
    assert np.array_equal(reference.observe(seat)[1], Observer(single).observe(0))


def test_one_table_of_thresholds_reuses_the_kernel_many_tables_compiled():
    """A single table's thresholds, broadcast from one seat layout (as ``sette evaluate``
    passes them), are a read-only view that is already contiguous: numba would compile the
    fused loop afresh for it (half a minute) where it now plays the signature every other
    call uses."""
    from envs.batch.kernels_headsup import play_headsup

    engine = BatchEngine("catalan", 2, 1, max_hands=5, observe=False)
    levels = np.array([[5.0, 5.5], [4.0, 6.0]])
    many = engine.play_thresholds(np.arange(2, dtype=np.int64), np.full(2, -1),
                                  np.stack([levels, levels]))
    compiled = len(play_headsup.signatures)
    one = engine.play_thresholds(np.arange(1, dtype=np.int64), np.full(1, -1),
                                 np.broadcast_to(levels, (1, 2, 2)))
    assert len(play_headsup.signatures) == compiled
    assert np.array_equal(one[0], many[0])
