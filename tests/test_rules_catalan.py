"""Scripted-deck tests of the ``catalan`` preset (RULES.md §7, CAT traditional).

catalan: before_deal bets, alternate face-down, natural pays 2 (also against a
busted bank), a bank 7½ beats everything, coverage, jackpot (ante 1), the bank
offered on 7½ (the second time forced), at most 3 bank hands in a row,
bank_min_cover, high-card first bank, reshuffle when_empty.

Preset numbers: 1000 chips a seat, min_bet 10, max_bet 100, bet ladder
(1, 2, 5, 10) x min_bet, jackpot ante 1 from every player each hand.
Dealing: one card to each player in turn order (the seat after the bank
first), then the bank; hits draw the next cards of the deck list.
"""

from __future__ import annotations

import pytest

from envs.cards import card_name
from envs.engine import BANK, BET, BUST, OVER, PLAY, STOOD, TRANSFER, Engine
from envs.rules import Rules

from scripted import (cards, declared_seats, events, faces, hand_of, hand_starts,
                      legal_names, play, start)

CAT = Rules.preset("catalan")
NO_COVER = CAT.replace(bank_min_cover=False)
ALL_BETS = ["bet_1", "bet_2", "bet_5", "bet_10"]


# ---------------------------------------------------------------- §2 bets
def test_bets_come_before_the_deal():
    """RULES.md §2 bet_timing = before_deal (CAT): everyone bets, then the cards are dealt."""
    e = start(CAT, 3, "5o 4c 2e 3b", bank=0)
    # Antes are taken first (§4.9), then seat 1 (after the bank) bets; no card is out yet.
    assert (e.phase, e.actor) == (BET, 1)
    assert e.chips == [1000, 999, 999] and e.jackpot == 2
    assert [cards(hand_of(e, s)) for s in (1, 2, 0)] == [[], [], []]
    assert legal_names(e) == ALL_BETS
    play(e, ["1:bet_2"])
    assert (e.phase, e.actor) == (BET, 2)
    assert [cards(hand_of(e, s)) for s in (1, 2, 0)] == [[], [], []]
    play(e, ["2:bet_5"])
    # §4.1: one face-down card to each player in turn order, then the bank.
    assert (e.phase, e.actor) == (PLAY, 1)
    assert [faces(hand_of(e, s)) for s in (1, 2, 0)] == [["(5o)"], ["(4c)"], ["(2e)"]]
    assert e.chips == [1000, 979, 949]
    assert [hand_of(e, s).bet for s in (1, 2)] == [20, 50]
    # 5 and 4 against the bank's 2 + 3 = 5: the tie and the lower hand both lose.
    play(e, ["1:stand", "2:stand", "0:hit", "0:stand"])
    assert e.over
    assert e.chips == [1070, 979, 949] and e.jackpot == 2


def test_bet_limits_min_max_and_chips_held():
    """RULES.md §2: a bet lies between min_bet and max_bet and never above the chips held."""
    e = start(CAT, 4, "5o 4c 2e 3b", bank=0, chips=[1000, 25, 11, 1000])
    assert (e.actor, legal_names(e)) == (1, ["bet_1", "bet_2"])     # 24 after the ante
    play(e, ["1:bet_2"])
    assert (e.actor, legal_names(e)) == (2, ["bet_1"])              # 10 after the ante
    play(e, ["2:bet_1"])
    assert (e.actor, legal_names(e)) == (3, ALL_BETS)               # bet_10 = 100 = max_bet
    play(e, ["3:bet_10"])
    assert e.chips == [1000, 4, 0, 899] and e.jackpot == 3


# ---------------------------------------------------------- §4.3 face-down
def test_alternate_keeps_one_card_face_down():
    """RULES.md §4.3 hidden_cards = alternate (CAT): with a card face down, hits come face up."""
    e = start(CAT, 2, "2o 3c 1e 1c Sb", bank=0)
    play(e, ["1:bet_1", "1:hit", "1:hit", "1:hit"])
    p1 = hand_of(e, 1)
    assert faces(p1) == ["(2o)", "1e", "1c", "Sb"]
    assert p1.hidden_count == 1 and p1.total == 9          # 4½ in half points
    play(e, ["1:stand"])
    # §4.6: the bank turns its card up; the player's face-down card stays down.
    assert (e.phase, e.actor) == (BANK, 0)
    assert faces(e.bank_hand) == ["3c"]
    assert faces(p1) == ["(2o)", "1e", "1c", "Sb"]
    play(e, ["0:stand"])
    # 4½ beats 3: paid 1:1; every hand is shown at settlement.
    assert faces(p1) == ["2o", "1e", "1c", "Sb"]
    assert e.chips == [990, 1009] and e.jackpot == 1


# ------------------------------------------------------------- §4.4 bust
def test_bust_loses_at_once_even_if_the_bank_busts_later():
    """RULES.md §4.4: a bust is shown and its stake goes to the bank at once, bank bust or not."""
    e = start(CAT, 3, "6o 5c 4e 3o 5e", bank=0)
    play(e, ["1:bet_1", "2:bet_1", "1:hit"])
    p1 = hand_of(e, 1)
    assert p1.status == BUST and faces(p1) == ["6o", "3o"]
    assert e.chips == [1010, 989, 989]               # the 10 is the bank's already
    assert e.actor == 2
    play(e, ["2:stand", "0:hit"])                     # bank 4 + 5 = 9: bust
    assert e.over
    assert e.chips == [1000, 989, 1009] and e.jackpot == 2


# ------------------------------------------------------------- §4.5 7½
def test_seven_and_half_ends_the_turn_without_showing_the_hand():
    """RULES.md §4.5: exactly 7½ ends the turn; catalan does not declare, so nothing is
    shown: the player is left only ``stand``, which ends it like any stand (§8.7)."""
    e = start(CAT, 3, "5o 4c 3e 2o Sc", bank=0)
    play(e, ["1:bet_1", "2:bet_1", "1:hit"])
    assert e.actor == 1
    play(e, ["1:hit"])                                # 5 + 2 + ½ = 7½
    assert (e.phase, e.actor) == (PLAY, 1) and legal_names(e) == ["stand"]
    play(e, ["1:stand"])
    p1 = hand_of(e, 1)
    assert (e.phase, e.actor) == (PLAY, 2)
    assert p1.status == STOOD and faces(p1) == ["(5o)", "2o", "Sc"]
    assert declared_seats(e) == []


# ------------------------------------------------------ §4.6 bank's turn
def test_bank_has_no_decision_when_every_player_busted():
    """RULES.md §4.6: the bank plays one hand against the players who did not bust; with
    none left it has nothing to decide: its card is shown and the hand is settled."""
    e = start(CAT, 3, "6o 5c 4e 3o 3c", bank=0)
    play(e, ["1:bet_1", "2:bet_2", "1:hit", "2:hit"])     # 6 + 3 and 5 + 3: both bust
    assert e.over
    assert [a for a in events(e, "action") if a[0] == 0] == []
    assert [card_name(c) for s, c in events(e, "reveal") if s == 0] == ["4e"]
    assert e.chips == [1030, 989, 979] and e.jackpot == 2


# ---------------------------------------------------- §4.7 who wins
def test_bank_multicard_seven_and_half_beats_a_player_natural_and_keeps_the_jackpot():
    """RULES.md §4.7 natural_beats_bank_multicard = off and §4.9: a bank 7½ (3 cards) beats
    a player's natural; the jackpot is not taken when the bank made 7½; no bank offer."""
    e = start(CAT, 3, "7o 6c 5e So 2o Rc", bank=0)
    play(e, ["1:bet_1", "2:bet_1", "1:hit"])
    assert hand_of(e, 1).is_natural
    play(e, ["1:stand", "2:stand", "0:hit"])
    assert (e.phase, e.actor, faces(e.bank_hand)) == (BANK, 0, ["5e", "2o"])
    play(e, ["0:hit"])                                # bank 5 + 2 + ½ = 7½ stops by itself
    assert [(card_name(c), up) for s, c, up in events(e, "card") if s == 0] == [
        ("5e", False), ("2o", True), ("Rc", True)]
    assert e.over and e.bank == 0                     # §5: no offer when the bank made 7½
    assert events(e, "lose") == [(1, 10), (2, 10)]
    assert e.chips == [1020, 989, 989] and e.jackpot == 2


def test_ties_go_to_the_bank():
    """RULES.md §4.7: equal totals -> the bank wins."""
    e = start(CAT, 3, "5o 6c 4e 1c 2c", bank=0)
    play(e, ["1:bet_2", "2:bet_5", "1:hit", "1:stand", "2:stand", "0:hit", "0:stand"])
    # seat 1: 5 + 1 = 6 and seat 2: 6 both tie the bank's 4 + 2 = 6: the bank wins both.
    assert e.over
    assert events(e, "lose") == [(1, 20), (2, 50)]
    assert e.chips == [1070, 979, 949]


def test_higher_total_wins_even_money():
    """RULES.md §4.7-4.8: a player above the bank's total wins 1:1."""
    e = start(CAT, 3, "5o 7c 4e 1c 2c", bank=0)
    play(e, ["1:bet_2", "2:bet_5", "1:hit", "1:stand", "2:stand", "0:hit", "0:stand"])
    # seat 1: 6 ties the bank's 6 (bank wins); seat 2: 7 beats 6 (1:1).
    assert events(e, "lose") == [(1, 20)]
    assert events(e, "win") == [(2, 50, 50)]
    assert e.chips == [970, 979, 1049] and e.jackpot == 2


# --------------------------------------------------------- §4.8 payouts
def test_natural_pays_double_against_a_busted_bank_and_takes_the_jackpot():
    """RULES.md §4.8 natural_pays = 2 also against a busted bank (CAT); §4.9 the natural
    takes the jackpot also when the bank busts."""
    e = start(CAT, 3, "7o 3c 6e Sb 4c 2e", bank=0)
    play(e, ["1:bet_2", "2:bet_1", "1:hit"])          # 7 + ½ natural: only stand is left
    assert legal_names(e) == ["stand"]
    play(e, ["1:stand"])
    assert e.actor == 2
    play(e, ["2:hit", "2:stand", "0:hit"])            # seat 2: 7; bank 6 + 2 = 8 bust
    assert events(e, "win") == [(1, 40, 40), (2, 10, 10)]
    assert events(e, "jackpot") == [(1, 2)]
    assert e.chips == [950, 1041, 1009] and e.jackpot == 0


def test_three_card_seven_and_half_pays_even_money():
    """RULES.md §4.8: in catalan only a natural pays 2; a 3-card 7½ is paid 1:1, no jackpot."""
    e = start(CAT, 2, "5o 3c 2o Sc", bank=0)
    play(e, ["1:bet_1", "1:hit", "1:hit", "1:stand"])  # 5 + 2 + ½ = 7½ with 3 cards
    assert (e.phase, e.actor) == (BANK, 0)
    play(e, ["0:stand"])
    assert events(e, "win") == [(1, 10, 10)]
    assert events(e, "jackpot") == []
    assert e.chips == [990, 1009] and e.jackpot == 1


def test_coverage_pays_winners_in_turn_order_and_the_unpaid_keep_their_stake():
    """RULES.md §4.8 coverage (CAT): losing stakes are collected, then winners are paid in turn
    order until the bank is empty; it never goes below zero; an unpaid winner keeps the stake."""
    e = start(NO_COVER, 5, "6o 4c 7e 6b 5o Sc", bank=0, chips=[25, 1000, 1000, 1000, 1000],
              max_hands=2)
    play(e, ["1:bet_1", "2:bet_2", "3:bet_2", "4:bet_1"])
    play(e, ["1:stand", "2:stand", "3:hit", "3:stand", "4:stand", "0:stand"])
    # bank 5: seat 2 (4) loses 20 -> bank 45; seat 1 (6) paid 10 -> 35; seat 3's natural is
    # owed 40, paid 35 -> 0; seat 4 (6) is owed 10 and paid nothing.
    assert events(e, "lose") == [(2, 20)]
    assert events(e, "win") == [(1, 10, 10), (3, 35, 40), (4, 0, 10)]
    assert events(e, "jackpot") == [(3, 4)]
    assert e.chips == [0, 1009, 979, 1038, 999] and e.jackpot == 0
    assert (e.phase, e.actor) == (TRANSFER, 3)


# ------------------------------------------------------------ §4.9 jackpot
def test_jackpot_goes_to_the_first_natural_in_turn_order_and_offers_pass_on():
    """RULES.md §4.9: with several naturals the first in turn order takes the pot. §5 offer:
    several 7½ players, the first in turn order is asked first and a refusal passes it on."""
    # bank 2: turn order 3, 0, 1.
    e = start(CAT, 4, "7c 7e 5o 4b Sc Rb 3b", bank=2, max_hands=2)
    assert e.order == [3, 0, 1]
    play(e, ["3:bet_1", "0:bet_1", "1:bet_1"])
    play(e, ["3:hit", "3:stand", "0:hit", "0:stand", "1:stand", "2:hit", "2:stand"])  # bank 7
    assert events(e, "jackpot") == [(3, 3)]
    assert e.chips == [1019, 989, 970, 1022] and e.jackpot == 0
    assert (e.phase, e.actor, legal_names(e)) == (TRANSFER, 3, ["take_bank", "refuse_bank"])
    play(e, ["3:refuse_bank"])
    assert (e.phase, e.actor) == (TRANSFER, 0)
    play(e, ["0:take_bank"])
    assert e.bank == 0 and hand_starts(e)[-1] == (2, 0, 1)
    assert e.refused == [False, False, False, True]


def test_jackpot_accumulates_while_nobody_makes_a_natural():
    """RULES.md §4.9: every player antes jackpot_ante each hand; the pot carries over."""
    # when_empty: the stacked deck runs on into the second hand.
    e = start(CAT, 3, "4o 3o 5o 4c 3c 5c", bank=0, max_hands=2)
    play(e, ["1:bet_1", "2:bet_1", "1:stand", "2:stand", "0:stand"])
    assert hand_starts(e) == [(1, 0, 1), (2, 0, 2)]
    assert e.jackpot == 4                              # 2 from hand 1, the antes of hand 2
    assert e.chips == [1020, 988, 988]
    play(e, ["1:bet_1", "2:bet_1", "1:stand", "2:stand", "0:stand"])
    assert e.over and e.jackpot == 4
    assert e.chips == [1040, 978, 978]


# ---------------------------------------------------------- §5 transfer
def test_offer_accepted_moves_the_bank():
    """RULES.md §5 bank_transfer = offer: a player making 7½ while the bank does not may take it."""
    e = start(CAT, 3, "7o 5c 3e Sc 4o 2o 1b", bank=0, max_hands=2)
    play(e, ["1:bet_1", "2:bet_1", "1:hit", "1:stand", "2:stand", "0:stand"])
    assert (e.phase, e.actor, legal_names(e)) == (TRANSFER, 1, ["take_bank", "refuse_bank"])
    play(e, ["1:take_bank"])
    assert e.bank == 1 and events(e, "bank") == [(1, "seven_and_half")]
    assert hand_starts(e) == [(1, 0, 1), (2, 1, 1)]
    assert e.order == [2, 0]
    # hand 1: natural paid 20 + jackpot 2, seat 2's 5 beats 3 (10); hand 2: antes of 2 and 0.
    assert e.chips == [969, 1021, 1008] and e.jackpot == 2


def test_offer_refused_keeps_the_bank():
    """RULES.md §5 offer: a refusal leaves the bank where it is (and is remembered)."""
    e = start(CAT, 3, "7o 5c 3e Sc 4o 2o 1b", bank=0, max_hands=2)
    play(e, ["1:bet_1", "2:bet_1", "1:hit", "1:stand", "2:stand", "0:stand", "1:refuse_bank"])
    assert e.bank == 0 and events(e, "bank") == []
    assert hand_starts(e) == [(1, 0, 1), (2, 0, 2)]
    assert e.refused == [False, True, False]


def test_second_seven_and_half_after_a_refusal_forces_the_bank():
    """RULES.md §5 offer: a player who refused and makes 7½ again must take the bank."""
    # hand 1: 7o, bank 3c, So; hand 2 (same shoe, when_empty): 7c, bank 4c, Sc.
    e = start(CAT, 2, "7o 3c So 7c 4c Sc", bank=0, max_hands=3)
    play(e, ["1:bet_1", "1:hit", "1:stand", "0:stand", "1:refuse_bank"])
    assert e.bank == 0 and e.refused == [False, True]
    play(e, ["1:bet_1", "1:hit", "1:stand", "0:stand"])
    assert events(e, "forced_take") == [(1,)]
    assert events(e, "action")[-1] == (0, "stand")    # nobody was asked
    assert hand_starts(e) == [(1, 0, 1), (2, 0, 2), (3, 1, 1)]
    assert (e.phase, e.actor, e.order) == (BET, 0, [0])
    assert e.refused == [False, False]                # it holds the bank now
    # two naturals paid 20 + jackpot 1 each; hand 3's ante (seat 0) is in the pot
    assert e.chips == [959, 1040] and e.jackpot == 1


def test_refusal_is_forgotten_once_the_seat_has_held_the_bank():
    """RULES.md §5 offer, design choice in envs/rules.py: a refusal is remembered only until
    that seat next holds the bank; afterwards a 7½ is offered again, not forced."""
    deck = ("7o 5c 4e So "          # hand 1, bank 0: seat 1 natural, refuses; bank can't cover
            "7c 2o 3e Sc "          # hand 2, bank 1: seat 2 natural, takes the bank
            "7b 1c Sb")             # hand 3, bank 2: seat 1 (only player) natural again
    e = start(CAT, 3, deck, bank=0, chips=[45, 1000, 1000], max_hands=4)
    play(e, ["1:bet_1", "2:bet_1", "1:hit", "1:stand", "2:stand", "0:stand", "1:refuse_bank"])
    assert hand_starts(e)[-1] == (2, 1, 1)            # 45 - 20 - 10 = 15 < 40: cannot cover
    play(e, ["2:bet_1", "0:bet_1", "2:hit", "2:stand", "0:stand", "1:stand", "2:take_bank"])
    assert hand_starts(e)[-1] == (3, 2, 1) and e.order == [1]
    play(e, ["1:bet_1", "1:hit", "1:stand", "2:stand"])
    assert (e.phase, e.actor) == (TRANSFER, 1)        # asked, not forced
    assert events(e, "forced_take") == []
    assert e.chips == [4, 1031, 1010] and e.jackpot == 0
    play(e, ["1:take_bank"])
    assert e.bank == 1 and hand_starts(e)[-1] == (4, 1, 1)


def test_bank_passes_after_three_hands_in_a_row():
    """RULES.md §5 max_bank_hands = 3 (CAT): after 3 hands the bank passes to the next seat in
    turn order. §2: the episode ends after max_hands."""
    deck = "4o 3o 5o 4c 3c 5c 4e 3e 5e 4b 3b 5b"
    e = start(CAT, 3, deck, bank=0, max_hands=4)
    for _ in range(3):
        play(e, ["1:bet_1", "2:bet_1", "1:stand", "2:stand", "0:stand"])
    assert events(e, "bank") == [(1, "max_bank_hands")]
    play(e, ["2:bet_1", "0:bet_1", "2:stand", "0:stand", "1:stand"])
    assert hand_starts(e) == [(1, 0, 1), (2, 0, 2), (3, 0, 3), (4, 1, 1)]
    assert e.over and e.hands_played == 4 and e.events[-1][:2] == ("over", 4)
    assert e.chips == [1049, 987, 956] and e.jackpot == 8


def test_bank_that_cannot_cover_passes_before_the_first_hand():
    """RULES.md §5 bank_min_cover: a bank with fewer than players x min_bet x 2 (catalan's largest
    payout) chips passes the bank to the next seat in turn order that can cover."""
    e = Engine(CAT, 4, 1)
    e.reset(seed=0, bank=0, chips=[60, 1000, 1000, 1000])   # 3 x 10 x 2 = 60: covers
    assert e.bank == 0 and hand_starts(e) == [(1, 0, 1)]
    e.reset(seed=0, bank=0, chips=[59, 1000, 1000, 1000])
    assert e.bank == 1 and events(e, "bank") == [(1, "first bank")]
    # Seat 0 (10) and seat 1 (30 < 2 players x 20 = 40; seat 0 sits out) cannot cover: seat 2.
    e.reset(seed=0, bank=0, chips=[10, 30, 1000, 1000])
    assert e.bank == 2 and hand_starts(e) == [(1, 2, 1)]
    assert e.order == [3, 1]                           # seat 0 (10 < 11) sits out
    # Nobody can cover two players (40): the episode ends before it starts.
    e = Engine(CAT, 3, 1)
    e.reset(seed=0, bank=0, chips=[39, 39, 39])
    assert e.over and e.hands_played == 0 and e.events[-1][:2] == ("over", 0)


def test_bank_that_can_no_longer_cover_passes_between_hands():
    """RULES.md §5 bank_min_cover: checked before every hand."""
    e = start(CAT, 3, "6o 4c 3e", bank=0, chips=[45, 1000, 1000], max_hands=2)
    play(e, ["1:bet_1", "2:bet_1", "1:stand", "2:stand", "0:stand"])   # bank pays 2 x 10
    assert events(e, "win") == [(1, 10, 10), (2, 10, 10)]
    assert events(e, "bank") == [(1, "cannot cover")]
    assert e.chips == [24, 1009, 1008]                 # 25 left; hand 2's antes taken
    assert hand_starts(e) == [(1, 0, 1), (2, 1, 1)] and e.order == [2, 0]


@pytest.mark.parametrize(("seats", "seed", "dealt", "bank"), [
    (4, 2631, ["Co", "Ce", "Cc", "Cb"], 2),            # copas beats oros, bastos, espadas
    (4, 4, ["5c", "3c", "4o", "5o"], 0),               # copas > oros
    (4, 56, ["2e", "2b", "Ro", "Re"], 2),              # oros > espadas
    (4, 80, ["Sb", "5b", "So", "7b"], 2),              # oros > bastos; figures beat a 7
    (4, 40, ["Cb", "3o", "Ce", "2c"], 0),              # bastos > espadas
    (8, 0, ["2b", "6c", "4b", "Re", "5c", "6o", "Rb", "So"], 6),   # rey > sota; bastos > espadas
])
def test_first_bank_by_high_card_with_suit_tie_break(seats, seed, dealt, bank):
    """RULES.md §5 first_bank = high_card (CAT): a card to each seat, highest wins (1..7, sota,
    caballo, rey); equal ranks are broken by suit, copas > oros > bastos > espadas."""
    e = Engine(CAT, seats, 1)
    e.reset(seed=seed)
    assert [(s, card_name(c)) for s, c in events(e, "high_card")] == list(enumerate(dealt))
    assert events(e, "first_bank") == [(bank, "high_card")]
    assert e.bank == bank and len(e.draw_pile) == 40            # the cards went back in


# ---------------------------------------------------------------- §3 shoe
def test_reshuffle_when_empty_shuffles_only_the_discard_pile():
    """RULES.md §3 reshuffle = when_empty (CAT): finished hands go to the discard pile; when the
    draw pile is empty, the discard pile (not the cards in play) becomes the new draw pile."""
    order = [f"{r}{s}" for s in "oceb" for r in "123456SCR7"]    # 40 cards, no 7½ in one card
    e = start(CAT, 8, order, bank=0, max_hands=None)
    for hand in range(1, 6):
        bank = e.bank
        assert (e.phase, len(e.draw_pile), len(e.discard)) == (BET, 40 - 8 * (hand - 1),
                                                               8 * (hand - 1))
        for s in e.order:
            play(e, [f"{s}:bet_1"])
        # The deal took the next 8 cards of the same pile: no shuffle between hands.
        assert len(e.draw_pile) == 40 - 8 * hand
        assert events(e, "shuffle") == [(40,)]
        if hand == 5:
            break
        play(e, [f"{s}:stand" for s in e.order] + [f"{bank}:stand"])
    in_play = [c for s in range(8) for h in e.hands[s] for c in h.cards] + e.bank_hand.cards
    assert sorted(card_name(c) for c in in_play) == sorted(order[32:])
    old_discard = sorted(e.discard)
    assert len(old_discard) == 32 and not set(old_discard) & set(in_play)
    first = e.order[0]
    play(e, [f"{first}:hit"])                            # the draw pile is empty: reshuffle
    drawn = hand_of(e, first).cards[-1]
    assert events(e, "shuffle") == [(40,), (32,)]
    assert e.discard == []
    assert sorted(e.draw_pile + [drawn]) == old_discard   # in-play cards stayed out
    assert len(e.draw_pile) == 31
    # Counting restarts: only the face-up card just drawn is "seen".
    assert sum(e.seen) == 1 and e.seen[drawn % 10] == 1


# ------------------------------------------------------- §2 seats, episode
def test_seat_that_cannot_afford_the_minimum_sits_out():
    """RULES.md §2: a seat that cannot afford min_bet (plus the ante) sits the hand out."""
    e = start(CAT, 4, "5o 4c 6e 2b", bank=0, chips=[1000, 10, 1000, 1000])
    assert e.order == [2, 3]
    assert e.chips == [1000, 10, 999, 999] and e.jackpot == 2     # no ante from seat 1
    play(e, ["2:bet_1", "3:bet_1"])
    assert e.hands[1] == []
    assert [faces(hand_of(e, s)) for s in (2, 3, 0)] == [["(5o)"], ["(4c)"], ["(6e)"]]


def test_episode_ends_when_fewer_than_two_seats_can_play():
    """RULES.md §2: an episode ends when fewer than two seats can play, before max_hands."""
    e = start(CAT, 2, "4o 5c", bank=0, chips=[1000, 21], max_hands=5)
    play(e, ["1:bet_2", "1:stand", "0:stand"])        # 4 < 5: the player's last 20 are lost
    assert e.over and e.phase == OVER and e.hands_played == 1
    assert e.events[-1][:2] == ("over", 1)
    assert e.chips == [1020, 0] and e.jackpot == 1
    assert e.legal_actions() == []
