"""``MaskedMlpPolicy``: sb3-contrib's maskable actor-critic with a cheaper masked distribution.

sb3-contrib's ``MaskableActorCriticPolicy`` builds a ``MaskableCategorical``
(a ``torch.distributions.Categorical``) for every batch it sees: the logits
are normalised twice (once as given, once masked), the argument checks of
``torch.distributions`` run on every construction, and the entropy goes
through the distribution's cached probabilities. On the small networks of
``sette train`` that is a sizeable part of every PPO minibatch and of every
rollout step.

This subclass computes the same quantities directly from one masked
``log_softmax``: illegal actions get the logit ``-1e8`` (as sb3-contrib's
masking does), the log-probability of an action is the gathered entry, the
entropy is ``-sum(p * log p)`` over the legal actions only, and sampling is a
draw from the masked probabilities with torch's generator (the model's seed).
The probabilities are ``exp`` of the log-probabilities with the illegal
entries set to ``log p = 0`` before and ``p = 0`` after (by multiplying with
the mask as 0/1): the same bits as ``exp`` of the masked log-probabilities,
which underflow to 0, but torch's CPU ``exp`` takes a slow path on arguments
that underflow, and it took ten times longer than on the legal entries.

On the information state (thousands of numbers, nearly all zero: most of them
stand for plays a hand rarely or never reaches) the first layer of the actor and
of the critic can be computed from the columns that are non-zero somewhere in
the batch (``gather_active_inputs``, which :func:`train.ppo.train_stage` sets for
information-state stages): a zero input adds nothing to a layer's output, and its
weights' gradient is zero, so the result is the same up to the order in which
floats are summed (the last bits, not the bits of the dense product), and the
layer's matrix products shrink by the share of columns that are never set. Where the
observation space allows no negative entry (every observation and information state
of the package), a column's plain sum finds the columns in use; an absolute value of
every entry first, which a space with negative entries needs, copied the whole batch.

The layers, their names and the state dict are the parent's, so a saved
model loads into either class and :class:`agents.learned.LearnedAgent` reads
it the same way; ``predict`` and ``get_distribution`` stay the parent's.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch as th
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

__all__ = ["MaskedMlpPolicy"]

_ILLEGAL_LOGIT = -1e8
"""The logit of a masked action (sb3-contrib's ``MaskableCategorical`` uses the same)."""


class MaskedMlpPolicy(MaskableActorCriticPolicy):
    """``MaskableActorCriticPolicy`` whose training and rollout passes skip the
    ``torch.distributions`` object (module docstring)."""

    gather_active_inputs: bool = False
    """Compute the first layers from the batch's non-zero input columns only (module
    docstring); off, the layers are the parent's dense products, bit for bit."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        low = getattr(self.observation_space, "low", None)
        self._inputs_non_negative = low is not None and bool(np.all(low >= 0))
        """No input can be negative (the space's lower bounds): a column's sum is 0 only
        where every entry is (:meth:`_active_columns`)."""

    def _masked_log_probs(self, latent_pi: th.Tensor, action_masks: np.ndarray | th.Tensor | None
                          ) -> tuple[th.Tensor, th.Tensor | None]:
        """Log-probabilities of every action under the mask, and the mask as 0/1 floats."""
        logits = self.action_net(latent_pi)
        if action_masks is None:
            return th.log_softmax(logits, dim=-1), None
        masks = th.as_tensor(action_masks, dtype=th.bool,
                             device=logits.device).reshape(logits.shape)
        log_probs = th.log_softmax(th.where(masks, logits, _ILLEGAL_LOGIT), dim=-1)
        return log_probs, masks.to(log_probs.dtype)

    @staticmethod
    def _probs(log_probs: th.Tensor, legal: th.Tensor | None) -> th.Tensor:
        """``exp(log_probs)``, without ``exp``'s slow path on the illegal entries (module
        docstring)."""
        if legal is None:
            return log_probs.exp()
        return (log_probs * legal).exp() * legal

    def _latents(self, obs: th.Tensor) -> tuple[th.Tensor, th.Tensor]:
        features = self.extract_features(obs)
        if self.share_features_extractor:
            if self.gather_active_inputs:
                assert isinstance(features, th.Tensor)  # one extractor: one tensor
                return self._gathered_latents(features)
            return self.mlp_extractor(features)
        pi_features, vf_features = features
        return (self.mlp_extractor.forward_actor(pi_features),
                self.mlp_extractor.forward_critic(vf_features))

    def _gathered_latents(self, features: th.Tensor) -> tuple[th.Tensor, th.Tensor]:
        """The actor's and the critic's latents with each first layer computed over the
        columns of ``features`` that are non-zero in some row (module docstring)."""
        columns = self._active_columns(features)
        active = features.index_select(1, columns)
        latents = []
        for net in (self.mlp_extractor.policy_net, self.mlp_extractor.value_net):
            if not len(net):  # no hidden layers (net_arch = []): the features themselves
                latents.append(features)
                continue
            first = net[0]
            assert isinstance(first, th.nn.Linear)  # SB3's MlpExtractor starts with one
            hidden = th.nn.functional.linear(active, first.weight.index_select(1, columns),
                                             first.bias)
            latents.append(net[1:](hidden))
        return latents[0], latents[1]

    def _active_columns(self, features: th.Tensor) -> th.Tensor:
        """The indices of the columns of ``features`` non-zero in some row (or NaN in one),
        in order: those whose sum of magnitudes is not 0, or, where the space allows no
        negative entry, whose sum is not (the same columns, without the copy)."""
        magnitudes = features if self._inputs_non_negative else features.abs()
        return magnitudes.sum(0).nonzero().squeeze(1)

    def forward(self, obs: th.Tensor, deterministic: bool = False,
                action_masks: np.ndarray | None = None
                ) -> tuple[th.Tensor, th.Tensor, th.Tensor]:
        """Actions drawn under the masks, the values and the actions' log-probabilities."""
        latent_pi, latent_vf = self._latents(obs)
        values = self.value_net(latent_vf)
        log_probs, legal = self._masked_log_probs(latent_pi, action_masks)
        if deterministic:
            actions = th.argmax(log_probs, dim=-1)
        else:
            actions = th.multinomial(self._probs(log_probs, legal), 1).squeeze(-1)
        log_prob = log_probs.gather(-1, actions.unsqueeze(-1)).squeeze(-1)
        return actions.reshape((-1, *self.action_space.shape)), values, log_prob  # type: ignore[misc]

    def evaluate_actions(self, obs: th.Tensor, actions: th.Tensor,
                         action_masks: th.Tensor | None = None
                         ) -> tuple[th.Tensor, th.Tensor, th.Tensor | None]:
        """Values, log-probabilities of ``actions`` and entropies under the masks (PPO's loss)."""
        latent_pi, latent_vf = self._latents(obs)
        log_probs, legal = self._masked_log_probs(latent_pi, action_masks)
        # the gather first: autograd then sums the gradients of log_probs in the order of
        # the former p * log p with a masked fill, so training gives the same bits
        log_prob = log_probs.gather(-1, actions.long().reshape(-1, 1)).squeeze(-1)
        entropy = -(self._probs(log_probs, legal) * log_probs).sum(-1)
        return self.value_net(latent_vf), log_prob, entropy
