"""PettingZoo's standard classic-game wrappers, with direct attribute forwarding.

PettingZoo's ``BaseWrapper`` reaches the wrapped env's ``agent_selection``,
``rewards``, ``terminations`` … through ``__getattr__``, once per wrapper
layer and per access; ``last()`` and ``agent_iter()`` make several such
accesses a step, and with three layers that costs more than a whole step of
this game. These subclasses behave exactly as the originals (same checks,
same errors before ``reset``) but read those attributes straight from the
unwrapped env, which is where every wrapper writes them.
"""

from __future__ import annotations

from operator import attrgetter
from typing import Any

from pettingzoo.utils import wrappers

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


def _fast(cls: type) -> type:
    check = cls is wrappers.OrderEnforcingWrapper or issubclass(cls, wrappers.OrderEnforcingWrapper)
    namespace: dict[str, Any] = {
        name: _forwarding(name, check and name in _NEEDS_RESET) for name in _FORWARDED
    }

    def __init__(self: Any, env: Any, *args: Any, **kwargs: Any) -> None:
        object.__setattr__(self, "_base_env", env.unwrapped)
        cls.__init__(self, env, *args, **kwargs)

    namespace["__init__"] = __init__
    namespace["__doc__"] = cls.__doc__
    return type(cls.__name__, (cls,), namespace)


TerminateIllegalWrapper = _fast(wrappers.TerminateIllegalWrapper)
AssertOutOfBoundsWrapper = _fast(wrappers.AssertOutOfBoundsWrapper)
OrderEnforcingWrapper = _fast(wrappers.OrderEnforcingWrapper)
