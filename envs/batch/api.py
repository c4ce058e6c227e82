"""The protocol of a batch of tables: B tables of S seats played at once, as arrays.

A :class:`TableBatch` is what :class:`envs.engine.Engine` is for one table,
for ``num_tables`` tables at once: each table plays one episode (up to
``max_hands`` hands, one continuing shoe, jackpot and chip stacks, the bank
moving between the seats by the rules, RULES.md §2–§5) and every number a
caller reads is an array whose first axis is the table. One call acts at
every table, so a caller never loops over tables in Python.

Two implementations hold to it:

* :class:`envs.batch.reference.ScalarTables` — one scalar ``Engine`` (and
  ``Observer``) per table: slow, and by construction exactly the game;
* the compiled batch engine (numba) — fast; held to the reference by tests:
  from the same seeds and the same actions it gives the same event rows
  (:mod:`envs.batch.event_rows`), masks, chips, rewards and bit-identical
  observation vectors and information states.

State (read-only arrays, refreshed by every :meth:`reset` and :meth:`step`):

=================  ===========  ==============================================
array              shape/dtype  meaning (the scalar engine's attribute)
=================  ===========  ==============================================
``actor``          (B,) int64   seat to act; -1 where the episode is over
``over``           (B,) bool    the episode is over (``Engine.over``)
``phase``          (B,) int64   :mod:`envs.phases` code (``Engine.phase``)
``bank``           (B,) int64   seat holding the bank (``Engine.bank``)
``chips``          (B,S) int64  every seat's chips (``Engine.chips``)
``jackpot``        (B,) int64   the jackpot (§4.9)
``pile_left``      (B,) int64   cards left in the draw pile
``hands_played``   (B,) int64   hands settled (``Engine.hands_played``)
``bank_streak``    (B,) int64   hands in a row of this bank (§5)
``refused``        (B,S) bool   a seat's refusal of an offered bank (§5)
``in_hand``        (B,S) bool   dealt into the current hand as a player
                                (``s in Engine.order``; the bank is not)
``rewards``        (B,S) f64    ``Engine.pending_rewards`` after the last
                                step at that table (net chips of what that
                                step settled, in units of ``min_bet``); 0
                                where the table did not step
=================  ===========  ==============================================

Seeding: table ``t`` reset with seed ``s`` plays the same hands as any
other table reset with ``s`` under the same rules, whatever ``B`` and
whatever the other tables do. The reference's tables are the scalar
engine's (``Engine.reset(seed=s)``); a compiled engine may draw its shoes
from its own generator (it documents which), and takes the reference's
shoes when asked to, so that the two can be compared hand for hand.
"""

from __future__ import annotations

from typing import NoReturn, Protocol, runtime_checkable

import numpy as np

from envs.actions import ActionLayout
from envs.rules import Rules

__all__ = ["TableBatch", "UnsupportedRules", "check_tables", "not_dealt", "table_indices"]


class UnsupportedRules(ValueError):
    """Rules a batch engine does not play: the message names each switch and value it does not
    support and what it supports instead, never a silent approximation."""


@runtime_checkable
class TableBatch(Protocol):
    """``num_tables`` tables of ``num_seats`` seats under ``rules``; see the module docstring."""

    rules: Rules
    num_tables: int
    num_seats: int
    max_hands: int | None
    layout: ActionLayout
    observation_size: int

    actor: np.ndarray
    over: np.ndarray
    phase: np.ndarray
    bank: np.ndarray
    chips: np.ndarray
    jackpot: np.ndarray
    pile_left: np.ndarray
    hands_played: np.ndarray
    bank_streak: np.ndarray
    refused: np.ndarray
    in_hand: np.ndarray
    rewards: np.ndarray

    def reset(self, seeds: np.ndarray, tables: np.ndarray | None = None,
              banks: np.ndarray | None = None, chips: np.ndarray | None = None) -> None:
        """Start a new episode at ``tables`` (indices; every table when None), table
        ``tables[i]`` with seed ``seeds[i]``, first bank ``banks[i]`` (-1 or None: the
        rules choose) and stacks ``chips[i]`` (None: the rules' starting chips), as
        ``Engine.reset(seed=, bank=, chips=)``. The other tables are left as they are."""
        ...

    def step(self, actions: np.ndarray, tables: np.ndarray | None = None) -> None:
        """The actor of table ``tables[i]`` takes ``actions[i]`` (every table not over, in
        order, when ``tables`` is None: then ``actions`` has one entry per table and the
        entries of tables that are over are ignored). An illegal action raises
        :class:`envs.engine.IllegalActionError` naming the table, the action and the
        legal ones, before any table moves. ``rewards`` is zeroed at every table first."""
        ...

    def masks(self, out: np.ndarray | None = None) -> np.ndarray:
        """``(B, A)`` int8: each table's actor's legal actions (``Engine.action_mask()``);
        a row of zeros where the episode is over."""
        ...

    def observe(self, seats: np.ndarray, out: np.ndarray | None = None,
                tables: np.ndarray | None = None) -> np.ndarray:
        """``(B, observation_size)`` float32: table ``t``'s observation for seat
        ``seats[t]``, bit-identical to ``Observer(engine).observe(seats[t])``. With
        ``tables`` (indices), one row per listed table: row ``i`` is table ``tables[i]``
        seen by ``seats[i]``. Before the first :meth:`reset` there is no table to see:
        :func:`not_dealt` says so (as for :meth:`information_state`)."""
        ...

    def information_state(self, seats: np.ndarray, out: np.ndarray | None = None,
                          tables: np.ndarray | None = None) -> np.ndarray:
        """``(B, information_state_size)`` float32: table ``t``'s information state for
        ``seats[t]`` (:mod:`envs.information_state`), bit-identical to the scalar one;
        ``tables`` as for :meth:`observe`."""
        ...

    def events(self, table: int) -> np.ndarray:
        """Table ``table``'s event log since its reset, as ``(n, ROW)`` rows
        (:mod:`envs.batch.event_rows`)."""
        ...


def not_dealt(table: int | None = None) -> NoReturn:
    """Refuse to observe a table before its first ``reset``: it has not been dealt (every
    table starts over, with no cards and no chips to see); ``table`` None: no table has."""
    which = "no table has" if table is None else f"table {table} has not"
    raise ValueError(f"{which} been dealt yet: call reset() first")


def check_tables(num_tables: object, seeds: object) -> np.ndarray:
    """``seeds`` as an int64 array of ``num_tables`` non-negative seeds, or a ``ValueError``
    naming what is wrong (shared by every :class:`TableBatch`'s ``reset``)."""
    array = np.asarray(seeds)
    if array.ndim != 1 or array.dtype.kind not in "iu":
        raise ValueError(f"seeds must be a 1-D array of integers, not {array.dtype} of shape "
                         f"{array.shape}")
    if len(array) != num_tables:
        raise ValueError(f"{len(array)} seeds for {num_tables} tables")
    if len(array) and int(array.min()) < 0:
        raise ValueError(f"seeds must be non-negative; got {int(array.min())}")
    return array.astype(np.int64)


def table_indices(num_tables: int, tables: object, distinct: bool = True) -> np.ndarray:
    """``tables`` as int64 indices of ``num_tables`` tables (None: every table, in order), or a
    ``ValueError`` naming what is wrong (shared by every :class:`TableBatch`).

    ``distinct``: a table may not be named twice — a ``reset`` or ``step`` moves each
    table once — as reads (``observe``) may name one table twice.
    """
    if tables is None:
        return np.arange(num_tables, dtype=np.int64)
    idx = np.asarray(tables)
    if idx.ndim != 1 or (len(idx) and idx.dtype.kind not in "iu"):
        raise ValueError(f"tables must be a 1-D array of table indices in 0..{num_tables - 1}; "
                         f"got {idx.dtype} of shape {idx.shape}")
    if len(idx) and (int(idx.min()) < 0 or int(idx.max()) >= num_tables):
        bad = idx[(idx < 0) | (idx >= num_tables)][0]
        raise ValueError(f"table {int(bad)} is not one of the tables 0..{num_tables - 1}")
    idx = idx.astype(np.int64)
    # indices in increasing order (flatnonzero's) are distinct without sorting them
    if distinct and not (idx[1:] > idx[:-1]).all() and len(np.unique(idx)) != len(idx):
        values, counts = np.unique(idx, return_counts=True)
        raise ValueError(f"tables must not repeat a table; table {int(values[counts > 1][0])} "
                         f"is named {int(counts.max())} times")
    return idx


def action_array(actions: object) -> np.ndarray:
    """``actions`` as a contiguous int64 array, or a ``ValueError`` naming what is wrong: a
    1-D array of integers (a float or a bool is no action index), as every
    :class:`TableBatch`'s ``step`` takes them."""
    acts = np.asarray(actions)
    if acts.ndim != 1 or (acts.dtype.kind not in "iu" and len(acts)):
        raise ValueError(f"actions must be a 1-D array of integers, not {acts.dtype} of "
                         f"shape {acts.shape}")
    return np.ascontiguousarray(acts, dtype=np.int64)


def seat_rows(num_tables: int, num_seats: int, seats: object, tables: object,
              every: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The rows a read names (every :class:`TableBatch`'s ``observe`` and
    ``information_state``): ``tables`` as int64 table indices (None: ``every`` table, in
    order) and ``seats`` as int64 seats, one a row, or a ``ValueError`` naming a bad one."""
    if tables is None:
        idx = np.arange(num_tables, dtype=np.int64) if every is None else every
    else:
        idx = table_indices(num_tables, tables, distinct=False)
    array = np.asarray(seats)
    if array.shape != idx.shape or array.dtype.kind not in "iu":
        raise ValueError(f"seats must be {len(idx)} integer seats, one a table; got "
                         f"{array.dtype} of shape {array.shape}")
    if len(array) and (int(array.min()) < 0 or int(array.max()) >= num_seats):
        bad = array[(array < 0) | (array >= num_seats)][0]
        raise ValueError(f"seat {int(bad)} is not a seat at these tables; seats are the "
                         f"integers 0..{num_seats - 1}")
    return idx, array.astype(np.int64, copy=False)
