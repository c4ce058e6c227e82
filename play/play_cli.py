"""The terminal commands: ``sette play --human`` (sit at the table) and ``sette watch``.

``sette play`` without ``--human`` is the transcript of scripted seats it
always was (:mod:`train.cli`); ``--human`` seats you at seat ``--seat``
beside the ``--opponents`` and opens the terminal table
(:mod:`play.terminal`). ``sette watch`` shows agents playing
(:mod:`play.watch`). This module imports no agent, engine or ``rich`` until
a command runs, so building the parser stays light (``sette rules``).
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Sequence

DEFAULT_OPPONENT = "threshold:5.5"
"""The agent in every seat but yours when ``--opponents`` is not given."""
DEFAULT_PLAY_SEATS = 4
"""``sette play``'s table size where ``--seats`` is not given (nor set by ``--opponents``)."""
DEFAULT_WATCH_SEATS = 4
"""``sette watch``'s table size where one spec is given without ``--seats``."""


def spec_list(words: Sequence[str] | None) -> list[str]:
    """Agent specs given as ``A,B`` or ``A B`` (or both), in seat order."""
    return [spec for word in words or () for spec in word.split(",") if spec]


MAX_TIMEOUT = 600.0
"""The longest turn timer, in seconds (ten minutes, as a table of ``sette serve`` allows):
longer is no timer in practice, and ``--no-timer`` says that."""
TIMER_RANGE = f"more than 0 and at most {MAX_TIMEOUT:g} seconds"
"""What a turn timer may be, in the words every refusal of one uses."""
MIN_SPEED = 0.01
"""The slowest ``sette watch`` speed, in actions per second: an action every 100 seconds."""
MAX_SPEED = 1000.0
"""The fastest ``sette watch`` speed but 0 (no pause): a pause of a millisecond."""


def is_timer(seconds: object) -> bool:
    """Whether ``seconds`` is a turn timer's length: a number (not a bool) more than 0 and at
    most :data:`MAX_TIMEOUT`, so never nan nor inf. The command line's timer options and
    :class:`play.session.TableSession` both hold their timers to it."""
    return (isinstance(seconds, (int, float)) and not isinstance(seconds, bool)
            and 0 < seconds <= MAX_TIMEOUT)  # false for nan


def _seconds(text: str) -> float:
    """A turn timer's seconds, typed: a number :func:`is_timer` accepts."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not is_timer(value):
        raise argparse.ArgumentTypeError(
            f"{text!r}: a timer is {TIMER_RANGE} (--no-timer turns the timers off)")
    return value


def add_human_options(play: argparse.ArgumentParser) -> None:
    """The ``--human`` options of ``sette play``; given without ``--human`` they are refused
    (:func:`refuse_human_options`), not dropped."""
    group = play.add_argument_group("at the table yourself (--human)")
    group.add_argument("--human", action="store_true",
                       help="sit at the table: play your seat in the terminal against "
                            "--opponents")
    group.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    group.add_argument("--opponents", nargs="+", metavar="SPEC,...",
                       help=f"the agents in the other seats, in seat order, comma-separated "
                            f"(any agent spec or model path; default: --seats - 1 times "
                            f"{DEFAULT_OPPONENT}); sets the table's size")
    group.add_argument("--history", metavar="FILE",
                       help="write every hand to FILE, one JSON line per hand (replayable)")
    group.add_argument("--no-timer", action="store_true",
                       help="no turn timers (the Catalan app's 18 s to bet, 22 s to act)")
    group.add_argument("--bet-timeout", type=_seconds, default=18.0, metavar="S",
                       help=f"seconds to bet before the smallest stake is played (18; at "
                            f"most {MAX_TIMEOUT:g})")
    group.add_argument("--act-timeout", type=_seconds, default=22.0, metavar="S",
                       help=f"seconds to act before stand (or pass) is played (22; at most "
                            f"{MAX_TIMEOUT:g})")
    group.add_argument("--deck", metavar="CARDS",
                       help="for tests and lessons: cards on top of the shoe for the first "
                            "hand, in draw order (e.g. '7o 2c Rc')")
    group.add_argument("--bank", type=int, metavar="SEAT",
                       help="for tests and lessons: the first bank's seat")
    play.set_defaults(human_options=tuple(action for action in group._group_actions
                                          if action.dest != "human"))


def refuse_human_options(args: argparse.Namespace) -> None:
    """Refuse the options of ``--human`` given to ``sette play`` without it: the transcript of
    ``--agents``' seats has no seat of yours, no timers and no hand history to write, and an
    option that changes nothing would be lost without a word."""
    given = [action.option_strings[0] for action in args.human_options
             if getattr(args, action.dest) != action.default]
    if given:
        them = "it" if len(given) == 1 else "them"
        raise ValueError(f"{', '.join(given)}: only with --human (sitting at the table "
                         f"yourself); add --human, or leave {them} out: sette play without "
                         f"--human prints the transcript of the --agents' seats")


def _check_seats(seats: int | None) -> None:
    """Refuse a ``--seats`` that is no table size (RULES.md §2: ``MIN_SEATS`` to ``MAX_SEATS``)
    by the option, before it is used to count agents; None (not given) passes."""
    from envs.rules import MAX_SEATS, MIN_SEATS

    if seats is not None and not MIN_SEATS <= seats <= MAX_SEATS:
        raise ValueError(f"--seats {seats} is not a table size: a table seats "
                         f"{MIN_SEATS}..{MAX_SEATS}")


def play_human(args: argparse.Namespace) -> int:
    """``sette play --human``: the terminal table for one person."""
    from play.session import HUMAN, TableSession
    from play.terminal import play_in_terminal

    if args.agents:
        raise ValueError("--agents seats scripted players for a transcript; with --human "
                         "name the other seats with --opponents")
    _check_seats(args.seats)
    opponents = spec_list(args.opponents) \
        or [DEFAULT_OPPONENT] * ((DEFAULT_PLAY_SEATS if args.seats is None else args.seats) - 1)
    seats = len(opponents) + 1
    if args.seats is not None and args.seats != seats:
        raise ValueError(f"--seats {args.seats}, but --opponents names {seats - 1} agents: "
                         f"with you the table has {seats} seats; name {args.seats - 1} "
                         f"opponents, or leave out --seats")
    if not 0 <= args.seat < seats:
        raise ValueError(f"--seat {args.seat} is not a seat of this table of {seats} "
                         f"(seats 0..{seats - 1})")
    players = list(opponents)
    players.insert(args.seat, HUMAN)
    session = TableSession(players, args.rules, seed=args.seed, hands=args.hands,
                           bet_timeout=None if args.no_timer else args.bet_timeout,
                           act_timeout=None if args.no_timer else args.act_timeout,
                           history=args.history,
                           deck=None if args.deck is None else args.deck.split(),
                           bank=args.bank)
    return play_in_terminal(session, args.seat, history=args.history)


def _watch(args: argparse.Namespace) -> int:
    from play.session import TableSession
    from play.watch import watch

    _check_seats(args.seats)
    specs = spec_list(args.agents)
    if len(specs) == 1:
        specs = specs * (DEFAULT_WATCH_SEATS if args.seats is None else args.seats)
    elif args.seats is not None and args.seats != len(specs):
        raise ValueError(f"--seats {args.seats}, but --agents names {len(specs)} agents, one "
                         f"a seat; name {args.seats}, or one to copy to every seat")
    session = TableSession(specs, args.rules, seed=args.seed, hands=args.hands,
                           bet_timeout=None, act_timeout=None, auto_agents=False)
    watch(session, speed=args.speed)
    return 0


def _speed(text: str) -> float:
    """``sette watch``'s actions per second: 0 (no pause), or from :data:`MIN_SPEED` to
    :data:`MAX_SPEED` — finite, so the pause between actions is one ``time.sleep`` takes."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (value == 0 or MIN_SPEED <= value <= MAX_SPEED):  # false for nan
        raise argparse.ArgumentTypeError(
            f"{text!r}: the speed is 0 (no pause) or {MIN_SPEED:g} to {MAX_SPEED:g} actions "
            f"per second")
    return value


def add_commands(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Register ``sette watch``."""
    from evaluate.arguments import positive_int, seed

    watch = sub.add_parser("watch", help="watch agents play hand by hand, with the "
                                         "probabilities learned agents give each action")
    watch.add_argument("--agents", nargs="+", required=True, metavar="SPEC,...",
                       help="one agent spec per seat, comma-separated (one spec: --seats "
                            "copies of it); model paths too")
    watch.add_argument("--rules", default="catalan", help="preset name or rules .toml file")
    watch.add_argument("--seats", type=int,
                       help=f"seats when one spec is given (default {DEFAULT_WATCH_SEATS}); "
                            f"with several, their number")
    watch.add_argument("--hands", type=positive_int, default=3, help="hands to play (3)")
    watch.add_argument("--seed", type=seed, default=0)
    watch.add_argument("--speed", type=_speed, default=2.0, metavar="S",
                       help=f"actions per second, {MIN_SPEED:g} to {MAX_SPEED:g} (2; 0: no "
                            f"pause)")
    watch.set_defaults(func=_watch)
