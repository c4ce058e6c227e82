"""sette train: train player and bank policies (see train/pipeline.py).

    sette train                      player, then bank, then self-play, then the table
    sette train player|bank|selfplay one part only
    sette train --resume RUN_DIR     continue a run that was stopped
    sette train --backend rllib      player and bank together on Ray RLlib (train/rllib_train.py)

Options set the table (--rules, --seats), the seed, a TOML config file
(--config; every hyperparameter, see train/config.py) and single overrides
(--set ppo.n_epochs=4). Every setting is checked before anything runs: a bad
one is named in one line, and no run directory is made. Resuming takes
everything from the run directory.

Ctrl-C stops a run cleanly: the stage saves a checkpoint where it stopped,
TensorBoard is flushed, one line says where it stopped and the --resume
command that continues it, and the exit status is 130.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from envs.rules import MAX_SEATS, MIN_SEATS, SEATS_PER_DECK
from evaluate.arguments import output_folder, rule_set, seed
from train import config as cfg
from train.config import COMMANDS
from train.rllib_train import RLlibSettings


def add_commands(subparsers: argparse._SubParsersAction) -> None:
    """Register ``sette train`` on the ``sette`` parser."""
    p = subparsers.add_parser(
        "train", help="train player and bank policies (default: player, bank, self-play, "
                      "then a comparison with the baselines)",
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("what", nargs="?", default="all", choices=COMMANDS,
                   help="which part to train (default: all)")
    p.add_argument("--config", type=Path, help="TOML file of hyperparameters")
    p.add_argument("--rules", type=rule_set, help="preset name or rules .toml file (table.rules)")
    p.add_argument("--seats", type=_seats, help=f"number of seats, {MIN_SEATS}..{MAX_SEATS} "
                   f"(table.num_seats, default {cfg.TrainConfig().table.num_seats}; "
                   f"{RLlibSettings.num_seats} with --backend rllib; more than "
                   f"{SEATS_PER_DECK} need decks >= 2)")
    p.add_argument("--seed", type=seed, help="seed of the run (run.seed, default "
                                              f"{cfg.TrainConfig().run.seed})")
    p.add_argument("--set", dest="overrides", action="append", default=[],
                   metavar="SECTION.KEY=VALUE", help="override one config key")
    p.add_argument("--run-dir", type=output_folder, help="where to put the run (default: runs/<name>)")
    p.add_argument("--resume", type=Path, metavar="RUN_DIR",
                   help="continue the run in RUN_DIR where it stopped")
    _add_rllib_options(p)
    p.set_defaults(func=_train)


def _seats(text: str) -> int:
    """``--seats``: a table size, ``MIN_SEATS``..``MAX_SEATS`` (RULES.md §2; the rules may
    allow fewer, which :func:`train.config.validate` checks with them)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if not MIN_SEATS <= value <= MAX_SEATS:
        raise argparse.ArgumentTypeError(f"{value} is not a table size; allowed: "
                                         f"{MIN_SEATS}..{MAX_SEATS}")
    return value


TABLE_OPTIONS = {"rules": "table.rules", "seats": "table.num_seats", "seed": "run.seed"}
"""The options that set one config key each, by their ``args`` name."""


def _add_rllib_options(p: argparse.ArgumentParser) -> None:
    """The options of ``--backend rllib`` (train/rllib_train.py; the extra ``rllib``)."""
    g = p.add_argument_group("Ray RLlib backend (--backend rllib)")
    g.add_argument("--backend", choices=("sb3", "rllib"), default="sb3",
                   help="sb3: Stable-Baselines3, stage by stage (default); rllib: player and "
                        "bank trained together on Ray RLlib")
    g.add_argument("--address", help="Ray cluster to run on (default: $RAY_ADDRESS, else a "
                                     "local Ray)")
    g.add_argument("--env-runners", type=int, help="sampling processes (default 2; 0: here)")
    g.add_argument("--envs-per-runner", type=int, help="envs each runner steps (default 1)")
    g.add_argument("--tables", type=int, help="tables each env plays at once (default 16)")
    g.add_argument("--cpus", type=int, help="CPUs of a local Ray (default: all)")
    g.add_argument("--observation-type", choices=("observation", "information_state"),
                   help="what the policies see (default observation)")
    g.add_argument("--iterations", type=int, help="PPO iterations (default 10)")
    g.add_argument("--timesteps", type=int, help="env steps to train (instead of iterations)")


INTERRUPTED = 130
"""Exit status after Ctrl-C (128 + SIGINT), as shells report it."""


def _train(args: argparse.Namespace) -> int:
    try:
        return _run(args)
    except KeyboardInterrupt as stop:
        # train.pipeline.Interrupted says where the run stopped and how to go on.
        where = str(stop) or "stopped before the run directory was made"
        print(f"sette train: {where}", file=sys.stderr, flush=True)
        return INTERRUPTED


def _run(args: argparse.Namespace) -> int:
    # torch and Stable-Baselines3 load only when training is asked for.
    if args.backend == "rllib" or _rllib_run(args.resume):
        from train.rllib_train import run_from_args

        return run_from_args(args)
    rllib_only = [f"--{name.replace('_', '-')}" for name in
                  ("address", "env_runners", "envs_per_runner", "tables", "cpus",
                   "observation_type", "iterations", "timesteps")
                  if getattr(args, name) is not None]
    if rllib_only:
        steps = (" (a stage's steps are --set player.timesteps=N, bank.timesteps=N, "
                 "selfplay.player_timesteps=N or selfplay.bank_timesteps=N)"
                 if "--timesteps" in rllib_only else "")
        raise ValueError(f"{', '.join(rllib_only)}: only --backend rllib takes "
                         f"{'these' if len(rllib_only) > 1 else 'this'}{steps}")
    from train.pipeline import Run, new_run, open_run

    if args.resume is not None:
        given = [name for name in ("config", "rules", "seats", "seed", "run_dir")
                 if getattr(args, name) is not None] + (["set"] if args.overrides else [])
        if given or args.what != "all":
            raise ValueError("--resume continues a run exactly as it was started; drop "
                             + ", ".join(f"--{g.replace('_', '-')}" for g in given)
                             + (f" and '{args.what}'" if args.what != "all" else ""))
        command, config, record = open_run(args.resume)
        run = Run(args.resume, config, record)
        print(f"resuming {args.resume} ({command}, start {len(record.get('starts', [])) + 1})",
              flush=True)
        return run.execute(command)
    config = cfg.load(args.config) if args.config else cfg.TrainConfig()
    overrides = list(args.overrides)
    options = {}
    for flag, key in TABLE_OPTIONS.items():
        value = getattr(args, flag)
        if value is not None:
            overrides.append(f"{key}={value!r}" if isinstance(value, str) else f"{key}={value}")
            options[key] = f"--{flag}"
    config = cfg.apply_overrides(config, overrides, options)
    run_dir = new_run(args.what, config, args.run_dir)  # validates the config first
    _command, config, record = open_run(run_dir)
    print(f"run directory: {run_dir}", flush=True)
    return Run(run_dir, config, record).execute(args.what)


def _rllib_run(run_dir: Path | None) -> bool:
    """Whether ``run_dir`` (``--resume``) is a run of the RLlib backend (its ``run.json``)."""
    record = None if run_dir is None else run_dir / "run.json"
    if record is None or not record.is_file():
        return False
    import json

    try:
        data = json.loads(record.read_text(encoding="utf-8"))
    except ValueError:  # not JSON: train.pipeline.open_run names the file and the fault
        return False
    return isinstance(data, dict) and data.get("backend") == "rllib"
