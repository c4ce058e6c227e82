"""Helpers for the batch observer's tests: scalar engines' new events as a batch's rows.

:class:`EngineRows` stands for a batch engine in front of
:class:`envs.batch.observer.BatchObserver`: it holds ``B`` scalar
:class:`~envs.engine.Engine` objects (those of a
:class:`~envs.batch.ScalarTables`, or engines a test reset with a scripted
deck), and after each move hands the observer each engine's events since the
last call as rows (:func:`envs.batch.event_rows.encode_log`) with the state
arrays read off the engines, as ``ScalarTables`` reads them. The tests then
hold the observer's vectors to the reference's (the scalar ``Observer`` and
``InformationStateObserver`` of the same engines), bit for bit.
"""

from __future__ import annotations

import numpy as np

from envs.batch.api import TableBatch
from envs.batch.event_rows import ROW, encode_log
from envs.batch.observer import BatchObserver
from envs.batch.reference import ScalarTables
from envs.engine import Engine


class EngineRows:
    """The state arrays of ``engines`` (a ``TableBatch``'s) and their new events as rows."""

    def __init__(self, engines: list[Engine]) -> None:
        self.engines = engines
        b, n = len(engines), engines[0].num_seats
        self.cursors = [0] * b
        self.logs: list[list | None] = [None] * b
        self.phase = np.zeros(b, dtype=np.int64)
        self.actor = np.zeros(b, dtype=np.int64)
        self.chips = np.zeros((b, n), dtype=np.int64)
        self.refused = np.zeros((b, n), dtype=bool)
        self.jackpot = np.zeros(b, dtype=np.int64)
        self.pile_left = np.zeros(b, dtype=np.int64)
        self.hands_played = np.zeros(b, dtype=np.int64)

    def rows(self) -> tuple[np.ndarray, np.ndarray]:
        """Every engine's events since the last call (from its reset on after a reset) as
        ``(B, K, ROW)`` rows and ``(B,)`` counts; the state arrays refreshed."""
        new = []
        for t, e in enumerate(self.engines):
            if e.events is not self.logs[t]:  # a reset: a new log
                self.logs[t], self.cursors[t] = e.events, 0
            new.append(encode_log(e.events[self.cursors[t]:], e.layout))
            self.cursors[t] = len(e.events)
            self.phase[t] = e.phase
            self.actor[t] = -1 if e.over else e.actor
            self.chips[t] = e.chips
            self.refused[t] = e.refused
            self.jackpot[t] = e.jackpot
            self.pile_left[t] = len(e.draw_pile)
            self.hands_played[t] = e.hands_played
        counts = np.array([len(r) for r in new], dtype=np.int64)
        rows = np.zeros((len(new), max(1, int(counts.max())), ROW), dtype=np.int64)
        for t, r in enumerate(new):
            rows[t, :len(r)] = r
        return rows, counts

    def feed(self, observer: BatchObserver) -> None:
        """Give ``observer`` the new rows and these arrays."""
        rows, counts = self.rows()
        observer.update(rows, counts, self)  # type: ignore[arg-type]


def bits(vectors: np.ndarray) -> np.ndarray:
    """The float32 vectors' bits, so that equality is bit-identity (−0.0 ≠ 0.0)."""
    return np.ascontiguousarray(vectors, dtype=np.float32).view(np.int32)


def assert_same_vectors(observer: BatchObserver | TableBatch, reference: ScalarTables,
                        information_state: bool, where: str) -> None:
    """Every seat's batch observation (and information state), from a batch observer or a
    batch engine, equals the reference's scalar one, bit for bit, at every table; the message
    names the table, the seat and the entries."""
    for seat in range(reference.num_seats):
        seats = np.full(reference.num_tables, seat, dtype=np.int64)
        _same(observer.observe(seats), reference.observe(seats),
              f"{where}, seat {seat}, observation")
        if information_state:
            _same(observer.information_state(seats), reference.information_state(seats),
                  f"{where}, seat {seat}, information state")


def _same(got: np.ndarray, want: np.ndarray, where: str) -> None:
    assert got.shape == want.shape, (where, got.shape, want.shape)
    differ = (bits(got) != bits(want)).any(axis=1)
    if differ.any():
        t = int(np.flatnonzero(differ)[0])
        at = np.flatnonzero(bits(got[t]) != bits(want[t]))
        raise AssertionError(f"{where}: table {t} differs at entries {at.tolist()}: batch "
                             f"{got[t, at].tolist()}, scalar {want[t, at].tolist()}")
