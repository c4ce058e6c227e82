"""``IndexedRolloutBuffer``: sb3-contrib's rollout buffer, its minibatches gathered by torch.

PPO cuts every rollout into shuffled minibatches. sb3-contrib's
``MaskableRolloutBuffer`` first copies every field into a table-major order
(``swap_and_flatten``: the steps of table 0, then those of table 1, ...), then
gathers each minibatch with numpy's fancy indexing and copies the result into a
new tensor. :class:`IndexedRolloutBuffer` gathers every minibatch with one
``index_select`` of each field, wrapped as a tensor without a copy, and leaves
the two wide fields, the observations and the action masks, in the order they
were collected (step-major): a minibatch's row of table ``e`` at step ``s`` is
read from where it was written, ``s * n_envs + e``. The parent's permutation of
the rows is drawn the same way, so every minibatch holds the same rows, dtypes
and values, and training gives the same bits.

The observation array is also kept from one rollout to the next (every row of it
is written again before it is read), where the parent allocates a fresh one: the
information state is thousands of columns wide, and a rollout of thousands of
tables made each fresh array tens of megabytes of new pages.
"""

from __future__ import annotations

from collections.abc import Generator

import numpy as np
import torch as th
from sb3_contrib.common.maskable.buffers import (MaskableRolloutBuffer,
                                                 MaskableRolloutBufferSamples)
from stable_baselines3.common.vec_env import VecNormalize

__all__ = ["IndexedRolloutBuffer"]

_TABLE_MAJOR = ("actions", "values", "log_probs", "advantages", "returns")
"""The narrow fields, flattened table-major as the parent does (``PPO.train`` reads
``values`` and ``returns`` in that order after the update)."""
_STEP_MAJOR = ("observations", "action_masks")
"""The wide fields, read in the order they were collected (module docstring)."""


class IndexedRolloutBuffer(MaskableRolloutBuffer):
    """``MaskableRolloutBuffer`` whose minibatches are one ``index_select`` of each field,
    the observations and masks read where they were written (module docstring)."""

    _flat: dict[str, th.Tensor] | None = None

    def reset(self) -> None:
        kept = self.__dict__.get("observations")
        super().reset()
        if kept is not None:  # every row is written by ``add`` before ``get`` reads it
            self.observations = kept
        self._flat = None

    def get(self, batch_size: int | None = None  # type: ignore[override]
            ) -> Generator[MaskableRolloutBufferSamples, None, None]:
        assert self.full, "the rollout buffer is read before it is full"
        rows = self.buffer_size * self.n_envs
        indices = np.random.permutation(rows)  # the parent's draw, from the same generator
        if not self.generator_ready:
            for name in _TABLE_MAJOR:
                self.__dict__[name] = self.swap_and_flatten(self.__dict__[name])
            self.generator_ready = True
        if self._flat is None:
            self._flat = {name: th.from_numpy(getattr(self, name)) for name in _TABLE_MAJOR}
            for name in _STEP_MAJOR:
                array = getattr(self, name)
                self._flat[name] = th.from_numpy(array.reshape(rows, *array.shape[2:]))
        size = batch_size or rows
        for start in range(0, rows, size):
            yield self._get_samples(indices[start:start + size])

    def _get_samples(self, batch_inds: np.ndarray,  # type: ignore[override]
                     env: VecNormalize | None = None) -> MaskableRolloutBufferSamples:
        assert self._flat is not None, "minibatches are drawn by get()"
        table_major = th.from_numpy(np.asarray(batch_inds, dtype=np.int64))
        step_major = (table_major % self.buffer_size) * self.n_envs \
            + table_major // self.buffer_size
        f = self._flat
        obs, masks = (f[name].index_select(0, step_major) for name in _STEP_MAJOR)
        actions, values, log_probs, advantages, returns = (
            f[name].index_select(0, table_major) for name in _TABLE_MAJOR)
        samples = (obs, actions, values.flatten(), log_probs.flatten(), advantages.flatten(),
                   returns.flatten(), masks.reshape(-1, self.mask_dims))
        return MaskableRolloutBufferSamples(*(t.to(self.device) for t in samples))
