"""Scripted-deck tests of the Italian-flavoured presets (RULES.md §1, §4.7, §4.8, §5, §6, §7).

* ``pagat_italian`` = ``pagat`` (before_deal bets, first_only face-down, 7½
  declared, ``mandatory`` transfer) + natural pays 2 and beats a multi-card
  bank 7½ (``double``), the wild king of coins ('Ro'), pair of sevens.
* ``pagat_spanish`` = ``pagat`` + player_choice face-down, split of two
  figures without limit (second stake at least the first). Every win 1:1.
* ``italian``: on_turn bets, first_only face-down, 7½ declared, matta = king
  of coins, natural pays 2 (only 1:1 against a multi-card bank 7½:
  ``single``), triplè (7 + matta) pays 3, ``natural_only`` transfer.

None of them has a jackpot or bank_min_cover. Preset numbers: 1000 chips a
seat, min_bet 10, max_bet 100, bet ladder (1, 2, 5, 10) x min_bet.
Dealing: one card to each player in turn order, then the bank; hits draw the
next cards of the list. Every test asserts the full chips list and jackpot.
"""

from __future__ import annotations

import numpy as np
import pytest

from envs.cards import card_name
from envs.engine import BANK, BET, BUST, DECLARED, PLAY, PLAYING, STOOD
from envs.hands import NONE, PAIR_OF_SEVENS, TRIPLE
from envs.rules import Rules

from scripted import (cards, events, faces, hand_of, hand_starts, legal_names, play, seat_view,
                      start)

PIT = Rules.preset("pagat_italian")
PSP = Rules.preset("pagat_spanish")
ITA = Rules.preset("italian")
ALL_BETS = ["bet_1", "bet_2", "bet_5", "bet_10"]


def bank_cards(e, bank: int = 0) -> list[str]:
    """The bank's cards in the first hand, from the event log (the hand is gone once over)."""
    out = []
    for ev in e.events:
        if ev[0] == "chips":                          # the first hand is settled
            break
        if ev[0] == "card" and ev[1] == bank:
            out.append(card_name(ev[2]))
    return out


# ============================================================ pagat_italian
@pytest.mark.parametrize(("first", "hits", "total", "wild", "shown_wild", "chips"), [
    ("5o", ["Ro"], 14, 4, 0, [1000, 1010, 990]),         # 5 + matta(2) = 7; 5 still down
    ("7o", ["Ro"], 15, 1, 1, [990, 1020, 990]),          # 7 + matta(½): natural, declared
    ("5o", ["Sc", "Ro"], 15, 4, 4, [1000, 1010, 990]),   # 5 + ½ + matta(2): 3-card 7½
    ("Ro", ["6c", "2b"], 17, 1, 1, [1020, 990, 990]),    # matta(½) + 8: bust, shown
])
def test_matta_is_scored_at_its_best_value(first, hits, total, wild, shown_wild, chips):
    """RULES.md §1 matta (PAG wild figure, here the king of coins): ½ or any whole number 1-7,
    the hand scored at its best value (highest total <= 7½, else the lowest). §4.8: only a
    natural pays 2 (no triplè in pagat_italian); the matta's value is public once the whole
    hand is shown (declared or bust), not while a card is face down."""
    e = start(PIT, 3, [first, "5c", "6b"] + hits, bank=0)
    play(e, ["1:bet_1", "2:bet_1"] + ["1:hit"] * len(hits))
    p1 = hand_of(e, 1)
    assert (p1.total, p1.wild_value, p1.special) == (total, wild, NONE)
    assert p1.status == {14: PLAYING, 15: DECLARED, 17: BUST}[total]
    if total < 15:
        play(e, ["1:stand"])                          # 7 against the bank's 6
    assert (e.phase, e.actor) == (PLAY, 2)
    assert seat_view(e, 2, 1, "wild_value")[0] == np.float32(shown_wild / 15)
    play(e, ["2:stand", "0:stand"])                   # 5 loses to the bank's 6
    assert e.chips == chips and e.jackpot == 0


def test_matta_with_a_figure_is_a_natural_paid_two_and_shown():
    """RULES.md §1: the matta with a figure is a natural (7 + ½); §4.8 natural_pays = 2;
    §4.5 it is declared and shown, its value visible to the table; §5 mandatory transfer."""
    e = start(PIT, 3, "Sc 5c 6b Ro", bank=0)
    play(e, ["1:bet_1", "2:bet_1", "1:hit"])
    p1 = hand_of(e, 1)
    assert p1.is_natural and p1.status == DECLARED and faces(p1) == ["Sc", "Ro"]
    assert seat_view(e, 2, 1, "wild_value")[0] == np.float32(14 / 15)     # the matta is 7
    assert seat_view(e, 2, 1, "up_total")[0] == 1
    play(e, ["2:stand", "0:stand"])                   # 5 against the bank's 6
    assert events(e, "win") == [(1, 20, 20)] and events(e, "lose") == [(2, 10)]
    assert e.chips == [990, 1020, 990] and e.jackpot == 0
    assert events(e, "bank") == [(1, "seven_and_half")]


def test_natural_beats_a_multicard_bank_seven_and_half_paid_two():
    """RULES.md §4.7 natural_beats_bank_multicard = double (PAG Italian): a player's natural
    beats a bank 7½ of three or more cards and is paid 2; other hands lose to it. §8.1: the
    natural won the hand, so it takes the bank (mandatory) though the bank made 7½."""
    e = start(PIT, 3, "7o 5c 5b So 2c 2b Sb", bank=0)
    play(e, ["1:bet_1", "2:bet_1", "1:hit", "2:hit", "2:stand"])   # natural; 7
    play(e, ["0:hit", "0:hit"])                       # bank 5 + 2 + ½
    assert bank_cards(e) == ["5b", "2b", "Sb"]
    assert events(e, "win") == [(1, 20, 20)] and events(e, "lose") == [(2, 10)]
    assert e.chips == [990, 1020, 990] and e.jackpot == 0
    assert events(e, "bank") == [(1, "seven_and_half")] and e.bank == 1


def test_natural_loses_to_a_bank_natural_which_collects_only_once():
    """RULES.md §4.7: a bank natural beats a player's natural; §4.8 the bank's own natural
    never collects double."""
    e = start(PIT, 2, "7o 7b So Sb", bank=0)
    play(e, ["1:bet_2", "1:hit", "0:hit"])            # both 7 + ½
    assert bank_cards(e) == ["7b", "Sb"]
    assert events(e, "lose") == [(1, 20)]
    assert e.chips == [1020, 980] and e.jackpot == 0


@pytest.mark.parametrize(("bank_first", "bank_hits"), [("5b", ["2b", "Sb"]), ("7b", ["Sb"])],
                         ids=["bank-3-card-7.5", "bank-natural"])
def test_pair_of_sevens_is_shown_beats_every_bank_hand_pays_three_takes_the_bank(
        bank_first, bank_hits):
    """RULES.md §4.8 pair_of_sevens (PAG Italian): exactly two 7s is not a bust; it is shown
    once made, beats every other hand (a bank 7½ or natural included), pays 3 and its holder
    takes the bank."""
    e = start(PIT, 3, ["7o", "5c", bank_first, "7c", "2c"] + bank_hits, bank=0, max_hands=2)
    play(e, ["1:bet_1", "2:bet_1", "1:hit"])
    p1 = hand_of(e, 1)
    assert p1.special == PAIR_OF_SEVENS and p1.status == STOOD and not p1.busted
    assert faces(p1) == ["7o", "7c"]
    assert events(e, "special") == [(1, "pair_of_sevens", 0)]
    assert e.chips == [1000, 990, 990]                # not collected as a bust
    assert seat_view(e, 2, 1, "up_ranks")[6] == 2 and seat_view(e, 2, 1, "hidden")[0] == 0
    assert (e.phase, e.actor) == (PLAY, 2)
    play(e, ["2:hit", "2:stand"])                     # 5 + 2 = 7
    play(e, ["0:hit"] * len(bank_hits))               # the bank makes 7½
    assert bank_cards(e) == [bank_first] + bank_hits
    assert events(e, "win") == [(1, 30, 30)] and events(e, "lose") == [(2, 10)]
    assert e.chips == [980, 1030, 990] and e.jackpot == 0
    assert events(e, "bank") == [(1, "pair_of_sevens")]
    assert hand_starts(e) == [(1, 0, 1), (2, 1, 1)]


def test_bank_pair_of_sevens_collects_once_and_wins_the_tie_with_a_player_pair():
    """RULES.md §4.8 pair_of_sevens: a bank holding it collects only 1x from each player, and
    equal hands go to the bank (§4.7), so a player's pair loses to it."""
    e = start(PIT, 3, "7o 5c 7b 7c 7e", bank=0)
    play(e, ["1:bet_2", "2:bet_1", "1:hit", "2:stand"])   # seat 1: pair; seat 2: 5
    play(e, ["0:hit"])                                # bank 7 + 7: stands on it
    assert events(e, "special")[-1] == (0, "pair_of_sevens", 0) and e.over
    assert events(e, "lose") == [(1, 20), (2, 10)] and events(e, "win") == []
    assert e.chips == [1030, 980, 990] and e.jackpot == 0


# ============================================================ pagat_spanish
def test_pagat_spanish_split_two_figures_unlimited_second_stake_at_least_the_first():
    """RULES.md §6 split = two_figures_unlimited (PAG Spanish): two figures may be split any
    number of times, each new stake at least the first; §4.3 player_choice: revealing before a
    hit brings the new card face down (the split card keeps its face), and §8.6 a hit to a
    hand with no face-down card comes face down. Hands are played one after the other and
    settled separately; every win 1:1 (pagat)."""
    e = start(PSP, 2, "Sc 5b Rb Cb 7o 6o 2c", bank=0)
    play(e, ["1:bet_2", "1:reveal_hit"])              # Sc up, Rb down
    assert faces(hand_of(e, 1)) == ["Sc", "(Rb)"]
    play(e, ["1:split"])
    assert (e.phase, e.actor, legal_names(e)) == (BET, 1, ["bet_2", "bet_5", "bet_10"])
    play(e, ["1:bet_5"])
    assert [faces(h) for h in e.hands[1]] == [["Sc"], ["(Rb)"]]
    play(e, ["1:hit"])                                # Sc + Cb: split again
    assert faces(e.hands[1][0]) == ["Sc", "(Cb)"]     # §8.6: Sc is up, so Cb comes down
    assert "split" in legal_names(e)
    play(e, ["1:split"])
    assert legal_names(e) == ["bet_2", "bet_5", "bet_10"]
    play(e, ["1:bet_2"])
    assert seat_view(e, 0, 1, "hands")[0] == 3
    play(e, ["1:hit"])                                # Sc + 7o: natural, declared
    assert e.hands[1][0].status == DECLARED
    assert "reveal_hit" in legal_names(e)             # Cb is face down
    play(e, ["1:hit", "1:stand"])                     # Cb + 6o = 6½
    assert faces(e.hands[1][1]) == ["(Cb)", "6o"]
    play(e, ["1:reveal_hit", "1:stand"])              # Rb + 2c = 2½
    assert faces(e.hands[1][2]) == ["Rb", "(2c)"]
    assert [cards(h) for h in e.hands[1]] == [["Sc", "7o"], ["Cb", "6o"], ["Rb", "2c"]]
    assert [h.bet for h in e.hands[1]] == [20, 20, 50]
    assert e.chips == [1000, 910]
    play(e, ["0:stand"])                              # bank 5
    assert events(e, "win") == [(1, 20, 20), (1, 20, 20)] and events(e, "lose") == [(1, 50)]
    assert e.chips == [1010, 990] and e.jackpot == 0


# ================================================================== italian
@pytest.mark.parametrize(("bank_first", "bank_hits"), [("5b", ["2b", "Sb"]), ("7b", ["Sb"])],
                         ids=["bank-3-card-7.5", "bank-natural"])
def test_triple_seven_and_matta_pays_three_beats_a_bank_seven_and_half_takes_the_bank(
        bank_first, bank_hits):
    """RULES.md §4.8 triple (ITA triplè): a 7 and the matta (king of coins) as two cards pay 3
    and beat every bank hand, a bank 7½ or natural included; §5 natural_only: its holder
    becomes the bank. §2 on_turn bets and §4.3 first_only along the way."""
    e = start(ITA, 3, ["7o", "5c", bank_first, "Ro", "2c"] + bank_hits, bank=0, max_hands=2)
    assert (e.phase, e.actor, legal_names(e)) == (BET, 1, ALL_BETS)
    assert [faces(hand_of(e, s)) for s in (1, 2, 0)] == [["(7o)"], ["(5c)"], [f"({bank_first})"]]
    play(e, ["1:bet_1"])
    assert hand_of(e, 2).bet == 0                     # seat 2 bets on its own turn
    play(e, ["1:hit"])
    p1 = hand_of(e, 1)
    assert p1.special == TRIPLE and p1.total == 15 and p1.status == DECLARED
    assert seat_view(e, 2, 1, "wild_value")[0] == np.float32(1 / 15)      # the matta is ½
    assert (e.phase, e.actor) == (BET, 2)
    play(e, ["2:bet_1", "2:hit"])
    assert faces(hand_of(e, 2)) == ["(5c)", "2c"]     # only the first card face down
    play(e, ["2:stand"] + ["0:hit"] * len(bank_hits))
    assert bank_cards(e) == [bank_first] + bank_hits  # 7½
    assert events(e, "win") == [(1, 30, 30)] and events(e, "lose") == [(2, 10)]
    assert e.chips == [980, 1030, 990] and e.jackpot == 0
    assert events(e, "bank") == [(1, "triple")]
    assert hand_starts(e) == [(1, 0, 1), (2, 1, 1)]


@pytest.mark.parametrize(("bank_first", "bank_hits", "outcome", "chips", "transfer"), [
    ("6b", [], ("win", (1, 20, 20)), [980, 1020], [(1, "natural")]),
    ("5b", ["2b", "Sb"], ("win", (1, 10, 10)), [990, 1010], [(1, "natural")]),
    ("7b", ["Sb"], ("lose", (1, 10)), [1010, 990], []),
], ids=["bank-6", "bank-3-card-7.5", "bank-natural"])
def test_natural_pays_two_but_only_even_money_against_a_multicard_bank_seven_and_half(
        bank_first, bank_hits, outcome, chips, transfer):
    """RULES.md §4.7 natural_beats_bank_multicard = single (ITA 'reale'): a natural is paid 2,
    against a bank 7½ of three or more cards it still wins but only 1:1, and a bank natural
    beats it. Only the king of coins is the matta: 7 + king of cups is a plain natural.
    §5 natural_only with §8.1: the natural's holder becomes the bank when it won the hand."""
    e = start(ITA, 2, ["7o", bank_first, "Rc"] + bank_hits, bank=0)
    play(e, ["1:bet_1", "1:hit"])
    p1 = hand_of(e, 1)
    assert p1.is_natural and p1.special == NONE and p1.wild_value == 0
    assert (e.phase, e.actor) == (BANK, 0)
    play(e, ["0:hit"] * len(bank_hits) if bank_hits else ["0:stand"])
    kind, event = outcome
    assert events(e, kind) == [event]
    assert e.chips == chips and e.jackpot == 0
    assert events(e, "bank") == transfer


def test_natural_only_transfer_goes_to_the_first_natural_in_turn_order():
    """RULES.md §5 bank_transfer = natural_only (ITA): the first player with a natural becomes
    the bank; a 3-card 7½ before it does not count. §4.8: naturals pay 2, the 3-card 7½ 1:1."""
    e = start(ITA, 4, "5o 7c 7e 6b 2c Sc Se Rc", bank=0, max_hands=2)
    play(e, ["1:bet_1", "1:hit", "1:hit"])            # 5 + 2 + ½
    assert hand_of(e, 1).status == DECLARED and not hand_of(e, 1).is_natural
    play(e, ["2:bet_1", "2:hit", "3:bet_1", "3:hit"])  # 7 + ½ twice
    play(e, ["0:stand"])                              # bank 6
    assert events(e, "win") == [(1, 10, 10), (2, 20, 20), (3, 20, 20)]
    assert events(e, "bank") == [(2, "natural")]
    assert hand_starts(e) == [(1, 0, 1), (2, 2, 1)] and e.order == [3, 0, 1]
    assert (e.phase, e.actor) == (BET, 3)
    assert e.chips == [950, 1010, 1020, 1020] and e.jackpot == 0
