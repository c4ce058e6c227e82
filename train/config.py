"""Every training hyperparameter, with its default, and TOML config files.

A config file names sections and keys of :class:`TrainConfig`; anything left
out keeps its default (``[ppo]`` applies to every stage; a stage's ``ppo``
table overrides keys of it for that stage only)::

    [table]
    rules = "catalan"
    num_seats = 2

    [player]
    timesteps = 300000
    ppo = { learning_rate = 1e-4 }   # this stage only

    [ppo]
    learning_rate = 3e-4

An unknown section or key, or a value of the wrong type, is rejected with a
message naming it and the valid choices. ``sette train --set ppo.n_epochs=4``
overrides single keys from the command line (``--set player.ppo.learning_rate=1e-4``
for a stage's own PPO setting). The resolved config is written
into every run directory (``config.toml``) and read back by ``--resume``.
"""

from __future__ import annotations

import dataclasses
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib


COMMANDS = ("all", "player", "bank", "selfplay")
"""What ``sette train`` can run: everything, or one part."""
VEC_ENVS = ("views", "dummy", "subproc")
"""``run.vec_env`` choices: train.vec_env.ViewVecEnv, SB3's DummyVecEnv, SB3's SubprocVecEnv."""


class ConfigError(ValueError):
    """A config file or override names an unknown key or gives a bad value."""


@dataclass
class TableConfig:
    """The table every stage trains and evaluates at."""

    rules: str = "catalan"          # preset name or rules .toml file
    num_seats: int = 2              # 2..8; one seat is the bank
    table_hands: int = 10           # hands per table before a fresh shoe and stacks


@dataclass
class PPOConfig:
    """sb3-contrib MaskablePPO settings (see its documentation)."""

    learning_rate: float = 3e-4
    n_steps: int = 256              # steps per env per rollout
    batch_size: int = 256
    n_epochs: int = 5
    gamma: float = 1.0              # an episode is one hand: no discounting within it
    gae_lambda: float = 0.95
    clip_range: float = 0.2
    ent_coef: float = 0.01
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5
    net_arch: list = field(default_factory=lambda: [64, 64])
    activation: str = "tanh"        # tanh or relu


@dataclass
class RunConfig:
    """How a run executes and what it records."""

    seed: int = 0
    n_envs: int = 8
    vec_env: str = "views"          # views, dummy (one process) or subproc (one per env)
    torch_threads: int = 1
    checkpoint_every: int = 50_000  # steps between checkpoints
    eval_every: int = 50_000        # steps between evaluations against the baselines
    eval_hands: int = 2_000         # hands per evaluation (TensorBoard eval/*)
    progress_bar: bool = True


@dataclass
class StageConfig:
    """One role's training against fixed opponents.

    ``opponents`` are agent specs drawn per hand for the other role (banks for
    the player, players for the bank); ``table_players`` fill the other player
    seats when the learner plays (tables of three seats or more).
    """

    timesteps: int = 0
    opponents: list = field(default_factory=list)
    table_players: list = field(default_factory=lambda: ["careful"])
    ppo: dict = field(default_factory=dict)  # [ppo] keys overridden for this stage only


@dataclass
class SelfPlayConfig:
    """Alternating rounds against bounded pools of frozen policies plus the baselines."""

    rounds: int = 2
    player_timesteps: int = 40_000
    bank_timesteps: int = 40_000
    pool_size: int = 3              # frozen learned policies kept per pool (baselines extra)
    banks: list = field(default_factory=lambda: ["reader", "threshold:5.5"])
    players: list = field(default_factory=lambda: ["careful", "threshold:5"])


@dataclass
class EvalConfig:
    """The closing comparison of ``sette train``."""

    hands: int = 10_000
    seed: int = 12345
    thresholds: list = field(default_factory=lambda: [3.5, 4.0, 4.5, 5.0, 5.5, 6.0, 6.5, 7.0])
    bank_for_players: str = "reader"     # the bank every player is measured against
    player_for_banks: str = "careful"    # the player every bank is measured against


@dataclass
class TrainConfig:
    """All sections of a training config."""

    table: TableConfig = field(default_factory=TableConfig)
    ppo: PPOConfig = field(default_factory=PPOConfig)
    run: RunConfig = field(default_factory=RunConfig)
    # The player learns slower and longer than the bank: its edge over the best
    # threshold is a few thousandths of a bet, which the default rate's noise
    # hides at 4 seats (README, Training → Results).
    player: StageConfig = field(default_factory=lambda: StageConfig(
        timesteps=500_000, opponents=["reader"],
        ppo={"learning_rate": 1e-4, "n_steps": 512, "batch_size": 512}))
    bank: StageConfig = field(default_factory=lambda: StageConfig(
        timesteps=150_000, opponents=["careful"]))
    selfplay: SelfPlayConfig = field(default_factory=SelfPlayConfig)
    evaluate: EvalConfig = field(default_factory=EvalConfig)

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    def stage_ppo(self, role: str) -> PPOConfig:
        """The PPO settings of the ``player`` or ``bank`` stage: ``[ppo]`` with its overrides."""
        return dataclasses.replace(self.ppo, **getattr(self, role).ppo)

    def to_toml(self) -> str:
        """The config as TOML (what ``config.toml`` of a run holds)."""
        lines = []
        for section, values in self.to_dict().items():
            lines.append(f"[{section}]")
            for key, value in values.items():
                lines.append(f"{key} = {_toml_value(value)}")
            lines.append("")
        return "\n".join(lines)


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {_toml_value(v)}" for k, v in value.items()) + " }"
    return repr(value)


def _sections() -> dict[str, type]:
    defaults = TrainConfig()
    return {f.name: type(getattr(defaults, f.name)) for f in dataclasses.fields(TrainConfig)}


def _coerce(where: str, default: Any, value: Any) -> Any:
    """Check ``value`` against the type of the default; ints are accepted for floats."""
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise ConfigError(f"{where} must be true or false, got {value!r}")
    elif isinstance(default, int):
        if isinstance(value, bool) or not isinstance(value, int):
            raise ConfigError(f"{where} must be an integer, got {value!r}")
    elif isinstance(default, float):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ConfigError(f"{where} must be a number, got {value!r}")
        value = float(value)
    elif isinstance(default, str):
        if not isinstance(value, str):
            raise ConfigError(f"{where} must be a string, got {value!r}")
    elif isinstance(default, list):
        if not isinstance(value, list):
            raise ConfigError(f"{where} must be a list, got {value!r}")
    return value


def _stage_ppo(where: str, value: Any) -> dict[str, Any]:
    """A stage's ``ppo`` table: keys of ``[ppo]``, each checked against its type."""
    if not isinstance(value, dict):
        raise ConfigError(f"{where} must be a table of [ppo] keys, got {value!r}")
    defaults = PPOConfig()
    keys = {f.name for f in dataclasses.fields(PPOConfig)}
    out = {}
    for key, item in value.items():
        if key not in keys:
            raise ConfigError(f"{where}: unknown key {key!r}; [ppo] keys are: "
                              f"{', '.join(sorted(keys))}")
        out[key] = _coerce(f"{where}.{key}", getattr(defaults, key), item)
    return out


def from_mapping(data: dict[str, Any], source: str = "config") -> TrainConfig:
    """A config from nested mappings (a parsed TOML file); unknown names are rejected."""
    config = TrainConfig()
    sections = _sections()
    for section, values in data.items():
        if section not in sections:
            raise ConfigError(f"{source}: unknown section [{section}]; sections are: "
                              f"{', '.join(sections)}")
        if not isinstance(values, dict):
            raise ConfigError(f"{source}: [{section}] must be a table of keys")
        target = getattr(config, section)
        keys = {f.name for f in dataclasses.fields(target)}
        for key, value in values.items():
            if key not in keys:
                raise ConfigError(f"{source}: unknown key {key!r} in [{section}]; keys are: "
                                  f"{', '.join(sorted(keys))}")
            where = f"{source}: {section}.{key}"
            if isinstance(target, StageConfig) and key == "ppo":
                value = _stage_ppo(where, value)
            else:
                value = _coerce(where, getattr(target, key), value)
            setattr(target, key, value)
    validate(config)
    return config


def load(path: str | Path) -> TrainConfig:
    """A config from a TOML file."""
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"config file {str(path)!r} does not exist") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"config file {str(path)!r} is not valid TOML: {exc}") from None
    return from_mapping(data, source=f"config file {str(path)!r}")


def apply_overrides(config: TrainConfig, overrides: list[str]) -> TrainConfig:
    """Apply ``section.key=value`` overrides (values in TOML syntax; bare words are strings)."""
    data = config.to_dict()
    for item in overrides:
        name, sep, text = item.partition("=")
        section, dot, key = name.strip().partition(".")
        if not sep or not dot:
            raise ConfigError(f"override {item!r} is not section.key=value "
                              f"(e.g. ppo.n_epochs=4)")
        try:
            value = tomllib.loads(f"v = {text}")["v"]
        except tomllib.TOMLDecodeError:
            value = text
        key, dot, subkey = key.partition(".")
        if dot:  # a stage's own PPO setting: player.ppo.learning_rate=1e-4
            table = data.setdefault(section, {}).setdefault(key, {})
            if not isinstance(table, dict):
                raise ConfigError(f"override {item!r}: {section}.{key} is not a table")
            table[subkey] = value
        else:
            data.setdefault(section, {})[key] = value
    return from_mapping(data, source="--set")


def _ppo_sections(config: TrainConfig) -> list[tuple[str, PPOConfig]]:
    return [("ppo", config.ppo)] + [(f"{role}.ppo", config.stage_ppo(role))
                                    for role in ("player", "bank")]


def validate(config: TrainConfig) -> None:
    """Ranges and choices that types alone do not catch."""
    checks = [
        (2 <= config.table.num_seats <= 8, "table.num_seats must be in 2..8"),
        (config.table.table_hands >= 1, "table.table_hands must be at least 1"),
        (config.run.n_envs >= 1, "run.n_envs must be at least 1"),
        (config.run.vec_env in VEC_ENVS,
         f"run.vec_env must be one of {', '.join(repr(v) for v in VEC_ENVS)}"),
        *((ppo.activation in ("tanh", "relu"), f"{name}.activation must be 'tanh' or 'relu'")
          for name, ppo in _ppo_sections(config)),
        *((ppo.n_steps >= 1 and ppo.batch_size >= 1,
           f"{name}.n_steps and {name}.batch_size must be positive")
          for name, ppo in _ppo_sections(config)),
        *((all(isinstance(k, int) and k > 0 for k in ppo.net_arch),
           f"{name}.net_arch must be a list of positive layer sizes")
          for name, ppo in _ppo_sections(config)),
        (config.selfplay.rounds >= 0, "selfplay.rounds must be >= 0"),
        (config.selfplay.pool_size >= 0, "selfplay.pool_size must be >= 0"),
        (config.evaluate.hands >= 1, "evaluate.hands must be at least 1"),
        (config.run.checkpoint_every >= 1 and config.run.eval_every >= 1,
         "run.checkpoint_every and run.eval_every must be positive"),
    ]
    for ok, message in checks:
        if not ok:
            raise ConfigError(message)
