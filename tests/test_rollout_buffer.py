"""train.rollout_buffer.IndexedRolloutBuffer gives sb3-contrib's minibatches, bit for bit.

PPO trains on what the buffer hands out: every field of every minibatch (rows,
dtypes, values, the masks' shape) must be the parent's for the same shuffle, rollout
after rollout (the buffer is reset and refilled, its observation array kept), and
what ``PPO.train`` reads after the update (``values``, ``returns``) must be too.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch as th
from gymnasium import spaces
from sb3_contrib.common.maskable.buffers import MaskableRolloutBuffer

from train.rollout_buffer import IndexedRolloutBuffer

OBS, ACTIONS = spaces.Box(-1.0, 1.0, (7,), np.float32), spaces.Discrete(5)
N_ENVS, STEPS = 6, 4


def _fill(buffer: MaskableRolloutBuffer, rollout: int) -> None:
    """Reset ``buffer`` and fill it as ``collect_rollouts`` does, from rollout's seed."""
    buffer.reset()
    rng = np.random.default_rng(rollout)
    for _ in range(STEPS):
        masks = rng.random((N_ENVS, ACTIONS.n)) < 0.5
        buffer.add(rng.uniform(-1, 1, (N_ENVS, 7)).astype(np.float32),
                   rng.integers(5, size=(N_ENVS, 1)), rng.normal(size=N_ENVS),
                   rng.random(N_ENVS) < 0.3, th.as_tensor(rng.normal(size=(N_ENVS, 1))),
                   th.as_tensor(rng.normal(size=N_ENVS)), action_masks=masks)
    buffer.compute_returns_and_advantage(th.as_tensor(rng.normal(size=(N_ENVS, 1))),
                                         rng.random(N_ENVS) < 0.3)


@pytest.mark.parametrize("batch_size", [8, 7, None])
def test_every_minibatch_is_sb3_contribs_bit_for_bit(batch_size: int | None) -> None:
    fast = IndexedRolloutBuffer(STEPS, OBS, ACTIONS, device="cpu", n_envs=N_ENVS)
    slow = MaskableRolloutBuffer(STEPS, OBS, ACTIONS, device="cpu", n_envs=N_ENVS)
    for rollout in range(3):
        for buffer in (fast, slow):
            _fill(buffer, rollout)
        np.random.seed(rollout)
        got = list(fast.get(batch_size))
        np.random.seed(rollout)
        want = list(slow.get(batch_size))
        assert len(got) == len(want) == {8: 3, 7: 4, None: 1}[batch_size]
        for g, w in zip(got, want):
            for a, b in zip(g, w):
                assert a.dtype == b.dtype and a.shape == b.shape
                assert th.equal(a, b)
        for name in ("values", "returns"):  # PPO.train's explained variance reads these
            assert np.array_equal(getattr(fast, name), getattr(slow, name))
