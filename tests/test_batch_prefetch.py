"""The kernels' prefetch (envs.batch.prefetch) is a hint: it changes no value, at any index.

That the batch engine plays the same with it is the equivalence suites' job
(tests/test_batch_engine.py, tests/test_batch_observer.py run the kernels
that prefetch); here, the hint itself on arrays of the kernels' shapes.
"""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit
from numba.core.errors import TypingError

from envs.batch.prefetch import prefetch_table


@njit(cache=True)
def _touch(arr, t, lines):  # type: ignore[no-untyped-def]
    """Prefetch ``arr[t]`` and return the sum of the whole array (read after the hint)."""
    prefetch_table(arr, t, lines)
    return arr.sum()


@pytest.mark.parametrize("shape", [(5, 33), (5, 2, 12), (5, 2, 1, 7)])
def test_prefetch_changes_nothing_at_any_index(shape: tuple[int, ...]) -> None:
    arr = np.arange(np.prod(shape), dtype=np.int64).reshape(shape)
    before = arr.copy()
    for t in (-3, -1, 0, 2, 4, 5, 1000):  # outside the tables too: the loops look AHEAD past the last
        for lines in (0, 1, 64):
            assert _touch(arr, t, lines) == before.sum()
    np.testing.assert_array_equal(arr, before)


def test_prefetch_refuses_a_strided_array() -> None:
    """A slice of a table is one span only in a C-contiguous array: a strided one is refused."""
    arr = np.zeros((6, 8), dtype=np.int64)[::2]
    with pytest.raises(TypingError):
        _touch(arr, 0, 1)
