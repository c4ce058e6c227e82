"""glibc's malloc for a process that steps a batch of tables: freed blocks stay for reuse.

A step of :class:`train.batch_vec_env.BatchSeatVecEnv` over thousands of
tables returns fresh arrays of hundreds of kilobytes to megabytes (the
observations, the masks, the episodes' last observations), and its client
allocates as many (SB3 stacks the masks and builds tensors; a benchmark draws
random actions). glibc's malloc serves a block that large from the top of its
heap or from ``mmap``, and when it is freed hands the memory back to the
kernel (``munmap``, or trimming the top of the heap): the next step's block
then arrives as fresh pages, each faulted in and zeroed by the kernel on
first touch: a page fault for every page of every such block, every step, at
a cost of the order of the engine's own work (docs/PERFORMANCE.md, round 31).

:func:`keep_freed_memory` sets ``M_MMAP_THRESHOLD`` (blocks below it come from
the heap) and ``M_TRIM_THRESHOLD`` (free memory at the top of the heap below
it is kept): the blocks of one step are reused by the next, with no page
faults. The process keeps up to :data:`TRIM_THRESHOLD` of freed memory
instead of returning it, which a training process reuses at its next step.

A choice the user made (``MALLOC_MMAP_THRESHOLD_``, ``MALLOC_TRIM_THRESHOLD_``,
``MALLOC_TOP_PAD_`` or a ``glibc.malloc`` tunable in ``GLIBC_TUNABLES``) is
left alone, and so is a C library other than glibc.
"""

from __future__ import annotations

import ctypes
import os
import platform

__all__ = ["keep_freed_memory", "MMAP_THRESHOLD", "TRIM_THRESHOLD"]

MMAP_THRESHOLD = 32 * 2**20
"""Blocks smaller than this come from the heap (glibc's own ceiling for its adaptive threshold
on 64-bit systems, which is what an adaptive threshold could reach)."""
TRIM_THRESHOLD = 256 * 2**20
"""Free memory at the top of the heap kept up to this much."""
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3
"""``mallopt`` parameters (``malloc.h``)."""
_USER_SETTINGS = ("MALLOC_MMAP_THRESHOLD_", "MALLOC_TRIM_THRESHOLD_", "MALLOC_TOP_PAD_")

_applied: bool | None = None


def keep_freed_memory() -> bool:
    """Tune glibc's malloc as the module docstring says, once a process; whether it is tuned
    (False: another C library, or the user's own settings, which stay)."""
    global _applied
    if _applied is None:
        _applied = _tune()
    return _applied


def _tune() -> bool:
    env = os.environ
    if any(name in env for name in _USER_SETTINGS) \
            or "glibc.malloc" in env.get("GLIBC_TUNABLES", ""):
        return False
    if platform.libc_ver()[0] != "glibc":
        return False
    try:
        libc = ctypes.CDLL(None)
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    mallopt.restype = ctypes.c_int
    return bool(mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD)
                and mallopt(_M_TRIM_THRESHOLD, TRIM_THRESHOLD))
