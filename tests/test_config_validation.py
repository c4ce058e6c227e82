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


def _model(folder: Path, role: str, seats: int = 2, observation_type: str = "observation"
           ) -> str:
    """A model spec: ``folder`` holding a model of ``role`` made without training, for
    ``seats`` at the training tables (the bank kept on one seat), on ``observation_type``."""
    from agents.learned import ModelInfo
    from envs.actions import ActionLayout
    from envs.information_state import information_state_bounds
    from envs.observer import observation_size
    from envs.rules import Rules
    from envs.single_seat import fixed_bank_rules
    from tests.models import tiny_model

    rules = Rules.preset("catalan")
    size = (observation_size(seats) if observation_type == "observation" else
            len(information_state_bounds(fixed_bank_rules(rules), seats)[0]))
    folder.mkdir()
    tiny_model(folder, ModelInfo(role=role, rules="catalan", num_seats=seats,
                                 observation_size=size,
                                 action_names=tuple(ActionLayout(tuple(rules.bet_ladder)).names),
                                 net_arch=(4,), activation="tanh", timesteps=0,
                                 rules_values=rules.to_dict(),
                                 observation_type=observation_type))
    return str(folder)


def test_a_model_that_cannot_sit_where_a_key_seats_it_is_named_before_any_run(
        tmp_path: Path, monkeypatch, capsys) -> None:
    """A model of another table, of the other role, or (at the training tables, which give
    their opponents observations) of the information state is named with its key before a
    run directory exists: not after the stages trained, nor trained against in silence."""
    pytest.importorskip("torch")
    monkeypatch.chdir(tmp_path)
    player, bank = _model(tmp_path / "player", "player"), _model(tmp_path / "bank", "bank")
    three = _model(tmp_path / "three", "player", seats=3)
    recall = _model(tmp_path / "recall", "bank", observation_type="information_state")
    for setting, message in (
            (f"evaluate.player_for_banks={three}",
             f"evaluate.player_for_banks: model {three} was trained for 3 seats, not 2"),
            (f"player.opponents=['{recall}']",
             f"player.opponents: '{recall}' was trained on the information state, but the "
             f"training tables give their banks observations"),
            (f"player.opponents=['{player}']",
             f"player.opponents: model {player} was trained as the player, not as the bank"),
            (f"bank.opponents=['{bank}']",
             f"bank.opponents: model {bank} was trained as the bank, not as the player"),
            (f"selfplay.banks=['{player}']",
             f"selfplay.banks: model {player} was trained as the player, not as the bank"),
            (f"evaluate.bank_for_players={player}",
             f"evaluate.bank_for_players: model {player} was trained as the player"),
            (f"bank.imitate={player}",
             f"bank.imitate: model {player} was trained as the player, not as the bank")):
        assert main(["train", "--set", setting, "--run-dir", "run"]) == 2, setting
        err = capsys.readouterr().err
        assert err.startswith(f"sette train: error: --set: {message}"), err
        assert err.count("\n") == 1, err
        assert not (tmp_path / "run").exists()
    # where they fit: each role's model in its role, the information-state bank where
    # each model is given what it was trained on (the closing comparison)
    cfg.validate(cfg.apply_overrides(cfg.TrainConfig(), [
        f"player.opponents=['{bank}']", f"bank.opponents=['{player}', 'careful|{bank}']",
        f"evaluate.bank_for_players={recall}", f"selfplay.players=['{player}']"]))


@pytest.mark.parametrize("argv, message", [
    (["--seed", "-1"], "argument --seed: -1 must be at least 0"),
    (["--seats", "1"], "argument --seats: 1 is not a table size; allowed: 2..16"),
    (["--rules", "klondike"], "argument --rules: unknown preset 'klondike'; presets are: "
                              "catalan"),
    (["--seats", "9"], "argument --seats with rules 'catalan': num_seats=9 is out of range; "
                       "allowed: 2..8 with decks=1"),
])
def test_the_table_options_are_named_as_typed(tmp_path: Path, monkeypatch, capsys,
                                              argv: list[str], message: str) -> None:
    """``--seed``, ``--seats`` and ``--rules`` set one key each; an error names the option
    the user typed, not ``--set`` (as ``sette play --seed -1`` does)."""
    monkeypatch.chdir(tmp_path)
    try:
        status = main(["train", *argv, "--run-dir", "run"])
    except SystemExit as stop:  # argparse's usage error
        status = stop.code
    assert status == 2
    error = capsys.readouterr().err.splitlines()[-1]  # after argparse's usage, if any
    assert error.startswith(f"sette train: error: {message}") and "--set" not in error, error
    assert not (tmp_path / "run").exists()


def test_a_stage_key_set_by_the_user_wins_over_more_seats(tmp_path: Path) -> None:
    """At three seats or more a stage's built-in ``more_seats`` replaces its keys; a key the
    user names for the stage (``--set`` or a config file) is taken as named there too,
    ``[ppo]`` keys one by one, while ``more_seats`` named with it keeps its say."""
    three = cfg.apply_overrides(cfg.TrainConfig(), ["table.num_seats=3"])
    assert three.stage("player").timesteps == 8_000_000  # the built-in, left as it was
    assert three.player.more_seats == cfg.TrainConfig().player.more_seats
    mine = cfg.apply_overrides(three, ["player.timesteps=512", "player.ppo.batch_size=4096",
                                       "bank.imitate=''"])
    assert (mine.stage("player").timesteps, mine.stage_ppo("player").batch_size,
            mine.stage_ppo("player").lr_schedule, mine.stage("bank").imitate) == (
        512, 4096, "linear", "")
    assert mine.stage("bank").information_state_copy  # a key not named: more_seats'
    file = tmp_path / "mine.toml"
    file.write_text("[table]\nnum_seats = 4\n[player]\ntimesteps = 1024\n")
    assert cfg.load(file).stage("player").timesteps == 1024
    both = cfg.apply_overrides(three, ["player.timesteps=512",
                                       "player.more_seats.timesteps=768"])
    assert (both.stage("player").timesteps, both.player.timesteps) == (768, 512)
    saved = cfg.from_mapping(cfg.tomllib.loads(mine.to_toml()))  # a run's config.toml
    assert saved == mine and saved.stage("player").timesteps == 512


def test_a_file_that_cannot_be_read_is_named(tmp_path: Path, monkeypatch, capsys) -> None:
    """A config file that is a folder or not UTF-8, and a ``--resume`` of a file, or of a
    run whose ``run.json`` is no record, is one line naming the file, before anything runs."""
    from train.pipeline import new_run

    monkeypatch.chdir(tmp_path)
    (tmp_path / "latin1.toml").write_bytes(b"[run]\nseed = 3 # \xff\n")
    (tmp_path / "top.toml").write_text("seed = 3\n")
    run = new_run("player", cfg.TrainConfig(), tmp_path / "run")
    record = run / "run.json"
    for argv, text, message in (
            (["--config", "."], None, "config file '.' is a folder, not a file"),
            (["--config", "latin1.toml"], None,
             "config file 'latin1.toml' is not UTF-8 text: 'utf-8' codec can't decode"),
            (["--config", "top.toml"], None,
             "config file 'top.toml': seed = 3 is a key outside any section; it is a key "
             "of [run]: put it under [run]"),
            (["--resume", str(record)], None,
             f"{str(record)!r} is a file; --resume takes the run directory that holds it "
             f"({str(run)!r})"),
            (["--resume", str(run)], "{", f"run record {str(record)!r} is not valid JSON"),
            (["--resume", str(run)], "[]", f"run record {str(record)!r} is not a sette "
                                           f"training record: it holds a JSON list"),
            (["--resume", str(run)], "{}", f"run record {str(record)!r} is not a sette "
                                           f"training record: its 'command' is None"),
            (["--resume", str(run)], '{"command": "player"}',
             f"run record {str(record)!r} needs 'stage_seeds' as a list of 6 whole numbers")):
        if text is not None:
            record.write_text(text)
        assert main(["train", *argv]) == 2, argv
        out, err = capsys.readouterr()
        assert err.startswith(f"sette train: error: {message}"), err
        assert err.count("\n") == 1, err
        assert sorted(p.name for p in run.iterdir()) == ["config.toml", "run.json"]


def test_a_run_keeps_its_rules_file(tmp_path: Path, monkeypatch, capsys) -> None:
    """A rules file given by a relative path is kept by its absolute one, so ``--resume``
    works from any folder; a file edited since the run began is refused by name and
    switch (the run would go on at another table than the one it began at)."""
    from envs.rules import Rules
    from train.pipeline import new_run, open_run

    (tmp_path / "here").mkdir()
    monkeypatch.chdir(tmp_path / "here")
    rules = Path("house.toml")
    rules.write_text(Rules.preset("catalan").to_toml())
    config = cfg.apply_overrides(cfg.TrainConfig(), ["table.rules='house.toml'"])
    run = new_run("player", config, tmp_path / "run")
    monkeypatch.chdir(tmp_path)
    _command, resumed, _record = open_run(run)
    assert resumed.table.rules == str(tmp_path / "here" / "house.toml")
    edited = rules_text = (tmp_path / "here" / "house.toml").read_text()
    edited = rules_text.replace("natural_pays = 2", "natural_pays = 3")
    assert edited != rules_text
    (tmp_path / "here" / "house.toml").write_text(edited)
    assert main(["train", "--resume", str(run)]) == 2
    err = capsys.readouterr().err
    assert (f"rules file {str(tmp_path / 'here' / 'house.toml')!r} has changed since the run "
            f"began (natural_pays = 3, was 2)") in err, err
    assert sorted(p.name for p in run.iterdir()) == ["config.toml", "run.json"]


def test_a_run_recorded_before_its_rules_values_says_its_rules_file_went_unchecked(
        tmp_path: Path, capsys) -> None:
    """A run whose run.json was written before sette kept the rules' switches
    (``rules_values``) has nothing to hold its rules file to: resuming it says so, once, on
    stderr; a run that kept them, or one on a preset, says nothing."""
    from envs.rules import Rules
    from train.pipeline import RUN_FILE, new_run, open_run

    rules = tmp_path / "house.toml"
    rules.write_text(Rules.preset("catalan").to_toml())
    config = cfg.apply_overrides(cfg.TrainConfig(), [f"table.rules={str(rules)!r}"])
    run = new_run("player", config, tmp_path / "run")
    preset = new_run("player", cfg.TrainConfig(), tmp_path / "preset")
    for folder in (run, preset):
        open_run(folder)
        assert capsys.readouterr().err == ""
        record = json.loads((folder / RUN_FILE).read_text())
        del record["rules_values"]
        (folder / RUN_FILE).write_text(json.dumps(record))
    open_run(preset)
    assert capsys.readouterr().err == ""
    open_run(run)
    assert capsys.readouterr().err == (
        f"rules file {str(rules)!r} could not be compared with the rules the run began on: "
        f"its record {str(run / RUN_FILE)!r} was written before sette kept them "
        f"('rules_values'); the file is read as it is now\n")


def test_a_new_run_refuses_a_folder_that_holds_another_runs_stages(tmp_path: Path,
                                                                    capsys) -> None:
    """A folder with a stage's model (or any stage folder) but no run.json is no run to
    resume, and a new run there would take the model for its own stage's, done already:
    it is refused by name before anything is written, saying what to do."""
    run = tmp_path / "run"
    (run / "player").mkdir(parents=True)
    (run / "player" / "model.zip").write_bytes(b"another run's model")
    (run / "selfplay" / "round1-bank").mkdir(parents=True)
    assert main(["train", "player", "--run-dir", str(run),
                 "--set", "player.timesteps=256"]) == 2
    out, err = capsys.readouterr()
    assert err == (f"sette train: error: {str(run)!r} already holds player/, selfplay/ but no "
                   f"run.json: a new run there would go on from what they hold as its own; "
                   f"choose another --run-dir (a run that has its run.json goes on with "
                   f"--resume)\n"), (out, err)
    assert sorted(p.name for p in run.iterdir()) == ["player", "selfplay"]
    assert (run / "player" / "model.zip").read_bytes() == b"another run's model"


def test_the_help_and_the_messages_say_how_to_set_what_they_name(tmp_path: Path, monkeypatch,
                                                                 capsys) -> None:
    """``--seats``' help gives each backend's default table; ``--timesteps`` without
    ``--backend rllib`` says how the stages take their steps."""
    from train.rllib_train import RLlibSettings

    with pytest.raises(SystemExit):
        main(["train", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert (f"(table.num_seats, default {cfg.TrainConfig().table.num_seats}; "
            f"{RLlibSettings().num_seats} with --backend rllib;") in text
    monkeypatch.chdir(tmp_path)
    assert main(["train", "player", "--timesteps", "2048"]) == 2
    assert ("--timesteps: only --backend rllib takes this (a stage's steps are --set "
            "player.timesteps=N, bank.timesteps=N") in capsys.readouterr().err
    assert not (tmp_path / "runs").exists()
