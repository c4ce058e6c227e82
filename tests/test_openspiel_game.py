"""The heads-up hand as an OpenSpiel game, and OpenSpiel's numbers against the solver's.

``python_sette_e_mezzo`` (evaluate/solver/openspiel_game.py) deals the cards
in table order, one chance node per card, and keeps every seat's perfect
recall; the exact solver (evaluate/solver/values.py) works on multisets and
deals the bank's face-down card last (exchangeability). On reduced shoes
small enough for OpenSpiel's Python best response to walk the whole tree in
a second, OpenSpiel's ``nash_conv`` / ``best_response`` of the same policies
must equal the solver's perfect-recall exploitability and best responses to
rounding, and OpenSpiel's own CFR+ must approach the solver's equilibrium.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pyspiel  # open_spiel, in the dev extra: the cross-check is part of the suite
import pytest
from open_spiel.python.algorithms import exploitability, expected_game_score

from envs import actions as A
from envs.rules import Rules
from evaluate.solver import openspiel_game as og
from evaluate.solver import values
from evaluate.solver.game import SolverError

TOL = 1e-9

SHOE = "0,1,0,0,1,0,1,1,0,0"
"""A 2, a 5, a 7 and a sota: naturals (7 + S), a declared 7½ (2 + 5 + S), busts."""

SMALL_SPANISH = Rules.preset("spanish").replace(bet_ladder=(1, 2), max_bet=20)
"""``spanish`` (bets after the first card, raises, reveal_hit) with a two-step ladder."""


CASES: dict[str, tuple[Rules | str, dict]] = {
    # name: (solver rules, game parameters besides rules; composition SHOE)
    "pagat": ("pagat", {}),
    "catalan_pot": ("catalan", {"jackpot": 30}),
    "spanish_small": (SMALL_SPANISH, {}),
    "spanish_declare": (SMALL_SPANISH.replace(declare_seven_and_half=True,
                                              bank_must_chase_declared=True), {}),
}
"""The reduced games: pagat (bets before the deal, declared 7½), catalan with a pot of
31 chips (general-sum), spanish with bets on the first card, raises and reveals, and
spanish where a 7½ (also one that came face down by a reveal) is declared and chased."""


@pytest.fixture(scope="module")
def rules_files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A rules file for each case whose rules are not a preset."""
    folder = tmp_path_factory.mktemp("rules")
    files = {}
    for case, (rules, _extra) in CASES.items():
        if isinstance(rules, Rules):
            files[case] = folder / f"{case}.toml"
            files[case].write_text(rules.to_toml(), encoding="utf-8")
    return files


def load(case: str, rules_files: dict[str, Path]) -> tuple[Any, Rules | str, dict]:
    rules, extra = CASES[case]
    name = str(rules_files[case]) if isinstance(rules, Rules) else rules
    params = {"rules": name, "composition": SHOE.replace(",", "/"), **extra}
    return pyspiel.load_game(og.GAME_NAME, params), rules, extra


def play(game: Any, moves: list[int | str]) -> Any:
    """A state after ``moves``: action indices, or card class names for chance nodes."""
    state = game.new_initial_state()
    names = list(game.solver.class_names)
    for move in moves:
        if isinstance(move, str):
            assert state.is_chance_node(), f"{move} dealt at a decision of seat " \
                                           f"{state.current_player()}"
            move = names.index(move)
        else:
            assert move in state.legal_actions(), (move, state.legal_actions(), str(state))
        state.apply_action(move)
    return state


# ------------------------------------------------------------------ the game itself
def test_the_game_string_loads_with_its_parameters() -> None:
    game = pyspiel.load_game("python_sette_e_mezzo(rules=pagat,composition=0/1/0/0/1/0/1/1/0/0,"
                             "stakes=fixed)")
    assert game.get_parameters() == {"rules": "pagat", "composition": "0/1/0/0/1/0/1/1/0/0",
                                     "stakes": "fixed", "jackpot": 0, "merge_figures": True}
    assert pyspiel.load_game(str(game)).get_parameters() == game.get_parameters()
    assert game.num_players() == 2
    assert game.num_distinct_actions() == game.solver.layout.size
    assert game.max_chance_outcomes() == 8  # ranks 1..7 and the figures
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert game.solver.rank_counts == (0, 1, 0, 0, 1, 0, 1, 1, 0, 0)
    ranks = pyspiel.load_game(og.GAME_NAME, {"rules": "pagat", "merge_figures": False})
    assert ranks.max_chance_outcomes() == 10
    changed = pyspiel.load_game("python_sette_e_mezzo(rules=pagat,composition=7:0/S:0)")
    assert changed.solver.rank_counts == (4, 4, 4, 4, 4, 4, 0, 0, 4, 4)


@pytest.mark.parametrize("text, words", [
    ("rules=spanish_full", "split_rule='abrirse'"),
    ("rules=nope", "presets are: catalan"),
    ("stakes=big", "choose 'free' or 'fixed'"),
    ("composition=1:9", "9 cards of rank 1"),
    ("rules=pagat,jackpot=5", "no jackpot"),
])
def test_bad_parameters_are_refused_by_name(text: str, words: str) -> None:
    with pytest.raises(SolverError, match=words.replace("(", r"\(")):
        pyspiel.load_game(f"python_sette_e_mezzo({text})")


def test_an_illegal_action_is_refused_by_name_and_leaves_the_state_as_it_was() -> None:
    """A move the rules do not allow, or a card the shoe no longer holds, raises before
    the hand changes, naming what is legal (it used to be played, leaving a hand that
    failed later or could not happen)."""
    game = pyspiel.load_game("python_sette_e_mezzo(rules=pagat,composition=0/1/0/0/1/0/1/1/0/0)")
    state = game.new_initial_state()
    assert state.legal_actions() == [14, 15, 16, 17]
    for bad in (A.HIT, 99):
        with pytest.raises(ValueError, match=f"action {bad} is not legal at the player's bet; "
                                             r"legal: 14 \(bet_1\), 15 \(bet_2\)"):
            state.apply_action(bad)
    assert state.history() == [] and state.legal_actions() == [14, 15, 16, 17]
    state.apply_action(14)
    assert state.is_chance_node()
    cards = [c for c, _p in state.chance_outcomes()]
    gone = next(c for c in range(game.max_chance_outcomes()) if c not in cards)
    with pytest.raises(ValueError, match=f"action {gone} is not legal at the player's card"):
        state.apply_action(gone)
    assert state.history() == [14]


@pytest.mark.parametrize("case", list(CASES) + ["catalan", "pagat", "spanish"])
def test_openspiel_random_simulation_passes(case: str, rules_files: dict[str, Path]) -> None:
    """OpenSpiel's own API check, on the reduced games and on each preset's full shoe."""
    if case in CASES:
        game, _rules, _extra = load(case, rules_files)
    else:
        game = pyspiel.load_game(og.GAME_NAME, {"rules": case})
    pyspiel.random_sim_test(game, num_sims=30, serialize=False, verbose=False)


def test_a_pot_makes_the_game_general_sum_and_pays_to_the_chip(
        rules_files: dict[str, Path]) -> None:
    game, _rules, _extra = load("catalan_pot", rules_files)
    assert game.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    # bet 1 unit; the player's 7 face down, the bank's 5; the sota face up: a natural.
    state = play(game, [game.solver.layout.bet(1), "7", "5", A.HIT, "F"])
    assert state.legal_actions() == [A.STAND]  # an undeclared 7½ only stands (§8.7)
    state = play(game, [game.solver.layout.bet(1), "7", "5", A.HIT, "F", A.STAND, A.HIT, "2",
                        A.STAND])
    assert state.is_terminal()
    # natural_pays 2 x 1 unit from the bank; the pot (30 + 1 chips = 3.1 units) to the
    # player, less its ante (0.1 unit): 2 + 3.1 - 0.1.
    assert state.returns() == pytest.approx([5.0, -2.0], abs=1e-12)
    bust = play(game, [game.solver.layout.bet(2), "7", "F", A.HIT, "5"])
    assert bust.is_terminal() and bust.returns() == pytest.approx([-2.1, 2.0], abs=1e-12)


def test_cards_come_in_table_order(rules_files: dict[str, Path]) -> None:
    """pagat bets before the deal; spanish deals the player's card, the bank's, then bets."""
    pagat, _r, _e = load("pagat", rules_files)
    state = pagat.new_initial_state()
    assert state.current_player() == og.PLAYER and A.STAND not in state.legal_actions()
    spanish, _r, _e = load("spanish_small", rules_files)
    state = spanish.new_initial_state()
    seats = []
    while not state.legal_actions() or state.is_chance_node():
        seats.append(state.current_player())
        state.apply_action(state.chance_outcomes()[0][0])
    assert seats == [pyspiel.PlayerId.CHANCE, pyspiel.PlayerId.CHANCE]
    assert state.current_player() == og.PLAYER
    assert state.legal_actions() == [spanish.solver.layout.bet(1), spanish.solver.layout.bet(2)]


# ------------------------------------------------------------------ information states
def info(state: Any, seat: int) -> tuple[str, np.ndarray]:
    return state.information_state_string(seat), np.array(state.information_state_tensor(seat))


def test_no_seat_sees_the_other_seats_face_down_card(rules_files: dict[str, Path]) -> None:
    game, _r, _e = load("spanish_small", rules_files)
    bet = game.solver.layout.bet(1)
    # The player (face-down 2, a 5 face up) cannot tell the bank's 7 from its sota ...
    a = play(game, ["2", "7", bet, A.HIT, "5"])
    b = play(game, ["2", "F", bet, A.HIT, "5"])
    assert info(a, og.PLAYER)[0] == info(b, og.PLAYER)[0] == "p0 card:2 bet:1 hit:5"
    assert np.array_equal(info(a, og.PLAYER)[1], info(b, og.PLAYER)[1])
    # ... and the bank cannot tell the player's face-down 2 from its sota once it stood.
    c = play(game, ["2", "7", bet, A.HIT, "5", A.STAND])
    d = play(game, ["F", "7", bet, A.HIT, "5", A.STAND])
    assert info(c, og.BANK)[0] == info(d, og.BANK)[0] == "p1 bank:7 bet:1 hit:5 stand"
    assert np.array_equal(info(c, og.BANK)[1], info(d, og.BANK)[1])
    assert info(c, og.PLAYER) != info(d, og.PLAYER)


@pytest.mark.parametrize("case", ["pagat", "spanish_declare"])
def test_information_states_hold_what_the_seat_saw_and_nothing_else(
        case: str, rules_files: dict[str, Path]) -> None:
    """Over every decision of a reduced game, for the seat to act:

    * its string and its tensor say the same (one determines the other);
    * they are a function of what the seat saw — the bank: its own cards,
      the public events, the status and a declaration's shown card, never the
      player's face-down card; the player: its face-down card and the
      public events — and they fix the legal actions;
    * they are as fine as the solver's perfect-recall keys: one player
      string per player node, and one bank view (with the history) and
      bank multiset per bank string.
    """
    from open_spiel.python.algorithms import get_all_states

    game, _r, _e = load(case, rules_files)
    states = get_all_states.get_all_states(game, -1, False, False).values()
    by_string: dict[str, set] = {}
    by_tensor: dict[bytes, set] = {}
    by_seen: dict[tuple, set] = {}
    by_key: dict[tuple, set] = {}
    for state in states:
        seat, h = state.current_player(), state.record
        text, tensor = info(state, seat)
        by_string.setdefault(text, set()).add(
            (tensor.tobytes(), tuple(state.legal_actions()),
             state.player_node() if seat == og.PLAYER else state.bank_key()))
        by_tensor.setdefault(tensor.tobytes(), set()).add(text)
        seen = ((tuple(h.bank_cards), h.shown) if seat == og.BANK else (h.hidden,)) + (
            seat, tuple(h.events), h.status)
        by_seen.setdefault(seen, set()).add(text)
        if seat == og.PLAYER:
            by_key.setdefault(state.player_node(), set()).add(text)
    assert all(len(v) == 1 for v in by_string.values())
    assert all(len(v) == 1 for v in by_tensor.values())
    assert all(len(v) == 1 for v in by_seen.values())
    assert all(len(v) == 1 for v in by_key.values())
    assert {s.current_player() for s in states} == {og.PLAYER, og.BANK}


def test_the_bank_remembers_order_timing_and_reveals(rules_files: dict[str, Path]) -> None:
    """The forgetful view of these hands is one; the bank's information states are not."""
    game, _r, _e = load("spanish_small", rules_files)
    lay = game.solver.layout
    bet, rise = lay.bet(1), lay.raise_(1)
    hands = {
        "raise on the first card": ["2", "F", bet, rise, A.HIT, "5", A.STAND],
        "raise after the hit": ["2", "F", bet, A.HIT, "5", rise, A.STAND],
        "bet 2 at once": ["2", "F", lay.bet(2), A.HIT, "5", A.STAND],
        "the 5 came by a reveal": ["5", "F", lay.bet(2), A.REVEAL_HIT, "2", A.STAND],
    }
    states = {name: play(game, moves) for name, moves in hands.items()}
    strings = {info(s, og.BANK)[0] for s in states.values()}
    tensors = {info(s, og.BANK)[1].tobytes() for s in states.values()}
    assert len(strings) == len(tensors) == len(hands)
    # Every one is stake 2 with a 5 face up and one card face down.
    forgetful = {(v.up, v.hidden, v.status, v.stake)
                 for v in (s.bank_key()[0] for s in states.values())}
    assert len(forgetful) == 1
    assert info(states["the 5 came by a reveal"], og.BANK)[0] == \
        "p1 bank:F bet:2 reveal:5 stand"


def test_a_declaration_shows_the_face_down_card(rules_files: dict[str, Path]) -> None:
    game, _r, _e = load("pagat", rules_files)
    state = play(game, [game.solver.layout.bet(1), "2", "7", A.HIT, "5", A.HIT, "F"])
    assert state.current_player() == og.BANK  # 2 + 5 + F = 7½ declared (RULES.md §4.5)
    assert info(state, og.BANK)[0] == "p1 bet:1 bank:7 hit:5 hit:F declare:2"
    ob = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    ob.set_from(state, og.BANK)
    assert ob.dict["player_card"].tolist() == [0, 1, 0, 0, 0, 0, 0, 0]


def test_a_seven_and_a_half_that_came_face_down_is_declared_and_chased(
        rules_files: dict[str, Path]) -> None:
    # SHOE and a second sota, so that the bank has a card to chase with.
    game = pyspiel.load_game(og.GAME_NAME, {"rules": str(rules_files["spanish_declare"]),
                                            "composition": "0/1/0/0/1/0/1/2/0/0"})
    # face-down 2, a 5 face up; reveal_hit turns the 2 up, the sota comes face down: 7½.
    state = play(game, ["2", "7", game.solver.layout.bet(1), A.HIT, "5", A.REVEAL_HIT, "F"])
    assert state.current_player() == og.BANK
    assert info(state, og.BANK)[0] == "p1 bank:7 bet:1 hit:5 reveal:2 declare:F"
    assert state.legal_actions() == [A.HIT]  # the bank must chase a declared 7½ (§4.6)
    assert play(game, ["2", "7", game.solver.layout.bet(1), A.HIT, "5", A.STAND]
                ).legal_actions() == [A.STAND, A.HIT]
    view, bank = state.bank_key()
    assert game.solver.describe(view.up) == "5 2 F" and view.hidden == 0
    assert game.solver.describe(bank) == "7"


# ------------------------------------------------------------------ the cross-check
POLICY_PAIRS = [("threshold:5", "threshold:5"), ("random", "threshold:6"),
                ("threshold:4", "random")]


@pytest.mark.parametrize("case", list(CASES))
def test_nash_conv_agrees_with_the_solver(case: str, rules_files: dict[str, Path]) -> None:
    game, rules, extra = load(case, rules_files)
    for player, bank in POLICY_PAIRS:
        ours = values.exploitability(rules, player, bank, composition=SHOE, **extra)
        theirs = exploitability.nash_conv(game, og.SolverPolicyAdapter(game, player, bank),
                                          return_only_nash_conv=False)
        assert theirs.player_improvements == pytest.approx(
            [ours.player_gain, ours.bank_gain], abs=TOL), (player, bank)
        assert theirs.nash_conv == pytest.approx(ours.total, abs=TOL)
        assert ours.total > 1e-3  # none of these pairs is an equilibrium


def test_agents_asked_through_observations_agree_with_the_solver() -> None:
    """``careful`` and ``reader`` read real observations: the ten ranks are dealt apart."""
    shoe = "0,1,0,0,1,0,1,1,0,1"  # SHOE and a rey: the sota and the rey are two classes
    game = pyspiel.load_game(og.GAME_NAME, {"rules": "pagat", "composition": shoe.replace(",", "/"),
                                            "merge_figures": False})
    ours = values.exploitability("pagat", "careful", "reader", composition=shoe)
    assert not ours.game.merge_figures
    theirs = exploitability.nash_conv(game, og.SolverPolicyAdapter(game, "careful", "reader"),
                                      return_only_nash_conv=False)
    assert theirs.player_improvements == pytest.approx([ours.player_gain, ours.bank_gain],
                                                       abs=TOL)
    assert min(ours.player_gain, ours.bank_gain) > 1e-3


def test_best_responses_agree_with_the_solver(rules_files: dict[str, Path]) -> None:
    game, rules, _extra = load("spanish_small", rules_files)
    policy = og.SolverPolicyAdapter(game, "threshold:5", "threshold:6")
    as_player = exploitability.best_response(game, policy, og.PLAYER)
    as_bank = exploitability.best_response(game, policy, og.BANK)
    ours_player = values.best_response(rules, "player", "threshold:6", composition=SHOE)
    ours_bank = values.best_response(rules, "bank", "threshold:5", composition=SHOE)
    assert as_player["best_response_value"] == pytest.approx(ours_player.own_value, abs=TOL)
    assert as_bank["best_response_value"] == pytest.approx(ours_bank.own_value, abs=TOL)
    ev = values.evaluate(rules, "threshold:5", "threshold:6", composition=SHOE).ev
    assert as_player["on_policy_values"] == pytest.approx([ev, -ev], abs=TOL)


@pytest.mark.parametrize("case", list(CASES))
def test_the_solvers_equilibrium_is_one_for_openspiel(case: str,
                                                      rules_files: dict[str, Path]) -> None:
    game, rules, extra = load(case, rules_files)
    eq = values.equilibrium(rules, composition=SHOE, **extra)
    policy = og.SolverPolicyAdapter(game, eq.player, eq.bank)
    theirs = exploitability.nash_conv(game, policy, return_only_nash_conv=False)
    assert theirs.player_improvements == pytest.approx(
        [eq.check.player_gain, eq.check.bank_gain], abs=TOL)
    assert eq.certified and abs(theirs.nash_conv) <= TOL
    value = expected_game_score.policy_value(game.new_initial_state(), [policy, policy])
    assert value == pytest.approx([eq.value, eq.bank_value], abs=TOL)


def test_openspiel_cfr_plus_approaches_the_solvers_equilibrium() -> None:
    """C++ CFR+ on the Python game: NashConv falls towards 0, the value towards the solver's."""
    params = {"rules": "pagat", "composition": SHOE.replace(",", "/"), "stakes": "fixed"}
    game = pyspiel.load_game(og.GAME_NAME, params)
    eq = values.equilibrium("pagat", composition=SHOE, stakes="fixed")
    cfr = pyspiel.CFRPlusSolver(game)
    nash_conv = []
    for iterations in (10, 190):
        for _ in range(iterations):
            cfr.evaluate_and_update_policy()
        nash_conv.append(pyspiel.nash_conv(game, cfr.average_policy()))
    assert nash_conv[1] < nash_conv[0] / 10 and nash_conv[1] < 1e-3
    value = pyspiel.expected_returns(game.new_initial_state(), cfr.average_policy(), -1, True)
    assert value[0] == pytest.approx(eq.value, abs=1e-3)
    assert abs(eq.value) > 0.05  # the value is not the trivial 0


def test_a_bank_that_remembers_exploits_the_forgetful_models_equilibrium(
        rules_files: dict[str, Path]) -> None:
    """The forgetful-bank equilibrium is one in its own model, not at a table with recall.

    In this shoe the bank that remembers when the player bet, raised and
    hit takes 0.2 units a hand more from the forgetful model's player;
    OpenSpiel, whose bank information states are its whole history, finds
    the same gain.
    """
    shoe = "1,1,0,1,0,1,1,0,0,0"
    forgetful = values.equilibrium(SMALL_SPANISH, composition=shoe, recall="forgetful")
    assert forgetful.certified  # in its own (forgetful) game
    ours = values.exploitability(SMALL_SPANISH, forgetful.player, forgetful.bank,
                                 composition=shoe)
    game = pyspiel.load_game(og.GAME_NAME, {"rules": str(rules_files["spanish_small"]),
                                            "composition": shoe.replace(",", "/")})
    policy = og.SolverPolicyAdapter(game, forgetful.player, forgetful.bank)
    theirs = exploitability.best_response(game, policy, og.BANK)
    assert theirs["nash_conv"] == pytest.approx(ours.bank_gain, abs=TOL)
    assert ours.bank_gain == pytest.approx(0.2, abs=TOL)
