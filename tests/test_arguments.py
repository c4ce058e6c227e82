"""The argument types of the commands and benchmarks (``evaluate/arguments.py``): a count
of 0 or a time of 0 s is a usage error naming the value, not a hang or an empty result; a
folder a command cannot write into is one before the command plays or trains."""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import pytest

from evaluate.arguments import output_folder, positive_float, positive_int, rule_set, seed

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


def test_a_seed_is_a_whole_number_of_zero_or_more() -> None:
    assert seed("0") == 0 and seed("12345") == 12345
    with pytest.raises(argparse.ArgumentTypeError, match="^-1 must be at least 0$"):
        seed("-1")
    with pytest.raises(argparse.ArgumentTypeError, match="'x' is not a whole number"):
        seed("x")


@pytest.mark.parametrize("argv", [["play"], ["watch", "--agents", "careful"],
                                  ["evaluate", "careful", "random"], ["serve"]])
def test_every_command_refuses_a_negative_seed_before_it_deals(argv: list[str],
                                                               capsys) -> None:
    """``sette serve --seed -1`` used to start serving and fail when the first table opened
    (numpy takes no negative seed); every command now refuses it in its usage line."""
    from train.cli import main

    with pytest.raises(SystemExit) as stop:
        main([*argv, "--seed", "-1"])
    assert stop.value.code == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert f"sette {argv[0]}: error: argument --seed: -1 must be at least 0" in err


def test_a_rule_set_is_a_preset_or_a_rules_file_that_reads(tmp_path: Path) -> None:
    """Kept as typed; an unknown preset or a file that does not read is the option's error."""
    table = tmp_path / "table.toml"
    table.write_text('preset = "pagat"\n', encoding="utf-8")
    assert rule_set("catalan") == "catalan" and rule_set(str(table)) == str(table)
    with pytest.raises(argparse.ArgumentTypeError,
                       match="^unknown preset 'nope'; presets are: catalan, "):
        rule_set("nope")
    with pytest.raises(argparse.ArgumentTypeError, match="absent.toml' does not exist$"):
        rule_set(str(tmp_path / "absent.toml"))


@pytest.mark.parametrize(("text", "message"), [("0", "0 must be a finite number above 0"),
                                               ("-1.5", "-1.5 must be a finite number"),
                                               ("nan", "nan must be a finite number"),
                                               ("inf", "inf must be a finite number"),
                                               ("soon", "'soon' is not a number")])
def test_a_time_of_zero_or_less_or_not_finite_is_refused(text: str, message: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError, match=message):
        positive_float(text)
    assert positive_float("0.25") == 0.25


@pytest.mark.parametrize("text", ["-1", "0", "nan"])
def test_the_equilibriums_time_limit_is_a_time_above_zero(text: str, capsys) -> None:
    """``sette solve equilibrium --time-limit -1`` (or 0) used to stop after one round as if
    its time were up, and ``nan`` meant no limit at all."""
    from train.cli import main

    with pytest.raises(SystemExit) as stop:
        main(["solve", "equilibrium", "--preset", "pagat", "--stakes", "fixed",
              "--shoe", "2,2,2,2,2,2,2,2,2,2", "--time-limit", text])
    assert stop.value.code == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert f"error: argument --time-limit: {text} must be a finite number above 0" in err


@pytest.mark.parametrize(("script", "argument"), [("bench_train.py", "--tables"),
                                                  ("bench_batch_eval.py", "--hands"),
                                                  ("bench_batch_engine.py", "--seconds")])
def test_a_benchmark_refuses_a_count_of_zero(script: str, argument: str) -> None:
    """``bench_train.py --tables 0`` used to loop for ever (no table ever stepped)."""
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / script), argument, "0"],
                          capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 2
    assert f"argument {argument}: 0 must be" in done.stderr


# ------------------------------------------------------------------ output folders
def test_an_output_folder_may_be_made_later_and_the_check_leaves_nothing(tmp_path: Path
                                                                         ) -> None:
    """An absent folder, however deep, is accepted and not made: the command makes it when
    it writes. The check's trial folder is gone afterwards."""
    assert output_folder(str(tmp_path / "a" / "b")) == tmp_path / "a" / "b"
    assert output_folder(str(tmp_path)) == tmp_path
    assert list(tmp_path.iterdir()) == []


def test_a_file_or_a_folder_under_a_file_is_not_an_output_folder(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("x")
    with pytest.raises(argparse.ArgumentTypeError, match="notes.txt' is a file, not a folder"):
        output_folder(str(tmp_path / "notes.txt"))
    with pytest.raises(argparse.ArgumentTypeError,
                       match=r"out' cannot be a folder: '.*notes.txt' is a file"):
        output_folder(str(tmp_path / "notes.txt" / "out"))


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs Linux's /proc")
def test_a_folder_nobody_can_make_is_refused_with_the_systems_reason() -> None:
    """``/proc`` takes no new folder, not even from root (CI runs as root, so a folder
    without write permission would not show it)."""
    with pytest.raises(argparse.ArgumentTypeError,
                       match=r"cannot write into '/proc/sette-out': making a folder in "
                             r"'/proc' failed \("):
        output_folder("/proc/sette-out")


@pytest.mark.parametrize("argv", [
    ["evaluate", "careful", "random", "--out"],
    ["report", "RUN", "--out"],
    ["train", "--run-dir"],
    ["serve", "--history-dir"]])
def test_every_command_checks_its_folder_before_it_plays(argv: list[str], tmp_path: Path,
                                                         capsys) -> None:
    """``sette evaluate --out FILE`` used to play the whole tournament, then stop with a
    traceback and nothing written; now the folder is a usage error before the first hand."""
    from train.cli import main

    (tmp_path / "taken").write_text("x")
    with pytest.raises(SystemExit) as stop:
        main([word.replace("RUN", str(tmp_path)) for word in argv] + [str(tmp_path / "taken")])
    assert stop.value.code == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert f"error: argument {argv[-1]}: '{tmp_path / 'taken'}' is a file, not a folder" in err


def test_the_results_table_checks_its_folder_before_it_trains(tmp_path: Path,
                                                              monkeypatch, capsys) -> None:
    from train import results

    monkeypatch.setattr(results, "new_run", pytest.fail)
    monkeypatch.setattr(results, "evaluate_run", pytest.fail)
    (tmp_path / "taken").write_text("x")
    with pytest.raises(SystemExit) as stop:
        results.main(["--out", str(tmp_path / "taken" / "results")])
    assert stop.value.code == 2
    assert "argument --out: " in capsys.readouterr().err
