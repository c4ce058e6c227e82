"""sette train: train player and bank policies (see train/pipeline.py).

    sette train                      player, then bank, then self-play, then the table
    sette train player|bank|selfplay one part only
    sette train --resume RUN_DIR     continue a run that was stopped

Options set the table (--rules, --seats), the seed, a TOML config file
(--config; every hyperparameter, see train/config.py) and single overrides
(--set ppo.n_epochs=4). Resuming takes everything from the run directory.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from envs.rules import Rules
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
    p.add_argument("--seats", type=int, help="number of seats, 2..8 (table.num_seats)")
    p.add_argument("--seed", type=int, help="seed of the run (run.seed)")
    p.add_argument("--set", dest="overrides", action="append", default=[],
                   metavar="SECTION.KEY=VALUE", help="override one config key")
    p.add_argument("--run-dir", type=Path, help="where to put the run (default: runs/<name>)")
    p.add_argument("--resume", type=Path, metavar="RUN_DIR",
                   help="continue the run in RUN_DIR where it stopped")
    p.set_defaults(func=_train)


def _train(args: argparse.Namespace) -> int:
    # torch and Stable-Baselines3 load only when training is asked for.
    from train.pipeline import Run, check_agents, new_run, open_run

    if args.resume is not None:
        given = [name for name in ("config", "rules", "seats", "seed", "run_dir")
                 if getattr(args, name) is not None] + (["set"] if args.overrides else [])
        if given or args.what != "all":
            raise ValueError("--resume continues a run exactly as it was started; drop "
                             + ", ".join(f"--{g.replace('_', '-')}" for g in given)
                             + (f" and '{args.what}'" if args.what != "all" else ""))
        command, config, record = open_run(args.resume)
        print(f"resuming {args.resume} ({command})")
        return Run(args.resume, config, record).execute(command)
    config = cfg.load(args.config) if args.config else cfg.TrainConfig()
    overrides = list(args.overrides)
    for flag, key in (("rules", "table.rules"), ("seats", "table.num_seats"),
                      ("seed", "run.seed")):
        value = getattr(args, flag)
        if value is not None:
            overrides.append(f"{key}={value!r}" if isinstance(value, str) else f"{key}={value}")
    config = cfg.apply_overrides(config, overrides)
    Rules.resolve(config.table.rules)  # an unknown preset or a bad file fails here, named
    check_agents(config)
    run_dir = new_run(args.what, config, args.run_dir)
    _command, config, record = open_run(run_dir)
    print(f"run directory: {run_dir}")
    return Run(run_dir, config, record).execute(args.what)
