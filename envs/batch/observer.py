"""What every seat of B tables may see, from the tables' event rows (compiled).

:class:`BatchObserver` is :class:`envs.observer.Observer` for a batch of
tables: it reads each table's new event rows (:mod:`envs.batch.event_rows`)
as the scalar observer reads the engine's new event tuples, and the batch's
arrays (:class:`envs.batch.api.TableBatch`: phase, actor, chips, refusals,
jackpot, pile, hands played) as the scalar observer reads the engine's
attributes. "Who sees what" is the scalar observer's (RULES.md §4.1, §4.6,
§6; the module docstring of :mod:`envs.observer`), and
:meth:`BatchObserver.observe` is bit-identical to ``Observer.observe`` at
every table — ``tests/test_batch_observer.py`` holds it to the reference
(:class:`envs.batch.ScalarTables`) at every step.

With ``information_state=True`` it keeps each table's hand history too
(:class:`envs.batch.information_state.BatchHistory`), and
:meth:`BatchObserver.information_state` is bit-identical to
:class:`envs.information_state.InformationStateObserver`.

Feeding it: after every ``reset`` and ``step`` of the batch, pass the rows that
call logged at each table — ``rows[t, :counts[t]]``, a ``reset`` row first at a
table that was reset — and the batch itself, whose arrays it reads::

    observer.update(rows, counts, tables)
    vectors = observer.observe(seats)

The kernels are in :mod:`envs.batch.obs_kernels` (numba).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from envs import observation as _schema
from envs.batch import obs_kernels as _k
from envs.batch.api import seat_rows
from envs.batch.event_rows import ROW
from envs.batch.handles import OBSERVER_HANDLE
from envs.cards import HALF_POINTS, parse_card
from envs.information_state import _hands_per_seat
from envs.observer import observation_size
from envs.rules import Rules

if TYPE_CHECKING:
    from envs.batch.api import TableBatch

__all__ = ["BatchObserver"]


def _wipes() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A seat block's values at a new hand if dealt in, if not, and which entries are wiped."""
    dealt = np.zeros(_k.SEAT_BLOCK, dtype=np.float32)
    empty = np.zeros(_k.SEAT_BLOCK, dtype=np.float32)
    wiped = np.zeros(_k.SEAT_BLOCK, dtype=np.bool_)
    for start, stop, in_hand, out in _schema.seat_wipes():
        dealt[start:stop] = in_hand
        empty[start:stop] = out
        wiped[start:stop] = True
    return dealt, empty, wiped


class BatchObserver:
    """The observers of ``num_tables`` tables of ``num_seats`` seats under ``rules``.

    ``max_hands`` is the batch's (the ``hands_played`` field is stored divided by
    it). ``information_state``: also keep each hand's history, for
    :meth:`information_state`. Every table reads as over until its first
    ``reset`` row.
    """

    def __init__(self, rules: Rules | str, num_seats: int, num_tables: int,
                 max_hands: int | None = 10, information_state: bool = False) -> None:
        self.rules = r = Rules.resolve(rules)
        self.num_seats = n = r.check_seats(num_seats)
        if isinstance(num_tables, bool) or not isinstance(num_tables, (int, np.integer)) \
                or num_tables < 1:
            raise ValueError(f"num_tables={num_tables!r} must be a positive integer")
        self.num_tables = b = int(num_tables)
        self.max_hands = max_hands
        self.observation_size = observation_size(n)
        wild = -1 if r.wild_card == "none" else parse_card(r.wild_card)
        self._ints = np.array([wild, int(r.reshuffle == "when_empty"), max_hands or 0],
                              dtype=np.int64)
        self._floats = np.array([1.0 / _schema.unit_scale(unit, r) for unit in
                                 ("chips", "stake", "rank share", "shoe")], dtype=np.float64)
        self._half = np.array(HALF_POINTS, dtype=np.int64)
        self._wild_sums = _k.wild_sums_table(r.decks)
        self._wipe_dealt, self._wipe_empty, self._wiped = _wipes()
        hands = _hands_per_seat(r, n - 1)
        self._pub = np.zeros((b, _k.OWN_START), dtype=np.float32)
        self._own = np.zeros((b, n, _k.OWN_SIZE), dtype=np.float32)
        self._tab = np.zeros((b, n, _k.SEAT_BLOCK), dtype=np.float32)
        self._views = np.zeros((b, n, hands, _k.VIEW_FIELDS), dtype=np.int64)
        self._nhands = np.zeros((b, n), dtype=np.int64)
        self._current = np.zeros((b, n), dtype=np.int64)
        self._status = np.full((b, n), -1, dtype=np.int64)
        self._side = np.zeros((b, n), dtype=np.int64)
        self._hand_bank = np.full(b, -1, dtype=np.int64)
        self._bank = np.full(b, -1, dtype=np.int64)
        self._seen = np.zeros((b, _k.RANKS), dtype=np.int64)
        self._stale = np.zeros(b, dtype=np.bool_)
        self._dirty = np.zeros((b, n), dtype=np.bool_)
        self._error = np.zeros(b, dtype=np.int64)
        self._all = np.arange(b, dtype=np.int64)
        self._handle = np.zeros(OBSERVER_HANDLE, dtype=np.int64)
        """Room for the handle of these arrays that the kernels pack (:mod:`envs.batch.handles`)."""
        self.history: Any = None
        """The :class:`~envs.batch.information_state.BatchHistory`, with ``information_state``."""
        if information_state:
            from envs.batch.information_state import BatchHistory

            self.history = BatchHistory(r, n, b)

    @property
    def information_state_size(self) -> int:
        """Length of :meth:`information_state`'s vectors (with ``information_state=True``)."""
        return self.observation_size + (0 if self.history is None else self.history.size)

    def update(self, rows: np.ndarray, counts: np.ndarray, tables: TableBatch) -> None:
        """Read table ``t``'s new rows ``rows[t, :counts[t]]`` (``(B, K, ROW)`` int64, ``(B,)``
        int64), then ``tables``' arrays (phase, actor, chips, refused, jackpot, pile_left,
        hands_played), as they are after the call that logged those rows."""
        b, n = self.num_tables, self.num_seats
        if rows.dtype != np.int64 or rows.ndim != 3 or rows.shape[0] != b \
                or rows.shape[2] != ROW:
            raise ValueError(f"rows must be an int64 array of shape ({b}, K, {ROW}); got "
                             f"{rows.dtype} of shape {rows.shape}")
        if counts.dtype != np.int64 or counts.shape != (b,) or \
                (b and (int(counts.min()) < 0 or int(counts.max()) > rows.shape[1])):
            raise ValueError(f"counts must be {b} int64 row counts in 0..{rows.shape[1]}")
        rows, counts = np.ascontiguousarray(rows), np.ascontiguousarray(counts)
        # the kernels take C arrays: one signature
        _k.update(rows, counts, _state(tables.phase, (b,)), _state(tables.actor, (b,)),
                  _state(tables.chips, (b, n)), _state(tables.refused, (b, n), np.bool_),
                  _state(tables.jackpot, (b,)), _state(tables.pile_left, (b,)),
                  _state(tables.hands_played, (b,)), *self.kernel_arrays())
        self.updated(rows, counts, tables)

    def kernel_arrays(self) -> tuple[np.ndarray, ...]:
        """The observer's state and parameters, in the order :func:`envs.batch.obs_kernels.update`
        takes them after the batch's arrays (the batch engine's ``*_observed`` kernels, which
        feed the observer in their own pass over the tables, take them so too)."""
        return (self._pub, self._own, self._tab, self._views, self._nhands, self._current,
                self._status, self._side, self._hand_bank, self._bank, self._seen, self._stale,
                self._dirty, self._error, self._ints, self._floats, self._half,
                self._wild_sums, self._wipe_dealt, self._wipe_empty, self._wiped, self._handle)

    def updated(self, rows: np.ndarray, counts: np.ndarray, tables: TableBatch) -> None:
        """After a kernel read ``rows`` (C arrays, as :meth:`update` takes them) into the
        observer's arrays: the history reads them too, and an error the kernel flagged is raised."""
        if self.history is not None:
            self.history.update(rows, np.ascontiguousarray(counts),
                                _state(tables.hands_played, (self.num_tables,)))
        if self._error.any():
            t = int(np.flatnonzero(self._error)[0])
            raise RuntimeError(f"table {t}: a hand index past the {self._views.shape[2]} hands "
                               f"a seat can hold under these rules (envs.information_state."
                               f"_hands_per_seat); the rows are not this engine's")

    def observe(self, seats: np.ndarray, out: np.ndarray | None = None,
                tables: np.ndarray | None = None) -> np.ndarray:
        """``(B, observation_size)`` float32: table ``t``'s observation of ``seats[t]``,
        bit-identical to ``Observer(engine).observe(seats[t])``.

        ``tables`` (indices): only those tables, row ``i`` being table ``tables[i]`` seen by
        ``seats[i]``. Written into ``out`` if given (float32, C-contiguous, that shape).
        """
        idx, seats = self._select(seats, tables)
        out = self._out(out, len(idx), self.observation_size)
        _k.observe(idx, seats, out, self._pub, self._own, self._tab, self._views, self._nhands,
                   self._current, self._wild_sums)
        return out

    def information_state(self, seats: np.ndarray, out: np.ndarray | None = None,
                          tables: np.ndarray | None = None) -> np.ndarray:
        """``(B, information_state_size)`` float32: table ``t``'s information state of
        ``seats[t]``, bit-identical to ``InformationStateObserver(engine).observe(seats[t])``;
        ``out`` and ``tables`` as :meth:`observe`'s.

        Needs ``information_state=True``; a table whose hand has more history items than
        the bound raises :class:`envs.information_state.HistoryOverflow` naming the table.
        """
        if self.history is None:
            raise ValueError("this BatchObserver keeps no history: construct it with "
                             "information_state=True")
        idx, seats = self._select(seats, tables)
        out = self._out(out, len(idx), self.information_state_size)
        self.history.check(idx)
        _k.observe(idx, seats, out, self._pub, self._own, self._tab, self._views, self._nhands,
                   self._current, self._wild_sums)
        self.history.write(idx, seats, out, self.observation_size)
        return out

    def _select(self, seats: np.ndarray, tables: np.ndarray | None
                ) -> tuple[np.ndarray, np.ndarray]:
        """The table indices and the seats, checked (a ``ValueError`` naming a bad one)."""
        return seat_rows(self.num_tables, self.num_seats, seats, tables, self._all)

    def _out(self, out: np.ndarray | None, rows: int, size: int) -> np.ndarray:
        shape = (rows, size)
        if out is None:
            return np.empty(shape, dtype=np.float32)
        if out.shape != shape or out.dtype != np.float32 or not out.flags.c_contiguous:
            raise ValueError(f"out must be a C-contiguous float32 array of shape {shape}; got "
                             f"{out.dtype} of shape {out.shape}")
        return out


def _state(array: np.ndarray, shape: tuple[int, ...], dtype: Any = np.int64) -> np.ndarray:
    """A batch array as the kernel takes it (no copy when it already is)."""
    if array.shape != shape:
        raise ValueError(f"a batch array of shape {array.shape}, not {shape}")
    return np.ascontiguousarray(array, dtype=dtype)
