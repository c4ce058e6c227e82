"""The exact solver with the jackpot (RULES.md §4.9, ``catalan``): a general-sum hand.

* without an ante nothing changes (the player's EV is minus the bank's);
* hand-computed values on tiny shoes: the pot is taken by a natural, also when
  the bank busts, and kept by a bank 7½;
* exact EVs of both parties against the engine's Monte Carlo, with the
  pot of this hand's ante only, a large ante, and a pot carried in;
* best responses on each party's own payoff, the equilibrium's check on
  the real (general-sum) hand, certified or reported as not an equilibrium;
* the command line says which pot it assumed.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from agents import make_agent
from agents.base import Agent
from envs.engine import BANK, BET, PLAY, Engine
from envs.observer import Observer, observation_slices
from envs.rules import Rules
from evaluate.solver import (best_response, equilibrium, evaluate, evaluate_policies,
                             exploitability, make_game)
from evaluate.solver.game import (NUM_RESULTS, SEVEN_AND_HALF, SEVEN_MULTI, HeadsUpGame,
                                  SolverError)
from evaluate.solver.policies import AgentPolicy, EngineObservations, as_policy
from train.cli import main

CATALAN = Rules.preset("catalan")
CATALAN0 = CATALAN.replace(jackpot_ante=0)
Z99 = 2.5758
SMALL_SHOE = "1,1,1,0,1,0,1,1,1,0"


def monte_carlo(rules: Rules, player: Agent, bank: Agent, hands: int, seed: int,
                jackpot: int = 0) -> tuple[tuple[float, float], tuple[float, float]]:
    """Mean and standard error of each party's net win per hand on the real engine.

    ``jackpot`` chips are put in the pot after the reset (on top of the ante the
    engine took): the pot carried in from earlier hands.
    """
    engine = Engine(rules, 2, max_hands=1)
    observer = Observer(engine)
    player_wins, bank_wins = np.empty(hands), np.empty(hands)
    for i in range(hands):
        engine.reset(seed=seed + i, bank=1)
        engine.jackpot += jackpot
        while engine.phase in (BET, PLAY, BANK):  # settled before any bank transfer
            agent = player if engine.actor == 0 else bank
            engine.step(agent.act(observer.observe(engine.actor), engine.action_mask()))
        player_wins[i] = (engine.chips[0] - rules.starting_chips) / rules.min_bet
        bank_wins[i] = (engine.chips[1] - rules.starting_chips) / rules.min_bet
    return tuple((float(w.mean()), float(w.std(ddof=1) / math.sqrt(hands)))  # type: ignore
                 for w in (player_wins, bank_wins))


def assert_in_ci(exact: float, mc: tuple[float, float]) -> None:
    mean, se = mc
    assert abs(exact - mean) <= Z99 * se, f"exact {exact:.5f} vs Monte Carlo {mean:.5f} ± {se:.5f}"


# --------------------------------------------------------------------- no ante
def test_without_an_ante_nothing_changes() -> None:
    result = evaluate(CATALAN0, "threshold:5", "threshold:5.5", recall="forgetful")
    assert result.ev == result.chips_ev == -result.bank_ev
    assert 0.0 < result.jackpot_win < 0.05  # naturals happen; there is no pot to take
    game = make_game(CATALAN0, recall="forgetful")
    assert game.pot == game.ante == 0.0 and not game.general_sum
    natural = game.ms.index[(0, 0, 0, 0, 0, 0, 1, 1)]
    assert game.player_row(natural, 1) == game.payoff_row(natural, 1)
    x = exploitability(CATALAN0, "threshold:5", "threshold:5.5", composition=SMALL_SHOE, recall="forgetful")
    assert x.total == pytest.approx(x.player_best - x.bank_best, abs=1e-12)
    with pytest.raises(SolverError, match="jackpot_ante=0"):
        evaluate(CATALAN0, "threshold:5", "threshold:5", jackpot=10, recall="forgetful")
    with pytest.raises(SolverError, match="non-negative"):
        evaluate(CATALAN, "threshold:5", "threshold:5", jackpot=-1, recall="forgetful")


def test_an_empty_pot_only_returns_the_ante() -> None:
    # jackpot=0: a natural takes back this hand's ante (1 chip = 0.1 units).
    base = evaluate(CATALAN0, "threshold:5", "threshold:5.5", recall="forgetful")
    result = evaluate(CATALAN, "threshold:5", "threshold:5.5", recall="forgetful")
    assert result.chips_ev == pytest.approx(base.ev, abs=1e-15)
    assert result.ev == pytest.approx(base.ev - 0.1 + 0.1 * result.jackpot_win, abs=1e-15)


# --------------------------------------------------------------------- hand computed
def test_tiny_shoes_computed_by_hand() -> None:
    # Shoe 7 7 F F, catalan (a natural pays 2), jackpot 20: pot 21 chips = 2.1 units, ante 0.1.
    # The player hits to 7½: a natural with chance 2/3 (first 7 then F, or F then 7), else
    # it busts. A bank standing on its first card never makes 7½: Z = 2/3 * 2 - 1/3 = 1.
    shoe = "0,0,0,0,0,0,2,2,0,0"
    r = evaluate(CATALAN, "threshold:7.5", "threshold:0.5", composition=shoe, jackpot=20, recall="forgetful")
    assert r.jackpot_win == pytest.approx(2 / 3, abs=1e-12)
    assert r.chips_ev == pytest.approx(1.0, abs=1e-12) and r.bank_ev == pytest.approx(-1.0)
    assert r.ev == pytest.approx(1.0 - 0.1 + 2.1 * 2 / 3, abs=1e-12)
    # A bank that chases 7½ always makes it with the two cards left (7 + F): the pot stays.
    r = evaluate(CATALAN, "threshold:7.5", "threshold:7.5", composition=shoe, jackpot=20, recall="forgetful")
    assert r.jackpot_win == 0.0
    assert r.ev == pytest.approx(-1.0 - 0.1, abs=1e-12) and r.bank_ev == pytest.approx(1.0)
    # Shoe 7 7 7 F: a natural with chance 3/4 * 1/3 + 1/4 = 1/2; the chasing bank holds two
    # 7s and busts, and the natural still takes the pot: Z = 1/2 * 2 - 1/2 = 1/2.
    shoe = "0,0,0,0,0,0,3,1,0,0"
    r = evaluate(CATALAN, "threshold:7.5", "threshold:7.5", composition=shoe, jackpot=20, recall="forgetful")
    assert r.jackpot_win == pytest.approx(0.5, abs=1e-12)
    assert r.bank_bust == pytest.approx(0.5, abs=1e-12)
    assert r.ev == pytest.approx(0.5 - 0.1 + 2.1 * 0.5, abs=1e-12)


def test_the_pot_row_follows_the_engine() -> None:
    game = make_game(CATALAN, jackpot=20, recall="forgetful")
    assert (game.pot_chips, game.pot, game.ante) == (21, 2.1, 0.1)
    natural = game.ms.index[(0, 0, 0, 0, 0, 0, 1, 1)]
    three = game.ms.index[(1, 0, 0, 0, 0, 1, 0, 1)]  # 1 + 6 + F: 7½ of three cards
    row = game.jackpot_row(natural)
    assert row[SEVEN_AND_HALF] == row[SEVEN_MULTI] == 0.0  # any bank 7½ keeps the pot
    assert all(row[r] == 2.1 for r in range(1, NUM_RESULTS) if r not in (SEVEN_AND_HALF,
                                                                          SEVEN_MULTI))
    assert game.jackpot_row(three) == [0.0] * NUM_RESULTS
    assert game.player_row(three, 1) == game.payoff_row(three, 1)


# --------------------------------------------------------------------- Monte Carlo
@pytest.mark.parametrize("ante,jackpot,tp,tb,seed", [
    (1, 0, 5, 5.5, 100),        # catalan as it is: the pot is this hand's ante
    (40, 0, 7.5, 5, 20_000),    # a 4-unit ante: the pot matters as much as the stake
    (1, 300, 7.5, 6, 40_000),   # 300 chips carried in: a natural takes 30.1 units
])
def test_ev_of_both_parties_agrees_with_the_engine(ante: int, jackpot: int, tp: float,
                                                   tb: float, seed: int) -> None:
    rules = CATALAN.replace(jackpot_ante=ante)
    exact = evaluate(rules, f"threshold:{tp}", f"threshold:{tb}", jackpot=jackpot, recall="forgetful")
    player, bank = monte_carlo(rules, make_agent(f"threshold:{tp}"),
                               make_agent(f"threshold:{tb}"), 10_000, seed, jackpot)
    assert_in_ci(exact.ev, player)
    assert_in_ci(exact.bank_ev, bank)
    if ante > 1 or jackpot:
        # The jackpot term is far outside the interval: leaving it out would fail.
        assert abs(exact.chips_ev - exact.game.ante - player[0]) > Z99 * player[1]


def test_observations_show_the_assumed_pot() -> None:
    game = HeadsUpGame(CATALAN, "1,1,1,1,1,1,1,2,1,1", merge_figures=False, jackpot=20, recall="forgetful")
    node = next(n for n in game.all_player_nodes() if n[0] == 1)
    legal = [a for a, _o in game.player_actions(node)]
    obs = EngineObservations(game).player_observation(node, legal)
    sl = observation_slices(2)
    assert obs[sl["jackpot"]][0] == pytest.approx(21 / CATALAN.starting_chips)
    # agents queried through observations give the native values, pot included
    native = evaluate(CATALAN, "threshold:4.5", "threshold:5.5",
                      composition="1,1,1,1,1,1,1,2,1,1", jackpot=20, recall="forgetful")
    queried = evaluate(CATALAN, AgentPolicy(make_agent("threshold:4.5")),
                       AgentPolicy(make_agent("threshold:5.5")),
                       composition="1,1,1,1,1,1,1,2,1,1", jackpot=20, recall="forgetful")
    assert queried.ev == pytest.approx(native.ev, abs=1e-12)


# --------------------------------------------------------------------- best responses
def test_best_responses_on_each_party_s_own_payoff() -> None:
    shoe = "2,1,1,1,1,1,2,2,2,1"
    for jackpot in (0, 200):
        player = best_response(CATALAN, "player", "threshold:5.5", composition=shoe,
                               baseline="threshold:5", jackpot=jackpot, recall="forgetful")
        assert player.value >= player.baseline - 1e-12 and player.gain >= -1e-12
        ev = evaluate_policies(player.game, player.strategy, as_policy("threshold:5.5"))
        assert ev.ev == pytest.approx(player.value, abs=1e-12)  # own payoff, pot included
        bank = best_response(CATALAN, "bank", "threshold:5", composition=shoe,
                             baseline="threshold:5.5", jackpot=jackpot, recall="forgetful")
        ev = evaluate_policies(bank.game, as_policy("threshold:5"), bank.strategy)
        assert ev.chips_ev == pytest.approx(bank.value, abs=1e-12)  # the bank plays for chips
        assert bank.own_value == pytest.approx(ev.bank_ev, abs=1e-12)
    # A big pot makes drawing to a natural worth more than chips: the player's best response
    # takes the pot more often than threshold play, at a cost in chips.
    rich = best_response(CATALAN, "player", "threshold:5.5", composition=shoe, jackpot=500, recall="forgetful")
    poor = best_response(CATALAN, "player", "threshold:5.5", composition=shoe, jackpot=0, recall="forgetful")
    bank = as_policy("threshold:5.5")
    rich_ev = evaluate_policies(rich.game, rich.strategy, bank)
    poor_ev = evaluate_policies(rich.game, poor.strategy, bank)
    assert rich_ev.jackpot_win > poor_ev.jackpot_win + 0.05
    assert rich_ev.chips_ev < poor_ev.chips_ev


def test_exploitability_sums_the_gains_on_own_payoffs() -> None:
    x = exploitability(CATALAN, "threshold:5", "threshold:5.5", composition=SMALL_SHOE,
                       jackpot=100, recall="forgetful")
    assert x.ev != pytest.approx(-x.bank_ev)  # general-sum
    assert x.player_gain >= -1e-12 and x.bank_gain >= -1e-12
    assert x.total == pytest.approx(x.player_gain + x.bank_gain)
    assert x.bank_gain == pytest.approx(x.chips_ev - x.bank_best)


# --------------------------------------------------------------------- equilibrium
def test_catalan_equilibrium_is_certified_with_a_small_pot() -> None:
    eq = equilibrium(CATALAN, jackpot=20, recall="forgetful")
    assert eq.certified and abs(eq.check.total) < 1e-9
    assert eq.check.ev == pytest.approx(eq.value, abs=1e-9)
    assert eq.value == pytest.approx(-0.229441466, abs=1e-8)
    assert eq.bank_value == pytest.approx(0.183539509, abs=1e-8)  # the jackpot-free value


@pytest.mark.parametrize("jackpot,certified", [(0, True), (20, True), (50, False),
                                               (500, False)])
def test_small_shoe_equilibrium_is_checked_on_the_real_hand(jackpot: int,
                                                            certified: bool) -> None:
    eq = equilibrium(CATALAN, composition=SMALL_SHOE, jackpot=jackpot, recall="forgetful")
    full = equilibrium(CATALAN, composition=SMALL_SHOE, jackpot=jackpot, method="full", recall="forgetful")
    assert eq.value == pytest.approx(full.value, abs=1e-8)
    assert eq.check.ev == pytest.approx(eq.value, abs=1e-8)
    assert eq.check.player_gain == pytest.approx(0.0, abs=1e-9)  # same payoff as the LP
    assert eq.certified is certified
    if not certified:  # the pot-spoiling bank is not chip-optimal: it gains by deviating
        assert eq.check.bank_gain > 1e-3


# --------------------------------------------------------------------- command line
def test_cli_says_which_pot_it_assumed(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "ev", "--recall", "forgetful", "--preset", "catalan", "--player", "threshold:5",
                 "--bank", "threshold:5.5", "--jackpot", "20"]) == 0
    text = capsys.readouterr().out
    exact = evaluate(CATALAN, "threshold:5", "threshold:5.5", jackpot=20, recall="forgetful")
    assert "assumed pot 20 chips" in text and "takes 21 chips" in text
    assert f"{exact.ev:+.6f}" in text and f"{exact.bank_ev:+.6f}" in text
    assert main(["solve", "ev", "--recall", "forgetful", "--preset", "catalan", "--player", "threshold:5",
                 "--bank", "threshold:5.5", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["jackpot"]["pot_before"] == 0 and data["jackpot"]["pot"] == 1
    assert data["ev"] == pytest.approx(evaluate(CATALAN, "threshold:5", "threshold:5.5", recall="forgetful").ev)
    assert data["bank_ev"] == pytest.approx(-data["chips_ev"])
    assert main(["solve", "ev", "--recall", "forgetful", "--preset", "pagat", "--jackpot", "5"]) == 2
    assert "jackpot_ante" in capsys.readouterr().err


def test_cli_equilibrium_reports_whether_it_is_one(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "equilibrium", "--recall", "forgetful", "--preset", "catalan", "--shoe", SMALL_SHOE,
                 "--jackpot", "20"]) == 0
    out = capsys.readouterr().out
    assert "a Nash equilibrium of the real hand" in out and "value (player)" in out
    assert main(["solve", "equilibrium", "--recall", "forgetful", "--preset", "catalan", "--shoe", SMALL_SHOE,
                 "--jackpot", "500", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["certified"] is False and data["exploitability"] > 1e-3
    assert data["jackpot"]["pot"] == 501
    assert main(["solve", "equilibrium", "--recall", "forgetful", "--preset", "catalan", "--shoe", SMALL_SHOE,
                 "--jackpot", "500"]) == 0
    assert "NOT an equilibrium" in capsys.readouterr().out
