"""The exact part of ``python -m train.results``: a heads-up run's learned policies against
the exact best response, and the exploitability of each self-play round's pair.

Every number is the solver's (:mod:`evaluate.solver`): one hand between one player and
the bank from a full shoe, no sampling, in the game with perfect recall (RULES.md §8.10:
a best-responding seat remembers the order and timing of the other seat's play). For
each learned policy in its role, against the opponent it trained against
(:data:`OPPONENTS`), the row holds its exact EV, the EV of the exact best response in
its seat against the same opponent and the gap between them
(:func:`evaluate.solver.exact.best_response_rows`), held to the targets of
:data:`TARGETS`. The ``reader`` bank is valued beside the learned banks: a learned bank
should beat it against ``careful``.

**Self-play.** Round ``k`` pairs the player and the bank of that round (round 0: those
of the first two stages, where self-play starts). Its NashConv is what the exact best
response to each gains over the other (the player's best response to the round's
bank, the bank's best response to the round's player, each on its own payoff): 0 only
at an equilibrium. It should fall from round to round.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from agents import make_agent
from envs.rules import Rules
from evaluate.solver.exact import ExactUnavailable, best_response_rows
from evaluate.solver.policies import as_policy

OPPONENTS: dict[str, str] = {"player": "reader", "bank": "careful"}
"""The opponent each role's learned policy trained against (``[player]`` and ``[bank]``
``opponents`` of the default config), which its exact gap is measured against."""

TARGETS: dict[str, float] = {"player": 0.002, "bank": 0.01}
"""The most a perfect opponent of the training opponent may gain over the learned
policy per hand, by role (issue 13, "Learned play")."""

BASELINES: dict[str, tuple[str, ...]] = {"player": (), "bank": ("reader",)}
"""Hand-written policies valued beside the learned ones (a learned bank should beat the
table reader against ``careful``)."""

Log = Callable[[str], None]


def _timed(log: Log, what: str, fn: Callable[[], Any]) -> tuple[Any, float]:
    """``fn()`` and its CPU seconds, logging both."""
    started, wall = time.process_time(), time.perf_counter()
    out = fn()
    cpu = time.process_time() - started
    log(f"  exact: {what}: {cpu:.0f} s CPU ({time.perf_counter() - wall:.0f} s wall)")
    return out, cpu


def _row(found: Any, label: str, role: str, against: str, target: float | None,
         seconds: float) -> dict[str, Any]:
    """One JSON row of the table (or the solver's reason it has no number)."""
    if isinstance(found, ExactUnavailable):
        return {"policy": label, "role": role, "against": against, "skipped": str(found)}
    return {"policy": label, "role": role, "against": against, "ev": found.own_ev,
            "best": found.own_best, "gap": found.gap, "target": target,
            "met": None if target is None else found.gap <= target, "cpu_s": seconds}


def _said(row: dict[str, Any]) -> str:
    """A row in words, for the log."""
    head = f"{row['policy']} ({row['role']}) against {row['against']}"
    if "skipped" in row:
        return f"{head}: skipped: {row['skipped']}"
    return f"{head}: EV {row['ev']:+.6f}, best response {row['best']:+.6f}, gap {row['gap']:.6f}"


def _models(run_dir: Path, record: dict[str, Any], role: str) -> dict[str, Path]:
    """The run's learned models of ``role``: ``{name: model.zip}`` (``learned …`` names)."""
    return {f"learned {name}": run_dir / path for name, path in record.get("models", {}).items()
            if name.endswith(role)}


def round_pairs(run_dir: Path, record: dict[str, Any], rounds: int
                ) -> list[tuple[int, tuple[Path, Path] | str]]:
    """``(k, (player.zip, bank.zip))`` for round 0 (the first two stages) and each
    self-play round ``k`` whose two models the run kept; ``(k, why)`` for one it did not."""
    models = record.get("models", {})
    out: list[tuple[int, tuple[Path, Path] | str]] = []
    for k in range(rounds + 1):
        if k == 0:
            paths = [run_dir / models[r] if r in models else run_dir / f"{r}-missing"
                     for r in ("player", "bank")]
        else:
            paths = [run_dir / "selfplay" / f"round{k}-{r}" / "model.zip"
                     for r in ("player", "bank")]
        missing = [str(p.relative_to(run_dir)) for p in paths if not p.is_file()]
        if missing:
            out.append((k, f"the run has no {' and no '.join(missing)}"))
        else:
            out.append((k, (paths[0], paths[1])))
    return out


def exact_gaps(run_dir: Path, rules: str, record: dict[str, Any], selfplay_rounds: int,
               log: Log = print) -> dict[str, Any]:
    """The exact section of the results of a heads-up run (module doc), as JSON."""
    resolved = Rules.resolve(rules)
    policies: dict[str, Any] = {}

    def policy(spec: str) -> Any:
        # one solver policy per spec: its answers are cached across the rows it is in
        if spec not in policies:
            policies[spec] = as_policy(make_agent(spec, rules=resolved), resolved)
        return policies[spec]

    rows: list[dict[str, Any]] = []
    for role, against in OPPONENTS.items():
        candidates = [(name, f"model:{path}") for name, path in _models(run_dir, record,
                                                                        role).items()]
        candidates += [(name, name) for name in BASELINES[role]]
        if not candidates:
            continue
        try:
            found, cpu = _timed(log, f"{role}s against {against}", lambda: best_response_rows(
                rules, role, [(name, policy(spec)) for name, spec in candidates], against,
                policy(against)))
        except ExactUnavailable as exc:
            found, cpu = [exc] * len(candidates), 0.0
        for (name, _spec), row in zip(candidates, found):
            target = TARGETS[role] if name.startswith("learned") else None
            rows.append(_row(row, name, role, against, target, cpu))
            log(f"  exact: {_said(rows[-1])}")
    selfplay: list[dict[str, Any]] = []
    for k, pair in round_pairs(run_dir, record, selfplay_rounds):
        if isinstance(pair, str):
            selfplay.append({"round": k, "skipped": pair})
            continue
        player, bank = (f"model:{path}" for path in pair)
        names = {"player": f"round {k} player", "bank": f"round {k} bank"}
        gains: dict[str, Any] = {}
        for role, mine, other in (("player", player, bank), ("bank", bank, player)):
            rival = names["bank" if role == "player" else "player"]
            try:
                [found], cpu = _timed(log, f"{names[role]} against the {rival}",
                                      lambda: best_response_rows(
                                          rules, role, [(names[role], policy(mine))], rival,
                                          policy(other)))
            except ExactUnavailable as exc:
                found, cpu = exc, 0.0
            gains[role] = _row(found, names[role], role, rival, None, cpu)
            log(f"  exact: {_said(gains[role])}")
        entry: dict[str, Any] = {"round": k, "player": gains["player"], "bank": gains["bank"]}
        if all("gap" in g for g in gains.values()):
            entry["nashconv"] = gains["player"]["gap"] + gains["bank"]["gap"]
        selfplay.append(entry)
    return {"rows": rows, "selfplay": selfplay, "bank_margin": _baseline_margin(rows)}


def _baseline_margin(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Each learned bank's exact EV less the first bank baseline's (``reader``), both
    against the bank's training opponent."""
    baseline = next((r for r in rows if r["role"] == "bank" and "ev" in r
                     and r["policy"] in BASELINES["bank"][:1]), None)
    if baseline is None:
        return {}
    return {"baseline": baseline["policy"], "margins": {
        r["policy"]: r["ev"] - baseline["ev"] for r in rows
        if r["role"] == "bank" and r["policy"].startswith("learned") and "ev" in r}}


def markdown(exact: dict[str, Any]) -> list[str]:
    """The exact section's tables (the per-role gaps, the self-play rounds)."""
    lines = ["Exact, heads-up: one hand from a full shoe, perfect recall (RULES.md §8.10), "
             "units of `min_bet`, each EV from the policy's own side; the best response "
             "plays the policy's seat against the same opponent.", "",
             "| policy | role | against | its exact EV | exact best response EV | gap | "
             "target | |", "|---|---|---|---:|---:|---:|---:|---|"]
    for r in exact["rows"]:
        lines.append(_line(r))
    margin = exact.get("bank_margin", {})
    if margin.get("margins"):
        lines += ["", f"Learned banks, exact EV above the `{margin['baseline']}` bank's "
                  f"against the same player: "
                  + "; ".join(f"`{k}` {v:+.6f} ({'met' if v > 0 else '**missed**'})"
                              for k, v in margin["margins"].items()) + "."]
    if exact["selfplay"]:
        lines += ["", "Self-play, round by round (round 0: the first two stages' player and "
                  "bank): what each role's exact best response gains over the round's model "
                  "against the round's other model, and their sum, the NashConv (target: "
                  "falling).", "",
                  "| round | player's EV | player gap | bank gap | NashConv | |",
                  "|---:|---:|---:|---:|---:|---|"]
        last: float | None = None
        for entry in exact["selfplay"]:
            if "nashconv" not in entry:
                why = entry.get("skipped") or next(
                    g["skipped"] for g in (entry["player"], entry["bank"]) if "skipped" in g)
                lines.append(f"| {entry['round']} | | | | | skipped: {why} |")
                continue
            x = entry["nashconv"]
            trend = "" if last is None else ("falling" if x < last else "**not falling**")
            last = x
            lines.append(f"| {entry['round']} | {entry['player']['ev']:+.6f} | "
                         f"{entry['player']['gap']:.6f} | {entry['bank']['gap']:.6f} | "
                         f"{x:.6f} | {trend} |")
    return lines


def _line(r: dict[str, Any]) -> str:
    head = f"| `{r['policy']}` | {r['role']} | `{r['against']}` |"
    if "skipped" in r:
        return f"{head} | | | | skipped: {r['skipped']} |"
    target = "" if r["target"] is None else f"{r['target']:g}"
    verdict = "" if r["met"] is None else ("met" if r["met"] else "**missed**")
    return (f"{head} {r['ev']:+.6f} | {r['best']:+.6f} | {r['gap']:.6f} | {target} | "
            f"{verdict} |")
