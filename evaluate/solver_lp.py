"""Equilibrium of the heads-up hand: the sequence-form linear program, solved by HiGHS.

The game (:mod:`evaluate.solver_game`) is a two-player zero-sum game with
chance and imperfect information: the bank never sees the player's
face-down card. Its states are multisets, so each player's decisions form a
directed acyclic graph rather than a tree.

Sequence form on a DAG
----------------------
For the player (maximiser) let ``z[x, a] ≥ 0`` be the *realization flow* of
action ``a`` at node ``x``: the sum over all paths to ``x`` of the product
of the player's own action probabilities, times ``π(a|x)``. Flows obey
conservation

    Σ_a z[x, a] = Σ_{(y, b) → x} z[y, b]      (= 1 at a first node),

and every flow comes from a behaviour strategy ``π(a|x) = z[x,a] / Σ_a
z[x,a]``. By exchangeability every path to ``x`` has the same chance weight
``q(x)``, so the probability of reaching ``x`` is ``q(x) · Σ_a z[x,a]`` and
the expected payoff is bilinear in the two players' flows: ``zᵀ M w``. The
bank's flows ``w[(view, B), a]`` obey the same conservation (its first
decision ``(view, {b})`` hangs off the empty sequence, which has flow 1).
Because the order of cards is payoff-irrelevant and invisible to both
seats' observations, this DAG game has the value of the perfect-recall tree.

The LP (von Stengel 1996): with the bank's conservation written ``F w = f``,

    max_z min_{w ≥ 0, F w = f} zᵀ M w  =  max_{z, v} f·v
        s.t.  Fᵀ v - Mᵀ z ≤ 0,   E z = e,   z ≥ 0,   v free,

one inequality per bank sequence and one free ``v`` per bank decision. Its
optimum is the value; the optimal ``z`` is the player's equilibrium strategy
and the duals of the inequalities are the bank's equilibrium flows ``w``.

Dominance
---------
A bank decision is fixed when one action is weakly dominant for every hand
that can show the view: *stand* when standing already beats every such hand
(the bank cannot win more than the stake), *hit* when standing loses to
every such hand (a bust or any higher total never costs more than that
loss). Removing weakly dominated actions keeps the value of a zero-sum game.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy.optimize import linprog
from scipy.sparse import coo_matrix

from envs import actions as A
from evaluate.solver_game import (BANK_BUST, BUST, SEVEN_AND_HALF, HeadsUpGame, SolverError,
                                  View)
from evaluate.solver_policies import Dist, TabularPolicy

_ZERO = 1e-12
_HIGHS_OPTIONS = {"primal_feasibility_tolerance": 1e-10, "dual_feasibility_tolerance": 1e-10}


@dataclass
class LPSolution:
    """The equilibrium of one game, as the LP returns it."""

    value: float
    """Equilibrium EV of the hand for the player (units of ``min_bet``)."""
    player: TabularPolicy
    bank: TabularPolicy
    game: HeadsUpGame
    size: dict[str, int]
    """Numbers of player sequences, bank decisions, bank sequences, matrix non-zeros."""
    seconds: float
    """Wall time to build and solve the LP."""


def solve_equilibrium(game: HeadsUpGame) -> LPSolution:
    """Build and solve the sequence-form LP of ``game`` (see the module docstring)."""
    start = time.perf_counter()
    player = _player_side(game)
    infosets, info_of = _bank_infosets(game, player.ends)
    n_z = len(player.seqs)
    n_cols = n_z + len(infosets) + 1
    a_ub, bank_seqs, row_scale = _inequalities(game, player, infosets, info_of, n_cols)
    a_eq, b_eq = _equalities(game, player, n_cols)
    cost = np.zeros(n_cols)
    cost[-1] = -1.0  # maximise v at the bank's empty sequence
    bounds = [(0.0, None)] * n_z + [(None, None)] * (n_cols - n_z)
    res = linprog(cost, A_ub=a_ub, b_ub=np.zeros(a_ub.shape[0]), A_eq=a_eq, b_eq=b_eq,
                  bounds=bounds, method="highs", options=_HIGHS_OPTIONS)
    if res.status != 0:
        raise SolverError(f"the equilibrium LP failed: {res.message}")
    z = res.x[:n_z]
    w = -np.asarray(res.ineqlin.marginals) / row_scale
    sizes = {"player_sequences": n_z, "bank_decisions": len(infosets),
             "bank_sequences": len(bank_seqs) - 1, "nonzeros": int(a_ub.nnz + a_eq.nnz)}
    return LPSolution(float(-res.fun), _player_strategy(game, player, z),
                      _bank_strategy(game, infosets, bank_seqs, w), game, sizes,
                      time.perf_counter() - start)


@dataclass
class _PlayerSide:
    """The player's sequences, flows and finished hands."""

    nodes: list[tuple]
    seqs: list[tuple[tuple, int]]
    seq_of: dict[tuple, int]
    incoming: dict[tuple, list[int]]
    """Sequences whose chance branches lead to each node."""
    roots: set[tuple]
    ends: dict[View, dict[int, list[tuple[int, float]]]]
    """``view -> hand -> [(sequence, chance weight q)]`` of every finished hand."""
    bust: dict[int, float]
    """Payoff collected by each sequence when the player busts (times chance)."""


def _player_side(game: HeadsUpGame) -> _PlayerSide:
    nodes = game.all_player_nodes()
    seq_of: dict[tuple, int] = {}
    seqs: list[tuple[tuple, int]] = []
    for node in nodes:
        for a, _outs in game.player_actions(node):
            seq_of[(node, a)] = len(seqs)
            seqs.append((node, a))
    q: dict[tuple, float] = {}
    for p, node in game.root_nodes():
        q[node] = p
    incoming: dict[tuple, list[int]] = {node: [] for node in nodes}
    ends: dict[View, dict[int, list[tuple[int, float]]]] = {}
    bust: dict[int, float] = {}
    for node in nodes:  # parents first: q(node) is known, the same along every path
        qx = q[node]
        for a, outs in game.player_actions(node):
            j = seq_of[(node, a)]
            for o in outs:
                w = qx * o.prob
                if o.kind == "node":
                    q.setdefault(o.node, w)
                    incoming[o.node].append(j)
                elif o.kind == "end":
                    ends.setdefault(o.view, {}).setdefault(o.hand, []).append((j, w))
                else:
                    bust[j] = bust.get(j, 0.0) - w * node[3]
    roots = {node for _p, node in game.root_nodes()}
    return _PlayerSide(nodes, seqs, seq_of, incoming, roots, ends, bust)


def _bank_infosets(game: HeadsUpGame, ends: dict[View, dict[int, list[tuple[int, float]]]]
                   ) -> tuple[list[tuple[View, int, list[int]]], dict[tuple[View, int], int]]:
    """Every bank decision ``(view, B)`` some hand can reach, with its undominated actions."""
    ms = game.ms
    infosets: list[tuple[View, int, list[int]]] = []
    info_of: dict[tuple[View, int], int] = {}
    for view in sorted(ends, key=lambda v: (v.stake, v.status, v.hidden, v.up)):
        hands = sorted(ends[view])
        rows = {h: game.payoff_row(h, view.stake) for h in hands}
        frontier = sorted({ms.add[ms.empty][c] for h in hands
                           for c, cnt in enumerate(game.remaining(h)[0]) if cnt})
        pending = set(frontier)
        while frontier:
            b = frontier.pop(frontier.index(min(frontier)))
            legal = _bank_actions(game, view, b, hands, rows)
            info_of[(view, b)] = len(infosets)
            infosets.append((view, b, legal))
            if A.HIT not in legal:
                continue
            for c in range(game.num_classes):
                child = ms.add[b][c]
                if child is None or child == BUST or ms.total[child] == SEVEN_AND_HALF:
                    continue
                if child in pending or not any(game.draw_weight(child, h) for h in hands):
                    continue
                pending.add(child)
                frontier.append(child)
    return infosets, info_of


def _inequalities(game: HeadsUpGame, player: _PlayerSide,
                  infosets: list[tuple[View, int, list[int]]],
                  info_of: dict[tuple[View, int], int], n_cols: int
                  ) -> tuple[Any, list[tuple[int, int]], np.ndarray]:
    """``Fᵀ v - Mᵀ z ≤ 0``, one row per bank sequence; rows scaled (see below).

    Columns: the player's sequences, then ``v`` of each bank decision, then
    ``v`` of the empty sequence. ``v[I] = scale[I] · v'[I]`` with ``scale[I]``
    the chance weight of reaching ``I`` and each row of ``I`` divided by it,
    so that every coefficient is of order 1 for HiGHS. Returns the matrix,
    the sequence of each row (``(-1, -1)`` = empty) and the row scales.
    """
    n_z = len(player.seqs)
    size = game.ms.size
    chance = {view: {h: sum(w for _j, w in leaves) for h, leaves in hands.items()}
              for view, hands in player.ends.items()}
    scale = [sum(qh * game.draw_weight(b, h) for h, qh in chance[view].items())
             for view, b, _legal in infosets]
    r_idx: list[int] = []
    c_idx: list[int] = []
    vals: list[float] = []

    def put(row: int, col: int, val: float) -> None:
        r_idx.append(row)
        c_idx.append(col)
        vals.append(val)

    bank_seqs: list[tuple[int, int]] = [(-1, -1)]
    row_scale = [1.0]
    put(0, n_cols - 1, 1.0)
    for j, coef in player.bust.items():
        put(0, j, -coef)
    for i, (_view, b, _legal) in enumerate(infosets):
        if size[b] == 1:
            put(0, n_z + i, -scale[i])
    rows = {(view, h): game.payoff_row(h, view.stake) for view, hands in player.ends.items()
            for h in hands}
    for i, (view, b, legal) in enumerate(infosets):
        s_i = scale[i]
        for a in legal:
            row = len(bank_seqs)
            bank_seqs.append((i, a))
            row_scale.append(s_i)
            put(row, n_z + i, 1.0)
            if a == A.HIT:
                for c in range(game.num_classes):
                    child = game.ms.add[b][c]
                    k = info_of.get((view, child)) if child is not None else None
                    if k is not None:
                        put(row, n_z + k, -scale[k] / s_i)
            for h, leaves in player.ends[view].items():
                coef = _bank_coefficient(game, b, a, h, rows[(view, h)]) / s_i
                if coef:
                    for j, w in leaves:
                        put(row, j, -w * coef)
    a_ub = coo_matrix((vals, (r_idx, c_idx)), shape=(len(bank_seqs), n_cols)).tocsr()
    return a_ub, bank_seqs, np.array(row_scale)


def _equalities(game: HeadsUpGame, player: _PlayerSide, n_cols: int) -> tuple[Any, np.ndarray]:
    """``E z = e``: the player's flow conservation, one row per player node."""
    e_r: list[int] = []
    e_c: list[int] = []
    e_v: list[float] = []
    b_eq = np.zeros(len(player.nodes))
    for row, node in enumerate(player.nodes):
        for a, _outs in game.player_actions(node):
            e_r.append(row)
            e_c.append(player.seq_of[(node, a)])
            e_v.append(1.0)
        for j in player.incoming[node]:
            e_r.append(row)
            e_c.append(j)
            e_v.append(-1.0)
        if node in player.roots:
            b_eq[row] = 1.0
    return coo_matrix((e_v, (e_r, e_c)), shape=(len(player.nodes), n_cols)).tocsr(), b_eq


def _bank_actions(game: HeadsUpGame, view: View, b: int, hands: list[int],
                  rows: dict[int, list[float]]) -> list[int]:
    """Legal bank actions at ``(view, b)`` after removing weakly dominated ones."""
    stand_ok, hit_ok = game.bank_legal(view, b)
    if not (stand_ok and hit_ok):
        return [A.STAND] if stand_ok else [A.HIT]
    res = game.bank_result(b)
    stand = [rows[h][res] for h in hands]
    if all(v == -view.stake for v in stand):
        return [A.STAND]
    if all(v > 0 for v in stand):
        return [A.HIT]
    return [A.STAND, A.HIT]


def _bank_coefficient(game: HeadsUpGame, b: int, a: int, hand: int, row: list[float]) -> float:
    """Player's payoff collected directly under bank sequence ``((view, b), a)`` for ``hand``.

    Weighted by the chance of the bank's cards (order-free, see
    :meth:`HeadsUpGame.draw_weight`): standing settles at ``b``; hitting
    settles at once when the card busts the bank or makes its 7½. ``row`` is
    the hand's payoff row at the view's stake.
    """
    ms = game.ms
    weight = game.draw_weight(b, hand)
    if not weight:
        return 0.0
    if a == A.STAND:
        return weight * row[game.bank_result(b)]
    left, n = game.remaining(hand)
    nb = n - ms.size[b]
    tb = ms.tuples[b]
    out = 0.0
    for c, cnt in enumerate(left):
        cnt -= tb[c]
        if cnt <= 0:
            continue
        child = ms.add[b][c]
        if child == BUST:
            out += cnt / nb * row[BANK_BUST]
        elif ms.total[child] == SEVEN_AND_HALF:
            out += cnt / nb * row[game.bank_result(child)]
    return weight * out


def _normalise(pairs: list[tuple[int, float]]) -> Dist:
    """Behaviour probabilities from flows; a node without flow plays its first action."""
    flow = sum(max(f, 0.0) for _a, f in pairs)
    if flow <= _ZERO:
        return [(pairs[0][0], 1.0)]
    probs = [(a, max(f, 0.0) / flow) for a, f in pairs]
    kept = [(a, p) for a, p in probs if p > 1e-9]
    norm = sum(p for _a, p in kept)
    return [(a, p / norm) for a, p in kept]


def _player_strategy(game: HeadsUpGame, player: _PlayerSide, z: np.ndarray) -> TabularPolicy:
    table = {}
    for node in player.nodes:
        pairs = [(a, float(z[player.seq_of[(node, a)]])) for a, _o in game.player_actions(node)]
        table[node] = _normalise(pairs)
    return TabularPolicy("equilibrium (player)", game, player=table)


def _bank_strategy(game: HeadsUpGame, infosets: list[tuple[View, int, list[int]]],
                   bank_seqs: list[tuple[int, int]], w: np.ndarray) -> TabularPolicy:
    flows: dict[int, list[tuple[int, float]]] = {}
    for row, (i, a) in enumerate(bank_seqs):
        if i >= 0:
            flows.setdefault(i, []).append((a, float(w[row])))
    table = {}
    for i, (view, b, _legal) in enumerate(infosets):
        table[(view, b)] = _normalise(flows[i])
    return TabularPolicy("equilibrium (bank)", game, bank=table)
