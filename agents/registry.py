"""Agents by spec: every string a command line, a config file or a view takes.

A *spec* names a seat's policy. Its forms:

==========================  ===============================================
``NAME`` / ``NAME:ARG``     a registered agent (:data:`AGENT_SPECS`):
                            ``random``, ``threshold:5.5``, ``careful``, ``reader:4``
``model:PATH``              a model trained by ``sette train`` (``model.zip`` or
                            its stage folder), read as plain weights
``PATH``                    the same, when the path exists on disk
``rllib:PATH``              a policy trained on Ray RLlib (:mod:`agents.rllib_policy`):
                            ``rllib:RUN/player``, ``rllib:RUN/bank``, or ``rllib:RUN``
                            (its player and bank on one seat); a bare exported path too
``PLAYER|BANK``             one seat, the first spec while it plays and the
                            second while it holds the bank
                            (``runs/RUN/player|runs/RUN/bank``)
==========================  ===============================================

:func:`resolve_spec` writes a spec in its canonical form (a bare path becomes
``model:PATH``) and names a bad one before anything loads; :func:`make_agent`
builds the agent; :func:`model_label` gives a model its short table label.
``sette evaluate``, ``sette play``, ``sette solve``, training configs and the
single-seat views' ``opponents`` all go through here, so each takes every form.
Agents that need the table's rules (payouts, decks) take them from ``rules``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from agents.base import Agent
from agents.heuristics import CarefulAgent
from agents.learned import MODEL_FILE, load_model, model_path
from agents.rllib_policy import check_spec, is_export, is_run, load_rllib
from agents.scripted import RandomAgent, ThresholdAgent
from agents.seating import RoleSplitAgent
from envs.rules import Rules

RUN_FILE = "run.json"
"""The record a training run folder holds (:mod:`train.pipeline`): it names the run."""


def _number(name: str, arg: str) -> float:
    try:
        return float(arg)
    except ValueError:
        raise ValueError(f"agent spec '{name}:{arg}': {arg!r} is not a number of points") from None


def _random(arg: str | None, seed: int | None, rules: Rules) -> Agent:
    if arg is not None:
        raise ValueError(f"agent spec 'random' takes no argument, got {arg!r}")
    return RandomAgent(seed)


def _threshold(arg: str | None, seed: int | None, rules: Rules) -> Agent:
    return ThresholdAgent() if arg is None else ThresholdAgent(_number("threshold", arg))


def _careful(arg: str | None, seed: int | None, rules: Rules) -> Agent:
    if arg is None:
        return CarefulAgent(rules)
    return _named(f"careful:{arg}", lambda: CarefulAgent(rules,
                                                          bank_model=_number("careful", arg)))


def _reader(arg: str | None, seed: int | None, rules: Rules) -> Agent:
    if arg is None:
        return CarefulAgent(rules)
    return _named(f"reader:{arg}", lambda: CarefulAgent(rules,
                                                         assume_stand=_number("reader", arg)))


def _named(spec: str, build: Callable[[], Agent]) -> Agent:
    """``build()``, its error about an argument said of ``spec`` as the user wrote it (the
    heuristics name their keyword: ``bank_model=99.0 is outside 0.5..7.5 points``)."""
    try:
        return build()
    except ValueError as exc:
        text = str(exc)
        raise ValueError(text if text.startswith("agent spec") else
                         f"agent spec {spec!r}: {text.partition('=')[2] or text}") from None


def _model(arg: str | None, seed: int | None, rules: Rules) -> Agent:
    if not arg:
        raise ValueError("agent spec 'model' needs a path: model:RUN_DIR/player or "
                         "model:path/to/model.zip")
    return load_model(arg)


def _rllib(arg: str | None, seed: int | None, rules: Rules) -> Agent:
    if not arg:
        raise ValueError("agent spec 'rllib' needs a path: rllib:RUN/player, rllib:RUN/bank "
                         "or rllib:RUN (a run of sette train --backend rllib)")
    return load_rllib(arg)


Factory = Callable[[str | None, int | None, Rules], Agent]
"""``factory(argument, seed, rules)``: the agent of one registered name."""

AGENT_SPECS: dict[str, tuple[Factory, str]] = {
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
    "rllib": (_rllib, "rllib:PATH — a policy trained by sette train --backend rllib "
                      "(RUN/player, RUN/bank, or RUN for both; plain weights, no ray needed)"),
}

_FORMS = ("or a model path (a model.zip or its folder, e.g. runs/RUN/player), or "
          "PLAYER|BANK with one spec on each side (e.g. careful|threshold:6)")


def resolve_spec(text: str) -> str:
    """``text`` as a canonical spec: checked, a bare model path written ``model:PATH``.

    A missing model is named now, before anything loads; an unknown name lists
    the valid forms (module docstring).
    """
    if not isinstance(text, str) or not text:
        raise ValueError(f"agent spec must be a non-empty string such as 'threshold:5.5', "
                         f"got {text!r}")
    if "|" in text:
        parts = text.split("|")
        if len(parts) != 2 or not all(parts):
            raise ValueError(f"agent spec {text!r}: write PLAYER|BANK with one spec on each "
                             f"side, e.g. careful|threshold:6")
        return "|".join(resolve_spec(p) for p in parts)
    name, _, arg = text.partition(":")
    if name == "model" and arg:
        model_path(arg)
    if name == "rllib" and arg:
        check_spec(arg)
    if name in AGENT_SPECS:
        return text
    if is_export(text) or is_run(text):
        return f"rllib:{text}"
    if Path(text).exists():
        model_path(text)
        return f"model:{text}"
    raise ValueError(f"unknown agent {name!r} in spec {text!r}: neither an agent spec nor an "
                     f"existing model path; agents are: "
                     + "; ".join(f"{k} ({doc})" for k, (_, doc) in AGENT_SPECS.items())
                     + f"; {_FORMS}")


def make_agent(spec: str, seed: int | None = None, rules: Rules | str | None = None) -> Agent:
    """The agent a spec names, in any form of the module docstring.

    ``seed`` seeds an agent with randomness (a table reseeds it:
    :mod:`agents.seating`); ``rules`` are the table's (a preset name or rules
    file is read here; ``None``: the default preset). The agent's ``spec`` is
    the canonical spec (:func:`resolve_spec`).

        >>> make_agent("threshold:5").spec
        'threshold:5'
        >>> type(make_agent("careful|reader")).__name__
        'RoleSplitAgent'
        >>> make_agent("thresh:5")
        Traceback (most recent call last):
        ValueError: unknown agent 'thresh' in spec 'thresh:5': ...
    """
    canonical = resolve_spec(spec)
    table_rules = Rules.resolve(rules)
    agent = _build(canonical, seed, table_rules)
    agent.spec = canonical
    return agent


def _build(spec: str, seed: int | None, rules: Rules) -> Agent:
    if "|" in spec:
        player, bank = spec.split("|")
        sides = make_agent(player, rules=rules), make_agent(bank, rules=rules)
        for side, role in zip(sides, ("player", "bank")):  # a trained model plays its own role
            check_role = getattr(side, "check_role", None)
            if check_role is not None:
                try:
                    check_role(role)
                except ValueError as exc:
                    raise ValueError(f"PLAYER|BANK {spec!r}: {exc}") from None
        split = RoleSplitAgent(*sides)
        if seed is not None:
            split.seed(seed)
        return split
    name, colon, arg = spec.partition(":")
    factory, _doc = AGENT_SPECS[name]
    return factory(arg if colon else None, seed, rules)  # 'threshold:' names no threshold


def model_label(spec: str, depth: int = 1, default: str | None = None) -> str:
    """A table label for a resolved spec: a trained model by its run's name and stage.

    ``model:runs/RUN/player`` (or its ``model.zip``) is ``RUN/player``,
    ``model:runs/RUN/selfplay/bank`` is ``RUN/selfplay/bank`` and a checkpoint
    keeps its file name; the run is the nearest folder holding ``run.json``,
    else the model's own folder. ``depth`` adds that many more folders above
    the run, to tell apart two runs of the same name. ``PLAYER|BANK`` labels
    each side (``RUN/player|bank`` when both come from one run). Specs that
    are not models give ``default`` (the spec itself when ``None``).
    """
    sides = spec.split("|")
    paths = [_model_stage(side) for side in sides]
    if all(p is None for p in paths):
        return spec if default is None else default
    labels = [side if p is None else _short(p, depth) for side, p in zip(sides, paths)]
    first, last = paths[0], paths[-1]
    if len(paths) == 2 and first is not None and last is not None and first[0] == last[0]:
        return f"{labels[0]}|{'/'.join(last[1])}"
    return "|".join(labels)


def _model_stage(spec: str) -> tuple[Path, tuple[str, ...]] | None:
    """The run folder of a ``model:`` spec and the stage's path inside it (``None``: no model)."""
    name, _, arg = spec.partition(":")
    if name != "model" or not arg:
        return None
    path = Path(arg)
    if path.name == MODEL_FILE:
        path = path.parent
    elif path.suffix == ".zip":
        path = path.with_suffix("")
    for run in path.parents:
        if (run / RUN_FILE).is_file():
            return run, path.relative_to(run).parts
    return path.parent, (path.name,)


def _short(stage: tuple[Path, tuple[str, ...]], depth: int) -> str:
    run, inside = stage
    above = run.parts[max(len(run.parts) - depth, 0):]
    return "/".join((*above, *inside)) or "."
