"""The two simplest rule-based seats, the floor every other agent is compared with.

* ``RandomAgent`` — any legal action, uniformly: what an agent that has learnt
  nothing does.
* ``ThresholdAgent`` — the simplest sound play and the first rule a beginner is
  taught: stake the smallest bet, hit below ``t`` points and stand at ``t`` or
  more, whether playing or banking; take or claim the bank whenever it is
  offered. As a player it is "threshold player t", as a bank "threshold bank s".
  It is the built-in dealer of the single-seat views (:class:`envs.single_seat.DealerRule`)
  behind the agent protocol.
"""

from __future__ import annotations

import numpy as np

from agents.base import Agent
from envs.engine import checked_seed
from envs.single_seat import DealerRule


class RandomAgent(Agent):
    """Uniformly random legal actions, from its own seeded generator."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(checked_seed(seed))

    def seed(self, seed: int) -> None:
        """Restart the generator (the environments call this on a seeded reset)."""
        self.rng = np.random.default_rng(checked_seed(seed))

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        legal = np.flatnonzero(action_mask)
        if legal.size == 0:
            raise ValueError("the action mask allows no action")
        return int(legal[self.rng.integers(legal.size)])


class ThresholdAgent(DealerRule, Agent):
    """Hit below ``threshold`` points, stand at or above it; bet the minimum; take the bank."""

    def __init__(self, threshold: float = 5.5) -> None:
        super().__init__(threshold)
