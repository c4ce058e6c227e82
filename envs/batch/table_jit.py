"""How the batch engine's per-table code is compiled: numba, cached, without reference counts.

Every function that works on one table's arrays, and the loops over tables
that call them, are compiled by :func:`table_jit`: ``njit(cache=True)``
with numba's runtime (NRT) off. A table's arrays are slices of the batch's,
which the engine owns for the whole call, so nothing needs numba's
reference counts; with the runtime on, every call between these functions
incremented and decremented the count of each array argument, atomically,
and that took about three quarters of a step's time (perf, one thread,
random play). Without the runtime such code cannot allocate: a table
keeps everything in its own arrays (the generator's seeding, the first-bank
draw and the transfer queue included), and an array copy is written as a loop.
"""

from __future__ import annotations

from typing import Any, Callable, TypeVar, cast

from numba import njit

from envs.batch.jit_cache import refresh

__all__ = ["table_jit"]

refresh()  # before any kernel of envs.batch is compiled or loaded (envs.batch.jit_cache)

F = TypeVar("F", bound=Callable[..., Any])


def table_jit(inline: bool = False, parallel: bool = False) -> Callable[[F], F]:
    """``njit(cache=True)`` without numba's runtime; ``inline``: inlined into its callers by
    numba, ``parallel``: a kernel with ``prange`` loops."""
    options: dict[str, Any] = {"cache": True, "_nrt": False}
    if inline:
        options["inline"] = "always"
    if parallel:
        options["parallel"] = True
    return cast(Callable[[F], F], cast(Any, njit)(**options))
