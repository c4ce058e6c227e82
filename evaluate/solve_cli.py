"""``sette solve``: exact heads-up figures from the command line.

    sette solve ev --preset pagat --player threshold:5 --bank threshold:5.5
    sette solve best-response --preset pagat --role player --bank threshold:5.5
    sette solve exploitability --preset spanish --player threshold:5 --bank threshold:5.5
    sette solve equilibrium --preset catalan --set jackpot_ante=0

Every subcommand takes ``--preset`` (a preset name or a rules ``.toml``),
``--set SWITCH=VALUE`` overrides, ``--shoe`` (the composition, default a
full shoe) and ``--json``. Values are the player's expected net win per
hand in units of ``min_bet`` (the bank's is minus it); see
:mod:`evaluate.solver` for the maths and what is supported.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from envs.cards import RANK_CHARS
from envs.rules import Rules

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

from evaluate.solver import (best_response, equilibrium, evaluate, evaluate_policies,
                             exploitability)
from evaluate.solver_game import IRRELEVANT_SWITCHES, HeadsUpGame, SolverError
from evaluate.solver_policies import SolverPolicy, as_policy
from evaluate.solver_report import bank_table, player_table, strategy_json


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
    eq.add_argument("--method", choices=("cuts", "full"), default="cuts",
                    help="cuts: the LP decomposed by the bank's views, its rows generated "
                         "(default); full: the whole sequence-form LP (small games only)")
    eq.set_defaults(func=_equilibrium)


def _stakes_option(parser: argparse.ArgumentParser, default: str) -> None:
    parser.add_argument("--stakes", choices=("free", "fixed"), default=default,
                        help="free: bets and raises are decisions; fixed: the smallest bet, "
                             f"no raises, values per unit stake (default: {default})")


# --------------------------------------------------------------------- inputs
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


def _context(args: argparse.Namespace, game: HeadsUpGame) -> dict[str, Any]:
    r = game.rules
    stake = ("free: bets and raises as the rules allow" if game.stakes == "free"
             else f"fixed: bet_{r.bet_ladder[0]}, no raises (values per that stake)")
    return {
        "rules": _label(args), "shoe": list(game.rank_counts), "shoe_text": _shoe(game),
        "stakes": stake,
        "units": f"min_bet = {r.min_bet} chips; player's view (bank = minus)",
        "card_classes": list(game.class_names),
        "not_in_play": {k: f"{getattr(r, k)!r}: {why}" for k, why in IRRELEVANT_SWITCHES.items()},
        "coverage": f"the bank pays at most its {r.starting_chips} chips",
    }


def _header(ctx: dict[str, Any], title: str) -> list[str]:
    return [title,
            f"rules: {ctx['rules']}   shoe: {ctx['shoe_text']}",
            f"stakes: {ctx['stakes']}; units: {ctx['units']}; coverage: {ctx['coverage']}",
            "one hand, so not in play: " + ", ".join(
                f"{k}={v.split(':')[0]}" for k, v in ctx["not_in_play"].items())]


def _emit(args: argparse.Namespace, payload: dict[str, Any], lines: list[str]) -> int:
    if args.json:
        print(json.dumps(payload, indent=2, ensure_ascii=False))
    else:
        print("\n".join(lines))
    return 0


def _policy(spec: str | None, flag: str, rules: Rules) -> SolverPolicy:
    if spec is None:
        raise SolverError(f"{flag} is required here")
    return as_policy(spec, rules)


# --------------------------------------------------------------------- commands
def _ev(args: argparse.Namespace) -> int:
    rules = _rules(args)
    start = time.perf_counter()
    result = evaluate(rules, args.player, args.bank, composition=args.shoe)
    seconds = time.perf_counter() - start
    game = result.game
    ctx = _context(args, game)
    ctx["stakes"] = "as the policies bet and raise"
    payload = {"command": "ev", **ctx, "player": args.player, "bank": args.bank,
               "ev": result.ev, "bank_ev": -result.ev, "player_bust": result.player_bust,
               "player_win": result.player_win, "bank_bust": result.bank_bust,
               "expected_stake": result.expected_stake, "seconds": seconds}
    lines = _header(ctx, "sette solve ev: exact expected value of one heads-up hand") + [
        f"player {args.player}  vs  bank {args.bank}",
        f"EV (player): {result.ev:+.6f} per hand   (bank: {-result.ev:+.6f})",
        f"  player busts {100 * result.player_bust:.2f}%, is paid "
        f"{100 * result.player_win:.2f}%; bank busts {100 * result.bank_bust:.2f}%; "
        f"mean stake {result.expected_stake:.3f}",
        f"  solved exactly in {seconds:.2f} s"]
    return _emit(args, payload, lines)


def _best_response(args: argparse.Namespace) -> int:
    rules = _rules(args)
    if args.role == "player":
        opp_spec, baseline, flag = args.bank, args.player, "--bank (the bank to respond to)"
    else:
        opp_spec, baseline, flag = args.player, args.bank, "--player (the player to respond to)"
    opponent = _policy(opp_spec, flag, rules)
    start = time.perf_counter()
    br = best_response(rules, args.role, opponent, composition=args.shoe, baseline=baseline,
                       stakes=args.stakes)
    seconds = time.perf_counter() - start
    game = br.game
    if args.role == "player":
        ev = evaluate_policies(game, br.strategy, opponent, record=True)
        table, reach = player_table(game, br.strategy, ev.player_reach), ev.player_reach
    else:
        ev = evaluate_policies(game, opponent, br.strategy, record=True)
        table, reach = bank_table(game, br.strategy, ev.bank_reach), ev.bank_reach
    ctx = _context(args, game)
    gain = None if br.baseline is None else (
        br.value - br.baseline if args.role == "player" else br.baseline - br.value)
    payload = {"command": "best-response", **ctx, "role": args.role, "opponent": opp_spec,
               "baseline": baseline, "value": br.value, "baseline_value": br.baseline,
               "gain": gain, "seconds": seconds,
               "strategy": strategy_json(game, br.strategy, args.role, reach)}
    side = "player" if args.role == "player" else "bank"
    lines = _header(ctx, f"sette solve best-response: the {side}'s best response to "
                         f"{opp_spec}") + [
        f"EV (player) with the best response: {br.value:+.6f} per hand"]
    if br.baseline is not None:
        lines.append(f"EV (player) with {baseline}: {br.baseline:+.6f}; the {side} gains "
                     f"{gain:.6f} per hand by best-responding")
    lines += [f"solved exactly in {seconds:.2f} s", "", table]
    return _emit(args, payload, lines)


def _exploitability(args: argparse.Namespace) -> int:
    rules = _rules(args)
    start = time.perf_counter()
    x = exploitability(rules, as_policy(args.player, rules), as_policy(args.bank, rules),
                       composition=args.shoe, stakes=args.stakes)
    seconds = time.perf_counter() - start
    game = x.game
    ctx = _context(args, game)
    player, bank = as_policy(args.player, rules), as_policy(args.bank, rules)
    vs_bank = evaluate_policies(game, x.player_response, bank, record=True)
    vs_player = evaluate_policies(game, player, x.bank_response, record=True)
    payload = {"command": "exploitability", **ctx, "player": args.player, "bank": args.bank,
               "ev": x.ev, "player_best_response": x.player_best,
               "bank_best_response": x.bank_best, "player_gain": x.player_gain,
               "bank_gain": x.bank_gain, "exploitability": x.total, "seconds": seconds,
               "player_response": strategy_json(game, x.player_response, "player",
                                                vs_bank.player_reach),
               "bank_response": strategy_json(game, x.bank_response, "bank",
                                              vs_player.bank_reach)}
    lines = _header(ctx, "sette solve exploitability: gains from best-responding") + [
        f"player {args.player}  vs  bank {args.bank}",
        f"EV (player): {x.ev:+.6f} per hand",
        f"player's best response: {x.player_best:+.6f}  (the player gains {x.player_gain:.6f})",
        f"bank's best response:   {x.bank_best:+.6f}  (the bank gains {x.bank_gain:.6f})",
        f"exploitability (sum of both gains, NashConv): {x.total:.6f} per hand",
        f"solved exactly in {seconds:.2f} s",
        "", f"how the player exploits bank {args.bank}:",
        player_table(game, x.player_response, vs_bank.player_reach),
        "", f"how the bank exploits player {args.player}:",
        bank_table(game, x.bank_response, vs_player.bank_reach)]
    return _emit(args, payload, lines)


def _equilibrium(args: argparse.Namespace) -> int:
    rules = _rules(args)
    eq = equilibrium(rules, composition=args.shoe, stakes=args.stakes, method=args.method)
    game = eq.game
    ev = evaluate_policies(game, eq.player, eq.bank, record=True)
    ctx = _context(args, game)
    payload = {"command": "equilibrium", **ctx, "value": eq.value, "bank_value": -eq.value,
               "exploitability": eq.check.total, "method": eq.method, "lp": eq.size,
               "seconds": eq.seconds,
               "player_strategy": strategy_json(game, eq.player, "player", ev.player_reach),
               "bank_strategy": strategy_json(game, eq.bank, "bank", ev.bank_reach)}
    lines = _header(ctx, "sette solve equilibrium: heads-up equilibrium (sequence-form LP, "
                         "HiGHS)") + [
        f"value (player): {eq.value:+.6f} per hand   (bank: {-eq.value:+.6f})",
        f"check: exploitability of these strategies {eq.check.total:.2e}; LP "
        f"{eq.size['player_sequences']} player sequences, {eq.size['bank_decisions']} bank "
        f"decisions, solved ({eq.method}) in {eq.seconds:.1f} s",
        "", player_table(game, eq.player, ev.player_reach), "",
        bank_table(game, eq.bank, ev.bank_reach)]
    return _emit(args, payload, lines)
