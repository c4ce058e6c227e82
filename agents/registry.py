"""Agents by name: ``make_agent("threshold:5.5")``, ``make_agent("random")``.

A spec is ``name`` or ``name:argument``; command lines use the same strings.
"""

from __future__ import annotations

from collections.abc import Callable

from agents.base import Agent
from agents.scripted import RandomAgent, ThresholdAgent


def _random(arg: str | None, seed: int | None) -> Agent:
    if arg is not None:
        raise ValueError(f"agent spec 'random' takes no argument, got {arg!r}")
    return RandomAgent(seed)


def _threshold(arg: str | None, seed: int | None) -> Agent:
    if arg is None:
        return ThresholdAgent()
    try:
        return ThresholdAgent(float(arg))
    except ValueError as exc:
        raise ValueError(f"agent spec 'threshold:{arg}': {exc}") from None


AGENT_SPECS: dict[str, tuple[Callable[[str | None, int | None], Agent], str]] = {
    "random": (_random, "uniformly random legal actions"),
    "threshold": (_threshold, "threshold:T — hit below T points, stand at T or more (5.5)"),
}


def make_agent(spec: str, seed: int | None = None) -> Agent:
    """Build an agent from a string spec; unknown names list the valid ones."""
    name, _, arg = spec.partition(":")
    if name not in AGENT_SPECS:
        raise ValueError(f"unknown agent {name!r} in spec {spec!r}; agents are: "
                         + "; ".join(f"{k} ({doc})" for k, (_, doc) in AGENT_SPECS.items()))
    factory, _doc = AGENT_SPECS[name]
    return factory(arg or None, seed)
