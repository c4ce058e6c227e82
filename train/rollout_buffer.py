"""``IndexedRolloutBuffer``: sb3-contrib's rollout buffer, its minibatches gathered by torch.

PPO cuts every rollout into shuffled minibatches. sb3-contrib's
``MaskableRolloutBuffer`` gathers each with numpy's fancy indexing and then
copies the result into a new tensor: two copies of every field. Over the
rollouts of thousands of tables (minibatches of thousands of rows, the mask's
dozens of columns) that was about a twelfth of ``MaskablePPO.train``.
:class:`IndexedRolloutBuffer` wraps the flattened rollout's arrays as tensors
once (no copy) and gathers every minibatch with ``index_select``: one copy, the
same rows, dtypes and values, so training gives the same bits.
"""

from __future__ import annotations

from collections.abc import Generator

import numpy as np
import torch as th
from sb3_contrib.common.maskable.buffers import (MaskableRolloutBuffer,
                                                 MaskableRolloutBufferSamples)
from stable_baselines3.common.vec_env import VecNormalize

__all__ = ["IndexedRolloutBuffer"]

_FIELDS = ("observations", "actions", "values", "log_probs", "advantages", "returns",
           "action_masks")
"""The fields of a minibatch, in the order of ``MaskableRolloutBufferSamples``."""


class IndexedRolloutBuffer(MaskableRolloutBuffer):
    """``MaskableRolloutBuffer`` whose minibatches are one ``index_select`` of each field
    (module docstring); only for the CPU, where a tensor can share a numpy array."""

    _flat: tuple[th.Tensor, ...] | None = None

    def reset(self) -> None:
        super().reset()
        self._flat = None

    def get(self, batch_size: int | None = None  # type: ignore[override]
            ) -> Generator[MaskableRolloutBufferSamples, None, None]:
        self._flat = None  # the parent flattens the arrays (new ones) before its first batch
        yield from super().get(batch_size)

    def _get_samples(self, batch_inds: np.ndarray,  # type: ignore[override]
                     env: VecNormalize | None = None) -> MaskableRolloutBufferSamples:
        if self.device.type != "cpu" or env is not None:
            return super()._get_samples(batch_inds, env)
        if self._flat is None:
            self._flat = tuple(th.from_numpy(getattr(self, name)) for name in _FIELDS)
        rows = th.from_numpy(np.asarray(batch_inds, dtype=np.int64))
        obs, actions, values, log_probs, advantages, returns, masks = (
            field.index_select(0, rows) for field in self._flat)
        return MaskableRolloutBufferSamples(obs, actions, values.flatten(), log_probs.flatten(),
                                            advantages.flatten(), returns.flatten(),
                                            masks.reshape(-1, self.mask_dims))
