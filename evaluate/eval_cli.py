"""``sette evaluate``, ``sette variants`` and ``sette report``: the evaluation commands.

    sette evaluate AGENT [AGENT ...]   a tournament: every agent in every seat, same deals
    sette variants                     the bank's edge per preset (rule-variant table)
    sette report RUN_DIR [RUN_DIR ...] a folder with a Markdown report of training runs

An AGENT is a spec (``threshold:5.5``, ``careful``, ``random``), a trained
model (``model:runs/RUN/player`` or just its path), ``PLAYER|BANK`` (one seat
playing each role with its own policy: ``runs/RUN/player|runs/RUN/bank``), and
may carry a label: ``cautious=threshold:4.5``. ``--group NAME SPEC SPEC…`` adds
several training seeds of one method, summarised by IQM and probability of
improvement. Progress goes to stderr on a terminal; ``--json`` prints the
results as JSON on stdout. Results are deterministic for a given ``--seed``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, Callable

from envs.rules import MAX_SEATS, MIN_SEATS, PRESETS, SEATS_PER_DECK
from evaluate.arguments import output_folder, positive_int, rule_set, seed
from evaluate.ev import ENGINES
from evaluate.tournament import (Progress, TournamentConfig, group_entrants, parse_entrant,
                                 rounded_hands_note, run_tournament, unique_labels,
                                 workers_note)
from evaluate.variants import DEFAULT_BASELINES


def _note(command: str) -> Callable[[str], None]:
    """Where a command says why it plays the scalar engine: one line on stderr."""
    return lambda message: print(f"sette {command}: {message}", file=sys.stderr)


def _progress(args: argparse.Namespace) -> Callable[[str, int], Progress] | None:
    """A progress-bar factory when stderr is a terminal (or ``--progress``)."""
    show = args.progress if args.progress is not None else sys.stderr.isatty()
    if not show:
        return None
    return lambda label, total: Progress(total, label)


def add_commands(subparsers: argparse._SubParsersAction) -> None:
    """Register ``sette evaluate``, ``sette variants`` and ``sette report``."""
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--seed", type=seed, default=0, help="seed of the deals (default 0)")
    common.add_argument("--json", action="store_true", help="print the results as JSON")
    common.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                        help="progress bar on stderr (default: when stderr is a terminal)")
    common.add_argument("--engine", choices=ENGINES, default="auto",
                        help="batch: many tables at once in the compiled engine (the rules it "
                             "plays); scalar: one table after another; auto (default): batch "
                             "where the rules and agents allow, else scalar (saying why on "
                             "stderr) — the same numbers either way")

    p = subparsers.add_parser(
        "evaluate", parents=[common], description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        help="tournament of agents: EV per hand and role with 95%% intervals")
    p.add_argument("agents", nargs="*", metavar="AGENT",
                   help="[LABEL=]SPEC, a model path, or PLAYER|BANK")
    p.add_argument("--group", nargs="+", action="append", default=[], metavar="NAME SPEC",
                   help="NAME then the specs of one method's training seeds")
    p.add_argument("--rules", type=rule_set, default="catalan",
                   help="preset name or rules .toml file")
    p.add_argument("--seats", type=int, default=2,
                   help=f"number of seats, {MIN_SEATS}..{MAX_SEATS} (more than {SEATS_PER_DECK} "
                        f"need decks >= 2; default 2, as sette train)")
    p.add_argument("--hands", type=positive_int, default=2000,
                   help="hands dealt per arrangement (default 2000)")
    p.add_argument("--table-hands", type=positive_int, default=10,
                   help="hands per table before a fresh table (default 10)")
    p.add_argument("--fixed-bank", action="store_true",
                   help="keep the first bank for a whole table (no rotation)")
    p.add_argument("--workers", type=positive_int, default=1,
                   help="processes of the scalar engine (default 1; the batch engine plays "
                        "in this one)")
    p.add_argument("--out", type=output_folder,
                   help="also write tournament.md, tournament.json, ev.png and strategy maps "
                        "into this folder")
    p.set_defaults(func=_evaluate)

    v = subparsers.add_parser(
        "variants", parents=[common],
        help="the bank's edge per rule preset under baseline (and learned) play",
        description="The bank's edge per rule preset. Each baseline is a line of play every "
                    "seat follows; a row names the rules that act only when a seat chooses "
                    "them (double, split, Mort, raises…) that a line of play never chose.")
    v.add_argument("--rules", type=rule_set, nargs="+", default=list(PRESETS), metavar="RULES",
                   help="presets or rules files (default: every preset)")
    v.add_argument("--baselines", "--baseline", nargs="+", default=list(DEFAULT_BASELINES),
                   metavar="SPEC", help="lines of play, each a spec every seat plays or "
                                        "PLAYER|BANK (default: " + " ".join(DEFAULT_BASELINES)
                                        + ")")
    v.add_argument("--seats", type=int, nargs="+", default=[2, 4],
                   help="seat counts to simulate (default 2 4)")
    v.add_argument("--hands", type=positive_int, default=20000,
                   help="hands per rule set and seat count (default 20000)")
    v.add_argument("--run", type=Path, action="append", default=[], metavar="RUN_DIR",
                   help="a training run whose learned player and bank are measured too")
    v.set_defaults(func=_variants)

    r = subparsers.add_parser(
        "report", parents=[common],
        help="write a folder with a Markdown report (tables, plots, settings) of runs")
    r.add_argument("runs", nargs="+", type=Path, metavar="RUN_DIR",
                   help="training run folders (made by sette train)")
    r.add_argument("--out", type=output_folder, default="report",
                   help="folder to write (default: report)")
    r.add_argument("--hands", type=positive_int, default=2000,
                   help="tournament hands per arrangement (default 2000)")
    r.add_argument("--baselines", nargs="+", default=["threshold:5.5", "careful"],
                   metavar="SPEC", help="baseline agents (default threshold:5.5 careful)")
    r.add_argument("--no-variants", dest="variants", action="store_false",
                   help="leave out the rule-variant table")
    r.add_argument("--variant-hands", type=positive_int, default=4000,
                   help="hands per preset and seat count in the variant table (default 4000)")
    r.add_argument("--variant-baselines", "--variant-baseline", nargs="+",
                   default=list(DEFAULT_BASELINES), metavar="SPEC",
                   help="lines of play of the variant table (default: "
                        + " ".join(DEFAULT_BASELINES) + ")")
    r.add_argument("--presets", type=rule_set, nargs="+", default=list(PRESETS),
                   metavar="RULES",
                   help="rule sets of the variant table (default: every preset)")
    r.add_argument("--best-response", nargs="+", choices=("player", "bank"),
                   default=["player"], metavar="ROLE",
                   help="learned roles compared with the exact best response, heads-up "
                        "(default: player; the bank's takes many minutes)")
    r.add_argument("--no-best-response", dest="best_response", action="store_const",
                   const=[], help="leave out the best-response comparison")
    r.add_argument("--br-bank", metavar="SPEC", default="threshold:5.5",
                   help="bank the learned player meets there (default threshold:5.5)")
    r.add_argument("--br-player", metavar="SPEC", default="threshold:5.5",
                   help="player the learned bank meets there (default threshold:5.5)")
    r.add_argument("--workers", type=positive_int, default=1,
                   help="processes of the scalar engine's tournaments (default 1; the batch "
                        "engine plays in this one)")
    r.set_defaults(func=_report)


def _evaluate(args: argparse.Namespace) -> int:
    note = _note("evaluate")
    entrants = [parse_entrant(a) for a in args.agents]
    groups: set[str] = set()
    for group in args.group:
        if len(group) < 2:
            raise ValueError(f"--group {' '.join(group)}: give a NAME and at least one SPEC")
        if group[0] in groups:  # one method's seeds go in one --group
            raise ValueError(f"--group {group[0]} is given twice: name each group once, with "
                             f"all its SPECs")
        groups.add(group[0])
        entrants += group_entrants(group[0], group[1:])
    if not entrants:
        raise ValueError("name at least one agent, e.g. sette evaluate threshold:5.5 careful")
    config = TournamentConfig(tuple(unique_labels(entrants)), args.rules, args.seats,
                              args.hands, args.seed, args.table_hands, args.fixed_bank)
    rounded = rounded_hands_note("--hands", args.hands, args.table_hands)
    if rounded is not None:
        note(rounded)
    bar = _progress(args)
    progress = bar("evaluate", config.tables) if bar else None
    result = None
    if args.engine != "scalar":
        from evaluate.batch_eval import batch_tournament

        result = batch_tournament(config, args.engine, progress, note=note)
        if result is not None and args.workers > 1:
            note(workers_note(args.workers))
    if result is None:
        result = run_tournament(config, workers=args.workers, progress=progress)
    summary = result.summary()
    text = result.markdown()
    if args.out is not None:
        _write_outputs(args.out, result, summary, text, note)
    print(json.dumps(summary, indent=1) if args.json else text)
    return 0


def _write_outputs(out: Path, result: Any, summary: dict[str, Any], text: str,
                   note: Callable[[str], None]) -> None:
    """tournament.md / .json, and the figures when matplotlib is there.

    An agent whose strategy map cannot be drawn (a model trained on the information
    state: the map's one-position probes give no hand history) is left out of the
    map, saying why to ``note``; the results and the other figures are still written.
    """
    from evaluate import plots, strategy
    from agents.seating import role_policy
    from envs.information_state import INFORMATION_STATE
    from evaluate.tournament import build_agents

    out.mkdir(parents=True, exist_ok=True)
    (out / "tournament.md").write_text(text + "\n", encoding="utf-8")
    (out / "tournament.json").write_text(json.dumps(summary, indent=1) + "\n",
                                         encoding="utf-8")
    c = result.config
    try:
        plots.plot_ev(result, out / "ev.png")
        agents = list(zip(result.labels, build_agents(c)))
        for role in ("player", "bank"):
            maps = []
            for label, agent in agents:
                policy = role_policy(agent, role)
                if getattr(policy, "observation_type", "observation") == INFORMATION_STATE:
                    note(f"strategy map of {label} as the {role} skipped: it reads the hand's "
                         f"history (the information state), which the map's one-position "
                         f"probes do not give")
                    continue
                try:
                    maps.append(strategy.strategy_map(policy, role, c.given_rules(),
                                                      c.num_seats, label))
                except ValueError as exc:
                    note(f"strategy map of {label} as the {role} skipped: {exc}")
            if maps:
                plots.plot_strategy_maps(maps, out / f"strategy-{role}.png", columns=3)
            else:
                note(f"strategy-{role}.png skipped: no agent's map could be drawn")
    except ImportError as exc:
        note(f"figures skipped: {exc}")


def _variants(args: argparse.Namespace) -> int:
    from evaluate.report import read_run
    from evaluate.variants import (LearnedPlay, plan_variants, play_variants, variant_data,
                                   variant_markdown)

    for n in args.seats:
        if not MIN_SEATS <= n <= MAX_SEATS:  # each preset's shoe is checked at its table
            raise ValueError(f"--seats {n} is out of range; allowed: {MIN_SEATS}..{MAX_SEATS}")
    learned = []
    for path in args.run:
        run = read_run(path)
        if "learned" not in run.models:
            raise ValueError(f"{str(path)!r} holds no finished player or bank model "
                             f"(player/model.zip, bank/model.zip)")
        learned.append(LearnedPlay(f"{run.label('learned')} {run.name}", run.models["learned"],
                                   run.rules, run.num_seats))
    note = _note("variants")
    plan = plan_variants(args.rules, args.baselines, args.seats, args.hands, args.seed,
                         learned=learned, engine=args.engine)
    rounded = rounded_hands_note("--hands", args.hands, plan.table_hands)
    if rounded is not None:
        note(rounded)
    rows = play_variants(plan, progress=_progress(args), note=note)
    if args.json:
        print(json.dumps(variant_data(rows), indent=1))
    else:
        print(variant_markdown(rows, plan.hands, args.seed))
    return 0


def _report(args: argparse.Namespace) -> int:
    from evaluate.report import ReportOptions, write_report

    options = ReportOptions(args.hands, args.seed, tuple(args.baselines), args.variants,
                            args.variant_hands, tuple(args.presets),
                            tuple(args.variant_baselines),
                            args.workers, tuple(dict.fromkeys(args.best_response)),
                            args.br_bank, args.br_player, args.engine)
    log = (lambda message: print(message, file=sys.stderr))
    report = write_report(args.runs, args.out, options, progress=_progress(args), log=log)
    if args.json:
        print((report.parent / "report.json").read_text(encoding="utf-8"), end="")
    else:
        print(f"report written: {report}")
    return 0
