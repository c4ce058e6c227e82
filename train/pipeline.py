"""Training runs: the player, the bank, self-play, and the closing comparison.

A run directory holds everything needed to understand and continue a run::

    RUN/
      config.toml        every hyperparameter (the resolved config)
      run.json           command, seed, stage seeds, package versions, wall time,
                         the models (paths relative to RUN)
      player/            stage: the player against the baseline banks
      bank/              stage: the bank against the baseline players
      selfplay/          round<k>-player/, round<k>-bank/, and the final player/, bank/
      evaluation.md      the closing table (also evaluation.json)

``sette train --resume RUN`` re-reads ``config.toml`` and ``run.json`` and runs
the same command again: finished stages are skipped, an interrupted one goes
on from its newest checkpoint (:func:`train.ppo.train_stage`).

**Self-play** alternates rounds: the player trains against a pool of frozen
banks, then the bank against a pool of frozen players. Each pool always holds
the rule-based baselines and at most ``selfplay.pool_size`` learned policies
(the newest), so it stays bounded however many rounds run. It starts with
the players and banks of the first two stages, and each round's networks go
on from the previous round's.
"""

from __future__ import annotations

import json
import shutil
import sys
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from agents import PolicyPool, make_agent
from agents.learned import MODEL_FILE, load_model
from envs.rules import Rules
from evaluate.ev import Comparison, compare
from evaluate.report import package_versions
from train import config as cfg
from train.config import TrainConfig
from train.ppo import seeds_for, train_stage

PACKAGES = ("sette-e-mezzo", "torch", "stable-baselines3", "sb3-contrib", "gymnasium",
            "pettingzoo", "numpy")
RUN_FILE, CONFIG_FILE = "run.json", "config.toml"


def new_run(command: str, config: TrainConfig, run_dir: Path | None = None,
            base: Path = Path("runs")) -> Path:
    """Create a run directory with its config and record; refuse to reuse a run."""
    if run_dir is None:
        stamp = datetime.now(timezone.utc).strftime("%Y%m%d-%H%M%S")
        rules = Path(config.table.rules).stem
        run_dir = base / f"{stamp}-{command}-{rules}-{config.table.num_seats}seats-" \
                         f"seed{config.run.seed}"
    if (run_dir / RUN_FILE).exists():
        raise ValueError(f"{str(run_dir)!r} already holds a run; continue it with "
                         f"--resume {run_dir} or choose another --run-dir")
    run_dir.mkdir(parents=True, exist_ok=True)
    (run_dir / CONFIG_FILE).write_text(config.to_toml(), encoding="utf-8")
    record = {"command": command, "seed": config.run.seed,
              "stage_seeds": list(seeds_for(config.run.seed, 2 + 2 * config.selfplay.rounds)),
              "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
              "argv": sys.argv, "versions": package_versions(PACKAGES)}
    (run_dir / RUN_FILE).write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    return run_dir


def open_run(run_dir: Path) -> tuple[str, TrainConfig, dict[str, Any]]:
    """Command, config and record of an existing run (for ``--resume``)."""
    if not run_dir.is_dir():
        raise ValueError(f"run directory {str(run_dir)!r} does not exist")
    missing = [name for name in (RUN_FILE, CONFIG_FILE) if not (run_dir / name).is_file()]
    if missing:
        raise ValueError(f"{str(run_dir)!r} is not a sette training run: it has no "
                         f"{' and no '.join(missing)} (a run directory is made by sette train)")
    record = json.loads((run_dir / RUN_FILE).read_text(encoding="utf-8"))
    config = cfg.load(run_dir / CONFIG_FILE)
    return record["command"], config, record


def check_agents(config: TrainConfig) -> None:
    """Build every agent the config names, so a bad spec fails before any training."""
    rules = Rules.resolve(config.table.rules)
    c = config
    for specs in (c.player.opponents, c.player.table_players, c.bank.opponents,
                  c.selfplay.banks, c.selfplay.players,
                  [c.evaluate.bank_for_players, c.evaluate.player_for_banks]):
        _agents(specs, rules)


def _agents(specs: list[str], rules: Rules) -> dict[str, Any]:
    if not specs:
        raise ValueError("an opponent list is empty; name at least one agent spec")
    return {spec: make_agent(spec, rules=rules) for spec in specs}


class Run:
    """One run directory being trained (see the module docstring)."""

    def __init__(self, run_dir: Path, config: TrainConfig, record: dict[str, Any]) -> None:
        self.dir = run_dir
        self.config = config
        self.record = record
        self.rules = Rules.resolve(config.table.rules)
        self.seeds = record["stage_seeds"]

    def log(self, message: str) -> None:
        print(message, flush=True)

    # ----------------------------------------------------------------- stages
    def player(self) -> Path:
        """The player against the baseline banks (``[player]``)."""
        c = self.config.player
        banks = _agents(c.opponents, self.rules)
        table_players = list(_agents(c.table_players, self.rules).values())
        self.log(f"player: against {', '.join(banks)} on {self.config.table.rules}, "
                 f"{self.config.table.num_seats} seats, {c.timesteps} steps")
        return train_stage(self.dir / "player", "player", self.config,
                           {"bank": list(banks.values()), "players": table_players},
                           c.timesteps, self.seeds[0], banks, table_players[0])

    def bank(self) -> Path:
        """The bank against the baseline players (``[bank]``)."""
        c = self.config.bank
        players = _agents(c.opponents, self.rules)
        self.log(f"bank: against {', '.join(players)} on {self.config.table.rules}, "
                 f"{self.config.table.num_seats} seats, {c.timesteps} steps")
        return train_stage(self.dir / "bank", "bank", self.config,
                           {"players": list(players.values())}, c.timesteps, self.seeds[1],
                           players, next(iter(players.values())))

    def selfplay(self, player: Path | None, bank: Path | None) -> tuple[Path, Path]:
        """Alternate rounds against bounded pools (``[selfplay]``); returns the final models."""
        c = self.config.selfplay
        banks = _agents(c.banks, self.rules)
        players = _agents(c.players, self.rules)
        bank_pool = PolicyPool(banks.values(), max_learned=c.pool_size)
        player_pool = PolicyPool(players.values(), max_learned=c.pool_size)
        if player is not None:
            player_pool.add(load_model(player))
        if bank is not None:
            bank_pool.add(load_model(bank))
        self.log(f"self-play: {c.rounds} rounds, pools of {len(banks)} baseline banks and "
                 f"{len(players)} baseline players plus up to {c.pool_size} learned each")
        root = self.dir / "selfplay"
        for k in range(1, c.rounds + 1):
            seed_p, seed_b = self.seeds[2 + 2 * (k - 1)], self.seeds[3 + 2 * (k - 1)]
            player = train_stage(root / f"round{k}-player", "player", self.config,
                                 {"bank": bank_pool, "players": player_pool},
                                 c.player_timesteps, seed_p, banks,
                                 next(iter(players.values())), init_from=player)
            player_pool.add(load_model(player))
            bank = train_stage(root / f"round{k}-bank", "bank", self.config,
                               {"players": player_pool}, c.bank_timesteps, seed_b, players,
                               next(iter(players.values())), init_from=bank)
            bank_pool.add(load_model(bank))
        if player is None or bank is None:
            raise ValueError("self-play needs at least one round or trained player and bank")
        for role, model in (("player", player), ("bank", bank)):
            (root / role).mkdir(parents=True, exist_ok=True)
            shutil.copyfile(model, root / role / MODEL_FILE)
        return root / "player" / MODEL_FILE, root / "bank" / MODEL_FILE

    # ------------------------------------------------------------- commands
    def execute(self, command: str) -> int:
        """Run ``command`` (``all``, ``player``, ``bank``, ``selfplay``) to the end."""
        started = time.perf_counter()
        models: dict[str, Path] = {}
        if command in ("all", "player"):
            models["player"] = self.player()
        if command in ("all", "bank"):
            models["bank"] = self.bank()
        if command in ("all", "selfplay"):
            sp_player, sp_bank = self.selfplay(models.get("player"), models.get("bank"))
            models["selfplay player"], models["selfplay bank"] = sp_player, sp_bank
        self.record["wall_s"] = round(time.perf_counter() - started, 1)
        self.record["models"] = {k: str(Path(v).relative_to(self.dir)) for k, v in models.items()}
        self._write_record()
        if command == "all":
            self.report(models, self.config.evaluate.hands)
            self.record["total_s"] = round(time.perf_counter() - started, 1)
            self._write_record()
        self.log(f"run {self.dir}: {command} trained in {self.record['wall_s']:.0f}s "
                 f"(this session); models: "
                 + ", ".join(f"{k} {v}" for k, v in models.items()))
        return 0

    def _write_record(self) -> None:
        (self.dir / RUN_FILE).write_text(json.dumps(self.record, indent=2) + "\n",
                                         encoding="utf-8")

    def report(self, models: dict[str, Path], hands: int) -> str:
        """Each learned policy against the baselines; printed and saved (evaluation.md)."""
        text, data = evaluation_table(self.config, models, hands)
        (self.dir / "evaluation.md").write_text(text + "\n", encoding="utf-8")
        (self.dir / "evaluation.json").write_text(json.dumps(data, indent=2) + "\n",
                                                  encoding="utf-8")
        print(text, flush=True)
        return text


def evaluation_table(config: TrainConfig, models: dict[str, Path], hands: int
                     ) -> tuple[str, dict[str, Any]]:
    """Learned players and banks against the baselines, as markdown and as data.

    Players face the ``evaluate.bank_for_players`` bank (other player seats:
    ``careful``); banks face ``evaluate.player_for_banks`` players. Every
    candidate plays the same deals; the last column is its EV minus the best
    threshold's on those deals, with its 95% interval.
    """
    e, table = config.evaluate, config.table
    rules = Rules.resolve(table.rules)
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
