"""Model files never run code: a crafted ``model.zip`` is refused or ignored, never unpickled.

A real (tiny) run is trained once; crafted copies of its files carry a
pickled payload that creates a marker file when unpickled — in SB3's ``data``
entry and as ``policy.pth`` — and every way of loading a model (the loader,
``model:PATH``, ``sette evaluate``, ``sette train --resume``) must leave the
marker absent. Without ``--trust-model`` a zip lacking the description is
refused with a message that names the option; with it, such a file loads the
old way.
"""

from __future__ import annotations

import base64
import io
import json
import pickle
import shutil
import zipfile
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from agents import make_agent
from agents.learned import INFO_ENTRY, TRUST_ENV, ModelInfo, load_model, read_info
from envs.actions import ACTION_LAYOUT_VERSION
from envs.single_seat import PlayerEnv
from train.cli import main

class Payload:
    """Unpickling it opens (so creates) the marker file: what a crafted model could do."""

    def __init__(self, marker: Path) -> None:
        self.marker = str(marker)

    def __reduce__(self) -> tuple:
        return (open, (self.marker, "w"))


@pytest.fixture(autouse=True)
def untrusted(monkeypatch: pytest.MonkeyPatch) -> None:
    """No test trusts model files unless it says so (``main`` sets the variable for good)."""
    monkeypatch.setenv(TRUST_ENV, "")


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory, tiny_run_config: Callable) -> Path:
    """A run whose player stage trained 512 steps on catalan, 2 seats."""
    root = tmp_path_factory.mktemp("safety")
    assert main(["train", "player", "--config", str(tiny_run_config(root)),
                 "--run-dir", str(root / "run")]) == 0
    return root / "run"


def _rewrite(source: Path, target: Path, replace: dict[str, bytes],
             drop: tuple[str, ...] = ()) -> Path:
    """A copy of a model zip with some entries replaced and some left out."""
    with zipfile.ZipFile(source) as old, zipfile.ZipFile(target, "w") as new:
        for name in old.namelist():
            if name not in drop:
                new.writestr(name, replace.get(name, old.read(name)))
    return target


def _poisoned_data(model: Path, marker: Path) -> bytes:
    """SB3's ``data`` entry with a cloudpickled payload where the observation space was."""
    with zipfile.ZipFile(model) as archive:
        data = json.loads(archive.read("data"))
    data["observation_space"][":serialized:"] = base64.b64encode(
        pickle.dumps(Payload(marker))).decode()
    return json.dumps(data).encode()


def _poisoned_weights(marker: Path) -> bytes:
    import torch

    buffer = io.BytesIO()
    torch.save({"weights": Payload(marker)}, buffer)
    return buffer.getvalue()


def test_every_saved_model_and_checkpoint_describes_itself(run: Path) -> None:
    files = [run / "player" / "model.zip",
             *sorted((run / "player" / "checkpoints").glob("ckpt_*_steps.zip"))]
    assert len(files) >= 2
    env = PlayerEnv("catalan", 2, opponents="reader")
    for file in files:
        info = read_info(file)
        assert info is not None, file
        assert (info.role, info.rules, info.num_seats) == ("player", "catalan", 2)
        assert info.observation_size == env.observation_space.shape[0]
        assert list(info.action_names) == env.get_action_meanings()
        assert (info.net_arch, info.activation) == ((16, 16), "tanh")
        assert info.rules_values["bet_ladder"] == [1, 2, 5, 10]
        assert info.action_layout_version == ACTION_LAYOUT_VERSION
    steps = sorted(read_info(f).timesteps for f in files[1:])
    assert steps == sorted(int(f.name.split("_")[1]) for f in files[1:])
    assert read_info(files[0]).timesteps == json.loads(
        (run / "player" / "stage.json").read_text())["timesteps"]


def test_loading_unpickles_nothing_and_acts_like_maskable_ppo(run: Path, monkeypatch) -> None:
    from sb3_contrib import MaskablePPO

    reference = MaskablePPO.load(run / "player" / "model.zip", device="cpu")

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("a model file was unpickled")

    import cloudpickle

    with monkeypatch.context() as patch:
        for module, name in ((pickle, "loads"), (pickle, "load"), (cloudpickle, "loads")):
            patch.setattr(module, name, refuse)
        agent = load_model(run / "player")
        assert make_agent(f"model:{run / 'player' / 'model.zip'}").layers[0][0].shape == (90, 16)
    assert agent.num_seats == 2
    env = PlayerEnv("catalan", 2, opponents="reader")
    obs, _info = env.reset(seed=5)
    rng = np.random.default_rng(0)
    for _ in range(400):
        mask = env.action_masks()
        action = agent.act(obs, mask)
        expected, _ = reference.predict(obs, action_masks=mask, deterministic=True)
        assert action == int(expected) and mask[action]
        # Wander off the greedy path now and then, to see more kinds of observation.
        step = action if rng.random() < 0.7 else int(rng.choice(np.flatnonzero(mask)))
        obs, _r, terminated, _t, _i = env.step(step)
        if terminated:
            obs, _info = env.reset()


def test_a_payload_in_data_is_never_read(run: Path, tmp_path: Path) -> None:
    marker = tmp_path / "pwned"
    model = run / "player" / "model.zip"
    crafted = _rewrite(model, tmp_path / "model.zip", {"data": _poisoned_data(model, marker)})
    agent = load_model(crafted)
    assert agent.act(*_first_decision()) in range(agent.num_actions)
    make_agent(f"model:{crafted}")
    assert main(["evaluate", "threshold:5.5", str(crafted), "--seats", "2", "--hands", "10"]) == 0
    assert not marker.exists()


def test_a_zip_without_the_description_is_refused_and_names_trust_model(
        run: Path, tmp_path: Path, capsys, monkeypatch) -> None:
    marker = tmp_path / "pwned"
    model = run / "player" / "model.zip"
    crafted = _rewrite(model, tmp_path / "model.zip", {"data": _poisoned_data(model, marker)},
                       drop=(INFO_ENTRY,))
    for load in (lambda: load_model(crafted), lambda: make_agent(f"model:{tmp_path}")):
        with pytest.raises(ValueError, match=f"has no {INFO_ENTRY}.*unpickle.*--trust-model"):
            load()
    assert main(["evaluate", "careful", str(tmp_path), "--seats", "2", "--hands", "10"]) == 2
    assert "--trust-model" in capsys.readouterr().err
    assert not marker.exists()


def test_pickled_weights_are_refused(run: Path, tmp_path: Path) -> None:
    marker = tmp_path / "pwned"
    crafted = _rewrite(run / "player" / "model.zip", tmp_path / "model.zip",
                       {"policy.pth": _poisoned_weights(marker)})
    with pytest.raises(ValueError, match="policy.pth holds more than plain weights"):
        load_model(crafted)
    assert not marker.exists()


def test_trust_model_loads_an_older_file_the_old_way(run: Path, tmp_path: Path, capsys,
                                                     monkeypatch) -> None:
    """An honest model saved before the description existed: refused, then trusted."""
    older = _rewrite(run / "player" / "model.zip", tmp_path / "model.zip", {},
                     drop=(INFO_ENTRY,))
    argv = ["evaluate", "careful", str(older), "--seats", "2", "--hands", "20", "--json"]
    assert main(argv) == 2
    capsys.readouterr()
    assert main(argv + ["--trust-model"]) == 0
    trusted_run = json.loads(capsys.readouterr().out)["agents"]
    monkeypatch.setenv(TRUST_ENV, "")
    described = _rewrite(run / "player" / "model.zip", tmp_path / "described.zip", {})
    assert main(["evaluate", "careful", str(described), "--seats", "2", "--hands", "20",
                 "--json"]) == 0
    assert list(json.loads(capsys.readouterr().out)["agents"].values()) == \
        list(trusted_run.values())
    obs, mask = _first_decision()
    assert load_model(older, trust=True).act(obs, mask) == load_model(described).act(obs, mask)


def _resumable(run: Path, tmp_path: Path) -> tuple[Path, Path]:
    """A copy of the run stopped after its first checkpoint: (run, that checkpoint)."""
    copy = tmp_path / "run"
    shutil.copytree(run, copy)
    stage = copy / "player"
    for name in ("model.zip", "stage.json"):
        (stage / name).unlink()
    checkpoints = sorted(stage.glob("checkpoints/ckpt_*_steps.zip"),
                         key=lambda p: int(p.name.split("_")[1]))
    for later in checkpoints[1:]:
        later.unlink()
    return copy, checkpoints[0]


def test_resume_rebuilds_the_model_without_unpickling(run: Path, tmp_path: Path,
                                                      capsys) -> None:
    copy, checkpoint = _resumable(run, tmp_path)
    marker = tmp_path / "pwned"
    crafted = _rewrite(checkpoint, tmp_path / "crafted.zip",
                       {"data": _poisoned_data(checkpoint, marker)})
    crafted.replace(checkpoint)
    assert main(["train", "--resume", str(copy)]) == 0
    assert f"resuming from {checkpoint.name}" in capsys.readouterr().out
    assert not marker.exists()
    assert read_info(copy / "player" / "model.zip").timesteps >= 512


def test_resume_restores_weights_optimizer_and_steps(run: Path, tmp_path: Path) -> None:
    from sb3_contrib import MaskablePPO
    from train import config as cfg
    from train.ppo import make_vec_env, restore_model

    config = cfg.load(run / "config.toml")
    checkpoint = sorted((run / "player" / "checkpoints").glob("ckpt_*_steps.zip"))[0]
    env = make_vec_env("player", config, {"bank": make_agent("reader")}, seed=0)
    restored = restore_model(checkpoint, env, "player", config, tmp_path, seed=0)
    reference = MaskablePPO.load(checkpoint, device="cpu")
    assert restored.num_timesteps == reference.num_timesteps == read_info(checkpoint).timesteps
    ours, theirs = restored.get_parameters(), reference.get_parameters()
    for key, value in theirs["policy"].items():
        assert np.array_equal(ours["policy"][key].numpy(), value.numpy()), key
    assert repr(ours["policy.optimizer"]) == repr(theirs["policy.optimizer"])
    env.close()


def test_resume_of_an_older_checkpoint_needs_trust_model(run: Path, tmp_path: Path,
                                                         capsys, monkeypatch) -> None:
    copy, checkpoint = _resumable(run, tmp_path)
    older = _rewrite(checkpoint, tmp_path / "older.zip", {}, drop=(INFO_ENTRY,))
    older.replace(checkpoint)
    assert main(["train", "--resume", str(copy)]) == 2
    assert "--trust-model" in capsys.readouterr().err
    assert main(["train", "--resume", str(copy), "--trust-model"]) == 0
    assert (copy / "player" / "model.zip").is_file()


def test_a_broken_description_is_named() -> None:
    good = ModelInfo("player", "catalan", 2, 90, ("stand",), (16,), "tanh", 0).to_json()
    assert ModelInfo.from_json(good, "m.zip").net_arch == (16,)
    for edit, message in (({"version": 99}, "version 99 is not supported"),
                          ({"activation": "gelu"}, "activation 'gelu' is not supported"),
                          ({"num_seats": "two"}, "needs 'num_seats' as int")):
        with pytest.raises(ValueError, match=message):
            ModelInfo.from_json(json.dumps({**json.loads(good), **edit}), "m.zip")


def _first_decision() -> tuple[np.ndarray, np.ndarray]:
    env = PlayerEnv("catalan", 2, opponents="reader")
    obs, _info = env.reset(seed=1)
    return obs, env.action_masks()
