"""Policies trained on Ray RLlib (``sette train --backend rllib``) as agents, without ray.

An RLlib run exports each policy it trains — the player's and the bank's —
as plain files in its stage folder, at every checkpoint and at the end::

    RUN/player/policy.pth           the actor's weights: a torch state dict of tensors
    RUN/player/sette-model.json     what the network is (:class:`agents.learned.ModelInfo`)
    RUN/bank/...                    the same for the bank

**Nothing here runs code from the files.** The description is JSON; the
weights are read with ``torch.load(weights_only=True)``, whose restricted
unpickler accepts tensors and plain containers only (the rule of
:mod:`agents.learned`). RLlib's own checkpoints (``RUN/rllib/``) pickle the
algorithm and are used only to resume training; loading an agent never
touches them, so neither ray nor RLlib need be installed to play, evaluate
or solve with an RLlib policy.

The exported actor is written in the layout of an SB3 model's state dict
(``mlp_extractor.policy_net.<2k>`` for the hidden layers, ``action_net``
for the logits) so that the same :meth:`agents.learned.LearnedAgent.from_state`
rebuilds it: the best legal action of the masked logits, as the RLlib
module's deterministic action (RLlib's masking module adds a large negative
number to illegal logits where this agent uses ``-inf``; the legal argmax is
the same).

Specs (:mod:`agents.registry`): ``rllib:RUN/player`` or ``rllib:RUN/bank``
is one policy; ``rllib:RUN`` is the run's seat, its player while it plays
and its bank while it holds the bank (``PLAYER|BANK``); a bare path to an
exported folder is read the same way.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from agents.learned import INFO_ENTRY, LearnedAgent, ModelInfo, check_action_layout
from agents.seating import RoleSplitAgent

WEIGHTS_FILE = "policy.pth"
"""The actor's weights in an exported folder (a torch state dict, read ``weights_only``)."""
INFO_FILE = INFO_ENTRY
"""The description beside them: the JSON an SB3 model zip holds (:class:`ModelInfo`)."""
ROLES = ("player", "bank")
"""The policies an RLlib run trains, each in the run folder of its name."""
TRAINER = "rllib"
"""The ``trainer`` an exported description names (an SB3 model's has none)."""


def is_export(path: str | Path) -> bool:
    """Whether ``path`` is an exported RLlib policy folder (or its description)."""
    folder = Path(path)
    if folder.name == INFO_FILE:
        folder = folder.parent
    return (folder / INFO_FILE).is_file() and (folder / WEIGHTS_FILE).is_file()


def is_run(path: str | Path) -> bool:
    """Whether ``path`` is an RLlib run folder with both policies exported."""
    return all(is_export(Path(path) / role) for role in ROLES)


def export_folder(path: str | Path) -> Path:
    """The exported folder a path names, or a ``ValueError`` that says what it holds."""
    folder = Path(path)
    if folder.name in (INFO_FILE, WEIGHTS_FILE):
        folder = folder.parent
    if is_export(folder):
        return folder
    if not folder.exists():
        raise ValueError(f"RLlib policy {str(path)!r} does not exist; give the folder of an "
                         f"exported policy (RUN/player, RUN/bank) or the run folder RUN")
    found = sorted(q.name for q in folder.iterdir())[:12] if folder.is_dir() else [folder.name]
    raise ValueError(f"{str(path)!r} is not an exported RLlib policy: it needs {INFO_FILE} "
                     f"and {WEIGHTS_FILE} (sette train --backend rllib writes them in RUN/player "
                     f"and RUN/bank; found: {', '.join(found) or 'nothing'})")


def check_spec(path: str) -> None:
    """Name a bad ``rllib:`` path now, before anything loads (:func:`agents.resolve_spec`)."""
    if not is_run(path):
        export_folder(path)


def write_export(folder: Path, state: dict[str, Any], info: ModelInfo) -> None:
    """Write an exported policy: the weights, then the description that makes it loadable.

    ``state`` maps the SB3 layer names (module docstring) to tensors. Each file
    is written aside and renamed, so a stop never leaves a half-written policy.
    """
    import torch

    folder.mkdir(parents=True, exist_ok=True)
    partial = folder / f"partial-{WEIGHTS_FILE}"
    torch.save({k: v.detach().cpu().contiguous() for k, v in state.items()}, partial)
    partial.replace(folder / WEIGHTS_FILE)
    described = {**json.loads(info.to_json()), "trainer": TRAINER}
    partial = folder / f"partial-{INFO_FILE}"
    partial.write_text(json.dumps(described, indent=1) + "\n", encoding="utf-8")
    partial.replace(folder / INFO_FILE)


def read_export(path: str | Path) -> tuple[ModelInfo, dict[str, Any]]:
    """The description and weights of an exported policy, read without running code."""
    import torch  # torch loads only when a policy is

    folder = export_folder(path)
    info = ModelInfo.from_json((folder / INFO_FILE).read_text(encoding="utf-8"),
                               str(folder / INFO_FILE))
    try:
        state = torch.load(folder / WEIGHTS_FILE, map_location="cpu", weights_only=True)
    except Exception as exc:  # the restricted unpickler refuses anything but weights
        raise ValueError(f"{str(folder / WEIGHTS_FILE)!r} holds more than plain weights and "
                         f"was refused ({type(exc).__name__}: "
                         f"{str(exc).splitlines()[0] if str(exc) else ''})") from None
    if not isinstance(state, dict):
        raise ValueError(f"{str(folder / WEIGHTS_FILE)!r} is not a state dict of weights")
    return info, state


def load_policy(path: str | Path) -> LearnedAgent:
    """One exported RLlib policy as an agent (``rllib:RUN/player``; module docstring)."""
    info, state = read_export(path)
    check_action_layout(info, str(path))
    agent = LearnedAgent.from_state(state, info, str(path))
    agent.spec = f"{TRAINER}:{path}"  # the half of a run's seat says where it came from too
    return agent


def load_rllib(path: str | Path) -> LearnedAgent | RoleSplitAgent:
    """The agent of an ``rllib:`` spec: one exported policy, or a run's player and bank."""
    if is_run(path):
        return RoleSplitAgent(*(load_policy(Path(path) / role) for role in ROLES))
    return load_policy(path)
