"""Helpers for scripted-deck tests: deal a known shoe, play named actions.

Dealing (RULES.md §4.1, ``Engine.reset(deck=...)``): one card to each player
in turn order (the seat after the bank first), then one to the bank; every
hit draws the next card of the list.

A script is a list of ``"seat:action"`` strings (or ``(seat, action)``
pairs): the helper checks that ``seat`` is the one to act, that the action
is legal, and steps the engine. A mistake in a test script therefore fails
loudly instead of silently playing something else.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from envs.cards import card_name
from envs.engine import DECLARED, Engine, Hand
from envs.observer import Observer, observation_slices
from envs.rules import Rules


def start(rules: Rules | str, seats: int, deck: Sequence[str] | str, bank: int,
          chips: Sequence[int] | None = None, seed: int = 0,
          max_hands: int | None = 1) -> Engine:
    """A fresh engine whose first hand draws ``deck`` (card names, draw order)."""
    engine = Engine(rules, seats, max_hands)
    if isinstance(deck, str):
        deck = deck.split()
    engine.reset(seed=seed, deck=list(deck), bank=bank, chips=chips)
    return engine


def _parse(step: str | tuple[int, str]) -> tuple[int, str]:
    if isinstance(step, tuple):
        return int(step[0]), step[1]
    seat, name = step.split(":")
    return int(seat), name.strip()


def play(engine: Engine, script: Iterable[str | tuple[int, str]]) -> Engine:
    """Play ``"seat:action"`` steps, checking the actor and the legality of each."""
    for step in script:
        seat, name = _parse(step)
        assert not engine.over, f"episode is over; cannot play {seat}:{name}"
        assert engine.actor == seat, (
            f"expected seat {seat} to act ({name}), but seat {engine.actor} is to act "
            f"in phase {engine.phase}")
        action = engine.layout.index(name)
        legal = legal_names(engine)
        assert name in legal, f"{seat}:{name} is not legal; legal: {legal}"
        engine.step(action)
    return engine


def legal_names(engine: Engine) -> list[str]:
    """Names of the legal actions of the seat to act."""
    return [engine.layout.names[a] for a in engine.legal_actions()]


def cards(hand: Hand) -> list[str]:
    """Card names of a hand."""
    return [card_name(c) for c in hand.cards]


def faces(hand: Hand) -> list[str]:
    """A hand as ``["7o", "(Rc)"]``: face-down cards in parentheses."""
    return [card_name(c) if up else f"({card_name(c)})"
            for c, up in zip(hand.cards, hand.face_up)]


def hand_of(engine: Engine, seat: int) -> Hand:
    """The (single) hand of a seat, the bank's hand for the bank seat."""
    if seat == engine.bank and engine.bank_hand.seat == seat:
        return engine.bank_hand
    return engine.hands[seat][0]


# Leading fields of the events the tests read; fields the engine appends later (a split
# hand's index, say) are cut off so that the tests keep comparing what they mean to.
EVENT_FIELDS = {
    "action": 2,        # seat, action name
    "ante": 2,          # seat, chips
    "bank": 2,          # new bank seat, reason
    "bust": 3,          # seat, total, stake lost
    "card": 3,          # seat, card, face up
    "first_bank": 2,    # seat, how
    "forced_take": 1,   # seat
    "hand": 3,          # hand number, bank seat, bank streak
    "high_card": 2,     # seat, card
    "jackpot": 2,       # seat, chips
    "lose": 2,          # seat, stake
    "over": 1,          # hands played
    "raise": 3,         # seat, raise, stake after it
    "reveal": 2,        # seat, card
    "shuffle": 1,       # cards in the new draw pile
    "status": 2,        # seat, status
    "win": 3,           # seat, paid, owed
}


def events(engine: Engine, kind: str) -> list[tuple]:
    """Events of one kind, without the kind, cut to their leading ``EVENT_FIELDS``."""
    size = EVENT_FIELDS.get(kind)
    return [tuple(e[1:1 + size]) if size else e[1:] for e in engine.events if e[0] == kind]


def hand_starts(engine: Engine) -> list[tuple[int, int, int]]:
    """``(hand number, bank seat, bank streak)`` for every hand started."""
    return events(engine, "hand")


def hand_event_index(engine: Engine, number: int) -> int:
    """Index in ``engine.events`` of the event that starts hand ``number``."""
    return next(i for i, e in enumerate(engine.events) if e[0] == "hand" and e[1] == number)


def declared_seats(engine: Engine) -> list[int]:
    """Seats whose hand was declared 7½ (RULES.md §4.5), in the order it happened."""
    seats = [e[0] for e in events(engine, "declare")]
    seats += [seat for seat, status in events(engine, "status") if status == DECLARED]
    return seats


def table_total(engine: Engine) -> int:
    """Chips behind + unsettled stakes on the table + the jackpot."""
    stakes = sum(h.bet + sum(stake for _, stake in getattr(h, "side_bets", ()))
                 for hands in engine.hands for h in hands if not h.settled)
    return sum(engine.chips) + stakes + engine.jackpot


def seat_view(e: Engine, observer: int, seat: int, name: str) -> np.ndarray:
    """Field ``name`` of ``seat``'s block in ``observer``'s observation (RULES.md §4)."""
    n = e.num_seats
    obs = Observer(e).observe(observer)
    return obs[observation_slices(n)[f"seat_{(seat - observer) % n}.{name}"]]


def global_view(e: Engine, observer: int, name: str) -> np.ndarray:
    """Global field ``name`` of ``observer``'s observation."""
    return Observer(e).observe(observer)[observation_slices(e.num_seats)[name]]
