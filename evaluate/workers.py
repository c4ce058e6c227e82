"""Worker processes for the evaluations: every pool of the project starts them by *spawn*.

A forked child inherits the parent's threads' locks but not the threads:
once torch has run in the parent (loading a model, training one), torch
in a forked child can wait forever on a lock no thread will release, and
``--workers 2`` with a learned agent hung. A spawned worker is a fresh
interpreter that imports what it needs, so nothing is inherited but its
arguments and the environment (``SETTE_TRUST_MODEL`` among them); the
same start method is used on every platform, so the results do not depend
on it.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any

START_METHOD = "spawn"


def process_pool(workers: int, initializer: Callable[..., Any] | None = None,
                 initargs: tuple[Any, ...] = ()) -> ProcessPoolExecutor:
    """A pool of at most ``workers`` spawned processes (no more than the CPUs)."""
    return ProcessPoolExecutor(max_workers=max(1, min(workers, os.cpu_count() or 1)),
                               mp_context=multiprocessing.get_context(START_METHOD),
                               initializer=initializer, initargs=initargs)
