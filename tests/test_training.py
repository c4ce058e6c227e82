"""``sette train`` on tiny budgets: every command, resume after a kill, models as agents."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from agents import make_agent
from agents.learned import ModelInfo, load_model, read_info
from envs.single_seat import BankEnv, PlayerEnv
from train import config as cfg
from train.cli import main


def test_default_train_runs_every_stage_and_reports(tmp_path: Path, capsys,
                                                    tiny_run_config: Callable) -> None:
    run = tmp_path / "run"
    assert main(["train", "--config", str(tiny_run_config(tmp_path)), "--run-dir", str(run),
                 "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "learned player" in out and "learned selfplay bank" in out
    assert "self-play: 1 round, pools of" in out
    record = json.loads((run / "run.json").read_text())
    assert record["seed"] == 3 and record["command"] == "all"
    stages = [json.loads(p.read_text())["timesteps"] for p in run.rglob("stage.json")]
    assert len(stages) == 5  # player, bank, the bank on the information state, one round each
    [start] = record["starts"]
    assert (start["outcome"], start["from_step"], start["steps"]) == ("finished", 0,
                                                                      sum(stages))
    assert 0 < start["train_s"] <= start["wall_s"] == record["total_s"]
    assert {"torch", "sb3-contrib", "gymnasium"} <= set(record["versions"])
    assert cfg.load(run / "config.toml").run.seed == 3
    for stage in ("player", "bank", "bank-information-state", "selfplay/round1-player",
                  "selfplay/round1-bank", "selfplay/player", "selfplay/bank"):
        assert (run / stage / "model.zip").is_file(), stage
    assert record["models"]["information-state bank"] == "bank-information-state/model.zip"
    assert read_info(run / "bank-information-state" / "model.zip").observation_type == \
        "information_state"
    assert read_info(run / "bank" / "model.zip").observation_type == "observation"
    assert "`learned information-state bank`" in (run / "evaluation.md").read_text()
    # Only the observation can be given to an opponent inside a view: the model says so.
    recall_bank = load_model(run / "bank-information-state")
    view = BankEnv("catalan", 2, opponents="careful", seat=1)
    obs, _info = view.reset(seed=0)
    with pytest.raises(ValueError, match="trained on the information state .* given an "
                                         "observation .* observation_type='information_state'"):
        recall_bank.act(obs, view.action_masks())
    recall_view = BankEnv("catalan", 2, opponents="careful", seat=1,
                          observation_type="information_state")
    state, _info = recall_view.reset(seed=0)
    assert recall_view.action_masks()[recall_bank.act(state, recall_view.action_masks())]
    assert list((run / "player" / "tensorboard").rglob("events.out.tfevents.*"))
    assert list((run / "player" / "checkpoints").glob("ckpt_*_steps.zip"))
    assert "vs best threshold" in (run / "evaluation.md").read_text()
    stage = json.loads((run / "player" / "stage.json").read_text())
    assert 0 < stage["env_share"] < 1 and "reader" in stage["eval"]
    # Every stage trains on the table's ten hands a table, but seven bank tables in ten
    # ([bank] one_hand_tables, [selfplay] bank_one_hand_tables) are dealt afresh after
    # every hand; the player's are not.
    hands = {stage: (record["table_hands"], record["one_hand_tables"])
             for stage in ("player", "bank", "bank-information-state",
                           "selfplay/round1-player", "selfplay/round1-bank")
             for record in [json.loads((run / stage / "stage.json").read_text())]}
    assert hands == {"player": (10, 0), "bank": (10, 0.7), "bank-information-state": (10, 0.7),
                     "selfplay/round1-player": (10, 0), "selfplay/round1-bank": (10, 0.7)}
    assert {json.loads((run / stage / "stage.json").read_text())["torch_threads"]
            for stage in hands} == {1}  # the tiny config's run.torch_threads
    # The bank's actor is wider than the player's ([bank] ppo) but on the information state
    # ([bank] information_state_ppo); every critic is [ppo]'s.
    from sb3_contrib import MaskablePPO
    for stage, actor in (("player", (16, 16)), ("bank", (256, 256)),
                         ("bank-information-state", (64, 64)),
                         ("selfplay/round1-bank", (256, 256))):
        info = read_info(run / stage / "model.zip")
        assert (info.net_arch, info.vf_net_arch) == (actor, (8,)), stage
        extractor = MaskablePPO.load(run / stage / "model.zip", device="cpu").policy.mlp_extractor
        assert [extractor.policy_net[0].out_features, extractor.value_net[0].out_features] == \
            [actor[0], 8]


def test_a_model_description_says_what_the_model_was_trained_on() -> None:
    info = ModelInfo("bank", "catalan", 2, 300, ("stand", "hit"), (16,), "tanh", 512,
                     observation_type="information_state")
    assert ModelInfo.from_json(info.to_json(), "m").observation_type == "information_state"
    before = json.loads(info.to_json())
    del before["observation_type"]  # written before information states existed
    assert ModelInfo.from_json(json.dumps(before), "m").observation_type == "observation"
    assert info.vf_net_arch == (16,)  # not given: the critic has the actor's layers
    critic = ModelInfo("bank", "catalan", 2, 300, ("stand", "hit"), (256, 256), "tanh", 512,
                       vf_net_arch=(64, 64))
    assert ModelInfo.from_json(critic.to_json(), "m").vf_net_arch == (64, 64)
    older = json.loads(critic.to_json())
    del older["vf_net_arch"]  # written when the critic always had the actor's layers
    assert ModelInfo.from_json(json.dumps(older), "m").vf_net_arch == (256, 256)
    older["vf_net_arch"] = [64, 0]
    with pytest.raises(ValueError, match=r"m: vf_net_arch \[64, 0\] must list layer sizes"):
        ModelInfo.from_json(json.dumps(older), "m")
    before["observation_type"] = "pixels"
    with pytest.raises(ValueError, match="observation_type 'pixels' is not supported; "
                                         "supported: observation, information_state"):
        ModelInfo.from_json(json.dumps(before), "m")


@pytest.mark.parametrize("command", ["bank", "selfplay"])
def test_each_command_runs_alone(tmp_path: Path, command: str,
                                 tiny_run_config: Callable) -> None:
    run = tmp_path / command
    assert main(["train", command, "--config", str(tiny_run_config(tmp_path)),
                 "--run-dir", str(run), "--seats", "3"]) == 0
    folder = run / ("bank" if command == "bank" else "selfplay/bank")
    assert (folder / "model.zip").is_file()


def test_a_saved_model_loads_as_an_agent_and_acts_like_the_model(
        tmp_path: Path, tiny_run_config: Callable) -> None:
    from sb3_contrib import MaskablePPO

    run = tmp_path / "run"
    assert main(["train", "player", "--config", str(tiny_run_config(tmp_path)),
                 "--run-dir", str(run)]) == 0
    agent = make_agent(f"model:{run / 'player'}")
    model = MaskablePPO.load(run / "player" / "model.zip", device="cpu")
    env = PlayerEnv("catalan", 2, opponents="reader")
    obs, _info = env.reset(seed=0)
    for _ in range(200):
        mask = env.action_masks()
        action = agent.act(obs, mask)
        expected, _ = model.predict(obs, action_masks=mask, deterministic=True)
        assert action == int(expected) and mask[action]
        obs, _r, terminated, _t, _i = env.step(action)
        if terminated:
            obs, _info = env.reset()


def test_resume_continues_a_killed_run(tmp_path: Path, capsys,
                                      tiny_run_config: Callable) -> None:
    run = tmp_path / "run"
    command = [sys.executable, "-m", "train.cli", "train", "player", "--config",
               str(tiny_run_config(tmp_path, 100_000)), "--run-dir", str(run)]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               cwd=Path(__file__).resolve().parents[1])
    checkpoints = run / "player" / "checkpoints"
    deadline = time.monotonic() + 120
    while not list(checkpoints.glob("ckpt_*_steps.zip")):
        assert process.poll() is None, "training stopped before its first checkpoint"
        assert time.monotonic() < deadline, "no checkpoint within 120 s"
        time.sleep(0.2)
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    assert not (run / "player" / "model.zip").exists()
    # Finish quickly: the resumed run reads its budget from the run's config.
    config_file = run / "config.toml"
    config_file.write_text(config_file.read_text().replace("timesteps = 100000",
                                                           "timesteps = 1024"))
    kept = max(int(p.name.split("_")[1]) for p in checkpoints.glob("ckpt_*_steps.zip"))
    assert main(["train", "--resume", str(run)]) == 0
    assert "resuming from ckpt_" in capsys.readouterr().out
    total = json.loads((run / "player" / "stage.json").read_text())["timesteps"]
    assert total >= 1024
    assert main(["train", "--resume", str(run)]) == 0
    assert "done already" in capsys.readouterr().out
    # run.json: the killed start (the steps its checkpoints kept), the one that
    # finished the stage, and the one that found nothing left to do.
    starts = json.loads((run / "run.json").read_text())["starts"]
    assert [(s["outcome"], s["from_step"], s["steps"]) for s in starts] == [
        ("killed", 0, kept), ("finished", kept, total - kept), ("finished", total, 0)]
    assert starts[0]["wall_s"] is None and starts[1]["wall_s"] > 0


def test_steps_short_of_whole_rollouts_are_said_to_round_up(tmp_path: Path, capsys,
                                                            tiny_run_config: Callable) -> None:
    """PPO trains whole rollouts (``run.n_envs x n_steps`` steps): a stage's steps that are
    not a whole number of them are rounded up, and its first lines say so and to what."""
    run = tmp_path / "run"
    assert main(["train", "player", "--config", str(tiny_run_config(tmp_path, 300)),
                 "--run-dir", str(run)]) == 0
    assert ("  player: 300 steps round up to whole rollouts of 256 (run.n_envs 2 x n_steps "
            "128): it trains 512 steps") in capsys.readouterr().out
    assert json.loads((run / "player" / "stage.json").read_text())["timesteps"] == 512


@pytest.mark.parametrize("argv, message", [
    (["train", "--rules", "klondike"], "unknown preset 'klondike'; presets are: catalan"),
    (["train", "--set", "ppo.learning_rat=0.1"], "unknown key 'learning_rat' in [ppo]; keys"),
    (["train", "--set", "player.opponents=['wizard']"], "unknown agent 'wizard'"),
    (["train", "--set", "run.vec_env='threads'"],
     "run.vec_env='threads' is not allowed; choose one of 'views', 'dummy', 'subproc'"),
    (["train", "--resume", "."], "is not a sette training run"),
    (["train", "--resume", "nowhere/at/all"], "does not exist"),
])
def test_errors_name_the_problem_and_the_choices(tmp_path: Path, capsys, monkeypatch,
                                                 argv: list[str], message: str) -> None:
    monkeypatch.chdir(tmp_path)
    try:
        status = main(argv)
    except SystemExit as stop:  # argparse's usage error (--rules names its option)
        status = stop.code
    assert status == 2
    assert message in capsys.readouterr().err


def test_config_files_reject_unknown_sections_and_wrong_types(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("[trainer]\nx = 1\n")
    with pytest.raises(cfg.ConfigError, match=r"unknown section \[trainer\]; sections are"):
        cfg.load(bad)
    bad.write_text("[run]\nn_envs = 'many'\n")
    with pytest.raises(cfg.ConfigError, match="run.n_envs must be an integer"):
        cfg.load(bad)
    assert cfg.from_mapping(cfg.TrainConfig().to_dict()) == cfg.TrainConfig()


def test_a_stage_trains_on_its_own_hands_per_table() -> None:
    """``bank.table_hands`` replaces ``table.table_hands`` for the bank stage's tables only;
    0 leaves the table's (and likewise a stage's ``torch_threads``)."""
    from train.ppo import make_vec_env

    config = cfg.apply_overrides(cfg.TrainConfig(), ["table.table_hands=7", "run.n_envs=4",
                                                     "bank.table_hands=3",
                                                     "player.table_hands=0"])
    assert (config.stage_table_hands("bank"), config.stage_table_hands("player")) == (3, 7)
    defaults = cfg.TrainConfig()  # the player on one torch thread, the bank on the run's two
    assert (defaults.stage_torch_threads("player"), defaults.stage_torch_threads("bank"),
            defaults.run.torch_threads) == (1, 2, 2)
    assert cfg.apply_overrides(defaults, ["player.torch_threads=0"]).stage_torch_threads(
        "player") == 2
    opponents = {"players": [make_agent("careful", rules="catalan")]}
    for hands, expected in ((config.stage_table_hands("bank"), 3), (None, 7)):
        env = make_vec_env("bank", config, opponents, 0, table_hands=hands)
        assert env.venv.venv.table_hands == expected
        env.close()
    # a share of one-hand tables: the batch's first tables, or views of one hand a table
    batch = make_vec_env("bank", config, opponents, 0, table_hands=3, one_hand_tables=0.5)
    assert batch.venv.venv._one_hand.tolist() == [True, True, False, False]
    views = make_vec_env("bank", cfg.apply_overrides(config, ["run.vec_env='views'"]),
                         opponents, 0, table_hands=3, one_hand_tables=0.75)
    assert [view.table_hands for view in views.venv.venv.envs] == [1, 1, 1, 3]


def test_a_run_saved_before_one_hand_tables_resumes_as_it_began(tmp_path: Path) -> None:
    """A run's config.toml written before ``one_hand_tables`` existed trained every table to
    its table_hands: --resume reads 0 there, not today's default; a run that saved the key
    keeps it."""
    from train.pipeline import CONFIG_FILE, RUN_FILE, open_run

    saved = cfg.TrainConfig().to_toml()
    assert "\none_hand_tables = 0.7\n" in saved and "\nbank_one_hand_tables = 0.7\n" in saved
    older = "\n".join(line for line in saved.split("\n")
                      if not line.startswith(("one_hand_tables", "bank_one_hand_tables",
                                              "more_seats", "information_state_imitate =")))
    for text, expected in ((older, 0.0), (saved, 0.7)):
        (tmp_path / CONFIG_FILE).write_text(text)
        (tmp_path / RUN_FILE).write_text(json.dumps({"command": "all"}))
        _command, config, _record = open_run(tmp_path)
        assert (config.bank.one_hand_tables, config.player.one_hand_tables,
                config.selfplay.bank_one_hand_tables) == (expected, 0.0, expected)
        # nor did it train the player otherwise at more seats (StageConfig.more_seats)
        assert config.player.more_seats == ({} if text is older else
                                             cfg.TrainConfig().player.more_seats)
        # nor did its information-state bank first learn the observation bank's choices
        assert config.bank.information_state_imitate is (text is saved)
    assert cfg.load(tmp_path / CONFIG_FILE).bank.one_hand_tables == 0.7  # a config file


def test_a_stage_overrides_ppo_settings_for_itself_only(tmp_path: Path) -> None:
    config_file = tmp_path / "stage.toml"
    config_file.write_text("[ppo]\nlearning_rate = 3e-4\n\n[player]\n"
                           "ppo = { learning_rate = 1e-5, n_epochs = 2 }\n")
    config = cfg.load(config_file)
    assert config.stage_ppo("player").learning_rate == 1e-5
    assert config.stage_ppo("player").n_epochs == 2
    assert config.stage_ppo("bank").learning_rate == 3e-4  # [ppo] itself
    assert cfg.from_mapping(cfg.tomllib.loads(config.to_toml())) == config
    override = cfg.apply_overrides(config, ["bank.ppo.batch_size=64"])
    assert override.stage_ppo("bank").batch_size == 64 and override.ppo.batch_size == 8192
    defaults = cfg.TrainConfig()  # the bank's information-state model: its own actor
    assert defaults.stage_ppo("bank").net_arch == [256, 256]
    assert defaults.stage_ppo("bank", "information_state").net_arch == [64, 64]
    assert defaults.stage_ppo("bank", "information_state").n_epochs == 5  # the stage's
    assert defaults.stage_ppo("bank", "information_state").lr_schedule == "linear"
    assert defaults.stage_ppo("player", "information_state") == defaults.stage_ppo("player")
    with pytest.raises(cfg.ConfigError, match=r"player.ppo: unknown key 'lr'; allowed: activation"):
        cfg.apply_overrides(config, ["player.ppo.lr=0.1"])
    with pytest.raises(cfg.ConfigError, match="bank.ppo.n_steps must be an integer"):
        cfg.apply_overrides(config, ["bank.ppo.n_steps=1.5"])
    with pytest.raises(cfg.ConfigError, match="player.ppo must be a table of"):
        cfg.apply_overrides(config, ["player.ppo=3"])


def test_more_seats_sets_a_stage_at_three_seats_or_more(
        tmp_path: Path, tiny_run_config: Callable) -> None:
    """A stage's ``more_seats``: its steps and PPO keys at tables of three seats or more,
    over the stage's own; heads-up the stage as written (``StageConfig``)."""
    defaults = cfg.TrainConfig()
    assert defaults.stage("player") is defaults.player
    assert (defaults.stage("player").timesteps, defaults.stage_ppo("player").lr_schedule,
            defaults.stage_ppo("player").batch_size) == (2_000_000, "constant", 8192)
    four = cfg.apply_overrides(defaults, ["table.num_seats=4"])
    assert (four.stage("player").timesteps, four.stage_ppo("player").lr_schedule,
            four.stage_ppo("player").batch_size) == (8_000_000, "linear", 2048)
    assert four.player.timesteps == 2_000_000  # the written stage is left alone
    assert (four.stage_ppo("bank").lr_schedule, defaults.stage_ppo("bank").lr_schedule,
            four.stage("bank").timesteps) == ("linear", "constant", 2_000_000)
    assert (four.stage("bank").imitate, defaults.stage("bank").imitate) == ("reader", "")
    plain = cfg.apply_overrides(four, ["bank.more_seats={}"])
    assert plain.stage("bank") is plain.bank  # no more_seats: as written
    bank = cfg.apply_overrides(four, ["bank.more_seats.ppo={ n_epochs = 7 }"]).stage_ppo
    assert (bank("bank").n_epochs, bank("bank").net_arch) == (7, [256, 256])
    assert (bank("bank", "information_state").n_epochs,  # at 4 seats the stage's network
            bank("bank", "information_state").net_arch) == (7, [256, 256])
    assert defaults.stage_ppo("bank", "information_state").net_arch == [64, 64]
    assert (four.stage("bank").information_state_copy,
            defaults.stage("bank").information_state_copy) == (True, False)
    with pytest.raises(cfg.ConfigError, match="--set: player.more_seats: unknown key "
                                              "'n_epochs'; allowed: timesteps, ppo, imitate"):
        cfg.apply_overrides(defaults, ["player.more_seats.n_epochs=4"])
    with pytest.raises(cfg.ConfigError, match=r"player.more_seats.ppo.batch_size=1 is out of "
                                              r"range; allowed: >= 2"):
        cfg.apply_overrides(defaults, ["player.more_seats.ppo={ batch_size = 1 }"])
    run = tmp_path / "run"  # a run at three seats trains more_seats' steps at its rate
    assert main(["train", "player", "--config", str(tiny_run_config(tmp_path, 256)),
                 "--run-dir", str(run), "--seats", "3", "--set",
                 "player.more_seats={ timesteps = 768, ppo = { learning_rate = 0.00321 } }"]) == 0
    from sb3_contrib import MaskablePPO
    model = MaskablePPO.load(run / "player" / "model.zip", device="cpu")
    assert (model.num_timesteps, model.learning_rate) == (768, pytest.approx(0.00321))
    assert json.loads((run / "player" / "stage.json").read_text())["timesteps"] == 768


def test_more_seats_sets_the_information_state_model_and_the_selfplay_rounds() -> None:
    """``more_seats`` also sets how the information-state model starts and trains, and the
    self-play rounds' ``selfplay_ppo`` (its ``[ppo]`` tables key by key over the stage's)."""
    defaults = cfg.TrainConfig()
    assert defaults.stage_ppo("bank", selfplay=True) == defaults.stage_ppo("bank")
    four = cfg.apply_overrides(defaults, [
        "table.num_seats=4", "bank.selfplay_ppo={ n_epochs = 2, learning_rate = 1e-4 }",
        "bank.more_seats={ information_state_ppo = { n_epochs = 3, net_arch = [256, 256] }, "
        "information_state_copy "
        "= true, information_state_imitate = false, selfplay_ppo = { learning_rate = 5e-5 } }"])
    stage = four.stage("bank")
    assert (stage.information_state_copy, stage.information_state_imitate) == (True, False)
    assert stage.information_state_ppo == {"net_arch": [256, 256], "lr_schedule": "linear",
                                           "n_epochs": 3}
    assert stage.selfplay_ppo == {"n_epochs": 2, "learning_rate": 5e-5}
    rounds = four.stage_ppo("bank", selfplay=True)
    assert (rounds.learning_rate, rounds.n_epochs, rounds.net_arch) == (5e-5, 2, [256, 256])
    heads_up = cfg.apply_overrides(four, ["table.num_seats=2"])
    assert heads_up.stage_ppo("bank", selfplay=True).learning_rate == 1e-4
    assert not heads_up.stage("bank").information_state_copy


def test_the_selfplay_rounds_train_at_their_own_rate(tmp_path: Path,
                                                     tiny_run_config: Callable) -> None:
    """``[bank] selfplay_ppo``: the bank's self-play rounds train on those keys (the saved
    round's rate), the player's on the player stage's."""
    run = tmp_path / "run"
    assert main(["train", "selfplay", "--config", str(tiny_run_config(tmp_path)),
                 "--run-dir", str(run), "--set", "bank.selfplay_ppo={ learning_rate = 0.00123 }",
                 "--set", "player.ppo={ learning_rate = 0.00456 }"]) == 0
    from sb3_contrib import MaskablePPO
    rates = {role: MaskablePPO.load(run / "selfplay" / f"round1-{role}" / "model.zip",
                                    device="cpu").learning_rate for role in ("player", "bank")}
    assert rates == {"player": pytest.approx(0.00456), "bank": pytest.approx(0.00123)}


def test_the_player_stage_trains_with_its_own_learning_rate(
        tmp_path: Path, tiny_run_config: Callable) -> None:
    run = tmp_path / "run"
    assert main(["train", "player", "--config", str(tiny_run_config(tmp_path, 256)),
                 "--run-dir", str(run), "--set", "player.ppo.learning_rate=0.00123"]) == 0
    from sb3_contrib import MaskablePPO
    model = MaskablePPO.load(run / "player" / "model.zip", device="cpu")
    assert model.learning_rate == pytest.approx(0.00123)
    assert "learning_rate = 0.00123" in (run / "config.toml").read_text()


def test_a_linear_learning_rate_falls_over_the_stage(
        tmp_path: Path, tiny_run_config: Callable) -> None:
    """``ppo.lr_schedule = "linear"``: the stage's rate at its start, half of it halfway and
    0 by its end (the saved optimizer holds the rate of the last update, which SB3 makes
    after the last rollout, with no progress left)."""
    runs = {}
    for schedule in ("constant", "linear"):
        runs[schedule] = tmp_path / schedule
        assert main(["train", "player", "--config", str(tiny_run_config(tmp_path, 256)),
                     "--run-dir", str(runs[schedule]), "--set", "ppo.learning_rate=0.001",
                     "--set", f"ppo.lr_schedule={schedule}"]) == 0
    from sb3_contrib import MaskablePPO
    last = {}
    for schedule, run in runs.items():
        model = MaskablePPO.load(run / "player" / "model.zip", device="cpu")
        assert model.lr_schedule(1.0) == pytest.approx(0.001)
        assert model.lr_schedule(0.5) == pytest.approx(0.001 if schedule == "constant"
                                                       else 0.0005)
        last[schedule] = model.policy.optimizer.param_groups[0]["lr"]
    assert last["constant"] == pytest.approx(0.001)
    assert last["linear"] == 0.0


def test_subprocess_vectorisation_trains(tmp_path: Path, tiny_run_config: Callable) -> None:
    run = tmp_path / "run"
    assert main(["train", "player", "--config", str(tiny_run_config(tmp_path, 256)),
                 "--run-dir", str(run), "--set", "run.vec_env='subproc'"]) == 0
    assert (run / "player" / "model.zip").is_file()
    assert np.isfinite(json.loads((run / "player" / "stage.json").read_text())["env_share"])


def test_the_information_state_stage_alone_gathers_its_inputs_and_repeats_for_a_seed(
        tmp_path: Path, monkeypatch, tiny_run_config: Callable) -> None:
    """The bank on the information state, and no other stage, computes its first layers
    over the columns in use (``MaskedMlpPolicy.gather_active_inputs``); two runs of one
    seed train it to the same bits."""
    from envs.observer import observation_size
    from train.masked_policy import MaskedMlpPolicy

    widths: set[int] = set()
    gathered = MaskedMlpPolicy._gathered_latents

    def spy(self: MaskedMlpPolicy, features: Any) -> Any:
        widths.add(features.shape[1])
        return gathered(self, features)

    monkeypatch.setattr(MaskedMlpPolicy, "_gathered_latents", spy)
    tiny = str(tiny_run_config(tmp_path))
    weights = []
    for name in ("one", "two"):
        assert main(["train", "bank", "--config", tiny, "--run-dir", str(tmp_path / name)]) == 0
        with zipfile.ZipFile(tmp_path / name / "bank-information-state" / "model.zip") as z:
            weights.append(z.read("policy.pth"))
    assert len(widths) == 1 and widths.pop() > observation_size(2)  # the information state
    assert weights[0] == weights[1]
