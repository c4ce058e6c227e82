"""Tournaments: seat rotation, determinism, accounting, intervals, CLI errors."""

from __future__ import annotations

import json

import numpy as np
import pytest

from agents import RoleSplitAgent, resolve_spec
from evaluate.tournament import (BUSTS, CHIPS, HANDS, LOSSES, PUSHES, WINS, Entrant,
                                 TournamentConfig, arrangements, build_agents, group_entrants,
                                 parse_entrant, run_tournament, unique_labels)
from train.cli import main


def _config(specs, rules="pagat", seats=3, hands=60, seed=1, **kw) -> TournamentConfig:
    return TournamentConfig(tuple(parse_entrant(s) for s in specs), rules, seats, hands, seed,
                            **kw)


@pytest.mark.parametrize("agents, seats", [(1, 4), (2, 4), (3, 4), (4, 4), (5, 2), (3, 8)])
def test_every_agent_sits_in_every_seat_once_per_table(agents, seats):
    lineups = arrangements(agents, seats)
    assert len(lineups) == agents
    for seat in range(seats):
        assert sorted(lineup[seat] for lineup in lineups) == list(range(agents))
    occupied = [sum(lineup.count(a) for lineup in lineups) for a in range(agents)]
    assert occupied == [seats] * agents


def test_same_seed_same_numbers_other_seed_other_numbers():
    config = _config(["threshold:5", "careful", "random"], hands=40, seed=5)
    first, second = run_tournament(config), run_tournament(config)
    assert np.array_equal(first.data, second.data)
    assert json.dumps(first.summary(reps=50)) == json.dumps(second.summary(reps=50))
    other = run_tournament(_config(["threshold:5", "careful", "random"], hands=40, seed=6))
    assert not np.array_equal(first.data, other.data)


def test_workers_give_the_same_numbers():
    config = _config(["threshold:5", "random"], seats=2, hands=40)
    assert np.array_equal(run_tournament(config).data, run_tournament(config, workers=2).data)


def test_identical_agents_get_identical_results_by_rotation():
    # Two copies of one deterministic agent replay the same deals in every seat,
    # so rotation and common random numbers make their totals equal to the chip
    # (up to the order of floating-point sums).
    config = _config(["a=threshold:5", "b=threshold:5"], rules="catalan", seats=3, hands=50)
    result = run_tournament(config)
    for role in ("all", "player", "bank"):
        assert np.array_equal(result.tables_of("a", role, "hands"),
                              result.tables_of("b", role, "hands"))
        assert np.allclose(result.tables_of("a", role, "chips"),
                           result.tables_of("b", role, "chips"), atol=1e-9)
        diff = result.difference("a", "b", role)
        assert abs(diff.mean) < 1e-12 and diff.half_width < 1e-9


def test_hands_and_chips_add_up():
    result = run_tournament(_config(["threshold:5", "careful", "random"], hands=50))
    data = result.data  # [table, arrangement, seat, role, field]
    assert np.all(data[:, :, :, 1, HANDS].sum(axis=2) == 10)  # one bank per hand
    # pagat has no jackpot: every hand's chips only change hands.
    assert np.allclose(data[..., CHIPS].sum(axis=(2, 3)), 0.0)
    outcomes = data[..., WINS] + data[..., PUSHES] + data[..., LOSSES]
    assert np.array_equal(outcomes, data[..., HANDS])
    assert np.all(data[..., BUSTS] <= data[..., HANDS])


def test_simulated_ev_agrees_with_the_exact_heads_up_value():
    # Heads-up pagat, bank fixed, threshold 5.5 on both sides: the solver's value
    # for one hand from a full shoe is -0.22343 (pagat reshuffles every hand).
    exact = -0.22343463578354686
    config = _config(["threshold:5.5"], seats=2, hands=3000, fixed_bank=True)
    ev = run_tournament(config).ev("threshold:5.5", "player")
    assert abs(ev.mean - exact) < 1.7 * ev.half_width  # about 3.3 standard errors
    assert ev.hands == 3000


def test_role_split_seat_plays_each_role_with_its_policy():
    spec = resolve_spec("threshold:7|threshold:0.5")
    assert spec == "threshold:7|threshold:0.5"
    config = TournamentConfig((Entrant("split", spec),), "pagat", 2, 30, 0, fixed_bank=True)
    agent = build_agents(config)[0]
    assert isinstance(agent, RoleSplitAgent)
    result = run_tournament(config)
    # a bank that stands on its first card never busts; a player hitting to 7 often does
    assert result.rate("split", "bank", "busts").mean == 0.0
    assert result.rate("split", "player", "busts").mean > 0.3


def test_groups_are_summarised_by_iqm_and_improvement():
    entrants = group_entrants("low", ["threshold:3", "threshold:3.5"]) + \
        group_entrants("high", ["threshold:5", "threshold:5.5"])
    config = TournamentConfig(tuple(entrants), "pagat", 2, 40, 0)
    summary = run_tournament(config).summary(reps=100)
    groups = summary["seed_groups"]
    assert set(groups) == {"player", "bank", "both roles"}
    assert set(groups["player"]["iqm"]) == {"low", "high"}
    assert "low > high" in groups["player"]["probability_of_improvement"]


def test_entrant_parsing_and_labels():
    assert parse_entrant("careful") == Entrant("careful", "careful")
    assert parse_entrant("me=threshold:4") == Entrant("me", "threshold:4")
    labels = [e.label for e in unique_labels([parse_entrant("random"), parse_entrant("random")])]
    assert labels == ["random", "random#2"]


@pytest.mark.parametrize("spec, message", [
    ("nonsense", "unknown agent 'nonsense'"),
    ("=threshold:4", "LABEL=SPEC"),
    ("a|b|c", "PLAYER\\|BANK"),
    ("model:/no/such/model.zip", "does not exist"),
])
def test_bad_specs_are_named(spec, message):
    with pytest.raises(ValueError, match=message):
        parse_entrant(spec)


def test_bad_settings_are_named():
    with pytest.raises(ValueError, match="seats=9"):
        _config(["random"], seats=9)
    with pytest.raises(ValueError, match="hands=0"):
        _config(["random"], hands=0)
    with pytest.raises(ValueError, match="unique"):
        TournamentConfig((Entrant("x", "random"), Entrant("x", "careful")))


@pytest.mark.parametrize("argv, message", [
    (["evaluate", "bogus"], "unknown agent 'bogus'"),
    (["evaluate", "threshold:abc"], "'abc' is not a number"),
    (["evaluate", "random", "--seats", "9"], "seats=9 is out of range"),
    (["evaluate"], "name at least one agent"),
    (["evaluate", "--group", "seeds"], "give a NAME and at least one SPEC"),
    (["evaluate", "model:/no/such/dir"], "does not exist"),
    (["evaluate", "careful", "careful=threshold:5"],
     "agent label 'careful' names two agents, careful and threshold:5"),
    (["evaluate", "mine=careful", "mine=threshold:5"],
     "agent label 'mine' names two agents, careful and threshold:5"),
    (["evaluate", "--group", "g", "careful", "threshold:5", "--group", "g", "reader"],
     "--group g is given twice"),
])
def test_cli_errors_name_the_bad_value(argv, message, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("sette evaluate: error:") and message in err


def test_an_unknown_rule_set_is_named_by_its_option(capsys):
    """``sette evaluate --rules nowhere`` used to say ``unknown preset 'nowhere'`` without
    the option, where the other options' errors name theirs."""
    with pytest.raises(SystemExit) as stop:
        main(["evaluate", "random", "--rules", "nowhere", "--hands", "1"])
    assert stop.value.code == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert ("sette evaluate: error: argument --rules: unknown preset 'nowhere'; presets are: "
            "catalan, " in err), err


def test_cli_json_is_deterministic(capsys):
    argv = ["evaluate", "threshold:5", "careful", "--rules", "spanish", "--seats", "2",
            "--hands", "30", "--seed", "4", "--json", "--no-progress"]
    assert main(argv) == 0
    first = capsys.readouterr().out
    assert main(argv) == 0
    assert capsys.readouterr().out == first
    data = json.loads(first)
    assert data["seats"] == 2 and data["seed"] == 4 and data["rules"] == "spanish"
    assert set(data["agents"]) == {"threshold:5", "careful"}
    ev = data["agents"]["careful"]["player"]["ev"]
    assert ev[1] <= ev[0] <= ev[2]
    assert "threshold:5 - careful" in data["differences"]


def test_cli_prints_markdown_tables(capsys):
    assert main(["evaluate", "threshold:5", "random", "--seats", "2", "--hands", "20"]) == 0
    out = capsys.readouterr().out
    assert "| agent | role | hands | EV per hand |" in out
    assert "`threshold:5` − `random`" in out


def test_a_label_given_twice_is_refused_but_a_spec_given_twice_is_numbered():
    """A label the user chose names one agent: ``careful careful=threshold:5`` used to
    show threshold:5 as ``careful#2``; two copies of one spec, unlabelled, are numbered."""
    assert [e.label for e in unique_labels([parse_entrant("careful"),
                                            parse_entrant("careful")])] == ["careful",
                                                                            "careful#2"]
    with pytest.raises(ValueError, match="agent label 'careful' names two agents, careful "
                                         "and threshold:5"):
        unique_labels([parse_entrant("careful"), parse_entrant("careful=threshold:5")])


def test_hands_rounded_up_to_whole_tables_are_said_and_counted(capsys):
    """``--hands 1`` plays one whole table of 10 hands: stderr says so, the header counts
    one table (not "1 tables") and two arrangements, and one table gives no interval (not
    "± inf")."""
    assert main(["evaluate", "threshold:5", "careful", "--rules", "pagat", "--hands", "1",
                 "--workers", "2"]) == 0
    captured = capsys.readouterr()
    assert ("sette evaluate: --hands 1 rounded up to whole tables: 1 table of 10 hands, "
            "10 hands\n") in captured.err
    assert ", 2 seats, 1 table of 10 hands per arrangement, 2 arrangements (every" in \
        captured.out
    assert "± n/a (one table)" in captured.out and "inf" not in captured.out
    if "--workers 2 not used: the batch engine played the tables" not in captured.err:
        assert "playing the scalar engine" in captured.err  # else the workers played
    assert main(["evaluate", "threshold:5", "careful", "--rules", "pagat", "--hands", "20",
                 "--engine", "scalar"]) == 0
    captured = capsys.readouterr()
    assert captured.err == "" and "2 tables of 10 hands per arrangement" in captured.out


def test_evaluate_defaults_to_the_seats_sette_train_trains_for(capsys):
    from train.cli import build_parser
    from train.config import TrainConfig

    args = build_parser().parse_args(["evaluate", "threshold:5"])
    assert args.seats == TrainConfig().table.num_seats == 2
    assert main(["evaluate", "threshold:5", "random", "--hands", "10", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["seats"] == 2


# ------------------------------------------------------- sette solve and sette play
@pytest.fixture(scope="module")
def model_run(tmp_path_factory):
    """A pagat 2-seat run with an (untrained) player and bank saved as sette train saves them."""
    from test_plots_report import _learned_run

    return _learned_run(tmp_path_factory.mktemp("solve") / "tiny", ("player", "bank"))


SMALL_SHOE = "1,1,1,1,1,1,1,1,1,1"
"""One card of each rank: a small game, so the solver asks the model few states."""


def test_solve_takes_a_bare_model_path_and_labels_it_by_run_and_stage(model_run, capsys):
    argv = ["solve", "ev", "--preset", "pagat", "--shoe", SMALL_SHOE, "--bank",
            "threshold:5.5"]
    assert main(argv + ["--player", str(model_run / "player")]) == 0
    bare = capsys.readouterr().out
    assert "player tiny/player  vs  bank threshold:5.5" in bare
    assert str(model_run) not in bare
    assert main(argv + ["--player", f"model:{model_run / 'player'}"]) == 0
    assert capsys.readouterr().out.splitlines()[:-1] == bare.splitlines()[:-1]  # but the time
    assert main(["solve", "exploitability", "--preset", "pagat", "--shoe", SMALL_SHOE,
                 "--player", "threshold:5", "--bank", str(model_run / "bank")]) == 0
    out = capsys.readouterr().out
    assert "how the player exploits bank tiny/bank:" in out and str(model_run) not in out
    assert main(["solve", "ev", "--player", str(model_run / "nothing")]) == 2
    assert "neither an agent spec nor an existing model path" in capsys.readouterr().err


def test_play_takes_a_bare_model_path(model_run, capsys):
    assert main(["play", "--rules", "pagat", "--seats", "2", "--hands", "2", "--agents",
                 str(model_run / "player"), "threshold:5"]) == 0
    out = capsys.readouterr().out
    assert "seats: tiny/player, threshold:5)" in out and str(model_run) not in out


def test_solve_equilibrium_shows_progress_on_stderr_unless_told_not_to(capsys):
    argv = ["solve", "equilibrium", "--preset", "pagat", "--shoe", "2,2,2,2,2,2,2,2,2,2",
            "--json"]
    assert main(argv + ["--progress"]) == 0
    captured = capsys.readouterr()
    assert "sette solve equilibrium: round 1: 0 histories remembered" in captured.err
    assert "value between" in captured.err
    assert "checking the strategies with exact best responses" in captured.err
    assert json.loads(captured.out)["certified"]
    assert main(argv) == 0  # stderr is not a terminal here: quiet by default
    assert capsys.readouterr().err == ""
    assert main(argv + ["--no-progress"]) == 0
    assert capsys.readouterr().err == ""
