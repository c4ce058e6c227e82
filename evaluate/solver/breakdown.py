"""Where a bank gives chips away: its exact gap to the best response, view by view.

A bank decides behind the *view* of the player's finished hand (RULES.md
§4.6: the face-up cards, how many are face down, stood or declared, the
stake; with perfect recall, §8.10, the public history of the hand too).
Against a fixed player policy the views split the hand's EV into a sum:
the chips the player wins from its busts, plus, for each view, what the
player wins behind it. The best response
(:func:`~evaluate.solver.values.bank_best_response`) answers each view on its
own, so a bank policy's gap to it is the sum over views of what the policy
loses behind each one. :func:`bank_gain_by_view` gives those terms, the
largest first (``sette solve best-response --role bank --by-view N``
prints them): a learned bank's gap is often a few views where it misreads
what the player holds.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from envs.hands import DECLARED
from evaluate.solver.game import HeadsUpGame, View
from evaluate.solver.policies import SolverPolicy
from evaluate.solver.values import BankOutcomes, _payoffs, game_for, player_forward


@dataclass(frozen=True)
class ViewGain:
    """What a best-responding bank gains over a bank policy behind one view.

    ``reach`` is the chance that the player's policy shows ``view``. ``ev``
    and ``best`` are the chips the player wins behind it, weighted by that
    chance (units of ``min_bet`` per hand), against the bank policy and
    against the best response. Their difference is this view's share of the
    bank's gap (≥ 0).
    """

    view: View
    reach: float
    ev: float
    best: float

    @property
    def gain(self) -> float:
        """What the best response saves the bank behind this view, per hand (≥ 0)."""
        return self.ev - self.best

    def describe(self, game: HeadsUpGame) -> str:
        """The view in words: ``"C up, 1 down, stood, stake 1"``, then its history if the
        view keeps one (``": bet 1, hit C"``)."""
        status = "declared" if self.view.status == DECLARED else "stood"
        words = (f"{game.describe(self.view.up)} up, {self.view.hidden} down, {status}, "
                 f"stake {self.view.stake}")
        if self.view.hist is not None:
            words += ": " + ", ".join(game.describe_history(self.view.hist))
        return words


def bank_gain_by_view(game: HeadsUpGame, player: SolverPolicy, bank: SolverPolicy,
                      best: Mapping[View, float]) -> tuple[HeadsUpGame, list[ViewGain]]:
    """Every view ``player`` shows, with what ``bank`` loses behind it to the best
    response, the largest loss first; and the game whose views they are.

    ``best`` is the best response's value behind each view of ``game``
    (``best_response(rules, "bank", player, by_view=best)``; ``game`` is its
    ``game``). The bank is valued in the smallest twin of ``game`` that plays
    both policies exactly (:func:`~evaluate.solver.values.game_for`: a bank on
    the observation, which keeps no order of play, in the forgetful game), and
    the best response's views are summed into that twin's views, so each row
    compares the same hands. The rows add up to the bank's gap
    (:attr:`~evaluate.solver.values.BestResponse.gain` with ``baseline=bank``).
    """
    twin = game_for(game, player, bank)
    forward = player_forward(twin, player)
    ends = list(forward.ends)
    weights = np.array([forward.ends[e] for e in ends])
    outcomes = BankOutcomes(twin, bank).compute(ends)
    dists = np.array([outcomes[e] for e in ends]).reshape(len(ends), -1)
    chips = weights * (_payoffs(twin, ends) * dists).sum(axis=1)
    ev: dict[View, float] = {}
    reach: dict[View, float] = {}
    for (view, _hand), w, c in zip(ends, weights, chips):
        ev[view] = ev.get(view, 0.0) + float(c)
        reach[view] = reach.get(view, 0.0) + float(w)
    best_of: dict[View, float] = {}
    for view, value in best.items():
        key = twin.project_view(view)
        best_of[key] = best_of.get(key, 0.0) + value
    unmatched = set(best_of) - set(ev)
    if unmatched:
        raise ValueError(f"bank_gain_by_view: {len(unmatched)} views of the best response are "
                         f"not shown by the player's policy; give the best response to this "
                         f"player in this game")
    rows = [ViewGain(view, reach[view], ev[view], best_of.get(view, 0.0)) for view in ev]
    return twin, sorted(rows, key=lambda row: -row.gain)


def gain_rows(game: HeadsUpGame, rows: list[ViewGain]) -> list[dict[str, Any]]:
    """Rows as plain data (``sette solve --json``)."""
    return [{"view": row.describe(game), "reach": row.reach, "ev": row.ev, "best": row.best,
             "gain": row.gain} for row in rows]
