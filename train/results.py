"""The results table of docs/RESULTS.md: learned policies against the best threshold baselines.

    python -m train.results                      # train both tables, then evaluate
    python -m train.results --run 2=RUN2 --run 4=RUN4   # evaluate existing runs
    python -m train.results --seats 2 --run 2=RUN2 --no-exact   # one table, no solver

For each table (``catalan``, 2 seats and 4 seats; ``--seats`` chooses, and
without it the tables of ``--run`` when given) it runs the default ``sette
train`` pipeline (unless given a finished run of that table), then measures on
the same deals (common random numbers):

* players against the table-reading bank (``reader``; other player seats
  ``careful``): every threshold player ``t`` in 3.5…7, the careful heuristic
  and the learned players;
* banks against the careful heuristic players: every threshold bank, the
  table reader and the learned banks.

Thresholds are first screened on ``--screen-hands`` hands; the best one is
then played again on the full ``--hands`` with the other candidates, so every
EV in the table comes from ``--hands`` hands, and "vs best" is the paired
difference on those deals with its 95% interval. The target is met when the
learned EV is at least the best threshold's minus 0.005. Candidates run in
``--workers`` spawned processes (:mod:`evaluate.workers`), each on the batch
engine where it plays the rules and every seat (``--engine auto``, the
default; ``scalar`` and ``batch`` choose, the numbers are the same). Each learned
policy is also held to every baseline of its role (the best threshold and the
heuristic): "above every baseline" when the paired difference to the strongest of them
is above zero by more than its 95% interval.

Heads-up, the exact part (:mod:`train.exact_gaps`, ``--no-exact`` skips it) gives each
learned policy's gap to the exact best response against its training opponent and the
NashConv of each self-play round's pair. Writes ``results.md`` and ``results.json``.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

from agents import make_agent
from evaluate.arguments import output_folder, positive_int
from evaluate.ev import ENGINES, compare, paired_difference, ratio_estimate
from evaluate.workers import process_pool
from train.config import ConfigError, TrainConfig, check_new_run_dir, validate
from train.exact_gaps import exact_gaps
from train.exact_gaps import markdown as exact_markdown
from train.pipeline import RUN_FILE, STAGE_FOLDERS, Run, new_run, open_run

OpenedRun = tuple[str, TrainConfig, dict[str, Any]]
"""What :func:`train.pipeline.open_run` reads of a run: its command, config and record."""

TOLERANCE = 0.005
DEFAULT_SEATS = (2, 4)
"""The tables trained and measured when neither ``--seats`` nor ``--run`` says."""
ROLES: dict[str, tuple[str, str | None]] = {"player": ("reader", "careful"),
                                             "bank": ("careful", None)}


def _measure(task: tuple[str, str, str, int, int, int, int, str]
             ) -> tuple[np.ndarray, np.ndarray]:
    """One candidate's per-table (chips, hands) in one role (runs in a worker process), on the
    engine ``engine`` (:func:`evaluate.ev.play`'s: the same numbers on either)."""
    spec, role, rules, num_seats, hands, seed, table_hands, engine = task
    against, table_players = ROLES[role]
    if table_players is not None:  # the player role: a bank and the other players
        opponents = {"bank": make_agent(against, rules=rules),
                     "players": make_agent(table_players, rules=rules)}
    else:
        opponents = {"players": make_agent(against, rules=rules)}
    result = compare({spec: make_agent(spec, rules=rules)}, role, opponents, rules, num_seats,
                     hands, seed=seed, table_hands=table_hands, engine=engine)
    return result.runs[spec]


def versus_strongest(run: tuple[np.ndarray, np.ndarray],
                     strongest: tuple[np.ndarray, np.ndarray]) -> dict[str, Any]:
    """A learned candidate against the strongest baseline of its role on the same deals:
    the paired difference, its 95% half-width, and whether it is above every baseline
    (the difference above zero by more than its interval)."""
    diff = paired_difference(run, strongest)
    return {"vs_baselines": diff.mean, "vs_baselines_ci": diff.half_width,
            "above_baselines": diff.mean - diff.half_width > 0.0}


def evaluate_run(run_dir: Path, hands: int, screen_hands: int, pool: ProcessPoolExecutor,
                 log: Any = print, engine: str = "auto", exact: bool = True,
                 opened: OpenedRun | None = None) -> dict[str, Any]:
    """Screen thresholds, then measure the best one and the other candidates (module doc);
    with ``exact``, a heads-up run's exact gaps too (:func:`train.exact_gaps.exact_gaps`).
    ``opened``: what :func:`train.pipeline.open_run` gave for the run, when already read.

    ``engine="auto"`` plays the batch engine where it plays the rules and every seat has a
    batched kernel (threshold, careful, reader and learned models do), else the scalar
    engine, saying why on stderr."""
    _command, config, record = opened or open_run(run_dir)
    table, e = config.table, config.evaluate
    if engine == "auto":
        from envs.rules import Rules
        from evaluate.batch_eval import batch_refusal

        reason = batch_refusal(Rules.resolve(table.rules), table.num_seats)
        if reason is not None:
            print(f"train.results: {table.rules}: {reason} — playing the scalar engine",
                  file=sys.stderr)
    models = record.get("models", {})
    starts = record.get("starts", [])
    out: dict[str, Any] = {"run": str(run_dir), "num_seats": table.num_seats,
                           "rules": table.rules, "train_wall_s": record.get("wall_s"),
                           "total_s": record.get("total_s"),
                           "starts": len(starts),
                           "untimed_starts": sum(start.get("train_s") is None for start in starts),
                           "hands": hands}
    for role, (against, _players) in ROLES.items():
        base = (role, table.rules, table.num_seats)
        thresholds = [f"threshold:{t:g}" for t in e.thresholds]
        tail = (e.seed, table.table_hands, engine)
        screen = dict(zip(thresholds, pool.map(
            _measure, [(s, *base, screen_hands, *tail) for s in thresholds])))
        best = max(thresholds, key=lambda s: ratio_estimate(*screen[s]).mean)
        learned = {f"learned {k}": f"model:{run_dir / v}" for k, v in models.items()
                   if k.endswith(role)}
        heuristic = {"careful" if role == "player" else "reader":
                     "careful" if role == "player" else "reader"}
        final = {best: best, **heuristic, **learned}
        runs = dict(zip(final, pool.map(
            _measure, [(spec, *base, hands, *tail) for spec in final.values()])))
        strongest = max([best, *heuristic], key=lambda s: ratio_estimate(*runs[s]).mean)
        rows = {}
        for name, run in runs.items():
            ev = ratio_estimate(*run)
            diff = paired_difference(run, runs[best])
            rows[name] = {"ev": ev.mean, "ci": ev.half_width, "hands": ev.hands,
                          "vs_best": diff.mean, "vs_best_ci": diff.half_width,
                          "target_met": ev.mean >= ratio_estimate(*runs[best]).mean - TOLERANCE}
            if name in learned:
                rows[name].update(versus_strongest(run, runs[strongest]))
        out[role] = {"against": against, "best_threshold": best, "strongest_baseline": strongest,
                     "screen": {s: ratio_estimate(*screen[s]).mean for s in thresholds},
                     "rows": rows}
        log(f"  {table.num_seats} seats, {role}s: best {best}; "
            + "; ".join(f"{k} {v['ev']:+.4f}±{v['ci']:.4f}" for k, v in rows.items()))
    if exact and table.num_seats == 2:
        out["exact"] = exact_gaps(run_dir, table.rules, record, config.selfplay.rounds, log)
    return out


def _wall_time(result: dict[str, Any]) -> str:
    """A run's training wall time, summed over its starts (``sette train --resume``); a start
    that was killed left no time (:meth:`train.pipeline.Run.execute`), so the sum is then
    a lower bound and says so."""
    text = f"{result['train_wall_s'] / 60:.1f} min"
    if result.get("total_s"):
        text += f" ({result['total_s'] / 60:.1f} min with its closing table)"
    starts, untimed = result["starts"], result["untimed_starts"]
    if untimed:
        text = (f"at least {text}: {starts} starts, {untimed} of them killed, whose time "
                f"was not recorded")
    elif starts > 1:
        text += f" over {starts} starts"
    return text


def markdown(results: list[dict[str, Any]], hands: int, screen_hands: int) -> str:
    """The table of docs/RESULTS.md."""
    rules = " and ".join(dict.fromkeys(f"`{r['rules']}`" for r in results))
    lines = [f"EV per hand in units of `min_bet` on {rules}, {hands:,} hands per candidate "
             f"(thresholds 3.5…7 screened on {screen_hands:,}), same deals for every "
             f"candidate; ± is the 95% interval; \"vs best\" is the paired difference to the "
             f"best threshold. Target: learned ≥ best threshold − {TOLERANCE}.", "",
             "\"vs every baseline\" is the paired difference to the strongest baseline of "
             "the role (best threshold or heuristic): above every baseline when it is above "
             "zero by more than its interval.", "",
             "| seats | role | against | candidate | EV per hand | vs best threshold | "
             "target | vs every baseline | |", "|---|---|---|---|---|---|---|---|---|"]
    for res in results:
        for role in ROLES:
            block = res[role]
            for name, row in block["rows"].items():
                target = ("met" if row["target_met"] else "**missed**") \
                    if name.startswith("learned") else ""
                label = f"`{name}`" + (" (best threshold)" if name == block["best_threshold"]
                                       else "")
                above = ""
                if "vs_baselines" in row:
                    above = (f"{row['vs_baselines']:+.4f} ± {row['vs_baselines_ci']:.4f} | "
                             + ("above" if row["above_baselines"] else "**not above**"))
                else:
                    above = " |"
                lines.append(f"| {res['num_seats']} | {role} | `{block['against']}` | {label} | "
                             f"{row['ev']:+.4f} ± {row['ci']:.4f} | "
                             f"{row['vs_best']:+.4f} ± {row['vs_best_ci']:.4f} | {target} | "
                             f"{above} |")
    walls = ", ".join(f"{r['num_seats']} seats {_wall_time(r)}"
                      for r in results if r.get("train_wall_s"))
    lines += ["", f"Wall time of `sette train` (player, bank, self-play): {walls}."]
    for res in results:
        if "exact" in res:
            lines += ["", f"### {res['num_seats']} seats, exact gaps ({res['run']})", "",
                      *exact_markdown(res["exact"])]
    return "\n".join(lines)


def _default_run(seats: int) -> TrainConfig:
    """``sette train``'s defaults at a table of ``seats``: the run trained for a table
    without ``--run``."""
    config = TrainConfig()
    config.table.num_seats = seats
    return config


def _train_dir(out: Path, seats: int) -> Path:
    """Where the run trained for a table of ``seats`` goes."""
    return out / f"catalan-{seats}seats"


def _given_runs(parser: argparse.ArgumentParser,
                args: argparse.Namespace) -> dict[int, tuple[Path, OpenedRun]]:
    """The finished runs of ``--run SEATS=RUN_DIR``, checked before anything trains or plays,
    with ``args.seats`` settled: without ``--seats`` the tables are the runs' when ``--run``
    is given (nothing is trained), else 2 and 4. Each run names a table of ``--seats``, once,
    and is a finished ``sette train`` run (command ``all``: the player, the bank and
    self-play) of that many seats; the tables left are checked as
    :func:`train.pipeline.new_run` will train them. Every problem is a usage error naming the
    argument (``parser.error``: exit status 2). Each given run comes back with what
    :func:`train.pipeline.open_run` read of it."""
    given: dict[int, Path] = {}
    opened: dict[int, OpenedRun] = {}
    for item in args.run:
        count, sep, path = item.partition("=")
        if not sep or not count.isdigit() or not path:
            parser.error(f"--run takes SEATS=RUN_DIR, such as 2=runs/NAME; got {item!r}")
        if int(count) in given:
            parser.error(f"--run {item}: {count} seats already has the run "
                         f"{str(given[int(count)])!r}")
        given[int(count)] = Path(path)
    if args.seats is None:
        args.seats = sorted(given) if given else list(DEFAULT_SEATS)
    elif len(set(args.seats)) != len(args.seats):
        parser.error(f"--seats names a table twice: {' '.join(map(str, args.seats))}")
    for seats, run_dir in given.items():
        item = f"{seats}={run_dir}"
        if seats not in args.seats:
            parser.error(f"--run {item}: {seats} seats is not a table of --seats "
                         f"{' '.join(map(str, args.seats))}; add it to --seats")
        try:
            opened[seats] = command, config, record = open_run(run_dir)
        except ValueError as exc:
            parser.error(f"--run {item}: {exc}")
        if command != "all":
            parser.error(f"--run {item}: {str(run_dir)!r} is a 'sette train {command}' run; "
                         f"the results table needs a whole run ('sette train', command all)")
        if config.table.num_seats != seats:
            parser.error(f"--run {item}: {str(run_dir)!r} trained at "
                         f"{config.table.num_seats} seats, not {seats}")
        if "models" not in record:
            parser.error(f"--run {item}: {str(run_dir)!r} has not finished training; "
                         f"continue it with: sette train --resume {shlex.quote(str(run_dir))}")
        missing = [f"{name} ({str(run_dir / file)!r})" for name, file in record["models"].items()
                   if not (run_dir / file).is_file()]
        if missing:
            parser.error(f"--run {item}: the run's model files are missing: "
                         f"{', '.join(missing)}")
    for seats in args.seats:
        if seats in given:
            continue
        try:
            validate(_default_run(seats), "all", source="--seats")
        except ConfigError as exc:
            parser.error(str(exc))
        train_dir = _train_dir(args.out, seats)
        if (train_dir / RUN_FILE).exists():
            parser.error(f"{str(train_dir)!r} already holds a run: "
                         f"evaluate it with --run {seats}=DIR (after 'sette train --resume "
                         f"DIR' if it stopped), or choose another --out")
        try:
            check_new_run_dir(train_dir, RUN_FILE, STAGE_FOLDERS, option="--out")
        except ValueError as exc:
            parser.error(str(exc))
    return {seats: (run_dir, opened[seats]) for seats, run_dir in given.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m train.results", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seats", type=int, nargs="+",
                        help="the tables, by their number of seats (default: the tables of "
                             "--run when given, else 2 4)")
    parser.add_argument("--run", action="append", default=[], metavar="SEATS=RUN_DIR",
                        help="evaluate this finished run for that table instead of training "
                             "one")
    parser.add_argument("--hands", type=positive_int, default=2_000_000,
                        help="hands each candidate plays for the table (default 2000000)")
    parser.add_argument("--screen-hands", type=positive_int, default=200_000,
                        help="hands each threshold plays in the screening that picks the best "
                             "one (default 200000)")
    parser.add_argument("--no-exact", action="store_true",
                        help="skip the exact heads-up gaps (the solver's part: minutes)")
    parser.add_argument("--workers", type=positive_int, default=2,
                        help="processes the candidates play in (default 2)")
    parser.add_argument("--out", type=output_folder, default="runs/results",
                        help="folder of results.md, results.json and the runs it trains "
                             "(default runs/results)")
    parser.add_argument("--engine", choices=ENGINES, default="auto",
                        help="batch: the compiled batch engine; scalar: one table after "
                             "another; auto (default): batch where the rules and agents allow "
                             "— the same numbers either way")
    args = parser.parse_args(argv)
    given = _given_runs(parser, args)
    args.out.mkdir(parents=True, exist_ok=True)
    runs: dict[int, tuple[Path, OpenedRun | None]] = dict(given)
    for seats in args.seats:
        if seats in given:
            continue
        run_dir = new_run("all", _default_run(seats), _train_dir(args.out, seats))
        _c, config, record = open_run(run_dir)
        Run(run_dir, config, record).execute("all")
        runs[seats] = run_dir, None  # read again once trained, as its run.json now says
    started = time.perf_counter()
    with process_pool(args.workers) as pool:
        results = [evaluate_run(runs[s][0], args.hands, args.screen_hands, pool,
                                engine=args.engine, exact=not args.no_exact, opened=runs[s][1])
                   for s in args.seats]
    text = markdown(results, args.hands, args.screen_hands)
    (args.out / "results.md").write_text(text + "\n", encoding="utf-8")
    (args.out / "results.json").write_text(json.dumps(results, indent=2) + "\n",
                                           encoding="utf-8")
    print(text)
    print(f"\nevaluation took {time.perf_counter() - started:.0f}s; written to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
