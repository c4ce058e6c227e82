"""Scripted-deck tests of the ``spanish`` preset (RULES.md §7, ESP basic).

spanish: on_turn bets with raise, player_choice face-down, any 7½ pays 2, a
bank 7½ beats everything, ``right`` bank transfer, random first bank,
every_hand shuffle. No jackpot, no bank_min_cover, no limit on bank hands;
coverage (the bank pays at most what it holds) holds in every preset.

Preset numbers: 1000 chips a seat, min_bet 10, max_bet 100, bet ladder
(1, 2, 5, 10) x min_bet (also the raise sizes).
Dealing: one card to each player in turn order (the seat after the bank
first), then the bank; hits draw the next cards of the deck list.
"""

from __future__ import annotations

from collections import Counter

from envs.cards import card_name
from envs.engine import BANK, BET, BUST, PLAY, TRANSFER, Engine
from envs.rules import Rules

from scripted import (events, faces, hand_event_index, hand_of,
                      hand_starts, legal_names, play, start)

ESP = Rules.preset("spanish")
ALL_BETS = ["bet_1", "bet_2", "bet_5", "bet_10"]
PLAY_MOVES = ["stand", "hit", "reveal_hit"]


# ---------------------------------------------------------------- §2 bets
def test_each_player_bets_on_the_turn_after_seeing_the_first_card():
    """RULES.md §2 bet_timing = on_turn (ESP): the first card is dealt, then each player bets
    on their own turn."""
    e = start(ESP, 3, "5o 4c 2e 3b", bank=0)
    assert (e.phase, e.actor) == (BET, 1)
    assert [faces(hand_of(e, s)) for s in (1, 2, 0)] == [["(5o)"], ["(4c)"], ["(2e)"]]
    assert e.chips == [1000, 1000, 1000] and e.jackpot == 0
    assert legal_names(e) == ALL_BETS
    play(e, ["1:bet_2"])
    assert (e.phase, e.actor) == (PLAY, 1)
    assert [hand_of(e, s).bet for s in (1, 2)] == [20, 0]      # seat 2 has not bet yet
    play(e, ["1:stand"])
    assert (e.phase, e.actor, legal_names(e)) == (BET, 2, ALL_BETS)
    play(e, ["2:bet_1", "2:stand"])
    assert (e.phase, e.actor) == (BANK, 0)
    play(e, ["0:hit", "0:stand"])                    # bank 2 + 3 = 5: ties 5, beats 4
    assert e.over
    assert events(e, "lose") == [(1, 20), (2, 10)]
    assert e.chips == [1030, 980, 990]


def test_raise_up_to_max_bet_and_never_twice_in_a_row():
    """RULES.md §2 bet_raise (ESP): when hitting or standing a player may raise, never above
    max_bet; a raise needs a card (hit) before the next raise."""
    e = start(ESP, 2, "5o 4e 2c", bank=0)
    play(e, ["1:bet_1"])
    # 10 + 100 would pass max_bet = 100.
    assert legal_names(e) == PLAY_MOVES + ["raise_1", "raise_2", "raise_5"]
    play(e, ["1:raise_5"])
    assert hand_of(e, 1).bet == 60 and e.chips == [1000, 940]
    assert legal_names(e) == PLAY_MOVES                       # not twice in a row
    play(e, ["1:hit"])
    assert legal_names(e) == PLAY_MOVES + ["raise_1", "raise_2"]   # 40 of room left
    play(e, ["1:raise_2", "1:stand", "0:stand"])     # 7 against the bank's 4
    assert events(e, "raise") == [(1, 50, 60), (1, 20, 80)]
    assert events(e, "win") == [(1, 80, 80)]
    assert e.chips == [920, 1080]


def test_raise_is_limited_by_the_chips_held_and_by_max_bet():
    """RULES.md §2 bet_raise: never more than the chips held; none at max_bet."""
    e = start(ESP, 3, "5o 4e 2c 1b 3b", bank=0, chips=[1000, 45, 1000])
    assert legal_names(e) == ["bet_1", "bet_2"]               # 45 chips: 50 is too much
    play(e, ["1:bet_2"])
    assert legal_names(e) == PLAY_MOVES + ["raise_1", "raise_2"]   # 25 chips left
    play(e, ["1:raise_2"])
    assert e.chips == [1000, 5, 1000] and hand_of(e, 1).bet == 40
    play(e, ["1:hit"])                                # 5 + 1 = 6
    assert legal_names(e) == PLAY_MOVES               # 5 chips: no raise fits
    play(e, ["1:stand", "2:bet_10"])
    assert legal_names(e) == PLAY_MOVES               # already at max_bet
    play(e, ["2:stand", "0:hit", "0:stand"])          # bank 2 + 3 = 5: 6 wins, 4 loses
    assert events(e, "win") == [(1, 40, 40)] and events(e, "lose") == [(2, 100)]
    assert e.over and e.chips == [1060, 85, 900]


def test_seven_and_half_ends_the_turn_so_no_raise_after_it():
    """RULES.md §2/§4.5: 7½ ends the turn, so no raise is possible after reaching it: the
    player is left only ``stand`` (undeclared, it looks like any stand: §8.7);
    §4.8 any_seven_and_half_pays: the 3-card 7½ is paid 2."""
    e = start(ESP, 2, "5o 4e 2c Sc", bank=0)
    play(e, ["1:bet_1", "1:hit", "1:hit"])           # 5 + 2 + ½
    assert (e.phase, e.actor, legal_names(e)) == (PLAY, 1, ["stand"])
    play(e, ["1:stand"])
    assert (e.phase, e.actor, legal_names(e)) == (BANK, 0, ["stand", "hit"])
    assert hand_of(e, 1).bet == 10
    play(e, ["0:stand"])
    assert events(e, "win") == [(1, 20, 20)]
    assert e.chips == [980, 1020]


# ---------------------------------------------------------- §4.3 face-down
def test_player_choice_reveal_hit_turns_the_card_up_and_takes_the_new_one_down():
    """RULES.md §4.3 hidden_cards = player_choice (ESP): turning the face-down card up before a
    hit gives the new card face down; a plain hit comes face up; never two face down."""
    e = start(ESP, 2, "3o 5b 1c 2c Sc", bank=0)
    play(e, ["1:bet_1"])
    assert legal_names(e) == PLAY_MOVES + ["raise_1", "raise_2", "raise_5"]
    play(e, ["1:reveal_hit"])
    assert faces(hand_of(e, 1)) == ["3o", "(1c)"]
    play(e, ["1:hit"])
    assert faces(hand_of(e, 1)) == ["3o", "(1c)", "2c"]
    play(e, ["1:reveal_hit"])
    p1 = hand_of(e, 1)
    assert faces(p1) == ["3o", "1c", "2c", "(Sc)"] and p1.hidden_count == 1
    assert p1.total == 13                             # 6½ in half points
    play(e, ["1:stand"])
    assert (e.phase, faces(e.bank_hand), faces(p1)) == (BANK, ["5b"], ["3o", "1c", "2c", "(Sc)"])
    play(e, ["0:stand"])
    assert e.chips == [990, 1010]


# ------------------------------------------------------- §4.4 / §4.7 / §4.8
def test_bust_loses_at_once_and_any_seven_and_half_pays_two_against_a_busted_bank():
    """RULES.md §4.4: a bust is shown and its stake goes to the bank at once, even if the bank
    busts later. §4.8 (ESP): any 7½ is paid 2, also against a busted bank."""
    e = start(ESP, 3, "6o 5c 4e 3o 2o Sc 5e", bank=0, max_hands=2)
    play(e, ["1:bet_1", "1:hit"])                     # 6 + 3 = 9
    p1 = hand_of(e, 1)
    assert p1.status == BUST and faces(p1) == ["6o", "3o"]
    assert e.chips == [1010, 990, 1000]               # before seat 2 has even bet
    assert (e.phase, e.actor) == (BET, 2)
    play(e, ["2:bet_1", "2:hit", "2:hit", "2:stand"])  # 5 + 2 + ½ = 7½
    play(e, ["0:hit"])                                # bank 4 + 5 = 9
    assert events(e, "lose") == []
    assert events(e, "win") == [(2, 20, 20)]
    assert e.chips == [990, 990, 1020]
    assert (e.phase, e.actor) == (TRANSFER, 2)


def test_natural_and_three_card_seven_and_half_both_pay_two():
    """RULES.md §4.8 any_seven_and_half_pays (ESP): every 7½ is paid 2, not only a natural."""
    e = start(ESP, 3, "5o 7c 4e 2o Sc Rc 2e", bank=0)
    play(e, ["1:bet_1", "1:hit", "1:hit", "1:stand"])  # 5 + 2 + ½
    play(e, ["2:bet_2", "2:hit", "2:stand"])          # 7 + ½ natural
    play(e, ["0:hit", "0:stand"])                     # bank 4 + 2 = 6
    assert events(e, "win") == [(1, 20, 20), (2, 40, 40)]
    assert e.chips == [940, 1020, 1040] and e.jackpot == 0


def test_bank_multicard_seven_and_half_beats_a_player_natural():
    """RULES.md §4.7 natural_beats_bank_multicard = off (ESP): a bank 7½ beats everything."""
    e = start(ESP, 2, "7o 5e So 2o Rc", bank=0)
    play(e, ["1:bet_1", "1:hit"])
    assert hand_of(e, 1).is_natural
    play(e, ["1:stand", "0:hit", "0:hit"])                       # 5 + 2 + ½: the bank stops at 7½
    assert e.over and e.bank == 0                     # no right to the bank either
    assert events(e, "lose") == [(1, 10)]
    assert e.chips == [1010, 990]


def test_ties_go_to_the_bank():
    """RULES.md §4.7: equal totals -> the bank wins."""
    e = start(ESP, 2, "5o 4e 1c 2c", bank=0)
    play(e, ["1:bet_5", "1:hit", "1:stand", "0:hit", "0:stand"])   # 6 against 6
    assert events(e, "lose") == [(1, 50)]
    assert e.chips == [1050, 950]


def test_coverage_with_a_bust_collected_first():
    """RULES.md §4.8 coverage: the bank pays at most what it holds, winners in turn order; a
    bust stake is the bank's at once; an unpaid part is lost to the winner, stake kept."""
    e = start(ESP, 4, "6o 5c 6b 4e 3o 2o Sc 5e", bank=0, chips=[15, 1000, 1000, 1000])
    play(e, ["1:bet_1", "1:hit"])                     # bust: the bank holds 25
    play(e, ["2:bet_1", "2:hit", "2:hit", "2:stand"])  # 5 + 2 + ½: owed 20
    play(e, ["3:bet_1", "3:stand"])                   # 6: owed 10
    play(e, ["0:hit"])                                # bank 4 + 5 = 9
    assert events(e, "win") == [(2, 20, 20), (3, 5, 10)]
    assert e.chips == [0, 990, 1020, 1005]


# ------------------------------------------------------------- §5 right
def test_first_player_to_seven_and_half_may_claim_the_bank():
    """RULES.md §5 bank_transfer = right (ESP): the first player to reach 7½ while the bank did
    not may claim the bank; only that player is asked."""
    e = start(ESP, 3, "5o 7c 4e 2o Sc Rc 2e", bank=0, max_hands=2)
    play(e, ["1:bet_1", "1:hit", "1:hit", "1:stand", "2:bet_1", "2:hit", "2:stand",
             "0:hit", "0:stand"])
    assert (e.phase, e.actor, legal_names(e)) == (TRANSFER, 1, ["refuse_bank", "claim_bank"])
    play(e, ["1:claim_bank"])
    assert events(e, "bank") == [(1, "seven_and_half")]
    assert hand_starts(e) == [(1, 0, 1), (2, 1, 1)] and e.order == [2, 0]


def test_refused_right_is_not_passed_on():
    """RULES.md §5 right: waiving the right keeps the bank; the next 7½ player is not asked."""
    e = start(ESP, 3, "5o 7c 4e 2o Sc Rc 2e", bank=0, max_hands=2)
    play(e, ["1:bet_1", "1:hit", "1:hit", "1:stand", "2:bet_1", "2:hit", "2:stand",
             "0:hit", "0:stand"])
    play(e, ["1:refuse_bank"])
    assert events(e, "bank") == []
    assert hand_starts(e) == [(1, 0, 1), (2, 0, 2)]
    assert e.refused == [False, False, False]
    assert e.chips == [960, 1020, 1020]


def test_bank_is_never_limited_to_three_hands():
    """RULES.md §5 max_bank_hands: only catalan limits it; spanish keeps the bank (streak 1..4)."""
    e = Engine(ESP, 3, 4)
    e.reset(seed=5, bank=0)
    for _ in range(4):                                # nobody hits: no 7½, no transfer
        play(e, ["1:bet_1", "1:stand", "2:bet_1", "2:stand", "0:stand"])
    assert hand_starts(e) == [(1, 0, 1), (2, 0, 2), (3, 0, 3), (4, 0, 4)]
    assert e.over and e.events[-1][:2] == ("over", 4)


def test_first_bank_is_drawn_at_random():
    """RULES.md §5 first_bank = random (ESP): by lot from the seed; no high-card deal."""
    banks = []
    for seed in range(12):
        e = Engine(ESP, 4, 1)
        e.reset(seed=seed)
        assert events(e, "high_card") == []
        assert events(e, "first_bank") == [(e.bank, "random")]
        banks.append(e.bank)
    assert banks == [2, 1, 1, 3, 3, 2, 3, 3, 1, 3, 1, 0]
    counts = Counter()
    for seed in range(400):
        e = Engine(ESP, 4, 1)
        e.reset(seed=seed)
        counts[e.bank] += 1
    assert sorted(counts) == [0, 1, 2, 3] and min(counts.values()) >= 70


# ---------------------------------------------------------------- §3 shoe
def test_every_hand_gathers_and_shuffles_all_cards():
    """RULES.md §3 reshuffle = every_hand (ESP): before each hand all 40 cards are shuffled."""
    e = start(ESP, 3, "5o 4c 2e 3b", bank=0, max_hands=2)
    play(e, ["1:bet_1", "1:stand", "2:bet_1", "2:stand", "0:hit", "0:stand"])
    i = hand_event_index(e, 2)
    assert hand_starts(e) == [(1, 0, 1), (2, 0, 2)]
    assert [ev[:3] for ev in e.events[i - 2:i]] == [("chips", [1020, 990, 990], 0),
                                                    ("shuffle", 40)]
    assert events(e, "shuffle") == [(40,), (40,)]
    assert e.discard == [] and len(e.draw_pile) == 37          # hand 2's deal is out
    in_play = [c for s in (1, 2) for c in hand_of(e, s).cards] + e.bank_hand.cards
    assert sorted(e.draw_pile + in_play) == list(range(40))
    assert e.seen == [0] * 10


# ------------------------------------------------------- §2 seats, episode
def test_broke_seat_sits_out_and_the_episode_ends_below_two_seats():
    """RULES.md §2: a seat below min_bet sits out; fewer than two seats able to play ends it."""
    e = start(ESP, 3, "4o 5c", bank=0, chips=[1000, 9, 10], max_hands=5)
    assert e.order == [2] and e.hands[1] == []
    assert [faces(hand_of(e, s)) for s in (2, 0)] == [["(4o)"], ["(5c)"]]
    assert legal_names(e) == ["bet_1"]
    play(e, ["2:bet_1", "2:stand", "0:stand"])        # 4 < 5: seat 2 loses its last 10
    assert e.over and e.hands_played == 1 and e.events[-1][:2] == ("over", 1)
    assert e.chips == [1010, 9, 0]
    assert [card_name(c) for s, c, _ in events(e, "card")] == ["4o", "5c"]
