"""The ``sette`` command line.

    sette train [player|bank|selfplay]   fit player and bank policies (the main job)
    sette evaluate AGENT...              tournament: EV per hand and role with 95% intervals
    sette variants                       the bank's edge per rule preset
    sette report RUN_DIR...              a Markdown report with tables and plots
    sette solve ev|best-response|...     exact heads-up values
    sette play                           simulate and show a few hands between scripted seats
    sette play --human                   sit at the table yourself, in the terminal
    sette watch --agents SPEC,...        watch agents play, with their action probabilities
    sette rules [PRESET|FILE]            list the presets, or print one as a TOML rules file
    sette serve                          the browser table: private tables in a web page
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from typing import Final

from envs.rules import (MAX_SEATS, MIN_SEATS, PRESETS, SEATS_PER_DECK, SWITCH_DOCS, Rules,
                        RulesError)
from play.play_cli import (DEFAULT_PLAY_SEATS, add_human_options, play_human,
                           refuse_human_options, spec_list)

COMMAND_MODULES: Final[dict[str, str]] = {
    "train": "train.train_cli",
    "evaluate": "evaluate.eval_cli",
    "variants": "evaluate.eval_cli",
    "report": "evaluate.eval_cli",
    "solve": "evaluate.solver.cli",
    "serve": "play.serve_cli",
    "watch": "play.play_cli",
}
"""The module that registers each command beyond ``play`` and ``rules``.

A command's module is imported only when that command runs (or for ``sette
--help`` and a command name that is not one), so ``sette rules`` loads the
rules and nothing of training, evaluation or the solver (no torch, no SciPy).
Each module offers ``add_commands(subparsers)``; its handlers are
``func(args) -> int``."""

def _play(args: argparse.Namespace) -> int:
    """One table of ``--hands`` hands, seated and seeded as every table is (agents.seating);
    with ``--human``, the terminal table (:mod:`play.play_cli`)."""
    if args.human:
        return play_human(args)
    refuse_human_options(args)
    from agents import Table, make_agent, model_label, resolve_spec
    from envs.render import transcript
    from envs.table_view import hands_text

    rules = Rules.resolve(args.rules)
    num_seats = DEFAULT_PLAY_SEATS if args.seats is None else args.seats
    table = Table(rules, num_seats, args.hands)
    specs = spec_list(args.agents) or ["threshold:5.5"]  # A,B or A B, as sette watch
    if len(specs) not in (1, num_seats):
        raise ValueError(f"--agents takes one spec for every seat or {num_seats} specs, "
                         f"got {len(specs)}")
    specs = specs * num_seats if len(specs) == 1 else specs
    specs = [resolve_spec(spec) for spec in specs]  # a bare model path, PLAYER|BANK, as sette evaluate
    seats = [make_agent(spec, rules=rules) for spec in specs]
    engine = table.play(seats, seed=args.seed)  # seat s is seeded with stream_seed(seed, s)
    print(transcript(engine.events), end="")
    print(f"\nfinal chips: {engine.chips}  jackpot: {engine.jackpot}  "
          f"({hands_text(engine.hands_played)}, rules {args.rules!r}, seed {args.seed}, "
          f"seats: {', '.join(model_label(spec) for spec in specs)})")
    return 0


def _rules(args: argparse.Namespace) -> int:
    if args.name is None:
        print("presets (RULES.md §7):", ", ".join(PRESETS))
        print("switches:")
        for name, doc in SWITCH_DOCS.items():
            print(f"  {name:<30} {doc}")
        return 0
    print(Rules.resolve(args.name).to_toml(), end="")
    return 0


def _command_of(argv: Sequence[str]) -> str | None:
    """The command named on the line: its first word that is not an option."""
    for word in argv:
        if not word.startswith("-"):
            return word
    return None


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The ``sette`` parser; with a known ``command``, only that command's module is imported.

    ``play`` and ``rules`` live here; every other command is registered by its
    module in :data:`COMMAND_MODULES`. For ``None`` or a word that names no
    command, every module is imported, so help and the "invalid choice" error
    list every command.

    >>> args = build_parser("rules").parse_args(["rules", "catalan"])
    >>> args.command, args.name
    ('rules', 'catalan')
    """
    parser = argparse.ArgumentParser(prog="sette", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    play = sub.add_parser("play", help="simulate and show a few hands between scripted seats")
    play.add_argument("--rules", default="catalan", help="preset name or rules .toml file")
    play.add_argument("--seats", type=int,
                      help=f"number of seats, {MIN_SEATS}..{MAX_SEATS} (more than "
                           f"{SEATS_PER_DECK} need decks >= 2; default {DEFAULT_PLAY_SEATS}, "
                           f"with --human the opponents named and you)")
    play.add_argument("--agents", nargs="*", metavar="SPEC,...",
                      help="agent spec or model path per seat, comma-separated (e.g. "
                           "threshold:5,random,runs/RUN/player; one spec: every seat)")
    play.set_defaults(func=_play)
    if command != "rules":  # `sette rules` loads the rules alone (tests/test_cli_imports.py)
        from evaluate.arguments import positive_int, seed

        play.add_argument("--hands", type=positive_int, default=3, help="hands to play")
        play.add_argument("--seed", type=seed, default=0)
        add_human_options(play)
    rules = sub.add_parser("rules", help="list presets and switches, or show one rule set")
    rules.add_argument("name", nargs="?",
                       help="preset name or rules .toml file: printed as a TOML rules file")
    rules.set_defaults(func=_rules)
    if command in COMMAND_MODULES:
        modules = [COMMAND_MODULES[command]]
    elif command in ("play", "rules"):
        modules = []
    else:
        modules = list(dict.fromkeys(COMMAND_MODULES.values()))
    for module in modules:
        importlib.import_module(module).add_commands(sub)
    for name, parser_of_command in sub.choices.items():
        if name != "rules":
            _add_trust_option(parser_of_command)
        _name_own_parser(parser_of_command)
    return parser


def _subcommands(parser: argparse.ArgumentParser) -> list[argparse.ArgumentParser]:
    """The parsers of ``parser``'s subcommands (``sette solve ev``…), none for a plain one."""
    return [command for action in parser._actions
            if isinstance(action, argparse._SubParsersAction)
            for command in action.choices.values()]


def _name_own_parser(parser: argparse.ArgumentParser) -> None:
    """Give every command (or subcommand) its own parser as ``args.command_parser``, so that
    an argument it does not know is refused with its usage (``sette variants: error:
    unrecognized arguments: …``), not with the usage of ``sette`` alone."""
    parser.set_defaults(command_parser=parser)
    for command in _subcommands(parser):
        _name_own_parser(command)


def _add_trust_option(parser: argparse.ArgumentParser) -> None:
    """``--trust-model`` on a command, or on each of its subcommands when it has them."""
    nested = _subcommands(parser)
    if not nested:
        parser.add_argument("--trust-model", action="store_true", help=_TRUST_HELP)
    for command in nested:
        _add_trust_option(command)


_TRUST_HELP = ("load model files that have no sette-model.json (saved by an older sette) the "
               "old way, by unpickling them: a crafted file then runs any code its author "
               "chose; use it only for files you made or trust")


def main(argv: list[str] | None = None) -> int:
    """Run one ``sette`` command; its exit status (2 with a one-line error for bad input)."""
    words = sys.argv[1:] if argv is None else argv
    parser = build_parser(_command_of(words))
    args, unknown = parser.parse_known_args(words)
    if unknown:
        args.command_parser.error(f"unrecognized arguments: {' '.join(unknown)}")
    if getattr(args, "trust_model", False):  # in the environment, so worker processes see it
        from agents.learned import TRUST_ENV

        os.environ[TRUST_ENV] = "1"
    try:
        return args.func(args)
    except (RulesError, ValueError, NotImplementedError) as exc:
        print(f"sette {args.command}: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
