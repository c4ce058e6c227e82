"""The compiled engine's rulebook twins (envs/batch/kernels_rulebook.py) equal the rulebook.

"Scoring and settlement come from the one rulebook, or the test makes
divergence impossible to land" (issue 13): each numba twin is held to its
scalar function of :mod:`envs.rulebook` over every input that matters —
every total a hand can have (a bust stands for all busts), one, two and
three or more cards, every special form and route, every preset's switches.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from envs import rulebook as rb
from envs.batch import kernels_rulebook as twin
from envs.cards import DECK_SIZE, parse_card
from envs.hands import (BUST, DECLARED, FUSILAR, MORT, NONE, PAIR_OF_SEVENS, PLAYING, SECRET,
                        STOOD, TRIPLE, best_total)
from envs.rules import PRESETS, Rules

TOTALS = range(1, 18)  # 16 and 17 stand for every bust
COUNTS = range(1, 4)  # a natural is two cards, a bank 7½ of three or more (§4.7)
SPECIALS = (NONE, PAIR_OF_SEVENS, TRIPLE, MORT, FUSILAR, SECRET)
FORMS = (NONE, PAIR_OF_SEVENS, TRIPLE)
VARIANTS = {**PRESETS,
            "natural_single": PRESETS["pagat"].replace(natural_beats_bank_multicard="single"),
            "pays_3": PRESETS["catalan"].replace(natural_pays=3, any_seven_and_half_pays=True),
            "no_cover": PRESETS["catalan"].replace(bank_min_cover=False)}


def both(rules: Rules) -> tuple[rb.RuleSwitches, np.ndarray]:
    return rb.RuleSwitches(rules), twin.pack_rules(rules)


def test_best_total_over_every_base_and_wild_count():
    """RULES.md §1 the matta, up to three wild cards (three decks)."""
    for base, wilds in itertools.product(range(0, 31), range(0, 4)):
        assert twin.best_total(base, wilds) == best_total(base, wilds), (base, wilds)


@pytest.mark.parametrize("wild", ["none", "Ro", "Sc"])
def test_hand_form_over_every_pair_of_cards(wild):
    """RULES.md §4.8, §8.4, with and without each switch."""
    code = -1 if wild == "none" else parse_card(wild)
    for first, second in itertools.product(range(DECK_SIZE), repeat=2):
        for pair, triple in itertools.product((False, True), repeat=2):
            assert twin.hand_form(2, first, second, code, pair, triple) == \
                rb.hand_form([first, second], code, pair, triple)
        assert twin.hand_form(1, first, second, code, True, True) == \
            rb.hand_form([first], code, True, True)
        assert twin.hand_form(3, first, second, code, True, True) == \
            rb.hand_form([first, second, 0], code, True, True)


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_who_wins_and_what_is_paid(name):
    """RULES.md §4.7, §4.8, §6: ``winning_multiple`` (and ``route_multiple``,
    ``payout_multiple``) over totals, card counts, routes, forms and the bank's hand."""
    r, packed = both(VARIANTS[name])
    for total, count, special in itertools.product(TOTALS, COUNTS, SPECIALS):
        assert twin.payout_multiple(packed, total, count) == rb.payout_multiple(r, total, count)
        for bank_total, bank_count, bank_pair in itertools.product(TOTALS, COUNTS,
                                                                   (False, True)):
            assert twin.route_multiple(packed, total, count, special, bank_total, bank_count,
                                       bank_pair) == \
                rb.route_multiple(r, total, count, special, bank_total, bank_count, bank_pair)
            for form in FORMS:
                assert twin.winning_multiple(packed, total, count, special, form, bank_total,
                                             bank_count, bank_pair) == \
                    rb.winning_multiple(r, total, count, special, form, bank_total,
                                        bank_count, bank_pair)


def test_coverage_jackpot_faces_and_the_chase():
    """RULES.md §4.8 coverage, §4.9 the jackpot, §4.3 faces, §4.6 the chase."""
    for multiple, stake, chips in itertools.product(range(0, 5), (10, 20, 50), range(0, 120, 7)):
        assert twin.covered_pay(multiple, stake, chips) == rb.covered_pay(multiple, stake, chips)
    for total, count, special, bank_total in itertools.product(TOTALS, COUNTS, SPECIALS, TOTALS):
        assert twin.wins_jackpot(total, count, special, bank_total) == \
            rb.wins_jackpot(total, count, special, bank_total)
    for hidden, held in itertools.product(twin.CHOICES["hidden_cards"], range(3)):
        code = twin.CHOICES["hidden_cards"].index(hidden)
        assert twin.hit_face_up(code, held) == rb.hit_face_up(hidden, held)
    for special, status, chase in itertools.product(SPECIALS, (PLAYING, STOOD, BUST, DECLARED),
                                                    (False, True)):
        assert twin.forces_chase(special, status, chase) == rb.forces_chase(special, status,
                                                                           chase)


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_the_bank_seat_and_stakes(name):
    """RULES.md §5 who earns and who can hold the bank, §6 splits, §8.9 stakes."""
    rules = VARIANTS[name]
    r, packed = both(rules)
    ladder = np.array(rules.bet_ladder, dtype=np.int64)
    kind = twin.CHOICES["bank_transfer"].index(rules.bank_transfer)
    for form, multiple, total, count in itertools.product(FORMS, range(0, 5), TOTALS, COUNTS):
        assert twin.qualifies_for_bank(kind, form, multiple, total, count) == \
            rb.qualifies_for_bank(rules.bank_transfer, form, multiple, total, count)
    for players in range(0, 16):
        assert twin.bank_cover(packed, players) == rb.bank_cover(r, players)
    assert twin.seat_need(packed[twin.R_SMALLEST_STAKE], packed[twin.R_JACKPOT_ANTE]) == \
        rb.seat_need(r.smallest_stake, r.jackpot_ante)
    for stake in (10, 20, 30, 50, 100):
        assert twin.split_floor(packed, stake) == rb.split_floor(r, stake)
        for low, high in itertools.product(range(0, 120, 10), range(0, 120, 10)):
            assert twin.stake_on_offer(packed, ladder, low, high) == \
                rb.stake_on_offer(r, low, high)


@pytest.mark.parametrize("split_rule", ["none", "two_figures_once", "two_figures_unlimited"])
def test_may_split(split_rule):
    """RULES.md §6 split, §8.9, over every pair of cards and the stakes around the chips held."""
    rules = PRESETS["pagat"].replace(split_rule=split_rule)
    r, packed = both(rules)
    ladder = np.array(rules.bet_ladder, dtype=np.int64)
    cards = [parse_card(c) for c in ("Ro", "Sc", "Ce", "1b", "7o")]
    for first, second in itertools.product(cards, repeat=2):
        for special, doubled, opened, chips, stake in itertools.product(
                (NONE, TRIPLE), (False, True), (0, 1), (0, 10, 20, 60, 500), (10, 20, 50)):
            assert twin.may_split(packed, ladder, 2, first, second, special, doubled, opened,
                                  chips, stake) == \
                rb.may_split(r, [first, second], special, doubled, opened, 3, chips, stake)
        assert twin.may_split(packed, ladder, 1, first, second, NONE, False, 0, 500, 10) == \
            rb.may_split(r, [first], NONE, False, 0, 3, 500, 10)
