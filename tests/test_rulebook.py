"""The rulebook's named rules (envs/rulebook.py), one table per RULES.md section.

Each row is a hand a player would recognise — cards by name, the preset it
is played under — and what the rule says of it. A last block holds the
rulebook to the engine: the tie rule and the payouts it computes are the
chips a scripted hand moves.
"""

from __future__ import annotations

import numpy as np
import pytest

from envs import rulebook as rb
from envs.cards import parse_card, parse_cards
from envs.engine import PLAY, as_index
from envs.hands import (DECLARED, FUSILAR, MORT, NONE, PAIR_OF_SEVENS, STOOD, TRIPLE)
from envs.rules import PRESETS, Rules

from scripted import events, play, start


def switches(preset: str) -> rb.RuleSwitches:
    return rb.RuleSwitches(Rules.preset(preset))


def wild_of(preset: str) -> int:
    wild = Rules.preset(preset).wild_card
    return -1 if wild == "none" else parse_card(wild)


def multiple(preset: str, player: str, bank: str, special: int = NONE) -> int:
    """What the rulebook pays ``player``'s cards against ``bank``'s under ``preset`` (0: bank wins)."""
    r = switches(preset)
    wild = wild_of(preset)
    p, b = parse_cards(player), parse_cards(bank)
    bank_pair = r.pair_of_sevens and rb.is_pair_of_sevens(b)
    form = rb.hand_form(p, wild, r.pair_of_sevens, r.triple)
    return rb.winning_multiple(r, rb.score(p, wild), len(p), special, form,
                               rb.score(b, wild), len(b), bank_pair)


# ------------------------------------------------------------ §1 scoring, the matta
@pytest.mark.parametrize("cards, wild, total", [
    ("7o Sc", "none", 15),        # 7½, a natural
    ("Sc Co Re", "none", 3),      # three figures: 1½
    ("7o 5c", "none", 24),        # 12: bust
    ("Ro", "Ro", 14),             # the matta alone counts 7
    ("Ro 7c", "Ro", 15),          # a 7 and the matta: ½ makes 7½
    ("Ro 3c", "Ro", 14),          # 3 and the matta as 4: 7 (7½ cannot be made)
    ("5o 2c Ro", "Ro", 15),       # 7 and the matta as ½
    ("7o 5c Ro", "Ro", 25),       # every choice busts: the lowest, ½
])
def test_score_counts_the_matta_at_its_best_value(cards, wild, total):
    """RULES.md §1: each wild card counts ½ or 1–7; the best total not above 7½, else the lowest."""
    code = -1 if wild == "none" else parse_card(wild)
    assert rb.score(parse_cards(cards), code) == total
    assert rb.score(tuple(parse_cards(cards)), code) == total   # a tuple of cards too


@pytest.mark.parametrize("total, cards, natural", [
    (15, 2, True), (15, 3, False), (14, 2, False), (15, 1, False)])
def test_a_natural_is_two_cards_totalling_seven_and_a_half(total, cards, natural):
    """RULES.md §1."""
    assert rb.is_natural(total, cards) is natural


# ------------------------------------------------------------ §4.3 / §8.6 faces
@pytest.mark.parametrize("hidden_cards, face_down_held, face_up", [
    ("first_only", 1, True), ("first_only", 0, True),
    ("alternate", 1, True), ("alternate", 0, False),        # after a split: face down
    ("player_choice", 1, True), ("player_choice", 0, False),  # after a reveal: face down
])
def test_face_of_the_next_card(hidden_cards, face_down_held, face_up):
    """RULES.md §4.3, §8.6: a hand keeps at most one face-down card."""
    assert rb.hit_face_up(hidden_cards, face_down_held) is face_up


# ------------------------------------------------------------ §4.6 the bank must chase
@pytest.mark.parametrize("special, status, chase_declared, forced", [
    (FUSILAR, STOOD, False, True),      # §6: a live fusilar, always
    (NONE, DECLARED, True, True),       # §4.6 bank_must_chase_declared
    (NONE, DECLARED, False, False),
    (NONE, STOOD, True, False),         # an undeclared 7½ looks like a stand (§8.7)
])
def test_what_makes_the_bank_chase(special, status, chase_declared, forced):
    assert rb.forces_chase(special, status, chase_declared) is forced


# ------------------------------------------------------------ §4.7 who wins, ties
@pytest.mark.parametrize("preset, player, bank, paid", [
    ("catalan", "5o 2c", "5c 2o", 0),          # 7 against 7: the bank wins ties
    ("pagat", "Sc Ro", "Se Rb", 0),            # 1 against 1: the bank wins ties
    ("catalan", "6o", "5o", 1),                # higher total wins 1:1
    ("catalan", "5o", "6o", 0),
    ("catalan", "7o Sc", "7c Se", 0),          # natural against natural: a tie
    ("catalan", "7o Sc", "5o 2c Sb", 0),       # natural_beats_bank_multicard off
    ("pagat_italian", "7o Sc", "5o 2c Sb", 2),  # double: the natural beats it, paid 2
    ("italian", "7o Sc", "5o 2c Sb", 1),       # single (ITA reale): paid 1:1
    ("pagat_italian", "3o 4c Sb", "5o 2c Sb", 0),  # a 3-card 7½ is no natural
    ("catalan", "7o 5c", "7c 6o", 0),          # §4.4 a bust loses, the bank's bust too
    ("catalan", "4o", "7c 6o", 1),             # the bank busts: the player wins
])
def test_who_wins_a_hand(preset, player, bank, paid):
    """RULES.md §4.7 (the tie rule is ``player_beats_bank``)."""
    assert multiple(preset, player, bank) == paid


@pytest.mark.parametrize("player_total, bank_total, wins", [
    (14, 14, False), (14, 13, True), (1, 1, False), (2, 1, True), (13, 14, False)])
def test_the_tie_rule_is_one_line(player_total, bank_total, wins):
    """RULES.md §4.7: the bank wins ties."""
    assert rb.player_beats_bank(player_total, bank_total) is wins


# ------------------------------------------------------------ §4.8 payouts, specials
@pytest.mark.parametrize("preset, player, bank, special, paid", [
    ("catalan", "7o Sc", "7c 6o", NONE, 2),        # natural_pays, against a bust bank too
    ("pagat", "7o Sc", "7c 6o", NONE, 1),          # natural_pays = 1
    ("catalan", "3o 4c Sb", "6o", NONE, 1),        # a 3-card 7½ pays 1:1 …
    ("spanish", "3o 4c Sb", "6o", NONE, 2),        # … but every 7½ pays 2 in spanish
    ("pagat_italian", "7o 7c", "7e Sc", NONE, 3),  # pair of sevens beats a bank 7½
    ("pagat_italian", "7o 7c", "7e 7b", NONE, 0),  # pair against pair: the bank wins
    ("pagat_italian", "7o Sc", "7e 7b", NONE, 0),  # the bank's pair beats every hand
    ("pagat", "7o 7c", "6o", NONE, 0),             # no pair_of_sevens switch: a bust
    ("italian", "7o Ro", "7e Sc", NONE, 3),        # triplè beats every bank hand
    ("catalan", "7o Sc", "6o", MORT, 2),           # a Mort of 7½ is a natural
    ("catalan", "7o 2c", "7c 6o", MORT, 0),        # a Mort that is not 7½ loses
    ("spanish_full", "7o Sc", "6o", FUSILAR, 4),   # §6 fusilar: 7½ pays 4 …
    ("spanish_full", "7o Sc", "7e Sb", FUSILAR, 0),  # … unless the bank makes 7½
    ("spanish_full", "7o 2c", "7c 6o", FUSILAR, 0),  # anything else loses
])
def test_payouts_and_special_hands(preset, player, bank, special, paid):
    """RULES.md §4.8, §6, §8.4."""
    assert multiple(preset, player, bank, special) == paid


@pytest.mark.parametrize("cards, pair_switch, triple_switch, form", [
    ("7o 7c", True, False, PAIR_OF_SEVENS),
    ("7o 7c", False, False, NONE),
    ("7o Ro", False, True, TRIPLE),
    ("Ro 7b", False, True, TRIPLE),
    ("7o Ro", False, False, NONE),
    ("7o Ro 1c", False, True, NONE),      # three cards: no form
    ("6o Ro", False, True, NONE),
    ("7o 7c 7e", True, True, NONE),
])
def test_special_form_from_the_cards(cards, pair_switch, triple_switch, form):
    """RULES.md §4.8, §8.4: the form comes from the cards alone (wild card: Ro)."""
    assert rb.hand_form(parse_cards(cards), parse_card("Ro"), pair_switch, triple_switch) == form


@pytest.mark.parametrize("preset, largest", [
    ("catalan", 2), ("pagat", 1), ("pagat_italian", 3), ("italian", 3), ("spanish_full", 4)])
def test_largest_payout_multiple(preset, largest):
    """RULES.md §5 bank_min_cover reads the largest multiple a stake may be paid."""
    rules = Rules.preset(preset)
    assert rb.largest_multiple(rules.natural_pays, rules.triple, rules.pair_of_sevens,
                               rules.fusilar) == largest == rules.max_payout_multiple


@pytest.mark.parametrize("paid, stake, bank_chips, pay", [
    (1, 10, 100, 10), (2, 10, 100, 20), (2, 10, 15, 15), (3, 20, 0, 0)])
def test_coverage_the_bank_pays_what_it_holds(paid, stake, bank_chips, pay):
    """RULES.md §4.8 coverage: never more than the bank holds."""
    assert rb.covered_pay(paid, stake, bank_chips) == pay


# ------------------------------------------------------------ §4.9 jackpot
@pytest.mark.parametrize("total, cards, special, bank_total, takes", [
    (15, 2, NONE, 14, True),
    (15, 2, NONE, 24, True),      # even when the bank busts
    (15, 2, NONE, 15, False),     # unless the bank made 7½
    (15, 3, NONE, 14, False),     # a 3-card 7½ is no natural
    (15, 2, MORT, 14, True),      # a Mort that ends in 7½ counts
    (15, 2, FUSILAR, 14, False),
])
def test_jackpot(total, cards, special, bank_total, takes):
    assert rb.wins_jackpot(total, cards, special, bank_total) is takes


# ------------------------------------------------------------ §5 / §8.1 the bank
@pytest.mark.parametrize("transfer, form, paid, total, cards, takes", [
    ("offer", NONE, 2, 15, 2, True),              # a winning natural
    ("offer", NONE, 1, 15, 3, True),              # a winning 3-card 7½
    ("offer", NONE, 0, 15, 2, False),             # §8.1 a 7½ that lost does not
    ("offer", NONE, 1, 14, 2, False),             # a win with 7 does not
    ("natural_only", NONE, 1, 15, 3, False),
    ("natural_only", NONE, 2, 15, 2, True),
    ("mandatory", PAIR_OF_SEVENS, 0, 28, 2, True),  # §8.4 a pair, won or not
    ("natural_only", TRIPLE, 3, 15, 2, True),
    ("right", NONE, 4, 15, 2, True),              # §8.3 a winning fusilar of 7½
])
def test_who_earns_the_bank(transfer, form, paid, total, cards, takes):
    assert rb.qualifies_for_bank(transfer, form, paid, total, cards) is takes


@pytest.mark.parametrize("preset, players, chips", [
    ("catalan", 3, 60),       # bank_min_cover: 3 players x 10 x the largest multiple 2
    ("catalan", 1, 20),
    ("pagat", 3, 10),         # without it: one min_bet
])
def test_chips_to_hold_the_bank(preset, players, chips):
    assert rb.bank_cover(switches(preset), players) == chips


# ------------------------------------------------------------ §6 split / abrirse
@pytest.mark.parametrize("preset, cards, opened, players, chips, stake, splits", [
    ("catalan_house", "Sc Ro", 0, 2, 100, 10, True),    # two figures, once
    ("catalan_house", "Sc Ro", 1, 2, 100, 10, False),
    ("catalan_house", "Sc Ro", 0, 2, 5, 10, False),     # cannot match the stake
    ("catalan_house", "Sc 3o", 0, 2, 100, 10, False),
    ("catalan", "Sc Ro", 0, 2, 100, 10, False),         # split_rule none
    ("pagat_spanish", "Sc Ro", 2, 2, 100, 10, True),    # unlimited
    ("pagat_spanish", "Sc Ro", 0, 2, 50, 100, False),   # second stake >= 100: not held
    ("spanish_full", "3o 3c", 0, 2, 100, 10, True),     # abrirse: one value
    ("spanish_full", "3o 3c 3e", 2, 3, 100, 10, True),
    ("spanish_full", "Sc Ro", 0, 2, 100, 10, True),     # two figures are one value (½)
    ("spanish_full", "3o 4c", 0, 2, 100, 10, False),
    ("spanish_full", "3o 3c", 1, 4, 100, 10, False),    # once with 4-5 players
    ("spanish_full", "3o 3c", 0, 6, 100, 10, False),    # never with more
    ("spanish_full", "3o 3c", 0, 2, 5, 10, False),      # no stake on offer (§8.9)
])
def test_split_and_abrirse_eligibility(preset, cards, opened, players, chips, stake, splits):
    """RULES.md §6 split_rule, §8.9."""
    assert rb.may_split(switches(preset), parse_cards(cards), NONE, False, opened, players,
                        chips, stake) is splits


@pytest.mark.parametrize("special, doubled", [(MORT, False), (NONE, True)])
def test_a_special_or_doubled_hand_never_splits(special, doubled):
    assert not rb.may_split(switches("pagat_spanish"), parse_cards("Sc Ro"), special, doubled,
                            0, 2, 100, 10)


@pytest.mark.parametrize("players, limit", [(1, 3), (3, 3), (4, 1), (5, 1), (6, 0)])
def test_abrirse_limit(players, limit):
    assert rb.abrirse_limit(players) == limit


@pytest.mark.parametrize("preset, stake, floor", [
    ("pagat_spanish", 20, 20),     # at least the first stake
    ("spanish_full", 20, 10),      # abrirse: any stake on offer
])
def test_split_floor(preset, stake, floor):
    assert rb.split_floor(switches(preset), stake) == floor


# ------------------------------------------------------------ §8.9 stakes, the seat need
@pytest.mark.parametrize("low, high, offered", [
    (10, 15, True), (11, 19, False), (60, 99, False), (100, 100, True), (1, 9, False)])
def test_stakes_on_offer_are_ladder_steps(low, high, offered):
    """RULES.md §8.9: catalan's ladder is 10, 20, 50, 100 chips."""
    assert rb.stake_on_offer(switches("catalan"), low, high) is offered


@pytest.mark.parametrize("preset, need", [("catalan", 11), ("pagat", 10)])
def test_seat_need(preset, need):
    """RULES.md §8.9: the smallest stake, and the jackpot ante (catalan: 1)."""
    rules = Rules.preset(preset)
    assert rb.seat_need(rules.smallest_stake, rules.jackpot_ante) == need


# ------------------------------------------------------------ the index helper
@pytest.mark.parametrize("value, index", [
    (3, 3), (np.int64(3), 3), (np.uint8(2), 2), (np.array(4), 4), (0, 0),
    (-1, -1), (np.int32(-2), -1), (True, -1), (np.bool_(True), -1), (np.array(True), -1),
    (1.0, -1), (np.float64(2.0), -1), (np.array([1]), -1), (np.array(1.0), -1), ("1", -1),
    (None, -1)])
def test_as_index_reads_a_clients_index(value, index):
    """One reading of an index for the engine, the observer and the views."""
    assert as_index(value) == index


def test_a_zero_d_array_is_an_action():
    e = start("pagat", 2, "5o 4c", bank=0)
    action = e.layout.index("bet_1")
    e.step(np.array(action))
    assert events(e, "bet") == [(1, 10, 0)]


# ------------------------------------------------------------ the engine follows the book
@pytest.mark.parametrize("preset, deck, player, bank", [
    # deck: the player's card, the bank's, then the player's hits, then the bank's
    ("pagat", "5o 5c 2c 2o", "5o 2c", "5c 2o"),            # 7 against 7: the bank wins
    ("pagat", "5o 5c 2c 1o", "5o 2c", "5c 1o"),            # 7 against 6
    ("pagat_italian", "7o 7c 7e", "7o 7e", "7c"),          # a pair of sevens, paid 3
    ("catalan", "7o 4c Sc 3o", "7o Sc", "4c 3o"),          # a natural, paid 2
])
def test_the_engine_pays_what_the_rulebook_says(preset, deck, player, bank):
    """A scripted hand heads-up (bank seat 0): the player's chips move by the rulebook's multiple."""
    e = start(preset, 2, deck, bank=0)
    script = ["1:bet_1"] + ["1:hit"] * (len(player.split()) - 1)
    play(e, script)
    if e.phase == PLAY:               # not declared at 7½, nor ended by a special
        play(e, ["1:stand"])
    while not e.over and e.actor == 0 and len(e.bank_hand.cards) < len(bank.split()):
        play(e, ["0:hit"])
    if not e.over and e.actor == 0:
        play(e, ["0:stand"])
    assert e.over and e.hands_played == 1
    paid = multiple(preset, player, bank)
    stake = Rules.preset(preset).min_bet
    won = [ev[1] for ev in events(e, "win")]
    assert won == ([paid * stake] if paid else [])
