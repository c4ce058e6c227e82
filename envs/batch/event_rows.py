"""The engine's event tuples as fixed-width integer rows, for code that cannot hold tuples.

:class:`envs.engine.Engine` logs plain tuples (:mod:`envs.events` is their
schema). A compiled batch of tables (:mod:`envs.batch`) cannot: it writes
each event as one ``int64`` row of :data:`ROW` numbers — the kind's id, then
the tuple's fields in their order — and its observer reads those rows as the
scalar :class:`~envs.observer.Observer` reads the tuples. This module is the
one translation between the two; the batch engine's rows are held to the
scalar engine's tuples through it (``tests/test_batch_event_rows.py``).

Encoding, per kind (fields in :mod:`envs.events` order):

* booleans are 0/1, "none" (a missing bank, a ``None``) is ``-1``;
* strings come from fixed vocabularies: :data:`REASONS` (first bank, bank
  transfer, discarded card), :data:`SPECIALS` (special hands) and the
  action layout's names (``action`` events keep the action's index, so
  encoding and decoding an ``action`` event needs the rules' layout);
  ``"bought for N to each seat"`` is the reason ``bought`` and ``N``;
* ``hand``: ``number, bank, streak``, the length of ``order`` and the
  seats of ``order`` one per field;
* ``chips``: ``jackpot``, the number of seats, then each seat's chips;
* ``reset``: ``seed``, and the given first bank (``-1``); its stacked deck
  and chips, which nobody at the table knows, are dropped (decoded as
  ``None``).

``decode(encode(event)) == event`` for every event but ``reset`` (whose deck
and chips come back as ``None``).
"""

from __future__ import annotations

from typing import Final

import numpy as np

from envs.actions import ActionLayout
from envs.events import EVENT_TYPES
from envs.rules import MAX_SEATS

KINDS: Final[tuple[str, ...]] = tuple(EVENT_TYPES)
"""Event kinds in the order of :data:`envs.events.EVENT_TYPES`; a row's first number is the index."""
KIND_ID: Final[dict[str, int]] = {kind: i for i, kind in enumerate(KINDS)}

K_RESET: Final = KIND_ID["reset"]
K_SHUFFLE: Final = KIND_ID["shuffle"]
K_HIGH_CARD: Final = KIND_ID["high_card"]
K_BID: Final = KIND_ID["bid"]
K_FIRST_BANK: Final = KIND_ID["first_bank"]
K_HAND: Final = KIND_ID["hand"]
K_ANTE: Final = KIND_ID["ante"]
K_CARD: Final = KIND_ID["card"]
K_REVEAL: Final = KIND_ID["reveal"]
K_DISCARDED: Final = KIND_ID["discarded"]
K_FOUR_BACK: Final = KIND_ID["four_back"]
K_ACTION: Final = KIND_ID["action"]
K_STATUS: Final = KIND_ID["status"]
K_BET: Final = KIND_ID["bet"]
K_RAISE: Final = KIND_ID["raise"]
K_DOUBLE: Final = KIND_ID["double"]
K_SPLIT: Final = KIND_ID["split"]
K_SPECIAL: Final = KIND_ID["special"]
K_DECLINE_MORT: Final = KIND_ID["decline_mort"]
K_SIDE_BET: Final = KIND_ID["side_bet"]
K_BUST: Final = KIND_ID["bust"]
K_LOSE: Final = KIND_ID["lose"]
K_SIDE_LOSE: Final = KIND_ID["side_lose"]
K_WIN: Final = KIND_ID["win"]
K_SIDE_WIN: Final = KIND_ID["side_win"]
K_JACKPOT: Final = KIND_ID["jackpot"]
K_CHIPS: Final = KIND_ID["chips"]
K_FORCED_TAKE: Final = KIND_ID["forced_take"]
K_SELL: Final = KIND_ID["sell"]
K_BANK: Final = KIND_ID["bank"]
K_OVER: Final = KIND_ID["over"]

ROW: Final = 3 + MAX_SEATS
"""Numbers per row: the kind and the widest kinds' fields (``chips``: jackpot, seats, one per seat)."""

REASONS: Final[tuple[str, ...]] = (
    "", "given", "random", "high_card", "random (no bids)", "bought", "first bank",
    "cannot cover", "max_bank_hands", "pair_of_sevens", "triple", "natural", "seven_and_half",
    "sale", "secret_three", "change_four")
"""Why a bank moves or a first card is thrown (``first_bank``, ``bank``, ``discarded``)."""
REASON_ID: Final[dict[str, int]] = {reason: i for i, reason in enumerate(REASONS)}
R_BOUGHT: Final = REASON_ID["bought"]
_BOUGHT_PREFIX, _BOUGHT_SUFFIX = "bought for ", " to each seat"

SPECIALS: Final[tuple[str, ...]] = ("pair_of_sevens", "triple", "mort", "fusilar")
"""Special hands (``special`` events, RULES.md §4.8 and §6)."""
SPECIAL_ID: Final[dict[str, int]] = {name: i for i, name in enumerate(SPECIALS)}

_BOOLEAN_FIELDS: Final = frozenset({"face_up", "unseen"})


def _reason_numbers(reason: str) -> list[int]:
    if reason.startswith(_BOUGHT_PREFIX) and reason.endswith(_BOUGHT_SUFFIX):
        return [R_BOUGHT, int(reason[len(_BOUGHT_PREFIX):-len(_BOUGHT_SUFFIX)])]
    if reason not in REASON_ID:
        raise ValueError(f"unknown reason {reason!r}; known: {', '.join(map(repr, REASONS))}")
    return [REASON_ID[reason], 0]


def _reason_text(numbers: np.ndarray) -> str:
    code = int(numbers[0])
    if code == R_BOUGHT:
        return f"{_BOUGHT_PREFIX}{int(numbers[1])}{_BOUGHT_SUFFIX}"
    return REASONS[code]


def encode(event: tuple, layout: ActionLayout) -> np.ndarray:
    """The row of the logged tuple ``event`` (an :class:`envs.engine.Engine` event).

    ``layout`` is the engine's action layout (``engine.layout``), for ``action`` events.
    """
    kind = event[0]
    if kind not in KIND_ID:
        raise ValueError(f"unknown event kind {kind!r}; known kinds: {', '.join(KINDS)}")
    fields = EVENT_TYPES[kind]._fields[1:]
    if len(event) != len(fields) + 1:
        raise ValueError(f"a {kind!r} event has {len(fields) + 1} items, not {len(event)}: "
                         f"{event!r}")
    numbers: list[int] = [KIND_ID[kind]]
    if kind == "reset":
        numbers += [int(event[1]), -1 if event[3] is None else int(event[3])]
    elif kind == "hand":
        number, bank, streak, order = event[1:]
        numbers += [number, bank, streak, len(order), *order]
    elif kind == "chips":
        chips, jackpot = event[1:]
        numbers += [jackpot, len(chips), *chips]
    elif kind in ("first_bank", "bank", "discarded"):
        numbers += [int(value) for value in event[1:-1]] + _reason_numbers(event[-1])
    elif kind == "special":
        numbers += [event[1], SPECIAL_ID[event[2]], event[3]]
    elif kind == "action":
        numbers += [event[1], layout.names.index(event[2])]
    else:
        numbers += [int(value) for value in event[1:]]
    row = np.zeros(ROW, dtype=np.int64)
    row[:len(numbers)] = numbers
    return row


def decode(row: np.ndarray, layout: ActionLayout) -> tuple:
    """The event tuple of ``row`` (see :func:`encode`; a ``reset`` loses its deck and chips)."""
    kind = KINDS[int(row[0])]
    fields = EVENT_TYPES[kind]._fields[1:]
    values = [int(x) for x in row[1:]]
    if kind == "reset":
        return (kind, values[0], None, None if values[1] < 0 else values[1], None)
    if kind == "hand":
        number, bank, streak, size = values[:4]
        return (kind, number, bank, streak, tuple(values[4:4 + size]))
    if kind == "chips":
        jackpot, size = values[:2]
        return (kind, values[2:2 + size], jackpot)
    if kind in ("first_bank", "bank", "discarded"):
        head = len(fields) - 1
        return (kind, *values[:head], _reason_text(row[1 + head:]))
    if kind == "special":
        return (kind, values[0], SPECIALS[values[1]], values[2])
    if kind == "action":
        return (kind, values[0], layout.names[values[1]])
    return (kind, *[bool(v) if name in _BOOLEAN_FIELDS else v
                    for name, v in zip(fields, values)])


def encode_log(events: list[tuple], layout: ActionLayout) -> np.ndarray:
    """A whole event log as an ``(n, ROW)`` array of rows."""
    out = np.zeros((len(events), ROW), dtype=np.int64)
    for i, event in enumerate(events):
        out[i] = encode(event, layout)
    return out
