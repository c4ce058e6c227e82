"""``ViewVecEnv`` steps the views exactly as SB3's ``DummyVecEnv`` does, only faster."""

from __future__ import annotations

from functools import partial

import gymnasium as gym
import numpy as np
import pytest
from stable_baselines3.common.vec_env import DummyVecEnv

from agents import make_agent
from envs.single_seat import BankEnv, PlayerEnv, SeatEnv
from train.vec_env import ViewVecEnv


def _views(cls: type, num_seats: int, n: int) -> list:
    opponents = {"bank": make_agent("threshold:5.5"), "players": make_agent("careful")}
    if cls is SeatEnv:
        opponents = [make_agent("threshold:5"), make_agent("careful")]
    return [partial(cls, "catalan", num_seats, opponents)] * n


def _legal_actions(venv, rng: np.random.Generator) -> np.ndarray:
    masks = np.stack(venv.env_method("action_masks"))
    return np.array([rng.choice(np.flatnonzero(m)) for m in masks])


def _same_info(a: dict, b: dict) -> None:
    assert a.keys() == b.keys()
    for key in a:
        if isinstance(a[key], np.ndarray):
            np.testing.assert_array_equal(a[key], b[key])
        else:
            assert a[key] == b[key], key


@pytest.mark.parametrize("cls,num_seats", [(PlayerEnv, 2), (PlayerEnv, 4), (BankEnv, 3),
                                           (SeatEnv, 3)])
def test_same_steps_as_dummy_vec_env(cls: type, num_seats: int) -> None:
    fast, plain = ViewVecEnv(_views(cls, num_seats, 3)), DummyVecEnv(_views(cls, num_seats, 3))
    fast.seed(11)
    plain.seed(11)
    np.testing.assert_array_equal(fast.reset(), plain.reset())
    rng_a, rng_b = np.random.default_rng(5), np.random.default_rng(5)
    dones = 0
    for _ in range(600):
        out_a = fast.step(_legal_actions(fast, rng_a))
        out_b = plain.step(_legal_actions(plain, rng_b))
        for got, want in zip(out_a[:3], out_b[:3]):
            np.testing.assert_array_equal(got, want)
        for info_a, info_b in zip(out_a[3], out_b[3]):
            _same_info(info_a, info_b)
        dones += int(out_a[2].sum())
    assert dones > 50, "episodes ended and were reset along the way"
    for info_a, info_b in zip(fast.reset_infos, plain.reset_infos):
        _same_info(info_a, info_b)


def test_each_step_gets_its_own_infos_and_observations() -> None:
    venv = ViewVecEnv(_views(PlayerEnv, 2, 2))
    venv.seed(0)
    first = venv.reset()
    rng = np.random.default_rng(0)
    obs, _rewards, dones, infos = venv.step(_legal_actions(venv, rng))
    obs2, _rewards, _dones, infos2 = venv.step(_legal_actions(venv, rng))
    assert not np.shares_memory(first, obs) and not np.shares_memory(obs, obs2)
    assert all(a is not b for a, b in zip(infos, infos2))


def test_a_training_run_gives_the_same_model_with_either() -> None:
    from sb3_contrib import MaskablePPO

    params = []
    for cls in (ViewVecEnv, DummyVecEnv):
        venv = cls(_views(PlayerEnv, 2, 2))
        venv.seed(3)
        model = MaskablePPO("MlpPolicy", venv, n_steps=64, batch_size=32, n_epochs=1,
                            policy_kwargs={"net_arch": [8]}, seed=3, device="cpu")
        model.learn(256)
        params.append(np.concatenate([p.detach().numpy().ravel()
                                      for p in model.policy.parameters()]))
    np.testing.assert_array_equal(params[0], params[1])


def test_other_observation_spaces_are_refused_by_name() -> None:
    with pytest.raises(TypeError, match="Box observation space, not Tuple"):
        ViewVecEnv([lambda: gym.make("Blackjack-v1")])


def test_every_run_vec_env_choice_has_a_class() -> None:
    """The scalar choices name a class; ``batch`` and ``auto`` (the default) train on the batch
    of tables where the compiled engine plays the rules, ``auto`` on the views elsewhere."""
    from envs.rules import Rules
    from train.config import VEC_ENVS, TrainConfig
    from train.ppo import VEC_ENV_CLASSES, uses_batch

    assert (*VEC_ENV_CLASSES, "batch", "auto") == VEC_ENVS
    assert TrainConfig().run.vec_env == "auto", "the default"
    assert uses_batch("auto", Rules.resolve("catalan"))
    assert not uses_batch("auto", Rules.resolve("spanish_full"))
    assert not uses_batch("views", Rules.resolve("catalan"))
