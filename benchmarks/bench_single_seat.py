"""Speed of the Player view against Gymnasium's Blackjack-v1, and PPO's time in the env.

    python benchmarks/bench_single_seat.py [--seconds 3] [--repeats 3] [--ppo-steps 30000]

1. Steps per second, measured in the same run, of ``Blackjack-v1`` (made with
   ``gymnasium.make``, random actions: ``action_space.sample()``) and of
   ``sette/Player-v0`` (made with ``gymnasium.make``; ``catalan``, heads-up, a
   threshold bank; random legal actions for the learner, drawn from
   ``info["action_mask"]`` with a numpy generator as ``sample()`` draws).
   Each is measured ``--repeats`` times, alternating; the best runs are
   compared (the worst of the view against the best of Blackjack is printed
   too). The goal is a ratio of at least 3.
2. The share of MaskablePPO's training wall time spent inside the
   environments (stepping, resetting, fetching masks) with the training
   defaults of ``sette train`` against the same threshold bank. The goal is
   below 10%.

A benchmark, not a test: it prints numbers and asserts nothing.
"""

from __future__ import annotations

import argparse
import time

import gymnasium as gym
import numpy as np

import envs  # noqa: F401  (registers the views)
from agents import make_agent
from evaluate.arguments import positive_float, positive_int


def steps_per_second(env: gym.Env, pick, seconds: float) -> float:
    """Steps per second of ``env`` with actions from ``pick(env, info, rng)``, resetting as needed."""
    rng = np.random.default_rng(0)
    _obs, info = env.reset(seed=0)
    env.action_space.seed(0)
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(1000):
            _obs, _r, terminated, truncated, info = env.step(pick(env, info, rng))
            if terminated or truncated:
                _obs, info = env.reset()
        steps += 1000
    return steps / (time.perf_counter() - start)


def random_action(env: gym.Env, info: dict, rng: np.random.Generator) -> int:
    """What Blackjack-v1 has: any action of the space."""
    return env.action_space.sample()


def random_legal(env: gym.Env, info: dict, rng: np.random.Generator) -> int:
    """A uniformly random legal action, from the mask in the last step's info."""
    legal = info["action_mask"].nonzero()[0]
    return int(legal[rng.integers(legal.size)])


def ppo_env_share(steps: int) -> tuple[float, float]:
    """Env share of wall time and steps/s of MaskablePPO with the default config."""
    from sb3_contrib import MaskablePPO

    from train.config import TrainConfig
    from train.ppo import _policy_kwargs, make_vec_env

    config = TrainConfig()
    env = make_vec_env("player", config, {"bank": make_agent("threshold:5.5")}, seed=0)
    p = config.stage_ppo("player")
    model = MaskablePPO("MlpPolicy", env, learning_rate=p.learning_rate, n_steps=p.n_steps,
                        batch_size=p.batch_size, n_epochs=p.n_epochs, gamma=p.gamma,
                        policy_kwargs=_policy_kwargs(p), seed=0, device="cpu")
    start = time.perf_counter()
    model.learn(steps)
    wall = time.perf_counter() - start
    return env.seconds / wall, steps / wall


def _runs(rates: list[float]) -> str:
    return ", ".join(f"{rate:,.0f}" for rate in rates)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=positive_float, default=3.0, help="length of one measurement")
    parser.add_argument("--repeats", type=positive_int, default=3,
                        help="measurements of each env, alternating; the best of each is compared")
    parser.add_argument("--ppo-steps", type=positive_int, default=30_000)
    args = parser.parse_args()
    import torch

    torch.set_num_threads(1)
    blackjack_env = gym.make("Blackjack-v1")
    player_env = gym.make("sette/Player-v0", rules="catalan", num_seats=2,
                          opponents={"bank": make_agent("threshold:5.5")})
    blackjack, player = [], []
    for _ in range(args.repeats):  # alternating, so a busy moment hurts both alike
        blackjack.append(steps_per_second(blackjack_env, random_action, args.seconds))
        player.append(steps_per_second(player_env, random_legal, args.seconds))
    print(f"Blackjack-v1 (gymnasium.make, random actions):        {max(blackjack):10,.0f} steps/s"
          f"  (runs: {_runs(blackjack)})")
    print(f"sette/Player-v0 (catalan, 2 seats, threshold bank):     {max(player):10,.0f} steps/s"
          f"  (runs: {_runs(player)})")
    print(f"ratio of the best runs: {max(player) / max(blackjack):.2f}x  (goal: >= 3x); "
          f"worst to best: {min(player) / max(blackjack):.2f}x")
    share, rate = ppo_env_share(args.ppo_steps)
    print(f"MaskablePPO, default config, {args.ppo_steps} steps: {rate:,.0f} steps/s, "
          f"{share:.1%} of the wall time in the environment (goal: < 10%)")


if __name__ == "__main__":
    main()
