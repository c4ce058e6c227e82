"""Learned policies as agents: a MaskablePPO model saved by ``sette train``.

``load_model(path)`` takes a model file (``model.zip``), a stage folder holding
one (``RUN/player``), or a checkpoint; the registry spec is ``model:PATH``.

The trained network is a small MLP, and one observation at a time through
torch costs far more than the game step it decides. So the agent copies the
actor's weights into numpy once and evaluates ``argmax`` of the masked logits
itself — the deterministic action MaskablePPO's ``predict`` would give, tested
to agree — which also makes it cheap to pickle into worker processes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from agents.base import Agent

MODEL_FILE = "model.zip"
_ACTIVATIONS = {"Tanh": np.tanh, "ReLU": lambda x: np.maximum(x, 0.0)}


def model_path(path: str | Path) -> Path:
    """The model file a path names: the file itself, or ``model.zip`` in a folder."""
    p = Path(path)
    if p.is_dir():
        candidate = p / MODEL_FILE
        if not candidate.is_file():
            found = sorted(q.name for q in p.iterdir())[:12]
            raise ValueError(f"{str(p)!r} holds no {MODEL_FILE}; a model folder is a training "
                             f"stage such as RUN/player or RUN/bank (found: "
                             f"{', '.join(found) or 'nothing'})")
        return candidate
    if not p.is_file():
        raise ValueError(f"model {str(p)!r} does not exist; give a {MODEL_FILE} or the folder "
                         f"of a training stage (RUN/player, RUN/bank, RUN/selfplay/player)")
    return p


class LearnedAgent(Agent):
    """A trained actor network, evaluated in numpy (deterministic: the best legal action).

    Build it with :func:`load_model`, or from a live model with :meth:`from_policy`.
    """

    def __init__(self, layers: list[tuple[np.ndarray, np.ndarray, str | None]],
                 obs_size: int, source: str = "policy") -> None:
        self.layers = layers
        self.obs_size = obs_size
        self.source = source
        self.spec = f"model:{source}"

    @classmethod
    def from_policy(cls, policy: Any, source: str = "policy") -> "LearnedAgent":
        """Copy the actor of an SB3 ``ActorCriticPolicy`` with an MLP extractor."""
        import torch.nn as nn

        layers: list[tuple[np.ndarray, np.ndarray, str | None]] = []
        modules = list(policy.mlp_extractor.policy_net)
        for k, module in enumerate(modules):
            if isinstance(module, nn.Linear):
                act = modules[k + 1] if k + 1 < len(modules) else None
                name = type(act).__name__ if act is not None else None
                if name is not None and name not in _ACTIVATIONS:
                    raise ValueError(f"{source}: activation {name} is not supported; "
                                     f"supported: {', '.join(_ACTIVATIONS)}")
                layers.append((module.weight.detach().cpu().numpy().astype(np.float64).T,
                               module.bias.detach().cpu().numpy().astype(np.float64), name))
            elif type(module).__name__ not in _ACTIVATIONS:
                raise ValueError(f"{source}: layer {module!r} is not supported in a policy "
                                 f"network; use Linear layers with Tanh or ReLU")
        head = policy.action_net
        layers.append((head.weight.detach().cpu().numpy().astype(np.float64).T,
                       head.bias.detach().cpu().numpy().astype(np.float64), None))
        obs_size = int(np.prod(policy.observation_space.shape))
        return cls(layers, obs_size, source)

    def logits(self, observation: np.ndarray) -> np.ndarray:
        """Unmasked action logits of one observation."""
        x = np.asarray(observation, dtype=np.float64)
        if x.shape[-1] != self.obs_size:
            raise ValueError(f"{self.source} was trained on observations of length "
                             f"{self.obs_size} but got {x.shape[-1]}: a different number of "
                             f"seats")
        for weight, bias, activation in self.layers:
            x = x @ weight + bias
            if activation is not None:
                x = _ACTIVATIONS[activation](x)
        return x

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        logits = self.logits(observation)
        logits = np.where(np.asarray(action_mask, dtype=bool), logits, -np.inf)
        action = int(np.argmax(logits))
        if not action_mask[action]:
            raise ValueError("the action mask allows no action")
        return action


def load_model(path: str | Path) -> LearnedAgent:
    """Load a model saved by ``sette train`` as an agent (see the module docstring)."""
    file = model_path(path)
    from sb3_contrib import MaskablePPO  # torch loads only when a model is

    try:
        model = MaskablePPO.load(file, device="cpu")
    except Exception as exc:  # a zip that is not an SB3 model, or a damaged one
        raise ValueError(f"{str(file)!r} is not a MaskablePPO model saved by sette train: "
                         f"{exc}") from None
    return LearnedAgent.from_policy(model.policy, source=str(path))
