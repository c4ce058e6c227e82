"""train.rollout_buffer.IndexedRolloutBuffer gives sb3-contrib's minibatches, bit for bit.

PPO trains on what the buffer hands out: every field of every minibatch (rows,
dtypes, values, the masks' shape) must be the parent's for the same shuffle, rollout
after rollout (the buffer is refilled in place and flattened anew).
"""

from __future__ import annotations

import numpy as np
import torch as th
from gymnasium import spaces
from sb3_contrib.common.maskable.buffers import MaskableRolloutBuffer

from train.rollout_buffer import IndexedRolloutBuffer

OBS, ACTIONS = spaces.Box(-1.0, 1.0, (7,), np.float32), spaces.Discrete(5)


def _filled(cls: type, rollout: int, n_envs: int = 6, steps: int = 4) -> MaskableRolloutBuffer:
    buffer = cls(steps, OBS, ACTIONS, device="cpu", n_envs=n_envs)
    rng = np.random.default_rng(rollout)
    for _ in range(steps):
        masks = rng.random((n_envs, ACTIONS.n)) < 0.5
        buffer.add(rng.uniform(-1, 1, (n_envs, 7)).astype(np.float32),
                   rng.integers(5, size=(n_envs, 1)), rng.normal(size=n_envs),
                   rng.random(n_envs) < 0.3, th.as_tensor(rng.normal(size=(n_envs, 1))),
                   th.as_tensor(rng.normal(size=n_envs)), action_masks=masks)
    buffer.compute_returns_and_advantage(th.as_tensor(rng.normal(size=(n_envs, 1))),
                                         rng.random(n_envs) < 0.3)
    return buffer


def test_every_minibatch_is_sb3_contribs_bit_for_bit() -> None:
    indexed, reference = IndexedRolloutBuffer, MaskableRolloutBuffer
    fast, slow = _filled(indexed, 0), _filled(reference, 0)
    for rollout in range(3):
        if rollout:  # refilled as a training run refills it
            for buffer, cls in ((fast, indexed), (slow, reference)):
                fresh = _filled(cls, rollout)
                buffer.reset()
                for name in ("observations", "actions", "values", "log_probs", "advantages",
                             "returns", "action_masks", "rewards", "episode_starts"):
                    getattr(buffer, name)[:] = getattr(fresh, name)
                buffer.full = True
        np.random.seed(rollout)
        got = list(fast.get(8))
        np.random.seed(rollout)
        want = list(slow.get(8))
        assert len(got) == len(want) == 3
        for g, w in zip(got, want):
            for a, b in zip(g, w):
                assert a.dtype == b.dtype and a.shape == b.shape
                assert th.equal(a, b)
