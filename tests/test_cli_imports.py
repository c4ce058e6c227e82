"""The ``sette`` command imports only what the subcommand it runs needs.

``sette rules`` is the command a designer runs most, to look up a switch: it
must load the rules and nothing of training, evaluation or the solver. Each
case runs the command in a fresh interpreter and lists which heavy packages
ended up in ``sys.modules``.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

import pytest

from train.cli import COMMAND_MODULES, build_parser

TRAINING = ("torch", "stable_baselines3", "sb3_contrib", "tensorboard")
FIGURES = ("matplotlib", "rliable")
SOLVER = ("scipy.optimize", "scipy.sparse")
"""The solver's LP (HiGHS, in ``scipy.optimize``, on sparse matrices). Not bare ``scipy``:
importing numba (the batch engine's compiler) loads its top level to check its version."""
HEAVY = TRAINING + FIGURES + SOLVER
"""Packages a command that neither trains, draws nor solves must not load."""

_PROBE = """
import json, sys
from train.cli import main
try:
    status = main({argv!r})
except SystemExit as stop:  # --help exits
    status = stop.code
loaded = sorted(name for name in {watched!r} if name in sys.modules)
print(json.dumps({{"status": status, "loaded": loaded}}))
"""


def _loaded_by(argv: list[str], watched: tuple[str, ...]) -> tuple[int, list[str]]:
    """Run ``sette ARGV`` in a fresh interpreter: its exit status and which ``watched`` loaded."""
    code = _PROBE.format(argv=argv, watched=watched)
    result = subprocess.run([sys.executable, "-W", "ignore", "-c", code], capture_output=True,
                            text=True, timeout=120, check=True)
    report = json.loads(result.stdout.splitlines()[-1])
    return report["status"], report["loaded"]


LIGHT = HEAVY + ("agents", "evaluate", "train.train_cli", "envs.engine", "envs.sette_e_mezzo",
                 "envs.single_seat")
"""``sette rules`` needs the rules alone: no agents, no evaluation, no training parser, and
not even the engine or the environments (``import envs`` loads them on first use)."""

CASES = [
    (["rules"], LIGHT),
    (["rules", "catalan"], LIGHT),
    (["play", "--rules", "pagat", "--seats", "2", "--hands", "1"], HEAVY),
    (["evaluate", "random", "threshold:5", "--hands", "4"], HEAVY),
    (["evaluate", "--help"], HEAVY),
    (["train", "--help"], HEAVY),
]


@pytest.mark.parametrize("argv, not_loaded", CASES, ids=[" ".join(argv) for argv, _ in CASES])
def test_a_command_loads_only_what_it_needs(argv, not_loaded):
    status, loaded = _loaded_by(argv, not_loaded)
    assert status == 0
    assert loaded == [], f"sette {' '.join(argv)} imported {loaded}"


def test_a_rules_file_is_printed_without_training_or_solver_imports(tmp_path):
    rules_file = tmp_path / "my_table.toml"
    rules_file.write_text('preset = "catalan_house"\njackpot_ante = 0\n', encoding="utf-8")
    status, loaded = _loaded_by(["rules", str(rules_file)], LIGHT)
    assert (status, loaded) == (0, [])


def _commands(parser: argparse.ArgumentParser) -> list[str]:
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return list(action.choices)


def test_the_command_table_names_every_command_the_modules_register():
    """``COMMAND_MODULES`` is the table the lazy import reads: it may not drift from the parser."""
    every = _commands(build_parser())
    assert every == ["play", "rules", *COMMAND_MODULES]
    for command in COMMAND_MODULES:
        assert command in _commands(build_parser(command))


@pytest.mark.parametrize("word", [None, "bogus"])
def test_help_and_a_wrong_command_list_every_command(word):
    assert _commands(build_parser(word)) == ["play", "rules", *COMMAND_MODULES]


def test_a_wrong_command_is_named_with_every_choice(capsys):
    from train.cli import main

    with pytest.raises(SystemExit) as stop:
        main(["bogus"])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "invalid choice: 'bogus'" in err
    for command in ("play", "rules", *COMMAND_MODULES):
        assert repr(command) in err
