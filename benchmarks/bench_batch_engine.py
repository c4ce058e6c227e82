"""Speed and memory of the compiled batch engine (envs.batch.BatchEngine) next to its reference.

One run prints:

* steps/s of random legal play (``step`` + ``masks``, the random choice timed
  apart) at 4096 and 65536 tables, heads-up ``catalan``, and of the slow
  reference (:class:`envs.batch.ScalarTables`) at 256 tables, with the ratio;
  with ``--observe`` the batch observer's ``observe`` of every actor too;
* hands/s of the fused threshold loop (``BatchEngine.play_thresholds``,
  every decision inside the kernel) against the scalar tournament's table;
* peak RSS of a process holding 4096 and 65536 tables (fresh processes);
* the start: import + first reset/step/fused call in a fresh process with
  the compiled kernels cached (warm) and, with ``--cold``, compiling them
  from scratch (a private cache directory; minutes on a loaded machine).

    python benchmarks/bench_batch_engine.py [--seconds 3] [--observe] [--cold]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from evaluate.arguments import positive_float

ROOT = Path(__file__).resolve().parent.parent

_START = """
import time, resource, sys
t0 = time.perf_counter()
import numpy as np
from envs.batch.engine import BatchEngine
tables = int(sys.argv[1])
engine = BatchEngine("catalan", 2, tables, observe=False)
engine.reset(np.arange(tables))
engine.step(np.full(tables, 14))
engine.masks()
engine.play_thresholds(np.arange(4), None, np.full((4, 2, 2), 5.5))
first = time.perf_counter() - t0
for _ in range(20):
    engine.step(engine.masks().argmax(axis=1))
try:  # this process's peak (ru_maxrss would start from the parent's at the fork)
    status = open("/proc/self/status").read()
    peak = int(status.split("VmHWM:")[1].split()[0]) / 1024
except (OSError, IndexError):
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(first, peak)
"""


def fresh_process(tables: int, cache: str | None = None) -> tuple[float, float]:
    """Seconds to the first reset, step and fused call, and peak RSS (MiB), in a new process."""
    env = dict(os.environ)
    if cache is not None:
        env["NUMBA_CACHE_DIR"] = cache
    out = subprocess.run([sys.executable, "-c", _START, str(tables)], cwd=ROOT, env=env,
                         capture_output=True, text=True, check=True).stdout.split()
    return float(out[0]), float(out[1])


def random_legal(rng: np.random.Generator, masks: np.ndarray) -> np.ndarray:
    """A uniformly random legal action per table (vectorised numpy)."""
    counts = masks.sum(axis=1)
    pick = (rng.random(len(masks)) * counts).astype(np.int64)
    return (np.cumsum(masks, axis=1) > pick[:, None]).argmax(axis=1)


def steps_per_second(engine, seconds: float, observe: bool) -> tuple[float, float, float]:
    """Steps/s of ``step`` + ``masks`` (+ ``observe``), of the random choice alone, and the
    engine's CPU time per table-step in µs (every thread's: on a loaded machine the
    steadier figure)."""
    rng = np.random.default_rng(0)
    tables = engine.num_tables
    seeds = np.arange(tables, dtype=np.int64)
    engine.reset(seeds)
    masks = engine.masks()
    steps = 0
    engine_time = choice_time = cpu_time = 0.0
    episode = 0
    while engine_time < seconds:
        c0 = time.process_time()
        t0 = time.perf_counter()
        done = engine.over
        if done.any():  # auto-reset, as a VecEnv does
            episode += 1
            idx = np.flatnonzero(done)
            engine.reset(seeds[idx] + episode * tables, tables=idx)
        masks = engine.masks(out=masks)
        t1, c1 = time.perf_counter(), time.process_time()
        actions = random_legal(rng, masks)
        t2, c2 = time.perf_counter(), time.process_time()
        engine.step(actions)
        if observe:
            engine.observe(np.maximum(engine.actor, 0))
        t3, c3 = time.perf_counter(), time.process_time()
        steps += tables
        choice_time += t2 - t1
        engine_time += (t1 - t0) + (t3 - t2)
        cpu_time += (c1 - c0) + (c3 - c2)
    return steps / engine_time, steps / choice_time, cpu_time / steps * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=positive_float, default=3.0, help="time per measurement")
    parser.add_argument("--observe", action="store_true",
                        help="also build every actor's observation each step")
    parser.add_argument("--cold", action="store_true",
                        help="also time a start that compiles every kernel (minutes)")
    args = parser.parse_args()

    from agents.scripted import ThresholdAgent
    from agents.seating import Table
    from envs.batch import ScalarTables
    from envs.batch.engine import BatchEngine
    from envs.rules import Rules

    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"load average (1, 5, 15 min): {load} on {os.cpu_count()} cores")
    warm, _ = fresh_process(4)
    print(f"start (import, first reset/step/masks/fused call), kernels cached: {warm:.2f} s")
    if args.cold:
        with tempfile.TemporaryDirectory() as cache:
            cold, _ = fresh_process(4, cache)
        print(f"start, compiling every kernel: {cold:.1f} s ({cold / warm:.0f}x the warm start)")

    reference = ScalarTables("catalan", 2, 256)
    slow, _, _ = steps_per_second(reference, args.seconds / 2, observe=False)
    print(f"reference ScalarTables, 256 tables: {slow:,.0f} steps/s")
    for tables in (4096, 65536):
        engine = BatchEngine("catalan", 2, tables, observe=args.observe)
        fast, choice, cpu = steps_per_second(engine, args.seconds, args.observe)
        what = "step + masks" + (" + observe" if args.observe else "")
        print(f"BatchEngine {tables} tables: {fast:,.0f} steps/s ({what}; {fast / slow:.0f}x the "
              f"reference; {cpu:.2f} µs of CPU a table-step); numpy random choice alone "
              f"{choice:,.0f} steps/s")

    engine = BatchEngine("catalan", 2, 1, max_hands=10, observe=False)
    tables = 20_000
    levels = np.full((tables, 2, 2), 5.5)
    engine.play_thresholds(np.arange(8), None, levels[:8])
    t0 = time.perf_counter()
    runs = 0
    hands = 0.0
    while time.perf_counter() - t0 < args.seconds:
        counts = engine.play_thresholds(np.arange(tables) + runs * tables, None, levels)
        hands += counts[:, :, 1, 1].sum()  # every hand has one bank
        runs += 1
    fused = hands / (time.perf_counter() - t0)
    table = Table(Rules.preset("catalan"), 2, 10)
    policies = [ThresholdAgent(5.5), ThresholdAgent(5.5)]
    t0 = time.perf_counter()
    scalar_hands = 0
    for seed in range(200):
        scalar_hands += sum(1 for _ in table.hands(policies, seed))
    scalar = scalar_hands / (time.perf_counter() - t0)
    print(f"fused threshold loop, heads-up catalan: {fused:,.0f} hands/s "
          f"({fused / scalar:.0f}x the scalar tournament table's {scalar:,.0f} hands/s)")

    for tables in (4096, 65536):
        _, rss = fresh_process(tables)
        print(f"peak RSS, {tables} heads-up tables (no observer): {rss:,.0f} MiB")


if __name__ == "__main__":
    main()
