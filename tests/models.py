"""A trained model's file, made without training: its description and weights, as
``sette train`` writes them (``agents.learned``), for tests of what reads them."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

from agents.learned import INFO_ENTRY, ModelInfo


def tiny_model(folder: Path, info: ModelInfo) -> Path:
    """``folder/model.zip``: an actor of one hidden layer (``info.net_arch[0]`` units) with
    fixed weights, and ``info`` as its description."""
    import torch

    state, rows = {}, info.observation_size
    for key, size in (("mlp_extractor.policy_net.0", info.net_arch[0]),
                      ("action_net", len(info.action_names))):
        state[f"{key}.weight"] = torch.linspace(-1, 1, size * rows).reshape(size, rows)
        state[f"{key}.bias"] = torch.zeros(size)
        rows = size
    buffer = io.BytesIO()
    torch.save(state, buffer)
    path = folder / "model.zip"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("policy.pth", buffer.getvalue())
        archive.writestr(INFO_ENTRY, info.to_json())
    return path
