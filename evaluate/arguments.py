"""Command-line argument types shared by the commands and the benchmarks.

Each is an :mod:`argparse` ``type``: a bad value is a usage error naming the
argument and the value (exit status 2), never a traceback, a hang or an empty
result from deep inside.
"""

from __future__ import annotations

import argparse

__all__ = ["positive_int", "positive_float"]


def positive_int(text: str) -> int:
    """A whole number of at least 1 (a count of hands, tables, steps, workers…)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} must be at least 1")
    return value


def positive_float(text: str) -> float:
    """A number above 0 (a length of time in seconds…)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"{value:g} must be a finite number above 0")
    return value
