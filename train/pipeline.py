"""Training runs: the player, the bank, self-play, and the closing comparison.

A run directory holds everything needed to understand and continue a run::

    RUN/
      config.toml        every hyperparameter (the resolved config)
      run.json           command, seed, stage seeds, package versions, every start
                         (its steps, wall time and how it ended), the models (paths
                         relative to RUN)
      player/            stage: the player against the baseline banks
      bank/              stage: the bank against the baseline players
      bank-information-state/
                         stage: a second bank, trained on the information state
                         (``bank.information_state_model``; likewise for the player)
      selfplay/          round<k>-player/, round<k>-bank/, and the final player/, bank/
      evaluation.md      the closing table (also evaluation.json)

``sette train --resume RUN`` re-reads ``config.toml`` and ``run.json`` and runs
the same command again: finished stages are skipped, an interrupted one goes
on from its newest checkpoint (:func:`train.ppo.train_stage`). A Ctrl-C
saves a checkpoint where the stage stopped, records the start as
interrupted and raises :class:`Interrupted`, which says where it stopped.

**Self-play** alternates rounds: the player trains against a pool of frozen
banks, then the bank against a pool of frozen players. Each pool always holds
the rule-based baselines and at most ``selfplay.pool_size`` learned policies
(the newest), so it stays bounded however many rounds run. It starts with
the players and banks of the first two stages, and each round's networks go
on from the previous round's. The bank rounds deal ``selfplay.bank_one_hand_tables``
of their tables afresh after every hand, as the bank stage does.

**Information-state models.** A stage with ``information_state_model = true``
(the bank's, by default) trains a second model of its role beside the first,
on the seat's information state — its perfect recall of the hand's public
play, RULES.md §8.10 — instead of the observation: the same opponents,
steps, PPO settings and seed, in ``RUN/<role>-information-state``. It is
compared in the closing table and reported beside the observation model;
self-play goes on from the observation models only. With
``information_state_imitate`` (the bank's default) its fresh network first learns
the observation model's choices (:mod:`train.imitate`: that model is shown the
observation at each of its decisions, the new one the information state), then
trains on.
"""

from __future__ import annotations

import dataclasses
import json
import shlex
import shutil
import sys
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from agents import Policy, PolicyPool, make_agent
from agents.learned import MODEL_FILE, load_model
from envs.information_state import INFORMATION_STATE
from envs.rules import Rules
from envs.table_view import count_text
from envs.text_files import read_text
from evaluate.ev import Comparison, compare
from evaluate.report import package_versions
from train import config as cfg
from train.config import TrainConfig
from train.imitate import Imitation
from train.ppo import latest_checkpoint, seeds_for, train_stage

PACKAGES = ("sette-e-mezzo", "torch", "stable-baselines3", "sb3-contrib", "gymnasium",
            "pettingzoo", "numpy")
RUN_FILE, CONFIG_FILE = "run.json", "config.toml"


class Interrupted(KeyboardInterrupt):
    """Ctrl-C stopped a run; ``str()`` says where, with the command that continues it."""

    def __init__(self, run_dir: Path, where: str) -> None:
        super().__init__(f"stopped {where}; continue with: sette train --resume "
                         f"{shlex.quote(str(run_dir))}")
        self.run_dir = run_dir


def new_run(command: str, config: TrainConfig, run_dir: Path | None = None,
            base: Path = Path("runs")) -> Path:
    """Create a run directory with its config and record; refuse to reuse a run, or the
    stage folders of one (:func:`train.config.check_new_run_dir`).

    The config is validated first (:func:`train.config.validate`): a config
    that fails leaves no directory behind. A rules file is kept by its absolute path,
    and the record keeps the switches it held (``rules_values``), which ``--resume``
    holds the file to (:func:`open_run`).
    """
    cfg.validate(config, command)
    rules_file = cfg.rules_file(config.table.rules)
    if rules_file is not None:  # --resume reads it from any folder
        config = dataclasses.replace(config, table=dataclasses.replace(
            config.table, rules=str(rules_file.resolve())))
    if run_dir is None:
        stamp = datetime.now(timezone.utc).strftime("%Y%m%d-%H%M%S")
        rules = Path(config.table.rules).stem
        run_dir = base / f"{stamp}-{command}-{rules}-{config.table.num_seats}seats-" \
                         f"seed{config.run.seed}"
    cfg.check_new_run_dir(run_dir, RUN_FILE, STAGE_FOLDERS)
    run_dir.mkdir(parents=True, exist_ok=True)
    (run_dir / CONFIG_FILE).write_text(config.to_toml(), encoding="utf-8")
    record = {"command": command, "seed": config.run.seed,
              "rules_values": _json_values(Rules.resolve(config.table.rules).to_dict()),
              "stage_seeds": list(seeds_for(config.run.seed, 2 + 2 * config.selfplay.rounds)),
              "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
              "argv": sys.argv, "versions": package_versions(PACKAGES)}
    (run_dir / RUN_FILE).write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    return run_dir


def open_run(run_dir: Path) -> tuple[str, TrainConfig, dict[str, Any]]:
    """Command, config and record of an existing run (for ``--resume``).

    Anything that keeps the run from going on as it began is a ``ValueError`` naming
    the file: a path that is no run directory, a ``run.json`` that is not the record
    :func:`new_run` wrote, a config that fails its checks, or a rules file whose
    switches differ from those the run began with (a run resumed on other rules
    would train on a table its first steps never saw).
    """
    if run_dir.is_file():
        raise ValueError(f"{str(run_dir)!r} is a file; --resume takes the run directory "
                         f"that holds it ({str(run_dir.parent)!r})")
    if not run_dir.is_dir():
        raise ValueError(f"run directory {str(run_dir)!r} does not exist")
    missing = [name for name in (RUN_FILE, CONFIG_FILE) if not (run_dir / name).is_file()]
    if missing:
        raise ValueError(f"{str(run_dir)!r} is not a sette training run: it has no "
                         f"{' and no '.join(missing)} (a run directory is made by sette train)")
    record = _read_record(run_dir / RUN_FILE)
    config_file = run_dir / CONFIG_FILE
    config = cfg.load(config_file, saved_run=True)
    cfg.validate(config, record["command"], source=f"config file {str(config_file)!r}")
    _check_rules_unchanged(config.table.rules, record, config_file)
    return record["command"], config, record


def _read_record(path: Path) -> dict[str, Any]:
    """A run's ``run.json``: a JSON object whose ``command`` is one of
    :data:`train.config.COMMANDS`; a ``ValueError`` naming the file otherwise."""
    text = read_text(path, "run record")
    try:
        record = json.loads(text)
    except ValueError as exc:
        raise ValueError(f"run record {str(path)!r} is not valid JSON: {exc}") from None
    if not isinstance(record, dict):
        raise ValueError(f"run record {str(path)!r} is not a sette training record: it "
                         f"holds a JSON {type(record).__name__}, not an object")
    if record.get("command") not in cfg.COMMANDS:
        raise ValueError(f"run record {str(path)!r} is not a sette training record: its "
                         f"'command' is {record.get('command')!r}, not one of "
                         f"{', '.join(repr(c) for c in cfg.COMMANDS)}")
    return record


def _json_values(values: dict[str, Any]) -> dict[str, Any]:
    """Rules switches as ``run.json`` holds them (tuples read back as lists)."""
    return dict(json.loads(json.dumps(values)))


def _check_rules_unchanged(rules: str, record: dict[str, Any], config_file: Path) -> None:
    """Refuse to resume on a rules file whose switches differ from those the run's record
    kept when it began (``rules_values``, :func:`new_run`), naming the first that differs.
    A switch the record lacks (one newer than the run) is not compared, nor a preset's
    switches (sette's own); a record written before ``rules_values`` has none to compare
    the file with, which a notice on stderr says."""
    kept = record.get("rules_values")
    file = cfg.rules_file(rules)
    if file is None:
        return
    if not isinstance(kept, dict):
        print(f"rules file {str(file)!r} could not be compared with the rules the run began "
              f"on: its record {str(config_file.parent / RUN_FILE)!r} was written before "
              f"sette kept them ('rules_values'); the file is read as it is now",
              file=sys.stderr, flush=True)
        return
    now = _json_values(Rules.resolve(rules).to_dict())
    for switch, then in kept.items():
        if now.get(switch) != then:
            raise ValueError(f"rules file {str(file)!r} has changed since the run began "
                             f"({switch} = {now.get(switch)!r}, was {then!r}); the run goes "
                             f"on only on the rules it began with: restore {switch} there, or "
                             f"start a new run ({str(config_file)!r} names the file)")


def _agents(specs: list[str], rules: Rules) -> dict[str, Policy]:
    """The agent of every spec (any form :func:`agents.make_agent` takes), by its spec."""
    return {spec: make_agent(spec, rules=rules) for spec in specs}


class Run:
    """One run directory being trained (see the module docstring)."""

    def __init__(self, run_dir: Path, config: TrainConfig, record: dict[str, Any]) -> None:
        self.dir = run_dir
        self.config = config
        self.record = record
        self.rules = Rules.resolve(config.table.rules)  # once, for every stage and the report
        self.seeds = _stage_seeds(record, 2 + 2 * config.selfplay.rounds, run_dir / RUN_FILE)
        self.stage = "before the first stage"  # where a Ctrl-C stops it (Interrupted)
        self._stage_dir: Path | None = None

    def log(self, message: str) -> None:
        print(message, flush=True)

    # ----------------------------------------------------------------- stages
    def player(self) -> Path:
        """The player against the baseline banks (``[player]``)."""
        c = self.config.stage("player")
        self._enter("player", self.dir / "player")
        banks = _agents(c.opponents, self.rules)
        table_players = list(_agents(c.table_players, self.rules).values())
        self.log(f"player: against {', '.join(banks)} on {self.config.table.rules}, "
                 f"{self.config.table.num_seats} seats, {c.timesteps} steps, "
                 f"{_tables(self.config, 'player')}")
        self._rollouts("player", "player", c.timesteps)
        return train_stage(self.dir / "player", "player", self.config,
                           {"bank": list(banks.values()), "players": table_players},
                           c.timesteps, self.seeds[0], banks, table_players[0],
                           table_hands=self.config.stage_table_hands("player"),
                           one_hand_tables=c.one_hand_tables,
                           torch_threads=self.config.stage_torch_threads("player"),
                           imitation=self._imitation(c.imitate, c.imitate_steps,
                                                     c.imitate_epochs))

    def bank(self) -> Path:
        """The bank against the baseline players (``[bank]``)."""
        c = self.config.stage("bank")
        self._enter("bank", self.dir / "bank")
        players = _agents(c.opponents, self.rules)
        self.log(f"bank: against {', '.join(players)} on {self.config.table.rules}, "
                 f"{self.config.table.num_seats} seats, {c.timesteps} steps, "
                 f"{_tables(self.config, 'bank')}")
        self._rollouts("bank", "bank", c.timesteps)
        return train_stage(self.dir / "bank", "bank", self.config,
                           {"players": list(players.values())}, c.timesteps, self.seeds[1],
                           players, next(iter(players.values())),
                           table_hands=self.config.stage_table_hands("bank"),
                           one_hand_tables=c.one_hand_tables,
                           torch_threads=self.config.stage_torch_threads("bank"),
                           imitation=self._imitation(c.imitate, c.imitate_steps,
                                                     c.imitate_epochs))

    def _rollouts(self, name: str, role: str, steps: int,
                  observation_type: str = "observation", selfplay: bool = False) -> None:
        """Say so where a stage's ``steps`` are no whole number of rollouts: PPO collects
        ``run.n_envs x n_steps`` steps at a time and trains on until it has at least
        ``steps``, so the stage trains the next whole number of rollouts."""
        n_envs = self.config.run.n_envs
        n_steps = self.config.stage_ppo(role, observation_type, selfplay).n_steps
        rollout = n_envs * n_steps
        if steps % rollout:
            self.log(f"  {name}: {steps} steps round up to whole rollouts of {rollout} "
                     f"(run.n_envs {n_envs} x n_steps {n_steps}): it trains "
                     f"{-(-steps // rollout) * rollout} steps")

    def _imitation(self, spec: str, decisions: int, epochs: int) -> Imitation | None:
        """What a stage's fresh model first learns to play: the agent ``spec`` names
        (``''``: nothing), over ``decisions`` decisions, ``epochs`` passes."""
        return Imitation(spec, self.rules, decisions, epochs) if spec else None

    def information_state(self, role: str, observation_model: Path) -> Path:
        """A second model of ``role`` on the information state (module docstring), which
        first learns the choices of ``observation_model`` (the stage's model on
        observations) where the stage says ``information_state_imitate``, or starts from
        its weights where it says ``information_state_copy``."""
        c = self.config.stage(role)
        imitation = self._imitation(
            f"model:{observation_model}" if c.information_state_imitate else "",
            c.information_state_imitate_steps, c.information_state_imitate_epochs)
        folder = self.dir / information_state_stage(role)
        self._enter(f"{role} on the information state", folder)
        others = _agents(c.opponents, self.rules)
        self.log(f"{role} on the information state: against {', '.join(others)}, "
                 f"{c.timesteps} steps, {_tables(self.config, role)}")
        self._rollouts(folder.name, role, c.timesteps, INFORMATION_STATE)
        if role == "player":
            table_players = list(_agents(c.table_players, self.rules).values())
            opponents: dict[str, Any] = {"bank": list(others.values()),
                                         "players": table_players}
            seed, first = self.seeds[0], table_players[0]
        else:
            opponents = {"players": list(others.values())}
            seed, first = self.seeds[1], next(iter(others.values()))
        return train_stage(folder, role, self.config, opponents, c.timesteps, seed, others,
                           first, observation_type=INFORMATION_STATE,
                           table_hands=self.config.stage_table_hands(role),
                           one_hand_tables=c.one_hand_tables,
                           torch_threads=self.config.stage_torch_threads(role),
                           imitation=imitation,
                           copy_from=observation_model if c.information_state_copy else None)

    def selfplay(self, player: Path | None, bank: Path | None) -> tuple[Path, Path]:
        """Alternate rounds against bounded pools (``[selfplay]``); returns the final models."""
        c = self.config.selfplay
        self._enter("while setting up self-play", None)
        banks = _agents(c.banks, self.rules)
        players = _agents(c.players, self.rules)
        bank_pool = PolicyPool(banks.values(), max_learned=c.pool_size)
        player_pool = PolicyPool(players.values(), max_learned=c.pool_size)
        if player is not None:
            player_pool.add(load_model(player))
        if bank is not None:
            bank_pool.add(load_model(bank))
        self.log(f"self-play: {count_text(c.rounds, 'round')}, pools of {len(banks)} baseline "
                 f"banks and {len(players)} baseline players plus up to {c.pool_size} learned "
                 f"each, {c.bank_one_hand_tables:.0%} of the bank rounds' tables one hand")
        root = self.dir / "selfplay"
        for k in range(1, c.rounds + 1):
            seed_p, seed_b = self.seeds[2 + 2 * (k - 1)], self.seeds[3 + 2 * (k - 1)]
            self._enter(f"self-play round {k} player", root / f"round{k}-player")
            self._rollouts(f"round{k}-player", "player", c.player_timesteps, selfplay=True)
            player = train_stage(root / f"round{k}-player", "player", self.config,
                                 {"bank": bank_pool, "players": player_pool},
                                 c.player_timesteps, seed_p, banks,
                                 next(iter(players.values())), init_from=player,
                                 selfplay=True)
            player_pool.add(load_model(player))
            self._enter(f"self-play round {k} bank", root / f"round{k}-bank")
            self._rollouts(f"round{k}-bank", "bank", c.bank_timesteps, selfplay=True)
            bank = train_stage(root / f"round{k}-bank", "bank", self.config,
                               {"players": player_pool}, c.bank_timesteps, seed_b, players,
                               next(iter(players.values())), init_from=bank,
                               one_hand_tables=c.bank_one_hand_tables, selfplay=True)
            bank_pool.add(load_model(bank))
        if player is None or bank is None:
            raise ValueError("self-play needs at least one round or trained player and bank")
        for role, model in (("player", player), ("bank", bank)):
            (root / role).mkdir(parents=True, exist_ok=True)
            shutil.copyfile(model, root / role / MODEL_FILE)
        return root / "player" / MODEL_FILE, root / "bank" / MODEL_FILE

    # ------------------------------------------------------------- commands
    def execute(self, command: str) -> int:
        """Run ``command`` (``all``, ``player``, ``bank``, ``selfplay``) to the end.

        Every call is one *start* of the run, listed in ``run.json`` under
        ``starts`` as it begins: when, the steps done before it
        (``from_step``) and those it trained (in every stage, counted from
        the stages' checkpoints and models), its training and total wall
        time, and its outcome: ``running``, then ``finished`` or
        ``interrupted`` (Ctrl-C), or ``killed`` when the next start finds it
        still running (its steps are those its checkpoints kept, its times
        unknown). ``wall_s`` and ``total_s`` of the record add up every
        start. A Ctrl-C raises :class:`Interrupted`.
        """
        started = time.perf_counter()
        before = self._steps_done()
        done = sum(before.values())
        starts = self.record.setdefault("starts", [])
        for earlier in starts:
            if earlier["outcome"] == "running":  # it never ended: killed
                earlier.update(outcome="killed", steps=done - earlier["from_step"])
        start: dict[str, Any] = {
            "started": datetime.now(timezone.utc).isoformat(timespec="seconds"),
            "outcome": "running", "from_step": done, "steps": 0, "train_s": None,
            "wall_s": None}
        starts.append(start)
        self._write_record()
        models: dict[str, Path] = {}
        trained: float | None = None  # seconds the stages took
        try:
            for role, stage in (("player", self.player), ("bank", self.bank)):
                if command in ("all", role):
                    models[role] = stage()
                    if getattr(self.config, role).information_state_model:
                        models[f"information-state {role}"] = self.information_state(
                            role, models[role])
            if command in ("all", "selfplay"):
                sp_player, sp_bank = self.selfplay(models.get("player"), models.get("bank"))
                models["selfplay player"], models["selfplay bank"] = sp_player, sp_bank
            trained = time.perf_counter() - started
            self.record["models"] = {k: str(Path(v).relative_to(self.dir))
                                     for k, v in models.items()}
            if command == "all":
                self._end_start(start, before, started, trained, "running")
                self._write_record()
                self._enter("in the closing comparison", None)
                self.report(models, self.config.evaluate.hands)
            self._end_start(start, before, started, trained, "finished")
            self._write_record()
        except KeyboardInterrupt:
            spent = time.perf_counter() - started if trained is None else trained
            self._end_start(start, before, started, spent, "interrupted")
            start["stopped"] = self._where()
            self._write_record()
            raise Interrupted(self.dir, start["stopped"]) from None
        self.log(f"run {self.dir}: {command} trained {start['steps']} steps in "
                 f"{start['train_s']:.0f}s (this start); models: "
                 + ", ".join(f"{k} {v}" for k, v in models.items()))
        return 0

    def _enter(self, stage: str, stage_dir: Path | None) -> None:
        """Note the stage now running (a Ctrl-C names it)."""
        self.stage, self._stage_dir = stage, stage_dir

    def _where(self) -> str:
        """Where the run is: the stage and its steps (saved ones named), or the phase."""
        if self._stage_dir is None:
            return self.stage
        steps = _stage_steps(self._stage_dir)
        found = latest_checkpoint(self._stage_dir)
        saved = f" (saved: {found[0]})" if found is not None and found[1] == steps else ""
        return f"in the {self.stage} stage at step {steps}{saved}"

    def _stage_dirs(self) -> list[Path]:
        rounds = self.config.selfplay.rounds
        twins = [self.dir / information_state_stage(role) for role in ("player", "bank")
                 if getattr(self.config, role).information_state_model]
        return [self.dir / "player", self.dir / "bank"] + twins + [
            self.dir / "selfplay" / f"round{k}-{role}"
            for k in range(1, rounds + 1) for role in ("player", "bank")]

    def _steps_done(self) -> dict[Path, int]:
        return {folder: _stage_steps(folder) for folder in self._stage_dirs()}

    def _end_start(self, start: dict[str, Any], before: dict[Path, int], started: float,
                   train_s: float, outcome: str) -> None:
        """Fill in this start (:meth:`execute`) and the record's totals."""
        after = self._steps_done()
        start.update(steps=sum(after[k] - before[k] for k in after), outcome=outcome,
                     train_s=round(train_s, 1), wall_s=round(time.perf_counter() - started, 1))
        starts = self.record["starts"]
        self.record["wall_s"] = round(sum(s["train_s"] or 0.0 for s in starts), 1)
        self.record["total_s"] = round(sum(s["wall_s"] or 0.0 for s in starts), 1)

    def _write_record(self) -> None:
        """Write ``run.json`` aside, then rename it (a Ctrl-C never leaves half a file)."""
        partial = self.dir / f"partial-{RUN_FILE}"
        partial.write_text(json.dumps(self.record, indent=2) + "\n", encoding="utf-8")
        partial.replace(self.dir / RUN_FILE)

    def report(self, models: dict[str, Path], hands: int) -> str:
        """Each learned policy against the baselines; printed and saved (evaluation.md)."""
        text, data = evaluation_table(self.config, self.rules, models, hands)
        (self.dir / "evaluation.md").write_text(text + "\n", encoding="utf-8")
        (self.dir / "evaluation.json").write_text(json.dumps(data, indent=2) + "\n",
                                                  encoding="utf-8")
        print(text, flush=True)
        return text


def _stage_seeds(record: dict[str, Any], count: int, path: Path) -> list[int]:
    """The record's ``stage_seeds``, at least ``count`` whole numbers (one per stage of the
    run, :func:`new_run`); a ``ValueError`` naming ``path`` otherwise."""
    seeds = record.get("stage_seeds")
    if not isinstance(seeds, list) or len(seeds) < count or not all(
            isinstance(s, int) and not isinstance(s, bool) for s in seeds):
        raise ValueError(f"run record {str(path)!r} needs 'stage_seeds' as a list of "
                         f"{count} whole numbers (one per stage), got {seeds!r}")
    return seeds


def _hands(count: int) -> str:
    return "one hand" if count == 1 else f"{count} hands"


def _tables(config: TrainConfig, role: str) -> str:
    """The hands a training table of ``role``'s stage plays, as its log line says it."""
    line = f"{_hands(config.stage_table_hands(role))} a table"
    share = getattr(config, role).one_hand_tables
    return f"{line}, {share:.0%} of the tables one hand" if share else line


def information_state_stage(role: str) -> str:
    """The folder of ``role``'s information-state model in a run (module docstring)."""
    return f"{role}-information-state"


STAGE_FOLDERS = ("player", "bank", information_state_stage("player"),
                 information_state_stage("bank"), "selfplay")
"""The folders a run's stages train into (module docstring), whatever its config."""


def _stage_steps(stage_dir: Path) -> int:
    """Steps a stage has trained: its model's (``stage.json``) or its newest checkpoint's."""
    record = stage_dir / "stage.json"
    if (stage_dir / MODEL_FILE).is_file() and record.is_file():
        return int(json.loads(record.read_text(encoding="utf-8"))["timesteps"])
    found = latest_checkpoint(stage_dir)
    return 0 if found is None else found[1]


def evaluation_table(config: TrainConfig, rules: Rules, models: dict[str, Path], hands: int
                     ) -> tuple[str, dict[str, Any]]:
    """Learned players and banks against the baselines, as markdown and as data.

    ``rules`` are ``config.table.rules`` resolved (:class:`Run` resolves them once).
    Players face the ``evaluate.bank_for_players`` bank (other player seats:
    ``careful``); banks face ``evaluate.player_for_banks`` players. Every
    candidate plays the same deals; the last column is its EV minus the best
    threshold's on those deals, with its 95% interval.
    """
    e, table = config.evaluate, config.table
    thresholds = {f"threshold:{t:g}": make_agent(f"threshold:{t:g}", rules=rules)
                  for t in e.thresholds}
    careful = make_agent("careful", rules=rules)
    sections = []
    data: dict[str, Any] = {"rules": table.rules, "num_seats": table.num_seats,
                            "hands": hands, "seed": e.seed}
    for role in ("player", "bank"):
        candidates = dict(thresholds)
        candidates["careful" if role == "player" else "reader"] = careful
        for name, path in models.items():
            if name.endswith(role):
                candidates[f"learned {name}"] = load_model(path)
        if role == "player":
            opponent = e.bank_for_players
            opponents = {"bank": make_agent(opponent, rules=rules), "players": careful}
        else:
            opponent = e.player_for_banks
            opponents = {"players": make_agent(opponent, rules=rules)}
        comparison = compare(candidates, role, opponents, rules, table.num_seats, hands,
                             seed=e.seed, table_hands=table.table_hands)
        sections.append(_markdown(comparison, role, opponent, list(thresholds)))
        best = comparison.best(list(thresholds))
        data[role] = {"against": opponent, "best_threshold": best,
                      "ev": {k: [v.mean, v.half_width, v.hands] for k, v in comparison.ev.items()},
                      "vs_best_threshold": {k: [d.mean, d.half_width] for k in comparison.ev
                                            for d in [comparison.versus(k, best)]}}
    header = (f"Evaluation on {table.rules}, {table.num_seats} seats, {hands} hands per "
              f"candidate (same deals for all), EV per hand in units of min_bet, 95% CI")
    return header + "\n\n" + "\n\n".join(sections), data


def _markdown(comparison: Comparison, role: str, opponent: str, thresholds: list[str]) -> str:
    best = comparison.best(thresholds)
    lines = [f"{role.capitalize()}s against `{opponent}` (best threshold: `{best}`)", "",
             f"| {role} | EV per hand | vs best threshold |", "|---|---|---|"]
    for name, estimate in comparison.ev.items():
        diff = comparison.versus(name, best)
        lines.append(f"| `{name}` | {estimate} | {diff} |")
    return "\n".join(lines)
