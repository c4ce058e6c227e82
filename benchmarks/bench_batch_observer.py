"""Speed of the batch observer (envs.batch.observer.BatchObserver) on the compiled engine.

One run prints, at ``--tables`` tables (4096 by default) of ``catalan`` at 2 and 4 seats,
random legal play:

* the engine's ``step`` + ``masks`` without an observer and with one (its ``update``
  reading every call's rows), steps/s of both and the update's share;
* ``observe`` of every table's actor (``(B, D)`` float32 into one preallocated array)
  and ``information_state`` likewise: vectors/s;
* the same for the scalar reference's observer (:class:`envs.batch.ScalarTables`,
  256 tables), and the ratio.

    python benchmarks/bench_batch_observer.py [--tables 4096] [--seconds 2]
"""

from __future__ import annotations

import argparse
import time

import numpy as np


def _random_actions(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return np.argmax(rng.random(masks.shape) * masks, axis=1)


def step_rate(engine, seconds: float) -> float:
    """Table-steps/s of ``step`` + ``masks`` (finished tables reset), the random choice
    drawn beforehand."""
    rng = np.random.default_rng(0)
    b = engine.num_tables
    engine.reset(np.arange(b))
    pool = [rng.random((b, engine.layout.size)) for _ in range(8)]  # drawn before timing
    steps, spent, i = 0, 0.0, 0
    while spent < seconds:
        over = np.flatnonzero(engine.over)
        start = time.perf_counter()
        if len(over):
            engine.reset(over + b * (i + 1), tables=over)
        masks = engine.masks()
        actions = np.argmax(pool[i % 8] * masks, axis=1)
        engine.step(actions)
        spent += time.perf_counter() - start
        steps += b
        i += 1
    return steps / spent


def vector_rate(engine, seconds: float, information_state: bool) -> float:
    """Vectors/s of ``observe`` (or ``information_state``) of every table's actor."""
    b = engine.num_tables
    size = engine.information_state(np.zeros(b, dtype=np.int64)).shape[1] if information_state \
        else engine.observation_size
    out = np.empty((b, size), dtype=np.float32)
    call = engine.information_state if information_state else engine.observe
    rng = np.random.default_rng(1)
    vectors, spent = 0, 0.0
    while spent < seconds:
        seats = np.maximum(engine.actor, 0)
        start = time.perf_counter()
        call(seats, out)
        spent += time.perf_counter() - start
        vectors += b
        over = np.flatnonzero(engine.over)
        if len(over):
            engine.reset(over + 7 * b, tables=over)
        engine.step(_random_actions(engine.masks(), rng))
    return vectors / spent


def main() -> None:
    from envs.batch import ScalarTables
    from envs.batch.engine import BatchEngine

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=4096)
    parser.add_argument("--seconds", type=float, default=2.0)
    args = parser.parse_args()
    b, sec = args.tables, args.seconds
    for seats in (2, 4):
        bare = BatchEngine("catalan", seats, b, observe=False)
        fed = BatchEngine("catalan", seats, b, information_state=True)
        step(fed, 3)  # compile or load the kernels before timing
        bare_rate = step_rate(bare, sec)
        fed_rate = step_rate(fed, sec)
        obs = vector_rate(fed, sec, information_state=False)
        info = vector_rate(fed, sec, information_state=True)
        reference = ScalarTables("catalan", seats, 256)
        reference.reset(np.arange(256))
        slow_obs = vector_rate(reference, sec / 2, information_state=False)
        slow_info = vector_rate(reference, sec / 2, information_state=True)
        update_share = 1 - fed_rate / bare_rate
        print(f"catalan, {seats} seats, {b} tables:")
        print(f"  step+masks          {bare_rate:12,.0f} steps/s without the observer, "
              f"{fed_rate:12,.0f} with its update (observation + history): "
              f"update {update_share:.0%} of the step")
        print(f"  observe             {obs:12,.0f} vectors/s  (reference {slow_obs:10,.0f}/s, "
              f"x{obs / slow_obs:,.0f})")
        print(f"  information_state   {info:12,.0f} vectors/s  (reference {slow_info:10,.0f}/s, "
              f"x{info / slow_info:,.0f})")


def step(engine, calls: int) -> None:
    engine.reset(np.arange(engine.num_tables))
    rng = np.random.default_rng(2)
    for _ in range(calls):
        engine.step(_random_actions(engine.masks(), rng))
    engine.observe(np.zeros(engine.num_tables, dtype=np.int64))
    engine.information_state(np.zeros(engine.num_tables, dtype=np.int64))


if __name__ == "__main__":
    main()
