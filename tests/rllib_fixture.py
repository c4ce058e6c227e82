"""A tiny exported RLlib run, written without ray (shared by the RLlib agent tests).

:func:`export_run` writes what ``sette train --backend rllib`` leaves in a run
folder for agents to load (``RUN/player`` and ``RUN/bank``, each ``policy.pth``
+ ``sette-model.json``; :mod:`agents.rllib_policy`): a network that ignores what
it sees and prefers one action (a bias on the logits), then a second where the
first is illegal — so a test knows every choice it makes — and the ``run.json``
record the backend keeps beside them (:class:`train.rllib_train.RLlibRun`).
"""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

from agents.learned import ModelInfo
from agents.rllib_policy import write_export
from envs.actions import ACTION_LAYOUT_VERSION, ActionLayout
from envs.information_state import information_state_size
from envs.observer import observation_size
from envs.rules import Rules
from train.rllib_train import BACKEND, RUN_FILE, RLlibSettings


def action_names(rules: str) -> list[str]:
    """The action layout of ``rules`` (what the exported logits index)."""
    return ActionLayout(tuple(Rules.resolve(rules).bet_ladder)).names


def model_info(role: str, rules: str, seats: int,
               observation_type: str = "observation") -> ModelInfo:
    """The description of a one-hidden-layer (4 units) network for this table."""
    resolved = Rules.resolve(rules)
    size = (observation_size(seats) if observation_type == "observation"
            else information_state_size(resolved, seats))
    return ModelInfo(role=role, rules=rules, num_seats=seats, observation_size=size,
                     action_names=tuple(action_names(rules)), net_arch=(4,),
                     activation="tanh", timesteps=10, n_updates=1,
                     rules_values=resolved.to_dict(),
                     action_layout_version=ACTION_LAYOUT_VERSION,
                     observation_type=observation_type)


def export_policy(folder: Path, info: ModelInfo, favourite: int) -> None:
    """A network whose logits favour action ``favourite`` whatever it sees (zero weights in,
    a bias on the logits), written as the RLlib backend writes one."""
    import torch

    actions = len(info.action_names)
    bias = torch.zeros(actions)
    bias[favourite] = 5.0
    bias[(favourite + 1) % actions] = 4.0  # second choice, where the first is illegal
    state = {"mlp_extractor.policy_net.0.weight": torch.zeros(4, info.observation_size),
             "mlp_extractor.policy_net.0.bias": torch.zeros(4),
             "action_net.weight": torch.zeros(actions, 4), "action_net.bias": bias}
    write_export(folder, state, info)


def write_curves(folder: Path, iterations: int = 3) -> None:
    """TensorBoard scalars under the tags the backend logs per policy and iteration."""
    from torch.utils.tensorboard import SummaryWriter

    writer = SummaryWriter(str(folder / "tensorboard"))
    for iteration in range(1, iterations + 1):
        writer.add_scalar("train/policy_loss", 1.0 / iteration, iteration)
        writer.add_scalar("train/entropy", 2.0 - 0.1 * iteration, iteration)
        writer.add_scalar("rollout/return_mean", -0.1 * iteration, iteration)
    writer.close()


def export_run(folder: Path, rules: str, seats: int, observation_type: str = "observation",
               player: str = "stand", bank: str = "hit", curves: bool = False) -> Path:
    """An RLlib run folder whose player prefers ``player`` and whose bank prefers ``bank``
    (with ``curves``, each policy's TensorBoard log too)."""
    settings = RLlibSettings(rules=rules, num_seats=seats, observation_type=observation_type,
                             iterations=1, env_runners=0, hiddens=(4,))
    folder.mkdir(parents=True, exist_ok=True)
    record = {"command": "all", "backend": BACKEND, "seed": settings.seed,
              "settings": asdict(settings), "iterations_done": 1, "env_steps": 10}
    (folder / RUN_FILE).write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    names = action_names(rules)
    for role, favourite in (("player", player), ("bank", bank)):
        export_policy(folder / role, model_info(role, rules, seats, observation_type),
                      names.index(favourite))
        if curves:
            write_curves(folder / role)
    return folder
