"""The argument types of the commands and benchmarks (``evaluate/arguments.py``): a count
of 0 or a time of 0 s is a usage error naming the value, not a hang or an empty result."""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import pytest

from evaluate.arguments import positive_float, positive_int

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(("text", "value"), [("1", 1), ("4096", 4096)])
def test_a_positive_count_is_read(text: str, value: int) -> None:
    assert positive_int(text) == value


@pytest.mark.parametrize(("text", "message"), [("0", "0 must be at least 1"),
                                               ("-3", "-3 must be at least 1"),
                                               ("2.5", "'2.5' is not a whole number"),
                                               ("many", "'many' is not a whole number")])
def test_a_count_below_one_or_not_whole_is_refused(text: str, message: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError, match=message):
        positive_int(text)


@pytest.mark.parametrize(("text", "message"), [("0", "0 must be a finite number above 0"),
                                               ("-1.5", "-1.5 must be a finite number"),
                                               ("nan", "nan must be a finite number"),
                                               ("inf", "inf must be a finite number"),
                                               ("soon", "'soon' is not a number")])
def test_a_time_of_zero_or_less_or_not_finite_is_refused(text: str, message: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError, match=message):
        positive_float(text)
    assert positive_float("0.25") == 0.25


@pytest.mark.parametrize(("script", "argument"), [("bench_train.py", "--tables"),
                                                  ("bench_batch_eval.py", "--hands"),
                                                  ("bench_batch_engine.py", "--seconds")])
def test_a_benchmark_refuses_a_count_of_zero(script: str, argument: str) -> None:
    """``bench_train.py --tables 0`` used to loop for ever (no table ever stepped)."""
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / script), argument, "0"],
                          capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 2
    assert f"argument {argument}: 0 must be" in done.stderr
