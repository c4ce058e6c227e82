"""The batch observer sees what the scalar observer sees, bit for bit (RULES.md §4, §6).

:class:`envs.batch.observer.BatchObserver` reads each table's event rows and
the batch's arrays; after every step of seeded random play (tables reset as
they finish, while the others play on) and after every step of scripted
deals where the no-leak rules bite, every seat's vector equals
``Observer.observe`` of the same engine, in every preset at 2..8 seats.
"""

from __future__ import annotations

import numba
import numpy as np
import pytest

from envs.batch import ScalarTables, UnsupportedRules
from envs.batch import obs_kernels
from envs.batch.event_rows import KIND_ID, ROW
from envs.batch.observer import BatchObserver
from envs.hands import best_total
from envs.observer import observation_slices
from envs.rules import PRESETS as RULE_PRESETS
from envs.rules import Rules

from batch_feed import EngineRows, assert_same_vectors, bits
from scripted import play
from test_no_leak import BANK_CARD, BANK_HIT, FIRST, HITS, deck, script

PRESETS = tuple(RULE_PRESETS)
SEATS = ((2, 5), (3, 8), (4, 7), (2, 6), (3, 5), (2, 8), (4, 6), (3, 7))
"""Two seat counts a preset, every count of 2..8 in some preset."""
CASES = [(preset, seats) for preset, pair in zip(PRESETS, SEATS) for seats in pair]
TABLES = 12
STEPS = 150


@pytest.fixture(autouse=True, scope="module")
def one_thread():
    """One thread for these small batches: the compiled loops are the same, and a loaded
    machine's OpenMP threads would spin-wait at every call (one test below uses them all)."""
    before = numba.get_num_threads()
    numba.set_num_threads(1)
    yield
    numba.set_num_threads(before)


def random_play(preset: str, seats: int, information_state: bool, seed: int = 0,
                max_hands: int = 5, tables: int = TABLES, steps: int = STEPS) -> dict[int, int]:
    """Seeded random legal play at ``tables`` tables, a finished table reset at once while the
    others play on; after every call the batch observer's vectors of every seat equal the
    scalar ones. Returns how many rows of each kind were read."""
    ref = ScalarTables(preset, seats, tables, max_hands)
    feed = EngineRows(ref.engines)
    observer = BatchObserver(preset, seats, tables, max_hands,
                             information_state=information_state)
    rng = np.random.default_rng(seed)
    ref.reset(rng.integers(2**31, size=tables))
    kinds: dict[int, int] = {}
    for step in range(steps):
        rows, counts = feed.rows()
        observer.update(rows, counts, ref)
        for t in range(tables):
            for kind in rows[t, :counts[t], 0]:
                kinds[int(kind)] = kinds.get(int(kind), 0) + 1
        assert_same_vectors(observer, ref, information_state, f"{preset}, step {step}")
        over = np.flatnonzero(ref.over)
        if len(over):
            ref.reset(rng.integers(2**31, size=len(over)), tables=over)
        masks = ref.masks()
        ref.step(np.argmax(rng.random(masks.shape) * masks, axis=1))
    return kinds


@pytest.mark.parametrize("preset, seats", CASES)
def test_every_seat_sees_what_the_scalar_observer_shows_after_every_step(preset, seats):
    kinds = random_play(preset, seats, information_state=False, seed=seats)
    assert kinds[KIND_ID["reset"]] > TABLES                    # tables restarted mid-run
    assert kinds[KIND_ID["hand"]] > kinds[KIND_ID["reset"]]    # and played several hands


def test_many_tables_on_every_thread_see_what_the_scalar_observer_shows():
    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    try:
        random_play("catalan_house", 4, information_state=True, seed=7, tables=64, steps=10)
    finally:
        numba.set_num_threads(1)


def test_a_when_empty_reshuffle_mid_hand_counts_the_face_up_cards_again():
    """RULES.md §3 when_empty (catalan): the discard pile is shuffled in mid-hand and the
    face-up cards still in play count as seen again; the observer takes that count."""
    kinds = random_play("catalan", 8, information_state=False, seed=3, max_hands=8)
    assert kinds[KIND_ID["shuffle"]] > kinds[KIND_ID["reset"]]  # shuffles after the first


def engine_play(preset: str, seats: int, information_state: bool, seed: int = 0,
                max_hands: int = 5, tables: int = TABLES, steps: int = STEPS) -> None:
    """The compiled engine (envs.batch.engine.BatchEngine) and the reference, fed the same
    seeds and the same random legal actions (finished tables reset at once): every seat's
    vectors from the engine's observer equal the scalar ones after every call."""
    from envs.batch.engine import BatchEngine, check_supported

    try:
        check_supported(Rules.preset(preset))
    except UnsupportedRules as refused:
        pytest.skip(str(refused))
    fast = BatchEngine(preset, seats, tables, max_hands, information_state=information_state)
    ref = ScalarTables(preset, seats, tables, max_hands)
    rng = np.random.default_rng(seed)
    seeds = rng.integers(2**31, size=tables)
    fast.reset(seeds)
    ref.reset(seeds)
    for step in range(steps):
        assert_same_vectors(fast, ref, information_state, f"{preset}, step {step}")
        over = np.flatnonzero(ref.over)
        assert np.array_equal(over, np.flatnonzero(fast.over)), step
        if len(over):
            seeds = rng.integers(2**31, size=len(over))
            fast.reset(seeds, tables=over)
            ref.reset(seeds, tables=over)
        masks = ref.masks()
        assert np.array_equal(masks, fast.masks()), step
        actions = np.argmax(rng.random(masks.shape) * masks, axis=1)
        fast.step(actions)
        ref.step(actions)


@pytest.mark.parametrize("preset, seats", CASES)
def test_the_batch_engines_observations_are_the_scalar_ones(preset, seats):
    engine_play(preset, seats, information_state=False, seed=200 + seats)


# ------------------------------------------------------------ scripted deals
def _no_leak(preset: str, seats: int = 3) -> tuple:
    return (preset, seats, deck(seats), 0, script(preset, seats), 1)


def _secret_three(seats: int = 3) -> tuple:
    first = FIRST[:seats - 1]
    first[1] = "3o"
    cards = first[:2] + ["2b", "Rb"] + first[2:] + [BANK_CARD] + HITS[:seats - 1] + [BANK_HIT]
    steps = [f"{p}:bet_1" for p in range(1, seats)]
    for p in range(1, seats):
        steps += [f"{p}:stand"] if p == 2 else [f"{p}:hit", f"{p}:stand"]
    return ("catalan_house", seats, cards, 0, steps + ["0:hit", "0:stand"], 1)


def _mort(seats: int = 3) -> tuple:
    first = FIRST[:seats - 1]
    first[0] = "7o"
    cards = first + [BANK_CARD, "So"] + HITS[1:seats - 1] + [BANK_HIT]
    steps = [f"{p}:bet_1" for p in range(1, seats)] + ["1:mort"]
    for p in range(2, seats):
        steps += [f"{p}:hit", f"{p}:stand"]
    return ("catalan_house", seats, cards, 0, steps + ["0:hit", "0:stand"], 1)


def _fusilar(seats: int = 3) -> tuple:
    first = FIRST[:seats - 1]
    first[0] = "7o"
    cards = first + [BANK_CARD, "5e"] + HITS[1:seats - 1] + [BANK_HIT, "6o"]
    steps = [f"{p}:pass" for p in range(1, seats)] + ["1:fusilar", "1:bet_1"]
    for p in range(2, seats):
        steps += [f"{p}:bet_1", f"{p}:hit", f"{p}:stand"]
    return ("spanish_full", seats, cards, 0, steps + ["0:hit", "0:hit"], 1)


SCRIPTS = {
    **{f"no_leak_{p}": _no_leak(p) for p in PRESETS},
    "no_leak_8_seats": _no_leak("pagat_spanish", 8),
    "secret_three": _secret_three(),
    "secret_three_5_seats": _secret_three(5),
    "mort": _mort(),
    "fusilar": _fusilar(),
    "fusilar_5_seats": _fusilar(5),
    "split_then_offer": ("catalan_house", 2, ["So", "2c", "Sc", "7b", "7e", "Rb"], 1,
                         ["0:bet_1", "0:hit", "0:split", "0:hit", "0:stand", "0:hit",
                          "0:stand", "1:stand"], 3),
    "sale_of_the_bank": ("spanish_full", 3, ["1o", "2o", "2c", "So", "Co", "Re"], 0,
                         script("spanish_full", 3) + ["0:sell_bank"], 3),
    "raises_and_reveal_hit": ("spanish", 2, ["3o", "2c", "Sb", "2e", "Rc"], 1,
                              ["0:bet_1", "0:raise_1", "0:hit", "0:reveal_hit", "0:raise_2",
                               "0:stand", "1:hit", "1:stand"], 1),
    "the_matta": ("italian", 2, ["1o", "2c", "Ro", "Rc", "Sb"], 1,
                  ["0:bet_1", "0:hit", "0:hit", "1:hit"], 1),
}
"""name -> (preset, seats, deck, bank, steps, max_hands): deals of tests/test_no_leak.py and
tests/test_information_state.py where a card is face down, the bank's card waits for its turn,
a reveal_hit card is its owner's, or a secret three, Mort or fusilar card is nobody's."""


def scripted_play(name: str, information_state: bool, alternative: list[str] | None = None
                  ) -> list[np.ndarray]:
    """Play script ``name`` on one table (its deck or ``alternative``), holding the batch
    vectors to the scalar ones at every step; the batch observations of every seat after
    the deal and each step, ``(steps + 1, seats, size)``."""
    preset, seats, cards, bank, steps, max_hands = SCRIPTS[name]
    ref = ScalarTables(preset, seats, 1, max_hands)
    engine = ref.engines[0]
    engine.reset(seed=1, deck=list(alternative or cards), bank=bank)
    feed = EngineRows(ref.engines)
    observer = BatchObserver(preset, seats, 1, max_hands, information_state=information_state)
    seen = []
    for i in range(len(steps) + 1):
        if i:
            play(engine, [steps[i - 1]])
        feed.feed(observer)
        where = f"{name}, after {steps[i - 1] if i else 'the deal'}"
        assert_same_vectors(observer, ref, information_state, where)
        seen.append(np.stack([observer.observe(np.array([s]))[0] for s in range(seats)]))
    return seen


@pytest.mark.parametrize("name", SCRIPTS)
def test_a_scripted_deal_is_seen_as_the_scalar_observer_sees_it(name):
    scripted_play(name, information_state=False)


def test_another_players_face_down_card_changes_only_its_owners_batch_observation():
    """RULES.md §4.1 on the batch vectors themselves: seat 2's face-down card (2o or 6b)
    shows in no other seat's observation before the showdown, and in its owner's at once."""
    a = scripted_play("no_leak_catalan", information_state=False)
    b = scripted_play("no_leak_catalan", information_state=False,
                      alternative=deck(3, seat2="6b"))
    before_showdown = len(script("catalan", 3)) - 1
    for i in range(before_showdown):
        for seat in (0, 1):
            assert np.array_equal(bits(a[i][seat]), bits(b[i][seat])), (i, seat)
    dealt = 2                                                       # after the two bets
    assert not np.array_equal(a[dealt][2], b[dealt][2])             # the owner knows it
    own = observation_slices(3)["own_hidden"]
    assert a[dealt][2][own][1] == 1.0 and b[dealt][2][own][5] == 1.0  # a 2, or a 6
    assert not np.array_equal(a[-1][1], b[-1][1])                  # shown at the end


# ------------------------------------------------------------ the interface
def test_tables_and_out_select_and_fill_rows_without_a_new_array():
    ref = ScalarTables("catalan", 3, 4, 3)
    feed = EngineRows(ref.engines)
    observer = BatchObserver("catalan", 3, 4, 3)
    ref.reset(np.arange(4))
    feed.feed(observer)
    full = observer.observe(np.array([0, 1, 2, 0]))
    out = np.full((2, observer.observation_size), np.nan, dtype=np.float32)
    got = observer.observe(np.array([2, 1]), out=out, tables=np.array([2, 1]))
    assert got is out
    assert np.array_equal(bits(out), bits(full[[2, 1]]))
    assert np.array_equal(bits(observer.observe(np.array([0, 0, 0, 0]))),
                          bits(ref.observe(np.array([0, 0, 0, 0]))))


def test_bad_seats_tables_out_and_rows_are_refused_by_name():
    observer = BatchObserver("catalan", 3, 2)
    with pytest.raises(ValueError, match="seat 3 is not a seat at these tables.*0..2"):
        observer.observe(np.array([0, 3]))
    with pytest.raises(ValueError, match="seats must be 2 integer seats"):
        observer.observe(np.array([0.0, 1.0]))
    with pytest.raises(ValueError, match="table 2 is not one of the tables 0..1"):
        observer.observe(np.array([0]), tables=np.array([2]))
    with pytest.raises(ValueError, match="out must be a C-contiguous float32 array"):
        observer.observe(np.array([0, 0]), out=np.zeros((2, 5), dtype=np.float32))
    ref = ScalarTables("catalan", 3, 2)
    with pytest.raises(ValueError, match=f"rows must be an int64 array of shape \\(2, K, {ROW}\\)"):
        observer.update(np.zeros((2, 1, 3), dtype=np.int64), np.zeros(2, dtype=np.int64), ref)
    with pytest.raises(ValueError, match="counts must be 2 int64 row counts in 0..1"):
        observer.update(np.zeros((2, 1, ROW), dtype=np.int64), np.full(2, 2, dtype=np.int64),
                        ref)
    with pytest.raises(ValueError, match="keeps no history.*information_state=True"):
        observer.information_state(np.array([0, 0]))


@pytest.mark.parametrize("decks", [1, 2, 3])
def test_the_compiled_best_total_is_the_rulebooks_for_every_hand(decks):
    """envs.hands.best_total (the matta at its best value, RULES.md §1) and its numba twin
    agree on every sum of the other cards and every number of matte a shoe holds."""
    table = obs_kernels.wild_sums_table(decks)
    for wilds in range(decks + 1):
        for base in range(0, 14 * 15 * decks):
            assert obs_kernels.best_total(base, wilds, table) == best_total(base, wilds), \
                (base, wilds)

