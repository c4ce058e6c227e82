"""Command-line argument types shared by the commands and the benchmarks.

Each is an :mod:`argparse` ``type``: a bad value is a usage error naming the
argument and the value (exit status 2), never a traceback, a hang or an empty
result from deep inside.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from envs.rules import Rules, RulesError

__all__ = ["positive_int", "seed", "positive_float", "output_folder", "rule_set"]


def _at_least(text: str, least: int) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < least:
        raise argparse.ArgumentTypeError(f"{value} must be at least {least}")
    return value


def positive_int(text: str) -> int:
    """A whole number of at least 1 (a count of hands, tables, steps, workers…)."""
    return _at_least(text, 1)


def seed(text: str) -> int:
    """A seed: a whole number of 0 or more (numpy's seeds, which deal every table)."""
    return _at_least(text, 0)


def positive_float(text: str) -> float:
    """A number above 0 (a length of time in seconds…)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"{value:g} must be a finite number above 0")
    return value


def rule_set(text: str) -> str:
    """A preset name or a rules file that reads (:meth:`envs.rules.Rules.resolve`), kept as
    typed: an unknown preset or a bad file is named by its option (``argument --rules:
    unknown preset 'nope'; presets are: …``), among several the one that is bad."""
    try:
        Rules.resolve(text)
    except RulesError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text


def output_folder(text: str) -> Path:
    """A folder a command writes into (``--out``, ``--run-dir``…): a folder already, or one
    it can make, with its parents, when it writes.

    Checked when the command starts, by making and removing an empty folder where the
    command's would go (in the folder, or in its nearest existing parent): a command that
    plays or trains for minutes cannot then fail with nothing written at its end.
    """
    path = Path(text)
    nearest = path
    while not nearest.exists():
        nearest = nearest.parent
    if nearest == path and not path.is_dir():
        raise argparse.ArgumentTypeError(f"{text!r} is a file, not a folder")
    if not nearest.is_dir():
        raise argparse.ArgumentTypeError(f"{text!r} cannot be a folder: {str(nearest)!r} "
                                         f"is a file")
    try:
        with tempfile.TemporaryDirectory(prefix=".sette-", dir=nearest):
            pass
    except OSError as exc:
        raise argparse.ArgumentTypeError(
            f"cannot write into {text!r}: making a folder in {str(nearest)!r} failed "
            f"({exc.strerror or exc})") from None
    return path
