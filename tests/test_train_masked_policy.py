"""train.masked_policy.MaskedMlpPolicy gives sb3-contrib's masked quantities, cheaper.

PPO's loss reads the values, the log-probabilities of the actions taken and
the entropies; the rollouts read sampled actions and their log-probabilities.
Each must be what sb3-contrib's ``MaskableActorCriticPolicy`` gives with the
same weights, and no illegal action may ever be drawn.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch as th
from gymnasium import spaces
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

from train.masked_policy import MaskedMlpPolicy

OBS, ACTIONS = spaces.Box(-1.0, 1.0, (12,), np.float32), spaces.Discrete(9)


def _pair() -> tuple[MaskableActorCriticPolicy, MaskedMlpPolicy]:
    th.manual_seed(0)
    reference = MaskableActorCriticPolicy(OBS, ACTIONS, lambda _: 1e-4, net_arch=[16, 16])
    cheap = MaskedMlpPolicy(OBS, ACTIONS, lambda _: 1e-4, net_arch=[16, 16])
    cheap.load_state_dict(reference.state_dict())  # the same layers and names
    return reference, cheap


def _batch(rows: int, seed: int) -> tuple[th.Tensor, th.Tensor]:
    rng = np.random.default_rng(seed)
    masks = rng.random((rows, ACTIONS.n)) < 0.4
    masks[np.arange(rows), rng.integers(ACTIONS.n, size=rows)] = True  # one legal at least
    return th.as_tensor(rng.uniform(-1, 1, (rows, 12)), dtype=th.float32), th.as_tensor(masks)


def test_the_loss_terms_are_sb3_contribs() -> None:
    reference, cheap = _pair()
    obs, masks = _batch(400, seed=1)
    actions = th.as_tensor([np.random.default_rng(2).choice(np.flatnonzero(row))
                            for row in masks.numpy()])
    want = reference.evaluate_actions(obs, actions, action_masks=masks)
    got = cheap.evaluate_actions(obs, actions, action_masks=masks)
    for w, g in zip(want, got):
        assert w is not None and g is not None
        np.testing.assert_allclose(g.detach().numpy(), w.detach().numpy(), atol=1e-5)


def test_rollout_actions_are_legal_and_their_log_probabilities_sb3_contribs() -> None:
    reference, cheap = _pair()
    obs, masks = _batch(2000, seed=3)
    th.manual_seed(4)
    actions, values, log_prob = cheap(obs, action_masks=masks.numpy())
    assert masks[th.arange(len(actions)), actions].all()
    _, want, _ = reference.evaluate_actions(obs, actions, action_masks=masks)
    np.testing.assert_allclose(log_prob.detach().numpy(), want.detach().numpy(), atol=1e-5)
    greedy, _, _ = cheap(obs, deterministic=True, action_masks=masks.numpy())
    expected, _ = reference.predict(obs.numpy(), deterministic=True,
                                    action_masks=masks.numpy())
    np.testing.assert_array_equal(greedy.numpy(), expected)


@pytest.mark.parametrize("seed", [5, 6])
def test_draws_follow_the_masked_probabilities(seed: int) -> None:
    _, cheap = _pair()
    obs, masks = _batch(1, seed=seed)
    obs, masks = obs.repeat(20_000, 1), masks.repeat(20_000, 1)
    th.manual_seed(seed)
    actions, _, log_prob = cheap(obs, action_masks=masks.numpy())
    counts = np.bincount(actions.numpy(), minlength=ACTIONS.n) / len(actions)
    probs = np.zeros(ACTIONS.n)
    probs[actions.numpy()] = log_prob.exp().detach().numpy()
    assert counts[~masks[0].numpy()].sum() == 0
    np.testing.assert_allclose(counts, probs, atol=0.015)


def test_the_cheap_probabilities_give_the_same_bits_as_exp_of_the_masked_log_softmax() -> None:
    """The probabilities skip ``exp`` of the illegal entries; values and PPO's gradients
    must be the bits of ``exp(log_softmax(masked logits))`` with a masked fill (a pure
    speed change: the same seed trains the same model)."""
    th.manual_seed(0)
    cheap = MaskedMlpPolicy(OBS, ACTIONS, lambda _: 1e-4, net_arch=[16, 16])
    obs, masks = _batch(3000, seed=7)
    actions = th.as_tensor([np.random.default_rng(8).choice(np.flatnonzero(row))
                            for row in masks.numpy()])

    def loss_and_grads(reference: bool) -> tuple[th.Tensor, list[th.Tensor]]:
        cheap.zero_grad()
        if reference:
            latent_pi, latent_vf = cheap._latents(obs)
            logits = cheap.action_net(latent_pi).masked_fill(~masks, -1e8)
            log_probs = th.log_softmax(logits, dim=-1)
            log_prob = log_probs.gather(-1, actions.reshape(-1, 1)).squeeze(-1)
            entropy = -(log_probs.exp() * log_probs).masked_fill(~masks, 0.0).sum(-1)
            values = cheap.value_net(latent_vf)
        else:
            values, log_prob, maybe_entropy = cheap.evaluate_actions(obs, actions, masks)
            assert maybe_entropy is not None
            entropy = maybe_entropy
        loss = values.mean() + log_prob.mean() - 0.01 * entropy.mean()
        loss.backward()
        return loss.detach(), [th.zeros(0) if p.grad is None else p.grad.clone()
                               for p in cheap.parameters()]

    want_loss, want = loss_and_grads(reference=True)
    got_loss, got = loss_and_grads(reference=False)
    assert want_loss.view(th.int32) == got_loss.view(th.int32)
    for w, g in zip(want, got):
        assert th.equal(w.view(th.int32), g.view(th.int32))
    log_probs, legal = cheap._masked_log_probs(cheap._latents(obs)[0], masks)
    probs = cheap._probs(log_probs, legal)
    assert th.equal(probs.view(th.int32), log_probs.exp().view(th.int32))
    assert (probs[~masks] == 0).all()


@pytest.mark.parametrize("net_arch", [[16, 16], []])
def test_gathered_first_layers_match_the_dense_ones_on_sparse_inputs(net_arch: list[int]
                                                                      ) -> None:
    """``gather_active_inputs`` (the information-state stages): the loss terms and every
    gradient match the dense layers', and a column no row sets gets a zero gradient."""
    wide = spaces.Box(0.0, 1.0, (300,), np.float32)
    rng = np.random.default_rng(9)
    obs = np.zeros((500, 300), np.float32)
    used = rng.choice(300, size=25, replace=False)  # the columns any row sets
    obs[:, used] = (rng.random((500, 25)) < 0.2) * rng.integers(1, 4, (500, 25))
    masks = rng.random((500, ACTIONS.n)) < 0.5
    masks[np.arange(500), rng.integers(ACTIONS.n, size=500)] = True
    actions = th.as_tensor([rng.choice(np.flatnonzero(row)) for row in masks])
    th.manual_seed(0)
    policy = MaskedMlpPolicy(wide, ACTIONS, lambda _: 1e-4, net_arch=net_arch)

    def terms_and_grads(gather: bool) -> tuple[list[th.Tensor], list[th.Tensor]]:
        policy.gather_active_inputs = gather
        policy.zero_grad()
        terms = policy.evaluate_actions(th.as_tensor(obs), actions, th.as_tensor(masks))
        values, log_prob, entropy = terms
        assert entropy is not None
        (values.mean() + log_prob.mean() - 0.01 * entropy.mean()).backward()
        return ([t.detach() for t in (values, log_prob, entropy)],
                [p.grad.clone() for p in policy.parameters() if p.grad is not None])

    dense_terms, dense_grads = terms_and_grads(gather=False)
    gathered_terms, gathered_grads = terms_and_grads(gather=True)
    for d, g in zip(dense_terms + dense_grads, gathered_terms + gathered_grads):
        np.testing.assert_allclose(g.numpy(), d.numpy(), rtol=1e-5, atol=1e-6)
    if net_arch:
        first = policy.mlp_extractor.policy_net[0].weight.grad
        unused = np.setdiff1d(np.arange(300), used)
        assert first is not None and (first[:, unused] == 0).all()
        assert (first[:, used] != 0).any()


def test_the_columns_in_use_are_those_any_row_sets_whatever_the_signs() -> None:
    """A column is in use where some row sets it. In a space with negative entries a
    column whose entries cancel (+1.5 and -1.5) is in use; in a space without (every
    observation and information state here) the plain sum finds the same columns."""
    obs = th.tensor([[1.5, 0.0, 0.0, 2.0, 0.0], [-1.5, 0.0, 0.0, 0.0, 0.5]])
    signed = MaskedMlpPolicy(spaces.Box(-2.0, 2.0, (5,), np.float32), ACTIONS,
                             lambda _: 1e-4)
    assert signed._active_columns(obs).tolist() == [0, 3, 4]
    non_negative = MaskedMlpPolicy(spaces.Box(0.0, 2.0, (5,), np.float32), ACTIONS,
                                   lambda _: 1e-4)
    assert non_negative._inputs_non_negative and not signed._inputs_non_negative
    assert non_negative._active_columns(obs.abs()).tolist() == [0, 3, 4]
    assert non_negative._active_columns(th.zeros(3, 5)).tolist() == []
