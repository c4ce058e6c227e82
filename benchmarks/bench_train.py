"""Speed of training: the batch VecEnv against the scalar views, and MaskablePPO end to end.

    python benchmarks/bench_train.py [--tables 4096] [--seconds 5] [--ppo-steps 400000]
                                     [--scalar-steps 40000]

Everything on ``catalan``, heads-up, the Player view against the ``reader``
bank — the opponents of ``sette train``'s player stage — measured in one run:

1. **The environment alone**: steps per second with random legal actions
   (drawn from the masks with a numpy generator; observations and masks
   included) of :class:`train.batch_vec_env.BatchSeatVecEnv` over
   ``--tables`` tables of the compiled engine, and of ``sette train``'s former
   default, :class:`train.vec_env.ViewVecEnv` over 8 scalar views; the ratio.
   The goal is at least 1M steps/s at 4096 tables.
2. **MaskablePPO end to end** (``model.learn``: collecting rollouts and
   training; the periodic evaluation left out, and building the model printed
   apart: torch's optimizer imports ``torch._dynamo`` once a process, a few
   seconds that a run pays once, not per stage): the former default (8 scalar
   views, ``run.vec_env = "views"``, the player stage's PPO settings of then:
   512-step rollouts, minibatches of 512, 5 epochs) for ``--scalar-steps``
   steps, and ``sette train``'s defaults now (``train.config.TrainConfig()``:
   the batch of tables) for ``--ppo-steps``; steps per second, the share of the
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

from train.batch_vec_env import BatchSeatVecEnv
from train.config import TrainConfig
from train.ppo import make_vec_env, new_model
from train.vec_env import ViewVecEnv

OPPONENTS = {"bank": "reader", "players": "careful"}
"""The player stage's opponents (``[player]`` of ``sette train``)."""


def random_legal(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniformly random legal action per row of ``masks``."""
    return np.argmax(np.where(masks, rng.random(masks.shape), -1.0), axis=1)


def vec_env_rate(venv: Any, seconds: float) -> float:
    """Steps per second (summed over the environments) of ``venv`` with random legal actions."""
    rng = np.random.default_rng(0)
    venv.seed(0)
    venv.reset()
    for _ in range(3):  # warm-up: the kernels compile (or load from the cache) here
        venv.step(random_legal(np.stack(venv.env_method("action_masks")), rng))
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        venv.step(random_legal(np.stack(venv.env_method("action_masks")), rng))
        steps += venv.num_envs
    return steps / (time.perf_counter() - start)


def former_default() -> TrainConfig:
    """``sette train``'s config before the batch of tables: 8 views, the player's PPO then."""
    config = TrainConfig()
    config.run = dataclasses.replace(config.run, vec_env="views", n_envs=8)
    config.ppo = dataclasses.replace(config.ppo, n_steps=256, batch_size=256, n_epochs=5)
    config.player = dataclasses.replace(
        config.player, ppo={"learning_rate": 1e-4, "n_steps": 512, "batch_size": 512})
    return config


def ppo_rate(config: TrainConfig, steps: int) -> tuple[float, float, float, float, str]:
    """Steps per wall second, per CPU second of this process, and the environment's share of
    the wall time, of MaskablePPO's player stage under ``config`` (``model.learn``), and the
    seconds building the model took (torch's optimizer imports ``torch._dynamo`` once)."""
    from agents import make_agent

    torch.set_num_threads(config.run.torch_threads)
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
        model.learn(steps)
        wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    settings = (f"{config.run.vec_env}, {config.run.n_envs} envs, n_steps {p.n_steps}, "
                f"batch {p.batch_size}, {p.n_epochs} epochs, torch threads "
                f"{config.run.torch_threads}")
    return (model.num_timesteps / wall, model.num_timesteps / cpu, env.seconds / wall, built,
            settings)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=4096, help="tables of the batch VecEnv")
    parser.add_argument("--seconds", type=float, default=5.0,
                        help="length of one environment measurement")
    parser.add_argument("--ppo-steps", type=int, default=400_000,
                        help="MaskablePPO steps on the batch of tables")
    parser.add_argument("--scalar-steps", type=int, default=40_000,
                        help="MaskablePPO steps on the scalar views (the former default)")
    args = parser.parse_args()

    from envs.single_seat import PlayerEnv

    batch = BatchSeatVecEnv("player", "catalan", 2, args.tables, opponents=OPPONENTS,
                            engine="compiled")
    views = ViewVecEnv([partial(PlayerEnv, "catalan", 2, OPPONENTS)] * 8)
    batch_rate = vec_env_rate(batch, args.seconds)
    views_rate = vec_env_rate(views, args.seconds)
    print(f"BatchSeatVecEnv, {args.tables} tables (compiled):  {batch_rate:12,.0f} steps/s  "
          f"(goal: >= 1,000,000)")
    print(f"ViewVecEnv, 8 scalar views:                {views_rate:12,.0f} steps/s")
    print(f"ratio: {batch_rate / views_rate:.1f}x")

    print(f"load average {os.getloadavg()[0]:.1f}")
    before_rate, before_cpu, before_share, _, before = ppo_rate(former_default(),
                                                                args.scalar_steps)
    now_rate, now_cpu, now_share, built, now = ppo_rate(TrainConfig(), args.ppo_steps)
    print(f"MaskablePPO, former default ({before}): {before_rate:,.0f} steps/s "
          f"({before_cpu:,.0f} per CPU second), {before_share:.1%} in the environment")
    print(f"MaskablePPO, sette train now ({now}): {now_rate:,.0f} steps/s "
          f"({now_cpu:,.0f} per CPU second), {now_share:.1%} in the environment "
          f"(goals: >= 50,000 steps/s, < 10%); building the model {built:.1f} s")
    print(f"speed-up: {now_rate / before_rate:.1f}x ({now_cpu / before_cpu:.1f}x per CPU second)")
    print(f"load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
