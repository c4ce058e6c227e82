"""The slow reference of a batch of tables: one scalar engine per table.

:class:`ScalarTables` is a :class:`~envs.batch.api.TableBatch` made of
``num_tables`` :class:`envs.engine.Engine` objects, each with its
:class:`~envs.observer.Observer` (and, when first asked,
:class:`~envs.information_state.InformationStateObserver`). It loops over
the tables in Python and is therefore exactly the game — the rules, the
shoes (``Engine.reset(seed=s)``), the event log and what each seat sees.
Every fast path of :mod:`envs.batch` is tested against it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping

import numpy as np

from envs.batch.api import action_array, check_tables, not_dealt, seat_rows, table_indices
from envs.batch.event_rows import encode_log
from envs.engine import Engine, IllegalActionError
from envs.observer import Observer, observation_size
from envs.rules import Rules

__all__ = ["ScalarTables"]


class ScalarTables:
    """``num_tables`` scalar engines behind the :class:`~envs.batch.api.TableBatch` protocol.

    ``rules``, ``num_seats`` and ``max_hands`` are the engine's
    (:class:`envs.engine.Engine`); every table starts over until :meth:`reset`.
    """

    def __init__(self, rules: Rules | str | Path | Mapping[str, Any] | None, num_seats: int,
                 num_tables: int, max_hands: int | None = 10) -> None:
        if isinstance(num_tables, bool) or not isinstance(num_tables, (int, np.integer)) \
                or num_tables < 1:
            raise ValueError(f"num_tables={num_tables!r} must be a positive integer")
        self.engines = [Engine(rules, num_seats, max_hands) for _ in range(int(num_tables))]
        first = self.engines[0]
        self.rules: Rules = first.rules
        self.num_tables = int(num_tables)
        self.num_seats: int = first.num_seats
        self.max_hands = first.max_hands
        self.layout = first.layout
        self.observation_size = observation_size(self.num_seats)
        self.observers = [Observer(e) for e in self.engines]
        self._states: list[Any] | None = None  # InformationStateObservers, when first asked
        b, s = self.num_tables, self.num_seats
        self.actor = np.full(b, -1, dtype=np.int64)
        self.over = np.ones(b, dtype=bool)
        self.phase = np.zeros(b, dtype=np.int64)
        self.bank = np.full(b, -1, dtype=np.int64)
        self.chips = np.zeros((b, s), dtype=np.int64)
        self.jackpot = np.zeros(b, dtype=np.int64)
        self.pile_left = np.zeros(b, dtype=np.int64)
        self.hands_played = np.zeros(b, dtype=np.int64)
        self.bank_streak = np.zeros(b, dtype=np.int64)
        self.refused = np.zeros((b, s), dtype=bool)
        self.in_hand = np.zeros((b, s), dtype=bool)
        self.rewards = np.zeros((b, s), dtype=np.float64)

    def _read(self, t: int) -> None:  # after the table's reset
        """Copy table ``t``'s engine state into the arrays."""
        e = self.engines[t]
        over = e.over
        self.over[t] = over
        self.actor[t] = -1 if over else e.actor
        self.phase[t] = e.phase
        self.bank[t] = e.bank
        self.chips[t] = e.chips
        self.jackpot[t] = e.jackpot
        self.pile_left[t] = len(e.draw_pile)
        self.hands_played[t] = e.hands_played
        self.bank_streak[t] = e.bank_streak
        self.refused[t] = e.refused
        self.in_hand[t] = False
        self.in_hand[t, list(e.order)] = True
        self.rewards[t] = e.pending_rewards

    def reset(self, seeds: np.ndarray, tables: np.ndarray | None = None,
              banks: np.ndarray | None = None, chips: np.ndarray | None = None) -> None:
        idx = table_indices(self.num_tables, tables)
        seeds = check_tables(len(idx), seeds)
        for i, t in enumerate(idx):
            bank = None if banks is None or banks[i] < 0 else int(banks[i])
            stacks = None if chips is None else [int(c) for c in chips[i]]
            # a uint64 seed past 2**63 came in wrapped to int64: its bits are the seed
            self.engines[t].reset(seed=int(seeds[i]) % 2**64, bank=bank, chips=stacks)
            self._read(int(t))

    def step(self, actions: np.ndarray, tables: np.ndarray | None = None) -> None:
        acts = action_array(actions)
        if tables is None:
            if len(acts) != self.num_tables:
                raise ValueError(f"{len(acts)} actions for {self.num_tables} tables")
            idx = np.flatnonzero(~self.over)
            acts = acts[idx]
        else:
            idx = table_indices(self.num_tables, tables)
            if len(acts) != len(idx):
                raise ValueError(f"{len(acts)} actions for {len(idx)} tables")
        for t, a in zip(idx, acts):
            e = self.engines[t]
            if e.over or not (0 <= a < self.layout.size) or int(a) not in e.legal_actions():
                raise IllegalActionError(
                    f"table {int(t)}: action {int(a)} is not legal; legal: "
                    f"{[] if e.over else e.legal_actions()}")
        self.rewards[:] = 0.0
        for t, a in zip(idx, acts):
            self.engines[t].step(int(a))
            self._read(int(t))

    def _check_dealt(self, tables: np.ndarray) -> None:
        """Refuse to observe a table whose engine was never reset
        (:func:`~envs.batch.api.not_dealt`, as the compiled batch before its first reset)."""
        for t in tables:
            if not self.engines[t].events:
                not_dealt(None if not any(e.events for e in self.engines) else int(t))

    def masks(self, out: np.ndarray | None = None) -> np.ndarray:
        if out is None:
            out = np.zeros((self.num_tables, self.layout.size), dtype=np.int8)
        for t, e in enumerate(self.engines):
            if e.over:
                out[t] = 0
            else:
                out[t] = e.action_mask()
        return out

    def observe(self, seats: np.ndarray, out: np.ndarray | None = None,
                tables: np.ndarray | None = None) -> np.ndarray:
        idx, rows = seat_rows(self.num_tables, self.num_seats, seats, tables)
        self._check_dealt(idx)
        if out is None:
            out = np.zeros((len(idx), self.observation_size), dtype=np.float32)
        for i, t in enumerate(idx):
            out[i] = self.observers[t].observe(int(rows[i]))
        return out

    def information_state(self, seats: np.ndarray, out: np.ndarray | None = None,
                          tables: np.ndarray | None = None) -> np.ndarray:
        from envs.information_state import InformationStateObserver

        if self._states is None:
            self._states = [InformationStateObserver(e, o)
                            for e, o in zip(self.engines, self.observers)]
        idx, seat = seat_rows(self.num_tables, self.num_seats, seats, tables)
        self._check_dealt(idx)
        rows = [self._states[t].observe(int(seat[i])) for i, t in enumerate(idx)]
        if out is None:
            return np.stack(rows)
        out[:] = rows
        return out

    def events(self, table: int) -> np.ndarray:
        e = self.engines[table]
        return encode_log(e.events, e.layout)
