"""``ViewVecEnv``: the single-seat views stepped in one loop, without per-step copies.

Stable-Baselines3's ``DummyVecEnv`` deep-copies every step's list of infos
(in case an environment reuses its dicts) and moves each observation through
a dict of buffers. A view of :mod:`envs.single_seat` returns a new info dict
and a new observation array at every step, so neither is needed: with a few views the copy cost as
much as the game itself (measured in docs/PERFORMANCE.md).
:class:`ViewVecEnv` is ``DummyVecEnv`` with those two steps left out —
same observations, rewards, dones, infos (``terminal_observation``,
``TimeLimit.truncated``), seeds and resets, which ``tests/test_vec_env.py``
checks step by step, so a run gives the same model with either. It also
looks each env's methods up once rather than at every call (MaskablePPO
calls ``env_method("action_masks")`` at every step).

It is the default of ``sette train`` (``run.vec_env = "views"``); ``"dummy"``
and ``"subproc"`` select SB3's own.

:class:`EndedVecMonitor` is SB3's ``VecMonitor`` with its loop over every
environment at every step replaced by one over the environments whose
episode ended: the same episode records (``info["episode"]``, the results
file), counted the same way, for a batch of thousands of tables.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import gymnasium as gym
from gymnasium import spaces
import numpy as np
from stable_baselines3.common.vec_env import DummyVecEnv, VecMonitor
from stable_baselines3.common.vec_env.base_vec_env import VecEnvStepReturn


class ViewVecEnv(DummyVecEnv):
    """Views in one process, stepped in sequence; for environments with a ``Box``
    observation space that return a fresh info dict every step."""

    def __init__(self, env_fns: list[Callable[[], gym.Env]]) -> None:
        super().__init__(env_fns)
        if not isinstance(self.observation_space, spaces.Box):
            raise TypeError(f"ViewVecEnv needs a Box observation space, not "
                            f"{self.observation_space!r}; use DummyVecEnv")
        self._buffer = self.buf_obs[None]  # type: ignore[index]  # SB3 keys a Box's buffer by None
        self._bound: dict[str, list[Callable[..., Any]]] = {}

    def step_wait(self) -> VecEnvStepReturn:
        buffer, rewards, dones = self._buffer, self.buf_rews, self.buf_dones
        infos: list[dict[str, Any]] = []
        for index, env in enumerate(self.envs):
            obs, reward, terminated, truncated, info = env.step(self.actions[index])
            done = terminated or truncated
            info["TimeLimit.truncated"] = truncated and not terminated
            if done:
                info["terminal_observation"] = obs
                obs, self.reset_infos[index] = env.reset()
            buffer[index] = obs
            rewards[index] = reward
            dones[index] = done
            infos.append(info)
        self.buf_infos = infos
        return buffer.copy(), rewards.copy(), dones.copy(), infos

    def env_method(self, method_name: str, *method_args: Any, indices: Any = None,
                   **method_kwargs: Any) -> list[Any]:
        """As ``DummyVecEnv``'s, with each env's method looked up once (MaskablePPO asks
        for ``action_masks`` at every step)."""
        if indices is not None:
            return super().env_method(method_name, *method_args, indices=indices,
                                      **method_kwargs)
        methods = self._bound.get(method_name)
        if methods is None:
            methods = self._bound[method_name] = [env.get_wrapper_attr(method_name)
                                                  for env in self.envs]
        return [method(*method_args, **method_kwargs) for method in methods]


class EndedVecMonitor(VecMonitor):
    """``VecMonitor`` (episode return, length and time in ``info["episode"]`` when an
    episode ends) that visits only the environments whose episode ended this step.

    The records are ``VecMonitor``'s: the return as the running ``float32`` sum, the
    length as ``int32``, the seconds since the start rounded to microseconds (read once
    a step, not once per ended episode), the ``info_keywords`` copied; each ended
    environment's info is copied before the record is added, as ``VecMonitor`` does,
    unless the environment declares ``fresh_infos`` (every step's infos are new dicts
    that nothing else holds, :class:`train.batch_vec_env.BatchSeatVecEnv`'s): then the
    record goes into the info itself.
    """

    def __init__(self, venv: Any, filename: str | None = None,
                 info_keywords: tuple[str, ...] = ()) -> None:
        super().__init__(venv, filename, info_keywords)
        self._in_place = getattr(venv, "fresh_infos", False) is True

    def step_wait(self) -> VecEnvStepReturn:
        obs, rewards, dones, infos = self.venv.step_wait()
        self.episode_returns += rewards
        self.episode_lengths += 1
        ended = np.flatnonzero(dones)
        if not ended.size:
            return obs, rewards, dones, infos
        in_place = self._in_place
        if not in_place:
            infos = list(infos)
        seconds = round(time.time() - self.t_start, 6)
        keywords, writer = self.info_keywords, self.results_writer
        for i, episode_return, episode_length in zip(ended.tolist(), self.episode_returns[ended],
                                                      self.episode_lengths[ended]):
            info = infos[i]
            episode = {"r": episode_return, "l": episode_length, "t": seconds}
            for key in keywords:
                episode[key] = info[key]
            if in_place:
                info["episode"] = episode
            else:
                infos[i] = {**info, "episode": episode}  # a copy, as VecMonitor's
            if writer:
                writer.write_row(episode)
        self.episode_count += ended.size
        self.episode_returns[ended] = 0
        self.episode_lengths[ended] = 0
        return obs, rewards, dones, infos
