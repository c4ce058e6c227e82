"""Scripted-deck tests of the ``spanish_full`` preset (RULES.md §4.5, §4.6, §5, §6, §7).

spanish_full = ``spanish`` (on_turn bets with raise, player_choice face-down,
any 7½ pays 2, bank 7½ beats all, ``right`` transfer, every_hand shuffle) +
declare 7½ and bank_must_chase_declared, abrirse split, change_four
(optional, up to 4, back into the pile), fusilar 4x, side_bets, bank_sale
with the first bank bought at auction. No jackpot, no bank_min_cover;
coverage holds in every preset.

Preset numbers: 1000 chips a seat, min_bet 10, max_bet 100, bet ladder
(1, 2, 5, 10) x min_bet. With two or more players every hand starts with a
round of side bets (``pass`` or ``side_bet_<offset>_<k>``) in turn order.
Dealing: one card to each player in turn order, then the bank; hits, a
fusilar card and a changed 4's replacement draw the next cards of the list.

Every test asserts the full chips list (there is no jackpot in this preset).
"""

from __future__ import annotations

import numpy as np
import pytest

from envs.cards import parse_card
from envs.engine import (AUCTION, BANK, BET, BUST, DECLARED, PLAY, SELL, SIDE_BET, STOOD,
                         TRANSFER, Engine)
from envs.hands import FUSILAR
from envs.rules import Rules

from scripted import (cards, events, faces, global_view, hand_of, hand_starts, legal_names,
                      play, seat_view, start)

SPF = Rules.preset("spanish_full")
ALL_BETS = ["bet_1", "bet_2", "bet_5", "bet_10"]
PLAY_MOVES = ["stand", "hit", "reveal_hit"]
RAISES_FROM_10 = ["raise_1", "raise_2", "raise_5"]     # 10 + 100 would pass max_bet


def passes(e) -> list[str]:
    """Every player passes the side-bet round (RULES.md §6 side_bets)."""
    return [f"{s}:pass" for s in e.order]


# ------------------------------------------------------- §4.5 / §4.6 declare
def test_declared_seven_and_half_is_shown_and_the_bank_must_chase_it():
    """RULES.md §4.5 declare_seven_and_half (ESP 'calling'): a 7½ is shown to the table at
    once; §4.6 bank_must_chase_declared: the bank may not stand below 7½ once a player has
    declared 7½. §4.8 (ESP): any 7½ is paid 2."""
    e = start(SPF, 3, "5o 6c 4e 2o Sb 1c 2e 3b", bank=0, max_hands=2)
    assert (e.phase, e.actor) == (SIDE_BET, 1)
    play(e, passes(e))
    play(e, ["1:bet_1", "1:hit", "1:hit"])            # 5 + 2 + ½
    p1 = hand_of(e, 1)
    assert p1.status == DECLARED and faces(p1) == ["5o", "2o", "Sb"]
    # Seen by the next seat: status declared, every card up, total 7½.
    assert list(seat_view(e, 2, 1, "status")) == [0, 0, 0, 0, 1]
    up = seat_view(e, 2, 1, "up_ranks")
    assert (up[4], up[1], up[7], up.sum()) == (1, 1, 1, 3)
    assert seat_view(e, 2, 1, "hidden")[0] == 0 and seat_view(e, 2, 1, "up_total")[0] == 1
    play(e, ["2:bet_1", "2:stand"])                   # 6
    assert (e.phase, e.actor, legal_names(e)) == (BANK, 0, ["hit"])
    play(e, ["0:hit"])                                # 4 + 1 = 5
    assert legal_names(e) == ["hit"]
    play(e, ["0:hit"])                                # 7
    assert legal_names(e) == ["hit"]
    play(e, ["0:hit"])                                # 10: bust
    assert events(e, "win") == [(1, 20, 20), (2, 10, 10)]
    assert e.chips == [970, 1020, 1010]
    assert (e.phase, e.actor) == (TRANSFER, 1)        # §5 right


def test_without_chase_the_bank_may_stand_below_a_declared_seven_and_half():
    """RULES.md §4.6: the obligation is the bank_must_chase_declared switch; off, the bank may
    stand below a declared 7½ (which then wins 2)."""
    e = start(SPF.replace(bank_must_chase_declared=False), 3, "5o 6c 4e 2o Sb", bank=0)
    play(e, passes(e) + ["1:bet_1", "1:hit", "1:hit", "2:bet_1", "2:stand"])
    assert hand_of(e, 1).status == DECLARED
    assert (e.phase, legal_names(e)) == (BANK, ["stand", "hit"])
    play(e, ["0:stand"])                              # 4: loses to 7½ and 6
    assert events(e, "win") == [(1, 20, 20), (2, 10, 10)]
    assert e.chips == [970, 1020, 1010]


# ---------------------------------------------------------------- §6 abrirse
def test_abrirse_two_figures_up_to_three_times_with_two_players_stake_chosen_at_once():
    """RULES.md §6 split = abrirse (ESP): two cards of one value become two hands; the new
    stake is chosen at once (any stake); up to 3 openings with 2-3 players; hands are played
    one after the other and settled separately."""
    e = start(SPF, 3, "Sc 5e 6b Rb Cb Ce So 6o 6c 2c 5c", bank=0)
    play(e, passes(e) + ["1:bet_1", "1:hit"])         # Sc + Rb
    assert "split" in legal_names(e)
    play(e, ["1:split"])
    assert (e.phase, e.actor, legal_names(e)) == (BET, 1, ALL_BETS)
    play(e, ["1:bet_2"])
    assert (e.phase, e.hand_index) == (PLAY, 0)
    play(e, ["1:hit", "1:split", "1:bet_1"])          # Sc + Cb: second opening
    play(e, ["1:hit", "1:split", "1:bet_1"])          # Sc + Ce: third opening
    play(e, ["1:hit"])                                # Sc + So
    assert "split" not in legal_names(e)              # the limit of 3 is reached
    assert seat_view(e, 2, 1, "hands")[0] == 4
    play(e, ["1:hit", "1:stand"])                     # ½ + ½ + 6 = 7
    play(e, ["1:hit", "1:stand"])                     # Ce + 6c = 6½
    play(e, ["1:hit", "1:stand"])                     # Cb + 2c = 2½
    play(e, ["1:hit", "1:stand"])                     # Rb + 5c = 5½
    assert [cards(h) for h in e.hands[1]] == [["Sc", "So", "6o"], ["Ce", "6c"], ["Cb", "2c"],
                                              ["Rb", "5c"]]
    assert [h.bet for h in e.hands[1]] == [10, 10, 10, 20]
    play(e, ["2:bet_1", "2:stand", "0:stand"])        # bank 6
    assert events(e, "win") == [(1, 10, 10), (1, 10, 10)]
    assert events(e, "lose") == [(1, 10), (1, 20), (2, 10)]
    assert e.chips == [1020, 990, 990]


@pytest.mark.parametrize(("seats", "limit", "chips"), [
    (3, 3, [1050, 960, 990]),
    (4, 3, [1060, 960, 990, 990]),
    (5, 1, [1050, 980, 990, 990, 990]),
    (6, 1, [1060, 980, 990, 990, 990, 990]),
    (7, 0, [1060, 990, 990, 990, 990, 990, 990]),
    (8, 0, [1070, 990, 990, 990, 990, 990, 990, 990]),
])
def test_abrirse_limit_follows_the_number_of_players(seats, limit, chips):
    """RULES.md §6 abrirse: at most 3 openings with 2-3 players, once with 4-5, never with
    more (players in the hand, the bank not included)."""
    others = ["5e", "5c", "5b", "5o", "2o", "2c"][:seats - 2]
    e = start(SPF, seats, ["Sc"] + others + ["6b", "Rb", "Cb", "Ce", "So"], bank=0)
    assert len(e.order) == seats - 1
    play(e, passes(e) + ["1:bet_1"])
    opened = 0
    while True:
        play(e, ["1:hit"])                            # one more figure on the first hand
        if opened == limit:
            assert "split" not in legal_names(e)
            break
        play(e, ["1:split", "1:bet_1"])
        opened += 1
    assert len(e.hands[1]) == 1 + limit
    play(e, ["1:stand"] * (1 + limit))                # ½-point hands
    for s in e.order[1:]:
        play(e, [f"{s}:bet_1", f"{s}:stand"])
    play(e, ["0:stand"])                              # bank 6 beats them all
    assert e.chips == chips


def test_abrirse_with_three_cards_of_one_value():
    """RULES.md §6 abrirse: the first two or three cards of the same value may open; the last
    card starts the new hand, the stake is chosen at once."""
    e = start(SPF, 3, "1o 5e 6b 1c 1e 5c Sb", bank=0)
    play(e, passes(e) + ["1:bet_1", "1:hit"])         # 1 + 1
    assert "split" in legal_names(e)
    play(e, ["1:hit"])                                # 1 + 1 + 1
    assert "split" in legal_names(e)
    play(e, ["1:split"])
    assert legal_names(e) == ALL_BETS
    play(e, ["1:bet_5"])
    assert [cards(h) for h in e.hands[1]] == [["1o", "1c"], ["1e"]]
    assert "split" in legal_names(e)                  # 1 + 1 may open again (1 of 3 used)
    play(e, ["1:hit", "1:stand"])                     # 1 + 1 + 5 = 7
    play(e, ["1:hit", "1:stand"])                     # 1 + ½
    play(e, ["2:bet_1", "2:stand", "0:stand"])        # bank 6
    assert events(e, "win") == [(1, 10, 10)]
    assert events(e, "lose") == [(1, 50), (2, 10)]
    assert e.chips == [1050, 960, 990]


# ------------------------------------------------------------ §6 change_four
def test_optional_change_four_up_to_four_times_back_into_the_middle_of_the_pile():
    """RULES.md §6 change_four = optional (ESP 'el cuatro'): at the start of the turn, before
    betting, an initial 4 may be changed, up to four times; the 4 goes back into the middle of
    the draw pile (not counted as seen: it is back in the shoe)."""
    e = start(SPF.replace(decks=2), 3, "4o 5e 6b 4c 4e 4b 4o", bank=0)
    play(e, passes(e))
    assert (e.phase, e.actor, legal_names(e)) == (BET, 1, ["change_four"] + ALL_BETS)
    for before, after in [("4o", "4c"), ("4c", "4e"), ("4e", "4b"), ("4b", "4o")]:
        size = len(e.draw_pile)
        play(e, ["1:change_four"])
        assert e.draw_pile[size // 2] == parse_card(before)     # the middle of the pile
        assert len(e.draw_pile) == size
        assert cards(hand_of(e, 1)) == [after] and faces(hand_of(e, 1)) == [f"({after})"]
    assert [ev[1] for ev in events(e, "four_back")] == [
        parse_card(c) for c in ("4o", "4c", "4e", "4b")]
    assert e.seen[3] == 0
    assert legal_names(e) == ALL_BETS                 # four changes: no fifth
    play(e, ["1:bet_1"])
    assert "change_four" not in legal_names(e)
    play(e, ["1:stand", "2:bet_1", "2:stand", "0:stand"])      # 4 and 5 against 6
    assert events(e, "lose") == [(1, 10), (2, 10)]
    assert e.chips == [1020, 990, 990]


def test_optional_change_four_only_before_betting_on_the_turn():
    """RULES.md §6 change_four (ESP 'el cuatro'): the change is made at the start of the turn,
    before betting; once the stake is down the 4 stays."""
    e = start(SPF, 3, "4o 5e 6b 2c", bank=0)
    play(e, passes(e))
    assert legal_names(e) == ["change_four"] + ALL_BETS
    play(e, ["1:bet_1"])
    assert legal_names(e) == PLAY_MOVES + RAISES_FROM_10
    play(e, ["1:hit", "1:stand", "2:bet_1", "2:stand", "0:stand"])   # 6 and 5 against 6
    assert e.chips == [1020, 990, 990]


# -------------------------------------------------------------- §6 fusilar
def test_fusilar_seven_and_half_is_paid_four_times_and_the_bank_must_chase():
    """RULES.md §6 fusilar (ESP): on an initial 7, before betting, the player shoots: the 7 is
    shown, the next card goes face down under it, seen by nobody; the bank must play as if it
    were 7½ (no stand below 7½); a 7½ against a bank that does not make 7½ pays 4x."""
    e = start(SPF, 2, "7o 6b Sb 1c 2e", bank=0)
    assert (e.phase, e.actor, legal_names(e)) == (BET, 1, ["fusilar"] + ALL_BETS)
    play(e, ["1:fusilar"])
    p1 = hand_of(e, 1)
    assert p1.special == FUSILAR and faces(p1) == ["7o", "(Sb)"] and p1.unseen == [False, True]
    assert (e.phase, e.actor, legal_names(e)) == (BET, 1, ALL_BETS)   # the stake on top
    for observer in (0, 1):
        assert seat_view(e, observer, 1, "unseen")[0] == 1
        assert seat_view(e, observer, 1, "up_ranks")[6] == 1
    assert not global_view(e, 1, "own_hidden").any()
    play(e, ["1:bet_1"])
    assert p1.status == STOOD
    assert (e.phase, e.actor, legal_names(e)) == (BANK, 0, ["hit"])
    play(e, ["0:hit"])                                # 7
    assert legal_names(e) == ["hit"]
    play(e, ["0:hit"])                                # 9: bust
    assert faces(p1) == ["7o", "Sb"]
    assert events(e, "win") == [(1, 40, 40)]
    assert e.chips == [960, 1040]
    assert e.over                                     # a fusilar does not claim the bank


def test_fusilar_not_seven_and_half_is_lost_even_if_the_bank_busts():
    """RULES.md §6 fusilar: if the hidden card does not make 7½ the player has bust, even when
    the bank busts; other players still win against the busted bank."""
    e = start(SPF, 3, "7o 5c 6b 2c 3e", bank=0)
    play(e, passes(e) + ["1:fusilar", "1:bet_1"])
    assert hand_of(e, 1).status == STOOD and e.chips == [1000, 990, 1000]
    play(e, ["2:bet_1", "2:stand"])
    assert legal_names(e) == ["hit"]                  # the live fusilar is chased
    play(e, ["0:hit"])                                # 6 + 3 = 9: bust
    assert events(e, "lose") == [(1, 10)]
    assert events(e, "win") == [(2, 10, 10)]
    assert e.chips == [1000, 990, 1010]


def test_fusilar_seven_and_half_loses_to_a_bank_seven_and_half():
    """RULES.md §6 fusilar: 4x only if the bank does not make 7½; a bank 7½ wins."""
    e = start(SPF, 2, "7o 6b Sb 1c Sc", bank=0)
    play(e, ["1:fusilar", "1:bet_1", "0:hit", "0:hit"])   # bank 6 + 1 + ½ = 7½
    assert e.over
    assert events(e, "lose") == [(1, 10)] and events(e, "win") == []
    assert e.chips == [1010, 990]


def test_fusilar_four_times_within_coverage_winners_paid_in_turn_order():
    """RULES.md §4.8 coverage with §6 fusilar: losing stakes (a bust at once) are collected,
    then winners are paid in turn order until the bank is empty; the bank never goes below 0
    and an unpaid winner keeps the stake."""
    e = start(SPF, 5, "6o 7c 6e 5c 2b Sb 3o 6b", bank=0, chips=[35, 1000, 1000, 1000, 1000])
    play(e, passes(e))
    play(e, ["1:bet_1", "1:stand"])                   # 6
    play(e, ["2:fusilar", "2:bet_1"])                 # 7 + Sb: owed 40
    play(e, ["3:bet_1", "3:hit"])                     # 6 + 3: bust, the bank holds 45
    assert hand_of(e, 3).status == BUST and e.chips == [45, 990, 990, 990, 1000]
    play(e, ["4:bet_1", "4:stand"])                   # 5
    play(e, ["0:hit"])                                # 2 + 6 = 8: bust
    assert events(e, "win") == [(1, 10, 10), (2, 35, 40), (4, 0, 10)]
    assert e.chips == [0, 1010, 1035, 990, 1000]


# ------------------------------------------------------------ §6 side_bets
def test_side_bet_follows_the_target_and_is_paid_right_after_it_within_coverage():
    """RULES.md §6 side_bets (ESP): a player may stake on another player's hand, whose owner
    makes every decision; it wins or loses with that hand and is paid right after it, within
    coverage (§4.8), before later hands."""
    e = start(SPF, 3, "6o 5c 3b 2e 2b", bank=0, chips=[35, 1000, 1000])
    assert (e.phase, e.actor) == (SIDE_BET, 1)
    play(e, ["1:pass"])
    assert "side_bet_2_2" in legal_names(e)           # seat 2 on seat 1 (2 places on)
    play(e, ["2:side_bet_2_2"])
    assert e.chips == [35, 1000, 980]
    assert seat_view(e, 1, 2, "side_stake")[0] == np.float32(20 / 100)
    play(e, ["1:bet_1", "1:stand"])                   # 6
    play(e, ["2:bet_2", "2:hit", "2:stand"])          # 5 + 2 = 7
    play(e, ["0:hit", "0:stand"])                     # bank 3 + 2 = 5
    assert events(e, "win") == [(1, 10, 10), (2, 5, 20)]
    assert events(e, "side_win") == [(2, 20, 20, 1)]        # bettor, paid, owed, target
    assert e.chips == [0, 1010, 1025]


def test_side_bet_is_lost_at_once_when_the_target_busts():
    """RULES.md §6 side_bets with §4.4: a side bet on a hand that busts goes to the bank at
    once, even if the bank busts later; the bettor's own hand is settled as usual."""
    e = start(SPF, 3, "6o 5c 3b 6e 5b", bank=0)
    play(e, ["1:side_bet_1_1", "2:pass"])
    play(e, ["1:bet_1", "1:stand"])                   # 6
    play(e, ["2:bet_1", "2:hit"])                     # 5 + 6: bust
    assert hand_of(e, 2).status == BUST
    assert e.chips == [1020, 980, 990]
    play(e, ["0:hit"])                                # 3 + 5 = 8: bust
    assert events(e, "win") == [(1, 10, 10)]
    assert events(e, "side_win") == []
    assert e.chips == [1010, 1000, 990]


def test_side_bet_leaves_the_bettor_its_own_minimum_stake():
    """RULES.md §6 side_bets with §2 on_turn bets: a side bet may not leave the bettor without
    min_bet for its own stake; only other players' hands are targets (not the bank)."""
    e = start(SPF, 3, "6o 5c 3b", bank=0, chips=[1000, 30, 10])
    assert legal_names(e) == ["pass", "side_bet_1_1", "side_bet_1_2"]   # 30 - 10 = 20 at most
    play(e, ["1:side_bet_1_2"])
    assert legal_names(e) == ["pass"]                  # 10 chips: its own stake only
    play(e, ["2:pass"])
    assert (e.phase, e.actor, legal_names(e)) == (BET, 1, ["bet_1"])
    play(e, ["1:bet_1", "1:stand", "2:bet_1", "2:stand", "0:stand"])   # 6 and 5 beat 3
    assert events(e, "win") == [(1, 10, 10), (2, 10, 10)]
    assert events(e, "side_win") == [(1, 20, 20, 2)]
    assert e.chips == [960, 60, 20]


# ---------------------------------------------------------------- §5 sale
def test_auction_bids_in_seat_order_must_exceed_highest_pays_every_other_seat():
    """RULES.md §5 bank_sale, first_bank = auction (ESP): each seat in seat order may bid a
    compensation (multiples of min_bet) above the last bid; the highest bid takes the bank and
    pays it to every other seat."""
    e = Engine(SPF, 3, 1)
    e.reset(seed=0, deck=["5o", "6c", "2b", "3e"])
    assert (e.phase, e.actor, legal_names(e)) == (AUCTION, 0,
                                                  ["pass", "bid_1", "bid_2", "bid_5", "bid_10"])
    play(e, ["0:bid_1"])
    assert (e.actor, legal_names(e)) == (1, ["pass", "bid_2", "bid_5", "bid_10"])
    play(e, ["1:bid_5"])
    assert (e.actor, legal_names(e)) == (2, ["pass", "bid_10"])
    play(e, ["2:pass"])
    assert events(e, "first_bank") == [(1, "bought for 50 to each seat")]
    assert e.bank == 1 and e.order == [2, 0]
    assert e.chips == [1050, 900, 1050]
    play(e, passes(e))
    play(e, ["2:bet_1", "2:stand", "0:bet_1", "0:stand", "1:hit", "1:stand"])   # bank 2 + 3
    assert events(e, "lose") == [(2, 10)] and events(e, "win") == [(0, 10, 10)]
    assert e.chips == [1060, 900, 1040]


def test_auction_bid_is_capped_by_what_the_bidder_can_pay_everyone():
    """RULES.md §5 auction: a bid is paid to every other seat, so it cannot exceed the
    bidder's chips divided among them."""
    e = Engine(SPF, 3, 1)
    e.reset(seed=0, chips=[100, 1000, 1000])
    legal = legal_names(e)
    assert legal[:3] == ["pass", "bid_1", "bid_2"] and "bid_10" not in legal   # 2 x 100 > 100
    play(e, ["0:bid_2", "1:pass", "2:pass"])
    assert events(e, "first_bank") == [(0, "bought for 20 to each seat")]
    assert e.bank == 0 and e.chips == [60, 1020, 1020] and e.jackpot == 0


def test_auction_winner_takes_the_bank_it_paid_for():
    """RULES.md §5 auction: 'the highest bid takes the bank and pays' -- whatever legal bid
    wins, the buyer holds the first bank (a bank needs min_bet chips, envs/rules.py)."""
    probe = Engine(SPF, 3, 1)
    probe.reset(seed=0, chips=[100, 1000, 1000])
    for bid in [name for name in legal_names(probe) if name.startswith("bid_")]:
        e = Engine(SPF, 3, 1)
        e.reset(seed=0, chips=[100, 1000, 1000])
        play(e, [f"0:{bid}", "1:pass", "2:pass"])
        paid = 2 * int(bid[4:]) * 10
        assert e.bank == 0, f"{bid}: seat 0 paid {paid} but seat {e.bank} holds the bank"
        assert e.chips == [100 - paid, 1000 + paid // 2, 1000 + paid // 2]


def test_auction_without_bids_draws_the_bank_at_random():
    """RULES.md §5 auction: nobody bids -> the first bank is drawn at random; no chips move."""
    banks = set()
    for seed in range(8):
        e = Engine(SPF, 3, 1)
        e.reset(seed=seed)
        play(e, ["0:pass", "1:pass", "2:pass"])
        assert events(e, "first_bank") == [(e.bank, "random (no bids)")]
        assert e.chips == [1000, 1000, 1000] and e.jackpot == 0
        banks.add(e.bank)
    assert len(banks) > 1


@pytest.mark.parametrize(("script", "bank"), [
    (["0:sell_bank", "1:take_bank"], 1),
    (["0:sell_bank", "1:refuse_bank"], 0),
    (["0:pass"], 0),
])
def test_bank_sale_between_hands(script, bank):
    """RULES.md §5 bank_sale (ESP): between hands the bank may pass the bank to the next seat
    in turn order, which accepts or refuses; ``pass`` keeps it."""
    e = start(SPF, 3, "5o 6c 2b 3e", bank=0, max_hands=2)
    play(e, passes(e) + ["1:bet_1", "1:stand", "2:bet_1", "2:stand", "0:hit", "0:stand"])
    assert (e.phase, e.actor, legal_names(e)) == (SELL, 0, ["pass", "sell_bank"])
    assert e.chips == [1000, 990, 1010]
    play(e, script[:1])
    if len(script) > 1:
        assert (e.phase, e.actor, legal_names(e)) == (TRANSFER, 1, ["take_bank", "refuse_bank"])
        play(e, script[1:])
    assert e.bank == bank
    assert hand_starts(e) == [(1, 0, 1), (2, bank, 1 if bank == 1 else 2)]
    assert events(e, "bank") == ([(1, "sale")] if bank == 1 else [])
    assert e.chips == [1000, 990, 1010]
