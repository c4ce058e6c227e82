"""Speed of training: the batch VecEnv against the scalar views, and MaskablePPO end to end.

    python benchmarks/bench_train.py [--tables 4096] [--seconds 5] [--ppo-steps 400000]
                                     [--scalar-steps 40000] [--before-steps 100000]

Everything on ``catalan``, heads-up, the Player view against the ``reader``
bank — the opponents of ``sette train``'s player stage — measured in one run:

1. **The environment alone**: steps per second with random legal actions
   (drawn from the masks with a numpy generator; observations and masks
   included) of :class:`train.batch_vec_env.BatchSeatVecEnv` over
   ``--tables`` tables of the compiled engine — with the opponents' turns
   compiled (the default) and in the Python loop (``compiled_turns=False``) —
   and of ``sette train``'s former default, :class:`train.vec_env.ViewVecEnv`
   over 8 scalar views; the ratios. Two figures each: the VecEnv's own calls
   (``step`` and its masks), and the whole loop as MaskablePPO drives it (the
   per-table masks from ``env_method`` stacked, as sb3-contrib's
   ``get_action_masks`` does, and the random draw, which are the client's
   time); the first figures of the two batches are taken with them stepping in
   turn, :data:`BLOCK` seconds each, so that the machine's drift falls on each
   alike. The goal is at least
   1M steps/s at 4096 tables.
2. **MaskablePPO end to end** (``model.learn``: collecting rollouts and
   training; the periodic evaluation left out, and building the model printed
   apart: torch's optimizer imports ``torch._dynamo`` once a process, a few
   seconds that a run pays once, not per stage): two former defaults, 8 scalar
   views (``run.vec_env = "views"``, 512-step rollouts, minibatches of 512, 5
   epochs) for ``--scalar-steps`` steps and 256 tables of the batch (16 steps a
   table per rollout, minibatches of 512, 5 epochs) for ``--before-steps``, and
   ``sette train``'s defaults now (``train.config.TrainConfig()``: 4,096
   tables, minibatches of 8,192) for ``--ppo-steps``; steps per second, the share of the
   wall time inside the environment (``train.ppo.EnvTimer``: stepping,
   resetting, masks) and the speed-up. The goals are at least 50,000 steps/s
   with the environment under 10% of the wall time.

The first run in a fresh checkout compiles the kernels (numba, cached on
disk), which a warm-up before every measurement keeps out of the figures.
A benchmark, not a test: it prints numbers and asserts nothing.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import tempfile
import time
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
import torch

from evaluate.arguments import positive_float, positive_int
from train.batch_vec_env import BatchSeatVecEnv
from train.config import TrainConfig
from train.ppo import frozen_heap, make_vec_env, new_model
from train.vec_env import ViewVecEnv

OPPONENTS = {"bank": "reader", "players": "careful"}
"""The player stage's opponents (``[player]`` of ``sette train``)."""


BLOCK = 0.25
"""Seconds a VecEnv steps in its turn when :func:`vec_env_rates` measures several in turn."""


def random_legal(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniformly random legal action per row of ``masks``."""
    return np.argmax(np.where(masks, rng.random(masks.shape), -1.0), axis=1)


def masks_of(venv: Any) -> np.ndarray:
    """The learners' masks as the VecEnv gives them: ``action_masks()`` (the batch of tables),
    else one per environment through ``env_method``, stacked (the scalar views)."""
    if hasattr(venv, "action_masks"):
        return venv.action_masks()
    return np.stack(venv.env_method("action_masks"))


def vec_env_rates(venvs: list[Any], seconds: float) -> list[tuple[float, float]]:
    """Steps per second (summed over the environments) of each of ``venvs`` with random
    legal actions: timing the VecEnv's calls alone (``step`` and :func:`masks_of`), the
    VecEnvs taking turns in blocks of :data:`BLOCK` seconds so that the machine's drift
    falls on each alike (turns of one step each would have each VecEnv's tables evict the
    other's from the caches at every step, which a process training on one never sees);
    and the whole loop as MaskablePPO drives it (the masks stacked from ``env_method``, as
    sb3-contrib's ``get_action_masks`` does, and the random draw, both outside the
    VecEnv), each for ``seconds``."""
    rng = np.random.default_rng(0)
    for venv in venvs:
        venv.seed(0)
        venv.reset()
        for _ in range(3):  # warm-up: the kernels compile (or load from the cache) here
            venv.step(random_legal(masks_of(venv), rng))
    steps, inside = [0] * len(venvs), [0.0] * len(venvs)
    start = time.perf_counter()
    while time.perf_counter() - start < seconds * len(venvs):
        for i, venv in enumerate(venvs):
            turn = time.perf_counter()
            while time.perf_counter() - turn < BLOCK:
                begin = time.perf_counter()
                masks = masks_of(venv)
                between = time.perf_counter()
                actions = random_legal(masks, rng)
                restart = time.perf_counter()
                venv.step(actions)
                inside[i] += time.perf_counter() - restart + between - begin
                steps[i] += venv.num_envs
    rates = []
    for venv, count, own in zip(venvs, steps, inside):
        done, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds:
            venv.step(random_legal(np.stack(venv.env_method("action_masks")), rng))
            done += venv.num_envs
        rates.append((count / own, done / (time.perf_counter() - start)))
    return rates


def views_default() -> TrainConfig:
    """``sette train``'s config before the batch of tables: 8 views, the player's PPO then."""
    config = TrainConfig()
    config.run = dataclasses.replace(config.run, vec_env="views", n_envs=8)
    config.ppo = dataclasses.replace(config.ppo, n_steps=256, batch_size=256, n_epochs=5,
                                     learning_rate=3e-4)
    config.player = dataclasses.replace(
        config.player, ppo={"learning_rate": 1e-4, "n_steps": 512, "batch_size": 512})
    return config


def small_batch_default() -> TrainConfig:
    """``sette train``'s config of the first batch of tables: 256 of them, the player's PPO then."""
    config = TrainConfig()
    config.run = dataclasses.replace(config.run, n_envs=256)
    config.ppo = dataclasses.replace(config.ppo, n_steps=8, batch_size=256, n_epochs=5,
                                     learning_rate=3e-4)
    config.player = dataclasses.replace(
        config.player, ppo={"learning_rate": 1e-4, "n_steps": 16, "batch_size": 512})
    return config


def ppo_rate(config: TrainConfig, steps: int) -> tuple[float, float, float, float, str]:
    """Steps per wall second, per CPU second of this process, and the environment's share of
    the wall time, of MaskablePPO's player stage under ``config`` (``model.learn``), and the
    seconds building the model took (torch's optimizer imports ``torch._dynamo`` once)."""
    from agents import make_agent

    threads = config.stage_torch_threads("player")
    torch.set_num_threads(threads)
    opponents = {"bank": [make_agent(OPPONENTS["bank"])],
                 "players": [make_agent(OPPONENTS["players"])]}
    env = make_vec_env("player", config, opponents, seed=0)
    p = config.stage_ppo("player")
    built = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        model = new_model(env, p, Path(folder), seed=0)
        model.tensorboard_log = None
        built = time.perf_counter() - built
        start, cpu = time.perf_counter(), time.process_time()
        with frozen_heap():  # as train.ppo.train_stage trains
            model.learn(steps)
        wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    settings = (f"{config.run.vec_env}, {config.run.n_envs} envs, n_steps {p.n_steps}, "
                f"batch {p.batch_size}, {p.n_epochs} epochs, torch threads {threads}")
    return (model.num_timesteps / wall, model.num_timesteps / cpu, env.seconds / wall, built,
            settings)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=positive_int, default=4096, help="tables of the batch VecEnv")
    parser.add_argument("--seconds", type=positive_float, default=5.0,
                        help="length of one environment measurement")
    parser.add_argument("--ppo-steps", type=positive_int, default=400_000,
                        help="MaskablePPO steps on the batch of tables")
    parser.add_argument("--scalar-steps", type=positive_int, default=40_000,
                        help="MaskablePPO steps on the scalar views (a former default)")
    parser.add_argument("--before-steps", type=positive_int, default=100_000,
                        help="MaskablePPO steps on 256 tables (the default before this one)")
    args = parser.parse_args()

    from envs.single_seat import PlayerEnv

    batch = BatchSeatVecEnv("player", "catalan", 2, args.tables, opponents=OPPONENTS,
                            engine="compiled")
    looped = BatchSeatVecEnv("player", "catalan", 2, args.tables, opponents=OPPONENTS,
                             engine="compiled", compiled_turns=False)
    views = ViewVecEnv([partial(PlayerEnv, "catalan", 2, OPPONENTS)] * 8)
    print("steps/s with random legal actions: the VecEnv's calls alone (step, masks) | the "
          "whole loop (masks stacked from env_method as MaskablePPO fetches them, the draw)")
    names = (f"BatchSeatVecEnv, {args.tables} tables (compiled)",
             "  the same, opponents' turns in the Python loop", "ViewVecEnv, 8 scalar views")
    rates = [*vec_env_rates([batch, looped], args.seconds), *vec_env_rates([views], args.seconds)]
    for name, (own, loop) in zip(names, rates):
        print(f"{name:50} {own:12,.0f} | {loop:12,.0f}")
    (batch_own, batch_loop), (looped_own, _), (views_own, views_loop) = rates
    print(f"goal: the VecEnv >= 1,000,000 steps/s: {batch_own / 1e6:.2f}x of it")
    print(f"compiled turns over the Python loop: {batch_own / looped_own:.2f}x; the batch over "
          f"the scalar views: {batch_own / views_own:.1f}x ({batch_loop / views_loop:.1f}x "
          f"whole loop)")

    print(f"load average {os.getloadavg()[0]:.1f}")
    runs = [("8 scalar views", views_default(), args.scalar_steps),
            ("256 tables", small_batch_default(), args.before_steps),
            ("sette train now", TrainConfig(), args.ppo_steps)]
    rates = []
    for name, config, steps in runs:
        rate, cpu, share, built, settings = ppo_rate(config, steps)
        rates.append((rate, cpu))
        print(f"MaskablePPO, {name} ({settings}): {rate:,.0f} steps/s "
              f"({cpu:,.0f} per CPU second), {share:.1%} in the environment; "
              f"building the model {built:.1f} s")
    print("(goals: >= 50,000 steps/s, < 10% in the environment)")
    (now, now_cpu) = rates[-1]
    for (name, _, _), (rate, cpu) in zip(runs[:-1], rates[:-1]):
        print(f"speed-up over {name}: {now / rate:.1f}x ({now_cpu / cpu:.1f}x per CPU second)")
    print(f"load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
