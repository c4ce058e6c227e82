"""An RLlib run goes through every command as an SB3 run does (issue 14).

The runs are the tiny exports of :mod:`tests.rllib_fixture` (no ray, no
training): a player that prefers to stand and a bank that prefers to hit, so
a hand's outcome on a stacked deck is known. Each test is one command a user
types — ``sette report``, ``sette solve exploitability``, ``sette play``
(transcript and ``--human``), ``sette serve``'s tables — with the run's
specs (``rllib:RUN``, ``rllib:RUN/player``, ``rllib:RUN/bank``), at 2 and 4
seats; where a command cannot value a policy (one trained on the information
state of a table whose bank rotates) it says so by name and what works instead.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from train.cli import main

torch = pytest.importorskip("torch")

from rllib_fixture import export_run  # noqa: E402  (after the torch skip: it writes weights)

RULES = "catalan"
SMALL_SHOE = "1,1,1,1,1,1,1,2,1,1"
"""A shoe small enough for the exact solver to query a learned bank in seconds."""
REPORT = ["--hands", "40", "--engine", "scalar", "--no-progress"]


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """RLlib runs on catalan: 2 and 4 seats on the observation, 2 seats on the information
    state; the 2-seat one with its TensorBoard curves."""
    base = tmp_path_factory.mktemp("rllib-runs")
    return {"two": export_run(base / "two", RULES, 2, curves=True),
            "four": export_run(base / "four", RULES, 4),
            "history": export_run(base / "history", RULES, 2, "information_state")}


def test_sette_report_compares_an_rllib_run_at_2_and_4_seats(runs: dict[str, Path],
                                                              tmp_path: Path) -> None:
    """Its settings come from run.json (it has no config.toml), its seat is its two
    exported policies, its curves are the tags the backend logs, and its player is held to
    the exact best response heads-up."""
    two, four = runs["two"], runs["four"]
    assert main(["report", str(two), str(four), "--out", str(tmp_path), *REPORT,
                 "--variant-hands", "20", "--presets", RULES]) == 0
    report = (tmp_path / "report.md").read_text(encoding="utf-8")
    assert "## `catalan`, 2 seats" in report and "## `catalan`, 4 seats" in report
    for run in (two, four):
        assert f"`rllib:{run}/player\\|rllib:{run}/bank`" in report
        assert f"Run `{run}`: trained on Ray RLlib" in report
        assert f"learned {run.name}, " in report  # its column in the rule-variant table
    assert "![Learning curves of two](curves-two.png)" in report
    data = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    two_seats = next(t for t in data["tables"] if t["seats"] == 2)
    row = next(r for r in two_seats["best_response"] if r["label"] == "learned player")
    assert row["best"] >= row["ev"]  # nothing beats the best response


def test_sette_report_names_what_an_information_state_rllib_run_cannot_enter(
        runs: dict[str, Path], tmp_path: Path) -> None:
    """Seated in the tournament (a table whose bank rotates, as it was trained on), left
    out of the strategy maps, the exact best response and the variant table, each with why."""
    run = runs["history"]
    assert main(["report", str(run), "--out", str(tmp_path), *REPORT,
                 "--variant-hands", "20", "--presets", RULES]) == 0
    report = (tmp_path / "report.md").read_text(encoding="utf-8")
    assert f"`rllib:{run}/player\\|rllib:{run}/bank`" in report
    assert "Strategy maps, player: `learned` left out" in report
    assert ("Learned player vs exact best response: skipped — learned player: "
            f"rllib:{run}/player: an RLlib policy trained on the information state") in report
    assert "left out of it" in report  # the rule-variant table


FIGURES = ("ev", "bank_ev", "player_gain", "bank_gain", "exploitability")


def test_sette_solve_exploitability_takes_the_run_or_each_policy(runs: dict[str, Path],
                                                                  capsys: pytest.CaptureFixture
                                                                  ) -> None:
    """``rllib:RUN`` plays its player in the player's seat and its bank in the bank's."""
    run = runs["two"]
    assert main(["solve", "exploitability", "--preset", RULES, "--shoe", SMALL_SHOE,
                 "--player", f"rllib:{run}", "--bank", f"rllib:{run}", "--json"]) == 0
    whole = json.loads(capsys.readouterr().out)
    assert main(["solve", "exploitability", "--preset", RULES, "--shoe", SMALL_SHOE,
                 "--player", f"rllib:{run}/player", "--bank", f"rllib:{run}/bank",
                 "--json"]) == 0
    parts = json.loads(capsys.readouterr().out)
    assert [whole[k] for k in FIGURES] == [parts[k] for k in FIGURES]
    assert whole["player_gain"] > 0 and whole["bank_gain"] > 0  # neither plays a best response


@pytest.mark.parametrize("spec", ["", "/player"])
def test_sette_solve_names_an_information_state_rllib_policy_and_what_works(
        runs: dict[str, Path], spec: str, capsys: pytest.CaptureFixture) -> None:
    assert main(["solve", "exploitability", "--preset", RULES, "--shoe", SMALL_SHOE,
                 "--player", f"rllib:{runs['history']}{spec}", "--bank", "threshold:5"]) == 2
    err = capsys.readouterr().err
    assert f"rllib:{runs['history']}{spec}: an RLlib policy trained on the information " \
           "state" in err
    assert "sette evaluate" in err and "--observation-type observation" in err


def test_sette_play_seats_rllib_specs_at_2_and_4_seats(runs: dict[str, Path],
                                                 capsys: pytest.CaptureFixture) -> None:
    run = runs["four"]
    agents = [f"rllib:{run}", f"rllib:{run}/player", f"rllib:{run}/bank", "careful"]
    assert main(["play", "--agents", *agents, "--rules", RULES, "--seats", "4", "--hands",
                 "3"]) == 0
    out = capsys.readouterr().out
    assert f"seats: {', '.join(agents)})" in out
    chips = json.loads(out.split("final chips: ")[1].split("  jackpot")[0])
    jackpot = int(out.split("jackpot: ")[1].split()[0])
    assert sum(chips) + jackpot == 4 * 1000  # chips conserved
    history = f"rllib:{runs['history']}"  # on the information state: the table gives it
    assert main(["play", "--agents", history, "careful", "--rules", RULES, "--seats", "2",
                 "--hands", "3"]) == 0
    assert f"seats: {history}, careful)" in capsys.readouterr().out


def test_sette_play_human_against_an_rllib_bank(runs: dict[str, Path]) -> None:
    """You bet 10 on 7 and stand; the run's bank (it prefers to hit) hits 5 to 9½ and busts."""
    out = subprocess.run([sys.executable, "-m", "train.cli", "play", "--human", "--opponents",
                          f"rllib:{runs['two']}", "--rules", RULES, "--hands", "1", "--bank",
                          "1", "--no-timer", "--deck", "7o 5c Rc 4b Cc 3o 2b"],
                         input="10\ns\n", capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert "busts with 9½" in out.stdout
    assert "Final chips: seat 0 1009, seat 1 990." in out.stdout


def test_sette_serve_offers_and_seats_an_rllib_run(runs: dict[str, Path], tmp_path: Path
                                                   ) -> None:
    """``sette serve --model rllib:RUN``: a page may seat the run (and no other file)."""
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from play.server import create_app
    from play.serve_cli import _offered
    from play.tables import TableRegistry

    spec = f"rllib:{runs['four']}"
    app = create_app(TableRegistry(history_dir=tmp_path, models=_offered([spec])))
    with TestClient(app) as client:
        reply = client.post("/api/tables", json={"seats": ["human", spec, spec, "careful"],
                                                 "rules": RULES})
        assert reply.status_code == 200, reply.text
        refused = client.post("/api/tables", json={"seats": ["human", f"{spec}/player"]})
        assert refused.status_code == 400 and "reads a file" in refused.json()["detail"]
    with pytest.raises(ValueError, match="does not exist"):
        _offered([f"rllib:{tmp_path}/nowhere"])


def test_a_bad_setting_is_named_by_its_option() -> None:
    """A setting given as an option is named by it (``--iterations 0``), one only a run's
    ``run.json`` holds by its name."""
    from train.rllib_train import RLlibSettings

    with pytest.raises(ValueError, match="^--iterations 0: must be at least 1$"):
        RLlibSettings(iterations=0).check()
    with pytest.raises(ValueError, match="^--envs-per-runner 0: must be at least 1$"):
        RLlibSettings(envs_per_runner=0).check()
    with pytest.raises(ValueError, match="^epochs=0: must be at least 1$"):
        RLlibSettings(epochs=0).check()


def test_seats_the_rules_shoe_cannot_serve_are_refused_before_ray_starts(
        tmp_path: Path) -> None:
    """``--seats`` is held to the seats the rules' shoe serves (RULES.md §2), as every
    table checks them, before ray or an env runner starts; a table larger than one deck
    seats needs a rules file with more decks."""
    from train.rllib_train import RLlibSettings

    with pytest.raises(ValueError) as refused:
        RLlibSettings(num_seats=10).check()
    assert str(refused.value) == (
        "--seats 10 with rules 'catalan': num_seats=10 is out of range; allowed: 2..8 with "
        "decks=1; a deck seats at most 8, so up to 16 seats need decks >= 2 (RULES.md §2)")
    two_decks = tmp_path / "two-decks.toml"
    two_decks.write_text('preset = "catalan"\ndecks = 2\n', encoding="utf-8")
    RLlibSettings(rules=str(two_decks), num_seats=10).check()


def test_a_new_rllib_run_refuses_a_folder_that_holds_another_runs_checkpoint(
        tmp_path: Path) -> None:
    """A folder with an RLlib checkpoint (or a policy folder) but no run.json is no run to
    resume, and a new run there would restore the checkpoint as its own: it is refused by
    name before anything is written (no ray needed to refuse it)."""
    from train.rllib_train import CHECKPOINT, RLlibRun, RLlibSettings

    run = tmp_path / "run"
    (run / CHECKPOINT).mkdir(parents=True)
    with pytest.raises(ValueError) as refused:
        RLlibRun.create(RLlibSettings(), run)
    assert str(refused.value) == (
        f"{str(run)!r} already holds rllib/ but no run.json: a new run there would go on "
        f"from what it holds as its own; choose another --run-dir (a run that has its "
        f"run.json goes on with --resume)")
    assert [p.name for p in run.iterdir()] == ["rllib"]
