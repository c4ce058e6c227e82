"""No observation leaks what its seat may not see (RULES.md §4.1, §4.3, §4.6).

Two deals that differ only in a card a seat must not see give that seat
identical observations (``Observer(engine).observe(seat)``) at every decision
point while the card is still hidden:

* another player's face-down card (until the showdown);
* the bank's card (until the bank's turn, even for the bank itself);
* in ``player_choice`` (spanish), the card taken face down after
  ``reveal_hit``;
* the order of the rest of the shoe (a different seed: never visible).

Each comparison has a control that must differ, so the comparison can fail:
the seat's own face-down card changes its own observation, the bank's card
shows once the bank plays, a face-up card shows at once.
"""

from __future__ import annotations

import numpy as np
import pytest

from envs.engine import BANK, BET, OVER, PLAY, TRANSFER
from envs.observer import Observer, observation_slices

try:
    from scripted import play, start
except ImportError:  # tests/ imported as a package
    from tests.scripted import play, start

PRESETS = ("catalan", "spanish", "pagat")

# Cards by role; no deal can reach 7½ or bust, so the same actions keep the same public
# statuses whatever the hidden card. Index 1 (seat 2's first card) and the bank's card
# have an alternative of another rank.
FIRST = ["1o", "2o", "3o", "1c", "3c", "2e", "1e"]     # players' first cards, turn order
HITS = ["So", "Co", "Ro", "Sc", "Cc", "Rc", "Se"]      # one hit per player
BANK_CARD, BANK_ALT = "2c", "1b"
SEAT2_ALT = "3b"                                        # instead of 2o
BANK_HIT = "Re"
HIDDEN_HIT_ALT = "2b"                                   # spanish: the reveal_hit card


def deck(seats: int, seat2: str = "2o", bank: str = BANK_CARD, seat1_hit: str | None = None
         ) -> list[str]:
    players = seats - 1
    first = FIRST[:players]
    first[1] = seat2
    hits = HITS[:players]
    if seat1_hit is not None:
        hits[0] = seat1_hit
    return first + [bank] + hits + [BANK_HIT]


def script(preset: str, seats: int) -> list[str]:
    """Bank 0; every player bets, takes one card and stands; in spanish seat 1 takes it with
    reveal_hit (its first card turns up, the new one comes face down)."""
    players = list(range(1, seats))
    steps: list[str] = []
    if preset == "spanish":
        for p in players:
            steps += [f"{p}:bet_1", f"{p}:{'reveal_hit' if p == 1 else 'hit'}",
                      f"{p}:stand"]
    else:
        steps += [f"{p}:bet_1" for p in players]
        for p in players:
            steps += [f"{p}:hit", f"{p}:stand"]
    return steps + ["0:hit", "0:stand"]


def trace(preset: str, seats: int, cards: list[str], seed: int) -> list[tuple[int, list]]:
    """(phase, [observation of every seat]) before the first action and after each one."""
    e = start(preset, seats, cards, bank=0, seed=seed)
    observer = Observer(e)
    out = [(e.phase, [observer.observe(s) for s in range(seats)])]
    for step in script(preset, seats):
        play(e, [step])
        out.append((e.phase, [observer.observe(s) for s in range(seats)]))
    return out


def same(a: np.ndarray, b: np.ndarray) -> bool:
    return a.shape == b.shape and bool(np.array_equal(a, b))


SEATS = [3, 5, 8]


@pytest.mark.parametrize("seats", SEATS)
@pytest.mark.parametrize("preset", PRESETS)
def test_another_players_face_down_card_is_invisible(preset, seats):
    """RULES.md §4.1: a face-down card is seen only by its owner — not by other players, not by
    the bank (§4.6), until every hand is shown at settlement."""
    a = trace(preset, seats, deck(seats), seed=1)
    b = trace(preset, seats, deck(seats, seat2=SEAT2_ALT), seed=1)
    hidden_states = [i for i, (phase, _) in enumerate(a) if phase in (BET, PLAY, BANK)]
    assert len(hidden_states) == len(script(preset, seats))      # every state before the end
    for i in hidden_states:
        assert a[i][0] == b[i][0]
        for seat in range(seats):
            if seat != 2:
                assert same(a[i][1][seat], b[i][1][seat]), (
                    f"seat {seat} sees seat 2's face-down card at state {i}")
    # Control: seat 2 sees its own card (2 vs 3) from the deal on ...
    dealt = next(i for i, (phase, _) in enumerate(a) if phase == PLAY)
    sl = observation_slices(seats)
    own_a, own_b = a[dealt][1][2], b[dealt][1][2]
    assert own_a[sl["own_hidden"]][1] == 1.0 and own_b[sl["own_hidden"]][2] == 1.0
    assert not same(own_a, own_b)
    # ... and everybody sees it at the showdown.
    assert a[-1][0] in (OVER, TRANSFER)
    assert not same(a[-1][1][1], b[-1][1][1])


@pytest.mark.parametrize("seats", SEATS)
@pytest.mark.parametrize("preset", PRESETS)
def test_bank_card_is_invisible_until_the_banks_turn(preset, seats):
    """RULES.md §4.1/§4.6: the bank's card is seen by nobody, the bank included, until the
    bank's turn."""
    a = trace(preset, seats, deck(seats), seed=1)
    b = trace(preset, seats, deck(seats, bank=BANK_ALT), seed=1)
    before = [i for i, (phase, _) in enumerate(a) if phase in (BET, PLAY)]
    assert len(before) == len(script(preset, seats)) - 2
    for i in before:
        for seat in range(seats):
            assert same(a[i][1][seat], b[i][1][seat]), (
                f"seat {seat} sees the bank's card at state {i}")
    # Control: at the bank's turn the card is face up for everyone.
    turn = before[-1] + 1
    assert a[turn][0] == BANK
    for seat in range(seats):
        assert not same(a[turn][1][seat], b[turn][1][seat])


@pytest.mark.parametrize("seats", SEATS)
def test_card_taken_face_down_after_reveal_hit_is_invisible(seats):
    """RULES.md §4.3 player_choice (spanish): after reveal_hit the new card is face down, so
    only its owner sees it; the first card, turned up, is seen by all."""
    a = trace("spanish", seats, deck(seats), seed=1)
    b = trace("spanish", seats, deck(seats, seat1_hit=HIDDEN_HIT_ALT), seed=1)
    hidden_states = [i for i, (phase, _) in enumerate(a) if phase in (BET, PLAY, BANK)]
    assert len(hidden_states) == len(script("spanish", seats))
    for i in hidden_states:
        for seat in range(seats):
            if seat != 1:
                assert same(a[i][1][seat], b[i][1][seat])
    # Control: the owner sees its face-down card, so its observation differs after the hit.
    after_hit = 2                                     # states: deal, 1:bet_1, 1:reveal_hit
    assert a[after_hit][0] == PLAY
    assert not same(a[after_hit][1][1], b[after_hit][1][1])
    # The turned-up first card (1o) is public: seat 2 sees it in seat 1's block, and one
    # card face down.
    sl = observation_slices(seats)
    block = f"seat_{seats - 1}"                       # seat 1 relative to seat 2
    assert a[after_hit][1][2][sl[f"{block}.up_ranks"]].tolist() == [1.0] + [0.0] * 9
    assert a[after_hit][1][2][sl[f"{block}.hidden"]][0] == 1.0


@pytest.mark.parametrize("seats", SEATS)
@pytest.mark.parametrize("preset", PRESETS)
def test_order_of_the_rest_of_the_shoe_is_invisible(preset, seats):
    """RULES.md §3/§4: a different seed shuffles the undrawn cards differently; with the same
    cards drawn every seat's observation is identical at every step, showdown included."""
    a = trace(preset, seats, deck(seats), seed=1)
    b = trace(preset, seats, deck(seats), seed=987654321)
    assert len(a) == len(b) == len(script(preset, seats)) + 1
    for (pa, oa), (pb, ob) in zip(a, b):
        assert pa == pb
        for seat in range(seats):
            assert same(oa[seat], ob[seat])


@pytest.mark.parametrize("preset", ("catalan", "pagat"))
def test_a_face_up_card_is_visible_to_everyone(preset):
    """Control for the tests above (RULES.md §4.3): changing a face-up hit card (the first
    player's) changes every seat's observation at once."""
    seats = 4
    a = trace(preset, seats, deck(seats), seed=1)
    cards = deck(seats)
    cards[seats] = "4e"                               # seat 1's hit: So -> 4e
    b = trace(preset, seats, cards, seed=1)
    after_hit = seats                                 # 3 bets, then seat 1's hit
    assert a[after_hit][0] == PLAY
    assert all(not same(a[after_hit][1][s], b[after_hit][1][s]) for s in range(seats))
    assert all(same(a[after_hit - 1][1][s], b[after_hit - 1][1][s]) for s in range(seats))
