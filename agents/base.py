"""The policy protocol every agent follows, and a reader for observations.

An agent maps what one seat sees to an action::

    action = agent.act(observation, action_mask)

``observation`` is the seat's vector (:mod:`envs.observer`), ``action_mask`` the
int8 (or bool) mask of legal actions. ``predict`` offers the Stable-Baselines3
calling convention so evaluation code treats learned and scripted agents alike.
An agent with randomness has ``seed(int)``; the environments call it on a
seeded reset so that seeded runs repeat exactly.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Protocol, runtime_checkable

import numpy as np

from envs.observer import GLOBAL_SIZE, SEAT_BLOCK, SEAT_FIELDS, observation_slices
from envs.rules import MAX_SEATS, MIN_SEATS


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


def observation_seats(size: int) -> int:
    """The number of seats an observation of length ``size`` describes (``envs.observer``)."""
    num_seats, rest = divmod(size - GLOBAL_SIZE, SEAT_BLOCK)
    if rest or not MIN_SEATS <= num_seats <= MAX_SEATS:
        raise ValueError(f"an observation of length {size} is not a sette e mezzo "
                         f"observation ({GLOBAL_SIZE} + {SEAT_BLOCK} x seats for "
                         f"{MIN_SEATS}..{MAX_SEATS} seats)")
    return num_seats


@lru_cache(maxsize=None)
def _slices(num_seats: int) -> dict[str, slice]:
    return observation_slices(num_seats)


class ObservationReader:
    """Named views of an observation vector (the seat count is read off its length).

    Block ``i`` of ``seat(i, field)`` is the ``i``-th seat after the observer in
    turn order (0 = the observer), as in :mod:`envs.observer`.
    """

    __slots__ = ("obs", "num_seats", "slices")

    def __init__(self, observation: np.ndarray) -> None:
        num_seats = observation_seats(len(observation))
        self.obs = observation
        self.num_seats = num_seats
        self.slices = _slices(num_seats)

    def __getitem__(self, name: str) -> np.ndarray:
        return self.obs[self.slices[name]]

    def seat(self, i: int, field: str) -> np.ndarray:
        """Field ``field`` (a name of ``SEAT_FIELDS``) of seat block ``i``."""
        sl = SEAT_FIELDS[field]
        base = GLOBAL_SIZE + i * SEAT_BLOCK
        return self.obs[base + sl.start:base + sl.stop]

    @property
    def phase(self) -> int:
        """The engine phase index (``envs.engine.BET``, ``PLAY``, ``BANK``, ``TRANSFER``, …)."""
        return int(np.argmax(self["phase"]))

    @property
    def own_total(self) -> float:
        """Points of the observer's own hand it knows (7.5 = 7½)."""
        return float(self["own_total"][0]) * 7.5

    @property
    def is_bank(self) -> bool:
        """Whether the observer holds the bank."""
        return bool(self.seat(0, "is_bank")[0])
