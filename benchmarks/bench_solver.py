"""Speed of the exact heads-up solver against its three targets.

* EV of two threshold policies: < 1 s;
* a best response (player or bank, to a threshold policy): < 30 s;
* the equilibrium (sequence-form LP, HiGHS), certified: < 10 min.

Every figure is in the perfect-recall game (RULES.md §8.10; ``--recall
forgetful`` for the older forgetful-bank model). Each figure is the wall time of one call from a cold start (no cache shared
between calls), on the presets the solver supports (``catalan`` with its
jackpot: ``--jackpot N`` chips in the pot before the hand, default 0),
with free stakes by default (bets and raises are decisions, as in
the game; ``spanish`` free is solved as ``sette solve equilibrium`` solves it,
by public state, :mod:`evaluate.solver.public`: its time is the passes until the
exact bounds meet), or ``--stakes fixed`` (smallest bet, no raises). The equilibrium
time includes its exploitability recheck. Prints the values too, so a run
doubles as a table of results.

    python benchmarks/bench_solver.py [--presets pagat catalan spanish] [--stakes fixed]
                                     [--jackpot N] [--recall forgetful]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

from envs.rules import Rules
from evaluate.solver import best_response, equilibrium, evaluate
from evaluate.solver.cli import by_public_state
from evaluate.solver.game import HeadsUpGame
from evaluate.solver.public import perfect_recall_equilibrium

TARGETS = {"ev": 1.0, "best response": 30.0, "equilibrium": 600.0}
PRESETS = {
    "pagat": Rules.preset("pagat"),
    "catalan": Rules.preset("catalan"),
    "spanish": Rules.preset("spanish"),
}


def timed(fn: Callable[[], Any]) -> tuple[Any, float]:
    """The result of ``fn()`` and its wall time in seconds."""
    start = time.perf_counter()
    result = fn()
    return result, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--presets", nargs="*", default=list(PRESETS), choices=list(PRESETS))
    parser.add_argument("--stakes", default="free", choices=("fixed", "free"),
                        help="stakes of the best responses and the equilibrium")
    parser.add_argument("--jackpot", type=int, default=0,
                        help="chips in the jackpot before the hand (catalan; default 0)")
    parser.add_argument("--recall", default="perfect", choices=("perfect", "forgetful"),
                        help="the game: perfect recall (RULES.md §8.10, default) or the "
                             "forgetful-bank model")
    args = parser.parse_args()
    recall = args.recall
    worst = dict.fromkeys(TARGETS, 0.0)
    print(f"{'':<9} {'what':<44} {'value':>10} {'seconds':>9}   (stakes {args.stakes})")
    for name in args.presets:
        rules = PRESETS[name]
        pot = args.jackpot if rules.jackpot_ante else None
        print(name + (f" (jackpot {args.jackpot} chips before the hand's ante; player's "
                      f"values include ante and pot, the bank's not)" if pot is not None
                      else ""))
        ev, t = timed(lambda: evaluate(rules, "threshold:5", "threshold:5.5", jackpot=pot,
                                            recall=recall))
        worst["ev"] = max(worst["ev"], t)
        print(f"{'':<9} {'EV threshold:5 vs threshold:5.5':<44} {ev.ev:>+10.6f} {t:>9.3f}")
        br, t = timed(lambda: best_response(rules, "player", "threshold:5.5",
                                            stakes=args.stakes, jackpot=pot, recall=recall))
        worst["best response"] = max(worst["best response"], t)
        print(f"{'':<9} {'best response of the player to threshold:5.5':<44} "
              f"{br.value:>+10.6f} {t:>9.3f}")
        br, t = timed(lambda: best_response(rules, "bank", "threshold:5", stakes=args.stakes,
                                            jackpot=pot, recall=recall))
        worst["best response"] = max(worst["best response"], t)
        print(f"{'':<9} {'best response of the bank to threshold:5':<44} "
              f"{br.value:>+10.6f} {t:>9.3f}")
        if by_public_state(rules, recall, args.stakes):  # as sette solve solves it
            sol, t = timed(lambda: perfect_recall_equilibrium(
                HeadsUpGame(rules, stakes=args.stakes), time_limit=540.0))
            worst["equilibrium"] = max(worst["equilibrium"], t if sol.certified else float("inf"))
            what = "equilibrium value" if sol.certified else "NOT certified: between"
            print(f"{'':<9} {f'{what} (bounds {sol.gap:.1e} apart)':<44} "
                  f"{sol.lower:>+10.6f} {t:>9.3f}")
            print(f"{'':<9}   public states: {len(sol.passes)} passes, the last over "
                  f"{sol.passes[-1].groups} history groups")
            continue
        eq, t = timed(lambda: equilibrium(rules, stakes=args.stakes, jackpot=pot,
                                          recall=recall, time_limit=540.0))
        worst["equilibrium"] = max(worst["equilibrium"], t if eq.certified else float("inf"))
        what = "equilibrium value" if eq.certified else "NOT certified: EV"
        print(f"{'':<9} {f'{what} (exploitability {eq.check.total:.1e})':<44} "
              f"{eq.value:>+10.6f} {t:>9.3f}")
        if eq.game.general_sum:
            print(f"{'':<9} {'  the bank, on its own payoff':<44} {eq.bank_value:>+10.6f}")
        if eq.rounds:
            low, high = eq.rounds[-1].lower, eq.rounds[-1].upper
            print(f"{'':<9}   {len(eq.rounds)} refinement rounds, "
                  f"{eq.size['remembered_histories']} histories remembered; value between "
                  f"{low - eq.game.ante:+.6f} and {high - eq.game.ante:+.6f}")
        print(f"{'':<9}   LP ({eq.method}): {eq.size['player_sequences']} player sequences, "
              f"{eq.size['bank_decisions']} bank decisions, {eq.size.get('rows', 0)} rows "
              f"after {eq.size.get('rounds', 1)} rounds; solved in {eq.seconds:.1f} s")
    print()
    for what, target in TARGETS.items():
        verdict = "ok" if worst[what] < target else "MISSED"
        print(f"{what:<14} slowest {worst[what]:8.3f} s   target < {target:g} s   {verdict}")


if __name__ == "__main__":
    main()
