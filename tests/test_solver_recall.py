"""The perfect-recall hand (RULES.md §8.10): the bank remembers the player's public history.

Reduced shoes keep every game small enough to write down whole, so the
refinement of :mod:`evaluate.solver.recall` is held to the LP of the whole
perfect-recall tree, and the forgetful-bank model to what a bank that
remembers takes from it.
"""

from __future__ import annotations

import json

import pytest

from envs.rules import Rules
from evaluate.solver import game as game_module
from evaluate.solver import values
from evaluate.solver.game import DECLARED, STOOD, HeadsUpGame, SolverError
from evaluate.solver.lp import solve_equilibrium
from evaluate.solver.policies import StrategyAgent
from train.cli import main

TWO_BETS = Rules.preset("spanish").replace(bet_ladder=(1, 2), max_bet=20)
"""``spanish`` (bets after the first card, raises, reveal_hit) with a two-step ladder."""
CASES = {
    "pagat": ("pagat", "1,1,1,1,1,1,2,1,1,1"),
    "catalan": ("catalan", "1,1,1,1,1,1,2,1,1,1"),
    "spanish": (TWO_BETS, "1,1,1,1,0,1,1,1,0,0"),
}
FIVE_CARDS = "1,1,0,1,0,1,1,0,0,0"
"""Ranks 1, 2, 4, 6, 7: ``TWO_BETS`` from this shoe has a forgetful equilibrium a bank that
remembers beats by exactly 0.2 units per hand (tests/test_openspiel_game.py agrees)."""


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_refined_equilibrium_is_the_whole_trees_and_is_certified(case: str) -> None:
    rules, shoe = CASES[case]
    eq = values.equilibrium(rules, composition=shoe)
    whole = solve_equilibrium(values.make_game(rules, shoe), "cuts")
    assert eq.recall == "perfect" and eq.game.memory is None
    assert eq.value == pytest.approx(whole.value - eq.game.ante, abs=1e-9)
    assert eq.certified and abs(eq.check.total) <= 1e-9
    assert eq.rounds[-1].upper - eq.rounds[-1].lower <= 1e-9


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_bank_that_remembers_never_does_worse(case: str) -> None:
    rules, shoe = CASES[case]
    remembers = values.equilibrium(rules, composition=shoe).value
    forgets = values.equilibrium(rules, composition=shoe, recall="forgetful").value
    assert remembers <= forgets + 1e-9


def test_order_and_timing_tell_a_remembering_bank_what_the_forgetful_one_misses() -> None:
    forgetful = values.equilibrium(TWO_BETS, composition=FIVE_CARDS, recall="forgetful")
    assert forgetful.certified  # an equilibrium of the game it solves ...
    x = values.exploitability(TWO_BETS, forgetful.player, forgetful.bank, FIVE_CARDS)
    assert x.player_gain == pytest.approx(0.0, abs=1e-12)
    assert x.bank_gain == pytest.approx(0.2, abs=1e-12)  # ... not of the real one
    real = values.equilibrium(TWO_BETS, composition=FIVE_CARDS)
    assert real.certified  # the refinement's strategies are: nothing left to take
    assert len(real.rounds) > 1 and real.size["remembered_histories"] > 0


def test_the_bounds_of_a_round_are_the_nashconv_of_its_strategies() -> None:
    eq = values.equilibrium(TWO_BETS, composition=FIVE_CARDS, time_limit=0)
    assert len(eq.rounds) == 1  # stopped after one round: the forgetful model's strategies
    first = eq.rounds[0]
    assert first.upper - first.lower == pytest.approx(0.2, abs=1e-9)
    assert eq.check.total == pytest.approx(first.upper - first.lower, abs=1e-9)
    assert not eq.certified


def test_against_policies_that_ignore_the_order_recall_changes_only_the_bank() -> None:
    rules, shoe = CASES["spanish"]
    perfect = values.exploitability(rules, "threshold:5", "threshold:5.5", shoe)
    forgetful = values.exploitability(rules, "threshold:5", "threshold:5.5", shoe,
                                      recall="forgetful")
    assert perfect.ev == pytest.approx(forgetful.ev, abs=1e-12)
    assert perfect.player_gain == pytest.approx(forgetful.player_gain, abs=1e-12)
    assert perfect.bank_gain >= forgetful.bank_gain - 1e-12


def test_a_best_responding_bank_conditions_on_the_history() -> None:
    rules, shoe = CASES["pagat"]
    br = values.best_response(rules, "bank", "threshold:5", shoe)
    assert br.game.recall == "perfect"
    views = {view for view, _b in br.strategy.bank_table}
    assert views and all(view.hist is not None for view in views)
    old = values.best_response(rules, "bank", "threshold:5", shoe, recall="forgetful")
    assert br.value <= old.value + 1e-12  # the remembering bank takes at least as much


def test_nodes_and_views_are_rebuilt_from_their_public_events() -> None:
    g = HeadsUpGame(TWO_BETS, CASES["spanish"][1], merge_figures=False)
    nodes = g.all_player_nodes()
    assert len(nodes) > 1000
    for node in nodes[::7]:
        assert g.player_node(node[1], node[5]) == node
        for a, outs in g.player_actions(node):
            for o in outs:
                if isinstance(o, values.ToBank):
                    status = o.view.status
                    assert status in (STOOD, DECLARED)
                    hidden = node[1] if status == STOOD else node[1]
                    if status == STOOD:
                        assert g.bank_view(hidden, node[5]) == o.view


def test_a_history_the_rules_do_not_allow_is_refused_by_name() -> None:
    g = HeadsUpGame("pagat", CASES["pagat"][1], merge_figures=False)
    with pytest.raises(SolverError, match="not legal"):
        g.player_node(0, [("bet", 1), ("raise", 1)])  # pagat has no raises


def test_a_tree_too_large_for_an_exact_answer_is_refused_with_the_way_out(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(game_module, "MAX_NODES", 500)
    monkeypatch.setattr(values, "MAX_NODES", 500)
    with pytest.raises(SolverError, match="out of reach.*recall='forgetful'"):
        values.exploitability("spanish", "random", "threshold:5")


def test_a_bad_recall_is_refused_naming_the_choices() -> None:
    with pytest.raises(SolverError, match="'perfect', 'forgetful'"):
        HeadsUpGame("pagat", recall="partial")
    with pytest.raises(SolverError, match="forgetful game only"):
        values.equilibrium("pagat", CASES["pagat"][1], method="full")


def test_strategy_agents_play_forgetful_strategies_only() -> None:
    with pytest.raises(SolverError, match="recall='forgetful'"):
        StrategyAgent(HeadsUpGame("pagat"))


def test_the_cli_says_which_game_it_solved(capsys: pytest.CaptureFixture[str]) -> None:
    shoe = CASES["pagat"][1]
    assert main(["solve", "equilibrium", "--preset", "pagat", "--shoe", shoe, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["recall"] == "perfect" and data["certified"]
    assert data["refinement"] and data["lp"]["remembered_histories"] >= 0
    assert main(["solve", "best-response", "--preset", "pagat", "--shoe", shoe, "--role",
                 "bank", "--player", "threshold:5", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert all(entry["history"][0].startswith("bet ") for entry in data["strategy"])
    assert main(["solve", "exploitability", "--preset", "pagat", "--shoe", shoe,
                 "--recall", "forgetful"]) == 0
    assert "forgetful-bank model" in capsys.readouterr().out
