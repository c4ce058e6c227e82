"""Exact heads-up numbers for reports, from the solver where it applies.

The solver values one hand between one player and the bank from a full
shoe, with no sampling. It refuses rules it does not model (the matta, house
rules…) and policies it cannot query; every such refusal comes
out of this module as :class:`ExactUnavailable` with the solver's reason, so
a report can print the reason and skip that number or plot.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from envs.rules import Rules


class ExactUnavailable(Exception):
    """The exact solver cannot give this number; the message says why."""


def _solver() -> Any:
    try:
        from evaluate.solver import values
    except ImportError as exc:  # the solver is optional for every other evaluation
        raise ExactUnavailable(f"the exact solver (evaluate.solver) is not available: "
                               f"{exc}") from None
    return values


def _call(what: str, fn: Any, *args: Any, **kwargs: Any) -> Any:
    try:
        return fn(*args, **kwargs)
    except (ValueError, NotImplementedError) as exc:  # SolverError is a ValueError
        raise ExactUnavailable(f"{what}: {exc}") from None


def exact_bank_edge(rules: Rules | str, player: Any, bank: Any) -> float:
    """The bank's exact EV per hand (units of ``min_bet``) of ``bank`` against ``player``.

    Minus the player's EV, except with a jackpot (RULES.md §4.9): the ante
    and the pot are the player's, not the bank's (the solver's pot before the
    hand is empty: it holds this hand's ante only).
    """
    solver = _solver()
    return float(_call("exact bank edge", solver.evaluate, rules, player, bank).bank_ev)


@dataclass(frozen=True)
class BestResponseRow:
    """A policy in one role against a fixed opponent, next to the exact best response.

    ``ev`` and ``best`` are seen from the player's side, with the policy and
    with the best response in its place: the player's own EV when the player
    responds, the chips the player wins from the bank when the bank responds
    (the bank's EV is minus that; with a jackpot the two differ by the
    player's ante and pot, which are not the bank's).
    """

    rules: str
    role: str
    label: str
    opponent: str
    ev: float
    best: float

    @property
    def own_ev(self) -> float:
        """The policy's EV from its own side of the table."""
        return self.ev if self.role == "player" else -self.ev

    @property
    def own_best(self) -> float:
        """The best response's EV from the same side."""
        return self.best if self.role == "player" else -self.best

    @property
    def gap(self) -> float:
        """What the best response gains over the policy per hand (≥ 0)."""
        return self.own_best - self.own_ev


def best_response_row(rules: Rules | str, role: str, label: str, policy: Any,
                      opponent_label: str, opponent: Any) -> BestResponseRow:
    """The exact EV of ``policy`` in ``role`` against ``opponent`` and of the best response.

    The best response chooses its stakes too, as the rules let the policy
    (``stakes="free"``), so it is the best any policy in that seat can do.
    """
    if role not in ("player", "bank"):
        raise ValueError(f"role {role!r} is not one of player, bank")
    solver = _solver()
    br = _call(f"best response of the {role} to {opponent_label}", solver.best_response,
               rules, role, opponent, baseline=policy, stakes="free")
    rules_name = rules if isinstance(rules, str) else "custom rules"
    return BestResponseRow(rules_name, role, label, opponent_label, float(br.baseline),
                           float(br.value))
