"""Readable strategy tables and JSON for the exact solver's results.

A strategy is a probability per action at thousands of information states;
the tables fold it onto what a player at the table reasons with:

* the player: at each own total, how often it stands, hits, turns its card
  up and hits (``player_choice``) or raises — averaged over the hands that
  make that total, each weighted by how often the hand is reached;
* the bet: which stake it picks, by first card (``on_turn``) or before the
  deal;
* the bank: at each bank total (rows) and each total the player shows face
  up (columns), how often it hits; ``7½!`` is a declared 7½ (shown hand).

A cell reads ``H`` (hits at least 99.5% of the time), ``S`` (stands at least
99.5%), a hit percentage in between, or ``.`` where the state is never
reached. The JSON form lists every reached state with its probability.
"""

from __future__ import annotations

from typing import Any

from envs import actions as A
from envs.cards import SEVEN_AND_HALF, format_half_points
from envs.hands import DECLARED
from evaluate.solver.game import BET, HeadsUpGame
from evaluate.solver.policies import SolverPolicy


def _action_group(game: HeadsUpGame, a: int) -> str:
    if a == A.STAND:
        return "stand"
    if a == A.HIT:
        return "hit"
    if a == A.REVEAL_HIT:
        return "reveal+hit"
    name = game.layout.names[a]
    return "raise" if name.startswith("raise_") else name


def _cell(p_hit: float) -> str:
    if p_hit >= 0.995:
        return "H"
    if p_hit <= 0.005:
        return "S"
    return f"{100 * p_hit:.0f}%"


def player_table(game: HeadsUpGame, policy: SolverPolicy, reach: dict[tuple, float]) -> str:
    """The player's play by own total (and its bet), weighted by reach."""
    by_total: dict[int, dict[str, float]] = {}
    weight: dict[int, float] = {}
    bets: dict[str, dict[str, float]] = {}
    groups: list[str] = []
    for node, r in reach.items():
        if r <= 0.0:
            continue
        legal = [a for a, _o in game.player_actions(node)]
        dist = policy.player(game, node, legal)
        if node[0] == BET:
            key = "before the deal" if node[1] < 0 else f"first card {game.class_names[node[1]]}"
            row = bets.setdefault(key, {})
            for a, p in dist:
                name = game.layout.names[a]
                row[name] = row.get(name, 0.0) + r * p
            continue
        total = game.ms.total[game.player_hand(node)]
        weight[total] = weight.get(total, 0.0) + r
        row = by_total.setdefault(total, {})
        for a, p in dist:
            g = _action_group(game, a)
            if g not in groups:
                groups.append(g)
            row[g] = row.get(g, 0.0) + r * p
    order = [g for g in ("stand", "hit", "reveal+hit", "raise") if g in groups]
    lines = ["player: share of each action at each own total (reach = chance of deciding there;"
             " a raise is a decision of its own)",
             f"  {'total':>6} {'reach':>7} " + " ".join(f"{g:>10}" for g in order)]
    for total in sorted(by_total):
        w = weight[total]
        cells = " ".join(f"{100 * by_total[total].get(g, 0.0) / w:>9.1f}%" for g in order)
        lines.append(f"  {format_half_points(total):>6} {100 * w:>6.2f}% {cells}")
    if bets:
        names = sorted({n for row in bets.values() for n in row},
                       key=lambda n: game.layout.names.index(n))
        lines.append("player's stake (share of each bet)")
        lines.append(f"  {'':<16} " + " ".join(f"{n:>8}" for n in names))
        for key in sorted(bets, key=lambda k: (len(k), k)):
            row = bets[key]
            w = sum(row.values())
            lines.append(f"  {key:<16} " + " ".join(
                f"{100 * row.get(n, 0.0) / w:>7.1f}%" for n in names))
    return "\n".join(lines)


def bank_table(game: HeadsUpGame, policy: SolverPolicy, reach: dict[tuple, float]) -> str:
    """The bank's hit frequency by its total (rows) and the player's face-up total (columns)."""
    hit: dict[tuple[int, Any], float] = {}
    weight: dict[tuple[int, Any], float] = {}
    columns: set[Any] = set()
    for (view, b), r in reach.items():
        if r <= 0.0:
            continue
        stand_ok, hit_ok = game.bank_legal(view, b)
        legal = ([A.STAND] if stand_ok else []) + ([A.HIT] if hit_ok else [])
        dist = policy.bank(game, view, b, legal)
        col: Any = "7½!" if view.status == DECLARED else game.ms.total[view.up]
        columns.add(col)
        key = (game.ms.total[b], col)
        weight[key] = weight.get(key, 0.0) + r
        hit[key] = hit.get(key, 0.0) + r * sum(p for a, p in dist if a == A.HIT)
    cols = sorted(c for c in columns if c != "7½!") + (["7½!"] if "7½!" in columns else [])
    head = " ".join(f"{format_half_points(c) if c != '7½!' else c:>4}" for c in cols)
    lines = ["bank: hit (H) / stand (S) / hit % by bank total (rows) and the player's "
             "face-up total (columns)",
             f"  {'bank':>5} | {head}"]
    for total in range(1, SEVEN_AND_HALF):
        cells = []
        for c in cols:
            w = weight.get((total, c), 0.0)
            cells.append(f"{_cell(hit[(total, c)] / w) if w > 0 else '.':>4}")
        if any(cell.strip() != "." for cell in cells):
            lines.append(f"  {format_half_points(total):>5} | " + " ".join(cells))
    return "\n".join(lines)


def strategy_json(game: HeadsUpGame, policy: SolverPolicy, role: str,
                  reach: dict[tuple, float]) -> list[dict[str, Any]]:
    """Every reached state of ``role`` with its probability and the action probabilities."""
    names = game.layout.names
    out: list[dict[str, Any]] = []
    if role == "player":
        for node in sorted(reach, key=game.node_order):
            r = reach[node]
            if r <= 0.0:
                continue
            phase, h, up, s, raised, hist = node
            legal = [a for a, _o in game.player_actions(node)]
            dist = policy.player(game, node, legal)
            out.append({
                "phase": "bet" if phase == BET else "play",
                "hidden": game.class_names[h] if h >= 0 else None,
                "up": game.describe(up).split() if up != game.ms.empty else [],
                "total": format_half_points(game.ms.total[game.player_hand(node)]),
                "stake": s, "raised": raised, "reach": r,
                **({} if hist is None else {"history": game.describe_history(hist)}),
                "actions": {names[a]: p for a, p in dist}})
        return out
    for (view, b) in sorted(reach, key=lambda k: (k[0].stake, k[0].status, k[0].up, k[1])):
        r = reach[(view, b)]
        if r <= 0.0:
            continue
        stand_ok, hit_ok = game.bank_legal(view, b)
        legal = ([A.STAND] if stand_ok else []) + ([A.HIT] if hit_ok else [])
        dist = policy.bank(game, view, b, legal)
        out.append({
            "player_up": game.describe(view.up).split() if view.up != game.ms.empty else [],
            "player_hidden": view.hidden,
            "player_status": "declared" if view.status == DECLARED else "stood",
            "stake": view.stake, "bank": game.describe(b).split(),
            **({} if view.hist is None else {"history": game.describe_history(view.hist)}),
            "bank_total": format_half_points(game.ms.total[b]), "reach": r,
            "actions": {names[a]: p for a, p in dist}})
    return out
