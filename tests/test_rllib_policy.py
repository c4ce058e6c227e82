"""Policies exported by the RLlib backend play as agents without ray and without unpickling.

The export (``policy.pth`` + ``sette-model.json``, :mod:`agents.rllib_policy`)
is written directly (:mod:`tests.rllib_fixture`) — the weights of a tiny network whose choices are
known — so these tests need neither ray nor training. They check what a user
relies on: the specs ``rllib:RUN/player``, ``rllib:RUN/bank``, ``rllib:RUN``
and the bare folder play the stored network's best legal action; ``sette
evaluate`` takes them; a file that would run code when unpickled is refused
and runs nothing; a bad path is named with what it holds.
"""

from __future__ import annotations

import pickle
from pathlib import Path

import numpy as np
import pytest

from agents import make_agent
from agents.learned import LearnedAgent
from agents.rllib_policy import INFO_FILE, WEIGHTS_FILE
from agents.seating import RoleSplitAgent
from envs.actions import ActionLayout
from envs.observer import observation_size
from envs.rules import Rules
from evaluate.ev import compare
from train.cli import main

torch = pytest.importorskip("torch")

from rllib_fixture import export_run  # noqa: E402  (after the torch skip: it writes weights)

SEATS = 3
RULES = "catalan"


@pytest.fixture
def run(tmp_path: Path) -> Path:
    """An RLlib run folder: a player that prefers to stand, a bank that prefers to hit."""
    return export_run(tmp_path / "run", RULES, SEATS, player="stand", bank="hit")


def _names() -> list[str]:
    return ActionLayout(tuple(Rules.resolve(RULES).bet_ladder)).names


def test_each_spec_plays_the_stored_networks_best_legal_action(run: Path) -> None:
    names = _names()
    obs = np.zeros(observation_size(SEATS), dtype=np.float32)
    both = np.zeros(len(names), dtype=np.int8)
    both[[names.index("hit"), names.index("stand")]] = 1
    for spec in (f"rllib:{run}/player", str(run / "player")):
        agent = make_agent(spec, rules=RULES)
        assert isinstance(agent, LearnedAgent) and agent.spec == f"rllib:{run}/player"
        assert names[agent.act(obs, both)] == "stand"
    bank = make_agent(f"rllib:{run}/bank", rules=RULES)
    assert names[bank.act(obs, both)] == "hit"
    only_stand = np.zeros(len(names), dtype=np.int8)
    only_stand[names.index("stand")] = 1
    assert names[bank.act(obs, only_stand)] == "stand"  # never an illegal action
    split = make_agent(f"rllib:{run}", rules=RULES)
    assert isinstance(split, RoleSplitAgent)
    assert isinstance(make_agent(str(run), rules=RULES), RoleSplitAgent)


def test_the_exported_players_evaluate_against_the_baselines(run: Path) -> None:
    """The exported player through evaluate.ev (the normal spec path) and ``sette evaluate``."""
    rules = Rules.resolve(RULES)
    comparison = compare({"rllib": make_agent(f"rllib:{run}/player", rules=rules),
                          "threshold:5": make_agent("threshold:5", rules=rules)},
                         "player", {"bank": make_agent("threshold:5", rules=rules),
                                    "players": make_agent("careful", rules=rules)},
                         rules, SEATS, 200, seed=0)
    stand_always = comparison.ev["rllib"]
    assert stand_always.hands == 200 and np.isfinite(stand_always.mean)
    assert comparison.ev["rllib"].mean != comparison.ev["threshold:5"].mean
    assert main(["evaluate", f"rllib:{run}", "threshold:5", "--rules", RULES, "--seats",
                 str(SEATS), "--hands", "60", "--no-progress"]) == 0


class _Payload:
    def __init__(self, marker: Path) -> None:
        self.marker = str(marker)

    def __reduce__(self) -> tuple:
        return (open, (self.marker, "w"))


def test_weights_that_would_run_code_are_refused_and_run_nothing(run: Path,
                                                                 tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    with open(run / "player" / WEIGHTS_FILE, "wb") as out:
        pickle.dump({"action_net.weight": _Payload(marker)}, out)
    with pytest.raises(ValueError, match="holds more than plain weights"):
        make_agent(f"rllib:{run}/player", rules=RULES)
    assert not marker.exists()


def test_bad_paths_are_named_with_what_they_hold(tmp_path: Path, run: Path) -> None:
    with pytest.raises(ValueError, match="does not exist"):
        make_agent(f"rllib:{tmp_path}/nowhere")
    (run / "player" / INFO_FILE).unlink()
    with pytest.raises(ValueError, match=r"is not an exported RLlib policy.*policy\.pth"):
        make_agent(f"rllib:{run}/player")
    with pytest.raises(ValueError, match="needs a path"):
        make_agent("rllib:")


def test_rllib_options_are_named_when_the_backend_is_not_rllib(
        capsys: pytest.CaptureFixture, tmp_path: Path) -> None:
    assert main(["train", "--iterations", "3", "--env-runners", "2",
                 "--run-dir", str(tmp_path / "run")]) == 2
    err = capsys.readouterr().err
    assert "--env-runners, --iterations: only --backend rllib takes these" in err
    assert not (tmp_path / "run").exists()


def test_the_rllib_backend_without_ray_says_how_to_install_it(
        capsys: pytest.CaptureFixture) -> None:
    import importlib.util

    if importlib.util.find_spec("ray") is not None:
        pytest.skip("ray is installed here: tests/rllib train with it")
    assert main(["train", "--backend", "rllib"]) == 2
    assert "pip install -e '.[rllib]'" in capsys.readouterr().err
