"""Agents by name: ``make_agent("threshold:5.5")``, ``make_agent("careful")``, ``make_agent("model:runs/x/player")``.

A spec is ``name`` or ``name:argument``; command lines use the same strings.
Agents that need the table's rules (payouts, decks) take them from ``rules``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from agents.base import Agent
from agents.heuristics import CarefulAgent
from agents.scripted import RandomAgent, ThresholdAgent
from envs.rules import Rules


def _number(name: str, arg: str) -> float:
    try:
        return float(arg)
    except ValueError:
        raise ValueError(f"agent spec '{name}:{arg}': {arg!r} is not a number of points") from None


def _random(arg: str | None, seed: int | None, rules: Any) -> Agent:
    if arg is not None:
        raise ValueError(f"agent spec 'random' takes no argument, got {arg!r}")
    return RandomAgent(seed)


def _threshold(arg: str | None, seed: int | None, rules: Any) -> Agent:
    return ThresholdAgent() if arg is None else ThresholdAgent(_number("threshold", arg))


def _careful(arg: str | None, seed: int | None, rules: Any) -> Agent:
    if arg is None:
        return CarefulAgent(rules)
    return CarefulAgent(rules, bank_model=_number("careful", arg))


def _reader(arg: str | None, seed: int | None, rules: Any) -> Agent:
    if arg is None:
        return CarefulAgent(rules)
    return CarefulAgent(rules, assume_stand=_number("reader", arg))


def _model(arg: str | None, seed: int | None, rules: Any) -> Agent:
    if not arg:
        raise ValueError("agent spec 'model' needs a path: model:RUN_DIR/player or "
                         "model:path/to/model.zip")
    from agents.learned import load_model

    return load_model(arg)


AGENT_SPECS: dict[str, tuple[Callable[[str | None, int | None, Any], Agent], str]] = {
    "random": (_random, "uniformly random legal actions"),
    "threshold": (_threshold, "threshold:T — stake the minimum, hit below T points, stand at "
                              "T or more, as player or bank (T = 5.5)"),
    "careful": (_careful, "careful[:B] — the careful heuristic player (counts cards, house "
                          "actions, stakes; B = points its model bank draws to, 5); banks "
                          "like reader"),
    "reader": (_reader, "reader[:S] — the bank that reads the table (S = points it assumes "
                        "a standing player holds, 5); plays like careful as a player"),
    "model": (_model, "model:PATH — a model trained by sette train (model.zip or its folder; "
                      "read as plain weights, never unpickled)"),
}


def make_agent(spec: str, seed: int | None = None,
               rules: Rules | str | None = None) -> Agent:
    """Build an agent from a string spec; unknown names list the valid ones."""
    if not isinstance(spec, str):
        raise ValueError(f"agent spec must be a string such as 'threshold:5.5', got {spec!r}")
    name, _, arg = spec.partition(":")
    if name not in AGENT_SPECS:
        raise ValueError(f"unknown agent {name!r} in spec {spec!r}; agents are: "
                         + "; ".join(f"{k} ({doc})" for k, (_, doc) in AGENT_SPECS.items()))
    factory, _doc = AGENT_SPECS[name]
    agent = factory(arg or None, seed, rules)
    agent.spec = spec
    return agent
