"""The batch engine's loops over tables: reset, check and step many tables at once (numba, ``prange``).

Each kernel takes the whole batch's arrays (:class:`envs.batch.engine.BatchEngine`
holds them; :mod:`envs.batch.kernels_table` describes one table's slice) and
the indices of the tables it moves, and runs one table's transition per
iteration of a parallel loop over those indices, so no Python code runs per
table and a call that moves a few tables costs a few tables (an opponent's
turn at some of the tables, as the VecEnv plays them). After a table moves,
its mask (``Engine.action_mask()``), its ``over``, ``refused`` and ``in_hand``
flags and its rewards are brought up to date here. Only the tables the
previous call moved can have rows (and, after a step, rewards): the engine
passes their indices and the kernel zeroes them first.

With ``observing`` set, the same pass also feeds each moved table's new rows
and state to the batch observer (:class:`envs.batch.observer.BatchObserver`,
whose arrays follow the engine's: :meth:`~envs.batch.observer.BatchObserver.kernel_arrays`),
doing :func:`envs.batch.obs_kernels.update`'s work in its order: one kernel entry
per call instead of two, and a table's rows read while they are still in cache.
Without it the observer's arrays are a stand-in the kernel never touches.

Each iteration first prefetches the lines of the table :data:`AHEAD` places on
in the list (:func:`envs.batch.prefetch.prefetch_table`): a step waits on
memory for its slices of some thirty arrays otherwise. A hint only: the same
results.

The per-table code and these loops are compiled by :func:`envs.batch.table_jit.table_jit`
(numba without its reference counts: it says why).
"""

from __future__ import annotations

import numpy as np
from numba import prange

from envs.batch import kernels_rulebook as rb
from envs.batch.kernels_table import (E_CHIPS, E_NET, E_ORDER, E_REFUSED, T_ACTOR, T_JACKPOT,
                                      T_ORDER_LEN, T_OVERFLOW, T_PHASE, T_PILE, T_PLAYED,
                                      T_REWARDED, T_ROWS, fill_mask, reset_table, step_table)
from envs.batch.obs_kernels import _read_state, read_rows
from envs.batch.prefetch import prefetch_table
from envs.batch.handles import pack_observer, pack_table
from envs.batch.table_jit import table_jit
from envs.phases import OVER

__all__ = ["reset_tables", "check_actions", "step_tables", "step_one", "prefetch_ahead",
           "clear_rows", "clear_rewards", "first_overflow", "AHEAD"]

AHEAD = 4
"""How many places ahead in its list of tables a loop prefetches (a few steps' compute covers
a memory load)."""
_ROW_LINES = 6
"""Cache lines prefetched of a table's row buffer: its first rows, the ones a call writes."""


@table_jit(inline=True)
def prefetch_ahead(idx, i, T, SE, HF, CD, PILE, DISC, RNG, ROWS, MASK, observing, pub, own, tab,  # type: ignore[no-untyped-def]
              views, seen):
    """Prefetch the slices of the arrays a step touches of the table :data:`AHEAD` places
    after ``idx[i]`` in the list (none past its end)."""
    if i + AHEAD >= idx.shape[0]:
        return
    u = idx[i + AHEAD]
    prefetch_table(T, u, 8)
    prefetch_table(SE, u, 4)
    prefetch_table(HF, u, 8)
    prefetch_table(CD, u, 4)
    prefetch_table(PILE, u, 1)
    prefetch_table(DISC, u, 1)
    prefetch_table(RNG, u, 1)
    prefetch_table(ROWS, u, _ROW_LINES)
    prefetch_table(MASK, u, 1)
    if observing:
        prefetch_table(pub, u, 2)
        prefetch_table(own, u, 2)
        prefetch_table(tab, u, 4)
        prefetch_table(views, u, 2)
        prefetch_table(seen, u, 2)  # read and written by every card the observer counts


@table_jit(inline=True)
def _publish(r, t, T, SE, OVER_, REFUSED, REW, IN_HAND):  # type: ignore[no-untyped-def]
    """The table's derived arrays: ``over``, ``refused``, the rewards of what it settled and
    the seats dealt into its hand (``Engine.order``)."""
    OVER_[t] = T[t, T_PHASE] == OVER
    scale = 1.0 / r[rb.R_MIN_BET]
    rewarded = T[t, T_REWARDED] != 0
    for s in range(SE.shape[1]):
        REFUSED[t, s] = SE[t, s, E_REFUSED] != 0
        REW[t, s] = SE[t, s, E_NET] * scale if rewarded else 0.0
        IN_HAND[t, s] = False
    for i in range(T[t, T_ORDER_LEN]):
        IN_HAND[t, SE[t, i, E_ORDER]] = True


@table_jit(inline=True)
def after_move(tb, t, r, T, SE, ROWS, MASK, OVER_, REFUSED, REW, IN_HAND, observing, pub, tab,  # type: ignore[no-untyped-def]
               ints, floats, oh):
    """What follows a table's reset or step: its mask, its derived arrays and, ``observing``,
    the observer's reading of its new rows (through the observer's handle ``oh``) and of
    its state, :func:`envs.batch.obs_kernels.update`'s work for one table. Inlined into
    every kernel that moves tables, so nothing is passed."""
    fill_mask(tb, MASK[t])
    _publish(r, t, T, SE, OVER_, REFUSED, REW, IN_HAND)
    if observing:
        if T[t, T_ROWS]:
            read_rows(np.int64(t), ROWS, T[t, T_ROWS], oh)
        _read_state(t, T[:, T_PHASE], T[:, T_ACTOR], SE[:, :, E_CHIPS], REFUSED,
                    T[:, T_JACKPOT], T[:, T_PILE], T[:, T_PLAYED], pub, tab, ints, floats)


@table_jit(inline=True)
def step_one(tb, t, action, r, T, SE, ROWS, MASK, OVER_, REFUSED, REW, IN_HAND, observing, pub,  # type: ignore[no-untyped-def]
             tab, ints, floats, oh):
    """Table ``t`` (its handle ``tb`` packed) takes ``action``, checked legal: its rows start
    afresh, then :func:`after_move`. A loop that moves a table many times in one call (the
    VecEnv's opponents, :mod:`agents.batch_turns`) calls this for each move."""
    T[t, T_ROWS] = 0
    step_table(tb, action)
    after_move(tb, t, r, T, SE, ROWS, MASK, OVER_, REFUSED, REW, IN_HAND, observing, pub, tab,
               ints, floats, oh)


@table_jit()
def first_overflow(T, idx):  # type: ignore[no-untyped-def]
    """The first of the tables ``idx`` whose rows overflowed the buffer in this call, or -1."""
    for i in range(idx.shape[0]):
        if T[idx[i], T_OVERFLOW]:
            return idx[i]
    return -1


@table_jit()
def clear_rows(T, last):  # type: ignore[no-untyped-def]
    """Zero the row counts of the tables ``last`` (the ones the previous call moved: only
    they can have rows), so that afterwards only the tables this call moves have rows."""
    for i in range(last.shape[0]):
        T[last[i], T_ROWS] = 0


@table_jit()
def clear_rewards(REW, rewarded):  # type: ignore[no-untyped-def]
    """Zero the rewards of the tables ``rewarded`` (the previous step's: only they hold any)."""
    for i in range(rewarded.shape[0]):
        for s in range(REW.shape[1]):
            REW[rewarded[i], s] = 0.0


@table_jit(parallel=True)
def reset_tables(r, lad, T, SE, HF, CD, PILE, DISC, RNG, ROWS, MASK, OVER_, REFUSED, REW,  # type: ignore[no-untyped-def]
                 IN_HAND, TB, idx, last, seeds, banks, chips, observing, pub, own, tab, views,
                 nhands, current, status, side, hand_bank, bank, seen, stale, dirty, error, ints,
                 floats, half, wild_sums, wipe_dealt, wipe_empty, wiped, oh):
    """``Engine.reset(seed=seeds[i], bank=banks[i] (-1: none), chips=chips[i])`` at table ``idx[i]``.

    The row counts of the tables ``last`` (the previous call's) are zeroed, then
    each table of ``idx`` is dealt and, ``observing``, the observer reads its
    rows and its arrays (see the module docstring); the other tables are not
    visited. Returns the first table whose rows overflowed the buffer, or -1.
    """
    clear_rows(T, last)
    if observing:
        pack_observer(oh, pub, own, tab, views, nhands, current, status, side, hand_bank, bank,
                      seen, stale, dirty, error, ints, floats, half, wild_sums, wipe_dealt,
                      wipe_empty, wiped)
    n = idx.shape[0]
    for i in prange(n):
        prefetch_ahead(idx, i, T, SE, HF, CD, PILE, DISC, RNG, ROWS, MASK, observing, pub, own,
                       tab, views, seen)
        t = idx[i]
        T[t, T_ROWS] = 0
        for s in range(SE.shape[1]):
            SE[t, s, E_CHIPS] = chips[i, s]
        tb = TB[t]
        pack_table(tb, r, lad, T[t], SE[t], HF[t], CD[t], PILE[t], DISC[t], RNG[t], ROWS[t])
        reset_table(tb, seeds[i], banks[i])
        after_move(tb, t, r, T, SE, ROWS, MASK, OVER_, REFUSED, REW, IN_HAND, observing, pub,
                   tab, ints, floats, oh)
        for s in range(REW.shape[1]):
            REW[t, s] = 0.0
    return first_overflow(T, idx)


@table_jit()
def check_actions(MASK, idx, actions):  # type: ignore[no-untyped-def]
    """The position of the first action that is not legal at its table, or -1 (nothing moves)."""
    size = MASK.shape[1]
    for i in range(idx.shape[0]):
        a = actions[i]
        if a < 0 or a >= size or MASK[idx[i], a] == 0:
            return i
    return -1


@table_jit(parallel=True)
def step_tables(r, lad, T, SE, HF, CD, PILE, DISC, RNG, ROWS, MASK, OVER_, REFUSED, REW,  # type: ignore[no-untyped-def]
                IN_HAND, TB, idx, acts, last, rewarded, observing, pub, own, tab, views, nhands,
                current, status, side, hand_bank, bank, seen, stale, dirty, error, ints, floats,
                half, wild_sums, wipe_dealt, wipe_empty, wiped, oh):
    """The actor of table ``idx[i]`` takes ``acts[i]`` (checked legal by :func:`check_actions`).

    The row counts of the tables ``last`` (the previous call's) and the rewards
    of the tables ``rewarded`` (the previous step's: only they can hold any)
    are zeroed, then each table of ``idx`` moves and, ``observing``, is read as
    in :func:`reset_tables`; the other tables are not visited. Returns the
    first table whose rows overflowed the buffer, or -1.
    """
    clear_rows(T, last)
    clear_rewards(REW, rewarded)
    if observing:
        pack_observer(oh, pub, own, tab, views, nhands, current, status, side, hand_bank, bank,
                      seen, stale, dirty, error, ints, floats, half, wild_sums, wipe_dealt,
                      wipe_empty, wiped)
    n = idx.shape[0]
    for i in prange(n):
        prefetch_ahead(idx, i, T, SE, HF, CD, PILE, DISC, RNG, ROWS, MASK, observing, pub, own,
                       tab, views, seen)
        t = idx[i]
        tb = TB[t]
        pack_table(tb, r, lad, T[t], SE[t], HF[t], CD[t], PILE[t], DISC[t], RNG[t], ROWS[t])
        step_one(tb, t, acts[i], r, T, SE, ROWS, MASK, OVER_, REFUSED, REW, IN_HAND, observing,
                 pub, tab, ints, floats, oh)
    return first_overflow(T, idx)
