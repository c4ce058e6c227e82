"""Hands/s of heads-up ``catalan`` threshold play: the flat kernel next to the general fused loop.

One run plays the same seeded tables (thresholds drawn per seat and role,
``--hands`` hands each) through :func:`envs.batch.kernels_fused.play_thresholds`
and :func:`envs.batch.kernels_headsup.play_headsup` (what
``BatchEngine.play_thresholds`` now runs for these tables), checks that the
counts agree, and prints each one's hands per second, the ratio, the
threads used and the load average. Compiles first, untimed.

    python benchmarks/bench_headsup.py [--tables 20000] [--hands 100] [--fixed-bank]
"""

from __future__ import annotations

import argparse
import os
import time

import numba
import numpy as np

from envs.batch.engine import BatchEngine
from envs.batch.kernels_fused import FIELDS, HANDS, play_thresholds
from envs.batch.kernels_headsup import play_headsup
from envs.rules import Rules
from envs.single_seat import fixed_bank_rules
from evaluate.arguments import positive_int


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=positive_int, default=20000)
    parser.add_argument("--hands", type=positive_int, default=100, help="hands per table (max_hands)")
    parser.add_argument("--fixed-bank", action="store_true", help="the fixed-bank form of catalan")
    args = parser.parse_args()
    rules = fixed_bank_rules("catalan") if args.fixed_bank else Rules.preset("catalan")
    engine = BatchEngine(rules, 2, 1, max_hands=args.hands, observe=False)
    rng = np.random.default_rng(0)
    levels = rng.choice([3.5, 4.0, 4.5, 5.0, 5.5, 6.0, 6.5], size=(args.tables, 2, 2))
    seeds = np.arange(args.tables, dtype=np.int64)
    banks = np.full(args.tables, -1, dtype=np.int64)
    chunks = min(args.tables, 16 * numba.get_num_threads())

    def general(n: int) -> np.ndarray:
        counts = np.zeros((n, 2, 2, FIELDS))
        play_thresholds(engine._r, engine._ladder, seeds[:n], banks[:n], levels[:n], counts,
                        min(n, chunks))
        return counts

    def flat(n: int) -> np.ndarray:
        counts = np.zeros((n, 2, 2, FIELDS))
        play_headsup(engine._r, seeds[:n], banks[:n], levels[:n], counts, min(n, chunks))
        return counts

    rates = {}
    results = {}
    for name, play in (("general fused loop", general), ("flat heads-up kernel", flat)):
        play(4)  # compile (or load the cache), untimed
        start = time.perf_counter()
        results[name] = play(args.tables)
        elapsed = time.perf_counter() - start
        hands = results[name][:, :, 0, HANDS].sum()
        rates[name] = hands / elapsed
        print(f"{name:22s} {hands:12,.0f} hands in {elapsed:6.2f} s: {rates[name]:12,.0f} hands/s")
    same = np.array_equal(results["general fused loop"], results["flat heads-up kernel"])
    ratio = rates["flat heads-up kernel"] / rates["general fused loop"]
    print(f"ratio flat / general: {ratio:.1f}x"
          f"   counts equal: {same}   threads: {numba.get_num_threads()}   "
          f"load average: {os.getloadavg()[0]:.2f}")
    if not same:
        raise SystemExit("the flat kernel's counts differ from the general loop's")


if __name__ == "__main__":
    main()
