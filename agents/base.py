"""The policy protocol every agent follows, and a reader for observations.

An agent maps what one seat sees to an action::

    action = agent.act(observation, action_mask)

``observation`` is the seat's vector (``envs.observer``), ``action_mask`` the
int8 mask of legal actions. ``predict`` offers the Stable-Baselines3 calling
convention so evaluation code can treat learned and scripted agents alike.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

import numpy as np

from envs.observer import GLOBAL_SIZE, SEAT_BLOCK, SEAT_FIELDS, observation_slices


@runtime_checkable
class Policy(Protocol):
    """Anything with ``act(observation, action_mask) -> action``."""

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int: ...


class Agent:
    """Base class: ``predict`` (SB3 style) on top of ``act``."""

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        raise NotImplementedError

    def predict(self, observation: Any, state: Any = None, episode_start: Any = None,
                deterministic: bool = True, action_masks: np.ndarray | None = None
                ) -> tuple[np.ndarray, None]:
        """SB3 convention: ``observation`` may be the dict observation of the AEC env."""
        if isinstance(observation, dict):
            action_masks = observation["action_mask"] if action_masks is None else action_masks
            observation = observation["observation"]
        if action_masks is None:
            raise ValueError("predict needs the action mask: pass action_masks= or a dict "
                             "observation with 'action_mask'")
        return np.asarray(self.act(np.asarray(observation), np.asarray(action_masks))), None


class ObservationReader:
    """Named views of an observation vector (the seat count is read off its length)."""

    def __init__(self, observation: np.ndarray) -> None:
        size = len(observation)
        num_seats, rest = divmod(size - GLOBAL_SIZE, SEAT_BLOCK)
        if rest or not 2 <= num_seats <= 8:
            raise ValueError(f"an observation of length {size} is not a sette e mezzo "
                             f"observation ({GLOBAL_SIZE} + 24 x seats for 2..8 seats)")
        self.obs = observation
        self.num_seats = num_seats
        self.slices = observation_slices(num_seats)

    def __getitem__(self, name: str) -> np.ndarray:
        return self.obs[self.slices[name]]

    @property
    def phase(self) -> int:
        """0 bet, 1 play, 2 bank, 3 transfer, 4 over."""
        return int(np.argmax(self["phase"]))

    @property
    def own_total(self) -> float:
        """Points of the observer's own hand it knows (7.5 = 7½)."""
        return float(self["own_total"][0]) * 7.5

    @property
    def is_bank(self) -> bool:
        return bool(self.obs[GLOBAL_SIZE + SEAT_FIELDS["is_bank"].start])
