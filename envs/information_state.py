"""Information states: a seat's perfect-recall view of the current hand (RULES.md §8.10).

The observation (:mod:`envs.observation`) is a memoryless summary: the cards
each seat shows, the stakes, the statuses. The **information state** of a seat
is that observation followed by the hand's *history* as the seat saw it, in
order: every bet with its amount when placed, each raise in its place between
the cards, each card as it arrived (which seat, face up or down, its rank when
the seat may know it), each reveal, stand, bust, declaration, split, house-rule
event and bank transfer. It is the model of OpenSpiel's
``information_state_tensor``: a fixed-size vector of one-hot *slots*, one
history item per slot, in the order the items happened; unused slots are 0.

What each seat may know of a card is the observer's rule (RULES.md §4.1,
§4.6, §6; :mod:`envs.observer`): a face-up card is known to all; a face-down
card to its owner only, except the bank's, which nobody knows before the
bank's turn, and an *unseen* one (Mort, fusilar, secret three), which nobody
knows until it is shown. A revealed card is known to all from its reveal on.
A 7½ that is not declared ends the turn through the player's own ``stand``, so
its history item is a ``stand`` like any other (RULES.md §8.7).

The history window is the current hand: from its ``hand`` event to the next
one (the settlement, showdown and bank transfer included). Before the first
hand of an ``auction`` episode it holds the bids. What a seat knows of earlier
hands is in the observation part already (cards seen since the shuffle,
chips, who holds the bank).

Layout (:func:`information_state_size`): the observation of
:func:`envs.observation.observation_size` entries, then
:func:`history_slots` slots of :func:`slot_size` entries each. A slot's fields
(:func:`slot_fields`, the table below from :func:`slot_table`; seats are
relative to the observer, block 0 = the observer, as in the observation):

============  ====  =======  =======  ========  ==============================================
name          size  max      unit     seats     meaning
============  ====  =======  =======  ========  ==============================================
``kind``      28    1        one-hot            what happened (:data:`HISTORY_KINDS`)
``seat``      N     1        one-hot  relative  the seat it happened to
``target``    N     1        one-hot  relative  the other seat of a side bet (its hand) or of
                                                a sale (the buyer)
``rank``      10    1        one-hot            the card's rank 1..7, S, C, R, when this seat
                                                may know it
``wild``      1     1        flag               the card is the matta (``wild_card``)
``shuffled``  1     1        flag               the card came from a pile just reshuffled
                                                (RULES.md §3 ``when_empty``)
``amount``    1     inf      stake              chips / ``max_bet``: a bet, raise, doubled
                                                stake, side bet or bid
``hand``      1     inf      count              the seat's hand (more than 0 after a split)
============  ====  =======  =======  ========  ==============================================

``docs/INFORMATION_STATE.md`` holds the same tables, the kinds and the bound on
the number of slots; ``tests/test_information_state.py`` holds both to this
module.

**The number of slots** (:func:`history_slots`) is an upper bound on the
history items of one hand, derived from the rules and the seat count (see
:func:`history_bound` for the terms): no hand holds more cards than the shoe
(40 x ``decks``, never reshuffled while in play) nor any of its hands more than
:func:`max_hand_cards` (every card is worth ½ at least and a hand is dealt
cards only below 7½), and each other kind is bounded per hand or per seat by
the rules. The one history the bound cannot cover is a forced ``change_four``
(§6) that keeps drawing 4s while a ``when_empty`` reshuffle puts the thrown-out
4s back into the pile; such a hand raises :class:`HistoryOverflow`, naming the
bound, rather than drop an item.

Reading one (``rules`` for the amounts)::

    >>> from envs import Engine
    >>> engine = Engine("pagat", 2, max_hands=1)
    >>> engine.reset(seed=0, bank=1, deck=["5o", "2c", "Rc"])
    >>> engine.step(14); engine.step(1)          # seat 0 bets 10, hits: the rey, face up
    >>> bank = InformationStateReader(information_state(engine, 1), engine.rules)
    >>> [(item.kind, item.seat, item.rank, item.amount) for item in bank.history()]
    [('bet', 1, None, 10), ('card_down', 1, None, 0), ('card_down', 0, None, 0), ('card_up', 1, 'R', 0)]
    >>> InformationStateReader(information_state(engine, 0), engine.rules).history()[1].rank
    '5'

(seats relative to the reader: to the bank, seat 0 is block 1; nobody knows the
bank's face-down card before its turn, and only seat 0 knows its own.)
"""

from __future__ import annotations

import textwrap
from functools import lru_cache
from typing import Final, NamedTuple

import numpy as np

from envs.cards import DECK_SIZE, HALF_POINTS, NUM_RANKS, RANK_CHARS, SEVEN_AND_HALF, parse_card
from envs.engine import Engine, as_index
from envs.hands import BUST, DECLARED, STOOD
from envs.house_rules import MAX_FOUR_CHANGES
from envs.observation import (INF, Field, ObservationReader, observation_bounds,
                              observation_size, observation_slices, unit_scale)
from envs.observer import Observer
from envs.rulebook import abrirse_limit
from envs.rules import MIN_SEATS, PRESETS, Rules

__all__ = ["INFORMATION_STATE", "OBSERVATION_TYPES", "HISTORY_KINDS", "ENCODED_KINDS",
           "SKIPPED_KINDS", "HistoryItem", "HistoryOverflow", "InformationStateObserver",
           "InformationStateReader", "check_observation_type", "history_bound",
           "history_slots", "information_state", "information_state_bounds",
           "information_state_size", "information_state_slices", "max_hand_cards",
           "size_table", "slot_fields", "slot_size", "slot_table", "kinds_table"]

INFORMATION_STATE: Final = "information_state"
"""The ``observation_type`` that gives each seat its information state."""
OBSERVATION_TYPES: Final = ("observation", INFORMATION_STATE)
"""What an environment gives each seat: the observation vector (the default) or the
information state (the observation followed by the hand's history)."""


def check_observation_type(value: object) -> str:
    """``value`` if it is one of :data:`OBSERVATION_TYPES`, else a ``ValueError`` naming it."""
    if not isinstance(value, str) or value not in OBSERVATION_TYPES:
        raise ValueError(f"observation_type={value!r} is not one of "
                         f"{', '.join(repr(t) for t in OBSERVATION_TYPES)}")
    return value


HISTORY_KINDS: Final[tuple[tuple[str, str], ...]] = (
    ("bet", "a stake placed (§2; a split's second stake too, §6): amount"),
    ("raise", "a raise (§2 bet_raise): amount is the raise"),
    ("double", "a double (§6): amount is the doubled stake"),
    ("card_up", "a card dealt face up: rank"),
    ("card_down", "a card dealt face down: rank only to a seat that may see it (§4.1)"),
    ("reveal", "a face-down card turned up (§4.3 reveal_hit, bust, 7½ declared, the bank's "
               "turn, showdown): rank"),
    ("stand", "the hand stood (an undeclared 7½ too, §8.7; a bank at 7½)"),
    ("bust", "the hand went over 7½ (§4.4)"),
    ("declare", "a 7½ declared and shown (§4.5 declare_seven_and_half)"),
    ("split", "a split (§6): the moved card's rank when seen; hand is the new hand"),
    ("discard", "a first card shown and thrown out (§6 change_four forced: a 4; "
                "secret_three: a 3): rank"),
    ("four_back", "a first 4 shown and put back into the pile (§6 change_four optional)"),
    ("mort", "the Mort taken (§6)"),
    ("fusilar", "a fusilar shot (§6)"),
    ("triple", "a triplè made (§4.8)"),
    ("pair_of_sevens", "a pair of sevens made (§4.8)"),
    ("decline_mort", "the Mort declined (§6)"),
    ("side_bet", "a side bet (§6) on target's hand: amount"),
    ("side_pass", "no side bet (§6)"),
    ("sell", "the bank offered to target, the buyer (§5 bank_sale)"),
    ("take_bank", "an offered bank taken (§5 offer, sale)"),
    ("refuse_bank", "an offered bank refused, or the right to it waived (§5)"),
    ("claim_bank", "the bank claimed (§5 right)"),
    ("keep_bank", "the bank kept rather than sold (§5 bank_sale)"),
    ("forced_take", "a seat that refused before must take the bank (§5 offer)"),
    ("bank_passes", "the bank passes to seat from the next hand (§5)"),
    ("bid", "a bid for the first bank (§5 auction): amount"),
    ("bid_pass", "no bid for the first bank (§5 auction)"),
)
"""Every kind of history item, in the order of the ``kind`` one-hot, with its meaning."""

KIND_NAMES: Final = tuple(name for name, _doc in HISTORY_KINDS)
_KIND: Final = {name: i for i, name in enumerate(KIND_NAMES)}

ENCODED_KINDS: Final[dict[str, str]] = {
    "card": "card_up or card_down",
    "reveal": "reveal",
    "discarded": "discard",
    "four_back": "four_back",
    "status": "stand, bust or declare (waiting and playing: the turn order, in the "
              "observation)",
    "bet": "bet",
    "raise": "raise",
    "double": "double",
    "split": "split",
    "special": "mort, fusilar, triple or pair_of_sevens",
    "decline_mort": "decline_mort",
    "side_bet": "side_bet",
    "sell": "sell",
    "forced_take": "forced_take",
    "bank": "bank_passes",
    "bid": "bid",
    "action": "take_bank, refuse_bank, claim_bank; pass as side_pass, keep_bank or "
              "bid_pass (every other decision shows through the events it causes)",
    "shuffle": "the shuffled flag of the next card (a shuffle before the hand starts is "
               "outside the window)",
}
"""Event kinds (:mod:`envs.events`) the history reads, and the items they become."""

SKIPPED_KINDS: Final[dict[str, str]] = {
    "reset": "a new episode: the history starts again",
    "hand": "starts the window; the bank, the streak and who plays are in the observation",
    "high_card": "the first-bank draw happens before the first hand; first_bank names it",
    "first_bank": "the observation says who holds the bank",
    "ante": "every player pays it; the jackpot and the chips are in the observation",
    "bust": "the bust status item and the reveals show it",
    "lose": "settlement follows from the shown hands; the chips are in the observation",
    "side_lose": "settlement follows from the shown hands; the chips are in the observation",
    "win": "settlement follows from the shown hands; the chips are in the observation",
    "side_win": "settlement follows from the shown hands; the chips are in the observation",
    "jackpot": "follows from the shown hands; the jackpot and chips are in the observation",
    "chips": "the chips and the jackpot are in the observation",
    "over": "the phase is in the observation",
}
"""Event kinds the history leaves out, each with why nothing is lost."""

_SPECIAL_KINDS: Final = {"mort": "mort", "fusilar": "fusilar", "triple": "triple",
                         "pair_of_sevens": "pair_of_sevens"}
_STATUS_KINDS: Final = {STOOD: _KIND["stand"], BUST: _KIND["bust"], DECLARED: _KIND["declare"]}
_ANSWERS: Final = {"take_bank": _KIND["take_bank"], "refuse_bank": _KIND["refuse_bank"],
                   "claim_bank": _KIND["claim_bank"]}

# Stages of the window, for what a ``pass`` means.
_AUCTION: Final = 0
_HAND: Final = 1
_SETTLED: Final = 2
_PASS_KINDS: Final = (_KIND["bid_pass"], _KIND["side_pass"], _KIND["keep_bank"])


# ------------------------------------------------------------------ the bound
def max_hand_cards(decks: int) -> int:
    """Most cards one hand can hold: 1 + the most cards whose total stays below 7½.

    A hand is dealt a card only while its total is below 7½ (RULES.md §4.4,
    §4.5: at 7½ or above the turn is over), and every card counts ½ at least
    (a figure, or the matta at its lowest). The smallest cards of the shoe are
    its 12 x ``decks`` figures, then the 1s, the 2s, …
    """
    values = sorted([HALF_POINTS[c] for c in range(DECK_SIZE)] * decks)
    total = count = 0
    for value in values:
        if total + value >= SEVEN_AND_HALF:
            break
        total += value
        count += 1
    return count + 1


def _hands_per_seat(rules: Rules, players: int) -> int:
    """Most hands one player can hold (RULES.md §6 split_rule)."""
    rule = rules.split_rule
    if rule == "none":
        return 1
    if rule == "two_figures_once":
        return 2
    if rule == "abrirse":
        return 1 + abrirse_limit(players)
    return 12 * rules.decks  # every hand keeps the figure it started with


def history_bound(rules: Rules, num_seats: int) -> dict[str, int]:
    """The terms of :func:`history_slots`: the most items of each group in one hand.

    ``P`` players (every seat but the bank), ``H`` hands each (splits), ``K``
    cards a hand (:func:`max_hand_cards`), ``S`` = 40 x ``decks`` cards in the shoe:

    * ``cards``: dealt cards: at most S in play at once, and at most
      ``(P x H + 1) x K``; plus the first cards thrown out or put back (``changes``);
    * ``reveals``: each face-down card once: at most S and ``P x H x K + 1`` (the
      bank's hits come face up);
    * ``changes``: a forced change of a 4 at most 4 x ``decks`` times a seat, an
      optional one at most four times, a secret three once;
    * ``stakes``: a bet a hand, a raise between cards (no more raises than fit
      between the smallest stake and ``max_bet``), a double a hand, a side bet
      or pass a player;
    * ``ends``: a stand, bust or declaration a hand and the bank's; a split a
      hand but the first; a special hand a hand and the bank's; a declined Mort a player;
    * ``transfer``: the answers to offers (a player each) or to a right, a forced
      take, a sale and its answer, two passes of the bank;
    * ``auction``: before the first hand, a bid or pass a seat.
    """
    n = num_seats
    players = n - 1
    hands = _hands_per_seat(rules, players)
    k = max_hand_cards(rules.decks)
    shoe = 40 * rules.decks
    change = {"forced": 4 * rules.decks, "optional": MAX_FOUR_CHANGES}.get(rules.change_four, 0)
    change += 1 if rules.secret_three else 0
    changes = players * change
    raises = 0
    if rules.bet_raise:
        room = (rules.max_bet - rules.smallest_stake) // (rules.bet_ladder[0] * rules.min_bet)
        raises = players * hands * min(k, room)
    specials = rules.mort or rules.fusilar or rules.triple or rules.pair_of_sevens
    transfer = {"offer": players + 1, "right": 1}.get(rules.bank_transfer, 0)
    transfer += 2 if rules.bank_sale else 0
    transfer += 2
    return {
        "cards": min(shoe, (players * hands + 1) * k) + changes,
        "reveals": min(shoe, players * hands * k + 1),
        "changes": changes,
        "stakes": players * hands + raises + (players * hands if rules.double else 0)
        + (players if rules.side_bets else 0),
        "ends": players * hands + 1 + players * (hands - 1)
        + ((players * hands + 1) if specials else 0) + (players if rules.mort else 0),
        "transfer": transfer,
        "auction": n if rules.first_bank == "auction" else 0,
    }


@lru_cache(maxsize=None)
def _slots(rules: Rules, num_seats: int) -> int:
    bound = history_bound(rules, num_seats)
    auction = bound.pop("auction")
    return max(sum(bound.values()), auction)


def history_slots(rules: Rules | str, num_seats: int) -> int:
    """The number of history slots for ``rules`` at ``num_seats`` seats (:func:`history_bound`)."""
    rules = Rules.resolve(rules)
    return _slots(rules, rules.check_seats(num_seats))


# ------------------------------------------------------------------ the slot
@lru_cache(maxsize=None)
def slot_fields(num_seats: int) -> tuple[Field, ...]:
    """The fields of one history slot at ``num_seats`` seats, in order (the module's table)."""
    n = num_seats
    return (
        Field("kind", len(HISTORY_KINDS), "history", True, 1.0, "one-hot",
              "what happened (:data:`HISTORY_KINDS`)"),
        Field("seat", n, "history", True, 1.0, "one-hot", "the seat it happened to"),
        Field("target", n, "history", True, 1.0, "one-hot",
              "the other seat of a side bet (its hand) or of a sale (the buyer)"),
        Field("rank", NUM_RANKS, "history", True, 1.0, "one-hot",
              "the card's rank 1..7, S, C, R, when this seat may know it"),
        Field("wild", 1, "history", True, 1.0, "flag", "the card is the matta (``wild_card``)"),
        Field("shuffled", 1, "history", True, 1.0, "flag",
              "the card came from a pile just reshuffled (RULES.md §3 ``when_empty``)"),
        Field("amount", 1, "history", True, INF, "stake",
              "chips / ``max_bet``: a bet, raise, doubled stake, side bet or bid"),
        Field("hand", 1, "history", True, INF, "count",
              "the seat's hand (more than 0 after a split)"),
    )


def _slot_offsets(fields: tuple[Field, ...]) -> dict[str, slice]:
    out: dict[str, slice] = {}
    offset = 0
    for f in fields:
        out[f.name] = slice(offset, offset + f.size)
        offset += f.size
    return out


def slot_size(num_seats: int) -> int:
    """Entries of one history slot at ``num_seats`` seats."""
    return sum(f.size for f in slot_fields(num_seats))


def information_state_size(rules: Rules | str, num_seats: int) -> int:
    """Length of the information-state vector: the observation, then the history slots."""
    return observation_size(num_seats) + history_slots(rules, num_seats) * slot_size(num_seats)


def information_state_bounds(rules: Rules | str, num_seats: int
                             ) -> tuple[np.ndarray, np.ndarray]:
    """Lower and upper bounds of every entry (for the ``Box`` space)."""
    low, high = observation_bounds(num_seats)
    slot_high = np.concatenate([np.full(f.size, f.high, dtype=np.float32)
                                for f in slot_fields(num_seats)])
    slots = history_slots(rules, num_seats)
    return (np.zeros(information_state_size(rules, num_seats), dtype=np.float32),
            np.concatenate([high, np.tile(slot_high, slots)]).astype(np.float32))


@lru_cache(maxsize=None)
def _info_slices(rules: Rules, num_seats: int) -> dict[str, slice]:
    out = observation_slices(num_seats)
    start = observation_size(num_seats)
    out["observation"] = slice(0, start)
    width = slot_size(num_seats)
    slots = _slots(rules, num_seats)
    out["history"] = slice(start, start + slots * width)
    offsets = _slot_offsets(slot_fields(num_seats))
    for j in range(slots):
        base = start + j * width
        out[f"history_{j}"] = slice(base, base + width)
        for name, sl in offsets.items():
            out[f"history_{j}.{name}"] = slice(base + sl.start, base + sl.stop)
    return out


def information_state_slices(rules: Rules | str, num_seats: int) -> dict[str, slice]:
    """Name -> slice of the information-state vector.

    Every name of :func:`envs.observation.observation_slices` (the observation
    comes first, ``observation`` for all of it), ``history`` for all the slots,
    and ``history_<j>`` / ``history_<j>.<field>`` for slot ``j`` (0 = the
    hand's first item) and each of :func:`slot_fields`.
    """
    rules = Rules.resolve(rules)
    return dict(_info_slices(rules, rules.check_seats(num_seats)))


# ------------------------------------------------------------------ encoding
class HistoryOverflow(RuntimeError):
    """A hand's history needs more slots than :func:`history_slots` (module docstring)."""


class InformationStateObserver:
    """Builds the information state of any seat from an engine, reading its event log.

    Like :class:`~envs.observer.Observer` it reads only the events logged since
    its last call: each hand's public items are decoded once (seats absolute,
    each card with who may know it), and each seat's slots are written as its
    items come, so a call costs the new items and one copy of the vector.
    ``observer``: the engine's :class:`~envs.observer.Observer` to share (one is
    made if not given). Only built when asked for: the default observation
    never pays for it.
    """

    def __init__(self, engine: Engine, observer: Observer | None = None) -> None:
        self.engine = engine
        self.observer = observer if observer is not None else Observer(engine)
        n = engine.num_seats
        rules = engine.rules
        self.num_seats = n
        self.slots = history_slots(rules, n)
        self.width = slot_size(n)
        fields = _slot_offsets(slot_fields(n))
        self._seat_at = fields["seat"].start
        self._target_at = fields["target"].start
        self._rank_at = fields["rank"].start
        self._wild_at = fields["wild"].start
        self._shuffled_at = fields["shuffled"].start
        self._amount_at = fields["amount"].start
        self._hand_at = fields["hand"].start
        self._stake_scale = 1.0 / unit_scale("stake", rules)
        self._wild = -1 if rules.wild_card == "none" else parse_card(rules.wild_card)
        self._events: list | None = None
        self._cursor = 0
        self._restart()

    def _restart(self) -> None:
        n = self.num_seats
        self._events = self.engine.events
        self._cursor = 0
        self._items: list[tuple[int, int, int, int, int, int, float, bool]] = []
        self._rows = [np.zeros((self.slots, self.width), dtype=np.float32) for _ in range(n)]
        self._written = [0] * n
        self._stage = _AUCTION
        self._bank = -1
        self._shuffled = False

    def _clear(self) -> None:
        """A new window: no items; each seat's written slots back to 0."""
        self._items = []
        for seat, written in enumerate(self._written):
            if written:
                self._rows[seat][:written] = 0.0
                self._written[seat] = 0

    def _add(self, kind: int, seat: int, target: int = -1, card: int = -1, knower: int = -2,
             hand: int = 0, amount: float = 0.0) -> None:
        """One item; ``knower``: who may know ``card`` (-2 all, -1 nobody, else a seat)."""
        if len(self._items) >= self.slots:
            raise HistoryOverflow(
                f"hand {self.engine.hands_played + 1} has more than {self.slots} history items, "
                f"the bound for these rules at {self.num_seats} seats (envs.information_state, "
                f"history_bound); the item that does not fit: {KIND_NAMES[kind]} of seat {seat}")
        shuffled = False
        if card >= 0 and self._shuffled:
            shuffled, self._shuffled = True, False
        self._items.append((kind, seat, target, card, knower, hand, amount, shuffled))

    def _card_knower(self, seat: int, face_up: bool, unseen: bool) -> int:
        if face_up:
            return -2
        return -1 if unseen or seat == self._bank else seat

    def _read(self, event: tuple) -> None:
        kind = event[0]
        if kind == "card":
            _, seat, card, up, index, unseen = event
            self._add(_KIND["card_up" if up else "card_down"], seat, card=card,
                      knower=self._card_knower(seat, up, unseen), hand=index)
        elif kind == "status":
            item = _STATUS_KINDS.get(event[2])
            if item is not None:
                self._add(item, event[1], hand=event[3])
        elif kind == "reveal":
            self._add(_KIND["reveal"], event[1], card=event[2], hand=event[3])
        elif kind == "bet":
            self._add(_KIND["bet"], event[1], hand=event[3], amount=float(event[2]))
        elif kind == "raise":
            self._add(_KIND["raise"], event[1], hand=event[4], amount=float(event[2]))
        elif kind == "action":
            name = event[2]
            answer = _ANSWERS.get(name)
            if answer is not None:
                self._add(answer, event[1])
            elif name == "pass":
                self._add(_PASS_KINDS[self._stage], event[1])
        elif kind == "hand":
            self._clear()
            self._stage = _HAND
            self._bank = event[2]
            self._shuffled = False
        elif kind == "chips":
            self._stage = _SETTLED
        elif kind == "shuffle":
            self._shuffled = True
        elif kind == "double":
            self._add(_KIND["double"], event[1], hand=event[3], amount=float(event[2]))
        elif kind == "split":
            _, seat, card, _source, target, up, unseen = event
            self._add(_KIND["split"], seat, card=card,
                      knower=self._card_knower(seat, up, unseen), hand=target)
        elif kind == "special":
            self._add(_KIND[_SPECIAL_KINDS[event[2]]], event[1], hand=event[3])
        elif kind == "discarded":
            self._add(_KIND["discard"], event[1], card=event[2])
        elif kind == "four_back":
            self._add(_KIND["four_back"], event[1], card=event[2])
        elif kind == "decline_mort":
            self._add(_KIND["decline_mort"], event[1])
        elif kind == "side_bet":
            self._add(_KIND["side_bet"], event[1], target=event[2], amount=float(event[3]))
        elif kind == "sell":
            self._add(_KIND["sell"], event[1], target=event[2])
        elif kind == "forced_take":
            self._add(_KIND["forced_take"], event[1])
        elif kind == "bank":
            self._add(_KIND["bank_passes"], event[1])
        elif kind == "bid":
            self._add(_KIND["bid"], event[1], amount=float(event[2]))
        elif kind == "reset":
            self._clear()
            self._stage = _AUCTION

    def _read_events(self) -> None:
        events = self.engine.events
        if events is not self._events or len(events) < self._cursor:
            self._restart()
        for i in range(self._cursor, len(events)):
            self._read(events[i])
        self._cursor = len(events)

    def history(self, seat: int) -> np.ndarray:
        """The history slots of ``seat`` (a ``(slots, slot_size)`` array; read only)."""
        self._read_events()
        rows = self._rows[seat]
        n = self.num_seats
        items = self._items
        for j in range(self._written[seat], len(items)):
            kind, who, target, card, knower, hand, amount, shuffled = items[j]
            row = rows[j]
            row[kind] = 1.0
            row[self._seat_at + (who - seat) % n] = 1.0
            if target >= 0:
                row[self._target_at + (target - seat) % n] = 1.0
            if card >= 0 and (knower == -2 or knower == seat):
                row[self._rank_at + card % NUM_RANKS] = 1.0
                if card == self._wild:
                    row[self._wild_at] = 1.0
            if shuffled:
                row[self._shuffled_at] = 1.0
            if amount:
                row[self._amount_at] = amount * self._stake_scale
            if hand:
                row[self._hand_at] = float(hand)
        self._written[seat] = len(items)
        return rows

    def observe(self, seat: object) -> np.ndarray:
        """The information state of ``seat``: its observation, then its history slots.

        ``seat`` as :meth:`envs.observer.Observer.observe` takes it (refused by name
        if it is not a seat at this table). A new array every call.
        """
        observation = self.observer.observe(seat)
        index = seat if type(seat) is int else as_index(seat)  # checked by observe() above
        return np.concatenate((observation, self.history(index).ravel()))


def information_state(engine: Engine, seat: object) -> np.ndarray:
    """The information state of ``seat`` now, built from ``engine``'s event log.

    The vector an environment with ``observation_type="information_state"``
    gives that seat at this point. For many calls on one engine keep an
    :class:`InformationStateObserver`, which reads only the new events.
    """
    return InformationStateObserver(engine).observe(seat)


# ------------------------------------------------------------------ decoding
class HistoryItem(NamedTuple):
    """One decoded history slot. Seats are relative to the observer (0 = the observer)."""

    kind: str
    """A name of :data:`HISTORY_KINDS`."""
    seat: int
    target: int | None
    rank: str | None
    """The rank character (``1``..``7``, ``S``, ``C``, ``R``), None if unknown or no card."""
    wild: bool
    shuffled: bool
    amount: int
    """Chips (0 when the kind has none)."""
    hand: int


class InformationStateReader:
    """Named views of one information-state vector (the decoder of
    :class:`InformationStateObserver`).

    ``rules``: the table's rules (the layout and the amounts depend on them);
    the seat count is read off the vector's length. :attr:`observation` reads
    the observation part with :class:`~envs.observation.ObservationReader`.
    """

    def __init__(self, vector: np.ndarray, rules: Rules | str) -> None:
        self.rules = Rules.resolve(rules)
        self.vector = vector
        sizes = {information_state_size(self.rules, n): n
                 for n in range(MIN_SEATS, self.rules.max_seats + 1)}
        if len(vector) not in sizes:
            raise ValueError(f"a vector of length {len(vector)} is not an information state of "
                             f"these rules; lengths by seats: "
                             + ", ".join(f"{n}: {size}" for size, n in sizes.items()))
        self.num_seats = n = sizes[len(vector)]
        self.slices = _info_slices(self.rules, n)
        self.observation = ObservationReader(vector[self.slices["observation"]], self.rules)
        self._fields = _slot_offsets(slot_fields(n))
        self.slots = history_slots(self.rules, n)

    def __getitem__(self, name: str) -> np.ndarray:
        """The entries of slice ``name`` (:func:`information_state_slices`)."""
        try:
            return self.vector[self.slices[name]]
        except KeyError:
            raise KeyError(f"{name!r} is not an information-state slice; names: the "
                           f"observation's, 'observation', 'history', history_<j> and "
                           f"history_<j>.<field> for {list(self._fields)}") from None

    def history(self) -> list[HistoryItem]:
        """The hand's history items in order (the used slots)."""
        width = slot_size(self.num_seats)
        rows = self["history"].reshape(self.slots, width)
        scale = unit_scale("stake", self.rules)
        f = self._fields
        out = []
        for row in rows:
            kinds = row[f["kind"]]
            if not kinds.any():
                break
            targets = row[f["target"]]
            ranks = row[f["rank"]]
            out.append(HistoryItem(
                KIND_NAMES[int(np.argmax(kinds))], int(np.argmax(row[f["seat"]])),
                int(np.argmax(targets)) if targets.any() else None,
                RANK_CHARS[int(np.argmax(ranks))] if ranks.any() else None,
                bool(row[f["wild"]][0]), bool(row[f["shuffled"]][0]),
                int(round(float(row[f["amount"]][0]) * scale)), int(row[f["hand"]][0])))
        return out


# ------------------------------------------------------------------ the docs' tables
def slot_table() -> str:
    """The slot table of the module docstring (``N`` seats)."""
    widths = (12, 4, 7, 7, 8, 46)
    rule = "  ".join("=" * w for w in widths)

    def row(cells: tuple[str, ...]) -> str:
        return "  ".join(c.ljust(w) for c, w in zip(cells, widths)).rstrip()

    lines = [rule, row(("name", "size", "max", "unit", "seats", "meaning")), rule]
    for f in slot_fields(MIN_SEATS):
        size = "N" if f.name in ("seat", "target") else str(f.size)
        high = "inf" if f.high == INF else f"{f.high:g}"
        seats = "relative" if f.name in ("seat", "target") else ""
        text = textwrap.wrap(f.doc, widths[-1])
        lines.append(row((f"``{f.name}``", size, high, f.unit, seats, text[0])))
        lines.extend(row(("",) * 5 + (more,)) for more in text[1:])
    lines.append(rule)
    return "\n".join(lines)


def kinds_table() -> str:
    """The history kinds as a Markdown table (``docs/INFORMATION_STATE.md``)."""
    lines = ["| index | kind | what it records |", "|---|---|---|"]
    lines += [f"| {i} | `{name}` | {doc} |" for i, (name, doc) in enumerate(HISTORY_KINDS)]
    return "\n".join(lines)


SIZE_TABLE_SEATS: Final = (2, 4, 8)


def size_table() -> str:
    """Slots and vector lengths of every preset at 2, 4 and 8 seats, as a Markdown table."""
    head = " | ".join(f"{n} seats: slots, length" for n in SIZE_TABLE_SEATS)
    lines = [f"| preset | {head} |", "|---|" + "---|" * len(SIZE_TABLE_SEATS)]
    for preset in PRESETS:
        cells = " | ".join(f"{history_slots(preset, n)}, {information_state_size(preset, n)}"
                           for n in SIZE_TABLE_SEATS)
        lines.append(f"| `{preset}` | {cells} |")
    return "\n".join(lines)

