"""The policy protocol every agent follows (:mod:`envs.policy`, re-exported here).

An agent maps what one seat sees to an action::

    action = agent.act(observation, action_mask)

``observation`` is the seat's vector (:mod:`envs.observer`), ``action_mask`` the
int8 (or bool) mask of legal actions. ``predict`` offers the Stable-Baselines3
calling convention so evaluation code treats learned and scripted agents alike.
An agent with randomness has ``seed(int)``; a table seeds it before it
starts (:mod:`agents.seating`), a view on a seeded reset, so that seeded runs
repeat exactly. An agent reads its
observation with :class:`envs.observation.ObservationReader` (also importable
from here).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from envs.observation import ObservationReader, observation_seats
from envs.policy import Policy, PolicySource

__all__ = ["Agent", "ObservationReader", "Policy", "PolicySource", "observation_seats"]


class Agent:
    """Base class: ``predict`` (SB3 style) on top of ``act``.

    ``spec`` is the spec string that made the agent (:func:`agents.make_agent`),
    also its ``repr``.
    """

    spec: str

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        raise NotImplementedError

    def predict(self, observation: Any, state: Any = None, episode_start: Any = None,
                deterministic: bool = True, action_masks: np.ndarray | None = None
                ) -> tuple[np.ndarray, None]:
        """SB3 convention: one observation or a batch (one row per env).

        ``observation`` may also be the dict observation of the AEC env, which
        carries its own ``action_mask``.
        """
        if isinstance(observation, dict):
            action_masks = observation["action_mask"] if action_masks is None else action_masks
            observation = observation["observation"]
        if action_masks is None:
            raise ValueError("predict needs the action mask: pass action_masks= or a dict "
                             "observation with 'action_mask'")
        observation, action_masks = np.asarray(observation), np.asarray(action_masks)
        if observation.ndim == 2:
            return np.array([self.act(o, m) for o, m in zip(observation, action_masks)]), None
        return np.asarray(self.act(observation, action_masks)), None

    def __repr__(self) -> str:
        return getattr(self, "spec", type(self).__name__)
