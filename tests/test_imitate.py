"""A stage's warm start (:mod:`train.imitate`): the fresh network learns a baseline's choices
before PPO, seeded, and a run records it; resumed stages and self-play rounds do not repeat it.
A model of the information state learns the stage's observation model's choices, that model
being shown the observation of the same decision."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
import torch

from agents import make_agent
from envs.observer import observation_size
from train import config as cfg
from train.cli import main
import train.imitate as imitate_module
from train.imitate import copy_observation_model, imitate, play_baseline
from train.ppo import make_vec_env, model_info, new_model, save_model


def _bank_tables(tmp_path: Path, seed: int = 3, observation_type: str = "observation",
                 vec_env: str = "auto", overrides: tuple[str, ...] = ()):
    config = cfg.apply_overrides(cfg.TrainConfig(), [
        "run.n_envs=64", "ppo.net_arch=[16, 16]", "ppo.vf_net_arch=[8]", "ppo.n_steps=8",
        "ppo.batch_size=64", f"run.vec_env='{vec_env}'", *overrides])
    env = make_vec_env("bank", config, {"players": [make_agent("careful", rules="catalan")]},
                       seed, observation_type)
    return env, new_model(env, config.stage_ppo("bank", observation_type), tmp_path, seed)


def test_the_returns_are_each_episodes_chips_from_the_decision_on() -> None:
    """Every decision's return is the sum of the rewards from it to its hand's end; a hand
    still going when the play stops is marked unknown (the critic does not learn it)."""
    env, _model = _bank_tables(Path("."))
    baseline = make_agent("threshold:5", rules="catalan")
    obs, masks, actions, returns, known = play_baseline(env, baseline, 64 * 40)
    assert obs.shape == (64 * 40, env.observation_space.shape[0]) and obs.dtype == np.float32
    assert masks[np.arange(len(actions)), actions].all(), "every action was legal"
    # replay the same tables to read the rewards and ends step by step
    env.seed(3)
    env.reset()
    rewards, dones = [], []
    for step in range(40):
        _o, reward, done, _i = env.step(actions[step * 64:(step + 1) * 64])
        rewards.append(reward)
        dones.append(done)
    rewards_a, dones_a = np.array(rewards), np.array(dones)
    for table in range(64):
        ends = np.flatnonzero(dones_a[:, table])
        start = 0
        for end in ends:
            for step in range(start, end + 1):
                row = step * 64 + table
                assert known[row]
                assert returns[row] == pytest.approx(rewards_a[start:end + 1, table][
                    step - start:].sum())
            start = end + 1
        for step in range(start, 40):
            assert not known[step * 64 + table]
    env.close()


def test_the_network_learns_the_baselines_choices_the_same_way_for_a_seed(
        tmp_path: Path, monkeypatch) -> None:
    """After imitating the threshold bank the policy's likeliest action is the baseline's on
    fresh tables (a fresh network's is not), and the same seed gives the same weights."""
    monkeypatch.setattr(imitate_module, "MINIBATCH", 512)  # more steps for a small network
    baseline = make_agent("threshold:5", rules="catalan")
    weights = []
    for _ in range(2):
        env, model = _bank_tables(tmp_path)
        figures = imitate(model, env, baseline, 12_000, 10, seed=5)
        assert figures["decisions"] == 64 * 188 and figures["agreement"] > 0.97, figures
        weights.append({k: v.clone() for k, v in model.policy.state_dict().items()})
        env.close()
    assert all(torch.equal(weights[0][k], weights[1][k]) for k in weights[0])
    fresh, untrained = _bank_tables(tmp_path, seed=9)
    obs, masks, actions, _r, _k = play_baseline(fresh, baseline, 64 * 30)
    model.policy.set_training_mode(False)
    for net, low in ((model, 0.97), (untrained, None)):
        with torch.no_grad():
            chosen = net.policy.get_distribution(torch.as_tensor(obs.toarray()),
                                                 action_masks=masks).mode()
        share = float((chosen.numpy() == actions).mean())
        if low is not None:
            assert share > low, share
        else:
            assert share < 0.9, share  # an untrained network is no threshold bank
    fresh.close()


@pytest.mark.parametrize("vec_env", ["batch", "views"])
def test_on_the_information_state_the_baseline_is_shown_the_observation(
        tmp_path: Path, vec_env: str) -> None:
    """Tables of the information state, played by a threshold bank, make the choices the same
    tables of observations make for the same seed (the bank reads each decision's
    observation, not the wider information state), with the same masks and returns; the
    network is given the information state."""
    baseline = make_agent("threshold:5", rules="catalan")
    plays = {}
    for kind in ("observation", "information_state"):
        env, _model = _bank_tables(tmp_path, observation_type=kind, vec_env=vec_env)
        plays[kind] = play_baseline(env, baseline, 64 * 30, shown=observation_size(2)
                                    if kind == "information_state" else None)
        assert plays[kind][0].shape == (64 * 30, env.observation_space.shape[0])
        env.close()
    seen, given = plays["observation"], plays["information_state"]
    assert given[0].shape[1] > seen[0].shape[1]
    assert len(set(seen[2].tolist())) > 1, "the bank both drew and stood"
    for mine, theirs in zip(seen[1:], given[1:]):  # masks, actions, returns, known
        assert np.array_equal(mine, theirs)


def test_a_run_imitates_at_more_seats_and_records_it(tmp_path: Path, capsys,
                                                     tiny_run_config: Callable) -> None:
    """``[bank] more_seats.imitate``: a 3-seat bank stage imitates and says so in stage.json,
    and its information-state model imitates that bank (``information_state_imitate``);
    heads-up (no ``imitate``) the stage does not, nor, with the key off, its
    information-state model."""
    tiny = str(tiny_run_config(tmp_path))
    run = tmp_path / "three"
    assert main(["train", "bank", "--config", tiny, "--run-dir", str(run), "--seats", "3",
                 "--set", "bank.more_seats={ imitate = 'threshold:5.5' }",
                 "--set", "bank.imitate_steps=2000", "--set", "bank.imitate_epochs=2"]) == 0
    stage = json.loads((run / "bank" / "stage.json").read_text())
    assert stage["imitation"]["decisions"] == 2000 and stage["imitation"]["agreement"] > 0
    information_state = json.loads((run / "bank-information-state" / "stage.json").read_text())
    assert information_state["imitation"]["decisions"] == 512  # the tiny config's
    assert "imitated model:" in capsys.readouterr().out
    # that model reads information states: no stage can imitate it (named before any run)
    model = f"model:{run / 'bank-information-state'}"
    assert main(["train", "bank", "--config", tiny, "--run-dir", str(tmp_path / "no"),
                 "--seats", "3", "--set", f"bank.more_seats={{ imitate = '{model}' }}"]) == 2
    assert (f"bank.more_seats.imitate='{model}' is a model of the information state"
            in capsys.readouterr().err)
    assert not (tmp_path / "no").exists()
    heads_up = tmp_path / "two"
    assert main(["train", "bank", "--config", tiny, "--run-dir", str(heads_up), "--set",
                 "bank.more_seats={ imitate = 'threshold:5.5' }",
                 "--set", "bank.information_state_imitate=false"]) == 0
    for stage_name in ("bank", "bank-information-state"):
        assert "imitation" not in json.loads((heads_up / stage_name / "stage.json").read_text())


def test_a_run_copies_the_bank_into_its_information_state_model_at_more_seats(
        tmp_path: Path, tiny_run_config: Callable) -> None:
    """``[bank] more_seats`` with ``information_state_copy``: the 3-seat information-state
    bank starts from the bank's weights (``copied_from`` in its stage.json), without
    imitating it."""
    run = tmp_path / "three"
    assert main(["train", "bank", "--config", str(tiny_run_config(tmp_path)), "--run-dir",
                 str(run), "--seats", "3", "--set",
                 "bank.more_seats={ information_state_copy = true, information_state_imitate = "
                 "false, information_state_ppo = { net_arch = [256, 256] } }"]) == 0
    stage = json.loads((run / "bank-information-state" / "stage.json").read_text())
    assert stage["copied_from"] == str(run / "bank" / "model.zip")
    assert "imitation" not in stage


def test_a_bad_baseline_is_named_before_any_run(tmp_path: Path, monkeypatch, capsys) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["train", "--set", "bank.more_seats={ imitate = 'wizard' }",
                 "--run-dir", "run"]) == 2
    assert "--set: bank.more_seats: unknown agent 'wizard'" in capsys.readouterr().err
    assert not (tmp_path / "run").exists()


@pytest.mark.parametrize("vec_env", ["batch", "views"])
def test_a_copy_of_the_observation_model_chooses_and_values_as_it_does(
        tmp_path: Path, vec_env: str) -> None:
    """``information_state_copy``: at tables dealt alike, the information state begins with
    the observation, and the information-state network started from the observation
    model's weights gives every state the same action probabilities and value (a fresh one
    does not); a network of another shape, or a model on observations of another size, is
    refused by name."""
    same = ("bank.ppo={}", "bank.information_state_ppo={}")  # both [ppo]'s network
    env, model = _bank_tables(tmp_path, vec_env=vec_env, overrides=same)
    env_is, copy = _bank_tables(tmp_path, observation_type="information_state", vec_env=vec_env,
                                overrides=same)
    with torch.no_grad():  # weights unlike a fresh network's, the biases too
        for parameter in model.policy.parameters():
            parameter.add_(torch.randn(parameter.shape, generator=torch.Generator()
                                       .manual_seed(parameter.numel())) * 0.3)
    saved = save_model(model, tmp_path / "observation" / "model.zip",
                       model_info(model, "bank", cfg.TrainConfig(), "observation"))
    fresh = [p.clone() for p in copy.policy.parameters()]
    width = env.observation_space.shape[0]
    copy_observation_model(copy, saved, width)
    seen, given = env.reset(), env_is.reset()
    differed = False
    for _step in range(12):
        assert np.array_equal(given[:, :seen.shape[1]], seen)
        assert given.shape[1] > seen.shape[1] and given[:, seen.shape[1]:].any()
        masks = np.stack(env.env_method("action_masks"))
        with torch.no_grad():
            theirs = model.policy.get_distribution(torch.as_tensor(seen), action_masks=masks)
            mine = copy.policy.get_distribution(torch.as_tensor(given), action_masks=masks)
            np.testing.assert_allclose(mine.distribution.probs, theirs.distribution.probs,
                                       rtol=1e-5, atol=1e-7)
            np.testing.assert_allclose(copy.policy.predict_values(torch.as_tensor(given)),
                                       model.policy.predict_values(torch.as_tensor(seen)),
                                       rtol=1e-5, atol=1e-6)
        differed |= any(not torch.equal(a, b) for a, b in zip(fresh, copy.policy.parameters()))
        actions = theirs.mode().numpy()
        seen, given = env.step(actions)[0], env_is.step(actions)[0]
    assert differed
    _env, narrow = _bank_tables(tmp_path, observation_type="information_state", vec_env=vec_env,
                                overrides=("bank.ppo={}", "bank.information_state_ppo={ "
                                           "net_arch = [8, 8] }"))
    with pytest.raises(ValueError, match=r"layer mlp_extractor.policy_net.0.weight has the "
                                         r"shape \(16, \d+\), the information-state network's "
                                         r"\(8, \d+\); the copy needs the same layers"):
        copy_observation_model(narrow, saved, width)
    with pytest.raises(ValueError, match=rf"layer mlp_extractor.policy_net.0.weight reads "
                                         rf"{width} numbers, but an observation at this table "
                                         rf"has {width + 1}: the model was trained at another "
                                         rf"number of seats"):
        copy_observation_model(copy, saved, width + 1)
