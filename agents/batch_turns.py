"""The baselines' turns at a batch of tables in one compiled call: the learner's move to its next.

A learner's step at :class:`train.batch_vec_env.BatchSeatVecEnv` is its
action, then every other seat's turns until the table waits for the learner
again or the episode ends. Played from Python that is a few rounds of
observe, decide and step over the tables still moving, each a kernel call
and numpy bookkeeping. When every opponent is a baseline with a kernel —
the threshold rule, the careful player and the table-reading bank, or a
``PLAYER|BANK`` pair of them (:mod:`agents.batch_policies`) — :func:`play_turns`
does it all in one pass over the tables: at each table the learner's action,
then, while the episode goes on and a seat other than the learner's is to
act, that seat's observation (:func:`envs.batch.obs_kernels.write_observation`),
its policy's choice (the same kernels :func:`agents.batch_policies.batch_policy`
calls, so the same action on the same observation) and the move
(:func:`envs.batch.kernels.step_one`), adding the learner's reward of each move.

The play is the Python loop's, move for move: the same tables reach the same
states with the same rewards (``tests/test_batch_turns.py`` holds the VecEnv
to its Python loop). A choice the kernels leave to the scalar agent (a state
outside the careful agent's tables) or an action that is not legal stops
that table where it is, flagged in ``left``: the caller's Python loop takes
it from there, asking the agent's ``act`` or naming the illegal action.

The engine calls the kernel (:meth:`envs.batch.engine.BatchEngine.run_turns`).
A move's rows are read by the observer inside the loop and by nothing after
it, so they are written to a row buffer of the thread, not the table's (one
that stays in the core's cache instead of thousands, one a table), and no
table holds rows afterwards: the VecEnv takes this path for observations,
not for information states (whose histories read every move's rows in Python).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
from numba import get_thread_id, prange

from agents.batch_policies import (_IS_BANK, _OWN_TOTAL, _W_SIZE, POLICY_SOURCES, CarefulTables,
                                   _careful_row, _CarefulBatch, _half, _RoleSplitBatch,
                                   _thread_rows, _threshold_action, _ThresholdBatch,
                                   careful_tables)
from envs.batch.engine import BatchEngine
from envs.batch.handles import pack_observer, pack_table
from envs.batch.jit_cache import SOURCES, refresh
from envs.batch.kernels import (clear_rewards, clear_rows, first_overflow, prefetch_ahead,
                                step_one)
from envs.batch.kernels_table import T_ACTOR, T_BANK, T_PLAYED, T_ROWS
from envs.batch.obs_kernels import write_observation
from envs.batch.table_jit import table_jit
from envs.cards import NUM_RANKS
from envs.observation import GLOBAL_SIZE

__all__ = ["TurnPolicies", "TableTurns", "TURNS_SOURCES", "turn_policies", "play_turns"]

TURNS_SOURCES = (Path(__file__).resolve(), *POLICY_SOURCES, *SOURCES["kernels"])
"""The files :func:`play_turns` is compiled from: it inlines the engine's step and observer
and calls the policies' kernels (:data:`agents.batch_policies.POLICY_SOURCES`)."""
refresh(Path(__file__).resolve().parent, {"batch_turns": TURNS_SOURCES})

THRESHOLD, CAREFUL, SPLIT, UNPLAYED = 0, 1, 2, 3
"""A policy's kind in :class:`TurnPolicies`: its kernel, or none for a number never played."""


class TurnPolicies(NamedTuple):
    """Numbered policies as :func:`play_turns` reads them.

    ``kinds[p]``: :data:`THRESHOLD` (its points in ``thresholds[p]``),
    :data:`CAREFUL` (its tables at ``careful_at[p]`` of the stacked
    :class:`~agents.batch_policies.CarefulTables` fields), :data:`SPLIT`
    (``sides[p]``: the numbers of its player and its bank, neither a split) or
    :data:`UNPLAYED` (a number no seat plays: a pool's).
    """

    kinds: np.ndarray
    thresholds: np.ndarray
    sides: np.ndarray
    careful_at: np.ndarray
    stand: np.ndarray
    stand_ok: np.ndarray
    play: np.ndarray
    play_ok: np.ndarray
    numbers: np.ndarray


def turn_policies(batched: Sequence[Any], num_seats: int,
                  unplayed: Sequence[bool] = ()) -> TurnPolicies | None:
    """``batched`` (batch policies, numbered as listed) as :func:`play_turns` reads them, or
    None when one of them has no kernel here (a learned model, random play). Numbers that
    ``unplayed`` marks are never asked (a pool's, whose members are drawn and numbered);
    they need no kernel, and a table that asked one would be left to the caller."""
    entries = list(batched)  # then the sides of each split, numbered after the listed ones
    kinds: list[int] = []
    thresholds: list[float] = []
    sides: list[tuple[int, int]] = []
    careful_at: list[int] = []
    tables: list[CarefulTables] = []
    for p, policy in enumerate(entries):
        kind, threshold, pair, at = type(policy), 0.0, (0, 0), 0
        if p < len(unplayed) and unplayed[p]:
            code = UNPLAYED
        elif kind is _ThresholdBatch:
            code, threshold = THRESHOLD, float(policy.agent.threshold)
        elif kind is _CarefulBatch:
            code, at = CAREFUL, len(tables)
            tables.append(careful_tables(policy.agent, num_seats))
        elif kind is _RoleSplitBatch and p < len(batched):  # a split's sides are no splits
            code, pair = SPLIT, (len(entries), len(entries) + 1)
            entries.extend(policy.sides)
        else:
            return None
        kinds.append(code)
        thresholds.append(threshold)
        sides.append(pair)
        careful_at.append(at)
    stacked = [np.stack([getattr(t, name) for t in tables or [_NO_TABLES]])
               for name in CarefulTables._fields]  # the kernel takes them either way
    return TurnPolicies(np.array(kinds, dtype=np.int64), np.array(thresholds),
                        np.array(sides, dtype=np.int64).reshape(-1, 2),
                        np.array(careful_at, dtype=np.int64), *stacked)


class TableTurns:
    """The other seats' turns at ``engine``'s tables through :func:`play_turns`, with its
    outputs for up to every table at once and a scratch row per thread of numba's
    (``NUMBA_NUM_THREADS``; :func:`numba.get_thread_id` is below it): the row an opponent's
    observation and its policy's figures are worked out in. One per thread, not per table,
    stays in the core's cache from one table to the next; thousands of rows, one a table,
    were a cache miss at every decision."""

    def __init__(self, engine: BatchEngine) -> None:
        b, threads = engine.num_tables, _thread_rows()
        self.engine = engine
        self._rows = np.zeros((threads, *engine.row_buffer.shape[1:]), dtype=np.int64)
        thread, row, field = self._rows.strides
        self._rows_seen = np.lib.stride_tricks.as_strided(
            self._rows, (threads, b, *engine.row_buffer.shape[1:]), (thread, 0, row, field))
        """Each thread's rows as the observer reads a table's, ``[thread][t]`` for every
        table ``t`` (a view: the table axis has no stride)."""
        self._obs = np.zeros((threads, engine.observation_size), dtype=np.float32)
        self._values = np.zeros((threads, NUM_RANKS), dtype=np.int64)
        self._probs = np.zeros((threads, NUM_RANKS), dtype=np.float64)
        self._work = np.zeros((threads, _W_SIZE), dtype=np.float64)
        self._gained = np.zeros(b, dtype=np.float64)
        self._left = np.zeros(b, dtype=np.bool_)

    def play(self, tables: np.ndarray, actions: np.ndarray, learner: np.ndarray,
             hand: np.ndarray | None, seat_policy: np.ndarray, bank_policy: np.ndarray | None,
             policies: TurnPolicies) -> tuple[np.ndarray, np.ndarray]:
        """At each table of ``tables``: ``actions[i]`` by its learner (-1: none), then the
        other seats until the learner (``learner[t]``, its seat) is to act again, the table
        is over or, with ``hand``, its hand is no longer ``hand[t]``. Seat ``s`` plays policy
        ``seat_policy[t, s]``, the bank's seat ``bank_policy[t]`` when given. Returns the
        learner's rewards summed over the moves, and which tables were left to the caller
        (module docstring); both are scratch, valid until the next call."""
        n = len(tables)
        gained, left = self._gained[:n], self._left[:n]
        per_hand = hand is not None
        self.engine.run_turns(
            play_turns, tables, np.ascontiguousarray(actions, dtype=np.int64), learner,
            hand if per_hand else learner, per_hand, seat_policy,
            bank_policy if bank_policy is not None else learner, bank_policy is not None,
            *policies, self._obs, self._values, self._probs, self._work, self._rows,
            self._rows_seen, gained, left)
        return gained, left


_NO_TABLES = CarefulTables(np.zeros((1, 1, 1, 1)), np.zeros((1, 1, 1, 1), dtype=np.bool_),
                           np.zeros((1, 1, 1, 1)), np.zeros((1, 1, 1, 1), dtype=np.bool_),
                           np.zeros(1))
"""Stand-in careful tables when no policy is careful (the kernel's arguments keep their types)."""


@table_jit(inline=True)
def _decide(p, obs, mask, kinds, thresholds, sides, careful_at, stand, stand_ok, play, play_ok,  # type: ignore[no-untyped-def]
            numbers, values, probs, work, num_seats):
    """Policy ``p``'s choice on one observation row: the kernel of its kind, as
    :func:`agents.batch_policies.batch_policy`'s wrapper calls it (-1: left to ``act``)."""
    if kinds[p] == SPLIT:  # _RoleSplitBatch: by whether the seat holds the bank
        p = sides[p, 1] if obs[GLOBAL_SIZE + _IS_BANK] > 0 else sides[p, 0]  # its own block
    if kinds[p] == THRESHOLD:
        return _threshold_action(thresholds[p], _half(obs[_OWN_TOTAL]), mask)
    if kinds[p] == UNPLAYED:
        return -1
    k = careful_at[p]
    return _careful_row(obs, mask, CarefulTables(stand[k], stand_ok[k], play[k], play_ok[k],
                                                 numbers[k]),
                        num_seats, values, probs, work)


@table_jit(parallel=True)
def play_turns(r, lad, T, SE, HF, CD, PILE, DISC, RNG, ROWS, MASK, OVER_, REFUSED, REW,  # type: ignore[no-untyped-def]
               IN_HAND, TB, idx, last, rewarded, actions, learner, hand, per_hand, seat_policy,
               bank_policy, split_roles, kinds, thresholds, sides, careful_at, stand, stand_ok,
               play, play_ok, numbers, obs, values, probs, work, rows, rows_seen, gained, left,
               observing, pub, own, tab, views, nhands, current, status, side, hand_bank, bank,
               seen, stale, dirty, error, ints, floats, half, wild_sums, wipe_dealt, wipe_empty,
               wiped, oh):
    """:meth:`TableTurns.play`'s loop (module docstring), one table per iteration, each thread
    deciding in its own scratch row (``obs``, ``values``, ``probs``, ``work``) and writing
    each move's rows to its own row buffer (``rows``; the observer reads it as
    ``rows_seen[thread]``); called by :meth:`envs.batch.engine.BatchEngine.run_turns`,
    which passes the batch's arrays."""
    clear_rows(T, last)
    clear_rewards(REW, rewarded)
    pack_observer(oh, pub, own, tab, views, nhands, current, status, side, hand_bank, bank, seen,
                  stale, dirty, error, ints, floats, half, wild_sums, wipe_dealt, wipe_empty,
                  wiped)
    num_seats = SE.shape[1]
    size = MASK.shape[1]
    for i in prange(idx.shape[0]):
        k = get_thread_id()
        mine = rows_seen[k]
        prefetch_ahead(idx, i, T, SE, HF, CD, PILE, DISC, RNG, rows, MASK, observing, pub, own,
                       tab, views, seen)  # rows: the threads' own buffers, in cache already
        t = idx[i]
        tb = TB[t]
        pack_table(tb, r, lad, T[t], SE[t], HF[t], CD[t], PILE[t], DISC[t], RNG[t], rows[k])
        me = learner[t]
        total = 0.0
        left[i] = False
        if actions[i] >= 0:
            step_one(tb, t, actions[i], r, T, SE, mine, MASK, OVER_, REFUSED, REW, IN_HAND,
                     observing, pub, tab, ints, floats, oh)
            total += REW[t, me]
        while not OVER_[t] and T[t, T_ACTOR] != me and not (per_hand
                                                            and T[t, T_PLAYED] != hand[t]):
            seat = T[t, T_ACTOR]
            p = bank_policy[t] if split_roles and seat == T[t, T_BANK] else seat_policy[t, seat]
            write_observation(k, t, seat, obs, pub, own, tab, views, nhands, current, wild_sums)
            a = _decide(p, obs[k], MASK[t], kinds, thresholds, sides, careful_at, stand,
                        stand_ok, play, play_ok, numbers, values[k], probs[k], work[k],
                        num_seats)
            if a < 0 or a >= size or MASK[t, a] == 0:
                left[i] = True
                break
            step_one(tb, t, a, r, T, SE, mine, MASK, OVER_, REFUSED, REW, IN_HAND, observing,
                     pub, tab, ints, floats, oh)
            total += REW[t, me]
        gained[i] = total
        T[t, T_ROWS] = 0  # its rows were the thread's
    return first_overflow(T, idx)
