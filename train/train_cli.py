"""sette train: train player and bank policies (see train/pipeline.py).

    sette train                      player, then bank, then self-play, then the table
    sette train player|bank|selfplay one part only
    sette train --resume RUN_DIR     continue a run that was stopped

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
from train import config as cfg
from train.config import COMMANDS


def add_commands(subparsers: argparse._SubParsersAction) -> None:
    """Register ``sette train`` on the ``sette`` parser."""
    p = subparsers.add_parser(
        "train", help="train player and bank policies (default: player, bank, self-play, "
                      "then a comparison with the baselines)",
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("what", nargs="?", default="all", choices=COMMANDS,
                   help="which part to train (default: all)")
    p.add_argument("--config", type=Path, help="TOML file of hyperparameters")
    p.add_argument("--rules", help="preset name or rules .toml file (table.rules)")
    p.add_argument("--seats", type=int, help=f"number of seats, {MIN_SEATS}..{MAX_SEATS} "
                   f"(table.num_seats, default {cfg.TrainConfig().table.num_seats}; more than "
                   f"{SEATS_PER_DECK} need decks >= 2)")
    p.add_argument("--seed", type=int, help="seed of the run (run.seed)")
    p.add_argument("--set", dest="overrides", action="append", default=[],
                   metavar="SECTION.KEY=VALUE", help="override one config key")
    p.add_argument("--run-dir", type=Path, help="where to put the run (default: runs/<name>)")
    p.add_argument("--resume", type=Path, metavar="RUN_DIR",
                   help="continue the run in RUN_DIR where it stopped")
    p.set_defaults(func=_train)


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
    from train.pipeline import Run, new_run, open_run

    if args.resume is not None:
        given = [name for name in ("config", "rules", "seats", "seed", "run_dir")
                 if getattr(args, name) is not None] + (["set"] if args.overrides else [])
        if given or args.what != "all":
            raise ValueError("--resume continues a run exactly as it was started; drop "
                             + ", ".join(f"--{g.replace('_', '-')}" for g in given)
                             + (f" and '{args.what}'" if args.what != "all" else ""))
        command, config, record = open_run(args.resume)
        print(f"resuming {args.resume} ({command}, start {len(record.get('starts', [])) + 1})",
              flush=True)
        return Run(args.resume, config, record).execute(command)
    config = cfg.load(args.config) if args.config else cfg.TrainConfig()
    overrides = list(args.overrides)
    for flag, key in (("rules", "table.rules"), ("seats", "table.num_seats"),
                      ("seed", "run.seed")):
        value = getattr(args, flag)
        if value is not None:
            overrides.append(f"{key}={value!r}" if isinstance(value, str) else f"{key}={value}")
    config = cfg.apply_overrides(config, overrides)
    run_dir = new_run(args.what, config, args.run_dir)  # validates the config first
    _command, config, record = open_run(run_dir)
    print(f"run directory: {run_dir}", flush=True)
    return Run(run_dir, config, record).execute(args.what)
