"""Each table's hand history for the information state (RULES.md §8.10), from event rows.

:class:`BatchHistory` is the history half of
:class:`envs.information_state.InformationStateObserver` for B tables: it
reads each table's new event rows (:mod:`envs.batch.event_rows`) into the
current hand's items — every bet, raise, card, reveal, stand, bust, split,
house-rule event and bank transfer in order, each card with who may know its
rank — and writes a seat's history slots after its observation.
:class:`envs.batch.observer.BatchObserver` (``information_state=True``) owns
one and feeds it; ``BatchObserver.information_state`` is bit-identical to the
scalar ``InformationStateObserver.observe`` (``tests/test_batch_information_state.py``).

The layout, the kinds and the bound on the slots are
:mod:`envs.information_state`'s; a hand that does not fit raises
:class:`~envs.information_state.HistoryOverflow` as the scalar one does, the
message naming the table. The kernels are in :mod:`envs.batch.obs_history`.
"""

from __future__ import annotations

import numpy as np

from envs.actions import ActionLayout
from envs.batch import obs_history as _k
from envs.batch.event_rows import SPECIALS
from envs.cards import parse_card
from envs.hands import BUST, DECLARED, STATUS_NAMES, STOOD
from envs.information_state import (KIND_NAMES, HistoryOverflow, _slot_offsets, history_slots,
                                    slot_fields, slot_size)
from envs.observation import unit_scale
from envs.rules import Rules

__all__ = ["BatchHistory"]

_CODES = {_k.C_CARD_UP: "card_up", _k.C_CARD_DOWN: "card_down", _k.C_REVEAL: "reveal",
          _k.C_BET: "bet", _k.C_RAISE: "raise", _k.C_DOUBLE: "double", _k.C_SPLIT: "split",
          _k.C_DISCARD: "discard", _k.C_FOUR_BACK: "four_back",
          _k.C_DECLINE_MORT: "decline_mort", _k.C_SIDE_BET: "side_bet", _k.C_SELL: "sell",
          _k.C_FORCED_TAKE: "forced_take", _k.C_BANK_PASSES: "bank_passes", _k.C_BID: "bid",
          _k.C_PASS + _k.AUCTION: "bid_pass", _k.C_PASS + _k.HAND: "side_pass",
          _k.C_PASS + _k.SETTLED: "keep_bank"}
"""The kernels' item codes and the history kinds they stand for."""
_STATUS_KINDS = {STOOD: "stand", BUST: "bust", DECLARED: "declare"}
_ANSWERS = ("take_bank", "refuse_bank", "claim_bank")


def _kind_arrays(rules: Rules) -> tuple[np.ndarray, ...]:
    """The item kind of each code, status, special hand and action (-1: no item)."""
    kind = {name: i for i, name in enumerate(KIND_NAMES)}
    codes = np.full(_k.CODES, -1, dtype=np.int64)
    for code, name in _CODES.items():
        codes[code] = kind[name]
    status = np.array([kind[_STATUS_KINDS[s]] if s in _STATUS_KINDS else -1
                       for s in range(len(STATUS_NAMES))], dtype=np.int64)
    special = np.array([kind[name] for name in SPECIALS], dtype=np.int64)
    names = ActionLayout(rules.bet_ladder).names
    action = np.array([kind[name] if name in _ANSWERS else _k.PASS if name == "pass" else -1
                       for name in names], dtype=np.int64)
    return codes, status, special, action


class BatchHistory:
    """The hand histories of ``num_tables`` tables of ``num_seats`` seats under ``rules``.

    ``slots``: the bound on a hand's items, :func:`envs.information_state.history_slots`
    unless given (a smaller one only to see the overflow raised).
    """

    def __init__(self, rules: Rules | str, num_seats: int, num_tables: int,
                 slots: int | None = None) -> None:
        self.rules = r = Rules.resolve(rules)
        self.num_seats = n = r.check_seats(num_seats)
        self.num_tables = b = num_tables
        self.slots = history_slots(r, n) if slots is None else slots
        self.width = slot_size(n)
        self.size = self.slots * self.width
        """Entries of the history part of the vector."""
        fields = _slot_offsets(slot_fields(n))
        self._offsets = np.array([fields[name].start for name in
                                  ("seat", "target", "rank", "wild", "shuffled", "amount",
                                   "hand")], dtype=np.int64)
        self._wild = -1 if r.wild_card == "none" else parse_card(r.wild_card)
        self._stake_scale = 1.0 / unit_scale("stake", r)
        self._codes, self._status_item, self._special_item, self._action_item = \
            _kind_arrays(r)
        self._items = np.zeros((b, self.slots, _k.ITEM_FIELDS), dtype=np.int64)
        self._nitems = np.zeros(b, dtype=np.int64)
        self._stage = np.zeros(b, dtype=np.int64)
        self._bank = np.full(b, -1, dtype=np.int64)
        self._shuffled = np.zeros(b, dtype=np.bool_)
        self._overflow = np.zeros((b, 4), dtype=np.int64)

    def update(self, rows: np.ndarray, counts: np.ndarray, hands_played: np.ndarray) -> None:
        """Read table ``t``'s new rows ``rows[t, :counts[t]]`` (C arrays, checked by the
        observer; ``hands_played`` names the hand of an overflow)."""
        _k.update(rows, counts, hands_played,
                  self._items, self._nitems, self._stage, self._bank, self._shuffled,
                  self._overflow, self._codes, self._status_item, self._special_item,
                  self._action_item)

    def check(self, tables: np.ndarray) -> None:
        """Raise :class:`HistoryOverflow` for the first of ``tables`` whose hand did not fit."""
        flags = self._overflow[tables, 0]
        if not flags.any():
            return
        t = int(tables[np.flatnonzero(flags)[0]])
        _, kind, seat, played = (int(x) for x in self._overflow[t])
        raise HistoryOverflow(
            f"table {t}: hand {played + 1} has more than {self.slots} history items, the bound "
            f"for these rules at {self.num_seats} seats (envs.information_state, "
            f"history_bound); the item that does not fit: {KIND_NAMES[kind]} of seat {seat}")

    def write(self, tables: np.ndarray, seats: np.ndarray, out: np.ndarray, start: int) -> None:
        """Table ``tables[i]``'s slots as ``seats[i]`` sees them into ``out[i, start:]``."""
        _k.write(tables, seats, out, start, self.width, self._items, self._nitems, self._offsets,
                 self._wild, self._stake_scale)
