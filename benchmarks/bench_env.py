"""Speed of the PettingZoo environment next to PettingZoo's Leduc Hold'em.

One process, random legal actions, 4 seats, the same harness for every env:
each step calls ``last()`` (which builds the observation and mask) and
``step()``. Prints steps/s and hands/s for our ``env()`` and ``raw_env`` on
each preset and for ``leduc_holdem_v4``, and the ratios the project targets
(``env()`` >= 3x leduc ``env()``, ``raw_env`` >= 2.5x leduc ``raw_env``;
the house-rule presets within 25% of ``catalan``).

    python benchmarks/bench_env.py [--steps 60000]

Needs the ``bench`` extra (``pettingzoo[classic]``) for Leduc.
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

from envs import sette_e_mezzo_v0
from evaluate.arguments import positive_int


def measure(environment, steps: int, seed: int = 0) -> tuple[float, float]:
    """Steps/s and episodes/s of random legal play for about ``steps`` steps."""
    rnd = random.Random(seed)
    environment.reset(seed=seed)
    done_steps = episodes = 0
    start = time.perf_counter()
    while done_steps < steps:
        for _agent in environment.agent_iter():
            obs, _reward, termination, truncation, _info = environment.last()
            if termination or truncation:
                action = None
            else:
                action = int(rnd.choice(np.flatnonzero(obs["action_mask"])))
            environment.step(action)
            done_steps += 1
        episodes += 1
        environment.reset()
    elapsed = time.perf_counter() - start
    return done_steps / elapsed, episodes / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", type=positive_int, default=60_000)
    parser.add_argument("--presets", nargs="*",
                        default=["catalan", "catalan_house", "spanish", "spanish_full", "pagat"])
    args = parser.parse_args()

    from pettingzoo.classic import leduc_holdem_v4

    leduc_env, _ = measure(leduc_holdem_v4.env(), args.steps)
    leduc_raw, _ = measure(leduc_holdem_v4.raw_env(), args.steps)
    print(f"{'environment':<28} {'steps/s':>10} {'hands/s':>10} {'vs leduc':>9}")
    print(f"{'leduc_holdem_v4 env()':<28} {leduc_env:>10,.0f}")
    print(f"{'leduc_holdem_v4 raw_env':<28} {leduc_raw:>10,.0f}")
    max_hands = 10
    for preset in args.presets:
        for kind, factory, ref in (("env()", sette_e_mezzo_v0.env, leduc_env),
                                   ("raw_env", sette_e_mezzo_v0.raw_env, leduc_raw)):
            sps, eps = measure(factory(rules=preset, num_seats=4, max_hands=max_hands),
                               args.steps)
            print(f"{preset + ' ' + kind:<28} {sps:>10,.0f} {eps * max_hands:>10,.0f} "
                  f"{sps / ref:>8.2f}x")
    print("targets: env() >= 3.00x leduc env(), raw_env >= 2.50x leduc raw_env")


if __name__ == "__main__":
    main()
