"""The ``sette`` command line: ``play`` and ``rules``, and its error messages."""

from __future__ import annotations

import ast
import dataclasses
import tomllib

import pytest

from envs.rules import PRESETS, Rules
from train.cli import main

NUM_SWITCHES = len(dataclasses.fields(Rules))
ALL_PRESETS = ("catalan", "catalan_house", "spanish", "spanish_full", "pagat",
               "pagat_italian", "pagat_spanish", "italian")
PRESET_LIST = ", ".join(ALL_PRESETS)


# ------------------------------------------------------------------- play
def test_play_prints_a_transcript(capsys):
    assert main(["play", "--rules", "pagat", "--seats", "2", "--hands", "2", "--seed", "3"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    lines = out.splitlines()
    assert lines[0] == "reset seed=3"
    assert lines[1] == "shuffle 40 cards"
    assert lines[2].startswith("first bank: seat ") and lines[2].endswith("(random)")
    assert sum(1 for line in lines if line.startswith("== hand ")) == 2
    assert "episode over after 2 hands" in lines
    assert lines[-1].startswith("final chips: [")
    assert ("(2 hands, rules 'pagat', seed 3, seats: threshold:5.5, threshold:5.5)"
            in lines[-1])
    # chips are conserved in pagat (no jackpot)
    chips = ast.literal_eval(lines[-1].split("final chips: ")[1].split("  jackpot")[0])
    assert len(chips) == 2 and sum(chips) == 2000


def test_play_is_deterministic_per_seed(capsys):
    args = ["play", "--rules", "catalan", "--seats", "3", "--hands", "3"]
    assert main(args + ["--seed", "5"]) == 0
    first = capsys.readouterr().out
    assert main(args + ["--seed", "5"]) == 0
    second = capsys.readouterr().out
    assert main(args + ["--seed", "6"]) == 0
    third = capsys.readouterr().out
    assert first == second
    assert first != third
    assert "high card: seat 0 draws" in first  # catalan draws the first bank


def test_play_with_one_agent_per_seat(capsys):
    code = main(["play", "--rules", "spanish", "--seats", "3", "--hands", "1", "--seed", "2",
                 "--agents", "random", "threshold:4", "threshold"])
    assert code == 0
    out = capsys.readouterr().out
    assert "seats: random, threshold:4, threshold)" in out
    assert "episode over after 1 hand" in out


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_play_every_preset(capsys, preset):
    assert main(["play", "--rules", preset, "--seats", "4", "--hands", "2", "--seed", "1"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    lines = out.splitlines()
    assert lines[0] == "reset seed=1"
    assert sum(1 for line in lines if line.startswith("== hand ")) == 2
    assert "episode over after 2 hands" in lines
    assert f"(2 hands, rules {preset!r}, seed 1, seats: " in lines[-1]
    chips = ast.literal_eval(lines[-1].split("final chips: ")[1].split("  jackpot")[0])
    jackpot = int(lines[-1].split("jackpot: ")[1].split()[0])
    assert len(chips) == 4
    assert sum(chips) + jackpot == 4000  # chips only move between seats and the jackpot
    ante = Rules.preset(preset).jackpot_ante
    assert (" antes 1" in out) == (ante > 0)  # only the Catalan presets feed a jackpot
    if not ante:
        assert jackpot == 0
    # how the first bank is chosen (RULES.md §5)
    first = next(line for line in lines if line.startswith("first bank: "))
    how = {"high_card": "(high_card)", "random": "(random)"}.get(
        Rules.preset(preset).first_bank, "")
    if Rules.preset(preset).first_bank == "auction":
        assert first.endswith("to each seat)") or first.endswith("(random (no bids))")
    else:
        assert first.endswith(how)


def test_play_with_a_rules_file(tmp_path, capsys):
    path = tmp_path / "table.toml"
    path.write_text('preset = "catalan"\njackpot_ante = 0\nmax_bank_hands = 1\n',
                    encoding="utf-8")
    assert main(["play", "--rules", str(path), "--seats", "2", "--hands", "2",
                 "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "antes" not in out  # no jackpot
    assert "(max_bank_hands)" in out  # the bank passes after every hand
    assert f"rules {str(path)!r}" in out


# ------------------------------------------------------------------ rules
def test_rules_lists_presets_and_switches(capsys):
    assert main(["rules"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0] == f"presets (RULES.md §7): {PRESET_LIST}"
    assert tuple(PRESETS) == ALL_PRESETS
    assert lines[1] == "switches:"
    assert len(lines) == 2 + NUM_SWITCHES
    names = [line.split()[0] for line in lines[2:]]
    assert names == [f.name for f in dataclasses.fields(Rules)]
    assert any(line.split()[0] == "bank_transfer" and "§5" in line for line in lines[2:])


@pytest.mark.parametrize("preset, expected", [
    ("catalan", ["jackpot_ante = 1", "bank_transfer = 'offer'", "max_bank_hands = 3",
                 "hidden_cards = 'alternate'", "bet_ladder = [1, 2, 5, 10]"]),
    ("spanish", ["bank_transfer = 'right'", "bet_timing = 'on_turn'", "bet_raise = True",
                 "any_seven_and_half_pays = True"]),
    ("pagat", ["bank_transfer = 'mandatory'", "natural_pays = 1",
               "declare_seven_and_half = True", "hidden_cards = 'first_only'"]),
    ("catalan_house", ["mort = True", "change_four = 'forced'", "secret_three = True",
                       "double = True", "split_rule = 'two_figures_once'", "jackpot_ante = 1",
                       "fusilar = False"]),
    ("spanish_full", ["declare_seven_and_half = True", "bank_must_chase_declared = True",
                      "split_rule = 'abrirse'", "change_four = 'optional'", "fusilar = True",
                      "side_bets = True", "bank_sale = True", "first_bank = 'auction'",
                      "mort = False"]),
    ("pagat_italian", ["natural_pays = 2", "natural_beats_bank_multicard = 'double'",
                       "wild_card = 'Ro'", "pair_of_sevens = True", "triple = False"]),
    ("pagat_spanish", ["hidden_cards = 'player_choice'",
                       "split_rule = 'two_figures_unlimited'", "natural_pays = 1"]),
    ("italian", ["bet_timing = 'on_turn'", "hidden_cards = 'first_only'", "wild_card = 'Ro'",
                 "natural_beats_bank_multicard = 'single'", "triple = True",
                 "bank_transfer = 'natural_only'", "bet_raise = False"]),
])
def test_rules_prints_every_switch_of_a_preset(capsys, preset, expected):
    assert main(["rules", preset]) == 0
    lines = _switch_lines(capsys.readouterr().out, preset)
    assert len(lines) == NUM_SWITCHES
    for line in expected:
        assert line in lines


def test_rules_of_a_file(tmp_path, capsys):
    path = tmp_path / "house.toml"
    path.write_text('preset = "spanish"\ndecks = 2\n', encoding="utf-8")
    assert main(["rules", str(path)]) == 0
    lines = _switch_lines(capsys.readouterr().out, "spanish")
    assert "decks = 2" in lines
    assert "bank_transfer = 'right'" in lines


def _switch_lines(toml_text, preset):
    """``sette rules`` prints a TOML rules file: its switches as ``name = repr(value)``."""
    data = tomllib.loads(toml_text)
    assert data.pop("preset") == preset
    return [f"{key} = {value!r}" for key, value in data.items()]


# ----------------------------------------------------------------- errors
def _error(capsys, argv):
    code = main(argv)
    out, err = capsys.readouterr()
    assert code == 2
    assert out == ""
    return err


def test_play_unknown_preset(capsys):
    err = _error(capsys, ["play", "--rules", "klondike"])
    assert err.startswith("sette play: error: ")
    assert "unknown preset 'klondike'" in err
    assert PRESET_LIST in err


def test_rules_unknown_preset(capsys):
    err = _error(capsys, ["rules", "klondike"])
    assert err.startswith("sette rules: error: ")
    assert "unknown preset 'klondike'" in err


def test_play_unknown_agent(capsys):
    err = _error(capsys, ["play", "--seats", "2", "--agents", "bogus"])
    assert "unknown agent 'bogus'" in err
    assert "random" in err and "threshold" in err


def test_play_bad_agent_argument(capsys):
    err = _error(capsys, ["play", "--seats", "2", "--agents", "threshold:9"])
    # the bad value is named (the spec, or the agent and its value)
    assert "threshold:9" in err or "threshold 9" in err
    assert "0.5..7.5" in err


def test_play_wrong_number_of_agent_specs(capsys):
    err = _error(capsys, ["play", "--seats", "4", "--agents", "random", "random"])
    assert "4 specs, got 2" in err


@pytest.mark.parametrize("seats", ["1", "9"])
def test_play_bad_seat_count(capsys, seats):
    err = _error(capsys, ["play", "--seats", seats])
    assert f"num_seats={seats}" in err
    assert "2..8" in err


def test_play_bad_hand_count(capsys):
    with pytest.raises(SystemExit) as info:
        main(["play", "--hands", "0"])
    assert info.value.code == 2
    assert "sette play: error: argument --hands: 0 must be at least 1" in capsys.readouterr().err


def test_missing_rules_file(tmp_path, capsys):
    path = tmp_path / "missing.toml"
    err = _error(capsys, ["rules", str(path)])
    assert f"rules file {str(path)!r} does not exist" in err
    err = _error(capsys, ["play", "--rules", str(path)])
    assert "does not exist" in err


def test_bad_switch_in_rules_file(tmp_path, capsys):
    path = tmp_path / "bad.toml"
    path.write_text('preset = "catalan"\ndecks = 12\n', encoding="utf-8")
    err = _error(capsys, ["play", "--rules", str(path)])
    assert "decks=12 is out of range; allowed: 1..8" in err


def test_argparse_errors_exit_2(capsys):
    with pytest.raises(SystemExit) as info:
        main([])
    assert info.value.code == 2
    with pytest.raises(SystemExit) as info:
        main(["play", "--seats", "x"])
    assert info.value.code == 2
    assert "invalid int value: 'x'" in capsys.readouterr().err
    with pytest.raises(SystemExit) as info:
        main(["deal"])
    assert info.value.code == 2
    assert "'deal'" in capsys.readouterr().err


@pytest.mark.parametrize(("argv", "command"), [
    (["variants", "--presets", "pagat"], "sette variants"),
    (["solve", "ev", "--preset", "pagat", "--bogus"], "sette solve ev"),
    (["rules", "catalan", "extra"], "sette rules"),
    (["play", "--seats", "2", "--zzz"], "sette play")])
def test_an_unknown_argument_is_refused_by_its_commands_parser(capsys, argv, command):
    """The error and the usage are the command's (``sette variants --presets`` names
    ``sette variants``' options), not the bare ``sette [-h] {…}``."""
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith(f"usage: {command} ")
    unknown = " ".join(argv[-2:] if argv[0] == "variants" else argv[-1:])
    assert err.rstrip().endswith(f"{command}: error: unrecognized arguments: {unknown}")


def test_the_options_of_human_play_are_refused_without_it(tmp_path, capsys):
    """``sette play --history FILE`` without ``--human`` used to print the transcript and
    write no history, without a word; every option of ``--human`` given is named."""
    history = tmp_path / "hands.jsonl"
    err = _error(capsys, ["play", "--seats", "2", "--hands", "1", "--history", str(history)])
    assert err == ("sette play: error: --history: only with --human (sitting at the table "
                   "yourself); add --human, or leave it out: sette play without --human "
                   "prints the transcript of the --agents' seats\n")
    assert not history.exists()
    err = _error(capsys, ["play", "--seats", "2", "--no-timer", "--opponents", "careful",
                          "--deck", "7o", "--bet-timeout", "5"])
    assert err.startswith("sette play: error: --opponents, --no-timer, --bet-timeout, --deck: "
                          "only with --human")
    assert "leave them out" in err


def test_one_hand_is_one_hand(capsys):
    assert main(["play", "--seats", "2", "--hands", "1", "--seat", "0"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "episode over after 1 hand" in lines
    assert "(1 hand, rules 'catalan', seed 0, " in lines[-1]
