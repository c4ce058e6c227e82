"""Hands per second of the evaluator: scalar, batched, and OpenSpiel's compiled blackjack.

Heads-up ``catalan``, full rules, the threshold player (5.5) against the
threshold bank (5.5), tables of 10 hands, all measured in one run:

* **scalar** — :func:`evaluate.ev.play` with ``engine="scalar"``, one table
  after another on the scalar engine;
* **batch, generic** — :func:`evaluate.batch_eval.play_tables` on the compiled
  engine: every decision through the threshold kernel over observation rows;
* **batch** — :func:`evaluate.ev.play` with ``engine="batch"``, the public
  evaluation API, which plays threshold seats inside the engine's fused loop
  when the engine has one;
* **OpenSpiel blackjack** — ``pyspiel.evaluate_bots`` (the game loop in C++)
  with a uniform random bot, one hand per call;
* **tournament, careful|reader** — a cell of ``sette variants``: the careful
  player and the table-reading bank in every seat of ``catalan_house``, 4
  seats, bank fixed per table, every field of the tournament counted
  (:func:`evaluate.tournament.run_tournament` against
  :func:`evaluate.batch_eval.batch_tournament`, which reads busts, naturals
  and the jackpot from the event rows);
* **sette evaluate** — the command (``sette evaluate threshold:5.5``), cold (a
  fresh numba cache: every kernel compiled) and warm (the cache filled by the
  cold run), wall time of the whole process.

The ratios printed are those of issue 13's targets (batch >= 2M hands/s and
>= 25x OpenSpiel's blackjack). Every number comes from this run.

    python benchmarks/bench_batch_eval.py [--hands 2000000] [--scalar-hands 20000]
        [--tournament-hands 100000] [--tournament-scalar-hands 5000]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

from agents import make_agent
from envs.batch.engine import BatchEngine
from evaluate import ev
from evaluate.arguments import positive_int
from evaluate.batch_eval import BLOCK_TABLES, play_tables

RULES, SEATS, TABLE_HANDS = "catalan", 2, 10


def _rate(hands: int, call: object) -> float:
    start = time.perf_counter()
    call()  # type: ignore[operator]
    return hands / (time.perf_counter() - start)


def scalar_rate(hands: int) -> float:
    seats = [make_agent("threshold:5.5")] * SEATS
    return _rate(hands, lambda: ev.play(RULES, SEATS, seats, hands, table_hands=TABLE_HANDS,
                                        engine="scalar"))


def batch_rate(hands: int, generic: bool) -> float:
    seats = [make_agent("threshold:5.5")] * SEATS
    ev.play(RULES, SEATS, seats, 2 * TABLE_HANDS, engine="batch")  # compile or load kernels
    if generic:
        tables = BatchEngine(RULES, SEATS, min(BLOCK_TABLES, hands // TABLE_HANDS),
                             max_hands=TABLE_HANDS)
        play_tables(tables, seats, 2 * TABLE_HANDS)
        return _rate(hands, lambda: play_tables(tables, seats, hands))
    return _rate(hands, lambda: ev.play(RULES, SEATS, seats, hands, table_hands=TABLE_HANDS,
                                        engine="batch"))


def tournament_rates(hands: int, scalar_hands: int) -> tuple[float, float]:
    """Hands/s of a ``sette variants`` cell (careful|reader, catalan_house, 4 seats, fixed
    bank) on the scalar tournament and on the batch one (kernels loaded first)."""
    from evaluate.batch_eval import batch_tournament
    from evaluate.tournament import Entrant, TournamentConfig, run_tournament

    def config(n: int) -> TournamentConfig:
        return TournamentConfig((Entrant("careful|reader", "careful|reader"),),
                                "catalan_house", 4, n, 0, TABLE_HANDS, fixed_bank=True)

    batch_tournament(config(4 * TABLE_HANDS), "batch")  # compile or load kernels
    played = 4 * config(hands).tables * TABLE_HANDS  # seat-hands: 4 per hand dealt
    batch = _rate(played, lambda: batch_tournament(config(hands), "batch"))
    scalar = _rate(4 * config(scalar_hands).tables * TABLE_HANDS,
                   lambda: run_tournament(config(scalar_hands)))
    return scalar, batch


def openspiel_rate(hands: int) -> float:
    import pyspiel

    game = pyspiel.load_game("blackjack")
    bots = [pyspiel.make_uniform_random_bot(0, 1)]

    def run() -> None:
        for seed in range(hands):
            pyspiel.evaluate_bots(game.new_initial_state(), bots, seed)

    return _rate(hands, run)


def command_seconds(hands: int, cache: str) -> float:
    """Wall seconds of ``sette evaluate threshold:5.5`` in a fresh process using ``cache``."""
    env = dict(os.environ, NUMBA_CACHE_DIR=cache)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", "from train.cli import main; main()", "evaluate",
                    "threshold:5.5", "--hands", str(hands), "--rules", RULES, "--seats",
                    str(SEATS)], env=env, check=True, capture_output=True)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=positive_int, default=2_000_000,
                        help="hands of the batch runs and of sette evaluate")
    parser.add_argument("--generic-hands", type=positive_int, default=200_000)
    parser.add_argument("--scalar-hands", type=positive_int, default=20_000)
    parser.add_argument("--openspiel-hands", type=positive_int, default=20_000)
    parser.add_argument("--tournament-hands", type=positive_int, default=100_000)
    parser.add_argument("--tournament-scalar-hands", type=positive_int, default=5_000)
    args = parser.parse_args()

    scalar = scalar_rate(args.scalar_hands)
    generic = batch_rate(args.generic_hands, generic=True)
    batch = batch_rate(args.hands, generic=False)
    spiel = openspiel_rate(args.openspiel_hands)
    print(f"heads-up {RULES}, threshold:5.5 vs threshold:5.5, tables of {TABLE_HANDS} hands")
    print(f"  scalar evaluator (ev.play, engine=scalar)   {scalar:12,.0f} hands/s")
    print(f"  batch evaluator, generic (kernel per step)  {generic:12,.0f} hands/s "
          f"({generic / scalar:.1f}x scalar)")
    print(f"  batch evaluator (ev.play, engine=batch)     {batch:12,.0f} hands/s "
          f"({batch / scalar:.1f}x scalar; target 2,000,000: {batch / 2e6:.2f}x)")
    print(f"  OpenSpiel blackjack (evaluate_bots, random) {spiel:12,.0f} hands/s")
    print(f"  batch / OpenSpiel blackjack                 {batch / spiel:12.1f}x (target 25x)")
    t_scalar, t_batch = tournament_rates(args.tournament_hands, args.tournament_scalar_hands)
    print("catalan_house, 4 seats, careful|reader in every seat, bank fixed (a sette variants "
          "cell), every tournament field counted; seat-hands/s")
    print(f"  scalar tournament (run_tournament)          {t_scalar:12,.0f} seat-hands/s")
    print(f"  batch tournament (batch_tournament)         {t_batch:12,.0f} seat-hands/s "
          f"({t_batch / t_scalar:.1f}x scalar)")
    with tempfile.TemporaryDirectory() as cache:
        cold = command_seconds(args.hands, cache)
        warm = command_seconds(args.hands, cache)
    print(f"  sette evaluate threshold:5.5 --hands {args.hands}: cold {cold:.1f} s "
          f"(kernels compiled), warm {warm:.1f} s (cached): "
          f"{args.hands / warm:,.0f} hands/s warm, start included")


if __name__ == "__main__":
    main()
