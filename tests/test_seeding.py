"""Seeding follows Gymnasium's convention in the engine, the AEC env and every view.

A seed given once seeds the generator; later ``reset()`` calls without a seed
continue it (``Engine.reset``), so two tables seeded alike and then reset many
times without a seed deal the same cards and play the same episodes. SB3,
Tianshou and RLlib seed once and reset without a seed: their runs repeat only
this way. Seeded episodes (``reset(seed=k)``) are unchanged (tests/golden).
"""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest

import envs  # noqa: F401  (registers the ids)
from envs import sette_e_mezzo_v0
from envs.engine import Engine, replay

RESETS = 12


def _random_legal(rng: np.random.Generator, mask: np.ndarray) -> int:
    return int(rng.choice(np.flatnonzero(mask)))


def _engine_episodes(seed: int, rules: str = "catalan") -> list[list[tuple]]:
    """Event logs of one seeded episode and then RESETS unseeded ones."""
    engine = Engine(rules, 3, max_hands=3)
    chooser = np.random.default_rng(99)
    logs = []
    for i in range(RESETS + 1):
        engine.reset(seed=seed if i == 0 else None)
        while not engine.over:
            engine.step(_random_legal(chooser, engine.action_mask()))
        logs.append(list(engine.events))
    return logs


@pytest.mark.parametrize("rules", ["catalan", "italian"])
def test_engine_seeded_once_repeats_every_later_episode(rules):
    first, second = _engine_episodes(7, rules), _engine_episodes(7, rules)
    assert first == second
    seeds = [log[0][1] for log in first]
    assert len(set(seeds)) == len(seeds), "every unseeded episode deals a new shoe"


def test_engine_different_seeds_give_different_episodes():
    assert _engine_episodes(7)[1:] != _engine_episodes(8)[1:]


def test_engine_never_seeded_draws_from_the_os():
    a, b = Engine("catalan", 3), Engine("catalan", 3)
    a.reset()
    b.reset()
    assert a.seed != b.seed


def test_engine_unseeded_episode_replays_from_its_log():
    logs = _engine_episodes(3)
    for log in logs[1:3]:
        assert replay("catalan", 3, 3, log).events == log


def test_engine_seed_restarts_the_stream():
    """reset(seed=k) after unseeded episodes starts over exactly as the first time."""
    engine = Engine("catalan", 3)
    engine.reset(seed=5)
    engine.reset()
    after_first = engine.seed
    engine.reset()
    engine.reset(seed=5)
    engine.reset()
    assert engine.seed == after_first


def _aec_episodes(make, seed: int) -> list[list]:
    env = make(rules="catalan", num_seats=3, max_hands=2)
    chooser = np.random.default_rng(1)
    episodes = []
    for i in range(RESETS + 1):
        env.reset(seed=seed if i == 0 else None)
        steps = []
        for agent in env.agent_iter():
            obs, reward, termination, truncation, _ = env.last()
            steps.append((agent, obs["observation"].tobytes(), reward))
            action = None if termination or truncation else _random_legal(
                chooser, obs["action_mask"])
            env.step(action)
        episodes.append(steps)
    return episodes


@pytest.mark.parametrize("make", [sette_e_mezzo_v0.raw_env, sette_e_mezzo_v0.env],
                         ids=["raw_env", "env"])
def test_aec_env_seeded_once_repeats_every_later_episode(make):
    first, second = _aec_episodes(make, 11), _aec_episodes(make, 11)
    assert first == second
    assert first[1:] != _aec_episodes(make, 12)[1:]


def _view_episodes(view_id: str, seed: int, opponents) -> list[list]:
    env = gymnasium.make(view_id, rules="catalan", num_seats=3, opponents=opponents)
    chooser = np.random.default_rng(2)
    episodes = []
    for i in range(RESETS + 1):
        obs, info = env.reset(seed=seed if i == 0 else None)
        steps = [obs.tobytes()]
        done = False
        while not done:
            obs, reward, terminated, truncated, info = env.step(
                _random_legal(chooser, env.unwrapped.action_masks()))
            steps.append((obs.tobytes(), reward))
            done = terminated or truncated
        episodes.append(steps)
    return episodes


@pytest.mark.parametrize("opponents", [None, "random"])
@pytest.mark.parametrize("view_id", ["sette/Player-v0", "sette/Bank-v0", "sette/Seat-v0"])
def test_view_seeded_once_repeats_every_later_episode(view_id, opponents):
    first = _view_episodes(view_id, 5, opponents)
    assert first == _view_episodes(view_id, 5, opponents)
    assert first[1:] != _view_episodes(view_id, 6, opponents)[1:]
