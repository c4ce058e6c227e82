"""A stage's warm start: the fresh network first learns a baseline's choices, then PPO goes on.

``[bank] imitate = "reader"`` (a stage's ``imitate``, :class:`train.config.StageConfig`)
has the stage play its own training tables with that baseline choosing the learner's
actions, ``imitate_steps`` decisions in all, and fits the new network to what it saw
before the first rollout (:func:`imitate`):

* the **actor** to the baseline's choices: the masked log-probability of the chosen
  action is maximised (behaviour cloning), so the policy starts close to the baseline;
* the **critic** to the returns of those hands (``gamma = 1``: an episode's rewards
  from the decision on), so PPO's first advantages measure departures from the
  baseline's play instead of a value function that knows nothing.

PPO then trains as it would from fresh weights, for the stage's ``timesteps``. At four
seats, where the `reader` bank weighs three players' cards, a bank learning from the
chips alone ended its steps behind `reader`; one that first learned `reader`'s choices
ended them ahead (docs/RESULTS.md, "Four seats").

A model on the information state (a stage's ``information_state_imitate``) learns
the same way from the stage's own model on observations: at each decision the
baseline is shown the learner's observation vector and the new network the
information state of the same moment. Those states are thousands of numbers, nearly
all zero, so the decisions are kept as a sparse matrix and made dense a minibatch at
a time. Or, with ``information_state_copy``, it starts from that model's very weights
(:func:`copy_observation_model`): the copy plays exactly as the model does, where the
imitation comes close (at four seats, through a narrower network, not close enough).

Only a fresh stage imitates: a resumed stage has the imitation in its checkpoint's
weights, and a self-play round starts from the previous round's network. Every draw
is seeded by the stage's seed: the tables' deals, the minibatches' order.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
import torch
from scipy import sparse
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.utils import get_action_masks
from stable_baselines3.common.vec_env import VecEnv

from agents import make_agent
from agents.batch_policies import batch_policy
from agents.learned import read_weights
from envs.policy import Policy
from envs.rules import Rules


class Imitation(NamedTuple):
    """What a fresh stage imitates before PPO: the agent ``spec`` names on ``rules`` (any
    form :func:`agents.make_agent` takes), over ``decisions`` decisions, ``epochs`` passes
    (:func:`imitate`)."""

    spec: str
    rules: Rules
    decisions: int
    epochs: int

    def baseline(self) -> Policy:
        """The agent, made when a fresh stage imitates it (a finished or resumed stage
        never loads it)."""
        return make_agent(self.spec, rules=self.rules)


MINIBATCH = 4096
"""Decisions per gradient step of the imitation."""
LEARNING_RATE = 1e-3
"""Adam's rate for the imitation (its own optimizer: PPO's keeps its state and schedule)."""


def play_baseline(env: VecEnv, baseline: Any, decisions: int, shown: int | None = None
                  ) -> tuple[sparse.csr_array, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Step ``env`` with ``baseline`` choosing every table's action until ``decisions`` are
    made; returns the learner's vectors (rows of a sparse matrix: an information state
    is thousands of numbers, nearly all zero), masks and actions of each decision, the
    return of its episode from it on, and whether that episode ended within the play (a
    return of an episode still going is not known, and the critic does not learn it).

    ``shown``: the baseline is shown only the first ``shown`` numbers of each vector. An
    information state begins with the seat's observation (:mod:`envs.information_state`),
    so with ``env`` giving information states and ``shown`` the observation's length
    (:func:`envs.observer.observation_size`), a policy of observations sees what it
    would see in the learner's seat."""
    policy = batch_policy(baseline) or baseline
    steps = max(1, -(-decisions // env.num_envs))
    obs = env.reset()
    observations, masks, actions, rewards, dones = [], [], [], [], []
    for _ in range(steps):
        mask = get_action_masks(env)
        rows = np.asarray(obs, dtype=np.float32)
        seen = rows if shown is None else rows[:, :shown]
        if hasattr(policy, "act_batch"):
            action = np.asarray(policy.act_batch(seen, mask.astype(np.int8)), dtype=np.int64)
        else:
            action = np.array([policy.act(o, m) for o, m in zip(seen, mask)], dtype=np.int64)
        observations.append(sparse.csr_array(rows))
        masks.append(mask.astype(bool))
        actions.append(action)
        obs, reward, done, _infos = env.step(action)
        rewards.append(reward)
        dones.append(done)
    returns = np.zeros((steps, env.num_envs), dtype=np.float32)
    known = np.zeros((steps, env.num_envs), dtype=bool)
    ahead = np.zeros(env.num_envs, dtype=np.float64)
    ended = np.zeros(env.num_envs, dtype=bool)
    for t in range(steps - 1, -1, -1):
        ahead = np.where(dones[t], rewards[t], rewards[t] + ahead)
        ended |= dones[t]
        returns[t], known[t] = ahead, ended
    return (sparse.vstack(observations, format="csr"), np.concatenate(masks),
            np.concatenate(actions), returns.reshape(-1), known.reshape(-1))


def _dense(observations: sparse.csr_array, rows: Any) -> torch.Tensor:
    """The vectors of ``rows`` (indices or a slice) as one float32 tensor."""
    return torch.from_numpy(observations[rows].toarray())


def imitate(model: MaskablePPO, env: VecEnv, baseline: Any, decisions: int, epochs: int,
            seed: int, shown: int | None = None) -> dict[str, float]:
    """Fit ``model``'s actor to ``baseline``'s choices and its critic to their returns over
    ``decisions`` decisions at ``env``'s tables, ``epochs`` passes (module docstring), the
    baseline shown the first ``shown`` numbers of each vector (:func:`play_baseline`);
    returns the last pass's figures: ``nll`` (mean negative log-likelihood of the
    baseline's choices), ``agreement`` (share of decisions where the policy's likeliest
    action is the baseline's), ``value_mse`` and the ``decisions`` used."""
    observations, masks, actions, returns, known = play_baseline(env, baseline, decisions,
                                                                 shown)
    mask_t = torch.as_tensor(masks)
    action_t = torch.as_tensor(actions)
    return_t = torch.as_tensor(returns)
    known_t = torch.as_tensor(known)
    policy = model.policy
    policy.set_training_mode(True)
    optimizer = torch.optim.Adam(policy.parameters(), lr=LEARNING_RATE)
    generator = torch.Generator().manual_seed(seed)
    n = len(action_t)
    nll = squared = counted = 0.0
    for _ in range(epochs):
        order = torch.randperm(n, generator=generator)
        nll = squared = counted = 0.0
        for start in range(0, n, MINIBATCH):
            rows = order[start:start + MINIBATCH]
            values, log_prob, _entropy = policy.evaluate_actions(
                _dense(observations, rows.numpy()), action_t[rows], mask_t[rows])
            seen = known_t[rows]
            errors = (values.squeeze(-1) - return_t[rows])[seen]
            value_loss = (errors ** 2).mean() if errors.numel() else values.sum() * 0.0
            loss = -log_prob.mean() + model.vf_coef * value_loss
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            nll -= float(log_prob.detach().sum())
            squared += float((errors.detach() ** 2).sum())
            counted += float(seen.sum())
    policy.set_training_mode(False)
    agree = 0
    with torch.no_grad():
        for start in range(0, n, MINIBATCH):
            end = start + MINIBATCH
            chosen = policy.get_distribution(_dense(observations, slice(start, end)),
                                             action_masks=masks[start:end])
            agree += int((chosen.mode() == action_t[start:end]).sum())
    return {"nll": nll / n, "agreement": agree / n,
            "value_mse": squared / max(counted, 1.0), "decisions": float(n)}


def copy_observation_model(model: MaskablePPO, observation_model: Path,
                           observation_size: int) -> None:
    """Start ``model``, a fresh network on the information state, as the model on
    observations saved at ``observation_model`` (``observation_size`` numbers: an
    observation at the table both play).

    An information state begins with the seat's observation (:mod:`envs.information_state`),
    so every weight is copied as it is, but the first layers' (of the actor and of the
    critic), which read the whole information state: their columns on the observation
    part take the model's weights and those on the history 0. The copy then chooses and
    values every state exactly as the model does, and PPO goes on from there to learn
    what the history adds. The two networks must have the same layers (the stage's
    ``information_state_ppo`` leaves ``net_arch``, ``vf_net_arch`` and ``activation`` as
    the stage's); a layer of another shape is refused by name, and so is a model that
    reads observations of another size (trained at another number of seats)."""
    weights = read_weights(observation_model)["policy"]
    own = model.policy.state_dict()
    if set(weights) != set(own):
        raise ValueError(f"{str(observation_model)!r} has the layers {sorted(weights)}, the "
                         f"information-state network {sorted(own)}: they cannot be copied")
    with torch.no_grad():
        for name, value in weights.items():
            target = own[name]
            if target.shape == value.shape:
                target.copy_(value)
            elif (name.endswith(".0.weight") and target.ndim == 2
                  and target.shape[0] == value.shape[0] and target.shape[1] > value.shape[1]):
                if value.shape[1] != observation_size:
                    raise ValueError(f"{str(observation_model)!r}: layer {name} reads "
                                     f"{value.shape[1]} numbers, but an observation at this "
                                     f"table has {observation_size}: the model was trained "
                                     f"at another number of seats")
                target.zero_()
                target[:, :value.shape[1]] = value
            else:
                raise ValueError(f"{str(observation_model)!r}: layer {name} has the shape "
                                 f"{tuple(value.shape)}, the information-state network's "
                                 f"{tuple(target.shape)}; the copy needs the same layers")
