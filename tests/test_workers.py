"""Learned models in tournaments: worker processes, the table size they were trained for, labels.

The models are real: a player and a bank built by :mod:`train.ppo` on
catalan with 2 seats, trained a few hundred steps and saved as ``sette train``
saves them, inside a run folder (``run.json`` names the run).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from agents import make_agent
from train.cli import main
from train.config import TrainConfig
from train.pipeline import new_run
from train.ppo import make_vec_env, model_info, new_model, save_model

ROOT = Path(__file__).resolve().parents[1]


def _train(run: Path, role: str, config: TrainConfig) -> None:
    opponents = ({"bank": make_agent("threshold:5.5")} if role == "player"
                 else {"players": make_agent("threshold:5.5")})
    env = make_vec_env(role, config, opponents, seed=1)
    model = new_model(env, config.stage_ppo(role), run / role, seed=1)
    model.learn(256)
    save_model(model, run / role / "model.zip", model_info(model, role, config))
    env.close()


def _run(folder: Path) -> Path:
    """A run folder ``folder/tiny`` holding a trained player and bank (2 seats)."""
    config = TrainConfig()
    config.table.num_seats = 2
    config.run.n_envs = 2
    config.run.progress_bar = False
    config.ppo.n_steps, config.ppo.batch_size, config.ppo.net_arch = 128, 64, [8]
    config.player.ppo = {}
    config.bank.ppo = {}
    run = new_run("all", config, folder / "tiny")
    for role in ("player", "bank"):
        _train(run, role, config)
    return run


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _run(tmp_path_factory.mktemp("workers"))


def test_two_workers_with_learned_models_finish_and_match_one(run: Path, capsys) -> None:
    """Models loaded in the parent used to deadlock forked workers; spawned ones do not."""
    argv = ["evaluate", "threshold:5.5", f"{run / 'player'}|{run / 'bank'}",
            str(run / "player"), "--seats", "2", "--hands", "40", "--table-hands", "5",
            "--json"]
    try:
        two = subprocess.run([sys.executable, "-m", "train.cli", *argv, "--workers", "2"],
                             cwd=ROOT, capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:
        pytest.fail("sette evaluate --workers 2 with learned models hung")
    assert two.returncode == 0, two.stderr
    assert main(argv + ["--workers", "1"]) == 0
    one = json.loads(capsys.readouterr().out)
    two_summary = json.loads(two.stdout)
    assert two_summary["agents"] == one["agents"]
    assert two_summary["differences"] == one["differences"]


def test_a_model_seated_at_another_table_size_says_which(run: Path, capsys) -> None:
    assert main(["evaluate", "threshold:5.5", str(run / "player"), "--seats", "4",
                 "--hands", "10"]) == 2
    err = capsys.readouterr().err
    assert (f"model {run / 'player'} was trained for 2 seats, not 4; seat it at a table "
            f"of 2 (--seats 2)") in err
    assert "observations of length" not in err


def test_learned_agents_get_short_labels(run: Path, capsys) -> None:
    assert main(["evaluate", "careful", f"{run / 'player'}|{run / 'bank'}",
                 f"model:{run / 'bank' / 'model.zip'}", "--seats", "2", "--hands", "10",
                 "--json"]) == 0
    labels = [e["label"] for e in json.loads(capsys.readouterr().out)["entrants"]]
    assert labels == ["careful", "tiny/player|bank", "tiny/bank"]


def test_two_runs_of_one_name_keep_apart(run: Path, tmp_path: Path) -> None:
    from evaluate.tournament import parse_entrant, unique_labels

    other = tmp_path / "elsewhere" / "tiny"
    other.mkdir(parents=True)
    for name in ("run.json", "player/model.zip"):
        (other / name).parent.mkdir(parents=True, exist_ok=True)
        (other / name).write_bytes((run / name).read_bytes())
    entrants = unique_labels([parse_entrant(str(run / "player")),
                              parse_entrant(str(other / "player")),
                              parse_entrant(str(other / "player"))])
    assert [e.label for e in entrants] == [f"{run.parent.name}/tiny/player",
                                          "elsewhere/tiny/player", "elsewhere/tiny/player#2"]
