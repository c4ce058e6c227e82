"""Rules fuzz: random valid rule combinations x random legal play (RULES.md §8.9).

Every switch of :class:`envs.rules.Rules` is drawn from the values its
validation allows, read from the field's own metadata (``choices``, ``low``,
``high``) and type, so a new switch is fuzzed as soon as it exists (a switch
of a type this file cannot draw fails the test). Combinations the validation
rejects (``RulesError``: clashes, a ladder above ``max_bet``, stacks below
the smallest stake, …) are skipped and counted; the next one redraws the
switches the error names (``name=value``), so that most draws end in a
valid combination. Each valid combination plays
one seeded episode at 2 to ``rules.max_seats`` seats (larger tables need
more decks, RULES.md §2) with uniformly random legal actions, half of them
with small random stacks so that seats sit out, banks fail to cover and
coverage caps payouts. After every step :func:`test_invariants.run_episode`
checks that a seat to act has a legal action (no dead end), that chips +
jackpot + open stakes are conserved, that no card is lost, and the
settlement and hand-start invariants; any exception fails too.

Deterministic: everything is drawn from generators made from the seed. CI
runs :data:`CI_COMBOS` combinations; ``benchmarks/fuzz_rules.py`` runs more.
"""

from __future__ import annotations

import dataclasses
import math
import random
import re
import time
from typing import Any

import numpy as np

from envs.cards import DECK_SIZE, card_name, is_figure
from envs.rules import Rules, RulesError

from test_invariants import run_episode

CI_COMBOS = 2000
CI_SEED = 10
UNBOUNDED = 2000
"""Largest value drawn for an integer switch without an upper bound (log-uniform)."""
LADDER_VALUES = 20
"""Ladder steps are drawn from 1..LADDER_VALUES (multiples of min_bet)."""
MAX_HANDS = 4
REDRAWS = 30
"""Redraws of the switches named by the validation before a combination is given up."""
FIGURES = tuple(card_name(c) for c in range(DECK_SIZE) if is_figure(c))
"""The cards ``wild_card`` may name besides ``"none"`` (RULES.md §1: the matta is a figure)."""


def _draw_int(rng: random.Random, low: int, high: int | None) -> int:
    if high is not None:
        return rng.randint(low, high)
    # log-uniform over low..low + UNBOUNDED: small values (an ante of 1, a 3-hand bank
    # limit) come up as often as large stacks
    return low + int(math.exp(rng.uniform(0.0, math.log(UNBOUNDED + 1)))) - 1


def draw_switch(field: dataclasses.Field, rng: random.Random) -> Any:
    """One value for a switch, among those its validation allows."""
    meta, kind = field.metadata, type(field.default)
    if meta.get("choices"):
        return rng.choice(meta["choices"])
    if kind is bool:
        return rng.random() < 0.5
    if kind is int:
        return _draw_int(rng, meta["low"] if meta["low"] is not None else 0, meta["high"])
    if field.name == "wild_card":
        return "none" if rng.random() < 0.5 else rng.choice(FIGURES)
    if field.name == "bet_ladder":
        return tuple(sorted(rng.sample(range(1, LADDER_VALUES + 1), rng.randint(1, 4))))
    raise AssertionError(f"the fuzz cannot draw switch {field.name!r} ({kind.__name__}): "
                         f"teach draw_switch its allowed values")


_FIELDS = {f.name: f for f in dataclasses.fields(Rules)}
_NAMED = re.compile(r"\b(\w+)=")


def random_rules(rng: random.Random) -> tuple[Rules | None, int]:
    """Every switch drawn at random: a valid ``Rules`` (or None) and the combinations rejected.

    After a ``RulesError`` the switches its message names are drawn again, the others kept.
    """
    values = {name: draw_switch(f, rng) for name, f in _FIELDS.items()}
    for rejected in range(REDRAWS):
        try:
            return Rules(**values), rejected
        except RulesError as exc:
            named = [name for name in _NAMED.findall(str(exc)) if name in _FIELDS]
            if not named:
                raise AssertionError(f"a RulesError that names no switch: {exc}") from None
            for name in named:
                values[name] = draw_switch(_FIELDS[name], rng)
    return None, REDRAWS


def fuzz(combos: int, seed: int) -> dict[str, int]:
    """Play one random episode for each of ``combos`` valid rule combinations.

    Returns counts: combinations played and rejected, hands, steps, seats and
    decks seen at most.
    """
    rng = random.Random(seed)
    stats = {"combos": 0, "rejected": 0, "hands": 0, "steps": 0, "max_seats": 0,
             "max_decks": 0}
    while stats["combos"] < combos:
        rules, rejected = random_rules(rng)
        stats["rejected"] += rejected
        if rules is None:
            continue
        seats = rng.randint(2, rules.max_seats)
        chips = None
        if rng.random() < 0.5:
            high = 4 * (rules.smallest_stake + rules.jackpot_ante) * seats
            chips = [rng.randint(0, high) for _ in range(seats)]
        episode_seed = rng.randrange(2**31)
        max_hands = rng.randint(1, MAX_HANDS)
        try:
            played = run_episode(rules, seats, episode_seed, chips=chips, max_hands=max_hands)
        except Exception as exc:
            raise AssertionError(
                f"combination {stats['combos']}: {seats} seats, seed {episode_seed}, "
                f"chips {chips}, max_hands {max_hands}, rules {rules.to_dict()}") from exc
        stats["combos"] += 1
        stats["hands"] += played["hands"]
        stats["steps"] += played["steps"]
        stats["max_seats"] = max(stats["max_seats"], seats)
        stats["max_decks"] = max(stats["max_decks"], rules.decks)
    return stats


def test_random_rule_combinations_never_dead_end_and_conserve_chips():
    """RULES.md §8.9 and the invariants of tests/test_invariants.py over CI_COMBOS valid
    combinations; the sample really reaches large tables, extra decks and many hands."""
    began = time.perf_counter()
    stats = fuzz(CI_COMBOS, CI_SEED)
    elapsed = time.perf_counter() - began
    assert stats["combos"] == CI_COMBOS and stats["rejected"] > 0
    assert stats["max_seats"] > 8 and stats["max_decks"] > 1
    assert stats["hands"] > 2 * CI_COMBOS, stats
    print(f"fuzz: {stats} in {elapsed:.1f} s")


def test_every_switch_is_drawn_over_its_allowed_values():
    """The fuzz covers each switch: every choice and both booleans come up, integers
    reach their bounds' neighbourhood, and a switch it cannot draw is an error."""
    rng = random.Random(0)
    for field in dataclasses.fields(Rules):
        drawn = {draw_switch(field, rng) for _ in range(400)}
        if field.metadata.get("choices"):
            assert drawn == set(field.metadata["choices"]), field.name
        elif type(field.default) is bool:
            assert drawn == {False, True}, field.name
        elif type(field.default) is int:
            low, high = field.metadata["low"] or 0, field.metadata["high"]
            assert min(drawn) <= low + 1, field.name
            assert max(drawn) >= (high if high is not None else UNBOUNDED // 4), field.name
        else:
            assert len(drawn) > 3, field.name
    bogus = dataclasses.field(default=1.5, metadata={"choices": None, "low": None,
                                                      "high": None})
    bogus.name = "new_float_switch"
    try:
        draw_switch(bogus, rng)
    except AssertionError as exc:
        assert "new_float_switch" in str(exc)
    else:
        raise AssertionError("an unknown kind of switch was drawn silently")
