"""Speed of the batch observer (envs.batch.observer.BatchObserver), apart from any engine.

The event rows and arrays of a few calls of random legal play at ``--tables``
tables (4096 by default) of ``catalan`` at 2 and 4 seats are recorded once
from the reference (:class:`envs.batch.ScalarTables`: a reset, then steps);
one run then prints

* ``update``: table-updates/s replaying those calls (the reset rows restart
  every table, so the replay can loop), observation alone and with the
  history (``information_state=True``);
* ``observe`` and ``information_state`` of one seat a table into one
  preallocated array: vectors/s;
* the reference's observer (the scalar ``Observer`` and
  ``InformationStateObserver`` of each table) on the same vectors, and the ratio.

    python benchmarks/bench_batch_observer.py [--tables 4096] [--calls 6] [--seconds 2]
"""

from __future__ import annotations

import argparse
import time
from types import SimpleNamespace
from typing import TYPE_CHECKING, Callable

import numpy as np

from evaluate.arguments import positive_float, positive_int

if TYPE_CHECKING:
    from envs.batch import ScalarTables

_ARRAYS = ("phase", "actor", "chips", "refused", "jackpot", "pile_left", "hands_played")


def record(seats: int, tables: int, calls: int) -> tuple[list, ScalarTables]:
    """``calls`` calls (a reset, then steps) of the reference: each call's rows, counts and
    arrays; and the reference itself, left at the last call."""
    from envs.batch import ScalarTables
    from envs.batch.event_rows import ROW, encode_log

    ref = ScalarTables("catalan", seats, tables)
    ref.reset(np.arange(tables))
    rng = np.random.default_rng(0)
    cursors = [0] * tables
    out = []
    for call in range(calls):
        if call:
            masks = ref.masks()
            ref.step(np.argmax(rng.random(masks.shape) * masks, axis=1))
        new = [encode_log(e.events[c:], e.layout) for e, c in zip(ref.engines, cursors)]
        cursors = [len(e.events) for e in ref.engines]
        counts = np.array([len(r) for r in new], dtype=np.int64)
        rows = np.zeros((tables, int(counts.max()), ROW), dtype=np.int64)
        for t, r in enumerate(new):
            rows[t, :len(r)] = r
        state = SimpleNamespace(**{name: getattr(ref, name).copy() for name in _ARRAYS})
        out.append((rows, counts, state))
    return out, ref


def rate(work: Callable[[], object], per_call: int, seconds: float) -> float:
    """Items/s of ``work()`` (``per_call`` items a call), after one call to warm up."""
    work()
    done, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        work()
        done += per_call
    return done / (time.perf_counter() - start)


def main() -> None:
    from envs.batch.observer import BatchObserver

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=positive_int, default=4096)
    parser.add_argument("--calls", type=positive_int, default=6)
    parser.add_argument("--seconds", type=positive_float, default=2.0)
    args = parser.parse_args()
    b = args.tables
    for seats in (2, 4):
        calls, ref = record(seats, b, args.calls)
        rows_a_call = sum(int(c.sum()) for _, c, _ in calls) / len(calls) / b
        observers = {history: BatchObserver("catalan", seats, b, information_state=history)
                     for history in (False, True)}

        def replayer(observer: BatchObserver) -> Callable[[], None]:
            def replay() -> None:
                for rows, counts, state in calls:
                    observer.update(rows, counts, state)
            return replay

        updates = {h: rate(replayer(o), b * len(calls), args.seconds)
                   for h, o in observers.items()}
        observer = observers[True]
        seats_array = np.maximum(calls[-1][2].actor, 0)
        obs_out = np.empty((b, observer.observation_size), dtype=np.float32)
        info_out = np.empty((b, observer.information_state_size), dtype=np.float32)
        obs = rate(lambda: observer.observe(seats_array, obs_out), b, args.seconds)
        info = rate(lambda: observer.information_state(seats_array, info_out), b, args.seconds)
        slow_obs = rate(lambda: ref.observe(seats_array, obs_out), b, args.seconds / 2)
        slow_info = rate(lambda: ref.information_state(seats_array, info_out), b,
                         args.seconds / 2)
        print(f"catalan, {seats} seats, {b} tables ({rows_a_call:.1f} rows a table a call):")
        print(f"  update             {updates[False]:12,.0f} table-updates/s (observation), "
              f"{updates[True]:12,.0f} with the history")
        print(f"  observe            {obs:12,.0f} vectors/s  ({observer.observation_size} "
              f"floats; reference {slow_obs:9,.0f}/s, x{obs / slow_obs:,.0f})")
        print(f"  information_state  {info:12,.0f} vectors/s  ({observer.information_state_size} "
              f"floats; reference {slow_info:9,.0f}/s, x{info / slow_info:,.0f})")


if __name__ == "__main__":
    main()
