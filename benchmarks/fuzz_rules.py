"""The rules fuzz of ``tests/test_fuzz_rules.py``, at a size of your choosing.

Random valid rule combinations (every switch drawn from the values the rules
validation allows), one random-play episode each at 2 to ``max_seats``
seats, every invariant checked after every step (no dead end, chips +
jackpot + open stakes conserved, no exception). Prints how many
combinations, hands and steps it checked and how long it took.

    python benchmarks/fuzz_rules.py [--combos 20000] [--seed 1]

The CI test runs ``CI_COMBOS`` combinations with ``CI_SEED``; use other
seeds here to search further. A failure names the combination, seats, seed
and stacks, so it can be replayed.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1] / "tests"
if str(TESTS) not in sys.path:
    sys.path.insert(0, str(TESTS))

from evaluate.arguments import positive_int  # noqa: E402
from test_fuzz_rules import fuzz  # noqa: E402


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--combos", type=positive_int, default=20000,
                        help="valid rule combinations to play (default 20000)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the draw (default 1)")
    args = parser.parse_args(argv)
    if args.combos < 1:
        parser.error(f"--combos={args.combos} must be a positive integer")
    began = time.perf_counter()
    stats = fuzz(args.combos, args.seed)
    elapsed = time.perf_counter() - began
    print(f"checked {stats['combos']} valid rule combinations ({stats['rejected']} rejected "
          f"by the validation and skipped), {stats['hands']} hands, {stats['steps']} steps, "
          f"up to {stats['max_seats']} seats and {stats['max_decks']} decks, "
          f"seed {args.seed}: {elapsed:.1f} s ({stats['steps'] / elapsed:.0f} steps/s)")


if __name__ == "__main__":
    main()
