"""The rulebook's functions as numba twins, for the compiled batch engine.

Each function here is the twin of the one of the same name in
:mod:`envs.rulebook` (or :mod:`envs.hands`), on the same plain values: totals
in half points (7½ = 15), card counts, card codes, a hand's special form.
Where the scalar function reads a switch of its
:class:`~envs.rulebook.RuleSwitches`, the twin reads it from the rules vector
``r`` (:func:`pack_rules`: one int64 per switch, named ``R_*``; strings as
the index of their value among the switch's choices). The compiled engine
calls only these for scoring and settlement; ``tests/test_batch_rulebook.py``
holds every twin to its scalar function over all its inputs, so the two
rulebooks cannot diverge.
"""

from __future__ import annotations

from typing import Final

import numpy as np

from envs.batch.table_jit import table_jit

from envs.cards import HALF_POINTS, SEVEN_AND_HALF, parse_card
from envs.hands import DECLARED, FUSILAR, MORT, NONE, PAIR_OF_SEVENS, TRIPLE
from envs.rulebook import FUSILAR_PAYS, SPECIAL_PAYS
from envs.rules import Rules


__all__ = ["CHOICES", "R_SIZE", "pack_rules", "best_total", "hand_form", "payout_multiple",
           "route_multiple", "winning_multiple", "covered_pay", "wins_jackpot", "hit_face_up",
           "forces_chase", "split_floor", "stake_on_offer", "may_split", "qualifies_for_bank",
           "bank_cover", "seat_need", "is_figure", "card_points"]

# The rules vector: one entry per switch the game logic reads.
R_DECKS: Final = 0
R_WILD: Final = 1
R_STARTING_CHIPS: Final = 2
R_MIN_BET: Final = 3
R_MAX_BET: Final = 4
R_SMALLEST_STAKE: Final = 5
R_BET_TIMING: Final = 6
R_BET_RAISE: Final = 7
R_RESHUFFLE: Final = 8
R_HIDDEN_CARDS: Final = 9
R_DECLARE: Final = 10
R_CHASE_DECLARED: Final = 11
R_NATURAL_MULTICARD: Final = 12
R_NATURAL_PAYS: Final = 13
R_ANY_SEVEN_AND_HALF_PAYS: Final = 14
R_TRIPLE: Final = 15
R_PAIR_OF_SEVENS: Final = 16
R_JACKPOT_ANTE: Final = 17
R_FIRST_BANK: Final = 18
R_BANK_TRANSFER: Final = 19
R_MAX_BANK_HANDS: Final = 20
R_BANK_MIN_COVER: Final = 21
R_MAX_PAYOUT_MULTIPLE: Final = 22
R_DOUBLE: Final = 23
R_SPLIT_RULE: Final = 24
R_CHANGE_FOUR: Final = 25
R_SECRET_THREE: Final = 26
R_MORT: Final = 27
R_SIZE: Final = 28

CHOICES: Final[dict[str, tuple[str, ...]]] = {
    "bet_timing": ("before_deal", "on_turn"),
    "reshuffle": ("when_empty", "every_hand"),
    "hidden_cards": ("alternate", "first_only", "player_choice"),
    "natural_beats_bank_multicard": ("off", "double", "single"),
    "first_bank": ("high_card", "random", "auction"),
    "bank_transfer": ("offer", "mandatory", "right", "natural_only", "none"),
    "split_rule": ("none", "two_figures_once", "two_figures_unlimited", "abrirse"),
    "change_four": ("off", "forced", "optional"),
}
"""A string switch's value is stored as its index here (the order of :mod:`envs.rules`' choices)."""

ON_TURN: Final = 1
EVERY_HAND: Final = 1
FIRST_ONLY: Final = 1
PLAYER_CHOICE: Final = 2
MULTICARD_OFF: Final = 0
MULTICARD_DOUBLE: Final = 1
HIGH_CARD: Final = 0
OFFER: Final = 0
MANDATORY: Final = 1
RIGHT: Final = 2
NATURAL_ONLY: Final = 3
TRANSFER_NONE: Final = 4
SPLIT_NONE: Final = 0
SPLIT_ONCE: Final = 1
SPLIT_UNLIMITED: Final = 2
SPLIT_ABRIRSE: Final = 3
FOUR_FORCED: Final = 1

_HALF_POINTS = np.array(HALF_POINTS, dtype=np.int64)
_WILD_VALUES = np.array((1, 2, 4, 6, 8, 10, 12, 14), dtype=np.int64)
_SEVEN_RANK: Final = 6
_NUM_RANKS: Final = 10


def pack_rules(rules: Rules) -> np.ndarray:
    """The rules vector ``r`` of ``rules`` (int64, :data:`R_SIZE` entries)."""
    r = np.zeros(R_SIZE, dtype=np.int64)
    r[R_DECKS] = rules.decks
    r[R_WILD] = -1 if rules.wild_card == "none" else parse_card(rules.wild_card)
    r[R_STARTING_CHIPS] = rules.starting_chips
    r[R_MIN_BET] = rules.min_bet
    r[R_MAX_BET] = rules.max_bet
    r[R_SMALLEST_STAKE] = rules.smallest_stake
    r[R_BET_RAISE] = rules.bet_raise
    r[R_DECLARE] = rules.declare_seven_and_half
    r[R_CHASE_DECLARED] = rules.bank_must_chase_declared
    r[R_NATURAL_PAYS] = rules.natural_pays
    r[R_ANY_SEVEN_AND_HALF_PAYS] = rules.any_seven_and_half_pays
    r[R_TRIPLE] = rules.triple
    r[R_PAIR_OF_SEVENS] = rules.pair_of_sevens
    r[R_JACKPOT_ANTE] = rules.jackpot_ante
    r[R_MAX_BANK_HANDS] = rules.max_bank_hands
    r[R_BANK_MIN_COVER] = rules.bank_min_cover
    r[R_MAX_PAYOUT_MULTIPLE] = rules.max_payout_multiple
    r[R_DOUBLE] = rules.double
    r[R_SECRET_THREE] = rules.secret_three
    r[R_MORT] = rules.mort
    for name, slot in (("bet_timing", R_BET_TIMING), ("reshuffle", R_RESHUFFLE),
                       ("hidden_cards", R_HIDDEN_CARDS),
                       ("natural_beats_bank_multicard", R_NATURAL_MULTICARD),
                       ("first_bank", R_FIRST_BANK), ("bank_transfer", R_BANK_TRANSFER),
                       ("split_rule", R_SPLIT_RULE), ("change_four", R_CHANGE_FOUR)):
        r[slot] = CHOICES[name].index(getattr(rules, name))
    return r


@table_jit(inline=True)
def is_figure(card: int) -> bool:
    """Sota, caballo and rey (RULES.md §1: each worth ½)."""
    return card % _NUM_RANKS >= 7


@table_jit()
def best_total(base: int, wilds: int) -> int:
    """RULES.md §1 the matta (:func:`envs.hands.best_total`): each wild card ½ or 1–7, the
    highest total not above 7½, else the lowest."""
    if wilds == 0:
        return base
    room = SEVEN_AND_HALF - base
    if room < wilds:
        return base + wilds
    reach = np.int64(1)  # bit k: the wilds so far can sum to k (sums above 7½ dropped)
    full = (np.int64(1) << (SEVEN_AND_HALF + 1)) - 1
    for _ in range(wilds):
        nxt = np.int64(0)
        for v in _WILD_VALUES:
            nxt |= reach << v
        reach = nxt & full
    for extra in range(room, wilds - 1, -1):
        if reach >> extra & 1:
            return base + extra
    return base + wilds


@table_jit(inline=True)
def hand_form(n: int, first: int, second: int, wild: int, pair_of_sevens: bool,
              triple: bool) -> int:
    """RULES.md §4.8, §8.4 (:func:`envs.rulebook.hand_form`) of a hand of ``n`` cards whose
    first two are ``first`` and ``second``."""
    if n != 2:
        return NONE
    if pair_of_sevens and first % _NUM_RANKS == _SEVEN_RANK \
            and second % _NUM_RANKS == _SEVEN_RANK:
        return PAIR_OF_SEVENS
    if triple and (first == wild) != (second == wild):
        other = second if first == wild else first
        if other % _NUM_RANKS == _SEVEN_RANK:
            return TRIPLE
    return NONE


@table_jit(inline=True)
def payout_multiple(r: np.ndarray, total: int, card_count: int) -> int:
    """RULES.md §4.8 (:func:`envs.rulebook.payout_multiple`)."""
    if total == SEVEN_AND_HALF and (card_count == 2 or r[R_ANY_SEVEN_AND_HALF_PAYS]):
        return r[R_NATURAL_PAYS]
    return 1


@table_jit(inline=True)
def route_multiple(r: np.ndarray, total: int, card_count: int, special: int, bank_total: int,
                   bank_card_count: int, bank_pair: bool) -> int:
    """RULES.md §4.7, §4.8, §6 (:func:`envs.rulebook.route_multiple`)."""
    if special == FUSILAR:
        if total == SEVEN_AND_HALF and bank_total != SEVEN_AND_HALF and not bank_pair:
            return FUSILAR_PAYS
        return 0
    if special == MORT and total != SEVEN_AND_HALF:
        return 0
    if (total > SEVEN_AND_HALF and special != PAIR_OF_SEVENS) or bank_pair:
        return 0
    if bank_total > SEVEN_AND_HALF:
        return payout_multiple(r, total, card_count)
    if bank_total == SEVEN_AND_HALF:
        rule = r[R_NATURAL_MULTICARD]
        if rule != MULTICARD_OFF and total == SEVEN_AND_HALF and card_count == 2 \
                and bank_card_count >= 3:
            return payout_multiple(r, total, card_count) if rule == MULTICARD_DOUBLE else 1
        return 0
    return payout_multiple(r, total, card_count) if total > bank_total else 0


@table_jit(inline=True)
def winning_multiple(r: np.ndarray, total: int, card_count: int, special: int, form: int,
                     bank_total: int, bank_card_count: int, bank_pair: bool) -> int:
    """RULES.md §4.7, §4.8, §6, §8.4 (:func:`envs.rulebook.winning_multiple`)."""
    if form == TRIPLE:
        by_form = SPECIAL_PAYS
    elif form == PAIR_OF_SEVENS and not bank_pair:
        by_form = SPECIAL_PAYS
    else:
        by_form = 0
    return max(by_form, route_multiple(r, total, card_count, special, bank_total,
                                       bank_card_count, bank_pair))


@table_jit(inline=True)
def covered_pay(multiple: int, stake: int, bank_chips: int) -> int:
    """RULES.md §4.8 coverage (:func:`envs.rulebook.covered_pay`)."""
    return min(multiple * stake, bank_chips)


@table_jit(inline=True)
def wins_jackpot(total: int, card_count: int, special: int, bank_total: int) -> bool:
    """RULES.md §4.9 (:func:`envs.rulebook.wins_jackpot`)."""
    return bank_total != SEVEN_AND_HALF and total == SEVEN_AND_HALF and card_count == 2 \
        and special != FUSILAR


@table_jit(inline=True)
def hit_face_up(hidden_cards: int, hidden_count: int) -> bool:
    """RULES.md §4.3, §8.6 (:func:`envs.rulebook.hit_face_up`)."""
    return hidden_cards == FIRST_ONLY or hidden_count > 0


@table_jit(inline=True)
def forces_chase(special: int, status: int, chase_declared: bool) -> bool:
    """RULES.md §4.6, §6 fusilar (:func:`envs.rulebook.forces_chase`)."""
    return special == FUSILAR or (chase_declared and status == DECLARED)


@table_jit(inline=True)
def split_floor(r: np.ndarray, stake: int) -> int:
    """RULES.md §6, §8.9 (:func:`envs.rulebook.split_floor`)."""
    return stake if r[R_SPLIT_RULE] == SPLIT_UNLIMITED else r[R_SMALLEST_STAKE]


@table_jit()
def stake_on_offer(r: np.ndarray, ladder: np.ndarray, low: int, high: int) -> bool:
    """RULES.md §8.9 (:func:`envs.rulebook.stake_on_offer`)."""
    for k in ladder:
        if low <= k * r[R_MIN_BET] <= high:
            return True
    return False


@table_jit()
def may_split(r: np.ndarray, ladder: np.ndarray, n: int, first: int, second: int,
              special: int, doubled: bool, opened: int, chips: int, stake: int) -> bool:
    """RULES.md §6 split, §8.9 (:func:`envs.rulebook.may_split`) for the figure rules.

    ``abrirse`` is not played by the compiled engine (it refuses those rules).
    """
    rule = r[R_SPLIT_RULE]
    if rule == SPLIT_NONE or rule == SPLIT_ABRIRSE or special != NONE or doubled:
        return False
    if n != 2 or not (is_figure(first) and is_figure(second)):
        return False
    if rule == SPLIT_ONCE:
        return opened == 0 and chips >= stake
    return stake_on_offer(r, ladder, split_floor(r, stake), min(r[R_MAX_BET], chips))


@table_jit(inline=True)
def qualifies_for_bank(bank_transfer: int, form: int, multiple: int, total: int,
                       card_count: int) -> bool:
    """RULES.md §5, §8.1, §8.3, §8.4 (:func:`envs.rulebook.qualifies_for_bank`)."""
    if form != NONE:
        return True
    if multiple == 0:
        return False
    if bank_transfer == NATURAL_ONLY:
        return total == SEVEN_AND_HALF and card_count == 2
    return total == SEVEN_AND_HALF


@table_jit(inline=True)
def bank_cover(r: np.ndarray, players: int) -> int:
    """RULES.md §5 ``bank_min_cover`` (:func:`envs.rulebook.bank_cover`)."""
    if r[R_BANK_MIN_COVER]:
        return players * r[R_MIN_BET] * r[R_MAX_PAYOUT_MULTIPLE]
    return r[R_MIN_BET]


@table_jit(inline=True)
def seat_need(smallest_stake: int, jackpot_ante: int) -> int:
    """RULES.md §2, §8.9 (:func:`envs.rulebook.seat_need`)."""
    return smallest_stake + jackpot_ante


@table_jit(inline=True)
def card_points(card: int) -> int:
    """RULES.md §1: a card's value in half points (:data:`envs.cards.HALF_POINTS`)."""
    return _HALF_POINTS[card]
