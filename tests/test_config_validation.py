"""``sette train`` checks every config key before anything runs (issue 10, "Validate every
setting before anything runs").

``BAD`` holds one bad value for every key of :class:`train.config.TrainConfig`, and
each is rejected, from ``--set`` and from a config file, with one line naming the key
and what was wrong, before any run directory exists. A key added without a bad
value here fails :func:`test_every_key_has_a_bad_value`; one added without a
check fails the walk.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from train import config as cfg
from train.cli import build_parser, main

# key -> (a bad value in TOML syntax, what the one-line error must say)
BAD: dict[str, tuple[str, str]] = {
    "table.rules": ("'klondike'", "table.rules: unknown preset 'klondike'; presets are: catalan"),
    "table.num_seats": ("1", "table.num_seats=1 is out of range; allowed: 2.."),
    "table.table_hands": ("0", "table.table_hands=0 is out of range; allowed: >= 1"),
    "ppo.learning_rate": ("-1", "ppo.learning_rate=-1 is out of range; allowed: > 0 and <= 1"),
    "ppo.lr_schedule": ("'cosine'", "ppo.lr_schedule='cosine' is not allowed; choose one of "
                                    "'constant', 'linear'"),
    "ppo.n_steps": ("1", "ppo.n_steps=1 is out of range; allowed: >= 2"),
    "ppo.batch_size": ("1", "ppo.batch_size=1 is out of range; allowed: >= 2"),
    "ppo.n_epochs": ("0", "ppo.n_epochs=0 is out of range; allowed: >= 1"),
    "ppo.gamma": ("5", "ppo.gamma=5 is out of range; allowed: 0..1"),
    "ppo.gae_lambda": ("nan", "ppo.gae_lambda=nan must be a finite number; allowed: 0..1"),
    "ppo.clip_range": ("0", "ppo.clip_range=0 is out of range; allowed: > 0 and <= 1"),
    "ppo.ent_coef": ("-0.5", "ppo.ent_coef=-0.5 is out of range; allowed: >= 0"),
    "ppo.vf_coef": ("'high'", "ppo.vf_coef must be a number, got 'high'"),
    "ppo.max_grad_norm": ("0", "ppo.max_grad_norm=0 is out of range; allowed: > 0"),
    "ppo.net_arch": ("[64, 0]", "ppo.net_arch[1]=0 is out of range; allowed: >= 1"),
    "ppo.vf_net_arch": ("64", "ppo.vf_net_arch must be a list of layer sizes such as "
                              "[64, 64], got 64"),
    "ppo.activation": ("'sigmoid'", "ppo.activation='sigmoid' is not allowed; choose one of "
                                    "'tanh', 'relu'"),
    "run.seed": ("-1", "run.seed=-1 is out of range; allowed: >= 0"),
    "run.n_envs": ("0", "run.n_envs=0 is out of range; allowed: >= 1"),
    "run.vec_env": ("'threads'", "run.vec_env='threads' is not allowed; choose one of 'views'"),
    "run.torch_threads": ("0", "run.torch_threads=0 is out of range; allowed: >= 1"),
    "run.checkpoint_every": ("-1", "run.checkpoint_every=-1 is out of range; allowed: >= 1"),
    "run.eval_every": ("0", "run.eval_every=0 is out of range; allowed: >= 1"),
    "run.eval_hands": ("2.5", "run.eval_hands must be an integer, got 2.5"),
    "run.progress_bar": ("'yes'", "run.progress_bar must be true or false, got 'yes'"),
    "player.timesteps": ("-5", "player.timesteps=-5 is out of range; allowed: >= 1"),
    "player.opponents": ("['wizard']", "player.opponents: unknown agent 'wizard'"),
    "player.table_players": ("[]", "player.table_players must be a non-empty list of agent "
                                   "specs"),
    "player.ppo": ("3", "player.ppo must be a table of [ppo] keys, got 3"),
    "player.information_state_model": ("1", "player.information_state_model must be true or "
                                            "false, got 1"),
    "player.information_state_ppo": ("[1]", "player.information_state_ppo must be a table "
                                            "of [ppo] keys, got [1]"),
    "player.torch_threads": ("-2", "player.torch_threads=-2 is out of range; allowed: >= 0"),
    "player.table_hands": ("-1", "player.table_hands=-1 is out of range; allowed: >= 0"),
    "player.imitate": ("5", "player.imitate must be an agent spec such as 'reader', or '' "
                            "for none, got 5"),
    "player.imitate_steps": ("0", "player.imitate_steps=0 is out of range; allowed: >= 1"),
    "player.imitate_epochs": ("1.5", "player.imitate_epochs must be an integer, got 1.5"),
    "player.information_state_imitate": ("'yes'", "player.information_state_imitate must be "
                                                  "true or false, got 'yes'"),
    "player.information_state_imitate_steps": ("0", "player.information_state_imitate_steps=0 "
                                                    "is out of range; allowed: >= 1"),
    "player.information_state_imitate_epochs": ("2.5", "player.information_state_imitate_epochs "
                                                       "must be an integer, got 2.5"),
    "player.information_state_copy": ("'no'", "player.information_state_copy must be true "
                                              "or false, got 'no'"),
    "player.selfplay_ppo": ("{ net_arch = [32] }", "player.selfplay_ppo: unknown key "
                            "'net_arch'; allowed: batch_size, clip_range"),
    "player.more_seats": ("{ n_epochs = 4 }", "player.more_seats: unknown key 'n_epochs'; "
                                              "allowed: timesteps, ppo, imitate, "
                                              "information_state_ppo, information_state_imitate, "
                                              "information_state_copy, selfplay_ppo"),
    "player.one_hand_tables": ("1.5", "player.one_hand_tables=1.5 is out of range; "
                                      "allowed: 0..1"),
    "bank.timesteps": ("0", "bank.timesteps=0 is out of range; allowed: >= 1"),
    "bank.opponents": ("['threshold:99']", "bank.opponents: threshold 99.0 is outside "
                                           "0.5..7.5 points"),
    "bank.table_players": ("['careful:x']", "bank.table_players: agent spec 'careful:x': "
                                            "'x' is not a number"),
    "bank.ppo": ("{ lr = 0.1 }", "bank.ppo: unknown key 'lr'; allowed: activation"),
    "bank.information_state_model": ("'yes'", "bank.information_state_model must be true or "
                                              "false, got 'yes'"),
    "bank.information_state_ppo": ("{ net_arch = [0] }", "bank.information_state_ppo."
                                   "net_arch[0]=0 is out of range; allowed: >= 1"),
    "bank.torch_threads": ("'two'", "bank.torch_threads must be an integer, got 'two'"),
    "bank.table_hands": ("2.5", "bank.table_hands must be an integer, got 2.5"),
    "bank.imitate": ("'wizard'", "bank.imitate: unknown agent 'wizard'"),
    "bank.imitate_steps": ("-1", "bank.imitate_steps=-1 is out of range; allowed: >= 1"),
    "bank.imitate_epochs": ("0", "bank.imitate_epochs=0 is out of range; allowed: >= 1"),
    "bank.information_state_imitate": ("1", "bank.information_state_imitate must be true or "
                                            "false, got 1"),
    "bank.information_state_imitate_steps": ("-5", "bank.information_state_imitate_steps=-5 "
                                                   "is out of range; allowed: >= 1"),
    "bank.information_state_imitate_epochs": ("0", "bank.information_state_imitate_epochs=0 "
                                                   "is out of range; allowed: >= 1"),
    "bank.information_state_copy": ("2", "bank.information_state_copy must be true or "
                                         "false, got 2"),
    "bank.selfplay_ppo": ("{ learning_rate = 0 }", "bank.selfplay_ppo.learning_rate=0 is out "
                                                   "of range; allowed: > 0"),
    "bank.more_seats": ("{ timesteps = 0 }", "bank.more_seats.timesteps=0 is out of range; "
                                             "allowed: >= 1"),
    "bank.one_hand_tables": ("'half'", "bank.one_hand_tables must be a number, got 'half'"),
    "selfplay.rounds": ("-1", "selfplay.rounds=-1 is out of range; allowed: >= 0"),
    "selfplay.player_timesteps": ("0", "selfplay.player_timesteps=0 is out of range"),
    "selfplay.bank_timesteps": ("-3", "selfplay.bank_timesteps=-3 is out of range"),
    "selfplay.pool_size": ("-1", "selfplay.pool_size=-1 is out of range; allowed: >= 0"),
    "selfplay.bank_one_hand_tables": ("-0.1", "selfplay.bank_one_hand_tables=-0.1 is out of "
                                              "range; allowed: 0..1"),
    "selfplay.banks": ("['reader', 'wizard']", "selfplay.banks: unknown agent 'wizard'"),
    "selfplay.players": ("'careful'", "selfplay.players must be a non-empty list of agent "
                                      "specs such as 'careful' or 'threshold:5', got 'careful'"),
    "evaluate.hands": ("0", "evaluate.hands=0 is out of range; allowed: >= 1"),
    "evaluate.seed": ("-2", "evaluate.seed=-2 is out of range; allowed: >= 0"),
    "evaluate.thresholds": ("[99]", "evaluate.thresholds: threshold 99.0 is outside "
                                    "0.5..7.5 points"),
    "evaluate.bank_for_players": ("'wizard'", "evaluate.bank_for_players: unknown agent "
                                              "'wizard'"),
    "evaluate.player_for_banks": ("''", "evaluate.player_for_banks must be an agent spec "
                                        "such as 'careful' or 'threshold:5', got ''"),
}
PPO_KEYS = [f.name for f in dataclasses.fields(cfg.PPOConfig)]
STAGE_PPO = {f"{role}.ppo.{key}": (BAD[f"ppo.{key}"][0],
                                   BAD[f"ppo.{key}"][1].replace("ppo.", f"{role}.ppo.", 1))
             for role in ("player", "bank") for key in PPO_KEYS}
CASES = {**BAD, **STAGE_PPO}


def test_every_key_has_a_bad_value() -> None:
    """A key added to the config needs a bad value here (and so a check that rejects it)."""
    assert sorted(BAD) == sorted(where for where, _f, _v in cfg.keys(cfg.TrainConfig()))


def _toml(key: str, text: str) -> str:
    section, _, rest = key.partition(".")
    name, _, subkey = rest.partition(".")
    return f"[{section}]\n" + (f"{name} = {{ {subkey} = {text} }}\n" if subkey
                               else f"{name} = {text}\n")


@pytest.mark.parametrize("key", sorted(CASES))
def test_a_bad_value_is_named_before_any_run_directory(tmp_path: Path, monkeypatch, capsys,
                                                       key: str) -> None:
    text, message = CASES[key]
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bad.toml").write_text(_toml(key, text))
    for source, argv in (("--set", ["--set", f"{key}={text}"]),
                         ("config file 'bad.toml'", ["--config", "bad.toml"])):
        assert main(["train", *argv, "--run-dir", "run"]) == 2, source
        out, err = capsys.readouterr()
        assert err.startswith(f"sette train: error: {source}: {message}"), err
        assert err.count("\n") == 1, err  # one line
        assert out == ""
        assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.toml"], "no run directory"


def test_the_issue_examples_fail_at_once(tmp_path: Path, monkeypatch, capsys) -> None:
    """The four settings of issue 10 that trained (or "succeeded") before failing."""
    monkeypatch.chdir(tmp_path)
    for setting, message in (
            ("ppo.learning_rate=-1", "ppo.learning_rate=-1 is out of range; allowed: > 0"),
            ("player.timesteps=-5", "player.timesteps=-5 is out of range; allowed: >= 1"),
            ("ppo.gamma=5", "ppo.gamma=5 is out of range; allowed: 0..1"),
            ("evaluate.thresholds=[99]", "evaluate.thresholds: threshold 99.0 is outside")):
        assert main(["train", "--set", setting]) == 2
        assert message in capsys.readouterr().err
        assert not (tmp_path / "runs").exists()


def test_the_information_state_model_starts_one_way_from_the_same_network(
        tmp_path: Path, monkeypatch, capsys) -> None:
    """``information_state_copy`` with ``information_state_imitate``, or with a network of
    another shape than the stage's, is refused by name before any run (at three seats or
    more, under the ``more_seats`` key that set it)."""
    monkeypatch.chdir(tmp_path)
    copy = "bank.information_state_copy=true"
    for argv, message in (
            (["--set", copy],
             "bank.information_state_copy=true and bank.information_state_imitate=true: the "
             "information-state model starts from the observation model's weights or learns "
             "its choices; set one of them to false"),
            (["--set", copy, "--set", "bank.information_state_imitate=false"],
             "bank.information_state_copy=true needs the same network on both models, but "
             "bank.information_state_ppo.net_arch = [64, 64] where the stage's is [256, 256]"),
            (["--seats", "3", "--set", "bank.more_seats={ information_state_copy = true, "
              "information_state_imitate = false, information_state_ppo = { net_arch = "
              "[256, 256], activation = 'relu' } }"],
             "bank.more_seats.information_state_copy=true needs the same network on both "
             "models, but bank.more_seats.information_state_ppo.activation = 'relu' where the "
             "stage's is 'tanh'"),
            (["--seats", "3", "--set", "bank.more_seats={ information_state_copy = true, "
              "information_state_imitate = false, information_state_ppo = { learning_rate = "
              "1e-4 } }"],  # more_seats's table leaves net_arch to bank.information_state_ppo
             "bank.more_seats.information_state_copy=true needs the same network on both "
             "models, but bank.information_state_ppo.net_arch = [64, 64] where the stage's is "
             "[256, 256]")):
        assert main(["train", *argv, "--run-dir", "run"]) == 2
        assert message in capsys.readouterr().err
        assert not (tmp_path / "run").exists()
    # the same networks and no imitation: a valid config
    cfg.validate(cfg.apply_overrides(cfg.TrainConfig(), [
        copy, "bank.information_state_imitate=false", "bank.information_state_ppo={}"]))


def test_the_default_config_and_its_toml_are_valid() -> None:
    config = cfg.TrainConfig()
    cfg.validate(config)
    assert cfg.from_mapping(cfg.tomllib.loads(config.to_toml())) == config


def test_selfplay_alone_needs_a_round(tmp_path: Path, monkeypatch, capsys) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["train", "selfplay", "--set", "selfplay.rounds=0"]) == 2
    assert "selfplay.rounds=0: 'sette train selfplay'" in capsys.readouterr().err
    assert not (tmp_path / "runs").exists()


def test_new_run_validates_a_config_built_in_python(tmp_path: Path) -> None:
    """``python -m train.results`` builds its config in Python: new_run checks it too."""
    from train.pipeline import new_run

    config = cfg.TrainConfig()
    config.ppo.gamma = 5.0
    with pytest.raises(cfg.ConfigError, match=r"ppo.gamma=5.0 is out of range; allowed: 0..1"):
        new_run("all", config, tmp_path / "run")
    assert not (tmp_path / "run").exists()


def test_resume_rechecks_the_run_config(tmp_path: Path, monkeypatch, capsys) -> None:
    """A run's config.toml edited to a bad value is named when resuming, before training."""
    from train.pipeline import new_run

    run = new_run("player", cfg.TrainConfig(), tmp_path / "run")
    config_file = run / "config.toml"
    config_file.write_text(config_file.read_text().replace("gamma = 1.0", "gamma = 5.0"))
    record = json.loads((run / "run.json").read_text())
    assert main(["train", "--resume", str(run)]) == 2
    err = capsys.readouterr().err
    assert f"config file {str(config_file)!r}: ppo.gamma=5.0 is out of range" in err
    assert json.loads((run / "run.json").read_text()) == record  # nothing started
    assert sorted(p.name for p in run.iterdir()) == ["config.toml", "run.json"]


def test_train_and_evaluate_default_to_the_same_number_of_seats() -> None:
    """A model ``sette train`` makes by default is evaluated at its table by default."""
    evaluate = build_parser().parse_args(["evaluate", "random"])
    assert evaluate.seats == cfg.TrainConfig().table.num_seats == 2
