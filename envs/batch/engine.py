"""The compiled batch engine: B tables of the full game at once, exactly the scalar engine's play.

:class:`BatchEngine` is a :class:`~envs.batch.api.TableBatch`: the state of
every table lives in numpy arrays whose first axis is the table, and every
:meth:`~BatchEngine.reset` and :meth:`~BatchEngine.step` is one call of a
numba kernel (:mod:`envs.batch.kernels`) that moves each table by the scalar
engine's turn sequence (:mod:`envs.batch.kernels_table`), with scoring and
settlement from the rulebook's twins (:mod:`envs.batch.kernels_rulebook`).

**Same seed, same hands.** Each table's generator is numpy's
``default_rng(seed)`` reimplemented bit for bit (:mod:`envs.batch.rng`), and
it is drawn from exactly where the scalar engine draws (each shuffle of the
shoe, a random first bank), so table ``t`` reset with seed ``s`` plays the
hands ``Engine.reset(seed=s)`` plays: fed the same actions it logs the same
events (as rows, :mod:`envs.batch.event_rows`), moves the same chips and
offers the same actions. ``tests/test_batch_engine.py`` holds it to
:class:`~envs.batch.reference.ScalarTables` over every supported preset.

**Rules.** Everything but the supplementary Spanish rules:
:func:`check_supported` names what is refused (side bets, the bank's sale
and auction, fusilar, abrirse, the optional change of a 4).

**Events.** After each call ``row_buffer[t, :row_count[t]]`` holds the rows
of what that call did at table ``t`` (``row_count`` is 0 at tables it left
alone): the batch observer reads them as the scalar observer reads the
event log. With ``record=True`` the engine also keeps every table's whole
episode for :meth:`~BatchEngine.events`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping

import numpy as np

from envs.actions import ActionLayout
from envs.batch.api import (UnsupportedRules, action_array, check_tables, not_dealt,
                            table_indices)
from envs.batch.event_rows import ROW
from envs.batch.kernels_rulebook import pack_rules
from envs.batch import kernels_table as kt
from envs.batch.handles import TABLE_HANDLE
from envs.engine import IllegalActionError
from envs.observer import observation_size
from envs.phases import OVER
from envs.rules import Rules, check_max_hands

__all__ = ["BatchEngine", "check_supported", "SUPPORTED"]

SUPPORTED: dict[str, tuple[object, ...]] = {
    "side_bets": (False,),
    "bank_sale": (False,),
    "first_bank": ("high_card", "random"),
    "fusilar": (False,),
    "split_rule": ("none", "two_figures_once", "two_figures_unlimited"),
    "change_four": ("off", "forced"),
}
"""The switches the compiled engine does not play in every value, and the values it plays."""


def check_supported(rules: Rules) -> None:
    """Raise :class:`~envs.batch.api.UnsupportedRules` naming every switch of ``rules`` set to a
    value the compiled engine does not play, with the values it plays."""
    bad = [f"{name}={getattr(rules, name)!r} (supported: "
           f"{', '.join(repr(v) for v in values)})"
           for name, values in SUPPORTED.items() if getattr(rules, name) not in values]
    if bad:
        raise UnsupportedRules("; ".join(bad) + " are not played by the compiled batch engine; "
                               "the scalar engine plays them (--engine scalar or auto, "
                               "run.vec_env='views' or 'auto', or envs.batch.ScalarTables)")


def _hand_slots(rules: Rules) -> int:
    """Hands one seat can hold (RULES.md §6 split): one, two, or one per figure of the shoe."""
    return {"none": 1, "two_figures_once": 2}.get(rules.split_rule, 12 * rules.decks)


class BatchEngine:
    """``num_tables`` tables of ``num_seats`` seats under ``rules``, compiled (see the module docstring).

    ``record=True`` keeps each table's episode log for :meth:`events`;
    ``observe=True`` (the default) feeds the batch observer
    (:class:`envs.batch.observer.BatchObserver`) the rows of every call, for
    :meth:`observe`; ``information_state=True`` also keeps each hand's history,
    for :meth:`information_state`.
    """

    def __init__(self, rules: Rules | str | Path | Mapping[str, Any] | None, num_seats: int,
                 num_tables: int, max_hands: int | None = 10, record: bool = False,
                 observe: bool = True, information_state: bool = False) -> None:
        resolved = Rules.resolve(rules)
        check_supported(resolved)
        seats = resolved.check_seats(num_seats)
        if seats > ROW - 4:
            raise UnsupportedRules(f"num_seats={seats}: an event row holds a hand's order of at "
                                   f"most {ROW - 5} players; the compiled engine plays up to "
                                   f"{ROW - 4} seats")
        if isinstance(num_tables, bool) or not isinstance(num_tables, (int, np.integer)) \
                or num_tables < 1:
            raise ValueError(f"num_tables={num_tables!r} must be a positive integer")
        max_hands = check_max_hands(max_hands)
        self.rules: Rules = resolved
        self.num_tables = b = int(num_tables)
        self.num_seats = s = seats
        self.max_hands = max_hands
        self.layout = ActionLayout(tuple(resolved.bet_ladder))
        self.observation_size = observation_size(s)
        self.record = record
        slots = _hand_slots(resolved)
        r = np.zeros(kt.CONFIG_SIZE, dtype=np.int64)
        r[:len(pack_rules(resolved))] = pack_rules(resolved)
        r[kt.C_NUM_SEATS] = s
        r[kt.C_MAX_HANDS] = -1 if max_hands is None else max_hands
        r[kt.C_HAND_SLOTS] = slots
        r[kt.C_BET_START] = self.layout.bet_start
        r[kt.C_RAISE_START] = self.layout.raise_start
        r[kt.C_ACTIONS] = self.layout.size
        self._r = r
        self._ladder = np.array(resolved.bet_ladder, dtype=np.int64)
        self._T = np.zeros((b, kt.T_SIZE), dtype=np.int64)
        self._T[:, kt.T_PHASE] = OVER
        self._T[:, kt.T_ACTOR] = -1
        self._T[:, kt.T_BANK] = -1
        self._SE = np.zeros((b, s, kt.E_SIZE), dtype=np.int64)
        hand_count = s * slots + 1
        self._HF = np.zeros((b, hand_count, kt.H_SIZE), dtype=np.int64)
        self._CD = np.zeros((b, hand_count, kt.MAX_CARDS, 3), dtype=np.int8)
        shoe = 40 * resolved.decks
        self._PILE = np.zeros((b, shoe), dtype=np.int8)
        self._DISC = np.zeros((b, shoe), dtype=np.int8)
        from envs.batch.rng import RNG_WORDS

        self._RNG = np.zeros((b, RNG_WORDS), dtype=np.uint64)
        self.row_capacity = 24 + 12 * s
        self.row_buffer = np.zeros((b, self.row_capacity, ROW), dtype=np.int64)
        self._mask = np.zeros((b, self.layout.size), dtype=np.int8)
        self._handles = np.zeros((b, TABLE_HANDLE), dtype=np.int64)
        """Each table's handle, packed by the kernels at each call (:mod:`envs.batch.handles`)."""
        self._rows_last = np.zeros(0, dtype=np.int64)
        """The tables the last call moved: the only ones with rows, zeroed by the next call."""
        self._rewards_last = np.zeros(0, dtype=np.int64)
        """The tables the last step moved: the only ones with rewards, zeroed by the next step."""
        # The protocol's arrays (envs.batch.api): views of the state, or refreshed by the kernels.
        self.actor = self._T[:, kt.T_ACTOR]
        self.phase = self._T[:, kt.T_PHASE]
        self.bank = self._T[:, kt.T_BANK]
        self.jackpot = self._T[:, kt.T_JACKPOT]
        self.pile_left = self._T[:, kt.T_PILE]
        self.hands_played = self._T[:, kt.T_PLAYED]
        self.bank_streak = self._T[:, kt.T_STREAK]
        self.row_count = self._T[:, kt.T_ROWS]
        self.seen = self._T[:, kt.T_SEEN:kt.T_SEEN + 10]
        self.chips = self._SE[:, :, kt.E_CHIPS]
        self.current = self._SE[:, :, kt.E_CURRENT]
        self.over = np.ones(b, dtype=bool)
        self.refused = np.zeros((b, s), dtype=bool)
        self.rewards = np.zeros((b, s), dtype=np.float64)
        self.in_hand = np.zeros((b, s), dtype=bool)
        self._log: list[list[np.ndarray]] = [[] for _ in range(b)] if record else []
        from envs.batch.observer import BatchObserver

        self._observer: Any = None
        if observe or information_state:
            self._observer = BatchObserver(resolved, s, b, max_hands=max_hands,
                                           information_state=information_state)
            observer = self._observer
        else:  # the kernels take an observer's arrays either way (one signature): a stand-in's
            observer = BatchObserver(resolved, s, 1, max_hands=max_hands)
        self._observing = (self._observer is not None, *observer.kernel_arrays())
        """The kernels' ``observing`` flag and the observer's arrays (:mod:`envs.batch.kernels`)."""
        self._information_state = information_state
        self._dealt = False
        """A table has been reset: before that there is nothing to observe."""

    # ------------------------------------------------------------------ calls
    def _arrays(self) -> tuple[np.ndarray, ...]:
        return (self._r, self._ladder, self._T, self._SE, self._HF, self._CD, self._PILE,
                self._DISC, self._RNG, self.row_buffer, self._mask, self.over, self.refused,
                self.rewards, self.in_hand, self._handles)

    def reset(self, seeds: np.ndarray, tables: np.ndarray | None = None,
              banks: np.ndarray | None = None, chips: np.ndarray | None = None) -> None:
        """``Engine.reset(seed=, bank=, chips=)`` at ``tables`` (see :class:`~envs.batch.api.TableBatch`)."""
        from envs.batch.kernels import reset_tables

        idx = table_indices(self.num_tables, tables)
        seed_array = check_tables(len(idx), seeds)
        n, s = len(idx), self.num_seats
        if banks is None:
            bank_array = np.full(n, -1, dtype=np.int64)
        else:
            bank_array = np.asarray(banks, dtype=np.int64).reshape(-1)
            if len(bank_array) != n or (n and int(bank_array.max()) >= s):
                raise ValueError(f"banks must be {n} seats in 0..{s - 1} or -1; got {banks!r}")
            bank_array = np.where(bank_array < 0, -1, bank_array)
        if chips is None:
            stacks = np.full((n, s), self.rules.starting_chips, dtype=np.int64)
        else:
            stacks = np.asarray(chips)
            if stacks.shape != (n, s) or stacks.dtype.kind not in "iu" or (
                    stacks.size and int(stacks.min()) < 0):
                raise ValueError(f"chips must be {n} rows of {s} non-negative integers; got "
                                 f"{chips!r}")
            stacks = stacks.astype(np.int64)
        kernel: Any = reset_tables  # a numba dispatcher: its arguments are the kernel's
        bad = kernel(*self._arrays(), idx, self._rows_last, seed_array, bank_array, stacks,
                     *self._observing)
        self._rows_last = idx
        self._after(bad, idx, reset=True)
        self._dealt = True

    def step(self, actions: np.ndarray, tables: np.ndarray | None = None) -> None:
        """The actors act (see :class:`~envs.batch.api.TableBatch`); an illegal action moves nothing."""
        from envs.batch.kernels import check_actions, step_tables

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
        bad = check_actions(self._mask, idx, acts)
        if bad >= 0:
            t, a = int(idx[bad]), int(acts[bad])
            names = self.layout.names
            legal = [f"{i} ({names[i]})" for i in np.flatnonzero(self._mask[t])]
            what = f" ({names[a]})" if 0 <= a < len(names) else ""
            raise IllegalActionError(f"table {t}: action {a}{what} is not legal; legal: "
                                     f"{', '.join(legal) if legal else 'none (the episode is over)'}")
        kernel: Any = step_tables
        overflow = kernel(*self._arrays(), idx, acts, self._rows_last, self._rewards_last,
                          *self._observing)
        self._rows_last = self._rewards_last = idx
        self._after(overflow, idx, reset=False)

    def run_turns(self, kernel: Any, tables: np.ndarray, *arguments: Any) -> None:
        """Move ``tables`` by a compiled loop that may take many turns at each in one call.

        ``kernel`` (numba) is called as :func:`envs.batch.kernels.step_tables` is —
        the batch's arrays, ``tables`` (int64 indices), the previous call's tables
        and rewarded tables — then ``arguments``, then the observer's flag and
        arrays; like ``step_tables`` it first zeroes the rows and rewards of the
        previous call's tables (``kernels.clear_rows``, ``kernels.clear_rewards``),
        moves each table only by legal actions through ``kernels.step_one``, and
        returns the first table whose rows overflowed, or -1. Afterwards a table
        holds the rewards of its last move and at most its rows (the VecEnv's turns
        keep none: each move's rows go to a scratch row of the thread, where the
        observer reads them at once): so this needs an engine that keeps neither
        episode logs (``record``) nor hand histories (``information_state``), which
        read every move's rows, and that observes (the kernel feeds the observer at
        every move). The VecEnv's opponents play through it (:mod:`agents.batch_turns`).
        """
        if self.record or self._information_state or self._observer is None:
            raise ValueError("run_turns needs a BatchEngine with observe=True, record=False and "
                             "information_state=False: it keeps only each table's last rows")
        idx = np.ascontiguousarray(tables, dtype=np.int64)
        overflow = kernel(*self._arrays(), idx, self._rows_last, self._rewards_last, *arguments,
                          *self._observing)
        self._rows_last = self._rewards_last = idx
        self._after(overflow, idx, reset=False)

    def _after(self, overflow: int, idx: np.ndarray, reset: bool) -> None:
        if overflow >= 0:
            raise RuntimeError(f"table {overflow}: one call logged more than row_capacity="
                               f"{self.row_capacity} events; the row buffer is too small")
        if self.record:
            for t in idx:
                rows = self.row_buffer[t, :self.row_count[t]].copy()
                if reset:
                    self._log[t] = [rows]
                else:
                    self._log[t].append(rows)
        if self._observer is not None:  # the kernel fed it the rows; its history reads them
            self._observer.updated(self.row_buffer, self.row_count, self)

    def play_thresholds(self, seeds: np.ndarray, banks: np.ndarray | None,
                        thresholds: np.ndarray) -> np.ndarray:
        """Whole episodes of threshold agents, every decision inside the kernel (the evaluator's path).

        Table ``i`` (``len(seeds)`` of them, any number: the engine's own tables
        are not touched) deals the shoe of ``Engine.reset(seed=seeds[i],
        bank=banks[i])`` (``banks`` None or -1: the rules choose) and plays to
        ``max_hands``; each decision is :func:`envs.seat_play.dealer_action`
        with ``thresholds[i, seat, role]`` (points; role 0 as a player, 1
        holding the bank) and the seat's known total. Returns
        ``counts (len(seeds), S, 2, 9)`` float64: per seat and role the fields of
        ``evaluate.tournament`` (chips in units of ``min_bet``, hands, wins,
        pushes, losses, busts, naturals, jackpot hits, jackpot chips). Two seats of
        ``catalan`` (or its fixed-bank form) are played by the flat kernel of
        :mod:`envs.batch.kernels_headsup`, any other table by :mod:`envs.batch.kernels_fused`:
        the same counts (``tests/test_batch_headsup.py``).
        """
        import numba

        from envs.batch.kernels_fused import FIELDS, play_thresholds

        seed_array = check_tables(len(np.asarray(seeds)), seeds)
        n, s = len(seed_array), self.num_seats
        bank_array = np.full(n, -1, dtype=np.int64) if banks is None else \
            np.asarray(banks, dtype=np.int64).reshape(-1)
        if len(bank_array) != n or (n and int(bank_array.max()) >= s):
            raise ValueError(f"banks must be {n} seats in 0..{s - 1} or -1; got {banks!r}")
        bank_array = np.where(bank_array < 0, -1, bank_array)
        # contiguous and writable: numba compiles a read-only array (a broadcast view that is
        # already contiguous, as one table's is) as another signature, a fresh compile
        levels = np.require(thresholds, dtype=np.float64, requirements=("C", "W"))
        if levels.shape != (n, s, 2):
            raise ValueError(f"thresholds must have shape {(n, s, 2)} (table, seat, role), not "
                             f"{levels.shape}")
        counts = np.zeros((n, s, 2, FIELDS), dtype=np.float64)
        if n:
            chunks = min(n, 16 * numba.get_num_threads())
            if self._heads_up_catalan():
                from envs.batch.kernels_headsup import play_headsup

                play_headsup(self._r, seed_array, bank_array, levels, counts, chunks)
            else:
                play_thresholds(self._r, self._ladder, seed_array, bank_array, levels, counts,
                                chunks)
        return counts

    def _heads_up_catalan(self) -> bool:
        """Whether :meth:`play_thresholds` may take :mod:`envs.batch.kernels_headsup`'s flat kernel:
        two seats of ``catalan`` or of its fixed-bank form (the only tables it plays)."""
        if self.num_seats != 2:
            return False
        from envs.single_seat import fixed_bank_rules

        catalan = Rules.preset("catalan")
        return self.rules == catalan or self.rules == fixed_bank_rules(catalan)

    # ------------------------------------------------------------------ reads
    def masks(self, out: np.ndarray | None = None) -> np.ndarray:
        """``(B, A)`` int8: each table's actor's legal actions (``Engine.action_mask()``)."""
        if out is None:
            return self._mask.copy()
        out[:] = self._mask
        return out

    def observe(self, seats: np.ndarray, out: np.ndarray | None = None,
                tables: np.ndarray | None = None) -> np.ndarray:
        """``(B, observation_size)`` float32, bit-identical to the scalar ``Observer.observe``
        (``tables``: only those, row ``i`` being table ``tables[i]`` seen by ``seats[i]``)."""
        if self._observer is None:
            raise ValueError("this BatchEngine was built with observe=False: it keeps no "
                             "observations")
        if not self._dealt:
            not_dealt()
        return self._observer.observe(seats, out, tables)

    def information_state(self, seats: np.ndarray, out: np.ndarray | None = None,
                          tables: np.ndarray | None = None) -> np.ndarray:
        """``(B, information_state_size)`` float32, bit-identical to the scalar information
        state (``tables`` as :meth:`observe`'s)."""
        if not self._information_state:
            raise ValueError("information_state() needs BatchEngine(..., "
                             "information_state=True): the history of each hand is kept "
                             "from the tables' reset on")
        if not self._dealt:
            not_dealt()
        return self._observer.information_state(seats, out, tables)

    def events(self, table: int) -> np.ndarray:
        """Table ``table``'s rows since its reset (needs ``record=True``)."""
        if not self.record:
            raise ValueError("events() needs BatchEngine(..., record=True): this engine keeps "
                             "only the rows of the last call (row_buffer, row_count)")
        parts = self._log[table]
        if not parts:
            return np.zeros((0, ROW), dtype=np.int64)
        return np.concatenate(parts)
