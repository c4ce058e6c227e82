"""Driven by Stable-Baselines3 the way its and PettingZoo's documentation do it.

* PettingZoo's tutorial "SB3: Action Masked PPO for Connect Four": an
  ``SB3ActionMaskWrapper(pettingzoo.utils.BaseWrapper)`` with
  reset/step/observe/action_mask, sb3-contrib's ``ActionMasker`` and
  ``MaskablePPO``. SB3 seeds the first reset only and resets without a seed
  afterwards, so the same seed gives the same weights only if ``reset()``
  continues the seeded generator (``Engine.reset``).
* ``make_vec_env("sette/Player-v0", ...)`` passes ``render_mode="rgb_array"``:
  with ``DummyVecEnv``, and with ``SubprocVecEnv`` in a script guarded by
  ``if __name__ == "__main__":`` as SB3's multiprocessing example is.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

import gymnasium
import numpy as np
import pytest

pytest.importorskip("sb3_contrib")  # the "train" extra

import pettingzoo.utils  # noqa: E402
import torch  # noqa: E402
from sb3_contrib import MaskablePPO  # noqa: E402
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy  # noqa: E402
from sb3_contrib.common.wrappers import ActionMasker  # noqa: E402
from stable_baselines3.common.env_util import make_vec_env  # noqa: E402
from stable_baselines3.common.vec_env import DummyVecEnv  # noqa: E402

import envs  # noqa: E402,F401  (registers the ids)
from envs import sette_e_mezzo_v0  # noqa: E402
from envs.picture import picture_size  # noqa: E402


class SB3ActionMaskWrapper(pettingzoo.utils.BaseWrapper, gymnasium.Env):
    """The tutorial's wrapper: one Gymnasium-like env for every seat, the mask apart."""

    def reset(self, seed=None, options=None):
        super().reset(seed, options)
        self.observation_space = super().observation_space(self.possible_agents[0])[
            "observation"]
        self.action_space = super().action_space(self.possible_agents[0])
        return self.observe(self.agent_selection), {}

    def step(self, action):
        current_agent = self.agent_selection
        super().step(action)
        next_agent = self.agent_selection
        return (self.observe(next_agent), self._cumulative_rewards[current_agent],
                self.terminations[current_agent], self.truncations[current_agent],
                self.infos[current_agent])

    def observe(self, agent):
        return super().observe(agent)["observation"]

    def action_mask(self):
        return super().observe(self.agent_selection)["action_mask"]


def _mask_fn(env):
    return env.action_mask()


def _trained_weights(seed: int, steps: int = 256) -> dict[str, torch.Tensor]:
    env = SB3ActionMaskWrapper(sette_e_mezzo_v0.env(rules="catalan", num_seats=2, max_hands=3))
    env.reset(seed=seed)  # the tutorial: reset once to define the spaces
    env = ActionMasker(env, _mask_fn)
    model = MaskablePPO(MaskableActorCriticPolicy, env, n_steps=64, batch_size=32,
                        n_epochs=2, seed=seed, device="cpu")
    model.learn(total_timesteps=steps)
    return {k: v.clone() for k, v in model.policy.state_dict().items()}


def test_maskable_ppo_through_the_tutorial_wrapper_repeats_for_a_seed():
    first, again, other = _trained_weights(3), _trained_weights(3), _trained_weights(4)
    assert first.keys() == again.keys()
    for name in first:
        assert torch.equal(first[name], again[name]), name
    assert any(not torch.equal(first[name], other[name]) for name in first)


def _play_masked(venv, steps: int) -> None:
    venv.reset()
    for _ in range(steps):
        masks = np.stack(venv.env_method("action_masks"))
        venv.step(masks.argmax(axis=1))


def test_make_vec_env_with_dummy_vec_env_renders_pictures():
    venv = make_vec_env("sette/Player-v0", n_envs=2, vec_env_cls=DummyVecEnv,
                        env_kwargs={"rules": "catalan", "num_seats": 3, "opponents": "reader"})
    assert venv.render_mode == "rgb_array"
    _play_masked(venv, 5)
    images = venv.get_images()
    assert [image.shape for image in images] == [(*picture_size(3), 3)] * 2
    assert all(image.dtype == np.uint8 for image in images)
    tiled = venv.render()
    assert tiled.ndim == 3 and tiled.shape[2] == 3
    venv.close()


SUBPROC_SCRIPT = """
import numpy as np
from stable_baselines3.common.env_util import make_vec_env
from stable_baselines3.common.vec_env import SubprocVecEnv

import envs

if __name__ == "__main__":
    venv = make_vec_env("sette/Player-v0", n_envs=2, vec_env_cls=SubprocVecEnv,
                        env_kwargs={"rules": "catalan", "num_seats": 3, "opponents": "reader"})
    venv.reset()
    for _ in range(5):
        masks = np.stack(venv.env_method("action_masks"))
        venv.step(masks.argmax(axis=1))
    images = venv.get_images()
    print([image.shape for image in images], venv.render().ndim, venv.render_mode)
    venv.close()
"""


def test_make_vec_env_with_subproc_vec_env_renders_pictures(tmp_path):
    script = tmp_path / "train.py"
    script.write_text(textwrap.dedent(SUBPROC_SCRIPT))
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    height, width = picture_size(3)
    assert done.stdout.strip() == f"[({height}, {width}, 3), ({height}, {width}, 3)] 3 rgb_array"
