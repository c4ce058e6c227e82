"""Compile (or load from the cache) every kernel of the batch engine once: ``python -m envs.batch.warm``.

numba compiles a kernel the first time a process calls it and caches the
machine code on disk (``cache=True``, ``envs/batch/__pycache__``). Test
workers that start together from an empty cache (``pytest -n``) would each
compile the same kernels at once; running this first, in one process,
leaves them all in the cache, so every worker loads them in a second.

It plays a few hands on each compiled path of :mod:`envs.batch`: the engine's
reset, step, masks, observations and information states
(:mod:`envs.batch.kernels`, :mod:`envs.batch.obs_kernels`,
:mod:`envs.batch.obs_history`), the fused threshold loops
(:mod:`envs.batch.kernels_fused`, :mod:`envs.batch.kernels_headsup`) and the
observer fed rows from outside (``BatchObserver.update``, as the reference
tables feed it). The kernels of ``agents`` and ``evaluate`` compile on their
first use.
"""

from __future__ import annotations

import time

import numpy as np

__all__ = ["warm"]


def warm() -> float:
    """Run every kernel of :mod:`envs.batch` once; returns the seconds it took."""
    from envs.batch.engine import BatchEngine
    from envs.batch.event_rows import ROW
    from envs.batch.observer import BatchObserver
    from envs.batch.reference import ScalarTables

    start = time.perf_counter()
    engine = BatchEngine("catalan", 2, 2, information_state=True)
    engine.reset(np.arange(2))
    while not engine.over.all():
        engine.step(engine.masks().argmax(axis=1))
        seats = np.maximum(engine.actor, 0)
        engine.observe(seats)
        engine.information_state(seats)
    engine.play_thresholds(np.arange(2), None, np.full((2, 2, 2), 5.5))  # the heads-up loop
    BatchEngine("pagat", 3, 1).play_thresholds(np.arange(2), None, np.full((2, 3, 2), 5.5))
    reference = ScalarTables("catalan", 2, 2)
    reference.reset(np.arange(2))
    observer = BatchObserver("catalan", 2, 2)  # compiled whole: no rows are needed
    observer.update(np.zeros((2, 1, ROW), dtype=np.int64), np.zeros(2, dtype=np.int64), reference)
    return time.perf_counter() - start


if __name__ == "__main__":
    print(f"envs.batch kernels ready in {warm():.1f} s")
