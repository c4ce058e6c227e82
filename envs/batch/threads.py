"""How the compiled batch engine's parallel kernels use threads.

The kernels run ``prange`` loops over tables. Of numba's threading layers,
OpenMP (GNU libgomp) is the one whose threads share a call's tables between
the cores: on the idle 2-core machine it runs the engine's random play at
4,096 tables about 1.7 times as fast as ``workqueue``, which here gains
little over one thread. Its idle threads *spin* before they sleep, though
(libgomp's default is 300,000 turns), and on a machine whose cores are all
busy every parallel region then waits for a descheduled thread while the
others burn CPU: small calls became many times slower than one thread.

:func:`configure` therefore asks numba for OpenMP first (then
``workqueue``, then TBB: ``NUMBA_THREADING_LAYER_PRIORITY``) and shortens
the spin to :data:`SPIN` turns (``GOMP_SPINCOUNT``) so that a waiting thread
sleeps almost at once. On a loaded machine ``workqueue`` is still the faster
layer (measured with two busy processes on the two cores: 523k against 320k
random-play steps/s at 1,024 tables), which is why ``make test``, whose
workers share the cores, selects it. A choice the user made
(``NUMBA_THREADING_LAYER``, ``NUMBA_THREADING_LAYER_PRIORITY``,
``GOMP_SPINCOUNT`` or ``OMP_WAIT_POLICY``) is left alone. The number of
threads stays numba's (``NUMBA_NUM_THREADS``, all cores by default;
``numba.set_num_threads`` at run time).

The spin is set through the environment, which libgomp reads once, when it
is loaded. A process that imported torch first has torch's own copy of
libgomp loaded already, with its symbols global, and numba's OpenMP layer
then runs on that copy: its spin is libgomp's default whatever
``GOMP_SPINCOUNT`` says later, and numba's second thread keeps burning CPU
for milliseconds after every kernel call (measured in docs/PERFORMANCE.md,
round 31). Training processes are such processes (Stable-Baselines3
imports torch before the engine); there the long spin keeps the second
thread awake between the short kernel calls of a VecEnv step, which is
faster on an otherwise idle machine (docs/PERFORMANCE.md, round 31). Set
``GOMP_SPINCOUNT`` before starting Python to choose for them too.

GNU OpenMP does not survive ``fork``: a child forked after the parent ran a
parallel kernel stops with numba's "fork() called from a process already
using GNU OpenMP" if it runs one too. The project starts its own worker
processes by *spawn* (:mod:`evaluate.workers`); set
``NUMBA_THREADING_LAYER=workqueue`` to fork children that use the batch
engine.

It must run before the first parallel kernel runs: importing :mod:`envs.batch`
(and so any of its modules) calls it, and so does every other module with
parallel kernels (:mod:`agents.batch_policies`). Before numba is imported it
only sets the environment variables numba and libgomp read, so importing the
package still loads no compiler.
"""

from __future__ import annotations

import os
import sys

__all__ = ["configure", "PRIORITY", "SPIN"]

PRIORITY = ("omp", "workqueue", "tbb")
"""The threading layers numba tries, in order (the first that loads)."""
SPIN = 1000
"""Turns an idle OpenMP thread spins before it sleeps (libgomp's default: 300,000)."""


def configure() -> None:
    """Prefer numba's OpenMP layer with a short spin, unless the user chose (see above)."""
    env = os.environ
    if not env.get("NUMBA_THREADING_LAYER") and not env.get("NUMBA_THREADING_LAYER_PRIORITY"):
        env["NUMBA_THREADING_LAYER_PRIORITY"] = " ".join(PRIORITY)  # read when numba is imported
        numba = sys.modules.get("numba")
        if numba is not None:
            numba.config.THREADING_LAYER_PRIORITY = list(PRIORITY)
    if "GOMP_SPINCOUNT" not in env and "OMP_WAIT_POLICY" not in env:
        env["GOMP_SPINCOUNT"] = str(SPIN)  # read by libgomp when it is loaded
