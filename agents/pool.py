"""Opponent pools for self-play: bounded, with the baselines always in.

A pool is anything with ``sample(rng) -> policy``; the single-seat views draw
from it anew every episode. :class:`PolicyPool` keeps its *pinned* members (the
rule-based baselines) forever and at most ``max_learned`` frozen learned
policies, dropping the oldest first, so the learner keeps meeting both the
fixed baselines (it must not forget how to beat them) and its recent past
selves, and memory stays bounded however many rounds run.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from agents.base import Policy


class PolicyPool:
    """Pinned baselines plus a bounded window of frozen policies, sampled uniformly."""

    def __init__(self, pinned: Iterable[Policy], max_learned: int = 4) -> None:
        if isinstance(pinned, str):
            raise TypeError(f"PolicyPool({pinned!r}): the pinned policies are a list of "
                            f"policies, not one string")
        self.pinned = [_policy(p) for p in pinned]
        if not self.pinned:
            raise ValueError("a pool needs at least one pinned baseline policy")
        if isinstance(max_learned, bool) or not isinstance(max_learned, int) or max_learned < 0:
            raise ValueError(f"max_learned={max_learned!r} must be a non-negative integer")
        self.max_learned = max_learned
        self.learned: list[Policy] = []

    @property
    def members(self) -> list[Policy]:
        """Every policy the pool may draw."""
        return self.pinned + self.learned

    def add(self, policy: Policy) -> None:
        """Add a frozen policy; beyond ``max_learned`` the oldest learned one leaves."""
        _policy(policy)
        if self.max_learned == 0:
            return
        self.learned.append(policy)
        del self.learned[:-self.max_learned]

    def sample(self, rng: np.random.Generator) -> Policy:
        members = self.members
        return members[int(rng.integers(len(members)))]

    def __len__(self) -> int:
        return len(self.pinned) + len(self.learned)

    def __repr__(self) -> str:
        return f"PolicyPool({', '.join(repr(m) for m in self.members)})"


def _policy(member: object) -> Policy:
    """``member`` if it is a policy (it has ``act``); a ``TypeError`` naming it otherwise (an
    agent spec such as ``'reader'`` is made into a policy by :func:`agents.make_agent`)."""
    if not callable(getattr(member, "act", None)):
        hint = (f"; make it one with agents.make_agent({member!r}, rules=...)"
                if isinstance(member, str) else "")
        raise TypeError(f"a pool holds policies (with act(observation, mask)), not "
                        f"{member!r}{hint}")
    return member  # type: ignore[return-value]  # checked: it acts
