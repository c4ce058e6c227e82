"""The perfect-recall hand solved by public state (evaluate/solver/public.py, RULES.md §8.10).

On reduced shoes the whole perfect-recall tree can be written down, so the
public-state solver's value is held to that tree's LP, and its lower bound
to the bank's exact best response computed by the tree-walking code of
:mod:`evaluate.solver.values` against the solver's own player strategy.
"""

from __future__ import annotations

import json

import pytest

from envs.rules import Rules
from evaluate.solver import values
from evaluate.solver.game import SolverError
from evaluate.solver.lp import solve_equilibrium
from evaluate.solver.public import (GAP, PublicPlayer, PublicSolver,
                                    perfect_recall_equilibrium)
from train.cli import main

TWO_BETS = Rules.preset("spanish").replace(bet_ladder=(1, 2), max_bet=20)
"""``spanish`` (bets after the first card, raises, reveal_hit) with a two-step ladder."""
FIVE_CARDS = "1,1,0,1,0,1,1,0,0,0"
"""Ranks 1, 2, 4, 6, 7: a forgetful equilibrium here loses 0.2 a hand to a bank that remembers."""
SEVEN_CARDS = "1,1,1,1,0,1,1,1,0,0"


def test_the_value_is_the_whole_perfect_recall_trees() -> None:
    game = values.make_game(TWO_BETS, FIVE_CARDS)
    whole = solve_equilibrium(game, "cuts")  # the LP of every history, written down
    sol = perfect_recall_equilibrium(game)
    assert sol.certified and sol.gap <= GAP
    assert sol.lower == pytest.approx(whole.value, abs=1e-12)
    assert sol.upper == pytest.approx(whole.value, abs=1e-12)
    for done in sol.passes:  # every pass proves bounds, however far apart
        assert done.lower <= whole.value + 1e-12 <= done.upper + 2e-12


@pytest.mark.parametrize("rules", ["pagat", "spanish"])
def test_bets_before_the_deal_and_fixed_stakes_agree_with_the_refinement(rules: str) -> None:
    shoe, stakes = ("1,1,1,1,1,1,2,1,1,1", "free") if rules == "pagat" else (SEVEN_CARDS, "fixed")
    refined = values.equilibrium(rules, composition=shoe, stakes=stakes)
    sol = perfect_recall_equilibrium(values.make_game(rules, shoe, stakes=stakes))
    assert refined.certified and sol.certified
    assert sol.lower == pytest.approx(refined.value, abs=1e-9)


def test_the_lower_bound_is_the_banks_exact_best_response_to_the_players_strategy() -> None:
    game = values.make_game(TWO_BETS, SEVEN_CARDS)
    solver = PublicSolver(game)
    sol = solver.solve()
    taken, _strategy = values.bank_best_response(game, PublicPlayer(solver))
    assert taken == pytest.approx(sol.lower, abs=1e-12)
    assert sol.upper - taken <= GAP  # nothing left for a perfect-recall bank to take


def test_a_time_limit_stops_with_honest_bounds() -> None:
    game = values.make_game(TWO_BETS, SEVEN_CARDS)
    value = perfect_recall_equilibrium(game).lower
    early = perfect_recall_equilibrium(game, time_limit=0)
    assert len(early.passes) == 1 and not early.certified
    assert early.lower <= value <= early.upper


def test_a_hand_with_a_jackpot_is_refused_with_the_way_out() -> None:
    with pytest.raises(SolverError, match="--method cuts"):
        perfect_recall_equilibrium(values.make_game("catalan", "1,1,1,1,1,1,2,1,1,1"))
    with pytest.raises(SolverError, match="perfect-recall game"):
        PublicSolver(values.make_game("pagat", recall="forgetful"))


def test_the_cli_prints_the_value_and_its_certificate(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["solve", "equilibrium", "--method", "public", "--preset", "spanish",
            "--set", "bet_ladder=[1, 2]", "--set", "max_bet=20", "--shoe", FIVE_CARDS]
    assert main(argv + ["--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["certified"] and data["recall"] == "perfect" and data["passes"]
    assert data["lower"] == pytest.approx(-1 / 15, abs=1e-12)
    assert data["upper"] - data["lower"] <= GAP
    assert main(argv) == 0
    assert "certified: NashConv at most" in capsys.readouterr().out
    assert main(argv + ["--recall", "forgetful"]) == 2
    assert "drop --recall forgetful" in capsys.readouterr().err
    default = [word for word in argv if word not in ("--method", "public")]
    assert main(default + ["--json"]) == 0  # bets after the first card, raises: by public state
    assert json.loads(capsys.readouterr().out)["method"] == "public"
    assert main(default + ["--json", "--stakes", "fixed"]) == 0  # a fixed stake: refined
    assert json.loads(capsys.readouterr().out)["method"] == "cuts"
