"""Fixtures shared by the test modules."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

TINY_RUN = """
[player]
timesteps = {player}
ppo = {{}}
more_seats = {{}}
[bank]
timesteps = 512
more_seats = {{}}
information_state_imitate_steps = 512
information_state_imitate_epochs = 1
[selfplay]
rounds = 1
player_timesteps = 256
bank_timesteps = 256
pool_size = 1
[run]
torch_threads = 1
n_envs = 2
checkpoint_every = 256
eval_every = 512
eval_hands = 100
progress_bar = false
[ppo]
n_steps = 128
batch_size = 64
n_epochs = 2
net_arch = [16, 16]
vf_net_arch = [8]
[evaluate]
hands = 200
thresholds = [4.5, 5.5]
"""


@pytest.fixture(scope="session")
def tiny_run_config() -> Callable[..., Path]:
    """``write(folder, player_steps=512)``: a ``sette train`` config small enough for a test.

    Every stage trains a few hundred steps of a 16x16 network on 2 environments
    (catalan, 2 seats: the defaults; no ``more_seats``, so a run at more seats stays as
    small, without the bank's imitation; the information-state bank imitates the bank
    over 512 decisions, once), with a checkpoint every 256 steps; the
    file is written as ``folder/tiny.toml`` and its path returned.
    """

    def write(folder: Path, player_steps: int = 512) -> Path:
        path = folder / "tiny.toml"
        path.write_text(TINY_RUN.format(player=player_steps))
        return path

    return write
