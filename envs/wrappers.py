"""PettingZoo's standard classic-game wrappers, with the per-step path made direct.

PettingZoo's ``BaseWrapper`` reaches the wrapped env's ``agent_selection``,
``rewards``, ``terminations`` … through ``__getattr__``, once per wrapper
layer and per access, and every ``step``/``observe`` passes through each
layer's ``BaseWrapper`` method too; with three layers that costs more than
a whole step of this game. These subclasses behave as the originals
(same checks, same errors and warnings, same handling of illegal moves —
the rare paths are the originals' own code; an action out of the space also
names itself, and a bool is out of it rather than read as 0 or 1) but read those attributes
straight from the unwrapped env, which is where every wrapper writes them,
and call the next layer directly on the common path.
"""

from __future__ import annotations

from operator import attrgetter
from typing import Any

import numpy as np
from gymnasium.spaces import Discrete
from pettingzoo.utils import wrappers
from pettingzoo.utils.env_logger import EnvLogger

_FORWARDED = ("agent_selection", "rewards", "terminations", "truncations", "infos",
              "agents", "_cumulative_rewards")
_NEEDS_RESET = {"rewards", "terminations", "truncations", "infos", "agent_selection", "agents"}


def _forwarding(name: str, check_reset: bool) -> property:
    def set_(self: Any, value: Any) -> None:
        setattr(self._base_env, name, value)

    if not check_reset:
        return property(attrgetter(f"_base_env.{name}"), set_)

    def get(self: Any) -> Any:
        if not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")
        return getattr(self._base_env, name)

    return property(get, set_)


def _forwarded(check_reset: bool) -> Any:
    """Class decorator: the attributes every wrapper shares, read from the unwrapped env."""

    def decorate(cls: type) -> type:
        for name in _FORWARDED:
            setattr(cls, name, _forwarding(name, check_reset and name in _NEEDS_RESET))
        return cls

    return decorate


class _Direct:
    """Mixin: remember the unwrapped env before the wrapper's own ``__init__`` runs."""

    def __init__(self, env: Any, *args: Any, **kwargs: Any) -> None:
        object.__setattr__(self, "_base_env", env.unwrapped)
        super().__init__(env, *args, **kwargs)  # type: ignore[call-arg]


@_forwarded(check_reset=False)
class TerminateIllegalWrapper(_Direct, wrappers.TerminateIllegalWrapper):
    __doc__ = wrappers.TerminateIllegalWrapper.__doc__

    def observe(self, agent: Any) -> Any:
        obs = self.env.observe(agent)
        base = self._base_env
        if agent == base.agent_selection:
            self._prev_obs = obs
            self._prev_info = base.infos[agent] if agent in base.infos else {}
        return obs

    def step(self, action: Any) -> None:
        base = self._base_env
        agent = base.agent_selection
        prev = self._prev_obs
        # The common case: a live agent, its mask at hand, a legal action.
        if (not self._terminated and action is not None and type(prev) is dict
                and not base.terminations[agent] and not base.truncations[agent]):
            mask = prev.get("action_mask")
            if mask is not None and mask[action]:
                self._prev_obs = None
                self._prev_info = None
                self.env.step(action)
                return
        super().step(action)


@_forwarded(check_reset=False)
class AssertOutOfBoundsWrapper(_Direct, wrappers.AssertOutOfBoundsWrapper):
    __doc__ = wrappers.AssertOutOfBoundsWrapper.__doc__

    def __init__(self, env: Any) -> None:
        super().__init__(env)
        self._sizes: dict[Any, int | None] = {}

    def _size(self, agent: Any) -> int | None:
        """``n`` of the agent's ``Discrete(n)`` space starting at 0, else None."""
        if agent not in self._sizes:
            space = self.action_space(agent)
            plain = type(space) is Discrete and int(space.start) == 0
            self._sizes[agent] = int(space.n) if plain else None
        return self._sizes[agent]

    def step(self, action: Any) -> None:
        base = self._base_env
        agent = base.agent_selection
        n = self._size(agent)
        if n is not None and (type(action) is int or isinstance(action, np.integer)):
            inside = 0 <= action < n  # what Discrete(n).contains says for an integer
        elif isinstance(action, (bool, np.bool_)):
            inside = False  # Discrete.contains takes True as 1; a mask reads it as a filter
        else:
            inside = self.action_space(agent).contains(action)
        if not (inside or (action is None
                           and (base.terminations[agent] or base.truncations[agent]))):
            raise AssertionError(f"action is not in action space: {action!r} for {agent}, "
                                 f"whose space is {self.action_space(agent)}")
        self.env.step(action)


@_forwarded(check_reset=True)
class OrderEnforcingWrapper(_Direct, wrappers.OrderEnforcingWrapper):
    __doc__ = wrappers.OrderEnforcingWrapper.__doc__

    def step(self, action: Any) -> None:
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        elif not self._base_env.agents:
            self._has_updated = True
            EnvLogger.warn_step_after_terminated_truncated()
        else:
            self._has_updated = True
            self.env.step(action)

    def observe(self, agent: Any) -> Any:
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        return self.env.observe(agent)

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            return super().last(observe)  # raises the original error
        base = self._base_env
        agent = base.agent_selection
        assert agent is not None
        observation = self.observe(agent) if observe else None
        return (observation, base._cumulative_rewards[agent], base.terminations[agent],
                base.truncations[agent], base.infos[agent])
