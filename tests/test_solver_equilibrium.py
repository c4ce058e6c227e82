"""The heads-up equilibrium (evaluate.solver.lp): the view-decomposed LP against the full one.

* on small shoes the cutting planes (``method="cuts"``, the default) reach
  the value of the full sequence-form LP, and their strategies survive the
  exact best-response code (NashConv ~ 0), also where coverage binds, with
  declared hands the bank must chase, and with raises;
* free stakes are the default (library and ``sette solve equilibrium``) and
  never worth less to the player than the fixed smallest bet;
* the bank's equilibrium mixes pure strategies where it has to.
"""

from __future__ import annotations

import inspect
import json

import pytest

from envs.rules import Rules
from evaluate.solver import equilibrium, evaluate_policies, exploitability_of, make_game
from evaluate.solver.game import SolverError
from evaluate.solver.lp import solve_equilibrium
from train.cli import main

SPANISH = Rules.preset("spanish")
CASES = {
    "pagat": (Rules.preset("pagat"), "2,1,1,1,1,1,2,2,2,1"),
    "catalan0": (Rules.preset("catalan").replace(jackpot_ante=0), "2,1,1,1,1,1,2,2,2,1"),
    "spanish": (SPANISH, "1,1,1,0,1,0,1,1,1,0"),
    # the bank holds 30 chips: a 2x seven-and-a-half on a stake of 2 or 3 is capped
    "spanish_poor_bank": (SPANISH.replace(starting_chips=30, max_bet=30, bet_ladder=(1, 2, 3)),
                          "1,1,1,0,1,0,1,1,1,0"),
    "spanish_declared_chased": (SPANISH.replace(declare_seven_and_half=True,
                                                bank_must_chase_declared=True),
                                "1,1,1,0,1,0,1,1,1,0"),
}


@pytest.mark.parametrize("case", list(CASES))
@pytest.mark.parametrize("stakes", ["free", "fixed"])
def test_cuts_reach_the_full_lp_value_and_are_unexploitable(case: str, stakes: str) -> None:
    rules, shoe = CASES[case]
    cuts = equilibrium(rules, composition=shoe, stakes=stakes, recall="forgetful")
    full = equilibrium(rules, composition=shoe, stakes=stakes, method="full", recall="forgetful")
    assert cuts.method == "cuts" and full.method == "full"
    assert cuts.value == pytest.approx(full.value, abs=1e-8)
    assert -1e-12 <= cuts.gap <= 1e-9
    # the best-response code agrees: neither role gains by deviating
    assert abs(cuts.check.total) < 1e-8
    assert cuts.check.player_gain > -1e-9 and cuts.check.bank_gain > -1e-9
    assert cuts.check.ev == pytest.approx(cuts.value, abs=1e-8)
    assert cuts.size["player_sequences"] == full.size["player_sequences"]


def test_coverage_binds_in_the_poor_bank_case() -> None:
    rules, shoe = CASES["spanish_poor_bank"]
    game = make_game(rules, shoe, recall="forgetful")
    natural = game.ms.index[(0, 0, 0, 0, 0, 0, 1, 1)]
    assert game.payoff_row(natural, 3)[-1] == pytest.approx(3.0)  # 2 x 3 capped at 30 chips


def test_free_stakes_are_the_default_and_worth_at_least_the_fixed_bet() -> None:
    assert inspect.signature(equilibrium).parameters["stakes"].default == "free"
    assert inspect.signature(equilibrium).parameters["method"].default == "cuts"
    rules, shoe = CASES["spanish"]
    free = equilibrium(rules, composition=shoe, recall="forgetful")
    fixed = equilibrium(rules, composition=shoe, stakes="fixed", recall="forgetful")
    assert free.game.stakes == "free" and fixed.game.stakes == "fixed"
    # betting after the first card and raising is worth a lot to the player
    assert free.value > fixed.value + 0.05
    # the returned pair plays to the value
    assert evaluate_policies(free.game, free.player, free.bank).ev == pytest.approx(free.value,
                                                                                    abs=1e-8)


def test_the_bank_mixes_where_it_must() -> None:
    rules, shoe = CASES["spanish"]
    eq = equilibrium(rules, composition=shoe, recall="forgetful")
    ev = evaluate_policies(eq.game, eq.player, eq.bank, record=True)
    mixed = [key for key, reach in ev.bank_reach.items()
             if reach > 1e-6 and len(eq.bank.bank_table[key]) > 1]
    assert mixed, "a bank that never mixes would be exploitable here"
    # and the mixture holds the player to the value
    x = exploitability_of(eq.game, eq.player, eq.bank)
    assert x.bank_best == pytest.approx(eq.value, abs=1e-8)


def test_unknown_method_is_refused() -> None:
    with pytest.raises(SolverError, match="method"):
        solve_equilibrium(make_game("pagat", "2,1,1,1,1,1,2,2,2,1", recall="forgetful"), "simplex")


def test_cli_equilibrium_defaults_to_free_stakes(capsys: pytest.CaptureFixture[str]) -> None:
    rules, shoe = CASES["spanish"]
    assert main(["solve", "equilibrium", "--recall", "forgetful", "--preset", "spanish", "--shoe", shoe, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["stakes"].startswith("free")
    assert data["method"] == "cuts"
    assert data["value"] == pytest.approx(equilibrium(rules, composition=shoe, recall="forgetful").value, abs=1e-9)
    assert main(["solve", "equilibrium", "--recall", "forgetful", "--preset", "spanish", "--shoe", shoe,
                 "--stakes", "fixed", "--method", "full"]) == 0
    out = capsys.readouterr().out
    assert "fixed: bet_1" in out and "(full)" in out


def test_cold_linprog_rounds_give_the_same_equilibrium(monkeypatch: pytest.MonkeyPatch) -> None:
    rules, shoe = CASES["spanish_poor_bank"]
    warm = equilibrium(rules, composition=shoe, recall="forgetful")
    monkeypatch.setattr("evaluate.solver.lp._highs_model", lambda *args: None)
    cold = equilibrium(rules, composition=shoe, recall="forgetful")
    assert cold.value == pytest.approx(warm.value, abs=1e-9)
    assert abs(cold.check.total) < 1e-8
