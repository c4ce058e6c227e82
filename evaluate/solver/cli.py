"""``sette solve``: exact heads-up figures from the command line.

    sette solve ev --preset pagat --player threshold:5 --bank threshold:5.5
    sette solve best-response --preset pagat --role player --bank threshold:5.5
    sette solve exploitability --preset spanish --player threshold:5 --bank threshold:5.5
    sette solve equilibrium --preset catalan --jackpot 20

A policy is an agent spec (``threshold:5``, ``careful``), a trained model
(``model:runs/RUN/player`` or just its path), as ``sette evaluate`` takes
them; tables name a model by its run and stage. ``equilibrium`` reports its
progress on stderr when that is a terminal (``--progress`` / ``--no-progress``).
Every subcommand takes ``--preset`` (a preset name or a rules ``.toml``),
``--set SWITCH=VALUE`` overrides, ``--shoe`` (the composition, default a
full shoe), ``--jackpot N`` (chips in the jackpot before this hand's ante,
default 0; rules with ``jackpot_ante`` > 0) and ``--json``. Values are the
player's expected net win per hand in units of ``min_bet``; without a
jackpot the bank's is minus it. With a jackpot the player's EV includes its
ante and the pot its natural may take, and the bank's EV (shown beside it)
is minus the chips it pays the player: the pot is not the bank's. See
:mod:`evaluate.solver.values` for the maths and what is supported.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time
from typing import Any, TextIO

from agents.registry import model_label, resolve_spec
from envs.cards import RANK_CHARS
from envs.rules import Rules
from evaluate.arguments import positive_float

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

from evaluate.solver.breakdown import bank_gain_by_view, gain_rows
from evaluate.solver.values import (best_response, equilibrium, evaluate, evaluate_policies,
                                    exploitability)
from evaluate.solver.game import IRRELEVANT_SWITCHES, RECALLS, HeadsUpGame, SolverError
from evaluate.solver.policies import SolverPolicy, as_policy
from evaluate.solver.public import perfect_recall_equilibrium
from evaluate.solver.tables import bank_table, player_table, strategy_json


def add_commands(subparsers: argparse._SubParsersAction) -> None:
    """Add ``sette solve`` and its subcommands (``ev``, ``best-response``, …)."""
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--preset", default="pagat",
                        help="preset name or rules .toml file (default: pagat)")
    common.add_argument("--set", action="append", default=[], metavar="SWITCH=VALUE",
                        help="override a rule switch, e.g. --set jackpot_ante=0 (repeatable)")
    common.add_argument("--shoe", default=None, metavar="COUNTS",
                        help="shoe composition: ten counts for ranks 1..7,S,C,R "
                             "('4,4,4,4,4,4,4,4,4,4') or changes to a full shoe ('7=2,S=0')")
    common.add_argument("--jackpot", type=int, default=0, metavar="N",
                        help="chips in the jackpot before this hand's ante (RULES.md §4.9; "
                             "default 0: the pot a natural takes is this hand's ante); "
                             "only with jackpot_ante > 0")
    common.add_argument("--recall", choices=RECALLS, default="perfect",
                        help="perfect: the bank remembers the player's whole public history "
                             "(RULES.md §8.10, the real game; default); forgetful: an older "
                             "model in which the bank sees only the finished hand")
    common.add_argument("--json", action="store_true", help="print JSON instead of text")

    solve = subparsers.add_parser(
        "solve", help="exact heads-up figures: ev, best-response, exploitability, equilibrium",
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = solve.add_subparsers(dest="solve_command", required=True)

    ev = sub.add_parser("ev", parents=[common], help="exact EV of a player against a bank")
    ev.add_argument("--player", default="threshold:5.5", help="player policy (agent spec)")
    ev.add_argument("--bank", default="threshold:5.5", help="bank policy (agent spec)")
    ev.set_defaults(func=_ev)

    br = sub.add_parser("best-response", parents=[common],
                        help="best response of one role to the other's policy")
    br.add_argument("--role", choices=("player", "bank"), required=True,
                    help="the role that best-responds")
    br.add_argument("--player", default=None,
                    help="player policy: the opponent (--role bank) or the baseline it replaces")
    br.add_argument("--bank", default=None,
                    help="bank policy: the opponent (--role player) or the baseline it replaces")
    br.add_argument("--by-view", type=int, default=0, metavar="N",
                    help="with --role bank and a --bank baseline: the N views of the player's "
                         "finished hand behind which the baseline gives most away to the best "
                         "response, and how much (they add up to its gain)")
    _stakes_option(br, "free")
    br.set_defaults(func=_best_response)

    ex = sub.add_parser("exploitability", parents=[common],
                        help="what each role gains by best-responding to a policy pair")
    ex.add_argument("--player", default="threshold:5.5", help="player policy (agent spec)")
    ex.add_argument("--bank", default="threshold:5.5", help="bank policy (agent spec)")
    _stakes_option(ex, "free")
    ex.set_defaults(func=_exploitability)

    eq = sub.add_parser("equilibrium", parents=[common],
                        help="equilibrium value and strategies (sequence-form LP, HiGHS)")
    _stakes_option(eq, "free")
    eq.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                    help="the LP's rounds on stderr (default: when stderr is a terminal)")
    eq.add_argument("--method", choices=("cuts", "full", "public"), default=None,
                    help="cuts: the LP decomposed by the bank's views, its rows generated, "
                         "with perfect recall on refined partial-recall games; full: the "
                         "whole sequence-form LP (--recall forgetful, small games only); "
                         "public: perfect recall by nested cutting planes over public "
                         "states, the value and its certificate without strategy tables "
                         "(no jackpot). Default: public for perfect recall with bets after "
                         "the first card and raises at free stakes (spanish), else cuts")
    eq.add_argument("--time-limit", type=positive_float, default=540.0, metavar="SECONDS",
                    help="perfect recall: start a refinement round (a pass with --method "
                         "public) only while twice the last one's time fits in this (default "
                         "540); the result then comes with exact bounds on its gap")
    eq.set_defaults(func=_equilibrium)


def _stakes_option(parser: argparse.ArgumentParser, default: str) -> None:
    parser.add_argument("--stakes", choices=("free", "fixed"), default=default,
                        help="free: bets and raises are decisions; fixed: the smallest bet, "
                             f"no raises, values per unit stake (default: {default})")


RECALL_TEXT = {
    "perfect": "perfect recall (RULES.md §8.10): the bank remembers the player's whole "
               "public history",
    "forgetful": "the forgetful-bank model: at its turn the bank sees only the finished "
                 "hand's view (stake, face-up cards, face-down count), not the order of play",
}


# --------------------------------------------------------------------- inputs
def _specs(args: argparse.Namespace) -> None:
    """``--player`` and ``--bank`` as specs: a bare model path becomes ``model:PATH``."""
    for name in ("player", "bank"):
        if getattr(args, name, None) is not None:
            setattr(args, name, resolve_spec(getattr(args, name)))


class _Status:
    """One ``\r``-updated status line on stderr (what the solver does, time so far)."""

    def __init__(self, label: str, stream: TextIO | None = None) -> None:
        self.label = label
        self.stream = stream if stream is not None else sys.stderr
        self.started = time.perf_counter()
        self.width = 0

    def __call__(self, message: str) -> None:
        line = f"{self.label}: {message} ({time.perf_counter() - self.started:.0f}s)"
        self.stream.write("\r" + line.ljust(self.width))
        self.width = len(line)
        self.stream.flush()

    def close(self) -> None:
        if self.width:
            self.stream.write("\n")
            self.stream.flush()


def _rules(args: argparse.Namespace) -> Rules:
    rules = Rules.resolve(args.preset)
    overrides: dict[str, Any] = {}
    for item in args.set:
        name, sep, text = item.partition("=")
        if not sep or not name.strip():
            raise SolverError(f"--set {item!r}: write SWITCH=VALUE, e.g. --set jackpot_ante=0")
        try:
            value = tomllib.loads(f"v = {text.strip()}")["v"]
        except tomllib.TOMLDecodeError:
            value = text.strip()
        overrides[name.strip()] = value
    return rules.replace(**overrides) if overrides else rules


def _label(args: argparse.Namespace) -> str:
    return args.preset + "".join(f" {item}" for item in args.set)


def _shoe(game: HeadsUpGame) -> str:
    full = 4 * game.rules.decks
    if all(n == full for n in game.rank_counts):
        return f"full shoe ({game.num_cards} cards)"
    return (" ".join(f"{RANK_CHARS[i]}:{n}" for i, n in enumerate(game.rank_counts))
            + f" ({game.num_cards} cards)")


def _jackpot(game: HeadsUpGame) -> dict[str, Any]:
    r = game.rules
    if not r.jackpot_ante:
        return {"ante": 0, "pot_before": 0, "pot": 0, "pot_units": 0.0,
                "text": "none (jackpot_ante=0)"}
    return {"ante": r.jackpot_ante, "pot_before": game.jackpot, "pot": game.pot_chips,
            "pot_units": game.pot,
            "text": (f"the player antes {r.jackpot_ante} chip(s); assumed pot "
                     f"{game.jackpot} chips before this hand's ante (--jackpot), so a natural "
                     f"takes {game.pot_chips} chips ({game.pot:g} units) unless the bank "
                     f"makes 7½; the player's EV includes ante and pot, the bank's does not")}


def _context(args: argparse.Namespace, game: HeadsUpGame) -> dict[str, Any]:
    r = game.rules
    stake = ("free: bets and raises as the rules allow" if game.stakes == "free"
             else f"fixed: bet_{r.bet_ladder[0]}, no raises (values per that stake)")
    units = (f"min_bet = {r.min_bet} chips; player's view (bank = minus)"
             if not r.jackpot_ante else
             f"min_bet = {r.min_bet} chips; player's view (the bank's EV is minus the chips "
             f"it pays the player)")
    return {
        "rules": _label(args), "shoe": list(game.rank_counts), "shoe_text": _shoe(game),
        "recall": args.recall, "recall_text": RECALL_TEXT[args.recall],
        "stakes": stake, "jackpot": _jackpot(game),
        "units": units,
        "card_classes": list(game.class_names),
        "not_in_play": {k: f"{getattr(r, k)!r}: {why}" for k, why in IRRELEVANT_SWITCHES.items()},
        "coverage": f"the bank pays at most its {r.starting_chips} chips",
    }


def _header(ctx: dict[str, Any], title: str) -> list[str]:
    return [title,
            f"rules: {ctx['rules']}   shoe: {ctx['shoe_text']}",
            f"game: {ctx['recall_text']}",
            f"stakes: {ctx['stakes']}; units: {ctx['units']}; coverage: {ctx['coverage']}",
            f"jackpot: {ctx['jackpot']['text']}",
            "one hand, so not in play: " + ", ".join(
                f"{k}={v.split(':')[0]}" for k, v in ctx["not_in_play"].items())]


def _emit(args: argparse.Namespace, payload: dict[str, Any], lines: list[str]) -> int:
    if args.json:
        print(json.dumps(payload, indent=2, ensure_ascii=False))
    else:
        print("\n".join(lines))
    return 0


def _policy(spec: str | None, flag: str, rules: Rules, role: str) -> SolverPolicy:
    if spec is None:
        raise SolverError(f"{flag} is required here")
    return as_policy(spec, rules, role)


# --------------------------------------------------------------------- commands
def _ev(args: argparse.Namespace) -> int:
    _specs(args)
    rules = _rules(args)
    start = time.perf_counter()
    result = evaluate(rules, args.player, args.bank, composition=args.shoe,
                      jackpot=args.jackpot, recall=args.recall)
    seconds = time.perf_counter() - start
    game = result.game
    ctx = _context(args, game)
    ctx["stakes"] = "as the policies bet and raise"
    payload = {"command": "ev", **ctx, "player": args.player, "bank": args.bank,
               "ev": result.ev, "bank_ev": result.bank_ev, "chips_ev": result.chips_ev,
               "jackpot_win": result.jackpot_win, "player_bust": result.player_bust,
               "player_win": result.player_win, "bank_bust": result.bank_bust,
               "expected_stake": result.expected_stake, "seconds": seconds}
    lines = _header(ctx, "sette solve ev: exact expected value of one heads-up hand") + [
        f"player {model_label(args.player)}  vs  bank {model_label(args.bank)}",
        f"EV (player): {result.ev:+.6f} per hand   (bank: {result.bank_ev:+.6f})",
        *([f"  = chips from the bank {result.chips_ev:+.6f} - ante {game.ante:g} + pot "
           f"{game.pot:g} x {result.jackpot_win:.6f} (its natural takes the jackpot)"]
          if game.rules.jackpot_ante else []),
        f"  player busts {100 * result.player_bust:.2f}%, is paid "
        f"{100 * result.player_win:.2f}%; bank busts {100 * result.bank_bust:.2f}%; "
        f"mean stake {result.expected_stake:.3f}",
        f"  solved exactly in {seconds:.2f} s"]
    return _emit(args, payload, lines)


def _check_by_view(args: argparse.Namespace) -> None:
    if args.by_view < 0:
        raise SolverError(f"--by-view {args.by_view}: give a number of views, 1 or more "
                          f"(0, the default, prints none)")
    if args.by_view and args.role != "bank":
        raise SolverError(f"--by-view splits a bank's gain by the player's views; it needs "
                          f"--role bank, not --role {args.role}")
    if args.by_view and args.bank is None:
        raise SolverError("--by-view needs --bank: the bank whose gap to the best response "
                          "it splits")


def _best_response(args: argparse.Namespace) -> int:
    _specs(args)
    _check_by_view(args)
    rules = _rules(args)
    if args.role == "player":
        opp_spec, baseline, flag = args.bank, args.player, "--bank (the bank to respond to)"
    else:
        opp_spec, baseline, flag = args.player, args.bank, "--player (the player to respond to)"
    opponent = _policy(opp_spec, flag, rules, "bank" if args.role == "player" else "player")
    start = time.perf_counter()
    best: dict[Any, float] | None = {} if args.by_view else None
    br = best_response(rules, args.role, opponent, composition=args.shoe, baseline=baseline,
                       stakes=args.stakes, jackpot=args.jackpot, recall=args.recall,
                       by_view=best)
    seconds = time.perf_counter() - start
    game = br.game
    if args.role == "player":
        ev = evaluate_policies(game, br.strategy, opponent, record=True)
        table, reach = player_table(ev.game, br.strategy, ev.player_reach), ev.player_reach
    else:
        ev = evaluate_policies(game, opponent, br.strategy, record=True)
        table, reach = bank_table(ev.game, br.strategy, ev.bank_reach), ev.bank_reach
    ctx = _context(args, game)
    gain = br.gain
    payload = {"command": "best-response", **ctx, "role": args.role, "opponent": opp_spec,
               "baseline": baseline, "value": br.value, "baseline_value": br.baseline,
               "own_value": br.own_value, "player_ev": ev.ev, "bank_ev": ev.bank_ev,
               "gain": gain, "seconds": seconds,
               "strategy": strategy_json(ev.game, br.strategy, args.role, reach)}
    side = "player" if args.role == "player" else "bank"
    lines = _header(ctx, f"sette solve best-response: the {side}'s best response to "
                         f"{model_label(opp_spec)}") + [
        f"EV (player) with the best response: {ev.ev:+.6f} per hand   "
        f"(bank: {ev.bank_ev:+.6f})"]
    if br.baseline is not None:
        own = br.baseline if args.role == "player" else -br.baseline
        lines.append(f"EV ({side}) with {model_label(baseline)}: {own:+.6f}; the {side} gains "
                     f"{gain:.6f} per hand by best-responding")
    if best is not None:
        twin, rows = bank_gain_by_view(game, opponent, as_policy(baseline, rules, "bank"), best)
        top = rows[:args.by_view]
        payload["by_view"] = gain_rows(twin, top)
        lines += ["", f"where {model_label(baseline)} gives most away: {len(top)} of the "
                      f"{len(rows)} views the player shows (all {len(rows)} add up to the gain, "
                      f"{gain:.6f})",
                  f"{'gain':>9}  {'share':>6}  {'reach':>8}  view"]
        lines += [f"{row.gain:9.6f}  {row.gain / gain if gain else 0.0:6.1%}  "
                  f"{row.reach:8.5f}  {row.describe(twin)}" for row in top]
    lines += [f"solved exactly in {seconds:.2f} s", "", table]
    return _emit(args, payload, lines)


def _exploitability(args: argparse.Namespace) -> int:
    _specs(args)
    rules = _rules(args)
    start = time.perf_counter()
    x = exploitability(rules, as_policy(args.player, rules, "player"),
                       as_policy(args.bank, rules, "bank"),
                       composition=args.shoe, stakes=args.stakes, jackpot=args.jackpot,
                       recall=args.recall)
    seconds = time.perf_counter() - start
    game = x.game
    ctx = _context(args, game)
    player, bank = as_policy(args.player, rules, "player"), as_policy(args.bank, rules, "bank")
    vs_bank = evaluate_policies(game, x.player_response, bank, record=True)
    vs_player = evaluate_policies(game, player, x.bank_response, record=True)
    payload = {"command": "exploitability", **ctx, "player": args.player, "bank": args.bank,
               "ev": x.ev, "bank_ev": x.bank_ev, "player_best_response": x.player_best,
               "bank_best_response": x.bank_best, "bank_best_response_own": -x.bank_best,
               "player_gain": x.player_gain,
               "bank_gain": x.bank_gain, "exploitability": x.total, "seconds": seconds,
               "player_response": strategy_json(vs_bank.game, x.player_response, "player",
                                                vs_bank.player_reach),
               "bank_response": strategy_json(vs_player.game, x.bank_response, "bank",
                                              vs_player.bank_reach)}
    lines = _header(ctx, "sette solve exploitability: gains from best-responding") + [
        f"player {model_label(args.player)}  vs  bank {model_label(args.bank)}",
        f"EV (player): {x.ev:+.6f} per hand   (bank: {x.bank_ev:+.6f})",
        f"player's best response: {x.player_best:+.6f} for the player  (the player gains "
        f"{x.player_gain:.6f})",
        f"bank's best response:   {-x.bank_best:+.6f} for the bank  (the bank gains "
        f"{x.bank_gain:.6f})",
        f"exploitability (sum of both gains, NashConv): {x.total:.6f} per hand",
        f"solved exactly in {seconds:.2f} s",
        "", f"how the player exploits bank {model_label(args.bank)}:",
        player_table(vs_bank.game, x.player_response, vs_bank.player_reach),
        "", f"how the bank exploits player {model_label(args.player)}:",
        bank_table(vs_player.game, x.bank_response, vs_player.bank_reach)]
    return _emit(args, payload, lines)


def _equilibrium(args: argparse.Namespace) -> int:
    rules = _rules(args)
    show = args.progress if args.progress is not None else sys.stderr.isatty()
    status = _Status("sette solve equilibrium") if show else None
    if status is not None:
        status("building the game")
    if args.method is None:
        args.method = ("public" if by_public_state(rules, args.recall, args.stakes)
                       else "cuts")
    if args.method == "public":
        return _public_equilibrium(args, rules, status)
    try:
        eq = equilibrium(rules, composition=args.shoe, stakes=args.stakes, method=args.method,
                         jackpot=args.jackpot, progress=status, recall=args.recall,
                         time_limit=args.time_limit)
    finally:
        if status is not None:
            status.close()
    ev = evaluate_policies(eq.game, eq.player, eq.bank, record=True)
    game = ev.game
    ctx = _context(args, game)
    x = eq.check
    if eq.certified:
        verdict = ("a Nash equilibrium of the real hand (neither party gains by deviating, "
                   "each on its own payoff)" if game.general_sum else "the equilibrium")
    elif eq.recall == "perfect" and eq.gap > 0.0 and x.total > 1e-9:
        verdict = (f"NOT certified: the refinement stopped at its time limit; a perfect "
                   f"opponent gains {x.total:.2e} per hand against them (player "
                   f"{x.player_gain:.2e}, bank {x.bank_gain:.2e}), so the value lies between "
                   f"{eq.value - x.bank_gain:+.6f} and {eq.value + x.player_gain:+.6f}")
    else:
        verdict = ("NOT an equilibrium of the real hand: the zero-sum solution (bank also "
                   f"spoiling the pot) leaves the player {x.player_gain:.2e} and the bank "
                   f"{x.bank_gain:.2e} per hand to gain")
    payload = {"command": "equilibrium", **ctx, "value": eq.value, "bank_value": eq.bank_value,
               "certified": eq.certified, "general_sum": game.general_sum,
               "player_gain": x.player_gain, "bank_gain": x.bank_gain,
               "exploitability": x.total, "method": eq.method, "lp": eq.size,
               "seconds": eq.seconds,
               "refinement": [dataclasses.asdict(r) for r in eq.rounds],
               "player_strategy": strategy_json(game, eq.player, "player", ev.player_reach),
               "bank_strategy": strategy_json(game, eq.bank, "bank", ev.bank_reach)}
    what = "value" if eq.certified else "EV of the LP strategies"
    lines = _header(ctx, "sette solve equilibrium: heads-up equilibrium (sequence-form LP, "
                         "HiGHS)") + [
        f"{what} (player): {eq.value:+.6f} per hand   (bank: {eq.bank_value:+.6f})",
        f"these strategies are {verdict}",
        f"check: exploitability (NashConv) of these strategies {x.total:.2e}; LP "
        f"{eq.size['player_sequences']} player sequences, {eq.size['bank_decisions']} bank "
        f"decisions, solved ({eq.method}) in {eq.seconds:.1f} s",
        *([f"perfect recall: {len(eq.rounds)} partial-recall game(s) solved, the last "
           f"remembering {eq.size['remembered_histories']:,} public histories "
           f"(evaluate/solver/recall.py)"] if eq.recall == "perfect" else []),
        "", player_table(game, eq.player, ev.player_reach), "",
        bank_table(game, eq.bank, ev.bank_reach)]
    return _emit(args, payload, lines)


def by_public_state(rules: Rules, recall: str, stakes: str) -> bool:
    """Whether the equilibrium is solved by public state (``--method public``'s default):
    the perfect-recall hand whose refinement does not close in minutes (a stake placed
    after the first card, raises; no jackpot)."""
    return (recall == "perfect" and stakes == "free" and rules.bet_raise
            and rules.bet_timing == "on_turn" and not rules.jackpot_ante)


def _public_equilibrium(args: argparse.Namespace, rules: Rules, status: _Status | None) -> int:
    """``--method public``: the perfect-recall value by :mod:`evaluate.solver.public`."""
    if args.recall != "perfect":
        raise SolverError("--method public solves the perfect-recall game; drop --recall "
                          "forgetful or use --method cuts")
    try:
        game = HeadsUpGame(rules, args.shoe, stakes=args.stakes, jackpot=args.jackpot)
        sol = perfect_recall_equilibrium(game, status, args.time_limit)
    finally:
        if status is not None:
            status.close()
    ctx = _context(args, game)
    last = sol.passes[-1]
    verdict = (f"certified: NashConv at most {sol.gap:.1e} per hand" if sol.certified else
               f"NOT certified: stopped at the time limit, the bounds {sol.gap:.2e} apart")
    payload = {"command": "equilibrium", **ctx, "method": "public", "lower": sol.lower,
               "upper": sol.upper, "gap": sol.gap, "certified": sol.certified,
               "seconds": sol.seconds,
               "passes": [dataclasses.asdict(p) for p in sol.passes]}
    lines = _header(ctx, "sette solve equilibrium: heads-up equilibrium of the perfect-recall "
                         "hand (nested cutting planes over public states)") + [
        f"value (player): between {sol.lower:+.9f} and {sol.upper:+.9f} per hand "
        f"(bank: minus it); {verdict}",
        "lower bound: the player's strategy against the exact perfect-recall best response "
        "of the bank; upper bound: the split LPs' value at the deal (every cut a bank "
        "strategy)",
        f"{len(sol.passes)} passes in {sol.seconds:.1f} s; the last visited {last.groups:,} "
        f"history groups and {last.views:,} finished-hand groups, {last.cuts:,} cuts "
        f"(evaluate/solver/public.py)"]
    return _emit(args, payload, lines)
