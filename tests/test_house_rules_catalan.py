"""Scripted-deck tests of the ``catalan_house`` preset (RULES.md §6, §4.8, §4.9, §7).

catalan_house = ``catalan`` + mort, change_four (forced), secret_three, double,
split (two figures, once). Preset numbers: 1000 chips a seat, min_bet 10,
max_bet 100, bet ladder (1, 2, 5, 10) x min_bet, jackpot ante 1 from every
player each hand, bets before the deal, alternate face-down cards.

Dealing: one card to each player in turn order (the seat after the bank
first), then the bank; a forced change of a 4 and the secret pair of a 3
draw their cards at the deal, right after the player's card; hits draw the
next cards of the deck list.

Every test asserts the full chips list and the jackpot at the end.
"""

from __future__ import annotations

import numpy as np

from envs.cards import parse_card
from envs.engine import BANK, BUST, PLAY, STOOD, TRANSFER
from envs.hands import MORT, SECRET
from envs.rules import Rules

from scripted import (cards, events, faces, global_view, hand_of, legal_names, play, seat_view,
                      start)

HOUSE = Rules.preset("catalan_house")
ALL_BETS = ["bet_1", "bet_2", "bet_5", "bet_10"]


# ------------------------------------------------------------------ §6 mort
def test_mort_accepted_seven_and_half_is_a_natural_paid_two_with_the_jackpot():
    """RULES.md §6 mort (CAT): accepting on an initial 7 announces the 7 (face up) and gives
    one face-down card nobody sees until settlement; 7 + figure counts as a natural: paid 2
    (§4.8) and it takes the jackpot (§4.9) also when the bank busts."""
    e = start(HOUSE, 2, "7o 5c Sb 4e", bank=0, max_hands=2)
    play(e, ["1:bet_1"])
    assert e.chips == [1000, 989] and e.jackpot == 1
    assert (e.phase, e.actor, legal_names(e)) == (PLAY, 1, ["mort", "decline"])
    play(e, ["1:mort"])
    p1 = hand_of(e, 1)
    assert p1.special == MORT and p1.status == STOOD
    assert faces(p1) == ["7o", "(Sb)"] and p1.unseen == [False, True]
    assert events(e, "special") == [(1, "mort", 0)]
    # Nobody sees the Mort card, not even its owner; the 7 is public.
    for observer in (0, 1):
        assert seat_view(e, observer, 1, "unseen")[0] == 1
        assert seat_view(e, observer, 1, "hidden")[0] == 1
        assert seat_view(e, observer, 1, "up_ranks")[6] == 1
    assert not global_view(e, 1, "own_hidden").any()
    assert global_view(e, 1, "own_total")[0] == np.float32(14 / 15)    # only the 7 is known
    # The bank plays without seeing it.
    assert (e.phase, e.actor, legal_names(e)) == (BANK, 0, ["stand", "hit"])
    assert faces(p1) == ["7o", "(Sb)"]
    play(e, ["0:hit"])                                 # bank 5 + 4 = 9: bust
    assert faces(p1) == ["7o", "Sb"]                   # shown at settlement
    assert events(e, "win") == [(1, 20, 20)]
    assert events(e, "jackpot") == [(1, 1)]
    assert e.chips == [980, 1020] and e.jackpot == 0
    assert (e.phase, e.actor) == (TRANSFER, 1)         # §5 offer: the Mort 7½ is a 7½


def test_mort_not_seven_and_half_is_lost_even_if_the_bank_busts():
    """RULES.md §6 mort: unless the two cards make exactly 7½ the bet is lost; the Mort card
    stays unseen during the bank's turn (no bust shown), and the stake is lost even though
    the bank busts (§4.4)."""
    e = start(HOUSE, 2, "7o 5c 2b 4e", bank=0)
    play(e, ["1:bet_1", "1:mort"])
    p1 = hand_of(e, 1)
    assert p1.status == STOOD and faces(p1) == ["7o", "(2b)"]
    assert (e.phase, e.actor) == (BANK, 0)
    assert e.chips == [1000, 989]                      # nothing collected before settlement
    assert seat_view(e, 0, 1, "unseen")[0] == 1
    play(e, ["0:hit"])                                 # bank 5 + 4 = 9: bust
    assert faces(p1) == ["7o", "2b"]
    assert events(e, "lose") == [(1, 10)] and events(e, "win") == []
    assert events(e, "jackpot") == []
    assert e.over
    assert e.chips == [1010, 989] and e.jackpot == 1


def test_mort_declined_the_seven_plays_on_and_may_double():
    """RULES.md §6 mort: refusing plays on with the 7, and doubling stays possible; §6 double:
    the doubled 7 + figure is a natural paid 2 on the doubled stake, plus the jackpot."""
    e = start(HOUSE, 2, "7o 5c Sb", bank=0)
    play(e, ["1:bet_1", "1:decline"])
    assert (e.phase, e.actor, legal_names(e)) == (PLAY, 1, ["stand", "hit", "double"])
    assert hand_of(e, 1).special != MORT and faces(hand_of(e, 1)) == ["(7o)"]
    play(e, ["1:double"])
    p1 = hand_of(e, 1)
    assert p1.doubled and p1.bet == 20 and e.chips == [1000, 979]
    assert faces(p1) == ["(7o)", "Sb"] and p1.status == STOOD
    assert seat_view(e, 0, 1, "doubled")[0] == 1
    play(e, ["0:stand"])                               # bank 5
    assert events(e, "win") == [(1, 40, 40)]
    assert events(e, "jackpot") == [(1, 1)]
    assert e.chips == [960, 1040] and e.jackpot == 0


# ---------------------------------------------------------------- §6 double
def test_double_one_card_then_stand_only_with_one_card_and_only_if_chips_cover():
    """RULES.md §6 double (CAT): with only the first card, a player holding enough chips may
    double the bet and receives exactly one more card, then stands. A doubled winner is paid on
    the doubled stake; a doubled bust loses it at once."""
    e = start(HOUSE, 5, "5o 6c 2e 1c 6e 2b 5b Sc 5c", bank=0,
              chips=[1000, 1000, 1000, 1000, 25])
    play(e, ["1:bet_2", "2:bet_2", "3:bet_2", "4:bet_2"])
    assert e.chips == [1000, 979, 979, 979, 4] and e.jackpot == 4
    assert legal_names(e) == ["stand", "hit", "double"]
    play(e, ["1:double"])                              # 5 + 2 = 7, stands by itself
    p1 = hand_of(e, 1)
    assert p1.bet == 40 and p1.status == STOOD and faces(p1) == ["(5o)", "2b"]
    assert e.actor == 2
    play(e, ["2:double"])                              # 6 + 5 = 11: bust, 40 lost at once
    assert hand_of(e, 2).status == BUST
    assert e.chips == [1040, 959, 959, 979, 4]
    play(e, ["3:hit"])                                 # 2 + ½: two cards, no double
    assert legal_names(e) == ["stand", "hit"]
    play(e, ["3:stand"])
    assert legal_names(e) == ["stand", "hit"]          # 4 chips cannot cover a 20 stake
    play(e, ["4:hit", "4:stand"])                      # 1 + 5 = 6
    play(e, ["0:stand"])                               # bank 6: beats 2½, ties 6
    assert events(e, "win") == [(1, 40, 40)]
    assert events(e, "lose") == [(3, 20), (4, 20)]
    assert e.chips == [1040, 1039, 959, 979, 4] and e.jackpot == 4


# ------------------------------------------------------------ §6 change_four
def test_forced_change_four_discards_shows_and_replaces_repeated_fours():
    """RULES.md §6 change_four = forced (CAT): an initial 4 is discarded (shown) and another
    card dealt, again while it is a 4; the bank's own card is not changed."""
    e = start(HOUSE, 3, "4o 4c 5e 6b 4e", bank=0)
    play(e, ["1:bet_1", "2:bet_2"])
    assert events(e, "discarded") == [(1, parse_card("4o"), "change_four"),
                                      (1, parse_card("4c"), "change_four")]
    assert faces(hand_of(e, 1)) == ["(5e)"]
    assert faces(hand_of(e, 2)) == ["(6b)"] and cards(e.bank_hand) == ["4e"]
    assert sorted(e.discard) == sorted([parse_card("4o"), parse_card("4c")])
    assert e.seen[3] == 2                              # both 4s were shown
    assert global_view(e, 2, "seen_ranks")[3] == np.float32(2 / 4)
    assert seat_view(e, 2, 1, "hidden")[0] == 1        # one card in hand, face down
    play(e, ["1:stand", "2:stand", "0:stand"])         # 5 and 6 beat the bank's 4
    assert events(e, "win") == [(1, 10, 10), (2, 20, 20)]
    assert e.chips == [970, 1009, 1019] and e.jackpot == 2


# ----------------------------------------------------------- §6 secret_three
def test_secret_three_two_secret_cards_only_stand_natural_pays_two_bust_loses():
    """RULES.md §6 secret_three (CAT): an initial 3 is discarded and the player gets two
    secret cards nobody sees (the owner neither) until the bank has finished; with that hand
    the player can only stand. A secret 7 + figure is a natural (paid 2, takes the jackpot);
    a secret bust loses even against a busted bank (§4.4)."""
    e = start(HOUSE, 3, "3o 7c Sb 3c 6c 5b 2o 6e", bank=0, max_hands=2)
    play(e, ["1:bet_1", "2:bet_1"])
    p1, p2 = hand_of(e, 1), hand_of(e, 2)
    assert (p1.special, p2.special) == (SECRET, SECRET)
    assert faces(p1) == ["(7c)", "(Sb)"] and p1.unseen == [True, True]
    assert faces(p2) == ["(6c)", "(5b)"] and p2.unseen == [True, True]
    assert [ev[:2] for ev in events(e, "discarded")] == [(1, parse_card("3o")),
                                                         (2, parse_card("3c"))]
    assert e.seen[2] == 2
    # Nobody sees them: not the owner (no own hidden card, nothing known) nor the others.
    assert not global_view(e, 1, "own_hidden").any() and global_view(e, 1, "own_total")[0] == 0
    for observer in (0, 1, 2):
        assert seat_view(e, observer, 1, "unseen")[0] == 2
        assert seat_view(e, observer, 2, "unseen")[0] == 2
    assert (e.phase, e.actor, legal_names(e)) == (PLAY, 1, ["stand"])
    play(e, ["1:stand"])
    assert (e.actor, legal_names(e)) == (2, ["stand"])
    play(e, ["2:stand"])
    assert p2.status == STOOD and e.chips == [1000, 989, 989]   # bust not known yet
    play(e, ["0:hit"])                                 # bank 2 + 6 = 8: bust
    assert faces(p1) == ["7c", "Sb"] and faces(p2) == ["6c", "5b"]
    assert events(e, "win") == [(1, 20, 20)]
    assert events(e, "lose") == [(2, 10)]
    assert events(e, "jackpot") == [(1, 2)]
    assert e.chips == [990, 1021, 989] and e.jackpot == 0
    assert (e.phase, e.actor) == (TRANSFER, 1)


# ----------------------------------------------------------------- §6 split
def test_split_two_figures_once_equal_stake_hands_in_turn_settled_separately():
    """RULES.md §6 split = two_figures_once (CAT): two figures become two hands with an equal
    second stake (automatic), played one after the other, only once; each hand is settled on
    its own; a split hand of two cards making 7½ is a natural (paid 2, takes the jackpot)."""
    e = start(HOUSE, 2, "Sc 5o Rb 7o Cb 3c", bank=0)
    play(e, ["1:bet_1", "1:hit"])
    assert legal_names(e) == ["stand", "hit", "split"]
    play(e, ["1:split"])
    assert (e.phase, e.actor, e.hand_index) == (PLAY, 1, 0)       # no stake to choose
    assert [h.bet for h in e.hands[1]] == [10, 10] and e.chips == [1000, 979]
    assert [faces(h) for h in e.hands[1]] == [["(Sc)"], ["Rb"]]
    assert seat_view(e, 0, 1, "hands")[0] == 2
    assert seat_view(e, 1, 1, "hands")[0] == 2
    assert seat_view(e, 0, 1, "bet")[0] == np.float32(20 / 100)
    play(e, ["1:hit"])                                 # ½ + 7: natural, only stand is left
    assert legal_names(e) == ["stand"]
    play(e, ["1:stand"])
    assert e.hands[1][0].status == STOOD and e.hands[1][0].is_natural
    assert (e.phase, e.actor, e.hand_index) == (PLAY, 1, 1)
    play(e, ["1:hit"])                                 # Rb + Cb: two figures again
    assert "split" not in legal_names(e)               # only once
    play(e, ["1:hit", "1:stand"])                      # ½ + ½ + 3 = 4
    assert [faces(h) for h in e.hands[1]] == [["(Sc)", "7o"], ["Rb", "(Cb)", "3c"]]
    play(e, ["0:stand"])                               # bank 5: the natural wins, 4 loses
    assert events(e, "win") == [(1, 20, 20)]
    assert events(e, "lose") == [(1, 10)]
    assert events(e, "jackpot") == [(1, 1)]
    assert e.chips == [990, 1010] and e.jackpot == 0


# -------------------------------------------------------------- §4.9 jackpot
def test_jackpot_goes_to_the_first_natural_in_turn_order_a_mort_included():
    """RULES.md §4.9: with several naturals the first in turn order takes the pot; a Mort that
    ends in 7½ counts as a natural (§6). Both naturals are paid 2 (§4.8)."""
    # bank 2: turn order 3, 0, 1.
    e = start(HOUSE, 4, "7o 7c 5e 6b Sb Sc", bank=2, max_hands=2)
    assert e.order == [3, 0, 1]
    play(e, ["3:bet_1", "0:bet_1", "1:bet_1"])
    assert e.jackpot == 3
    play(e, ["3:mort", "0:decline", "0:hit", "0:stand", "1:stand", "2:stand"])
    assert hand_of(e, 0).is_natural and hand_of(e, 3).special == MORT
    assert events(e, "win") == [(3, 20, 20), (0, 20, 20)]
    assert events(e, "lose") == [(1, 10)]
    assert events(e, "jackpot") == [(3, 3)]
    assert e.chips == [1019, 989, 970, 1022] and e.jackpot == 0
    assert (e.phase, e.actor) == (TRANSFER, 3)
