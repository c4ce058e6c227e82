"""The compiled kernels of :class:`envs.batch.information_state.BatchHistory` (numba).

:class:`envs.information_state.InformationStateObserver`'s reading of events
(``_read``) and writing of slots (``history``), one table per ``prange``
iteration. A table's history is an ``items[t, j, I_*]`` array of the hand's
items in order, seats absolute (RULES.md §8.10: the window is the current
hand, from its ``hand`` row on); each card item keeps who may know its rank
(``I_KNOWER``: :data:`ALL`, :data:`NOBODY` or a seat — RULES.md §4.1, §4.6,
§6, the observer's rule), and a seat's slots are written from the items when
asked, seats relative to it.

Per table: ``nitems``, ``stage`` (what a ``pass`` means: a bid, a side bet or
keeping the bank), ``bank`` (the hand's bank), ``shuffled`` (a shuffle came
since the last card) and ``overflow[t]`` = (1, kind, seat, hands played) once
an item did not fit: the table then reads nothing until its next ``reset`` row,
and the Python side raises :class:`envs.information_state.HistoryOverflow`.
"""

from __future__ import annotations

from typing import Final

from numba import prange

from envs.batch import event_rows as _rows
from envs.batch.table_jit import table_jit
from envs.cards import NUM_RANKS

K_RESET: Final = _rows.K_RESET
K_SHUFFLE: Final = _rows.K_SHUFFLE
K_BID: Final = _rows.K_BID
K_HAND: Final = _rows.K_HAND
K_CARD: Final = _rows.K_CARD
K_REVEAL: Final = _rows.K_REVEAL
K_DISCARDED: Final = _rows.K_DISCARDED
K_FOUR_BACK: Final = _rows.K_FOUR_BACK
K_ACTION: Final = _rows.K_ACTION
K_STATUS: Final = _rows.K_STATUS
K_BET: Final = _rows.K_BET
K_RAISE: Final = _rows.K_RAISE
K_DOUBLE: Final = _rows.K_DOUBLE
K_SPLIT: Final = _rows.K_SPLIT
K_SPECIAL: Final = _rows.K_SPECIAL
K_DECLINE_MORT: Final = _rows.K_DECLINE_MORT
K_SIDE_BET: Final = _rows.K_SIDE_BET
K_CHIPS: Final = _rows.K_CHIPS
K_FORCED_TAKE: Final = _rows.K_FORCED_TAKE
K_SELL: Final = _rows.K_SELL
K_BANK: Final = _rows.K_BANK
RANKS: Final = NUM_RANKS

# An item's fields.
I_KIND: Final = 0
I_SEAT: Final = 1
I_TARGET: Final = 2
I_CARD: Final = 3
I_KNOWER: Final = 4
I_HAND: Final = 5
I_AMOUNT: Final = 6
I_SHUFFLED: Final = 7
ITEM_FIELDS: Final = 8

ALL: Final = -2
"""``I_KNOWER``: every seat may know the card's rank."""
NOBODY: Final = -1
"""``I_KNOWER``: no seat may (the bank's card before its turn, an unseen card)."""

# The window's stages (envs.information_state: what a pass means).
AUCTION: Final = 0
HAND: Final = 1
SETTLED: Final = 2

# The rules' item kinds by code (an int64 array, C_*).
C_CARD_UP: Final = 0
C_CARD_DOWN: Final = 1
C_REVEAL: Final = 2
C_BET: Final = 3
C_RAISE: Final = 4
C_DOUBLE: Final = 5
C_SPLIT: Final = 6
C_DISCARD: Final = 7
C_FOUR_BACK: Final = 8
C_DECLINE_MORT: Final = 9
C_SIDE_BET: Final = 10
C_SELL: Final = 11
C_FORCED_TAKE: Final = 12
C_BANK_PASSES: Final = 13
C_BID: Final = 14
C_PASS: Final = 15
"""Three entries: the kind of a ``pass`` at each stage."""
CODES: Final = 18

PASS: Final = -2
"""``action_item``: the action is a pass (its kind depends on the stage)."""

# Slot offsets (an int64 array, O_*).
O_SEAT: Final = 0
O_TARGET: Final = 1
O_RANK: Final = 2
O_WILD: Final = 3
O_SHUFFLED: Final = 4
O_AMOUNT: Final = 5
O_HAND: Final = 6
OFFSETS: Final = 7


@table_jit(inline=True)
def _add(t, kind, seat, target, card, knower, hand, amount, items, nitems, shuffled, overflow,
         hands_played):
    """One item (``InformationStateObserver._add``); past the slots, the overflow."""
    j = nitems[t]
    if j >= items.shape[1]:
        overflow[t, 0] = 1
        overflow[t, 1] = kind
        overflow[t, 2] = seat
        overflow[t, 3] = hands_played[t]
        return
    items[t, j, I_KIND] = kind
    items[t, j, I_SEAT] = seat
    items[t, j, I_TARGET] = target
    items[t, j, I_CARD] = card
    items[t, j, I_KNOWER] = knower
    items[t, j, I_HAND] = hand
    items[t, j, I_AMOUNT] = amount
    items[t, j, I_SHUFFLED] = 0
    if card >= 0 and shuffled[t]:
        items[t, j, I_SHUFFLED] = 1
        shuffled[t] = False
    nitems[t] = j + 1


@table_jit(inline=True)
def _knower(seat, face_up, unseen, bank):
    if face_up:
        return ALL
    return NOBODY if unseen or seat == bank else seat


@table_jit(inline=True)
def _read_rows(t, rows, count, items, nitems, stage, bank, shuffled, overflow, hands_played,
               codes, status_item, special_item, action_item):
    for k in range(count):
        kind = rows[t, k, 0]
        if kind == K_RESET:
            nitems[t] = 0
            stage[t] = AUCTION
            bank[t] = -1
            shuffled[t] = False
            for j in range(overflow.shape[1]):
                overflow[t, j] = 0
            continue
        if overflow[t, 0]:
            continue
        item = -1
        seat = rows[t, k, 1]
        target = -1
        card = -1
        knower = ALL
        hand = 0
        amount = 0
        if kind == K_CARD:
            up = rows[t, k, 3] != 0
            item = codes[C_CARD_UP] if up else codes[C_CARD_DOWN]
            card = rows[t, k, 2]
            knower = _knower(seat, up, rows[t, k, 5] != 0, bank[t])
            hand = rows[t, k, 4]
        elif kind == K_STATUS:
            item = status_item[rows[t, k, 2]]
            hand = rows[t, k, 3]
        elif kind == K_REVEAL:
            item = codes[C_REVEAL]
            card = rows[t, k, 2]
            hand = rows[t, k, 3]
        elif kind == K_BET:
            item = codes[C_BET]
            hand = rows[t, k, 3]
            amount = rows[t, k, 2]
        elif kind == K_RAISE:
            item = codes[C_RAISE]
            hand = rows[t, k, 4]
            amount = rows[t, k, 2]
        elif kind == K_ACTION:
            item = action_item[rows[t, k, 2]]
            if item == PASS:
                item = codes[C_PASS + stage[t]]
        elif kind == K_HAND:
            nitems[t] = 0
            stage[t] = HAND
            bank[t] = rows[t, k, 2]
            shuffled[t] = False
        elif kind == K_CHIPS:
            stage[t] = SETTLED
        elif kind == K_SHUFFLE:
            shuffled[t] = True
        elif kind == K_DOUBLE:
            item = codes[C_DOUBLE]
            hand = rows[t, k, 3]
            amount = rows[t, k, 2]
        elif kind == K_SPLIT:
            item = codes[C_SPLIT]
            card = rows[t, k, 2]
            knower = _knower(seat, rows[t, k, 5] != 0, rows[t, k, 6] != 0, bank[t])
            hand = rows[t, k, 4]
        elif kind == K_SPECIAL:
            item = special_item[rows[t, k, 2]]
            hand = rows[t, k, 3]
        elif kind == K_DISCARDED:
            item = codes[C_DISCARD]
            card = rows[t, k, 2]
        elif kind == K_FOUR_BACK:
            item = codes[C_FOUR_BACK]
            card = rows[t, k, 2]
        elif kind == K_DECLINE_MORT:
            item = codes[C_DECLINE_MORT]
        elif kind == K_SIDE_BET:
            item = codes[C_SIDE_BET]
            target = rows[t, k, 2]
            amount = rows[t, k, 3]
        elif kind == K_SELL:
            item = codes[C_SELL]
            target = rows[t, k, 2]
        elif kind == K_FORCED_TAKE:
            item = codes[C_FORCED_TAKE]
        elif kind == K_BANK:
            item = codes[C_BANK_PASSES]
        elif kind == K_BID:
            item = codes[C_BID]
            amount = rows[t, k, 2]
        if item >= 0:
            _add(t, item, seat, target, card, knower, hand, amount, items, nitems, shuffled,
                 overflow, hands_played)


@table_jit(parallel=True)
def update(rows, counts, hands_played, items, nitems, stage, bank, shuffled, overflow, codes,
           status_item, special_item, action_item):
    """Every table reads its ``counts[t]`` new rows into its items."""
    for t in prange(rows.shape[0]):
        if counts[t]:
            _read_rows(t, rows, counts[t], items, nitems, stage, bank, shuffled, overflow,
                       hands_played, codes, status_item, special_item, action_item)


@table_jit(parallel=True)
def write(tables, seats, out, start, width, items, nitems, offsets, wild, stake_scale):
    """Table ``tables[i]``'s slots as ``seats[i]`` sees them into ``out[i, start:]``
    (``InformationStateObserver.history``: unused slots 0)."""
    n_seats = offsets[O_TARGET] - offsets[O_SEAT]
    for i in prange(tables.shape[0]):
        t = tables[i]
        seat = seats[i]
        for j in range(start, out.shape[1]):  # entry by entry: a row view costs a
            out[i, j] = 0.0                     # reference count a table
        for j in range(nitems[t]):
            base = start + j * width
            out[i, base + items[t, j, I_KIND]] = 1.0
            out[i, base + offsets[O_SEAT] + (items[t, j, I_SEAT] - seat) % n_seats] = 1.0
            if items[t, j, I_TARGET] >= 0:
                out[i, base + offsets[O_TARGET] + (items[t, j, I_TARGET] - seat) % n_seats] = 1.0
            card = items[t, j, I_CARD]
            if card >= 0 and (items[t, j, I_KNOWER] == ALL or items[t, j, I_KNOWER] == seat):
                out[i, base + offsets[O_RANK] + card % RANKS] = 1.0
                if card == wild:
                    out[i, base + offsets[O_WILD]] = 1.0
            if items[t, j, I_SHUFFLED]:
                out[i, base + offsets[O_SHUFFLED]] = 1.0
            if items[t, j, I_AMOUNT]:
                out[i, base + offsets[O_AMOUNT]] = float(items[t, j, I_AMOUNT]) * stake_scale
            if items[t, j, I_HAND]:
                out[i, base + offsets[O_HAND]] = float(items[t, j, I_HAND])
