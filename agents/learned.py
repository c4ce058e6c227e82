"""Learned policies as agents: a MaskablePPO model saved by ``sette train``.

``load_model(path)`` takes a model file (``model.zip``), a stage folder holding
one (``RUN/player``), or a checkpoint; the registry spec is ``model:PATH``.

**A model file never runs code.** SB3 stores a model as a zip whose ``data``
entry holds cloudpickled objects: unpickling it — what ``MaskablePPO.load``
does — runs whatever the file's author put there. So ``sette train`` writes a
plain JSON description, :data:`INFO_ENTRY`, into every zip it saves (the
network's layer sizes and activation, the observation size, the action
names, seats, rules, role, timesteps: :class:`ModelInfo`), and loading reads
only that JSON and the weights (``policy.pth``, with
``torch.load(weights_only=True)``, which accepts tensors and plain containers
and nothing that runs code). Nothing else in the zip is read. A zip without
the description (saved before it existed, or by something else) is refused
unless the user trusts the file: ``--trust-model`` on the command line, or
:data:`TRUST_ENV` ``=1`` in the environment (which worker processes inherit),
loads it the old way, unpickling it.

**The action layout it was trained on.** The description records
``action_layout_version`` (:data:`envs.actions.ACTION_LAYOUT_VERSION`) beside
the action names; loading a model trained on another layout version is
refused with one error naming both versions and the actions that differ
(:func:`check_action_layout`). A description written before the layout was
versioned has no such record and reads as version 1, the layout of that time.

**What it was trained on.** The description records ``observation_type``:
``"observation"`` (the seat's observation vector; a description without the
key was written before information states existed and reads so) or
``"information_state"`` (the seat's perfect recall of the hand, RULES.md
§8.10, as the views give it with ``observation_type="information_state"``).
The agent says which (:attr:`LearnedAgent.observation_type`): the table loop
(:class:`agents.seating.Table`) and the solver's queries give each agent the
vector it was trained on; anywhere only the observation can be given, an
information-state model refuses it with a message saying so.

The trained network is a small MLP, and one observation at a time through
torch costs far more than the game step it decides. So the agent holds the
actor's weights in numpy and evaluates ``argmax`` of the masked logits
itself — the deterministic action MaskablePPO's ``predict`` would give, tested
to agree — which also makes it cheap to pickle into worker processes.
"""

from __future__ import annotations

import io
import json
import os
import zipfile
from dataclasses import asdict, dataclass, field
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from agents.base import Agent
from envs.actions import ACTION_LAYOUT_VERSION, ActionLayout
from envs.engine import MAX_SEATS, MIN_SEATS
from envs.information_state import INFORMATION_STATE, OBSERVATION_TYPES
from envs.observer import observation_size

MODEL_FILE = "model.zip"
INFO_ENTRY = "sette-model.json"
"""The JSON description inside a model zip, beside SB3's ``policy.pth``."""
INFO_FORMAT, INFO_VERSION = "sette-model", 1
TRUST_ENV = "SETTE_TRUST_MODEL"
"""Set to ``1`` (what ``--trust-model`` does) to unpickle model files without a description."""
_ACTIVATIONS: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "tanh": np.tanh, "relu": lambda x: np.maximum(x, 0.0)}
_Layer = tuple[np.ndarray, np.ndarray, str | None]


def model_path(path: str | Path) -> Path:
    """The model file a path names: the file itself, or ``model.zip`` in a folder."""
    p = Path(path)
    if p.is_dir():
        candidate = p / MODEL_FILE
        if not candidate.is_file():
            found = sorted(q.name for q in p.iterdir())[:12]
            raise ValueError(f"{str(p)!r} holds no {MODEL_FILE}; a model folder is a training "
                             f"stage such as RUN/player or RUN/bank (found: "
                             f"{', '.join(found) or 'nothing'})")
        return candidate
    if not p.is_file():
        raise ValueError(f"model {str(p)!r} does not exist; give a {MODEL_FILE} or the folder "
                         f"of a training stage (RUN/player, RUN/bank, RUN/selfplay/player)")
    return p


def trusted() -> bool:
    """Whether the user asked to unpickle model files without a description (module doc)."""
    return os.environ.get(TRUST_ENV, "") == "1"


# ------------------------------------------------------------------ description
@dataclass(frozen=True)
class ModelInfo:
    """What a saved model is, in plain JSON (:data:`INFO_ENTRY`; see the module docstring).

    ``net_arch`` and ``activation`` rebuild the actor (SB3's ``MlpExtractor``:
    ``Linear`` then the activation per entry, then ``action_net``);
    ``observation_size`` and ``action_names`` fix its input and output, and
    ``num_seats``, ``rules``, ``rules_values`` and ``role`` say which table it
    was trained for. ``timesteps`` and ``n_updates`` let training resume.
    ``action_layout_version`` is the version of the action layout
    (:mod:`envs.actions`) that ``action_names`` follow; a description without
    it was written before layouts had versions and reads as version 1.
    ``observation_type`` is what the network was given (:data:`OBSERVATION_TYPES`;
    absent: written before information states, ``"observation"``).
    ``vf_net_arch`` is the critic's hidden layers, which only training reads (absent:
    written when the critic always had the actor's layers, which it reads as).
    """

    role: str
    rules: str
    num_seats: int
    observation_size: int
    action_names: tuple[str, ...]
    net_arch: tuple[int, ...]
    activation: str
    timesteps: int
    n_updates: int = 0
    rules_values: dict[str, Any] = field(default_factory=dict)
    action_layout_version: int = ACTION_LAYOUT_VERSION
    observation_type: str = "observation"
    vf_net_arch: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        if self.vf_net_arch is None:
            object.__setattr__(self, "vf_net_arch", self.net_arch)

    def to_json(self) -> str:
        data = {"format": INFO_FORMAT, "version": INFO_VERSION, **asdict(self)}
        data["action_names"] = list(self.action_names)
        data["net_arch"] = list(self.net_arch)
        data["vf_net_arch"] = list(self.vf_net_arch or ())
        return json.dumps(data, indent=1) + "\n"

    @classmethod
    def from_json(cls, text: str, source: str) -> "ModelInfo":
        """Parse and check a description; anything unexpected is a named ``ValueError``."""
        try:
            data = json.loads(text)
        except ValueError as exc:
            raise ValueError(f"{source}: {INFO_ENTRY} is not valid JSON ({exc})") from None
        if not isinstance(data, dict) or data.get("format") != INFO_FORMAT:
            raise ValueError(f"{source}: {INFO_ENTRY} is not a sette model description")
        if data.get("version") != INFO_VERSION:
            raise ValueError(f"{source}: model description version {data.get('version')!r} "
                             f"is not supported; this sette reads version {INFO_VERSION}")
        expected = {"role": str, "rules": str, "num_seats": int, "observation_size": int,
                    "action_names": list, "net_arch": list, "activation": str,
                    "timesteps": int, "n_updates": int, "rules_values": dict}
        for key, kind in expected.items():
            if not isinstance(data.get(key), kind) or isinstance(data.get(key), bool):
                raise ValueError(f"{source}: {INFO_ENTRY} needs {key!r} as "
                                 f"{kind.__name__}, got {data.get(key)!r}")
        if data["activation"] not in _ACTIVATIONS:
            raise ValueError(f"{source}: activation {data['activation']!r} is not supported; "
                             f"supported: {', '.join(_ACTIVATIONS)}")
        vf_net_arch: Any = data.get("vf_net_arch", data["net_arch"])  # absent: the actor's
        for key, arch in (("net_arch", data["net_arch"]), ("vf_net_arch", vf_net_arch)):
            if not isinstance(arch, list) or not all(
                    isinstance(n, int) and not isinstance(n, bool) and n > 0 for n in arch):
                raise ValueError(f"{source}: {key} {arch!r} must list layer sizes")
        layout = data.get("action_layout_version", 1)  # absent: written before versions
        if not isinstance(layout, int) or isinstance(layout, bool) or layout < 1:
            raise ValueError(f"{source}: {INFO_ENTRY} needs 'action_layout_version' as an "
                             f"int from 1, got {layout!r}")
        observation_type = data.get("observation_type", "observation")  # absent: before
        if observation_type not in OBSERVATION_TYPES:                    # information states
            raise ValueError(f"{source}: observation_type {observation_type!r} is not "
                             f"supported; supported: {', '.join(OBSERVATION_TYPES)}")
        return cls(data["role"], data["rules"], data["num_seats"], data["observation_size"],
                   tuple(str(a) for a in data["action_names"]), tuple(data["net_arch"]),
                   data["activation"], data["timesteps"], data["n_updates"],
                   data["rules_values"], layout, observation_type, tuple(vf_net_arch))


def write_info(file: Path, info: ModelInfo) -> None:
    """Add the description to a model zip SB3 has just saved."""
    with zipfile.ZipFile(file, "a") as archive:
        archive.writestr(INFO_ENTRY, info.to_json())


def read_info(file: Path) -> ModelInfo | None:
    """The description in a model zip, or ``None`` when it has none."""
    with _open_zip(file) as archive:
        if INFO_ENTRY not in archive.namelist():
            return None
        return ModelInfo.from_json(archive.read(INFO_ENTRY).decode("utf-8", "replace"),
                                   str(file))


def check_action_layout(info: ModelInfo, source: str) -> None:
    """Refuse a model whose action layout is not this sette's (:mod:`envs.actions`).

    The error names both layout versions and, where the model's bet ladder is
    recorded, the first index from which the two lists of actions differ.
    """
    ladder = info.rules_values.get("bet_ladder")
    ours = ActionLayout(tuple(ladder)).names if isinstance(ladder, list) and ladder else None
    theirs = list(info.action_names)
    if info.action_layout_version == ACTION_LAYOUT_VERSION and ours in (None, theirs):
        return
    if ours is None:
        differs = f"the model has {len(theirs)} actions"
    elif ours == theirs:
        differs = f"both name the same {len(ours)} actions for its bet ladder"
    else:
        start = next((i for i, (a, b) in enumerate(zip(ours, theirs)) if a != b),
                     min(len(ours), len(theirs)))
        differs = (f"from index {start} the model has {_some(theirs[start:])} where this "
                   f"layout has {_some(ours[start:])}")
    raise ValueError(f"model {source} was trained on action layout version "
                     f"{info.action_layout_version}, but this sette uses action layout version "
                     f"{ACTION_LAYOUT_VERSION}: {differs}. Play it with the sette it was "
                     f"trained with, or train it again")


def _some(names: list[str], shown: int = 6) -> str:
    """A few action names for a message: ``nothing`` when there are none."""
    if not names:
        return "nothing"
    more = f" and {len(names) - shown} more" if len(names) > shown else ""
    return ", ".join(names[:shown]) + more


def refusal(file: Path) -> str:
    """Why a model zip without a description is not loaded, and what the user can do."""
    return (f"{str(file)!r} has no {INFO_ENTRY}: it was not saved by this version of sette "
            f"train. Loading it would unpickle the file, which can run any code its author "
            f"put there; only if you trust where it came from, pass --trust-model (or set "
            f"{TRUST_ENV}=1)")


def read_weights(file: Path, names: tuple[str, ...] = ("policy",)) -> dict[str, Any]:
    """``name -> state dict`` of SB3's ``<name>.pth`` entries, loaded with ``weights_only``."""
    import torch  # torch loads only when a model is

    out = {}
    with _open_zip(file) as archive:
        for name in names:
            entry = f"{name}.pth"
            if entry not in archive.namelist():
                raise ValueError(f"{str(file)!r} has no {entry}; it is not a model saved by "
                                 f"sette train")
            try:
                out[name] = torch.load(io.BytesIO(archive.read(entry)), map_location="cpu",
                                       weights_only=True)
            except Exception as exc:  # the restricted unpickler refuses anything but weights
                raise ValueError(f"{str(file)!r}: {entry} holds more than plain weights and "
                                 f"was refused ({type(exc).__name__}: "
                                 f"{str(exc).splitlines()[0] if str(exc) else ''})") from None
    return out


def _open_zip(file: Path) -> zipfile.ZipFile:
    try:
        return zipfile.ZipFile(file)
    except (zipfile.BadZipFile, OSError) as exc:
        raise ValueError(f"{str(file)!r} is not a model saved by sette train ({exc})") from None


# ------------------------------------------------------------------ the agent
class LearnedAgent(Agent):
    """A trained actor network, evaluated in numpy (deterministic: the best legal action).

    Build it with :func:`load_model`, or from a live model with :meth:`from_policy`.
    ``num_seats`` (when known) is the table size it was trained for: seated at
    another, it says so and names the model. ``observation_type`` is what it
    was trained on and must be given (module docstring).
    """

    def __init__(self, layers: list[_Layer], obs_size: int, source: str = "policy",
                 num_seats: int | None = None, info: ModelInfo | None = None,
                 observation_type: str = "observation") -> None:
        if observation_type not in OBSERVATION_TYPES:
            raise ValueError(f"observation_type {observation_type!r} is not one of "
                             f"{', '.join(OBSERVATION_TYPES)}")
        self.layers = layers
        self.observation_type = observation_type
        self.obs_size = obs_size
        self.num_actions = len(layers[-1][1])
        self.source = source
        self.num_seats = num_seats
        self.info = info
        self.spec = f"model:{source}"

    @classmethod
    def from_policy(cls, policy: Any, source: str = "policy",
                    observation_type: str = "observation") -> "LearnedAgent":
        """Copy the actor of a live SB3 ``ActorCriticPolicy`` with an MLP extractor,
        trained on ``observation_type``."""
        import torch.nn as nn

        layers: list[_Layer] = []
        modules = list(policy.mlp_extractor.policy_net)
        for k, module in enumerate(modules):
            if isinstance(module, nn.Linear):
                act = modules[k + 1] if k + 1 < len(modules) else None
                name = type(act).__name__.lower() if act is not None else None
                if name is not None and name not in _ACTIVATIONS:
                    raise ValueError(f"{source}: activation {type(act).__name__} is not "
                                     f"supported; supported: {', '.join(_ACTIVATIONS)}")
                layers.append(_numpy_layer(module.weight, module.bias, name))
            elif type(module).__name__.lower() not in _ACTIVATIONS:
                raise ValueError(f"{source}: layer {module!r} is not supported in a policy "
                                 f"network; use Linear layers with Tanh or ReLU")
        layers.append(_numpy_layer(policy.action_net.weight, policy.action_net.bias, None))
        return cls(layers, int(np.prod(policy.observation_space.shape)), source,
                   observation_type=observation_type)

    @classmethod
    def from_state(cls, state: dict[str, Any], info: ModelInfo, source: str) -> "LearnedAgent":
        """The actor rebuilt from the policy's state dict and its description."""
        layers: list[_Layer] = []
        rows = info.observation_size
        keys = [f"mlp_extractor.policy_net.{2 * i}" for i in range(len(info.net_arch))]
        for key, size in [*zip(keys, info.net_arch), ("action_net", len(info.action_names))]:
            weight, bias = state.get(f"{key}.weight"), state.get(f"{key}.bias")
            if weight is None or bias is None or tuple(weight.shape) != (size, rows) \
                    or tuple(bias.shape) != (size,):
                found = None if weight is None else tuple(weight.shape)
                raise ValueError(f"{source}: the weights do not match its description "
                                 f"(layer {key}: expected {size}x{rows}, found {found})")
            layers.append(_numpy_layer(weight, bias,
                                       None if key == "action_net" else info.activation))
            rows = size
        return cls(layers, info.observation_size, source, info.num_seats, info,
                   info.observation_type)

    def logits(self, observation: np.ndarray) -> np.ndarray:
        """Unmasked action logits of one observation."""
        x = np.asarray(observation, dtype=np.float64)
        if x.shape[-1] != self.obs_size:
            raise ValueError(self._mismatch(x.shape[-1]))
        for weight, bias, activation in self.layers:
            x = x @ weight + bias
            if activation is not None:
                x = _ACTIVATIONS[activation](x)
        return x

    def _mismatch(self, length: int) -> str:
        """Why an observation does not fit: an observation given to a model trained on the
        information state, or the table size, in the command line's words."""
        if self.observation_type == INFORMATION_STATE:
            if _seats_of(length) is not None:
                return (f"model {self.source} was trained on the information state "
                        f"({self.obs_size} entries), but it was given an observation "
                        f"({length} entries), which does not hold the hand's history; "
                        f"seat it where the information state is given: a view or env with "
                        f"observation_type='information_state', sette evaluate, sette "
                        f"report or sette solve")
            return (f"model {self.source} was trained on information states of length "
                    f"{self.obs_size} but got {length}: their length depends on the rules "
                    f"and the seats; seat it at the table it was trained at "
                    f"({self.num_seats or '?'} seats, rules {self._rules()}, the bank kept "
                    f"on one seat as the Player and Bank views keep it: sette evaluate "
                    f"--fixed-bank)")
        table, trained = _seats_of(length), self.num_seats or _seats_of(self.obs_size)
        if trained is None or table is None:
            return (f"model {self.source} was trained on observations of length "
                    f"{self.obs_size} but got {length}")
        return (f"model {self.source} was trained for {trained} seats, not {table}; "
                f"seat it at a table of {trained} (--seats {trained})")

    def check_table(self, vector_size: int, num_actions: int) -> None:
        """Refuse a table whose vectors (observations or information states, the kind this
        model reads) have ``vector_size`` entries, or whose action layout has
        ``num_actions`` actions, unless both are the ones it was trained on: a
        ``ValueError`` in the command line's words, before any card is dealt."""
        if vector_size != self.obs_size:
            raise ValueError(self._mismatch(vector_size))
        if num_actions != self.num_actions:
            raise ValueError(self._actions_mismatch(num_actions))

    def check_role(self, role: str) -> None:
        """Refuse to be asked as ``role`` (``"player"`` or ``"bank"``) when the model was
        trained for the other one (its description's ``role``): where a command names the
        role a policy plays, as the solver's ``--player`` and ``--bank`` do, the other
        role's model is a slip, and valued there it plays a side it never learned."""
        trained = None if self.info is None else self.info.role
        if trained in ("player", "bank") and trained != role:
            raise ValueError(f"model {self.source} was trained as the {trained}, not as the "
                             f"{role}: give it as the {trained}, and a {role}'s model as the "
                             f"{role}")

    def _actions_mismatch(self, num_actions: int) -> str:
        """Why a table's action layout does not fit: its bet ladder (RULES.md §4)."""
        rules = f" ({self._rules()})" if self.info is not None else ""
        return (f"model {self.source} was trained with {self.num_actions} actions but this "
                f"table has {num_actions}: its bet ladder differs; play it on the rules it "
                f"was trained on{rules}")

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        if len(action_mask) != self.num_actions:
            raise ValueError(self._actions_mismatch(len(action_mask)))
        logits = self.logits(observation)
        logits = np.where(np.asarray(action_mask, dtype=bool), logits, -np.inf)
        action = int(np.argmax(logits))
        if not action_mask[action]:
            raise ValueError("the action mask allows no action")
        return action

    def act_batch(self, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
        """:meth:`act` on every row at once (:class:`envs.policy.BatchPolicy`): one matrix
        product per layer over the ``(n, D)`` rows, the same float64 weights, mask and
        ``argmax`` (the first of equal logits)."""
        masks = np.asarray(action_masks, dtype=bool)
        if masks.ndim != 2 or masks.shape[1] != self.num_actions:
            raise ValueError(f"model {self.source} was trained with {self.num_actions} actions; "
                             f"act_batch needs masks of shape (n, {self.num_actions}), got "
                             f"{masks.shape}")
        logits = np.where(masks, self.logits(np.asarray(observations)), -np.inf)
        actions = np.argmax(logits, axis=1)
        empty = np.flatnonzero(~masks[np.arange(len(masks)), actions])
        if empty.size:
            raise ValueError(f"the action mask of row {int(empty[0])} allows no action")
        return actions.astype(np.int64)


    def _rules(self) -> str:
        """The rules the model was trained on, as its description names them."""
        return self.info.rules if self.info is not None else "?"


def _seats_of(length: int) -> int | None:
    """The number of seats whose observations have ``length`` entries, if any."""
    return next((n for n in range(MIN_SEATS, MAX_SEATS + 1) if observation_size(n) == length),
                None)


def _numpy_layer(weight: Any, bias: Any, activation: str | None) -> _Layer:
    return (weight.detach().cpu().numpy().astype(np.float64).T,
            bias.detach().cpu().numpy().astype(np.float64), activation)


def load_model(path: str | Path, trust: bool | None = None) -> LearnedAgent:
    """Load a model saved by ``sette train`` as an agent, without running code (module doc).

    ``trust`` (default: :func:`trusted`) allows unpickling a file that has no description.
    """
    file = model_path(path)
    info = read_info(file)
    if info is not None:
        check_action_layout(info, str(path))
        return LearnedAgent.from_state(read_weights(file)["policy"], info, str(path))
    if not (trusted() if trust is None else trust):
        raise ValueError(refusal(file))
    from sb3_contrib import MaskablePPO

    try:
        model = MaskablePPO.load(file, device="cpu")
    except Exception as exc:  # a zip that is not an SB3 model, or a damaged one
        raise ValueError(f"{str(file)!r} is not a MaskablePPO model saved by sette train: "
                         f"{exc}") from None
    return LearnedAgent.from_policy(model.policy, source=str(path))
