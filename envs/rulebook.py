"""The rulebook: every rule of the game's logic as one named pure function.

Each function encodes one rule of RULES.md, quoting its section, on plain
values — totals in half points (7½ = 15, :mod:`envs.cards`), card counts,
card codes, the special form of a hand (:mod:`envs.hands`) — or on the
:class:`RuleSwitches` of a :class:`~envs.rules.Rules`. Nothing here needs an
``Engine`` or a ``Hand``: the engine calls these functions, and so do the
exact solver (totals and card counts), the heuristics (totals) and the
renderer (card lists).

Who wins a hand and what it is paid, in three layers:

* :func:`player_beats_bank` — the tie rule, one line (§4.7: the bank wins ties);
* :func:`route_multiple` — the multiple by the hand's route (Mort, fusilar,
  an ordinary hand) and totals (§4.7, §4.8, §6);
* :func:`winning_multiple` — the whole decision, the hand's special form
  (:func:`hand_form`, §8.4) included: the multiple of the stake the player
  wins, 0 when the bank wins.

Compiled with the engine's core (:mod:`envs._native`): fully typed, no
per-call allocations on the paths a game step takes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from envs.cards import HALF_POINTS, NUM_RANKS, SEVEN_AND_HALF, is_figure
from envs.hands import DECLARED, FUSILAR, MORT, NONE, PAIR_OF_SEVENS, TRIPLE, best_total
from envs.rules import Rules

__all__ = ["RuleSwitches", "SPECIAL_PAYS", "FUSILAR_PAYS", "score", "is_natural",
           "is_bust", "is_pair_of_sevens", "hand_form", "player_beats_bank",
           "payout_multiple", "route_multiple", "winning_multiple", "covered_pay",
           "wins_jackpot", "largest_multiple", "hit_face_up", "forces_chase",
           "abrirse_limit", "split_floor", "stake_on_offer", "may_split",
           "qualifies_for_bank", "bank_cover", "seat_need"]

SPECIAL_PAYS: Final = 3
"""RULES.md §4.8: the multiple a pair of sevens or a triplè is paid."""

FUSILAR_PAYS: Final = 4
"""RULES.md §6 fusilar: the multiple a fusilar that makes 7½ is paid."""

_SEVEN_RANK: Final = 6


class RuleSwitches:
    """The switches of a :class:`~envs.rules.Rules` that the rules' logic reads, as plain attributes.

    Those the turn sequence and the rulebook read; a house-rule plug-in
    (:mod:`envs.house_rules`) reads its own from ``rules`` once, when built.

    ``Rules`` is a frozen dataclass outside the compiled core: reading one of
    its switches is a dictionary lookup, and an engine step reads many.
    Copied here once per engine they are struct fields of the
    compiled class (:mod:`envs._native`). The values are exactly the rules' own.
    """

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.decks: int = rules.decks
        self.wild_card: str = rules.wild_card
        self.starting_chips: int = rules.starting_chips
        self.min_bet: int = rules.min_bet
        self.max_bet: int = rules.max_bet
        self.bet_ladder: tuple[int, ...] = tuple(rules.bet_ladder)
        self.smallest_stake: int = rules.smallest_stake  # RULES.md §8.9
        self.bet_timing: str = rules.bet_timing
        self.bet_raise: bool = rules.bet_raise
        self.reshuffle: str = rules.reshuffle
        self.hidden_cards: str = rules.hidden_cards
        self.declare_seven_and_half: bool = rules.declare_seven_and_half
        self.bank_must_chase_declared: bool = rules.bank_must_chase_declared
        self.natural_beats_bank_multicard: str = rules.natural_beats_bank_multicard
        self.natural_pays: int = rules.natural_pays
        self.any_seven_and_half_pays: bool = rules.any_seven_and_half_pays
        self.triple: bool = rules.triple
        self.pair_of_sevens: bool = rules.pair_of_sevens
        self.jackpot_ante: int = rules.jackpot_ante
        self.first_bank: str = rules.first_bank
        self.bank_transfer: str = rules.bank_transfer
        self.bank_sale: bool = rules.bank_sale
        self.max_bank_hands: int = rules.max_bank_hands
        self.bank_min_cover: bool = rules.bank_min_cover
        self.split_rule: str = rules.split_rule
        self.max_payout_multiple: int = rules.max_payout_multiple

    def __reduce__(self) -> tuple[Any, ...]:
        return (RuleSwitches, (self.rules,))


# ------------------------------------------------------------------ §1 scoring
def score(cards: Sequence[int], wild: int) -> int:
    """The total of ``cards`` in half points, the matta at its best value (RULES.md §1).

    ``wild`` is the wild card's code, or -1 without one. Each wild card counts
    ½ or any whole number 1–7: the hand scores the highest total that does
    not pass 7½, or, if every choice passes, the lowest.
    """
    base = 0
    wilds = 0
    for card in cards:
        if card == wild:
            wilds += 1
        else:
            base += HALF_POINTS[card]
    return best_total(base, wilds)


def is_natural(total: int, card_count: int) -> bool:
    """RULES.md §1: a natural is exactly two cards totalling 7½ (a Mort's two included)."""
    return total == SEVEN_AND_HALF and card_count == 2


def is_bust(total: int, special: int) -> bool:
    """RULES.md §4.4: over 7½ busts — except a pair of sevens, a hand of its own (§4.8)."""
    return total > SEVEN_AND_HALF and special != PAIR_OF_SEVENS


def is_pair_of_sevens(cards: Sequence[int]) -> bool:
    """RULES.md §4.8 (PAG Italian): exactly two cards, both 7s."""
    return (len(cards) == 2 and cards[0] % NUM_RANKS == _SEVEN_RANK
            and cards[1] % NUM_RANKS == _SEVEN_RANK)


def hand_form(cards: Sequence[int], wild: int, pair_of_sevens: bool, triple: bool) -> int:
    """The special form of ``cards``: ``PAIR_OF_SEVENS``, ``TRIPLE`` or ``NONE``.

    RULES.md §4.8 (with the ``pair_of_sevens`` switch: exactly two 7s; with
    ``triple``, ITA's triplè: a 7 and the matta as two cards) and §8.4: the
    form comes from the cards alone, whatever route built the hand — a Mort,
    a fusilar or a secret three included. A pair of sevens is read first.
    """
    if len(cards) != 2:
        return NONE
    if pair_of_sevens and is_pair_of_sevens(cards):
        return PAIR_OF_SEVENS
    first = cards[0]
    second = cards[1]
    if triple and (first == wild) != (second == wild):
        other = second if first == wild else first
        if other % NUM_RANKS == _SEVEN_RANK:
            return TRIPLE
    return NONE


# ------------------------------------------------------- §4.7 who wins, §4.8 pays
def player_beats_bank(player_total: int, bank_total: int) -> bool:
    """RULES.md §4.7: the higher total wins, and the bank wins ties."""
    return player_total > bank_total


def payout_multiple(r: RuleSwitches, total: int, card_count: int) -> int:
    """The multiple of the stake paid to a winning hand by its total (RULES.md §4.8).

    A natural pays ``natural_pays`` (with ``any_seven_and_half_pays``, ESP,
    every 7½ does); any other win pays 1:1.
    """
    if total == SEVEN_AND_HALF and (card_count == 2 or r.any_seven_and_half_pays):
        return r.natural_pays
    return 1


def route_multiple(r: RuleSwitches, total: int, card_count: int, special: int,
                   bank_total: int, bank_card_count: int, bank_pair: bool) -> int:
    """The multiple the player wins by the hand's route and totals, its form aside (0: the bank wins).

    ``special`` is the hand's route (``FUSILAR``, ``MORT``, ``PAIR_OF_SEVENS``
    once made, …); ``bank_pair``: the bank holds a pair of sevens.

    * §6 fusilar: 7½ pays 4 unless the bank makes 7½; anything else loses;
    * §6 Mort: anything but 7½ loses;
    * §4.4 a bust loses; §4.8 a bank's pair of sevens beats every other hand;
    * §4.7 a bank that busts loses; a bank's 7½ wins, subject to
      ``natural_beats_bank_multicard`` (a player's natural against a bank 7½
      of three or more cards: ``double`` pays it, ``single`` pays 1:1);
      otherwise the higher total wins and the bank wins ties.
    """
    if special == FUSILAR:
        return FUSILAR_PAYS if total == SEVEN_AND_HALF and bank_total != SEVEN_AND_HALF \
            and not bank_pair else 0
    if special == MORT and total != SEVEN_AND_HALF:
        return 0
    if is_bust(total, special) or bank_pair:
        return 0
    if bank_total > SEVEN_AND_HALF:
        return payout_multiple(r, total, card_count)
    if bank_total == SEVEN_AND_HALF:
        rule = r.natural_beats_bank_multicard
        if rule != "off" and is_natural(total, card_count) and bank_card_count >= 3:
            return payout_multiple(r, total, card_count) if rule == "double" else 1
        return 0
    return payout_multiple(r, total, card_count) if player_beats_bank(total, bank_total) else 0


def winning_multiple(r: RuleSwitches, total: int, card_count: int, special: int, form: int,
                     bank_total: int, bank_card_count: int, bank_pair: bool) -> int:
    """The multiple of the stake the player wins, 0 if the bank wins (RULES.md §4.7, §4.8, §6).

    ``form`` is the hand's :func:`hand_form`. RULES.md §8.4: a triplè beats
    every bank hand and a pair of sevens every hand but the bank's pair of
    sevens (equal hands: the bank wins), both paying 3; where the form's
    payout and the route's (:func:`route_multiple`) both apply, the higher is paid.
    """
    if form == TRIPLE:
        by_form = SPECIAL_PAYS
    elif form == PAIR_OF_SEVENS and not bank_pair:
        by_form = SPECIAL_PAYS
    else:
        by_form = 0
    return max(by_form, route_multiple(r, total, card_count, special, bank_total,
                                       bank_card_count, bank_pair))


def covered_pay(multiple: int, stake: int, bank_chips: int) -> int:
    """What the bank pays a winner: ``multiple`` × ``stake``, but never more than it holds.

    RULES.md §4.8 coverage: the losing stakes are collected first, then the
    winners are paid in turn order (each side bet right after the hand it
    rides on) until the bank is empty; the winner keeps its stake either way.
    """
    return min(multiple * stake, bank_chips)


def wins_jackpot(total: int, card_count: int, special: int, bank_total: int) -> bool:
    """RULES.md §4.9: a natural takes the jackpot unless the bank made 7½.

    A Mort that ends in 7½ counts as a natural; a fusilar does not (its
    second card is the one dealt under the 7, §6). The first such player in
    turn order takes the whole pot.
    """
    return bank_total != SEVEN_AND_HALF and is_natural(total, card_count) \
        and special != FUSILAR


def largest_multiple(natural_pays: int, triple: bool, pair_of_sevens: bool,
                     fusilar: bool) -> int:
    """The largest multiple of a stake the bank may have to pay (RULES.md §4.8, §6; §5 ``bank_min_cover``)."""
    multiple = max(1, natural_pays)
    if triple or pair_of_sevens:
        multiple = max(multiple, SPECIAL_PAYS)
    if fusilar:
        multiple = max(multiple, FUSILAR_PAYS)
    return multiple


# -------------------------------------------------------------- §4.3 face, §4.6
def hit_face_up(hidden_cards: str, hidden_count: int) -> bool:
    """Whether a card drawn by ``hit`` comes face up (RULES.md §4.3 ``hidden_cards``).

    ``first_only``: face up. ``alternate``, and ``player_choice`` by
    RULES.md §8.6: face up while the hand holds a face-down card, else face
    down (after a split or an abrirse, say), so a hand keeps at most one
    face-down card and may have one.
    """
    return hidden_cards == "first_only" or hidden_count > 0


def forces_chase(special: int, status: int, chase_declared: bool) -> bool:
    """Whether a live player hand keeps the bank from standing below 7½.

    RULES.md §4.6: with ``bank_must_chase_declared`` (``chase_declared``) a
    declared 7½; §6: a fusilar, always.
    """
    return special == FUSILAR or (chase_declared and status == DECLARED)


# ------------------------------------------------------------ §6 split, §8.9
def abrirse_limit(players: int) -> int:
    """RULES.md §6 abrirse: 3 openings with 2–3 players, 1 with 4–5, none with more.

    Design choice: "players" counts the players in the hand, the bank not
    included; a single player may open 3 times too.
    """
    if players <= 3:
        return 3
    return 1 if players <= 5 else 0


def split_floor(r: RuleSwitches, stake: int) -> int:
    """Smallest second stake when a hand staked ``stake`` is split (RULES.md §6, §8.9).

    ``two_figures_unlimited`` (PAG): at least the hand's stake, a raise
    included; ``abrirse``: any stake on offer.
    """
    return stake if r.split_rule == "two_figures_unlimited" else r.smallest_stake


def stake_on_offer(r: RuleSwitches, low: int, high: int) -> bool:
    """Whether a step of the bet ladder is a stake of ``low`` to ``high`` chips (RULES.md §8.9).

    The stakes on offer are the ladder's steps in multiples of ``min_bet``:
    every bet, raise, split stake and side bet is one of them.
    """
    min_bet = r.min_bet
    for k in r.bet_ladder:
        if low <= k * min_bet <= high:
            return True
    return False


def may_split(r: RuleSwitches, cards: Sequence[int], special: int, doubled: bool,
              opened: int, players: int, chips: int, stake: int) -> bool:
    """RULES.md §6 split: whether a hand may become two, by ``split_rule``.

    ``cards``: the hand's cards; ``opened``: the splits the seat has made
    this hand; ``players``: the players in the hand (for :func:`abrirse_limit`);
    ``chips``: the seat's chips; ``stake``: the hand's stake. A special or
    doubled hand never splits. ``two_figures_*``: two figures;
    ``two_figures_once`` only once. ``abrirse``: two or three cards of one
    value. RULES.md §8.9: only when the second stake can be placed — equal to
    the first (``two_figures_once``, staked at once), or a stake on offer
    from :func:`split_floor` up to ``max_bet`` and the chips held.
    """
    rule = r.split_rule
    if rule == "none" or special != NONE or doubled:
        return False
    count = len(cards)
    if rule == "abrirse":
        if not (count in (2, 3) and opened < abrirse_limit(players)):
            return False
        value = HALF_POINTS[cards[0]]
        for i in range(1, count):
            if HALF_POINTS[cards[i]] != value:
                return False
    elif count != 2 or not (is_figure(cards[0]) and is_figure(cards[1])):
        return False
    elif rule == "two_figures_once":
        return opened == 0 and chips >= stake
    return stake_on_offer(r, split_floor(r, stake), min(r.max_bet, chips))


# ------------------------------------------------------------ §5 the bank
def qualifies_for_bank(bank_transfer: str, form: int, multiple: int, total: int,
                       card_count: int) -> bool:
    """Whether a player hand earns its seat the bank after the hand (RULES.md §5).

    ``form``: the hand's :func:`hand_form`; ``multiple``: its
    :func:`winning_multiple` (0 if it lost).

    * §4.8, §8.4: a pair of sevens or a triplè, read from the cards alone;
    * §8.1: otherwise only a hand that won the hand — a 7½, or a natural
      with ``natural_only``; §8.3: a fusilar that is 7½ and wins too.

    ``bank_transfer = "none"`` never moves the bank: the caller asks no one.
    """
    if form != NONE:
        return True
    if not multiple:
        return False
    if bank_transfer == "natural_only":
        return is_natural(total, card_count)
    return total == SEVEN_AND_HALF


def bank_cover(r: RuleSwitches, players: int) -> int:
    """Chips a seat needs to hold the bank against ``players`` players (RULES.md §5).

    With ``bank_min_cover``: ``players`` × ``min_bet`` × the largest payout
    multiple; without it, one ``min_bet``.
    """
    if r.bank_min_cover:
        return players * r.min_bet * r.max_payout_multiple
    return r.min_bet


def seat_need(smallest_stake: int, jackpot_ante: int) -> int:
    """Chips a player needs to be dealt in: the smallest stake and the ante (RULES.md §2, §8.9)."""
    return smallest_stake + jackpot_ante
