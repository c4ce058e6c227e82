"""The policy protocol: what every seat's decision-maker offers, defined once.

A *policy* maps what one seat sees to an action::

    action = policy.act(observation, action_mask)

``observation`` is the seat's vector (:mod:`envs.observer`), ``action_mask``
the int8 (or bool) mask of its legal actions (:mod:`envs.actions`). A policy
with randomness also has ``seed(int)``; whoever seats it at a table calls it
(:mod:`agents.seating` states the seeding rule). A *pool* offers
``sample(rng) -> policy``, a policy drawn anew for every episode
(:class:`agents.PolicyPool`).

A *batch policy* decides for many tables in one call (:mod:`envs.batch`)::

    actions = policy.act_batch(observations, action_masks)

``observations`` is ``(n, D)`` float32 (one seat's vector per row),
``action_masks`` ``(n, A)`` int8, and ``actions`` ``(n,)`` int64: row ``i``'s
action is what ``act(observations[i], action_masks[i])`` would choose.

The protocols live in ``envs`` so that the views can name them without
importing :mod:`agents` (imports point ``envs`` <- ``agents``); :mod:`agents`
re-exports them.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import numpy as np


@runtime_checkable
class Policy(Protocol):
    """Anything with ``act(observation, action_mask) -> action``."""

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int: ...


@runtime_checkable
class BatchPolicy(Protocol):
    """Anything with ``act_batch(observations, action_masks) -> actions``, row by row ``act``."""

    def act_batch(self, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray: ...


@runtime_checkable
class PolicySource(Protocol):
    """A pool: ``sample(rng)`` draws the policy of the next episode."""

    def sample(self, rng: np.random.Generator) -> Policy: ...
