"""Scripted-deck tests of the ``pagat`` preset (RULES.md §7, PAG base game).

pagat: before_deal bets, first_only face-down, a 7½ is shown at once
(declare_seven_and_half), every win pays 1:1, ``mandatory`` bank transfer on
7½, random first bank, every_hand shuffle. No jackpot, no bank_min_cover, no
limit on bank hands; coverage holds in every preset.

Preset numbers: 1000 chips a seat, min_bet 10, max_bet 100, bet ladder
(1, 2, 5, 10) x min_bet.
Dealing: one card to each player in turn order (the seat after the bank
first), then the bank; hits draw the next cards of the deck list.
"""

from __future__ import annotations

import numpy as np

from envs.engine import BET, BUST, DECLARED, OVER, PLAY, STOOD, Engine
from envs.observer import Observer, observation_slices
from envs.rules import Rules

from scripted import (declared_seats, events, faces, hand_event_index, hand_of,
                      hand_starts, legal_names, play, start)

PAG = Rules.preset("pagat")
ALL_BETS = ["bet_1", "bet_2", "bet_5", "bet_10"]


def _never_transfer_phase(e: Engine) -> bool:
    return all(ev[0] != "action" or ev[2] not in ("take_bank", "refuse_bank", "claim_bank")
               for ev in e.events)


# ------------------------------------------------------ §2 bets, §4.3 faces
def test_bets_before_the_deal_and_only_the_first_card_face_down():
    """RULES.md §2 bet_timing = before_deal and §4.3 hidden_cards = first_only (PAG): bets
    first, then the deal; the first card stays face down, every later card comes face up."""
    e = start(PAG, 3, "2o 4c 3e 1c 2c", bank=0)
    assert (e.phase, e.actor, legal_names(e)) == (BET, 1, ALL_BETS)
    assert [hand_of(e, s).cards for s in (1, 2, 0)] == [[], [], []]
    assert e.chips == [1000, 1000, 1000] and e.jackpot == 0     # no ante in pagat
    play(e, ["1:bet_1"])
    assert (e.phase, e.actor) == (BET, 2)
    play(e, ["2:bet_1"])
    assert (e.phase, e.actor) == (PLAY, 1)
    assert [faces(hand_of(e, s)) for s in (1, 2, 0)] == [["(2o)"], ["(4c)"], ["(3e)"]]
    play(e, ["1:hit", "1:hit"])
    p1 = hand_of(e, 1)
    assert faces(p1) == ["(2o)", "1c", "2c"] and p1.hidden_count == 1
    play(e, ["1:stand", "2:stand", "0:stand"])        # 5 and 4 against the bank's 3
    assert events(e, "win") == [(1, 10, 10), (2, 10, 10)]
    assert e.chips == [980, 1010, 1010]


# ------------------------------------------------------------ §4.5 declare
def test_seven_and_half_is_declared_and_shown_at_once():
    """RULES.md §4.5 declare_seven_and_half (PAG): 7½ ends the turn and the whole hand is shown
    to the table at once, before the bank plays. §4.8: a 3-card 7½ pays 1:1 in pagat."""
    e = start(PAG, 3, "5o 6c 4e 2o Sc", bank=0)
    play(e, ["1:bet_1", "2:bet_1", "1:hit", "1:hit"])   # 5 + 2 + ½
    p1 = hand_of(e, 1)
    assert (e.phase, e.actor) == (PLAY, 2)
    assert p1.status == DECLARED and faces(p1) == ["5o", "2o", "Sc"]
    assert declared_seats(e) == [1]
    # Seat 2 sees all three cards of seat 1 (two seats after it in turn order: block 2).
    sl = observation_slices(3)
    obs = Observer(e).observe(2)
    up = np.zeros(10, dtype=np.float32)
    up[[4, 1, 7]] = 1.0                                # ranks 5, 2, sota
    assert np.array_equal(obs[sl["seat_2.up_ranks"]], up)
    assert obs[sl["seat_2.hidden"]][0] == 0.0
    assert obs[sl["seat_2.status"]].tolist() == [0.0, 0.0, 0.0, 0.0, 1.0]
    play(e, ["2:stand", "0:stand"])                   # bank 4: 7½ and 6 win
    assert events(e, "win") == [(1, 10, 10), (2, 10, 10)]
    assert e.chips == [980, 1010, 1010]


def test_catalan_does_not_show_a_seven_and_half():
    """RULES.md §4.5: without declare_seven_and_half (catalan) the face-down card stays down;
    the same deck as the pagat test above, so the pagat test's reveal is the switch's doing."""
    e = start("catalan", 3, "5o 6c 4e 2o Sc", bank=0)
    play(e, ["1:bet_1", "2:bet_1", "1:hit", "1:hit", "1:stand"])
    assert hand_of(e, 1).status == STOOD and faces(hand_of(e, 1)) == ["(5o)", "2o", "Sc"]
    obs = Observer(e).observe(2)
    assert obs[observation_slices(3)["seat_2.hidden"]][0] == 1.0


# ------------------------------------------------------- §4.4 / §4.7 / §4.8
def test_bust_loses_at_once_even_if_the_bank_busts_later():
    """RULES.md §4.4: a bust is shown and its stake goes to the bank at once."""
    e = start(PAG, 3, "6o 5c 4e 3o 5e", bank=0)
    play(e, ["1:bet_1", "2:bet_2", "1:hit"])          # 6 + 3 = 9
    p1 = hand_of(e, 1)
    assert p1.status == BUST and faces(p1) == ["6o", "3o"]
    assert e.chips == [1010, 990, 980] and e.actor == 2
    play(e, ["2:stand", "0:hit"])                     # bank 4 + 5 = 9
    assert events(e, "win") == [(2, 20, 20)]
    assert e.chips == [990, 990, 1020]


def test_natural_pays_only_even_money_even_against_a_busted_bank():
    """RULES.md §4.8: in pagat (natural_pays = 1) every win pays 1:1, a natural included."""
    e = start(PAG, 3, "7o 5c 6e So 2e", bank=0, max_hands=2)
    play(e, ["1:bet_2", "2:bet_1", "1:hit", "2:stand", "0:hit"])   # bank 6 + 2 = 8
    assert events(e, "win") == [(1, 20, 20), (2, 10, 10)]
    assert e.chips == [970, 1020, 1010] and e.jackpot == 0
    assert hand_starts(e) == [(1, 0, 1), (2, 1, 1)]  # mandatory transfer to the natural


def test_bank_multicard_seven_and_half_beats_a_player_natural():
    """RULES.md §4.7 natural_beats_bank_multicard = off (PAG base); §5 mandatory: no transfer
    when the bank made 7½ too."""
    e = start(PAG, 2, "7o 5e So 2o Rc", bank=0, max_hands=2)
    play(e, ["1:bet_1", "1:hit", "0:hit", "0:hit"])   # bank 5 + 2 + ½
    assert events(e, "lose") == [(1, 10)]
    assert events(e, "bank") == []
    assert hand_starts(e) == [(1, 0, 1), (2, 0, 2)]
    assert e.chips == [1010, 990]


def test_ties_go_to_the_bank():
    """RULES.md §4.7: equal totals -> the bank wins."""
    e = start(PAG, 2, "5o 4e 1c 2c", bank=0)
    play(e, ["1:bet_2", "1:hit", "1:stand", "0:hit", "0:stand"])   # 6 against 6
    assert events(e, "lose") == [(1, 20)]
    assert e.chips == [1020, 980]


def test_coverage_caps_what_the_bank_pays():
    """RULES.md §4.8 coverage (every preset): winners in turn order, the bank never below 0."""
    e = start(PAG, 4, "6o 5c 6b 4e", bank=0, chips=[25, 1000, 1000, 1000])
    play(e, ["1:bet_2", "2:bet_1", "3:bet_1", "1:stand", "2:stand", "3:stand", "0:stand"])
    # bank 4: seat 1 owed 20 -> 5 left; seat 2 owed 10 -> paid 5; seat 3 paid nothing.
    assert events(e, "win") == [(1, 20, 20), (2, 5, 10), (3, 0, 10)]
    assert e.chips == [0, 1020, 1005, 1000]


# ---------------------------------------------------------- §5 mandatory
def test_mandatory_transfer_to_the_first_seven_and_half_in_turn_order():
    """RULES.md §5 bank_transfer = mandatory (PAG): a player who makes exactly 7½ (the bank not)
    takes the bank next hand without being asked; with several, the first in turn order."""
    # bank 2: turn order 3, 0, 1; seats 0 and 1 make 7½.
    e = start(PAG, 4, "4c 7e 7o 5b Sc Rb", bank=2, max_hands=2)
    assert e.order == [3, 0, 1]
    play(e, ["3:bet_1", "0:bet_1", "1:bet_1", "3:stand", "0:hit", "1:hit", "2:stand"])
    assert declared_seats(e) == [0, 1]
    assert events(e, "bank") == [(0, "seven_and_half")]
    assert _never_transfer_phase(e)
    assert hand_starts(e) == [(1, 2, 1), (2, 0, 1)] and e.order == [1, 2, 3]
    assert e.chips == [1010, 1010, 990, 990]


# ------------------------------------------------------------ §5 first bank
def test_first_bank_is_drawn_at_random():
    """RULES.md §5 first_bank = random (PAG): by lot from the seed; no high-card deal."""
    banks = []
    for seed in range(12):
        e = Engine(PAG, 8, 1)
        e.reset(seed=seed)
        assert events(e, "high_card") == []
        assert events(e, "first_bank") == [(e.bank, "random")]
        banks.append(e.bank)
    assert banks == [5, 2, 3, 6, 7, 4, 7, 7, 2, 7, 2, 1]


# ---------------------------------------------------------------- §3 shoe
def test_every_hand_gathers_and_shuffles_all_cards():
    """RULES.md §3 reshuffle = every_hand (PAG): before each hand all 40 cards are shuffled."""
    e = start(PAG, 3, "5o 4c 2e 3b", bank=0, max_hands=2)
    play(e, ["1:bet_1", "2:bet_1", "1:stand", "2:stand", "0:hit", "0:stand"])
    i = hand_event_index(e, 2)
    assert hand_starts(e) == [(1, 0, 1), (2, 0, 2)]
    assert [ev[:3] for ev in e.events[i - 2:i]] == [("chips", [1020, 990, 990], 0),
                                                    ("shuffle", 40)]
    assert e.phase == BET and e.discard == [] and len(e.draw_pile) == 40
    assert e.seen == [0] * 10


# ------------------------------------------------------- §2 seats, episode
def test_broke_seats_sit_out_and_the_episode_ends_below_two_seats():
    """RULES.md §2: seats below min_bet sit out; fewer than two seats able to play ends it."""
    e = start(PAG, 4, "4o 3c 5b", bank=0, chips=[1000, 9, 10, 10], max_hands=5)
    assert e.order == [2, 3] and e.hands[1] == []
    play(e, ["2:bet_1", "3:bet_1"])
    assert [faces(hand_of(e, s)) for s in (2, 3, 0)] == [["(4o)"], ["(3c)"], ["(5b)"]]
    play(e, ["2:stand", "3:stand", "0:stand"])
    assert e.over and e.hands_played == 1 and e.events[-1][:2] == ("over", 1)
    assert e.chips == [1020, 9, 0, 0]
    assert (e.phase, e.legal_actions()) == (OVER, [])


def test_episode_ends_after_max_hands():
    """RULES.md §2: an episode ends after max_hands."""
    e = Engine(PAG, 3, 3)
    e.reset(seed=1, bank=0)
    for _ in range(3):
        play(e, ["1:bet_1", "2:bet_1", "1:stand", "2:stand", "0:stand"])
    assert e.over and e.hands_played == 3 and e.events[-1][:2] == ("over", 3)
    assert [h[0] for h in hand_starts(e)] == [1, 2, 3]
    assert sum(e.chips) == 3000 and e.jackpot == 0
