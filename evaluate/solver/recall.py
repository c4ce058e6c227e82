"""The equilibrium of the perfect-recall hand, by refining what the bank remembers.

RULES.md §8.10: at its turn the bank remembers the player's whole public
history — the stake placed after the first card, when each raise came, the
order the face-up cards arrived in, each reveal. In the perfect-recall game
(:class:`~evaluate.solver.game.HeadsUpGame` with ``recall="perfect"``) every
such history is its own information set, for both seats. With bets after
the first card and raises (``spanish``) that tree has about 10^8 public
histories per stake: far too many to write down, and almost all of them are
never played by either side of an equilibrium.

Partial-recall games
--------------------
A *memory* ``M`` is a prefix-closed set of public histories. In the game
``G_M`` (``HeadsUpGame(..., memory=M)``) a history in ``M`` is kept; below
the first one that is not, play is merged by its summary (the cards as a
multiset, the stake, the raise flag): the player decides by its state and
the bank, at a finished hand outside ``M``, sees only its view — the
forgetful bank there. ``G_∅`` is the forgetful game of
:mod:`evaluate.solver.lp`; the game with every history kept is the
perfect-recall game. ``G_M`` is a finite zero-sum game with chance, solved
exactly by :func:`evaluate.solver.lp.solve_equilibrium` (the view-decomposed
LP; its views are the remembered histories and the merged summaries).

Bounds, exact at every round
----------------------------
Let ``(x, y)`` be an equilibrium of ``G_M`` with value ``v_M``, and read
both strategies in the perfect-recall game (the player acts by the history
where ``M`` keeps it and by its state below; so does the bank).

* *Upper bound.* Below ``M`` the bank's ``y`` ignores the order of play, so
  the player's best response to ``y`` in the perfect-recall game is its best
  response in ``G_M`` (telling merged histories apart gains nothing against
  a bank that does not): ``max_x' u(x', y) = v_M`` (the LP's value).
* *Lower bound.* The bank's best response to ``x`` in the perfect-recall
  game answers each history the player's ``x`` reaches on its own
  (:func:`evaluate.solver.values.bank_best_response` on the whole tree,
  visiting only what ``x`` plays): ``min_y' u(x, y') = lb``.

So ``lb ≤ v* ≤ v_M`` for the perfect-recall value ``v*``, and ``v_M - lb``
is the NashConv of ``(x, y)`` in the perfect-recall game: both best
responses are exact there. Nothing is sampled or truncated.

Refining
--------
The gap is the bank's gain from telling apart histories that ``G_M``
merges: for a merged view ``V`` that ``x`` reaches along histories
``P_1..P_k``, its best response to the pooled posterior against the sum of
its best responses to each ``P_i``. Every merged view with a gain joins
the memory (each of its histories and their prefixes) and ``G_M`` is solved
again. Each round only adds histories, so the games grow towards the
perfect-recall game and the loop ends — at the latest when ``x``'s
histories are all remembered; in practice after a few rounds, once the
gap is below :data:`GAP` per hand. The strategies returned are those of
the last ``G_M``, certified in the perfect-recall game by the caller
(:func:`evaluate.solver.values.equilibrium`).

With bets after the first card and raises (``spanish``) the rounds grow too
large to close in minutes; :mod:`evaluate.solver.public` solves that hand by
public state instead (``sette solve equilibrium --method public``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from evaluate.solver.game import HeadsUpGame, SolverError, View
from evaluate.solver.lp import LPSolution, solve_equilibrium

GAP = 1e-9
"""Stop once the perfect-recall NashConv of the partial-recall equilibrium is below this
(units per hand)."""
_GAIN = 1e-13
"""A merged view whose bank gains less than this (units per hand) from telling its
histories apart stays merged."""
MAX_ROUNDS = 50


@dataclass
class RefinementRound:
    """One partial-recall game solved and measured in the perfect-recall game."""

    remembered: int
    """Public histories the game keeps."""
    upper: float
    """Its value ``v_M``: an upper bound on the perfect-recall value."""
    lower: float
    """The perfect-recall bank's best response to its player strategy: a lower bound."""
    views: int
    """Bank views (remembered histories and merged summaries) the LP solved."""
    seconds: float


@dataclass
class RecallSolution:
    """The last partial-recall equilibrium and how the refinement got there."""

    solution: LPSolution
    memory: frozenset[tuple]
    rounds: list[RefinementRound] = field(default_factory=list)

    @property
    def gap(self) -> float:
        last = self.rounds[-1]
        return last.upper - last.lower


def solve_perfect_recall(game: HeadsUpGame, progress: Callable[[str], None] | None = None,
                         time_limit: float | None = None) -> RecallSolution:
    """The perfect-recall equilibrium of ``game`` (``recall="perfect"``) by refinement.

    ``time_limit`` (seconds): no new round starts unless twice the last
    round's time still fits in it; the last round's strategies then come
    back with their exact bounds (``gap`` > :data:`GAP`: an approximate
    equilibrium whose NashConv is that gap).
    """
    from evaluate.solver.values import player_forward, view_response

    if game.recall != "perfect" or game.memory is not None:
        raise SolverError("solve_perfect_recall needs the whole perfect-recall game "
                          "(recall='perfect', no memory)")
    say = progress or (lambda _message: None)
    memory: frozenset[tuple] = frozenset()
    rounds: list[RefinementRound] = []
    began = time.perf_counter()
    while True:
        start = time.perf_counter()
        partial = game.twin("perfect", memory)
        sol = solve_equilibrium(partial, "cuts")
        forward = player_forward(game, sol.player)
        by_view: dict[View, dict[int, float]] = {}
        for (view, hand), w in forward.ends.items():
            into = by_view.setdefault(view, {})
            into[hand] = into.get(hand, 0.0) + w
        merged: dict[View, list[View]] = {}
        lower = forward.bust_payoff
        own: dict[View, float] = {}
        for view, hands in by_view.items():
            own[view] = view_response(game, view, list(hands.items()))
            lower += own[view]
            summary = partial.project_view(view)
            if summary.hist is None:
                merged.setdefault(summary, []).append(view)
        fresh: set[tuple] = set()
        for summary, views in merged.items():
            if len(views) < 2:
                continue
            pooled: dict[int, float] = {}
            for view in views:
                for hand, w in by_view[view].items():
                    pooled[hand] = pooled.get(hand, 0.0) + w
            gain = view_response(game, summary, list(pooled.items())) - sum(
                own[v] for v in views)
            if gain > _GAIN:
                for view in views:
                    hist = view.hist or ()
                    fresh.update(hist[:i] for i in range(1, len(hist) + 1))
        rounds.append(RefinementRound(len(memory), sol.value, lower,
                                      sol.size.get("views", 0), time.perf_counter() - start))
        say(f"round {len(rounds)}: {len(memory):,} histories remembered, "
            f"{rounds[-1].views:,} bank views; value between {lower:+.9f} and "
            f"{sol.value:+.9f} ({rounds[-1].seconds:.0f} s)")
        grown = memory | fresh
        # A round costs more than the one before (its game is larger): start one only if
        # twice the last round's time still fits.
        out_of_time = (time_limit is not None and time.perf_counter() - began
                       + 2 * rounds[-1].seconds > time_limit)
        if sol.value - lower <= GAP or grown == memory or out_of_time:
            if out_of_time and sol.value - lower > GAP:
                say(f"stopping before the time limit ({time_limit:g} s): the strategies are "
                    f"within {sol.value - lower:.2e} per hand of an equilibrium")
            return RecallSolution(sol, memory, rounds)
        if len(rounds) >= MAX_ROUNDS:
            raise SolverError(f"the perfect-recall refinement did not close the gap in "
                              f"{len(rounds)} rounds (value between {lower:+.10f} and "
                              f"{sol.value:+.10f})")
        memory = grown
