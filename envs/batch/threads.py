"""How the compiled batch engine's parallel kernels use threads.

The kernels run ``prange`` loops over tables. numba's default threading
layer here is OpenMP (GNU libgomp), whose idle threads *spin*: on a machine
whose cores are all busy — training beside the engine, torch's own threads,
a test run beside others — every parallel region then waits for a
descheduled thread while the rest burn CPU, and small calls become many
times slower than one thread. :func:`configure` therefore selects numba's
``workqueue`` layer, which never spins, unless the user chose a layer
(``NUMBA_THREADING_LAYER``). The number of threads stays numba's
(``NUMBA_NUM_THREADS``, all cores by default; ``numba.set_num_threads`` at
run time).

It must run before the first parallel kernel runs: importing :mod:`envs.batch`
(and so any of its modules) calls it, and so does every other module with
parallel kernels (:mod:`agents.batch_policies`). Before numba is imported it
only sets the environment variable numba reads, so importing the package
still loads no compiler.
"""

from __future__ import annotations

import os
import sys

__all__ = ["configure"]

_LAYER = "workqueue"


def configure() -> None:
    """Use numba's non-spinning ``workqueue`` threading layer unless one was chosen."""
    if os.environ.get("NUMBA_THREADING_LAYER"):
        return
    os.environ["NUMBA_THREADING_LAYER"] = _LAYER  # read by numba when it is imported
    numba = sys.modules.get("numba")
    if numba is not None:
        numba.config.THREADING_LAYER = _LAYER
