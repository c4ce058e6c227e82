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

Every key declares its check (type, range or choices); :func:`validate` runs
them all, then resolves the rules, the table and every agent spec, before a
run directory exists. An unknown section or key, or a bad value, is rejected
with a one-line message naming the key, the value and what is allowed
(``--set: ppo.gamma=5 is out of range; allowed: 0..1``). ``sette train --set ppo.n_epochs=4``
overrides single keys from the command line (``--set player.ppo.learning_rate=1e-4``
for a stage's own PPO setting). The resolved config is written
into every run directory (``config.toml``) and read back by ``--resume``.
"""

from __future__ import annotations

import dataclasses
import math
import sys
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agents import make_agent
from agents.seating import SeatVectors, role_policy
from envs.engine import Engine
from envs.information_state import INFORMATION_STATE
from envs.observer import Observer
from envs.rules import MAX_SEATS, MIN_SEATS, PRESETS, Rules, RulesError
from envs.single_seat import fixed_bank_rules
from envs.text_files import read_text

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib


COMMANDS = ("all", "player", "bank", "selfplay")
"""What ``sette train`` can run: everything, or one part."""
VEC_ENVS = ("views", "dummy", "subproc", "batch", "auto")
"""``run.vec_env`` choices: scalar views (train.vec_env.ViewVecEnv, SB3's DummyVecEnv, SB3's
SubprocVecEnv), one batch of tables on the compiled engine (train.batch_vec_env), or ``auto``:
the batch where the compiled engine plays the rules, else ``views``."""
ACTIVATIONS = ("tanh", "relu")
"""``ppo.activation`` choices."""
LR_SCHEDULES = ("constant", "linear")
"""``ppo.lr_schedule`` choices: the learning rate held, or brought down linearly to 0 by the
stage's last step."""


class ConfigError(ValueError):
    """A config file or override names an unknown key or gives a bad value."""


Check = Callable[[str, Any], Any]
"""A key's check: ``check(where, value)`` returns the value (an integer widened to a
float for a number key) or raises :class:`ConfigError` naming ``where``, the value and
what is allowed."""


def _range(low: float, high: float | None, above: bool) -> str:
    if high is None:
        return f"> {low:g}" if above else f">= {low:g}"
    return f"> {low:g} and <= {high:g}" if above else f"{low:g}..{high:g}"


def _in_range(where: str, value: float, low: float, high: float | None, above: bool) -> None:
    if (value <= low if above else value < low) or (high is not None and value > high):
        raise ConfigError(f"{where}={value!r} is out of range; allowed: "
                          f"{_range(low, high, above)}")


def _integer(low: int, high: int | None = None) -> Check:
    def check(where: str, value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ConfigError(f"{where} must be an integer, got {value!r}")
        _in_range(where, value, low, high, False)
        return value
    return check


def _number(low: float, high: float | None = None, above: bool = False) -> Check:
    """A finite number ``>= low`` (``> low`` with ``above``), at most ``high``."""
    def check(where: str, value: Any) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ConfigError(f"{where} must be a number, got {value!r}")
        if not math.isfinite(value):
            raise ConfigError(f"{where}={value!r} must be a finite number; allowed: "
                              f"{_range(low, high, above)}")
        _in_range(where, value, low, high, above)
        return float(value)
    return check


def _flag(where: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise ConfigError(f"{where} must be true or false, got {value!r}")
    return value


def _choice(choices: tuple[str, ...]) -> Check:
    def check(where: str, value: Any) -> str:
        if not isinstance(value, str) or value not in choices:
            raise ConfigError(f"{where}={value!r} is not allowed; choose one of "
                              f"{', '.join(repr(c) for c in choices)}")
        return value
    return check


def _string(what: str) -> Check:
    def check(where: str, value: Any) -> str:
        if not isinstance(value, str) or not value:
            raise ConfigError(f"{where} must be {what}, got {value!r}")
        return value
    return check


def _items(what: str, item: Check) -> Check:
    """A non-empty list, each element checked by ``item``."""
    def check(where: str, value: Any) -> list[Any]:
        if not isinstance(value, list) or not value:
            raise ConfigError(f"{where} must be a non-empty list of {what}, got {value!r}")
        return [item(f"{where}[{i}]", v) for i, v in enumerate(value)]
    return check


def _layers(where: str, value: Any) -> list[int]:
    if not isinstance(value, list):
        raise ConfigError(f"{where} must be a list of layer sizes such as [64, 64], "
                          f"got {value!r}")
    return [_integer(1)(f"{where}[{i}]", v) for i, v in enumerate(value)]


_SPEC = _string("an agent spec such as 'careful' or 'threshold:5'")
_SPECS = _items("agent specs such as 'careful' or 'threshold:5'", _SPEC)


@dataclass(frozen=True)
class Seat:
    """Where the agents a key names sit, which :func:`validate` checks them against.

    ``role``: the role they play, ``"player"``, ``"bank"`` or ``"other"`` (the role a
    stage's learner does not play: the player stage's opponents are banks). A trained
    model must have been trained for that role (its description's ``role``), at this
    table (its seats and bet ladder). ``training``: they sit at the training tables,
    which give every opponent its observation (:mod:`envs.single_seat`,
    :mod:`train.batch_vec_env`), so a model trained on the information state cannot sit
    there; the closing comparison (``training=False``) gives each model what it was
    trained on (:class:`agents.seating.Table`).
    """

    role: str
    training: bool = True


def _key(check: Check, default: Any = dataclasses.MISSING,
         factory: Callable[[], Any] | None = None,
         agents: Callable[[Any], list[str]] | None = None, seat: Seat | None = None) -> Any:
    """A config key with its check (every key declares one; see :func:`validate`).

    ``agents`` turns the value into the agent specs it names; :func:`validate`
    builds each with the agent registry on the table's rules and, with ``seat``,
    checks each fits where it sits (:class:`Seat`).
    """
    metadata = {"check": check, "agents": agents, "seat": seat}
    if factory is not None:
        return field(default_factory=factory, metadata=metadata)
    return field(default=default, metadata=metadata)


def _spec_list(value: list[str]) -> list[str]:
    return list(value)


def _one_spec(value: str) -> list[str]:
    return [value]


def _threshold_specs(value: list[float]) -> list[str]:
    return [f"threshold:{t:g}" for t in value]


@dataclass
class TableConfig:
    """The table every stage trains and evaluates at."""

    # a preset name or rules .toml file (checked by the rules)
    rules: str = _key(_string("a preset name or a rules .toml file"), "catalan")
    # one seat is the bank; the engine's limits (also checked with the rules)
    num_seats: int = _key(_integer(MIN_SEATS, MAX_SEATS), 2)
    # hands per table before a fresh shoe and stacks
    table_hands: int = _key(_integer(1), 10)


@dataclass
class PPOConfig:
    """sb3-contrib MaskablePPO settings (see its documentation).

    The defaults suit ``run.n_envs`` tables of the batch: a rollout of
    ``n_envs x n_steps`` steps is cut into a few large minibatches, each seen
    ``n_epochs`` times. On two CPU cores torch's update dominates training, and
    it costs the same per step whatever the minibatch, while SB3's per-call
    overhead shrinks with larger ones; fewer, larger minibatches at a higher
    rate than the usual ``3e-4``-at-64 trade gradient steps for steps
    (docs/PERFORMANCE.md, training, has the figures).

    No entropy bonus by default: a best response is a pure strategy, and the
    bonus kept the player mixed where its choices differ by little, which the
    exact gap counts (docs/RESULTS.md, "Learned play", has the runs: the bonus
    and a falling rate each left the player further from the best response).
    """

    learning_rate: float = _key(_number(0, 1, above=True), 6e-4)
    # constant, or linear: from learning_rate at the stage's first step down to 0 at its last
    lr_schedule: str = _key(_choice(LR_SCHEDULES), "constant")
    # steps per env (table) per rollout: a rollout is n_envs x n_steps steps
    n_steps: int = _key(_integer(2), 8)
    batch_size: int = _key(_integer(2), 8192)         # SB3 needs minibatches of 2 or more
    n_epochs: int = _key(_integer(1), 3)
    # an episode is one hand: no discounting within it
    gamma: float = _key(_number(0, 1), 1.0)
    gae_lambda: float = _key(_number(0, 1), 0.95)
    clip_range: float = _key(_number(0, 1, above=True), 0.2)
    ent_coef: float = _key(_number(0), 0.0)
    vf_coef: float = _key(_number(0, above=True), 0.5)
    max_grad_norm: float = _key(_number(0, above=True), 0.5)
    # hidden layers of the actor (the policy) and of the critic (the value function)
    net_arch: list = _key(_layers, factory=lambda: [64, 64])
    vf_net_arch: list = _key(_layers, factory=lambda: [64, 64])
    activation: str = _key(_choice(ACTIVATIONS), "tanh")


def _keyed_table(where: str, value: Any, checks: dict[str, Check], what: str) -> dict[str, Any]:
    """A table whose keys are those of ``checks``, each value checked by its own check;
    a value that is not a table, or an unknown key, is named with the keys allowed."""
    if not isinstance(value, dict):
        raise ConfigError(f"{where} must be a table of {what}, got {value!r}")
    out = {}
    for key, item in value.items():
        if key not in checks:
            raise ConfigError(f"{where}: unknown key {key!r}; allowed: {', '.join(checks)}")
        out[key] = checks[key](f"{where}.{key}", item)
    return out


def _field_checks(cls: type, names: tuple[str, ...] | None = None) -> dict[str, Check]:
    """The checks of a config section's keys (all of them, or ``names`` in that order)."""
    fields = {f.name: f for f in dataclasses.fields(cls)}
    return {name: fields[name].metadata["check"] for name in (names or sorted(fields))}


def _ppo_table(where: str, value: Any) -> dict[str, Any]:
    """A stage's ``ppo`` table: keys of ``[ppo]``, each checked as in ``[ppo]``."""
    return _keyed_table(where, value, _field_checks(PPOConfig), "[ppo] keys")


def _optional_spec(where: str, value: Any) -> str:
    if not isinstance(value, str):
        raise ConfigError(f"{where} must be an agent spec such as 'reader', or '' for none, "
                          f"got {value!r}")
    return value


def _spec_if_any(value: str) -> list[str]:
    return [value] if value else []


NETWORK_KEYS = ("net_arch", "vf_net_arch", "activation")
"""The ``[ppo]`` keys that shape a network (the self-play rounds continue the stage's)."""


def _selfplay_ppo_table(where: str, value: Any) -> dict[str, Any]:
    """A stage's ``selfplay_ppo`` table: ``[ppo]`` keys but those of :data:`NETWORK_KEYS`."""
    checks = {key: check for key, check in _field_checks(PPOConfig).items()
              if key not in NETWORK_KEYS}
    return _keyed_table(where, value, checks, "[ppo] keys but the network's")


PPO_TABLES = ("ppo", "information_state_ppo", "selfplay_ppo")
"""A stage's tables of ``[ppo]`` keys: ``more_seats`` overrides them key by key."""
MORE_SEATS_KEYS = ("timesteps", "ppo", "imitate", "information_state_ppo",
                   "information_state_imitate", "information_state_copy", "selfplay_ppo")
"""The stage keys a ``more_seats`` table may override."""


def _more_seats_table(where: str, value: Any) -> dict[str, Any]:
    """A stage's ``more_seats`` table: any of :data:`MORE_SEATS_KEYS` at tables of three
    seats or more, each checked as the stage's own key."""
    return _keyed_table(where, value, _field_checks(StageConfig, MORE_SEATS_KEYS),
                        "stage keys")


@dataclass
class RunConfig:
    """How a run executes and what it records."""

    seed: int = _key(_integer(0), 0)
    # environments: tables of the batch, or scalar views (with views, fewer: e.g. 8)
    n_envs: int = _key(_integer(1), 4096)
    # auto (batch where the compiled engine plays the rules, else views), batch (one
    # batch of n_envs tables), views, dummy (one process) or subproc (one per env)
    vec_env: str = _key(_choice(VEC_ENVS), "auto")
    # torch's threads for the update: 2 on two idle cores (1.3x the steps/s of 1); on a
    # busy machine 1 (two threads waiting for each other there ran several times slower)
    torch_threads: int = _key(_integer(1), 2)
    checkpoint_every: int = _key(_integer(1), 250_000)  # steps between checkpoints
    # steps between evaluations against the baselines
    eval_every: int = _key(_integer(1), 250_000)
    eval_hands: int = _key(_integer(1), 2_000)  # hands per evaluation (TensorBoard eval/*)
    progress_bar: bool = _key(_flag, True)


@dataclass
class StageConfig:
    """One role's training against fixed opponents.

    ``opponents`` are agent specs drawn per hand for the other role (banks for
    the player, players for the bank); ``table_players`` fill the other player
    seats when the learner plays (tables of three seats or more). A spec is
    any form ``sette evaluate`` takes (:mod:`agents.registry`): ``careful``,
    ``threshold:5``, a model path, ``PLAYER|BANK``.

    ``torch_threads`` (when above 0) replaces ``run.torch_threads`` for this stage's
    models (not its self-play rounds).

    ``table_hands`` (when above 0) replaces ``table.table_hands`` for this stage's
    training tables only (its model and information-state model; not the self-play
    rounds, nor any evaluation, which play the table's).

    ``one_hand_tables`` is the share of those training tables that are dealt afresh
    after every hand: every hand there starts from a full shoe and fresh stacks, as
    the hand the exact solver values, while the other tables play ``table_hands``
    hands down the shoe, as at the real table (:func:`train.ppo.make_vec_env`).

    ``information_state_model`` trains a second model of the role beside the
    first, on the seat's information state (its perfect recall of the hand,
    RULES.md §8.10; ``observation_type="information_state"`` of the views)
    instead of the observation: same opponents, steps, PPO settings and seed,
    in ``RUN/<role>-information-state``, but for ``information_state_ppo``: ``[ppo]``
    keys that model overrides over the stage's ``ppo`` (its first layer reads the
    whole public history, so a wide network costs it several times what it costs on
    the observation). Self-play goes on from the
    observation model only (the pools' policies are given observations).

    ``imitate`` names a baseline whose choices the stage's fresh network learns before
    PPO, over ``imitate_steps`` of its decisions at the stage's tables, ``imitate_epochs``
    passes (:mod:`train.imitate`); the self-play rounds do not imitate. The
    information-state model starts from the stage's own model on observations (trained
    just before it) in one of two ways: ``information_state_imitate`` learns its choices
    over ``information_state_imitate_steps`` decisions, ``information_state_imitate_epochs``
    passes; ``information_state_copy`` starts from its very weights
    (:func:`train.imitate.copy_observation_model`: the two networks must then be the same).

    ``selfplay_ppo``: ``[ppo]`` keys the role's self-play rounds override over the stage's
    ``ppo`` (not the network's keys: each round continues the previous one's network).

    ``more_seats`` replaces stage keys (:data:`MORE_SEATS_KEYS`; its tables of ``[ppo]``
    keys key by key) at tables of three seats or more (:meth:`TrainConfig.stage`), for the
    stage, its information-state model and its self-play rounds; heads-up it does nothing.
    A stage key that a config file or ``--set`` names wins over it, unless they name
    ``more_seats`` too (:func:`_explicit_over_more_seats`).
    """

    timesteps: int = _key(_integer(1))
    opponents: list = _key(_SPECS, agents=_spec_list, seat=Seat("other"))
    table_players: list = _key(_SPECS, factory=lambda: ["careful"], agents=_spec_list,
                                 seat=Seat("player"))
    # also train a model on the information state (RUN/<role>-information-state)
    information_state_model: bool = _key(_flag, False)
    # hands per training table of this stage before a fresh shoe and stacks (0: the
    # table's table.table_hands); the stage's evaluations play the table's
    table_hands: int = _key(_integer(0), 0)
    # the share of this stage's training tables dealt afresh after every hand, each of
    # whose hands starts from a full shoe; the others play their table_hands
    one_hand_tables: float = _key(_number(0, 1), 0.0)
    # torch threads for this stage's models (0: run.torch_threads)
    torch_threads: int = _key(_integer(0), 0)
    # [ppo] keys overridden for this stage only
    ppo: dict = _key(_ppo_table, factory=dict)
    # [ppo] keys overridden for the information-state model only, over the stage's ppo
    information_state_ppo: dict = _key(_ppo_table, factory=dict)
    # a baseline whose choices the fresh network learns before PPO ('' for none)
    imitate: str = _key(_optional_spec, "", agents=_spec_if_any)
    # decisions of that baseline played and learned, and passes over them
    imitate_steps: int = _key(_integer(1), 1_000_000)
    imitate_epochs: int = _key(_integer(1), 30)
    # the information-state model first learns the choices of this stage's model on
    # observations (trained just before it), then PPO; decisions played and passes
    information_state_imitate: bool = _key(_flag, False)
    information_state_imitate_steps: int = _key(_integer(1), 250_000)
    information_state_imitate_epochs: int = _key(_integer(1), 10)
    # the information-state model starts from the weights of this stage's model on
    # observations (its network the same; the history's first-layer weights 0)
    information_state_copy: bool = _key(_flag, False)
    # [ppo] keys the self-play rounds of this role override over the stage's ppo
    selfplay_ppo: dict = _key(_selfplay_ppo_table, factory=dict)
    # stage keys (MORE_SEATS_KEYS; its [ppo] tables key by key over the stage's) at
    # tables of three seats or more
    more_seats: dict = _key(_more_seats_table, factory=dict,
                            agents=lambda more: _spec_if_any(more.get("imitate", "")))


@dataclass
class SelfPlayConfig:
    """Alternating rounds against bounded pools of frozen policies plus the baselines."""

    rounds: int = _key(_integer(0), 2)
    player_timesteps: int = _key(_integer(1), 200_000)
    bank_timesteps: int = _key(_integer(1), 200_000)
    # frozen learned policies kept per pool (baselines extra)
    pool_size: int = _key(_integer(0), 3)
    # The share of the bank rounds' tables dealt afresh after every hand, as the bank
    # stage's [bank] one_hand_tables (the player rounds play the table's hands): with
    # none, the NashConv rose in the second round (0.033 to 0.037); with seven in
    # ten it falls every round (0.154, 0.055, 0.030). docs/RESULTS.md has the runs.
    bank_one_hand_tables: float = _key(_number(0, 1), 0.7)
    banks: list = _key(_SPECS, factory=lambda: ["reader", "threshold:5.5"], agents=_spec_list,
                       seat=Seat("bank"))
    players: list = _key(_SPECS, factory=lambda: ["careful", "threshold:5"], agents=_spec_list,
                         seat=Seat("player"))


@dataclass
class EvalConfig:
    """The closing comparison of ``sette train``."""

    hands: int = _key(_integer(1), 10_000)
    seed: int = _key(_integer(0), 12345)
    # threshold players and banks (points; the threshold agent's range)
    thresholds: list = _key(_items("numbers of points", _number(0)),
                            factory=lambda: [3.5, 4.0, 4.5, 5.0, 5.5, 6.0, 6.5, 7.0],
                            agents=_threshold_specs)
    # the bank every player is measured against
    bank_for_players: str = _key(_SPEC, "reader", agents=_one_spec,
                                  seat=Seat("bank", training=False))
    # the player every bank is measured against
    player_for_banks: str = _key(_SPEC, "careful", agents=_one_spec,
                                  seat=Seat("player", training=False))


@dataclass
class TrainConfig:
    """All sections of a training config."""

    table: TableConfig = field(default_factory=TableConfig)
    ppo: PPOConfig = field(default_factory=PPOConfig)
    run: RunConfig = field(default_factory=RunConfig)
    # The player trains longest: its edge over the best threshold is a few
    # thousandths of a bet (docs/RESULTS.md, Training), which only minibatches of
    # thousands of hands measure through the noise of the cards.
    # On one torch thread: its settings were chosen on one, and on two the same
    # settings came out further from the best response (docs/RESULTS.md).
    # At three seats or more it meets two other players' cards: 2M steps on these
    # settings left it below `careful` there, and four times the steps, with minibatches
    # of 2,048 and a falling rate, put it above (docs/RESULTS.md, "Four seats"); heads-up
    # those settings came out further from the best response, so they stay at 4 seats.
    player: StageConfig = field(default_factory=lambda: StageConfig(
        timesteps=2_000_000, opponents=["reader"], torch_threads=1,
        more_seats={"timesteps": 8_000_000,
                    "ppo": {"lr_schedule": "linear", "batch_size": 2048}}))
    # The bank also learns on the information state: a bank that remembers the
    # order and timing of the player's play (RULES.md §8.10), reported beside it.
    # It takes short rollouts and smaller minibatches: what its exact gap follows is
    # the number of policy updates (a 1M-step bank on the [ppo] defaults, 30 updates,
    # was further from the best response than a 150k-step one with 73). Most of what
    # it gave away lay behind views the player shows about once in 100 hands: a
    # [256, 256] actor tells them apart (over a [64, 64] critic, which learned faster).
    # Seven tables in ten are dealt afresh after every hand: they show it the full
    # shoe, where the exact gap is measured, on most of its hands, while the other
    # three play the table's ten hands down the shoe, as the real table does (on one
    # hand a table it met no shoe played down and fell behind `reader` at the table;
    # on three hands a table, none past the third hand).
    # The information-state bank keeps a [64, 64] actor: on its inputs a [256, 256]
    # one took the run past its 10 minutes; a learning rate falling to 0 took it closer
    # to the best response at the same cost. docs/RESULTS.md, "Where the bank's gap
    # lies", has the runs. It first learns the observation bank's choices
    # (train.imitate): from fresh weights it stayed further from the best response than
    # that bank, which it then passes (docs/PERFORMANCE.md, round 33's trials). At three
    # seats or more every bank model takes the falling rate, and the observation bank
    # first learns `reader`'s choices: from the chips alone it stayed behind `reader`
    # there (docs/RESULTS.md, "Four seats"). There the information-state bank starts
    # from the observation bank's very weights, on its [256, 256] actor, and trains at
    # a twelfth of the rate: imitated through [64, 64] it copied 96% of its choices and
    # stayed behind `reader`. The self-play bank rounds take a thirtieth of the rate:
    # at the stage's, playing the pool's players took the bank behind `reader` against
    # `careful` players.
    bank: StageConfig = field(default_factory=lambda: StageConfig(
        timesteps=2_000_000, opponents=["careful"], information_state_model=True,
        one_hand_tables=0.7, ppo={"n_steps": 2, "batch_size": 1024, "n_epochs": 5,
                                  "net_arch": [256, 256]},
        information_state_ppo={"net_arch": [64, 64], "lr_schedule": "linear"},
        information_state_imitate=True,
        more_seats={"ppo": {"lr_schedule": "linear"}, "imitate": "reader",
                    "information_state_imitate": False, "information_state_copy": True,
                    "information_state_ppo": {"net_arch": [256, 256], "learning_rate": 5e-5},
                    "selfplay_ppo": {"learning_rate": 2e-5}}))
    selfplay: SelfPlayConfig = field(default_factory=SelfPlayConfig)
    evaluate: EvalConfig = field(default_factory=EvalConfig)

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    def stage(self, role: str) -> StageConfig:
        """The ``player`` or ``bank`` stage as this table trains it: at three seats or more,
        its ``more_seats`` over its own keys (``ppo`` key by key), heads-up the stage as
        written."""
        stage = getattr(self, role)
        more = stage.more_seats
        if self.table.num_seats < 3 or not more:
            return stage
        return dataclasses.replace(stage, **{
            key: {**getattr(stage, key), **value} if key in PPO_TABLES else value
            for key, value in more.items()})

    def stage_torch_threads(self, role: str) -> int:
        """Torch threads of the ``player`` or ``bank`` stage (its ``torch_threads``, or the
        run's when that is 0)."""
        return getattr(self, role).torch_threads or self.run.torch_threads

    def stage_table_hands(self, role: str) -> int:
        """Hands per training table of the ``player`` or ``bank`` stage (``table_hands``
        of the stage, or the table's when that is 0)."""
        return getattr(self, role).table_hands or self.table.table_hands

    def stage_ppo(self, role: str, observation_type: str = "observation",
                  selfplay: bool = False) -> PPOConfig:
        """The PPO settings of the ``player`` or ``bank`` stage (:meth:`stage`): ``[ppo]``
        with its overrides, and over those, for its model on the information state
        (``observation_type``) the stage's ``information_state_ppo``, for its self-play
        rounds (``selfplay``) its ``selfplay_ppo``."""
        stage = self.stage(role)
        ppo = dataclasses.replace(self.ppo, **stage.ppo)
        if observation_type == INFORMATION_STATE:
            ppo = dataclasses.replace(ppo, **stage.information_state_ppo)
        if selfplay:
            ppo = dataclasses.replace(ppo, **stage.selfplay_ppo)
        return ppo

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


def rules_file(rules: str) -> Path | None:
    """The rules file ``table.rules`` names, or ``None`` for a preset, by the rule of
    :meth:`envs.rules.Rules.resolve`: a name ending in ``.toml`` (any case), or one that
    is no preset and names a path."""
    if rules.lower().endswith(".toml") or (rules not in PRESETS and Path(rules).exists()):
        return Path(rules)
    return None


def check_new_run_dir(run_dir: Path, record: str, outputs: tuple[str, ...],
                      option: str = "--run-dir") -> None:
    """Refuse ``run_dir`` for a new run of either backend where it already holds a run.

    A run goes on only with ``--resume``, which reads its ``record`` (``run.json``);
    a new run refuses a folder that has one. Without a record it refuses any of
    ``outputs``, the folders a run trains into, too: a stage that finds a model there
    takes itself for done, and one that finds checkpoints goes on from them, whichever
    run left them. ``option`` is the command's option that chose the folder.
    """
    if (run_dir / record).exists():
        raise ValueError(f"{str(run_dir)!r} already holds a run; continue it with "
                         f"--resume {run_dir} or choose another {option}")
    found = [f"{name}/" for name in outputs if (run_dir / name).exists()]
    if found:
        raise ValueError(f"{str(run_dir)!r} already holds {', '.join(found)} but no {record}: "
                         f"a new run there would go on from what "
                         f"{'they hold' if len(found) > 1 else 'it holds'} as its own; choose "
                         f"another {option} (a run that has its {record} goes on with "
                         f"--resume)")


def keys(config: TrainConfig) -> Iterator[tuple[str, dataclasses.Field, Any]]:
    """Every key of ``config`` as (``section.key``, its field, its value)."""
    for section in dataclasses.fields(TrainConfig):
        values = getattr(config, section.name)
        for f in dataclasses.fields(values):
            yield f"{section.name}.{f.name}", f, getattr(values, f.name)


def from_mapping(data: dict[str, Any], source: str = "config",
                 options: Mapping[str, str] | None = None) -> TrainConfig:
    """A config from nested mappings (a parsed TOML file), checked by :func:`validate`
    (``options``: as there). A stage key the mapping names wins over the stage's
    built-in ``more_seats`` (:func:`_explicit_over_more_seats`)."""
    config = TrainConfig()
    sections = _sections()
    for section, values in data.items():
        if section not in sections:
            if not isinstance(values, dict):
                holders = [name for name, kind in sections.items()
                           if section in {f.name for f in dataclasses.fields(kind)}]
                where = (f"it is a key of [{holders[0]}]: put it under [{holders[0]}]"
                         if holders else f"sections are: {', '.join(sections)}")
                raise ConfigError(f"{source}: {section} = {_toml_value(values)} is a key "
                                  f"outside any section; {where}")
            raise ConfigError(f"{source}: unknown section [{section}]; sections are: "
                              f"{', '.join(sections)}")
        if not isinstance(values, dict):
            raise ConfigError(f"{source}: [{section}] must be a table of keys")
        target = getattr(config, section)
        fields = {f.name: f for f in dataclasses.fields(target)}
        for key, value in values.items():
            if key not in fields:
                raise ConfigError(f"{source}: unknown key {key!r} in [{section}]; keys are: "
                                  f"{', '.join(sorted(fields))}")
            check = fields[key].metadata["check"]
            setattr(target, key, check(f"{source}: {section}.{key}", value))
    for role in ("player", "bank"):
        if isinstance(data.get(role), Mapping):
            stage = getattr(config, role)
            stage.more_seats = _explicit_over_more_seats(stage.more_seats, data[role])
    validate(config, source=source, options=options)
    return config


def _explicit_over_more_seats(more: Mapping[str, Any], named: Mapping[str, Any]
                              ) -> dict[str, Any]:
    """A stage's ``more_seats`` less the keys that a config file or ``--set`` names for the
    stage itself (``named``; of a table of ``[ppo]`` keys, those of its keys named).

    ``more_seats`` replaces stage keys at three seats or more; a key the user names
    for the stage wins over it there too: ``sette train --seats 4 --set
    player.timesteps=512`` trains 512 steps, not the 8M of the built-in
    ``player.more_seats``. Where the same file, or the same ``--set`` options, also name the
    stage's ``more_seats`` (as a run's own ``config.toml`` names every key), it stands as
    written: both were asked for, the stage's keys heads-up and ``more_seats``' at more
    seats."""
    if "more_seats" in named:
        return dict(more)
    kept: dict[str, Any] = {}
    for key, value in more.items():
        if key not in named:
            kept[key] = value
        elif key in PPO_TABLES:
            subkeys = named[key] if isinstance(named[key], Mapping) else {}
            rest = {k: v for k, v in value.items() if k not in subkeys}
            if rest:
                kept[key] = rest
    return kept


SAVED_BEFORE_KEY: dict[tuple[str, str], Any] = {
    ("player", "one_hand_tables"): 0.0, ("bank", "one_hand_tables"): 0.0,
    ("selfplay", "bank_one_hand_tables"): 0.0,
    ("player", "more_seats"): {}, ("bank", "more_seats"): {},
    ("player", "information_state_imitate"): False, ("bank", "information_state_imitate"): False}
"""What a run whose ``config.toml`` was written before a key existed trained with, by
``(section, key)``: a resumed run goes on as it began, not with today's default."""


def load(path: str | Path, saved_run: bool = False) -> TrainConfig:
    """A config from a TOML file; ``saved_run``: a run's own ``config.toml`` (``--resume``),
    in which a key it lacks takes its :data:`SAVED_BEFORE_KEY` value, if any."""
    path = Path(path)
    try:
        text = read_text(path, "config file")
    except ValueError as exc:
        raise ConfigError(str(exc)) from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"config file {str(path)!r} is not valid TOML: {exc}") from None
    if saved_run:
        for (section, key), value in SAVED_BEFORE_KEY.items():
            if isinstance(data.get(section), dict):
                data[section].setdefault(key, value)
    return from_mapping(data, source=f"config file {str(path)!r}")


def apply_overrides(config: TrainConfig, overrides: list[str],
                    options: Mapping[str, str] | None = None) -> TrainConfig:
    """Apply ``section.key=value`` overrides (values in TOML syntax; bare words are strings).

    A stage key named wins over the stage's ``more_seats`` unless these overrides set
    that too (:func:`_explicit_over_more_seats`). ``options``: the command-line option
    behind an override's key, which an error about it names (:func:`validate`).
    """
    data = config.to_dict()
    named: dict[str, dict[str, Any]] = {}
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
            named.setdefault(section, {}).setdefault(key, {})[subkey] = value
        else:
            data.setdefault(section, {})[key] = value
            named.setdefault(section, {})[key] = value
    for role in ("player", "bank"):
        if role in named:
            data[role]["more_seats"] = _explicit_over_more_seats(data[role]["more_seats"],
                                                                 named[role])
    return from_mapping(data, source="--set", options=options)


def _stage_key(config: TrainConfig, role: str, key: str, subkey: str = "") -> str:
    """Where ``role``'s stage key ``key`` (or, with ``subkey``, that key of the ``key``
    table) comes from at this table: ``role.key``, or ``role.more_seats.key`` when
    ``more_seats`` sets it there (the sub-key itself, for a table: they merge key by key)."""
    more = getattr(config, role).more_seats if config.table.num_seats >= 3 else {}
    from_more = key in more and (not subkey or subkey in more[key])
    where = f"{role}.more_seats.{key}" if from_more else f"{role}.{key}"
    return f"{where}.{subkey}" if subkey else where


def _check_information_state_start(config: TrainConfig, role: str, source: str) -> None:
    """The information-state model starts from the observation model one way at most, and
    a copy of its weights needs the same network (``information_state_ppo``)."""
    stage = config.stage(role)
    if not stage.information_state_copy:
        return
    copy = _stage_key(config, role, "information_state_copy")
    if stage.information_state_imitate:
        raise ConfigError(f"{source}: {copy}=true and "
                          f"{_stage_key(config, role, 'information_state_imitate')}=true: the "
                          f"information-state model starts from the observation model's "
                          f"weights or learns its choices; set one of them to false")
    own, theirs = config.stage_ppo(role), config.stage_ppo(role, INFORMATION_STATE)
    for key in NETWORK_KEYS:
        if getattr(own, key) != getattr(theirs, key):
            raise ConfigError(
                f"{source}: {copy}=true needs the same network on both models, but "
                f"{_stage_key(config, role, 'information_state_ppo', key)} = "
                f"{getattr(theirs, key)!r} where the stage's is "
                f"{getattr(own, key)!r}")


def _check_seated(agent: Any, spec: str, seat: Seat, role: str, vectors: SeatVectors,
                  where: str) -> None:
    """Refuse an agent that cannot sit where a key seats it (:class:`Seat`), in ``role``: a
    model trained for another table (its seats, its bet ladder) or the other role, or at
    a training table one trained on the information state; ``where`` names the key."""
    side = role_policy(agent, role)
    try:
        vectors.check(agent)
        check_role = getattr(side, "check_role", None)
        if check_role is not None:
            check_role(role)
    except ValueError as exc:
        raise ConfigError(f"{where}: {exc}") from None
    if seat.training and getattr(side, "observation_type", "observation") != "observation":
        raise ConfigError(f"{where}: {spec!r} was trained on the information state, but the "
                          f"training tables give their {role}s observations; name a {role} "
                          f"trained on observations (a run's {role}/, not "
                          f"{role}-information-state/)")


def validate(config: TrainConfig, command: str = "all", source: str = "config",
             options: Mapping[str, str] | None = None) -> None:
    """Check every key before anything runs; raise :class:`ConfigError` naming the first bad one.

    Each key's declared check (type, range, choices) runs first; then the
    rules are resolved, the table is built with them (the engine's seat and
    hand limits, which can depend on the rules), and every agent spec is built
    with the agent registry on those rules (opponents, table players,
    self-play pools, the closing comparison's agents and thresholds), and checked
    against where it sits (:class:`Seat`; a stage's ``imitate`` plays the stage's role
    at its tables): a model of another table or role is named here, not after the
    run directory is made or the stages have trained.
    ``command`` is what ``sette train`` is to run (:data:`COMMANDS`). ``options``: the
    command-line option that set a key (``{"table.num_seats": "--seats"}``), which an
    error about that key names instead of ``source``.
    """
    options = options or {}
    for where, f, value in keys(config):
        f.metadata["check"](f"{source}: {where}", value)
    table = config.table
    try:
        rules = Rules.resolve(table.rules)
    except RulesError as exc:
        raise ConfigError(f"{_named('table.rules', source, options)}: {exc}") from None
    try:
        Engine(rules, table.num_seats, max_hands=table.table_hands)
    except ValueError as exc:
        raise ConfigError(f"{_named('table.num_seats', source, options)} with rules "
                          f"{table.rules!r}: {exc}") from None
    if config.run.vec_env == "batch":
        from envs.batch import UnsupportedRules
        from envs.batch.engine import check_supported

        try:
            check_supported(fixed_bank_rules(rules))
        except UnsupportedRules as exc:
            raise ConfigError(f"{source}: run.vec_env='batch' with rules {table.rules!r}: "
                              f"{exc} (run.vec_env='auto' trains on the views there)") from None
    seated = Engine(fixed_bank_rules(rules), table.num_seats, max_hands=table.table_hands)
    vectors = SeatVectors(seated, Observer(seated))  # the tables of training and comparison
    for where, f, value in keys(config):
        specs = f.metadata["agents"]
        seat = f.metadata["seat"]
        for spec in specs(value) if specs is not None else ():
            try:
                agent = make_agent(spec, rules=rules)
            except (ValueError, OSError) as exc:
                raise ConfigError(f"{source}: {where}: {exc}") from None
            if seat is not None:
                section = where.partition(".")[0]
                role = seat.role if seat.role != "other" else \
                    ("bank" if section == "player" else "player")
                _check_seated(agent, spec, seat, role, vectors, f"{source}: {where}")
    for role in ("player", "bank"):
        _check_information_state_start(config, role, source)
        stage = config.stage(role)
        spec = stage.imitate
        key = _stage_key(config, role, "imitate")
        if not spec:
            continue
        agent = make_agent(spec, rules=rules)
        if getattr(agent, "observation_type", "observation") != "observation":
            raise ConfigError(f"{source}: {key}={spec!r} is a model of the "
                              f"information state; a stage imitates a baseline that is "
                              f"given observations")
        _check_seated(agent, spec, Seat(role, training=False), role, vectors,
                      f"{source}: {key}")
    if command not in COMMANDS:
        raise ConfigError(f"command {command!r} is not allowed; choose one of "
                          f"{', '.join(repr(c) for c in COMMANDS)}")
    if command == "selfplay" and config.selfplay.rounds == 0:
        raise ConfigError(f"{source}: selfplay.rounds=0: 'sette train selfplay' trains only "
                          f"the self-play rounds; allowed: >= 1")


def _named(key: str, source: str, options: Mapping[str, str]) -> str:
    """How an error names ``key``: by the command-line option that set it
    (``argument --seats``), else as ``source: key``."""
    option = options.get(key)
    return f"argument {option}" if option is not None else f"{source}: {key}"
