"""No observation leaks what its seat may not see (RULES.md §4.1, §4.3, §4.6, §6).

Two deals that differ only in a card a seat must not see give that seat
identical observations (``Observer(engine).observe(seat)``) at every decision
point while the card is still hidden, in all eight presets:

* another player's face-down card (until the showdown);
* the bank's card (until the bank's turn, even for the bank itself);
* in ``player_choice`` (spanish, spanish_full, pagat_spanish), the card taken
  face down after ``reveal_hit``;
* the order of the rest of the shoe (a different seed: never visible);
* the cards nobody sees (§6), not even their owner, until the bank has
  finished: the two secret cards of a secret three (catalan_house), the Mort
  card (catalan_house) and the fusilar card (spanish_full).

Each comparison has a control that must differ, so the comparison can fail:
the seat's own face-down card changes its own observation, the bank's card
shows once the bank plays, a face-up card shows at once, and the secret,
Mort and fusilar cards show at the settlement.
"""

from __future__ import annotations

import numpy as np
import pytest

from envs.engine import BANK, BET, OVER, PLAY, SIDE_BET, TRANSFER
from envs.observer import Observer, observation_slices
from envs.rules import PRESETS as RULE_PRESETS
from envs.rules import Rules

from scripted import play, start

PRESETS = tuple(RULE_PRESETS)
PLAYER_CHOICE = tuple(p for p in PRESETS if Rules.preset(p).hidden_cards == "player_choice")
FACE_UP_HITS = tuple(p for p in PRESETS if p not in PLAYER_CHOICE)
HIDDEN_PHASES = (BET, PLAY, BANK, SIDE_BET)

# Cards by role. No 3 (secret three), 4 (change of a 4), 7 (Mort, fusilar, pair of
# sevens) or Ro (the matta) is dealt, and no deal can reach 7½ or bust, so the same
# actions keep the same public statuses whatever the hidden card, in every preset.
# Index 1 (seat 2's first card) and the bank's card have an alternative of another rank.
FIRST = ["1o", "2o", "5o", "1c", "5c", "2e", "1e"]     # players' first cards, turn order
HITS = ["So", "Co", "Sc", "Cc", "Se", "Ce", "Sb"]      # one hit per player
BANK_CARD, BANK_ALT = "2c", "1b"
SEAT2_ALT = "6b"                                        # instead of 2o
BANK_HIT = "Re"
HIDDEN_HIT_ALT = "2b"                                   # player_choice: the reveal_hit card


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
    """Bank 0; every player bets, takes one card and stands; in the player_choice presets
    seat 1 takes it with reveal_hit (its first card turns up, the new one comes face down).
    With side bets (spanish_full) every player passes first."""
    rules = Rules.preset(preset)
    players = list(range(1, seats))

    def draw(p: int) -> str:
        return "reveal_hit" if p == 1 and preset in PLAYER_CHOICE else "hit"

    steps: list[str] = []
    if rules.bet_timing == "before_deal":
        steps += [f"{p}:bet_1" for p in players]
    if rules.side_bets:
        steps += [f"{p}:pass" for p in players]
    for p in players:
        if rules.bet_timing == "on_turn":
            steps.append(f"{p}:bet_1")
        steps += [f"{p}:{draw(p)}", f"{p}:stand"]
    return steps + ["0:hit", "0:stand"]


def trace(preset: str, seats: int, cards: list[str], seed: int,
          steps: list[str] | None = None) -> list[tuple[int, list]]:
    """(phase, [observation of every seat]) before the first action and after each one."""
    e = start(preset, seats, cards, bank=0, seed=seed)
    observer = Observer(e)
    out = [(e.phase, [observer.observe(s) for s in range(seats)])]
    for step in script(preset, seats) if steps is None else steps:
        play(e, [step])
        out.append((e.phase, [observer.observe(s) for s in range(seats)]))
    return out


def same(a: np.ndarray, b: np.ndarray) -> bool:
    return a.shape == b.shape and bool(np.array_equal(a, b))


SEATS = [3, 5, 8]


def test_scripts_are_what_the_tests_assume():
    assert PLAYER_CHOICE == ("spanish", "spanish_full", "pagat_spanish")
    assert script("catalan", 3) == ["1:bet_1", "2:bet_1", "1:hit", "1:stand", "2:hit",
                                    "2:stand", "0:hit", "0:stand"]
    assert script("spanish_full", 3) == ["1:pass", "2:pass", "1:bet_1", "1:reveal_hit",
                                         "1:stand", "2:bet_1", "2:hit", "2:stand", "0:hit",
                                         "0:stand"]
    assert script("italian", 3) == ["1:bet_1", "1:hit", "1:stand", "2:bet_1", "2:hit",
                                    "2:stand", "0:hit", "0:stand"]
    assert deck(3) == ["1o", "2o", "2c", "So", "Co", "Re"]


@pytest.mark.parametrize("seats", SEATS)
@pytest.mark.parametrize("preset", PRESETS)
def test_another_players_face_down_card_is_invisible(preset, seats):
    """RULES.md §4.1: a face-down card is seen only by its owner — not by other players, not by
    the bank (§4.6), until every hand is shown at settlement."""
    a = trace(preset, seats, deck(seats), seed=1)
    b = trace(preset, seats, deck(seats, seat2=SEAT2_ALT), seed=1)
    hidden_states = [i for i, (phase, _) in enumerate(a) if phase in HIDDEN_PHASES]
    assert len(hidden_states) == len(script(preset, seats))      # every state before the end
    for i in hidden_states:
        assert a[i][0] == b[i][0]
        for seat in range(seats):
            if seat != 2:
                assert same(a[i][1][seat], b[i][1][seat]), (
                    f"seat {seat} sees seat 2's face-down card at state {i}")
    # Control: seat 2 sees its own card (2 vs 6) from the deal on ...
    dealt = next(i for i, (phase, _) in enumerate(a) if phase == PLAY)
    sl = observation_slices(seats)
    own_a, own_b = a[dealt][1][2], b[dealt][1][2]
    assert own_a[sl["own_hidden"]][1] == 1.0 and own_b[sl["own_hidden"]][5] == 1.0
    assert own_a[sl["own_hidden"]].sum() == own_b[sl["own_hidden"]].sum() == 1.0
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
    before = [i for i, (phase, _) in enumerate(a) if phase in (BET, PLAY, SIDE_BET)]
    assert len(before) == len(script(preset, seats)) - 2
    for i in before:
        for seat in range(seats):
            assert same(a[i][1][seat], b[i][1][seat]), (
                f"seat {seat} sees the bank's card at state {i}")
    # Control: at the bank's turn the card is face up for everyone.
    turn = before[-1] + 1
    assert a[turn][0] == BANK
    sl = observation_slices(seats)
    for seat in range(seats):
        assert not same(a[turn][1][seat], b[turn][1][seat])
        bank_block = f"seat_{(0 - seat) % seats}"   # seat 0 relative to the observer
        assert a[turn][1][seat][sl[f"{bank_block}.up_ranks"]][1] == 1.0   # the 2
        assert b[turn][1][seat][sl[f"{bank_block}.up_ranks"]][0] == 1.0   # the 1


@pytest.mark.parametrize("seats", SEATS)
@pytest.mark.parametrize("preset", PLAYER_CHOICE)
def test_card_taken_face_down_after_reveal_hit_is_invisible(preset, seats):
    """RULES.md §4.3 player_choice: after reveal_hit the new card is face down, so only its
    owner sees it; the first card, turned up, is seen by all."""
    a = trace(preset, seats, deck(seats), seed=1)
    b = trace(preset, seats, deck(seats, seat1_hit=HIDDEN_HIT_ALT), seed=1)
    hidden_states = [i for i, (phase, _) in enumerate(a) if phase in HIDDEN_PHASES]
    assert len(hidden_states) == len(script(preset, seats))
    for i in hidden_states:
        for seat in range(seats):
            if seat != 1:
                assert same(a[i][1][seat], b[i][1][seat])
    # Control: the owner sees its face-down card, so its observation differs after the hit.
    after_hit = script(preset, seats).index("1:reveal_hit") + 1
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


@pytest.mark.parametrize("preset", FACE_UP_HITS)
def test_a_face_up_card_is_visible_to_everyone(preset):
    """Control for the tests above (RULES.md §4.3): changing a face-up hit card (the first
    player's) changes every seat's observation at once."""
    seats = 4
    a = trace(preset, seats, deck(seats), seed=1)
    cards = deck(seats)
    cards[seats] = "6e"                               # seat 1's hit: So -> 6e
    b = trace(preset, seats, cards, seed=1)
    after_hit = script(preset, seats).index("1:hit") + 1
    assert a[after_hit][0] == PLAY
    assert all(not same(a[after_hit][1][s], b[after_hit][1][s]) for s in range(seats))
    assert all(same(a[after_hit - 1][1][s], b[after_hit - 1][1][s]) for s in range(seats))


# ------------------------------------------------ cards nobody sees (§6)
def _compare_unseen(a, b, seats, settle_step):
    """Every seat (the owner too) sees the same until ``settle_step``; after it, all differ."""
    assert len(a) == len(b)
    for i in range(settle_step):
        assert a[i][0] == b[i][0]
        for seat in range(seats):
            assert same(a[i][1][seat], b[i][1][seat]), (
                f"seat {seat} sees a card nobody may see at state {i}")
    # Control: the settlement shows the cards to everyone.
    for seat in range(seats):
        assert not same(a[settle_step][1][seat], b[settle_step][1][seat])


@pytest.mark.parametrize("seats", [3, 5])
def test_secret_three_cards_are_unseen_by_everyone_until_settlement(seats):
    """RULES.md §6 secret_three (catalan_house): an initial 3 is discarded (shown) for two
    secret cards that nobody — not even their owner — sees until the bank has finished."""
    players = list(range(1, seats))

    def cards(secret: list[str]) -> list[str]:
        first = FIRST[:seats - 1]
        first[1] = "3o"                                 # seat 2's initial 3
        return first[:2] + secret + first[2:] + [BANK_CARD] + HITS[:seats - 1] + [BANK_HIT]

    steps = [f"{p}:bet_1" for p in players]
    for p in players:
        steps += ([f"{p}:stand"] if p == 2 else [f"{p}:hit", f"{p}:stand"])
    steps += ["0:hit", "0:stand"]
    a = trace("catalan_house", seats, cards(["2b", "Rb"]), seed=1, steps=steps)  # 2½
    b = trace("catalan_house", seats, cards(["6e", "5b"]), seed=1, steps=steps)  # 11: bust
    _compare_unseen(a, b, seats, settle_step=len(steps))
    sl = observation_slices(seats)
    dealt = a[seats - 1]                                # after the bets: the deal is done
    assert dealt[0] == PLAY
    own = dealt[1][2]
    assert own[sl["own_hidden"]].sum() == 0.0           # the owner knows none of them
    assert own[sl["own_total"]][0] == 0.0
    assert own[sl["seat_0.hidden"]][0] == 2.0 and own[sl["seat_0.unseen"]][0] == 2.0
    other = dealt[1][1][sl["seat_1.unseen"]][0]        # seat 2 as seen by seat 1
    assert other == 2.0
    # the discarded 3 is public
    assert all(obs[sl["seen_ranks"]][2] == 0.25 for obs in dealt[1])
    # the secret hand can only stand
    e = start("catalan_house", seats, cards(["2b", "Rb"]), bank=0, seed=1)
    play(e, steps[:seats - 1] + steps[seats - 1:seats + 1])
    assert e.actor == 2 and [e.layout.names[x] for x in e.legal_actions()] == ["stand"]


@pytest.mark.parametrize("seats", [3, 5])
def test_mort_card_is_unseen_by_everyone_until_settlement(seats):
    """RULES.md §6 mort (catalan_house): the Mort card is face down and seen by nobody,
    the player included, until the bank has finished; the announced 7 is shown."""
    players = list(range(1, seats))

    def cards(mort: str) -> list[str]:
        first = FIRST[:seats - 1]
        first[0] = "7o"                                 # seat 1's initial 7
        return first + [BANK_CARD, mort] + HITS[1:seats - 1] + [BANK_HIT]

    steps = [f"{p}:bet_1" for p in players] + ["1:mort"]
    for p in players[1:]:
        steps += [f"{p}:hit", f"{p}:stand"]
    steps += ["0:hit", "0:stand"]
    a = trace("catalan_house", seats, cards("So"), seed=1, steps=steps)   # 7½: a natural
    b = trace("catalan_house", seats, cards("5e"), seed=1, steps=steps)   # 12: lost
    _compare_unseen(a, b, seats, settle_step=len(steps))
    sl = observation_slices(seats)
    after = a[seats]                                    # right after 1:mort
    assert after[0] == PLAY
    own = after[1][1]
    assert own[sl["own_hidden"]].sum() == 0.0
    assert own[sl["own_total"]][0] == pytest.approx(14 / 15)   # only the 7 is known
    assert own[sl["seat_0.up_ranks"]][6] == 1.0                # the 7 is shown
    assert own[sl["seat_0.unseen"]][0] == 1.0
    assert after[1][2][sl[f"seat_{seats - 1}.up_ranks"]][6] == 1.0  # seat 2 sees the 7
    # the settlement shows the Mort card: the 7½ takes the jackpot, the 12 loses
    assert a[-1][1][1][sl["seat_0.chips"]][0] > b[-1][1][1][sl["seat_0.chips"]][0]


@pytest.mark.parametrize("seats", [3, 5])
def test_fusilar_card_is_unseen_by_everyone_until_settlement(seats):
    """RULES.md §6 fusilar (spanish_full): the card under the shooter's 7 is seen by nobody,
    the shooter included, until the bank has finished; the bank plays as if it were 7½."""
    players = list(range(1, seats))

    def cards(under: str) -> list[str]:
        first = FIRST[:seats - 1]
        first[0] = "7o"                                 # seat 1's initial 7
        return first + [BANK_CARD, under] + HITS[1:seats - 1] + [BANK_HIT, "6o"]

    steps = [f"{p}:pass" for p in players] + ["1:fusilar", "1:bet_1"]
    for p in players[1:]:
        steps += [f"{p}:bet_1", f"{p}:hit", f"{p}:stand"]
    steps += ["0:hit", "0:hit"]                         # it may not stand: 2½, then 8½
    a = trace("spanish_full", seats, cards("So"), seed=1, steps=steps)   # 7½: paid 4x
    b = trace("spanish_full", seats, cards("5e"), seed=1, steps=steps)   # 12: bust
    _compare_unseen(a, b, seats, settle_step=len(steps))
    sl = observation_slices(seats)
    shot = a[seats]                                     # right after 1:fusilar
    assert shot[0] == BET
    own = shot[1][1]
    assert own[sl["own_hidden"]].sum() == 0.0
    assert own[sl["own_total"]][0] == pytest.approx(14 / 15)
    assert own[sl["seat_0.unseen"]][0] == 1.0 and own[sl["seat_0.up_ranks"]][6] == 1.0
    # the bank's turn: it must hit (the same for both cards)
    e = start("spanish_full", seats, cards("5e"), bank=0, seed=1)
    play(e, steps[:-2])
    assert e.phase == BANK and [e.layout.names[x] for x in e.legal_actions()] == ["hit"]
    assert a[-1][1][1][sl["seat_0.chips"]][0] > b[-1][1][1][sl["seat_0.chips"]][0]
