"""``python -m train.results``: its exact gaps (train/exact_gaps.py) and its verdicts.

The run's "models" here are threshold policies written into the model files (the
solver values those natively in seconds), so the exact part runs end to end on a
full shoe: each gap is the solver's best response less the policy's EV, and a
self-play round's NashConv is the solver's own exploitability of the pair.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from agents import make_agent
from evaluate.solver import values
from train import exact_gaps, results
from train.exact_gaps import exact_gaps as measure_gaps

# What each fake model file plays (the files hold the spec).
MODELS = {"player/model.zip": "threshold:4", "bank/model.zip": "threshold:6.5",
          "selfplay/round1-player/model.zip": "threshold:4.5",
          "selfplay/round1-bank/model.zip": "threshold:5"}


def _fake_run(tmp_path: Path, files: dict[str, str]) -> tuple[Path, dict]:
    for rel, spec in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(spec, encoding="utf-8")
    record = {"models": {"player": "player/model.zip", "bank": "bank/model.zip"}}
    (tmp_path / "run.json").write_text(json.dumps(record), encoding="utf-8")
    return tmp_path, record


@pytest.fixture
def fast_opponents(monkeypatch: pytest.MonkeyPatch) -> None:
    """Threshold opponents and baseline (the defaults, reader and careful, take minutes),
    and model specs read from the fake files."""
    monkeypatch.setattr(exact_gaps, "OPPONENTS", {"player": "threshold:5.5",
                                                  "bank": "threshold:5"})
    monkeypatch.setattr(exact_gaps, "BASELINES", {"player": (), "bank": ("threshold:5.5",)})

    def fake_agent(spec: str, rules: object = None) -> object:
        if spec.startswith("model:"):
            spec = Path(spec[len("model:"):]).read_text(encoding="utf-8")
        return make_agent(spec, rules=rules)

    monkeypatch.setattr(exact_gaps, "make_agent", fake_agent)


def test_exact_gaps_are_the_solvers_best_responses_and_nashconv(tmp_path: Path,
                                                                fast_opponents: None) -> None:
    """Each learned row: the policy's exact EV, the exact best response's, their gap and
    the target's verdict; the reader-like baseline beside the bank; each round's NashConv
    equal to the solver's exploitability of that round's pair (round 0 and round 1); a
    round the run did not keep is named."""
    run, record = _fake_run(tmp_path, MODELS)
    out = measure_gaps(run, "catalan", record, selfplay_rounds=2, log=lambda _m: None)
    rows = {(r["policy"], r["role"]): r for r in out["rows"]}
    player = rows[("learned player", "player")]
    ev = values.evaluate("catalan", "threshold:4", "threshold:5.5").ev
    best = values.best_response("catalan", "player", "threshold:5.5").value
    assert player["ev"] == pytest.approx(ev, abs=1e-12)
    assert player["best"] == pytest.approx(best, abs=1e-12)
    assert player["gap"] == pytest.approx(best - ev, abs=1e-12) and player["gap"] > 0.0
    assert player["target"] == exact_gaps.TARGETS["player"]
    assert player["met"] is (player["gap"] <= exact_gaps.TARGETS["player"])
    bank = rows[("learned bank", "bank")]
    assert bank["ev"] == pytest.approx(values.evaluate("catalan", "threshold:5",
                                                       "threshold:6.5").bank_ev, abs=1e-12)
    assert bank["met"] is False  # a bank standing on 6½ is far from the best response
    baseline = rows[("threshold:5.5", "bank")]
    assert baseline["target"] is None and baseline["met"] is None
    margin = out["bank_margin"]
    assert margin["baseline"] == "threshold:5.5"
    assert margin["margins"]["learned bank"] == pytest.approx(bank["ev"] - baseline["ev"])
    rounds = {entry["round"]: entry for entry in out["selfplay"]}
    for k, (p, b) in {0: ("threshold:4", "threshold:6.5"),
                      1: ("threshold:4.5", "threshold:5")}.items():
        x = values.exploitability("catalan", p, b)
        assert rounds[k]["nashconv"] == pytest.approx(x.total, abs=1e-12)
        assert rounds[k]["player"]["gap"] == pytest.approx(x.player_gain, abs=1e-12)
    assert rounds[1]["nashconv"] < rounds[0]["nashconv"]
    assert "round2-player" in rounds[2]["skipped"]
    text = "\n".join(exact_gaps.markdown(out))
    assert "| 1 |" in text and "falling" in text and "**missed**" in text
    assert "`learned bank` " in text.split("bank's against the same player:")[1]
    assert "skipped: the run has no selfplay/round2-player/model.zip" in text


def test_a_round_whose_nashconv_rises_is_flagged() -> None:
    """The self-play table says "not falling" where a round's NashConv is above the last."""
    def entry(k: int, gaps: tuple[float, float]) -> dict:
        return {"round": k, "nashconv": sum(gaps),
                **{role: {"ev": -0.2, "gap": g} for role, g in zip(("player", "bank"), gaps)}}

    text = "\n".join(exact_gaps.markdown({"rows": [], "selfplay": [
        entry(0, (0.01, 0.05)), entry(1, (0.01, 0.03)), entry(2, (0.02, 0.04))]}))
    lines = {line.split("|")[1].strip(): line for line in text.splitlines()
             if line.startswith("| ") and line.split("|")[1].strip().isdigit()}
    assert lines["0"].endswith("|  |") and lines["1"].endswith("| falling |")
    assert lines["2"].endswith("| **not falling** |")


def test_above_every_baseline_needs_the_whole_interval() -> None:
    """A learned candidate is above every baseline only when its paired difference to the
    strongest one is above zero by more than the 95% interval."""
    rng = np.random.default_rng(0)
    hands = np.full(400, 10.0)
    base = rng.normal(0.0, 3.0, 400)
    noise = rng.normal(0.0, 0.5, 400)
    clearly = results.versus_strongest((base + 1.0 + noise, hands), (base, hands))
    assert clearly["above_baselines"] and clearly["vs_baselines"] == pytest.approx(0.1, abs=0.01)
    level = results.versus_strongest((base + noise, hands), (base, hands))
    assert not level["above_baselines"]
    assert abs(level["vs_baselines"]) < level["vs_baselines_ci"]


# ------------------------------------------------------------ the command's arguments
def _run_dir(path: Path, command: str = "all", seats: int = 2, finished: bool = True) -> Path:
    """A run directory as ``sette train`` leaves it: its config and record, and when
    ``finished`` the record's models, whose file is an empty stand-in (the checks look only
    for the file; nothing is trained or played)."""
    from train.config import TrainConfig
    from train.pipeline import RUN_FILE, new_run

    config = TrainConfig()
    config.table.num_seats = seats
    new_run(command, config, path)
    if finished:
        record = json.loads((path / RUN_FILE).read_text(encoding="utf-8"))
        record["models"] = {"player": "player/model.zip"}
        (path / RUN_FILE).write_text(json.dumps(record), encoding="utf-8")
        (path / "player").mkdir()
        (path / "player" / "model.zip").write_bytes(b"")
    return path


@pytest.mark.parametrize(("args", "message"), [
    (["--run", "2"], "--run takes SEATS=RUN_DIR, such as 2=runs/NAME; got '2'"),
    (["--run", "two=runs/x"], "--run takes SEATS=RUN_DIR"),
    (["--run", "2=missing"], "--run 2=missing: run directory 'missing' does not exist"),
    (["--run", "2=four"], "'four' trained at 4 seats, not 2"),
    (["--run", "2=player"], "'player' is a 'sette train player' run; the results table "
                            "needs a whole run"),
    (["--run", "2=stopped"], "'stopped' has not finished training; continue it with: "
                             "sette train --resume stopped"),
    (["--seats", "4", "--run", "2=done"], "--run 2=done: 2 seats is not a table of --seats 4"),
    (["--run", "2=done", "--run", "2=done"], "2 seats already has the run 'done'"),
    (["--run", "2=lost"], "--run 2=lost: the run's model files are missing: player "
                          "('lost/player/model.zip')"),
    (["--seats", "2", "2"], "--seats names a table twice: 2 2"),
    (["--seats", "9"], "num_seats=9 is out of range"),
    (["--hands", "0"], "argument --hands: 0 must be at least 1"),
])
def test_bad_arguments_are_named_before_anything_runs(tmp_path: Path, monkeypatch, capsys,
                                                      args: list[str], message: str) -> None:
    """Every bad argument is a usage error naming it (exit status 2), before a run is
    trained or a hand played: no directory is made under ``--out``."""
    monkeypatch.chdir(tmp_path)
    _run_dir(tmp_path / "done")
    _run_dir(tmp_path / "four", seats=4)
    _run_dir(tmp_path / "player", command="player")
    _run_dir(tmp_path / "stopped", finished=False)
    (_run_dir(tmp_path / "lost") / "player" / "model.zip").unlink()
    monkeypatch.setattr(results, "evaluate_run", pytest.fail)
    with pytest.raises(SystemExit) as stop:
        results.main([*args, "--out", "out"])
    assert stop.value.code == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_a_table_whose_run_directory_is_taken_is_refused(tmp_path: Path, capsys) -> None:
    """A table to train whose directory under ``--out`` already holds a run (an earlier
    ``train.results`` stopped) is refused up front, saying how to go on."""
    _run_dir(tmp_path / "catalan-4seats", seats=4, finished=False)
    with pytest.raises(SystemExit):
        results.main(["--seats", "4", "--out", str(tmp_path)])
    err = capsys.readouterr().err
    assert "catalan-4seats' already holds a run: evaluate it with --run 4=DIR" in err


def test_a_table_whose_run_directory_holds_stages_without_a_record_is_refused(
        tmp_path: Path, capsys) -> None:
    """Stage folders left without ``run.json`` (a copied model) would be taken by the new
    run as its own trained stages: refused up front, naming them and ``--out``."""
    stage = tmp_path / "catalan-4seats" / "player"
    stage.mkdir(parents=True)
    (stage / "model.zip").write_bytes(b"old")
    with pytest.raises(SystemExit) as stop:
        results.main(["--seats", "4", "--out", str(tmp_path)])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert ("catalan-4seats' already holds player/ but no run.json: a new run there would go "
            "on from what it holds as its own; choose another --out") in err
    assert (stage / "model.zip").read_bytes() == b"old"


def test_given_runs_alone_are_evaluated_without_training(tmp_path: Path, monkeypatch,
                                                         capsys) -> None:
    """``--run 2=RUN`` without ``--seats`` measures that run and trains no other table."""
    run = _run_dir(tmp_path / "done")
    measured: list[Path] = []

    def evaluate(run_dir: Path, *args: object, **kwargs: object) -> dict:
        measured.append(run_dir)
        return {"run": str(run_dir)}

    monkeypatch.setattr(results, "evaluate_run", evaluate)
    monkeypatch.setattr(results, "new_run", pytest.fail)
    monkeypatch.setattr(results, "markdown", lambda found, *rest: f"{len(found)} table")
    assert results.main(["--run", f"2={run}", "--out", str(tmp_path / "out")]) == 0
    assert measured == [run]
    assert (tmp_path / "out" / "results.md").read_text(encoding="utf-8") == "1 table\n"


def test_the_wall_time_of_a_run_with_a_killed_start_is_a_lower_bound() -> None:
    """A start that was killed left no time in ``run.json``: the table's wall time is then
    the sum of the others and says it is at least that; a resumed run says its starts."""
    one = {"train_wall_s": 600.0, "total_s": 606.0, "starts": 1, "untimed_starts": 0}
    assert results._wall_time(one) == "10.0 min (10.1 min with its closing table)"
    resumed = {**one, "starts": 2}
    assert results._wall_time(resumed).endswith(" over 2 starts")
    killed = {**one, "starts": 2, "untimed_starts": 1}
    assert results._wall_time(killed) == ("at least 10.0 min (10.1 min with its closing "
                                          "table): 2 starts, 1 of them killed, whose time "
                                          "was not recorded")


def test_every_option_says_what_it_does_and_its_default(capsys) -> None:
    with pytest.raises(SystemExit):
        results.main(["--help"])
    text = " ".join(capsys.readouterr().out.split())
    for option in ("--hands HANDS hands each candidate plays for the table (default 2000000)",
                   "--screen-hands SCREEN_HANDS hands each threshold plays in the screening "
                   "that picks the best one (default 200000)",
                   "--workers WORKERS processes the candidates play in (default 2)",
                   "--out OUT folder of results.md, results.json and the runs it trains "
                   "(default runs/results)"):
        assert option in text, option
