"""Scripted-deck tests of RULES.md §8, the decisions on points the sources leave open.

Each test names its §8.N. Dealing (``tests/scripted.py``): one card to each
player in turn order, then the bank; every hit, Mort, fusilar or secret card
draws the next card of the list. Presets as in RULES.md §7 (1000 chips,
min_bet 10, max_bet 100, ladder 1, 2, 5, 10 unless a test changes them).
"""

from __future__ import annotations

import numpy as np
import pytest

from envs.cards import card_name
from envs.engine import BANK, BET, PLAY, SELL, SIDE_BET, TRANSFER
from envs.hands import FUSILAR, MORT, SECRET
from envs.observer import Observer
from envs.render import transcript
from envs.rules import Rules

from scripted import (events, faces, hand_of, hand_starts, legal_names, play, seat_view,
                      start)

CAT = Rules.preset("catalan")
HOUSE = Rules.preset("catalan_house")
SPF = Rules.preset("spanish_full")


# ------------------------------------------------------- §8.1 a 7½ that won
def test_s8_1_a_natural_beaten_by_the_bank_pair_of_sevens_does_not_take_the_bank():
    """RULES.md §8.1 (pagat_italian, mandatory): a player natural beaten by the bank's pair
    of sevens lost the hand, so it does not take the bank."""
    e = start("pagat_italian", 2, "7o 7c So 7e", bank=0, max_hands=2)
    play(e, ["1:bet_1", "1:hit", "0:hit"])            # 7 + ½ declared; bank 7 + 7
    assert events(e, "lose") == [(1, 10)] and events(e, "win") == []
    assert events(e, "bank") == [] and hand_starts(e)[-1] == (2, 0, 2)


def test_s8_1_a_natural_beaten_by_a_bank_natural_does_not_take_the_bank():
    """RULES.md §8.1 (italian, natural_only): the bank's natural beats the player's; the
    player's natural did not win, so the bank stays."""
    e = start("italian", 2, "7o 7b Rc Sb", bank=0, max_hands=2)
    play(e, ["1:bet_1", "1:hit", "0:hit"])            # 7 + R natural; bank 7 + S natural
    assert events(e, "lose") == [(1, 10)]
    assert events(e, "bank") == [] and hand_starts(e)[-1] == (2, 0, 2)


def test_s8_1_a_natural_beating_a_multicard_bank_seven_and_half_takes_the_bank():
    """RULES.md §8.1 (pagat_italian, natural_beats_bank_multicard = double): the natural
    beats the bank's 7½ of three cards, so it won the hand and takes the bank."""
    e = start("pagat_italian", 2, "7o 5b So 2b Sb", bank=0, max_hands=2)
    play(e, ["1:bet_1", "1:hit", "0:hit", "0:hit"])   # natural; bank 5 + 2 + ½
    assert events(e, "win") == [(1, 20, 20)]
    assert events(e, "bank") == [(1, "seven_and_half")] and hand_starts(e)[-1] == (2, 1, 1)


# ------------------------------------------- §8.2 max_bank_hands and coverage
# Three hands in which every player stands on its first card against the bank's 4.
STANDING_HANDS = "6o 2o 6c 4o  2c 6e 2e 4c  6b 2b 1o 4e"


def _three_standing_hands(chips: list[int]):
    e = start(CAT.replace(jackpot_ante=0), 4, STANDING_HANDS, bank=0, chips=chips,
              max_hands=4)
    for _ in range(3):
        play(e, ["1:bet_1", "2:bet_1", "3:bet_1", "1:stand", "2:stand", "3:stand",
                 "0:stand"])
    return e


def test_s8_2_the_holder_keeps_the_bank_with_an_honest_streak_when_nobody_else_can_cover():
    """RULES.md §8.2: after max_bank_hands (3) the bank passes to the next seat that can
    cover; when no other seat can (three players need 3 x 10 x 2 = 60 chips), the holder
    keeps it and its streak goes on counting, in the observation too."""
    e = _three_standing_hands([1000, 30, 30, 30])
    assert e.chips[1:] == [40, 20, 20]
    assert events(e, "bank") == []
    assert hand_starts(e)[-1] == (4, 0, 4)
    for observer in (0, 1):
        assert seat_view(e, observer, 0, "bank_streak")[0] == 4


def test_s8_2_the_bank_goes_to_the_next_seat_in_turn_order_that_can_cover():
    """RULES.md §8.2: seat 1 cannot cover, seat 2 can: the bank passes straight to seat 2."""
    e = _three_standing_hands([1000, 30, 1000, 30])
    assert events(e, "bank") == [(2, "max_bank_hands")]
    assert hand_starts(e)[-1] == (4, 2, 1)


# ------------------------------------------------------ §8.3 fusilar and right
def test_s8_3_a_winning_fusilar_seven_and_half_has_the_right_in_turn_order():
    """RULES.md §8.3 (spanish_full, right): seat 1's fusilar turns out 7½ (7 + S) and wins
    4x; it counts as reaching 7½ at its place in turn order, before seat 2's declared 7½,
    so seat 1 may claim the bank."""
    e = start(SPF, 3, "7o 5c 3e Sb 2o Sc 6b", bank=0, max_hands=2)
    play(e, ["1:pass", "2:pass", "1:fusilar", "1:bet_1"])
    assert hand_of(e, 1).special == FUSILAR
    play(e, ["2:bet_1", "2:hit", "2:hit", "0:hit"])   # 5 + 2 + ½ declared; bank 3 + 6 bust
    assert events(e, "win") == [(1, 40, 40), (2, 20, 20)]
    assert (e.phase, e.actor, legal_names(e)) == (TRANSFER, 1, ["refuse_bank", "claim_bank"])


# ------------------------------------------------ §8.4 forms from the cards
def test_s8_4_a_mort_of_seven_and_matta_is_a_triple():
    """RULES.md §8.4: a Mort (catalan_house) that ends as 7 + matta is a triplè: paid 3
    (more than the Mort natural's 2), and it takes the bank (mandatory here)."""
    rules = HOUSE.replace(wild_card="Ro", triple=True, bank_transfer="mandatory")
    e = start(rules, 2, "7o 5c Ro", bank=0, max_hands=2)
    play(e, ["1:bet_1", "1:mort"])
    assert hand_of(e, 1).special == MORT
    play(e, ["0:stand"])
    assert events(e, "win") == [(1, 30, 30)]
    assert events(e, "bank") == [(1, "triple")]


def test_s8_4_a_secret_three_ending_as_two_sevens_is_a_pair_of_sevens():
    """RULES.md §8.4: the secret pair (catalan_house) that ends as two 7s is a pair of
    sevens: not a bust, paid 3, and its holder takes the bank (mandatory here)."""
    rules = HOUSE.replace(pair_of_sevens=True, bank_transfer="mandatory")
    e = start(rules, 2, "3o 7c 7e 5b", bank=0, max_hands=2)
    play(e, ["1:bet_1"])
    assert hand_of(e, 1).special == SECRET
    play(e, ["1:stand", "0:stand"])
    assert events(e, "win") == [(1, 30, 30)] and events(e, "lose") == []
    assert events(e, "bank") == [(1, "pair_of_sevens")]


@pytest.mark.parametrize(("bank_cards", "paid"), [(["2o", "Sc"], 30), (["3c"], 40)],
                         ids=["bank-7.5-triple-pays-3", "bank-bust-fusilar-pays-4"])
def test_s8_4_a_fusilar_of_seven_and_matta_is_a_triple_and_the_higher_payout_is_paid(
        bank_cards, paid):
    """RULES.md §8.4: a fusilar (spanish_full) of 7 + matta is a triplè. Against a bank 7½
    the fusilar pays nothing but the triplè beats every bank hand (3x); against a busted
    bank both apply and the higher, the fusilar's 4x, is paid. Either way it takes the
    bank (the right to claim it)."""
    rules = SPF.replace(wild_card="Ro", triple=True)
    e = start(rules, 2, ["7o", "5c", "Ro"] + bank_cards, bank=0, max_hands=2)
    play(e, ["1:fusilar", "1:bet_1"] + ["0:hit"] * len(bank_cards))
    assert events(e, "win") == [(1, paid, paid)]
    assert (e.phase, e.actor, legal_names(e)) == (TRANSFER, 1, ["refuse_bank", "claim_bank"])


# ------------------------------------------------------- §8.5 abrirse
def test_s8_5_abrirse_exposes_the_opened_cards():
    """RULES.md §8.5 (spanish_full): opening shows the cards opened to the table — the
    initial face-down figure too (ESP: "they expose it")."""
    e = start(SPF, 2, "Sc 5b So", bank=0)
    play(e, ["1:bet_1", "1:hit"])
    assert faces(hand_of(e, 1)) == ["(Sc)", "So"]
    play(e, ["1:split", "1:bet_1"])
    assert [faces(h) for h in e.hands[1]] == [["Sc"], ["So"]]
    assert seat_view(e, 0, 1, "hidden")[0] == 0
    assert seat_view(e, 0, 1, "up_ranks")[7] == 2      # both sotas, seen by the bank


# ---------------------------------------------------- §8.6 player_choice
def test_s8_6_player_choice_hit_to_a_hand_without_a_face_down_card_comes_face_down():
    """RULES.md §8.6 (pagat_spanish): after a split the second hand holds one face-up card;
    a hit to it comes face down, the next one face up (never two face down)."""
    e = start("pagat_spanish", 2, "Sc 5b So 3c 2c", bank=0)
    play(e, ["1:bet_1", "1:hit", "1:split", "1:bet_1"])
    assert [faces(h) for h in e.hands[1]] == [["(Sc)"], ["So"]]
    play(e, ["1:stand", "1:hit"])
    assert faces(e.hands[1][1]) == ["So", "(3c)"]
    play(e, ["1:hit"])
    assert faces(e.hands[1][1]) == ["So", "(3c)", "2c"]


# -------------------------------------------- §8.7 an undeclared 7½ is a stand
def _public(e) -> list[str]:
    """The transcript as another seat may read it: face-down cards' names hidden."""
    lines = transcript(e.events).splitlines()
    out = []
    for line, event in zip(lines[1:], e.events[1:]):
        if event[0] == "card" and not event[3]:
            line = line.replace(card_name(event[2]), "##")
        out.append(line)
    return [f"reset {e.events[0][3]}"] + out


def _watch(rules: Rules, first_card: str) -> tuple[list[np.ndarray], list[str]]:
    """Seat 1 holds ``first_card`` face down and takes 2o and Sc face up, then stands;
    the other seats' observations after every step until the bank's turn, and the
    public transcript."""
    e = start(rules, 3, [first_card, "6c", "3e", "2o", "Sc"], bank=0)
    seen = []
    for step in ["1:bet_1", "2:bet_1", "1:hit", "1:hit", "1:stand", "2:stand"]:
        play(e, [step])
        seen += [Observer(e).observe(s) for s in (0, 2)]
    assert e.phase == BANK
    return seen, _public(e)


def test_s8_7_an_undeclared_seven_and_half_looks_exactly_like_a_stand():
    """RULES.md §8.7 (catalan): 5 (face down) + 2 + ½ = 7½ and 4 + 2 + ½ = 6½ standing give
    the other seats the same observations at every step, the same public events and the
    same transcript lines: reaching 7½ leaves the player only ``stand``, its own action."""
    seven_half, public_a = _watch(CAT, "5o")
    six_half, public_b = _watch(CAT, "4o")
    assert all(np.array_equal(a, b) for a, b in zip(seven_half, six_half))
    assert public_a == public_b and "seat 1: stand" in public_a
    # control: with the declaration switch (pagat) the 7½ is shown at once
    views = []
    for first_card in ("5o", "4o"):
        e = start("pagat", 3, [first_card, "6c", "3e", "2o", "Sc"], bank=0)
        play(e, ["1:bet_1", "2:bet_1", "1:hit", "1:hit"])
        views.append(Observer(e).observe(2))
    assert not np.array_equal(*views)


def test_s8_7_at_seven_and_half_only_stand_is_legal():
    """RULES.md §8.7 with §4.5 and §2 bet_raise (spanish): at an undeclared 7½ the turn
    ends — no hit, no raise; the stand is the player's own action in the log."""
    e = start("spanish", 2, "5o 4e 2c Sc", bank=0)
    play(e, ["1:bet_1", "1:hit", "1:hit"])
    assert (e.phase, e.actor, legal_names(e)) == (PLAY, 1, ["stand"])
    play(e, ["1:stand"])
    assert events(e, "action")[-1] == (1, "stand") and e.phase == BANK


# ------------------------------------------ §8.8 decisions that change nothing
@pytest.mark.parametrize("preset", ["catalan", "spanish"])
def test_s8_8_no_bank_offer_or_claim_on_the_last_hand(preset):
    """RULES.md §8.8: on the episode's last hand a natural is not offered the bank (catalan,
    offer) nor asked to claim it (spanish, right): the episode just ends."""
    e = start(preset, 2, "7o 3c So", bank=0, max_hands=1)
    play(e, ["1:bet_1", "1:hit", "1:stand", "0:stand"])
    assert events(e, "win")[0][0] == 1
    assert e.over and events(e, "bank") == []


def test_s8_8_no_bank_sale_on_the_last_hand():
    """RULES.md §8.8 (spanish_full, bank_sale): the bank is not asked to sell on the last
    hand; on an earlier hand it is."""
    for max_hands, asked in ((2, True), (1, False)):
        e = start(SPF, 2, "5o 6c", bank=0, max_hands=max_hands)
        play(e, ["1:bet_1", "1:stand", "0:stand"])
        assert (e.phase == SELL, e.over) == (asked, not asked)


def test_s8_8_the_bank_is_not_offered_to_a_seat_that_cannot_cover():
    """RULES.md §8.8 (catalan, bank_min_cover): seat 1's natural leaves it 36 chips, short of
    the 2 players x 10 x 2 = 40 that holding the bank needs; it is not offered the bank,
    which stays with seat 0 (it does not skip on to seat 2)."""
    e = start(CAT, 3, "7o 5c 3e So", bank=0, chips=[1000, 15, 1000], max_hands=2)
    play(e, ["1:bet_1", "2:bet_1", "1:hit", "1:stand", "2:stand", "0:stand"])
    assert events(e, "win")[0] == (1, 20, 20) and events(e, "jackpot") == [(1, 2)]
    assert e.hand_start_chips[1] == 36                 # after hand 1, before hand 2's ante
    assert events(e, "bank") == [] and hand_starts(e)[-1] == (2, 0, 2)
    assert all(name != "take_bank" for _seat, name in events(e, "action"))


# --------------------------------------------------- §8.9 stakes, sitting out
def test_s8_9_after_a_raise_a_split_is_offered_only_with_a_legal_second_stake():
    """RULES.md §8.9 (pagat_spanish + bet_raise, the issue's deadlock): 10 + a raise of 50
    makes the stake 60; the second stake must be 60..min(max_bet, chips) from the ladder
    (10, 20, 50, 100). With 70 chips left none fits, so no split is offered; with 140
    left only 100 does."""
    rules = Rules.preset("pagat_spanish").replace(bet_raise=True)
    e = start(rules, 2, "So 5e Sc", bank=1, chips=[130, 15])
    play(e, ["0:bet_1", "0:raise_5", "0:hit"])
    assert e.chips[0] == 70 and "split" not in legal_names(e)
    e = start(rules, 2, "So 5e Sc", bank=1, chips=[200, 15])
    play(e, ["0:bet_1", "0:raise_5", "0:hit", "0:split"])
    assert (e.phase, legal_names(e)) == (BET, ["bet_10"])


def test_s8_9_a_seat_that_cannot_afford_the_first_ladder_step_sits_out():
    """RULES.md §8.9 (catalan, bet_ladder = [2, 5]): the smallest stake is 20 chips, so a
    seat needs 20 + the ante of 1 to be dealt in; 15 chips sit out, 21 play."""
    rules = CAT.replace(bet_ladder=(2, 5))
    e = start(rules, 4, "1o 2o 3o 4o", bank=3, chips=[15, 21, 500, 500])
    assert e.order == [1, 2]
    assert (e.phase, e.actor, legal_names(e)) == (BET, 1, ["bet_2"])


def test_s8_9_abrirse_is_offered_only_when_a_stake_for_the_new_hand_fits():
    """RULES.md §8.9 (spanish + abrirse, bet_ladder = [2, 5]): two sotas may open, but the
    new hand needs a stake of at least 20: with 10 chips left after the bet no opening is
    offered, with 20 left it is and asks for 20."""
    rules = Rules.preset("spanish").replace(split_rule="abrirse", bet_ladder=(2, 5))
    for chips, offered in ((30, False), (40, True)):
        e = start(rules, 2, "Sc 5b So", bank=0, chips=[1000, chips])
        play(e, ["1:bet_2", "1:hit"])
        assert ("split" in legal_names(e)) is offered
        if offered:
            play(e, ["1:split"])
            assert legal_names(e) == ["bet_2"]


def test_s8_9_on_turn_side_bets_keep_the_smallest_stake_for_the_own_hand():
    """RULES.md §8.9 (spanish_full, bets on the turn, bet_ladder = [2, 5]): a side bet must
    leave the bettor the 20 chips of its own stake to come: with 35 chips seat 1 may only
    pass, then bets 20 on its own hand."""
    rules = SPF.replace(bet_ladder=(2, 5))
    e = start(rules, 3, "5o 6c 2e", bank=0, chips=[1000, 35, 1000])
    assert (e.phase, e.actor, legal_names(e)) == (SIDE_BET, 1, ["pass"])
    play(e, ["1:pass"])
    assert "side_bet_2_2" in legal_names(e)            # seat 2 holds plenty
    play(e, ["2:pass"])
    assert (e.phase, e.actor, legal_names(e)) == (BET, 1, ["bet_2"])
