"""Exact heads-up numbers for reports, from the solver where it applies.

The solver values one hand between one player and the bank from a full
shoe, with no sampling, in the game with perfect recall (RULES.md §8.10:
a best-responding bank remembers the order and timing of the player's
play; an agent on the information state is asked at every history,
:mod:`evaluate.solver.observed`). It refuses rules it does not model (the
matta, house rules…), policies it cannot query and best responses out of
its reach; every such refusal comes out of this module as
:class:`ExactUnavailable` with the solver's reason, so a report can print
the reason and skip that number or plot.
"""

from __future__ import annotations

from collections.abc import Sequence
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


BANK_VIEW_BUDGET = 200_000
"""The most views of the player's play behind which an agent that remembers the order of
play is asked as the bank, for one EV. Each view costs an engine replay and a batch of its
bank hands a level at a time (:mod:`evaluate.solver.bank_batch`), a few milliseconds; the
default run's ``careful`` shows about 12,000 on a full shoe."""


def best_response_row(rules: Rules | str, role: str, label: str, policy: Any,
                      opponent_label: str, opponent: Any, recall: str = "perfect"
                      ) -> BestResponseRow:
    """The exact EV of ``policy`` in ``role`` against ``opponent`` and of the best response.

    The best response chooses its stakes too, as the rules let the policy
    (``stakes="free"``), so it is the best any policy in that seat can do;
    ``recall`` is the game's (``"perfect"``, RULES.md §8.10, or the smaller
    ``"forgetful"`` one, in which the bank sees only the finished hand).
    """
    [row] = best_response_rows(rules, role, [(label, policy)], opponent_label, opponent,
                               recall)
    if isinstance(row, ExactUnavailable):
        raise row
    return row


def best_response_rows(rules: Rules | str, role: str, policies: Sequence[tuple[str, Any]],
                       opponent_label: str, opponent: Any, recall: str = "perfect"
                       ) -> list[BestResponseRow | ExactUnavailable]:
    """Each ``(label, policy)`` in ``role`` against ``opponent``, next to the exact best
    response to ``opponent`` (solved once, as in :func:`best_response_row`).

    A policy the solver cannot value comes back as the :class:`ExactUnavailable`
    saying why; one that cannot be had for any (the best response itself)
    raises it. A bank that remembers the order of play (an agent on the
    information state) is asked behind every history of the opponent's play
    (each view's bank hands in batches); beyond :data:`BANK_VIEW_BUDGET`
    views it is out of reach and says so, with the count, before asking anything.
    """
    if role not in ("player", "bank"):
        raise ValueError(f"role {role!r} is not one of player, bank")
    solver = _solver()
    resolved = Rules.resolve(rules)
    rival = _call(f"the {role}'s opponent {opponent_label}", solver.as_policy, opponent,
                  resolved)
    br = _call(f"best response of the {role} to {opponent_label}", solver.best_response,
               rules, role, rival, stakes="free", recall=recall)
    rules_name = rules if isinstance(rules, str) else "custom rules"
    out: list[BestResponseRow | ExactUnavailable] = []
    for label, policy in policies:
        try:
            mine = _call(f"{label}", solver.as_policy, policy, resolved)
            if role == "bank" and not mine.forgets and recall == "perfect":
                _check_bank_queries(solver, rules, rival, mine, opponent_label)
            pair = (mine, rival) if role == "player" else (rival, mine)
            result = _call(f"the EV of {label}", solver.evaluate, rules, *pair, recall=recall)
        except ExactUnavailable as exc:
            out.append(exc)
            continue
        ev = result.ev if role == "player" else result.chips_ev
        out.append(BestResponseRow(rules_name, role, label, opponent_label, float(ev),
                                   float(br.value)))
    return out


def _check_bank_queries(solver: Any, rules: Rules | str, player: Any, bank: Any,
                        player_label: str) -> None:
    """Refuse a bank that remembers the order of play behind more than
    :data:`BANK_VIEW_BUDGET` views of the player's play (see :func:`best_response_rows`)."""
    # The histories counted with figures merged where the player allows (fewer, and fast).
    played = _call("the game", solver.make_game, rules, None, (player,))
    ends = _call(f"the play of {player_label}", solver.player_forward, played, player).ends
    histories = len({view for view, _hand in ends})
    if histories > BANK_VIEW_BUDGET:
        raise ExactUnavailable(
            f"out of reach: a bank on the information state is asked behind every history "
            f"of {player_label}'s play ({histories:,} at least), more than the "
            f"{BANK_VIEW_BUDGET:,} one exact EV may replay "
            f"(evaluate.solver.exact.BANK_VIEW_BUDGET; a smaller shoe fits)")


def best_threshold(rules: Rules | str, role: str, opponent: Any, thresholds: Sequence[float]
                   ) -> str:
    """The ``threshold:T`` spec of ``thresholds`` with the highest exact EV in ``role``
    against ``opponent`` (one hand, perfect recall; the first of equals)."""
    solver = _solver()
    rival = _call(f"the {role}'s opponent", solver.as_policy, opponent, Rules.resolve(rules))
    best: tuple[float, str] | None = None
    for t in thresholds:
        spec = f"threshold:{t:g}"
        pair = (spec, rival) if role == "player" else (rival, spec)
        result = _call(f"the EV of {spec}", solver.evaluate, rules, *pair)
        own = float(result.ev if role == "player" else result.bank_ev)
        if best is None or own > best[0] + 1e-12:
            best = (own, spec)
    if best is None:
        raise ValueError("best_threshold needs at least one threshold")
    return best[1]
