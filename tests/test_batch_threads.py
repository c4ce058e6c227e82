"""The batch engine's threading layer (envs.batch.threads): what importing it chooses, what it
leaves to the user, and that every layer plays the same tables.

Each case runs in a fresh interpreter: numba picks its layer once a process, at
the first parallel kernel.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


ROOT = Path(__file__).resolve().parent.parent

_PLAY = """
import hashlib, os
import numpy as np
import numba
from envs.batch.engine import BatchEngine
engine = BatchEngine("catalan", 3, 96)
engine.reset(np.arange(96))
rng = np.random.default_rng(0)
digest = hashlib.sha256()
while not engine.over.all():
    masks = engine.masks()
    live = np.flatnonzero(~engine.over)
    pick = np.argmax(np.where(masks[live] != 0, rng.random(masks[live].shape), -1.0), axis=1)
    engine.step(pick, tables=live)
    digest.update(engine.observe(np.maximum(engine.actor, 0)).tobytes())
digest.update(engine.chips.tobytes())
try:  # whether numba's OpenMP layer loads here (it needs the system's libgomp)
    import numba.np.ufunc.omppool
    omp = "omp-loads"
except ImportError:
    omp = "no-omp"
print(numba.threading_layer(), os.environ.get("GOMP_SPINCOUNT"), digest.hexdigest(), omp)
"""

_CHOICES = ("NUMBA_THREADING_LAYER", "NUMBA_THREADING_LAYER_PRIORITY", "GOMP_SPINCOUNT",
            "OMP_WAIT_POLICY")


def _play(**settings: str) -> tuple[str, str, str, bool]:
    """The layer numba ran, ``GOMP_SPINCOUNT``, a digest of the play and whether the OpenMP
    layer loads, in a fresh process whose environment sets only ``settings`` of the threading
    choices."""
    env = {k: v for k, v in os.environ.items() if k not in _CHOICES}
    env.update(settings)
    out = subprocess.run([sys.executable, "-c", _PLAY], cwd=ROOT, env=env, capture_output=True,
                         text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    layer, spin, digest, omp = out.stdout.split()
    return layer, spin, digest, omp == "omp-loads"


def test_openmp_first_with_a_short_spin_and_the_same_play_on_every_layer() -> None:
    from envs.batch.threads import SPIN

    layer, spin, digest, omp = _play()
    assert layer == ("omp" if omp else "workqueue")
    assert spin == str(SPIN)
    chosen, _, same, _ = _play(NUMBA_THREADING_LAYER="workqueue")
    assert (chosen, same) == ("workqueue", digest)


def test_the_users_own_choices_are_left_alone() -> None:
    layer, spin, _, _ = _play(NUMBA_THREADING_LAYER_PRIORITY="workqueue omp tbb",
                              GOMP_SPINCOUNT="50")
    assert (layer, spin) == ("workqueue", "50")
    assert _play(OMP_WAIT_POLICY="passive")[1] == "None"
