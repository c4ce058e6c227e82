"""``train.heap``: a process stepping a batch of tables reuses freed memory instead of faulting in
fresh pages from the kernel every step, and a malloc setting of the user's own is left alone."""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
from pathlib import Path

import pytest

from train import heap

ROOT = Path(__file__).resolve().parents[1]

_FAULTS = """
import json, resource
import numpy as np
import train.heap
from train.batch_vec_env import BatchSeatVecEnv

def faults_per_step(env, rng, steps=25):
    for _ in range(20):  # both ways, the first steps grow the heap
        env.step(np.argmax(env.action_masks() * rng.random((env.num_envs, 1)), axis=1))
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    for _ in range(steps):
        masks = np.stack(env.env_method("action_masks"))  # as MaskablePPO fetches them
        env.step(np.argmax(np.where(masks, rng.random(masks.shape), -1.0), axis=1))
    return (resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before) / steps

train.heap._applied = False  # constructing the env below leaves malloc as glibc set it
env = BatchSeatVecEnv("player", "catalan", 2, 4096, opponents="threshold", seed=0)
env.reset()
rng = np.random.default_rng(0)
untuned = faults_per_step(env, rng)
tuned = train.heap._tune()
print(json.dumps({"untuned": untuned, "tuned": tuned, "after": faults_per_step(env, rng)}))
"""


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="tunes glibc's malloc only")
def test_steps_reuse_freed_memory_once_malloc_is_tuned() -> None:
    """4,096 tables: glibc's defaults fault in fresh pages for the step's large arrays every
    step; tuned, as constructing the VecEnv tunes it, the step reuses the last one's."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("MALLOC_") and k != "GLIBC_TUNABLES"}
    out = subprocess.run([sys.executable, "-c", _FAULTS], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    figures = json.loads(out.stdout.strip().splitlines()[-1])
    assert figures["tuned"] is True
    assert figures["untuned"] > 100, figures  # the arrays of a step: hundreds of kB each
    assert figures["after"] < figures["untuned"] / 10, figures


def test_a_users_own_malloc_setting_is_left_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without settings of the user's own, both thresholds are set; with one, neither."""
    mallopt = _Mallopt()
    monkeypatch.setattr(heap.ctypes, "CDLL", lambda _name: mallopt)
    monkeypatch.setattr(heap.platform, "libc_ver", lambda: ("glibc", "2.36"))
    for name in ("MALLOC_MMAP_THRESHOLD_", "MALLOC_TRIM_THRESHOLD_", "MALLOC_TOP_PAD_",
                 "GLIBC_TUNABLES"):
        monkeypatch.delenv(name, raising=False)
    assert heap._tune() is True
    assert mallopt.calls == [(-3, heap.MMAP_THRESHOLD), (-1, heap.TRIM_THRESHOLD)]
    for name, value in (("MALLOC_TRIM_THRESHOLD_", "1000000"), ("MALLOC_TOP_PAD_", "0"),
                        ("GLIBC_TUNABLES", "glibc.malloc.mmap_threshold=65536")):
        mallopt.calls.clear()
        with monkeypatch.context() as patched:
            patched.setenv(name, value)
            assert heap._tune() is False
        assert mallopt.calls == [], name


class _Mallopt:
    """A C library whose ``mallopt`` records its calls."""

    def __init__(self) -> None:
        self.calls: list[tuple[int, int]] = []

    @property
    def mallopt(self) -> "_Mallopt":
        return self

    def __call__(self, parameter: int, value: int) -> int:
        self.calls.append((parameter, value))
        return 1
