"""The exact heads-up solver (evaluate.solver) against hand computation and the engine.

* hand-computed values on tiny shoes, and a brute-force oracle that plays out
  every ordering of a small shoe;
* the observation the solver builds (with the real engine) for each
  information state against ``Observer.observe`` at real table states, and
  agents queried through them against the native scripted policies;
* solver EVs and best responses against the engine's Monte Carlo (seeded,
  within a 99% confidence interval);
* best responses, exploitability and the equilibrium (NashConv ~ 0);
* refusals by switch name, and the ``sette solve`` command line.
"""

from __future__ import annotations

import itertools
import json
import math

import numpy as np
import pytest

from agents import make_agent
from agents.base import Agent, ObservationReader
from envs import actions as A
from envs.cards import rank_of
from envs.engine import BANK, BET, PLAY, Engine
from envs.observer import Observer
from envs.rules import Rules
from evaluate.solver.values import (_bank_view_response, _player_forward,
                                    bank_best_response, best_response, equilibrium, evaluate,
                                    evaluate_policies, exploitability, exploitability_of,
                                    make_game)
from evaluate.solver.game import BET as NODE_BET
from evaluate.solver.game import PLAY as NODE_PLAY
from evaluate.solver.game import HeadsUpGame, SolverError, View, parse_composition
from evaluate.solver.policies import (AgentPolicy, EngineObservations, StrategyAgent,
                                      ThresholdPolicy, as_policy)
from train.cli import main

CATALAN0 = Rules.preset("catalan").replace(jackpot_ante=0)
PRESETS = {"pagat": Rules.preset("pagat"), "catalan0": CATALAN0,
           "spanish": Rules.preset("spanish"), "catalan": Rules.preset("catalan")}
Z99 = 2.5758
SMALL_SHOE = "2,1,1,1,1,1,2,2,2,1"


# --------------------------------------------------------------------- helpers
def monte_carlo(rules: Rules, player: Agent, bank: Agent, hands: int,
                seed: int) -> tuple[float, float]:
    """Mean and standard error of the player's net win per hand on the real engine."""
    engine = Engine(rules, 2, max_hands=1)
    observer = Observer(engine)
    wins = np.empty(hands)
    for i in range(hands):
        engine.reset(seed=seed + i, bank=1)
        start = engine.chips[0]
        while engine.phase in (BET, PLAY, BANK):  # settled before any bank transfer
            agent = player if engine.actor == 0 else bank
            engine.step(agent.act(observer.observe(engine.actor), engine.action_mask()))
        wins[i] = (engine.chips[0] - start) / rules.min_bet
    return float(wins.mean()), float(wins.std(ddof=1) / math.sqrt(hands))


def assert_in_ci(exact: float, mc: tuple[float, float]) -> None:
    mean, se = mc
    assert abs(exact - mean) <= Z99 * se, f"exact {exact:.5f} vs Monte Carlo {mean:.5f} ± {se:.5f}"


def brute_force(rules: Rules, counts: list[int], t_player: float, t_bank: float) -> float:
    """EV of threshold players by playing out every ordering of a tiny shoe (an oracle)."""
    r = rules
    cards = [rank for rank, n in enumerate(counts) for _ in range(n)]
    value = [(k + 1) * 2 if k < 7 else 1 for k in range(10)]
    total_ev, n_orders = 0.0, 0
    for order in itertools.permutations(cards):
        n_orders += 1
        player, bank, pos = [order[0]], [order[1]], 2
        tot = lambda hand: sum(value[c] for c in hand)  # noqa: E731
        while tot(player) < 15 and tot(player) / 2 < t_player - 1e-6 and pos < len(order):
            player.append(order[pos])
            pos += 1
        if tot(player) > 15:
            total_ev -= 1
            continue
        while tot(bank) < 15 and tot(bank) / 2 < t_bank - 1e-6 and pos < len(order):
            bank.append(order[pos])
            pos += 1
        t, b = tot(player), tot(bank)
        mult = r.natural_pays if t == 15 and (len(player) == 2 or r.any_seven_and_half_pays) else 1
        if b > 15:
            total_ev += mult
        elif b == 15 or b >= t:
            total_ev -= 1
        else:
            total_ev += mult
    return total_ev / n_orders


def engine_state(game: HeadsUpGame, engine: Engine) -> tuple[str, object]:
    """The solver's key of the engine's current decision, read from the engine's state."""
    def mset(cards: list[int]) -> int:
        counts = [0] * game.num_classes
        for c in cards:
            counts[game.class_of_rank(rank_of(c))] += 1
        return game.ms.index[tuple(counts)]

    r = engine.rules
    hand = engine.hands[0][0]
    up = [c for c, f in zip(hand.cards, hand.face_up) if f]
    down = [c for c, f in zip(hand.cards, hand.face_up) if not f]
    stake = hand.bet // r.min_bet
    if engine.phase == BANK:
        view = View(mset(up), len(down), hand.status, stake)
        return "bank", (view, mset(engine.bank_hand.cards))
    h = game.class_of_rank(rank_of(down[0])) if down else -1
    if engine.phase == BET:
        return "player", (NODE_BET, h, mset(up), 0, False, None)
    room = min(r.max_bet - hand.bet, engine.chips[0])
    raised = engine.raised and r.bet_ladder[0] * r.min_bet <= room
    return "player", (NODE_PLAY, h, mset(up), stake, raised, None)


class RaiserAgent(Agent):
    """A deterministic agent that uses bets, raises and reveal_hit (spanish)."""

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        reader = ObservationReader(observation)
        legal = np.flatnonzero(action_mask)
        bets = [a for a in legal if a >= len(A.CORE_ACTIONS) and a < len(A.CORE_ACTIONS) + 4]
        if bets:
            return int(bets[1] if reader.own_total >= 7 and len(bets) > 1 else bets[0])
        raises = [a for a in legal if a >= len(A.CORE_ACTIONS) + 4]
        total = reader.own_total
        if raises and total >= 6:
            return int(raises[0])
        if total < 5:
            hidden_figure = reader["own_hidden"][7:].sum() > 0
            if hidden_figure and action_mask[A.REVEAL_HIT]:
                return A.REVEAL_HIT
            if action_mask[A.HIT]:
                return A.HIT
        return A.STAND if action_mask[A.STAND] else A.HIT


# --------------------------------------------------------------------- hand computed
def test_tiny_shoe_values_computed_by_hand() -> None:
    # Shoe 7 7 F F. Player hits to 7½ (threshold 7.5), the bank stands on anything:
    # first card 7: hit 7 (1/3) busts, a figure (2/3) is a natural the bank cannot beat;
    # first card F: a 7 (2/3) is a natural, a figure (1/3) gives 1, then the last 7 busts.
    shoe = "0,0,0,0,0,0,2,2,0,0"
    ev = evaluate("pagat", "threshold:7.5", "threshold:0.5", composition=shoe, recall="forgetful").ev
    assert ev == pytest.approx(1 / 3, abs=1e-12)
    # spanish pays 2 for every 7½: 2/3 * 2 - 1/3 = 1 in both cases.
    ev = evaluate("spanish", "threshold:7.5", "threshold:0.5", composition=shoe, recall="forgetful").ev
    assert ev == pytest.approx(1.0, abs=1e-12)
    # A bank that chases 7½ always gets there with the two cards left (7 + F): the
    # player loses every hand (bust, or the bank's 7½ beats it).
    ev = evaluate("pagat", "threshold:7.5", "threshold:7.5", composition=shoe, recall="forgetful").ev
    assert ev == pytest.approx(-1.0, abs=1e-12)


@pytest.mark.parametrize("rules", ["pagat", "spanish", "catalan0"])
@pytest.mark.parametrize("counts,tp,tb", [
    ([1, 1, 0, 0, 1, 0, 1, 1, 0, 1], 5.0, 5.5),
    ([2, 0, 1, 0, 0, 1, 1, 0, 1, 0], 4.0, 6.5),
    ([0, 1, 0, 1, 0, 0, 2, 1, 1, 0], 7.5, 4.5),
])
def test_matches_brute_force_over_every_ordering(rules: str, counts: list[int], tp: float,
                                                 tb: float) -> None:
    r = PRESETS[rules]
    exact = evaluate(r, f"threshold:{tp}", f"threshold:{tb}", composition=counts, recall="forgetful").ev
    assert exact == pytest.approx(brute_force(r, counts, tp, tb), abs=1e-12)


def test_figures_merged_or_not_give_the_same_values() -> None:
    p, b = ThresholdPolicy(5.0), ThresholdPolicy(6.0)
    merged = HeadsUpGame("spanish", SMALL_SHOE, merge_figures=True, recall="forgetful")
    ranks = HeadsUpGame("spanish", SMALL_SHOE, merge_figures=False, recall="forgetful")
    assert merged.num_classes == 8 and ranks.num_classes == 10
    assert evaluate_policies(merged, p, b).ev == pytest.approx(
        evaluate_policies(ranks, p, b).ev, abs=1e-12)


# --------------------------------------------------------------------- observations
@pytest.mark.parametrize("rules", list(PRESETS))
def test_observations_of_information_states_match_the_real_table(rules: str) -> None:
    """At real engine states the solver's key, legal actions and observation all agree."""
    r = PRESETS[rules]
    game = HeadsUpGame(r, merge_figures=False, recall="forgetful")
    observations = EngineObservations(game)
    decoder = StrategyAgent(game)
    engine = Engine(r, 2, max_hands=1)
    observer = Observer(engine)
    rng = np.random.default_rng(3)
    checked = 0
    for seed in range(60):
        engine.reset(seed=seed, bank=1)
        while engine.phase in (BET, PLAY, BANK):  # the hand's decisions (not the transfer)
            role, key = engine_state(game, engine)
            mask = engine.action_mask()
            real = observer.observe(engine.actor)
            legal = [int(a) for a in np.flatnonzero(mask)]
            if role == "player":
                assert sorted(a for a, _o in game.player_actions(key)) == legal, key
                mine = observations.player_observation(key, legal)
            else:
                stand_ok, hit_ok = game.bank_legal(*key)
                assert [A.STAND] * stand_ok + [A.HIT] * hit_ok == legal, key
                mine = observations.bank_observation(*key, legal)
            np.testing.assert_array_equal(mine, real, err_msg=f"{rules} {role} {key}")
            assert decoder.state(real, mask) == (role, key)
            checked += 1
            weights = np.where(np.isin(legal, [A.HIT, A.REVEAL_HIT]), 3.0, 1.0)
            engine.step(int(rng.choice(legal, p=weights / weights.sum())))
    assert checked > 150


@pytest.mark.parametrize("rules", ["pagat", "spanish"])
def test_queried_agents_match_the_native_scripted_policies(rules: str) -> None:
    # Through real observations (ten ranks) the agents' own act() gives the native values:
    # every player and bank state is built by the engine (and adjusted to the small shoe).
    player = AgentPolicy(make_agent("threshold:4.5"))
    bank = AgentPolicy(make_agent("threshold:5.5"))
    shoe = "1,1,1,1,1,1,1,2,1,1"
    both = evaluate(rules, player, bank, composition=shoe, recall="forgetful").ev
    assert both == pytest.approx(evaluate(rules, "threshold:4.5", "threshold:5.5",
                                          composition=shoe, recall="forgetful").ev, abs=1e-12)
    assert player.queries > 20 and bank.queries > 100


def test_small_shoe_observations_count_missing_cards_as_seen() -> None:
    game = HeadsUpGame("pagat", composition="7=1,S=2", merge_figures=False, recall="forgetful")
    node = (NODE_PLAY, 0, game.ms.empty, 1, False, None)
    legal = [a for a, _o in game.player_actions(node)]
    obs = EngineObservations(game).player_observation(node, legal)
    reader = ObservationReader(obs)
    np.testing.assert_allclose(reader["seen_ranks"], [0, 0, 0, 0, 0, 0, 0.75, 0.5, 0, 0])
    assert reader["shoe_left"][0] == pytest.approx((35 - 2) / 40)


# --------------------------------------------------------------------- Monte Carlo
@pytest.mark.parametrize("rules,tp,tb", [("pagat", 5, 5.5), ("catalan0", 5.5, 5),
                                         ("spanish", 4.5, 6)])
def test_ev_agrees_with_the_engine_monte_carlo(rules: str, tp: float, tb: float) -> None:
    r = PRESETS[rules]
    exact = evaluate(r, f"threshold:{tp}", f"threshold:{tb}", recall="forgetful").ev
    mc = monte_carlo(r, make_agent(f"threshold:{tp}"), make_agent(f"threshold:{tb}"), 6000,
                     seed=1000)
    assert_in_ci(exact, mc)


def test_ev_follows_bets_raises_and_reveals() -> None:
    r = PRESETS["spanish"]
    result = evaluate(r, RaiserAgent(), "threshold:5.5", recall="forgetful")
    assert result.expected_stake > 1.2
    assert_in_ci(result.ev, monte_carlo(r, RaiserAgent(), make_agent("threshold:5.5"), 6000,
                                        seed=50_000))
    uniform = evaluate(r, "random", "random", recall="forgetful")
    assert_in_ci(uniform.ev, monte_carlo(r, make_agent("random", seed=1),
                                         make_agent("random", seed=2), 3000, seed=90_000))


def test_best_response_played_on_the_engine_earns_its_value() -> None:
    r = PRESETS["pagat"]
    br = best_response(r, "bank", "threshold:5", baseline="threshold:5.5", recall="forgetful")
    agent = StrategyAgent(br.game, bank=br.strategy, seed=0)
    assert_in_ci(br.value, monte_carlo(r, make_agent("threshold:5"), agent, 5000, seed=7000))


# --------------------------------------------------------------------- best responses
@pytest.mark.parametrize("rules", ["pagat", "spanish"])
def test_best_responses_beat_the_policies_they_replace(rules: str) -> None:
    r = PRESETS[rules]
    for tp, tb in ((5, 5.5),) if rules == "pagat" else ((6, 4),):
        player = best_response(r, "player", f"threshold:{tb}", baseline=f"threshold:{tp}",
                               stakes="fixed", recall="forgetful")
        bank = best_response(r, "bank", f"threshold:{tp}", baseline=f"threshold:{tb}",
                             stakes="fixed", recall="forgetful")
        assert player.value >= player.baseline - 1e-12
        assert bank.value <= bank.baseline + 1e-12
        # The tabulated strategies earn exactly the best-response values.
        opp_b, opp_p = as_policy(f"threshold:{tb}"), as_policy(f"threshold:{tp}")
        assert evaluate_policies(player.game, player.strategy, opp_b).ev == pytest.approx(
            player.value)
        assert evaluate_policies(bank.game, opp_p, bank.strategy).ev == pytest.approx(bank.value)


def test_bank_best_response_uses_only_what_the_bank_sees() -> None:
    game = make_game("pagat", recall="forgetful")
    player = as_policy("threshold:5")
    honest, strategy = bank_best_response(game, player)
    # A bank that saw the player's face-down card would do better: solve each hand alone.
    fw = _player_forward(game, player, record=False)
    cheat = fw.bust_payoff + sum(_bank_view_response(game, view, [(hand, w)], {})
                                 for (view, hand), w in fw.ends.items())
    assert cheat < honest - 0.01
    assert honest <= evaluate_policies(game, player, as_policy("threshold:5.5")).ev
    # Its strategy is keyed by what the bank sees: the view and its own cards.
    assert all(isinstance(view, View) for view, _b in strategy.bank_table)


def test_free_stakes_let_the_player_raise_against_a_blind_bank() -> None:
    fixed = best_response("spanish", "player", "threshold:5.5", stakes="fixed", recall="forgetful").value
    free = best_response("spanish", "player", "threshold:5.5", stakes="free", recall="forgetful").value
    assert free > fixed + 0.1


def test_exploitability_is_non_negative() -> None:
    x = exploitability("pagat", "threshold:5", "threshold:5.5", recall="forgetful")
    assert x.player_gain >= 0 and x.bank_gain >= 0
    assert x.total == pytest.approx(x.player_gain + x.bank_gain)
    assert x.total > 0.01


# --------------------------------------------------------------------- equilibrium
def test_pagat_equilibrium_is_unexploitable() -> None:
    eq = equilibrium("pagat", recall="forgetful")
    assert -0.3 < eq.value < -0.1
    assert abs(eq.check.total) < 1e-7
    assert eq.check.ev == pytest.approx(eq.value, abs=1e-7)
    # It beats every threshold player against its bank, and every threshold bank.
    for t in (4, 6):
        threshold = as_policy(f"threshold:{t}")
        assert evaluate_policies(eq.game, threshold, eq.bank).ev <= eq.value + 1e-7
        assert evaluate_policies(eq.game, eq.player, threshold).ev >= eq.value - 1e-7


@pytest.mark.parametrize("rules,stakes,shoe", [
    ("catalan0", "fixed", SMALL_SHOE), ("spanish", "fixed", SMALL_SHOE),
    ("spanish", "free", "1,1,1,0,1,0,1,1,1,0")])
def test_small_shoe_equilibria_are_unexploitable(rules: str, stakes: str, shoe: str) -> None:
    eq = equilibrium(PRESETS[rules], composition=shoe, stakes=stakes, recall="forgetful")
    assert abs(eq.check.total) < 1e-7
    x = exploitability_of(eq.game, eq.player, eq.bank)
    assert x.player_gain > -1e-9 and x.bank_gain > -1e-9


# --------------------------------------------------------------------- refusals
@pytest.mark.parametrize("rules,switch", [
    (Rules.preset("catalan").replace(mort=True), "mort"),
    (Rules.preset("pagat").replace(double=True), "double"),
    (Rules.preset("pagat").replace(wild_card="Ro"), "wild_card"),
    (Rules.preset("spanish").replace(split_rule="abrirse"), "split_rule"),
])
def test_unsupported_switches_are_refused_by_name(rules: Rules, switch: str) -> None:
    with pytest.raises(SolverError, match=switch):
        evaluate(rules, "threshold:5", "threshold:5", recall="forgetful")


def test_bad_inputs_are_refused_clearly() -> None:
    with pytest.raises(SolverError, match="rank S"):
        parse_composition("4,4,4,4,4,4,4,5,4,4", decks=1)
    with pytest.raises(SolverError, match="10 counts"):
        parse_composition("4,4", decks=1)
    with pytest.raises(SolverError, match="at least"):
        parse_composition("1,0,0,0,0,0,0,0,0,0", decks=1)
    assert parse_composition("7=2,S=0", decks=1) == (4, 4, 4, 4, 4, 4, 2, 0, 4, 4)
    with pytest.raises(SolverError, match="role"):
        best_response("pagat", "dealer", "threshold:5", recall="forgetful")
    with pytest.raises(SolverError, match="unknown agent"):
        evaluate("pagat", "nobody", "threshold:5", recall="forgetful")


def test_two_decks_and_coverage() -> None:
    two = Rules.preset("pagat").replace(decks=2)
    assert make_game(two, recall="forgetful").num_cards == 80
    assert_in_ci(evaluate(two, "threshold:5", "threshold:5.5", recall="forgetful").ev,
                 monte_carlo(two, make_agent("threshold:5"), make_agent("threshold:5.5"), 3000,
                             seed=4))
    # Coverage: a bank holding 15 chips pays a 2x natural on a 10-chip stake only 15.
    poor = Rules.preset("spanish").replace(starting_chips=15, max_bet=10, bet_ladder=(1,))
    game = make_game(poor, recall="forgetful")
    natural = game.ms.index[(0, 0, 0, 0, 0, 0, 1, 1)]
    assert game.payoff_row(natural, 1)[17] == pytest.approx(1.5)


# --------------------------------------------------------------------- command line
def test_cli_ev_text_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "ev", "--recall", "forgetful", "--preset", "pagat", "--player", "threshold:5",
                 "--bank", "threshold:5.5"]) == 0
    text = capsys.readouterr().out
    exact = evaluate("pagat", "threshold:5", "threshold:5.5", recall="forgetful").ev
    assert f"{exact:+.6f}" in text
    assert main(["solve", "ev", "--recall", "forgetful", "--preset", "catalan", "--set", "jackpot_ante=0",
                 "--player", "threshold:5", "--bank", "threshold:5.5", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["ev"] == pytest.approx(evaluate(CATALAN0, "threshold:5", "threshold:5.5", recall="forgetful").ev)
    assert data["bank_ev"] == pytest.approx(-data["ev"])


def test_cli_refuses_by_switch_name(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "ev", "--recall", "forgetful", "--preset", "catalan", "--set", "double=true"]) == 2
    assert "double" in capsys.readouterr().err


def test_cli_best_response_exploitability_equilibrium(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "best-response", "--recall", "forgetful", "--preset", "pagat", "--role", "bank",
                 "--player", "threshold:5", "--bank", "threshold:5.5"]) == 0
    out = capsys.readouterr().out
    assert "bank: hit (H) / stand (S)" in out and "gains" in out
    assert main(["solve", "best-response", "--recall", "forgetful", "--preset", "spanish", "--role", "player",
                 "--bank", "threshold:5.5", "--shoe", SMALL_SHOE, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["strategy"] and data["value"] > 0
    assert main(["solve", "exploitability", "--recall", "forgetful", "--preset", "pagat", "--player", "threshold:5",
                 "--bank", "threshold:5.5", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["exploitability"] == pytest.approx(data["player_gain"] + data["bank_gain"])
    assert main(["solve", "equilibrium", "--recall", "forgetful", "--preset", "spanish", "--shoe", SMALL_SHOE]) == 0
    out = capsys.readouterr().out
    assert "value (player)" in out and "player: share of each action" in out
    assert "reveal+hit" in out and "bank: hit (H)" in out
