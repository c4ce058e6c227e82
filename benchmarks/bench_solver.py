"""Speed of the exact heads-up solver against its three targets.

* EV of two threshold policies: < 1 s;
* a best response (player or bank, to a threshold policy): < 30 s;
* the equilibrium (sequence-form LP, HiGHS): < 10 min.

Each figure is the wall time of one call from a cold start (no cache shared
between calls), on the presets the solver supports (``catalan`` without the
jackpot), with free stakes by default (bets and raises are decisions, as in
the game; ``spanish`` free is the slowest equilibrium, about a minute on two
cores), or ``--stakes fixed`` (smallest bet, no raises). The equilibrium
time includes its exploitability recheck. Prints the values too, so a run
doubles as a table of results.

    python benchmarks/bench_solver.py [--presets pagat catalan spanish] [--stakes fixed]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

from envs.rules import Rules
from evaluate.solver import best_response, equilibrium, evaluate

TARGETS = {"ev": 1.0, "best response": 30.0, "equilibrium": 600.0}
PRESETS = {
    "pagat": Rules.preset("pagat"),
    "catalan": Rules.preset("catalan").replace(jackpot_ante=0),
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
    args = parser.parse_args()
    worst = dict.fromkeys(TARGETS, 0.0)
    print(f"{'':<9} {'what':<44} {'value':>10} {'seconds':>9}   (stakes {args.stakes})")
    for name in args.presets:
        rules = PRESETS[name]
        print(name + (" (jackpot_ante=0)" if name == "catalan" else ""))
        ev, t = timed(lambda: evaluate(rules, "threshold:5", "threshold:5.5"))
        worst["ev"] = max(worst["ev"], t)
        print(f"{'':<9} {'EV threshold:5 vs threshold:5.5':<44} {ev.ev:>+10.6f} {t:>9.3f}")
        br, t = timed(lambda: best_response(rules, "player", "threshold:5.5",
                                            stakes=args.stakes))
        worst["best response"] = max(worst["best response"], t)
        print(f"{'':<9} {'best response of the player to threshold:5.5':<44} "
              f"{br.value:>+10.6f} {t:>9.3f}")
        br, t = timed(lambda: best_response(rules, "bank", "threshold:5", stakes=args.stakes))
        worst["best response"] = max(worst["best response"], t)
        print(f"{'':<9} {'best response of the bank to threshold:5':<44} "
              f"{br.value:>+10.6f} {t:>9.3f}")
        eq, t = timed(lambda: equilibrium(rules, stakes=args.stakes))
        worst["equilibrium"] = max(worst["equilibrium"], t)
        print(f"{'':<9} {f'equilibrium value (exploitability {eq.check.total:.1e})':<44} "
              f"{eq.value:>+10.6f} {t:>9.3f}")
        print(f"{'':<9}   LP ({eq.method}): {eq.size['player_sequences']} player sequences, "
              f"{eq.size['bank_decisions']} bank decisions, {eq.size.get('rows', 0)} rows "
              f"after {eq.size.get('rounds', 1)} rounds; solved in {eq.seconds:.1f} s")
    print()
    for what, target in TARGETS.items():
        verdict = "ok" if worst[what] < target else "MISSED"
        print(f"{what:<14} slowest {worst[what]:8.3f} s   target < {target:g} s   {verdict}")


if __name__ == "__main__":
    main()
