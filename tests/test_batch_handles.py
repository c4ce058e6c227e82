"""The handles the compiled batch code passes instead of many arrays (envs.batch.handles).

A handle must give back the very arrays it was packed from: same shapes, same
values, and writes through the rebuilt views land in the originals (the
engine's state lives there). An array of the wrong dtype, dimensions or
layout is refused when the caller compiles, never reinterpreted.
"""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit
from numba.core.errors import TypingError

from envs.batch.engine import BatchEngine
from envs.batch.handles import (OBSERVER_HANDLE, TABLE_HANDLE, observer_arrays, pack_observer,
                                pack_table, table_arrays)


@njit
def _mark(a):  # type: ignore[no-untyped-def]
    """Add one to the first and the last entry of ``a``, through the view."""
    flat = a.reshape(a.size)
    flat[0] += 1
    flat[a.size - 1] += 1


@njit
def _table_round_trip(h, r, lad, tt, se, hf, cd, pile, disc, g, rows):  # type: ignore[no-untyped-def]
    pack_table(h, r, lad, tt, se, hf, cd, pile, disc, g, rows)
    r2, lad2, tt2, se2, hf2, cd2, pile2, disc2, g2, rows2 = table_arrays(h)
    _mark(r2)
    _mark(lad2)
    _mark(tt2)
    _mark(pile2)
    _mark(disc2)
    _mark(g2)
    _mark(se2)
    _mark(hf2)
    _mark(rows2)
    _mark(cd2)
    return r2.shape[0], se2.shape[1], cd2.shape[2], rows2.shape[1]


@njit
def _observer_round_trip(h, pub, own, tab, views, nhands, current, status, side, hand_bank,  # type: ignore[no-untyped-def]
                         bank, seen, stale, dirty, error, ints, floats, half, wild_sums,
                         wipe_dealt, wipe_empty, wiped):
    pack_observer(h, pub, own, tab, views, nhands, current, status, side, hand_bank, bank, seen,
                  stale, dirty, error, ints, floats, half, wild_sums, wipe_dealt, wipe_empty,
                  wiped)
    back = observer_arrays(h)
    back[3][-1, -1, -1, -1] = 7  # views, 4-D
    back[2][0, 1, 2] = 0.5  # tab
    return back[0].shape[1], back[3].shape[2], back[17].shape[1]


def _table(engine: BatchEngine, t: int) -> tuple[np.ndarray, ...]:
    return (engine._r, engine._ladder, engine._T[t], engine._SE[t], engine._HF[t],
            engine._CD[t], engine._PILE[t], engine._DISC[t], engine._RNG[t],
            engine.row_buffer[t])


def test_a_table_handle_gives_back_the_tables_own_arrays() -> None:
    engine = BatchEngine("catalan_house", 3, 4, observe=False)
    engine.reset(np.arange(4))
    arrays = _table(engine, 2)
    before = [a.copy() for a in arrays]
    others = [a.copy() for a in _table(engine, 1)[2:]]  # r and lad are every table's
    shapes = _table_round_trip(np.zeros(TABLE_HANDLE, dtype=np.int64), *arrays)
    assert shapes == (arrays[0].shape[0], arrays[3].shape[1], arrays[5].shape[2],
                      arrays[9].shape[1])
    for a, b in zip(arrays, before):
        flat, old = a.reshape(-1), b.reshape(-1)
        assert flat[0] == old[0] + 1 and flat[-1] == old[-1] + 1  # written through
        assert np.array_equal(flat[1:-1], old[1:-1])  # nothing else touched
    for a, b in zip(_table(engine, 1)[2:], others):  # the next table's slices are left alone
        assert np.array_equal(a, b)


def test_the_observer_handle_gives_back_the_observers_arrays() -> None:
    engine = BatchEngine("catalan", 2, 3, observe=True)
    arrays = engine._observer.kernel_arrays()[:-1]
    widths = _observer_round_trip(np.zeros(OBSERVER_HANDLE, dtype=np.int64), *arrays)
    assert widths == (arrays[0].shape[1], arrays[3].shape[2], arrays[17].shape[1])
    assert arrays[3][-1, -1, -1, -1] == 7 and arrays[2][0, 1, 2] == 0.5


def test_an_array_of_the_wrong_kind_is_refused_when_compiling() -> None:
    engine = BatchEngine("catalan", 2, 2, observe=False)
    arrays = list(_table(engine, 0))
    wrong = [list(arrays) for _ in range(3)]
    wrong[0][2] = arrays[2].astype(np.int32)  # tt: int32, not int64
    wrong[1][3] = arrays[3][:, 0]  # se: 1-D, not 2-D
    wrong[2][3] = engine._SE[0][:, ::2]  # se: not contiguous
    for case in wrong:
        with pytest.raises(TypingError, match="pack_table"):
            _table_round_trip(np.zeros(TABLE_HANDLE, dtype=np.int64), *case)
