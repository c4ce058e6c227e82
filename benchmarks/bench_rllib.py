"""RLlib backend: wall time and env steps/s with 1 and 2 env runners, then the policies' EV.

    .venv-rllib/bin/python benchmarks/bench_rllib.py [--iterations 4] [--runners 1 2]
        [--tables 32] [--hands 20000] [--rules catalan] [--seats 4] [--out DIR]

For each number of env runners, trains a fresh run (:mod:`train.rllib_train`)
on a local Ray and prints its wall time, the env steps it sampled (one env
step acts at every table still in its hand) and the seats' decisions (agent
steps), each per second of its wall time (Ray's start excluded, the algorithm's
setup included). The last run's
exported player and bank are then played against the baselines with
:func:`evaluate.ev.compare` — the player against the ``threshold:5`` bank
(other seats ``careful``), the bank against ``careful`` players — beside the
thresholds, EV per hand in units of ``min_bet`` with 95% intervals, on the
same deals. Figures only; nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from evaluate.arguments import positive_int  # noqa: E402


def train_once(args: argparse.Namespace, runners: int, out: Path) -> dict[str, Any]:
    """One run with ``runners`` env runners: its timings and where it was written."""
    import ray

    from train.rllib_train import RLlibRun, RLlibSettings

    settings = RLlibSettings(rules=args.rules, num_seats=args.seats, seed=args.seed,
                             iterations=args.iterations, env_runners=runners,
                             tables=args.tables, engine=args.engine,
                             checkpoint_every=args.iterations)
    run = RLlibRun.create(settings, out / f"runners{runners}")
    ray.init(num_cpus=max(runners, 1) + 1, include_dashboard=False, log_to_driver=False)
    agent_steps = [0]

    def count(result: dict[str, Any]) -> None:
        per_policy = result.get("env_runners", {}).get("num_module_steps_sampled", {})
        agent_steps[0] += int(sum(per_policy.values()))

    started = time.perf_counter()
    try:
        run.train(on_result=count)
    finally:
        ray.shutdown()
    wall = time.perf_counter() - started
    steps = run.record["env_steps"]
    return {"runners": runners, "wall_s": round(wall, 1), "env_steps": steps,
            "env_steps_per_s": round(steps / wall, 1), "agent_steps": agent_steps[0],
            "agent_steps_per_s": round(agent_steps[0] / wall, 1), "run": str(run.dir)}


def evaluate(run: Path, args: argparse.Namespace) -> dict[str, Any]:
    """The run's player and bank against the baselines (module docstring)."""
    from agents import make_agent
    from envs.rules import Rules
    from evaluate.ev import compare

    rules = Rules.resolve(args.rules)
    careful = make_agent("careful", rules=rules)
    out: dict[str, Any] = {}
    for role, opponents in (("player", {"bank": make_agent("threshold:5", rules=rules),
                                        "players": careful}),
                            ("bank", {"players": careful})):
        candidates = {f"rllib {role}": make_agent(f"rllib:{run}/{role}", rules=rules)}
        for t in ("4.5", "5", "5.5", "6"):
            candidates[f"threshold:{t}"] = make_agent(f"threshold:{t}", rules=rules)
        candidates["careful"] = careful
        comparison = compare(candidates, role, opponents, rules, args.seats, args.hands,
                             seed=args.seed)
        out[role] = {name: (e.mean, e.half_width) for name, e in comparison.ev.items()}
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--iterations", type=positive_int, default=4)
    p.add_argument("--runners", type=positive_int, nargs="+", default=[1, 2])
    p.add_argument("--tables", type=positive_int, default=32)
    p.add_argument("--hands", type=positive_int, default=20000)
    p.add_argument("--rules", default="catalan")
    p.add_argument("--seats", type=int, default=4)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--engine", default="auto", choices=("auto", "compiled", "reference"))
    p.add_argument("--out", type=Path, help="where the runs go (default: a temporary folder)")
    args = p.parse_args()
    out = args.out or Path(tempfile.mkdtemp(prefix="bench-rllib-"))
    rows = [train_once(args, runners, out) for runners in args.runners]
    print(f"{args.rules}, {args.seats} seats, {args.tables} tables per env, "
          f"{args.iterations} iterations of {rows[0]['env_steps'] // args.iterations} env "
          f"steps")
    print("| env runners | wall s | env steps | env steps/s | decisions | decisions/s |")
    print("|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['runners']} | {r['wall_s']} | {r['env_steps']} | {r['env_steps_per_s']} "
              f"| {r['agent_steps']} | {r['agent_steps_per_s']} |")
    ev = evaluate(Path(rows[-1]["run"]), args)
    for role, table in ev.items():
        print(f"\n{role}s ({args.hands} hands each, same deals), EV per hand, 95% CI:")
        for name, (mean, half) in table.items():
            print(f"  {name:14s} {mean:+.4f} ± {half:.4f}")
    (out / "bench_rllib.json").write_text(json.dumps({"runs": rows, "ev": ev}, indent=2))
    print(f"\nruns and figures in {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
