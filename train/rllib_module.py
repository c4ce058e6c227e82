"""The policies' network on RLlib: RLlib's action-masking PPO module, and its export.

:class:`MaskedPolicyModule` is RLlib's own ``ActionMaskingTorchRLModule``
(its example module for the new API stack) unchanged in what it computes:
PPO's default MLP on ``obs["observations"]``, with the logits of illegal
actions pushed to a large negative number by ``obs["action_mask"]`` before
RLlib samples or scores them, in exploration, inference and training alike.
:mod:`train.rllib_env` gives its observations in exactly that layout, so no
connector renames PettingZoo's ``observation`` key.

It adds one thing: :meth:`MaskedPolicyModule.actor_state`, the actor (the
hidden layers the logits are computed from and the logits layer) as plain
tensors named as an SB3 policy names them, which
:func:`agents.rllib_policy.write_export` saves and
:class:`agents.learned.LearnedAgent` plays without ray.
"""

from __future__ import annotations

from typing import Any

from ray.rllib.core.rl_module.rl_module import RLModuleSpec
from ray.rllib.examples.rl_modules.classes.action_masking_rlm import (
    ActionMaskingTorchRLModule,
)

ACTIVATIONS = ("tanh", "relu")
"""Hidden-layer activations the exported actor may use (:mod:`agents.learned` plays them)."""


class MaskedPolicyModule(ActionMaskingTorchRLModule):
    """RLlib's masking PPO module, plus the export of its actor (module docstring).

    Each process that builds it (every env runner, the learner) computes with
    one torch thread: RLlib gives each one CPU, and on a busy machine more
    threads only wait on one another (as ``run.torch_threads`` in :mod:`train.ppo`).
    """

    def setup(self) -> None:
        import torch

        torch.set_num_threads(1)
        super().setup()

    def actor_state(self) -> tuple[dict[str, Any], tuple[int, ...], str]:
        """The actor's weights in SB3's names, its hidden sizes and their activation.

        RLlib's encoder (the actor's own, or the one it shares with the value
        function) holds the hidden ``Linear`` layers, each followed by the
        activation; the ``pi`` head must be a single ``Linear`` (the default,
        no head hidden layers).
        """
        import torch.nn as nn

        encoder = getattr(self.encoder, "actor_encoder", None) or self.encoder.encoder
        hidden = [m for m in encoder.net.mlp if isinstance(m, nn.Linear)]
        others = {type(m).__name__.lower() for m in encoder.net.mlp
                  if not isinstance(m, nn.Linear)}
        if len(others) > 1 or not others <= set(ACTIVATIONS):
            raise ValueError(f"the actor's activation must be one of {', '.join(ACTIVATIONS)}, "
                             f"found {sorted(others)}")
        head = [m for m in self.pi.net.mlp if isinstance(m, nn.Linear)]
        if len(head) != 1:
            raise ValueError(f"the pi head has {len(head)} linear layers; the export needs "
                             f"one (model_config head_fcnet_hiddens=[])")
        state = {}
        for k, layer in enumerate(hidden):
            state[f"mlp_extractor.policy_net.{2 * k}.weight"] = layer.weight
            state[f"mlp_extractor.policy_net.{2 * k}.bias"] = layer.bias
        state["action_net.weight"], state["action_net.bias"] = head[0].weight, head[0].bias
        activation = next(iter(others)) if others else "tanh"
        return state, tuple(int(m.out_features) for m in hidden), activation


def module_spec(observation_space: Any, action_space: Any, hiddens: tuple[int, ...],
                activation: str) -> RLModuleSpec:
    """The spec of one policy's module: hidden layer sizes and activation of its MLP."""
    if activation not in ACTIVATIONS:
        raise ValueError(f"activation {activation!r} is not one of {', '.join(ACTIVATIONS)}")
    return RLModuleSpec(module_class=MaskedPolicyModule, observation_space=observation_space,
                        action_space=action_space,
                        model_config={"fcnet_hiddens": list(hiddens),
                                      "fcnet_activation": activation,
                                      "head_fcnet_hiddens": []})
