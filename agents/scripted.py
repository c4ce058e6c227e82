"""Rule-based seats a real player would recognise.

* ``RandomAgent`` — any legal action, uniformly (a floor to compare against).
* ``ThresholdAgent`` — the simplest sound play: stake the smallest bet, hit
  below a total ``t`` and stand at or above it, whether playing or banking;
  take or claim the bank whenever it is offered.
"""

from __future__ import annotations

import numpy as np

from agents.base import Agent, ObservationReader
from envs import actions as A

_BET_START = len(A.CORE_ACTIONS)


class RandomAgent(Agent):
    """Uniformly random legal actions, from its own seeded generator."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        legal = np.flatnonzero(action_mask)
        if legal.size == 0:
            raise ValueError("the action mask allows no action")
        return int(legal[self.rng.integers(legal.size)])


class ThresholdAgent(Agent):
    """Hit below ``threshold`` points, stand at or above it; bet the minimum."""

    def __init__(self, threshold: float = 5.5) -> None:
        if not 0.5 <= threshold <= 7.5:
            raise ValueError(f"threshold {threshold!r} is outside 0.5..7.5 points")
        self.threshold = threshold

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        legal = np.flatnonzero(action_mask)
        if legal.size == 0:
            raise ValueError("the action mask allows no action")
        if action_mask[A.TAKE_BANK]:
            return A.TAKE_BANK
        if action_mask[A.CLAIM_BANK]:
            return A.CLAIM_BANK
        if action_mask[A.HIT] or action_mask[A.STAND]:
            total = ObservationReader(observation).own_total
            want = A.HIT if total < self.threshold - 1e-6 else A.STAND
            return want if action_mask[want] else int(A.STAND if action_mask[A.STAND] else A.HIT)
        bets = [a for a in legal if a >= _BET_START]
        return int(bets[0]) if bets else int(legal[0])
