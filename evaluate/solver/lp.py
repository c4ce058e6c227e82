"""Equilibrium of the heads-up hand: sequence-form linear programs, solved by HiGHS.

The game (:mod:`evaluate.solver.game`) is a two-player zero-sum game with
chance and imperfect information: the bank never sees the player's
face-down card. Its payoff is the player's own (``HeadsUpGame.player_row``:
with a jackpot the pot a natural takes counts, as if the bank also wanted
to spoil it; the constant ante is left out and subtracted by
:func:`evaluate.solver.values.equilibrium`, which then checks the strategies on
each party's own payoff — see *The jackpot* in :mod:`evaluate.solver.values`).
Its states are multisets, so each player's decisions form a directed
acyclic graph rather than a tree.

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
In the forgetful game (``recall="forgetful"``) the bank's information set
at its turn is its view (the final stake, the player's face-up cards as a
set, the face-down count), not the public history that led there; the
order in which the cards arrived and when each bet and raise came are
payoff-irrelevant, but they inform a bank that remembers them, so that
game does **not** have the value of the perfect-recall game of RULES.md
§8.10. With perfect recall (or a partial memory) the same LP runs on the
tree (or the partly merged DAG) whose views carry the histories;
:mod:`evaluate.solver.recall` grows the memory until the strategies are
certified in the perfect-recall game.

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
loss). With a jackpot both still hold: the pot changes hands only for a
natural, which no stand below 7½ beats and whose pot only a bank 7½
keeps. Removing weakly dominated actions keeps the value of a zero-sum game.

The view-decomposed LP (``method="cuts"``, the default)
------------------------------------------------------
The full LP above is mostly the bank: one ``v`` and one or two rows per
bank decision ``(view, B)``. With free stakes and ``on_turn`` bets plus
raises (``spanish``) that is hundreds of thousands of rows and millions of
non-zeros, and HiGHS takes far longer on it than on the decomposition
below (its interior point ends "imprecise"; crossover and simplex are
slower still). Yet the bank's
decisions fall apart by view: given the player's flows ``z``, each view
``V`` is a separate one-player problem whose only input is
``ρ_V(H) = Σ q · z`` over the player's sequences finishing with hand ``H``
showing ``V`` — at most ten numbers (the hidden card's class). So

    max_z  bust·z + Σ_V g_V(ρ_V(z)),   g_V(ρ) = min_σ Σ_H ρ_H u_H(σ),

with ``σ`` the bank's pure strategies in ``V`` (a stand/hit choice at
every ``(V, B)``; pure strategies suffice, by backward induction over
``B``) and ``u_H(σ)`` the player's payoff with hand ``H`` (chance over
the bank's cards from the shoe less ``H``). ``g_V`` is concave and
piecewise linear, so the problem is the LP

    max bust·z + Σ_V t_V   s.t.  E z = e,  z ≥ 0,  t_V ≤ Σ_H ρ_V(H) u_H(σ)  for every σ,

the same value and the same player strategies as the full LP, with a row
per (view, pure strategy). Few of those rows bind, so they are generated
(Kelley's cutting planes): solve the LP with the rows found so far (an
upper bound ``ub`` on the value), compute the bank's exact best response
in every view to the ``ρ`` of the solution (a backward pass over ``B``,
all stakes of a view at once: the value ``lb`` of ``z``, a lower bound),
add the rows of the responses that the solution violates, repeat until
``ub - lb`` is below ``1e-9`` per hand. A response found at one stake
is a strategy of the same view at every stake (legality does not depend
on the stake), so it is offered as a row there too. The bank's
equilibrium is the mixture of the generated strategies weighted by the
rows' duals, turned into behaviour: the flow of ``σ`` into ``(V, B)`` is
the number of orders of ``B``'s cards along which ``σ`` hits, the mixed
flows are summed with the weights and normalised. Every step is exact; the
cuts only decide which rows of a finite LP are written down.

Rows are added to the HiGHS model in place (SciPy's private bindings,
``scipy.optimize._highspy``), so each round restarts the dual simplex from
the last basis; where those bindings are missing, or a warm round does not
end optimal, every round is a cold ``linprog``: slower, the same LP.
The rows of a view are divided by its chance mass, so coefficients are of
order 1 (HiGHS ignores coefficients below 1e-9, which costs the full LP
about 5e-10 of accuracy).

``Equilibrium.size`` reports the views, rows and rounds of a run, and
``benchmarks/bench_solver.py`` its time; :func:`evaluate.solver.values.equilibrium`
rechecks the strategies with the best-response code. ``method="full"``
solves the full LP above, as a cross-check on small games.
"""

from __future__ import annotations

import copy
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy.optimize import linprog
from scipy.sparse import coo_matrix, csr_matrix, vstack

from envs import actions as A
from evaluate.solver.game import (BANK_BUST, BUST, NO_CARD, NUM_RESULTS, SEVEN_AND_HALF,
                                  HeadsUpGame, SolverError, ToBank, ToNode, View)
from evaluate.solver.policies import Dist, TabularPolicy

_ZERO = 1e-12
_HIGHS_OPTIONS = {"primal_feasibility_tolerance": 1e-10, "dual_feasibility_tolerance": 1e-10}
METHODS = ("cuts", "full")
"""``cuts``: the view-decomposed LP with generated rows (default); ``full``: the whole LP."""
_GAP = 1e-9
"""The cutting planes stop once ``ub - lb`` (units per hand) is below this."""
_MAX_ROUNDS = 1000
_DAG_VIEWS = 32
"""At most this many views (stakes, histories) share one :class:`_ViewDAG`: its responses
are offered to each other (a strategy is legal at every one), at a cost quadratic in it."""


def _view_order(view: View) -> tuple:
    return (view.stake, view.status, view.hidden, view.up, view.hist is not None,
            view.hist or ())


@dataclass
class LPSolution:
    """The equilibrium of one game, as the LP returns it."""

    value: float
    """Equilibrium value for the player (units of ``min_bet``): its own payoff less the ante."""
    player: TabularPolicy
    bank: TabularPolicy
    game: HeadsUpGame
    size: dict[str, int]
    """LP size: player sequences, bank decisions, non-zeros, and per method its own counts."""
    seconds: float
    """Wall time to build and solve the LP."""
    method: str = "full"
    """``"cuts"`` or ``"full"`` (see the module docstring)."""
    gap: float = 0.0
    """``ub - lb`` of the cutting planes when they stopped (0 for the full LP)."""


def solve_equilibrium(game: HeadsUpGame, method: str = "cuts",
                      progress: Callable[[str], None] | None = None) -> LPSolution:
    """Solve the equilibrium LP of ``game`` by ``method`` (see the module docstring);
    ``progress(message)`` hears of each round of the cutting planes and its bounds."""
    if method == "cuts":
        return _solve_cuts(game, progress)
    if method == "full":
        return _solve_full(game)
    raise SolverError(f"method={method!r}; choose one of {', '.join(METHODS)}")


def _solve_full(game: HeadsUpGame) -> LPSolution:
    """Build and solve the full sequence-form LP of ``game``."""
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
                      time.perf_counter() - start, "full")


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
                if isinstance(o, ToNode):
                    q.setdefault(o.node, w)
                    incoming[o.node].append(j)
                elif isinstance(o, ToBank):
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
    for view in sorted(ends, key=_view_order):
        hands = sorted(ends[view])
        rows = {h: game.player_row(h, view.stake) for h in hands}
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
                if child == NO_CARD or child == BUST or ms.total[child] == SEVEN_AND_HALF:
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
    rows = {(view, h): game.player_row(h, view.stake) for view, hands in player.ends.items()
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
                    k = info_of.get((view, child))
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


# --------------------------------------------------------------------- view-decomposed LP
class _ViewDAG:
    """The bank's decisions ``(V, B)`` below one public view, shared by all its stakes.

    ``views`` are the views that differ only in stake; ``hands`` every hand
    that can show them. Decision multisets ``B`` (non-empty, below 7½,
    reachable for some hand) are numbered; ``ch[b, c]`` is the row of the
    child after a card of class ``c`` (a decision, or ``nb + result`` when
    the card stops the bank) and ``prob[b, c, h]`` its chance for hand ``h``.
    """

    def __init__(self, game: HeadsUpGame, views: list[View], hands: list[int]) -> None:
        ms = game.ms
        self.views, self.hands = views, hands
        self.m = m = len(hands)
        classes = game.num_classes
        left = np.array([game.remaining(h)[0] for h in hands], dtype=float)
        n = game.num_cards - ms.size[hands[0]]
        firsts = [(c, ms.add[ms.empty][c]) for c in range(classes) if left[:, c].max() > 0]
        order = [b for _c, b in firsts]
        index = {b: i for i, b in enumerate(order)}
        legal: list[tuple[bool, bool]] = []
        i = 0
        while i < len(order):
            b = order[i]
            i += 1
            legal.append(game.bank_legal(views[0], b))  # the same at every stake
            if not legal[-1][1]:
                continue
            tb = ms.tuples[b]
            for c in range(classes):
                child = ms.add[b][c]
                if (child == NO_CARD or child == BUST or ms.total[child] == SEVEN_AND_HALF
                        or child in index or (left[:, c] - tb[c]).max() <= 0):
                    continue
                index[child] = len(order)
                order.append(child)
        self.order = order
        self.nb = nb = len(order)
        self.stand_ok = np.array([s for s, _h in legal])
        self.hit_ok = np.array([h for _s, h in legal])
        self.res = np.array([game.bank_result(b) for b in order])
        self.ch = np.full((nb, classes), nb + BANK_BUST, dtype=np.int64)
        self.prob = np.zeros((nb, classes, m))
        for k, b in enumerate(order):
            if not self.hit_ok[k]:
                continue
            tb = ms.tuples[b]
            for c in range(classes):
                cnt = left[:, c] - tb[c]
                if cnt.max() <= 0:
                    continue
                child = ms.add[b][c]
                self.prob[k, c] = np.maximum(cnt, 0.0) / (n - ms.size[b])
                if child == BUST:
                    self.ch[k, c] = nb + BANK_BUST
                elif ms.total[child] == SEVEN_AND_HALF:
                    self.ch[k, c] = nb + game.bank_result(child)
                else:
                    self.ch[k, c] = index[child]
        self.live = self.prob.max(axis=2) > 0.0
        self.weight = np.array([[game.draw_weight(b, h) for h in hands] for b in order])
        self.first = np.array([index[b] for _c, b in firsts])
        self.first_prob = np.array([left[:, c] / n for c, _b in firsts])
        size = np.array([ms.size[b] for b in order])
        self.levels = [np.nonzero(size == s)[0] for s in sorted(set(size.tolist()))]
        """Decision rows by number of bank cards, fewest first."""
        self.rows = np.array([[game.player_row(h, v.stake) for h in hands] for v in views])
        """Payoff rows ``[stake view, hand, result]``."""
        self.strategies: list[np.ndarray] = []
        """Pure strategies found so far: ``stand[b]`` (bool per decision)."""
        self.outcomes: list[np.ndarray] = []
        """Their bank-result distributions per hand ``[hand, result]``."""
        self.known: dict[bytes, int] = {}

    def at_stake(self, s: int) -> _ViewDAG:
        """The same tree for the one view ``views[s]`` (its rows shared, no strategies)."""
        one = copy.copy(self)
        one.views, one.rows = self.views[s:s + 1], self.rows[s:s + 1]
        one.strategies, one.outcomes, one.known = [], [], {}
        return one

    def respond(self, rho: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Best responses to ``rho[stake view, hand]``: ``stand[view, b]`` and outcomes.

        Backward over ``B`` for all stake views at once; ``D[b, s, h, r]`` is
        the distribution of the bank's result from ``b`` on (ties: stand).
        """
        nb, m, nr = self.nb, self.m, NUM_RESULTS
        ns = len(self.views)
        dist = np.zeros((nb + nr, ns, m, nr))
        for r in range(nr):
            dist[nb + r, :, :, r] = 1.0
        stand = np.zeros((nb, ns), dtype=bool)
        rows = self.rows
        for lev in reversed(self.levels):
            hit = np.einsum("bch,bcshr->bshr", self.prob[lev], dist[self.ch[lev]])
            hit_pay = np.einsum("bshr,shr->bsh", hit, rows)
            stand_pay = rows[:, :, self.res[lev]].transpose(2, 0, 1)
            gain = np.einsum("sh,bh,bsh->bs", rho, self.weight[lev], stand_pay - hit_pay)
            st = self.stand_ok[lev][:, None] & (~self.hit_ok[lev][:, None] | (gain <= 0.0))
            stand[lev] = st
            here = np.zeros((len(lev), ns, m, nr))
            here[np.arange(len(lev)), :, :, self.res[lev]] = 1.0
            dist[lev] = np.where(st[:, :, None, None], here, hit)
        outcome = np.einsum("kh,kshr->shr", self.first_prob, dist[self.first])
        return stand.T, outcome

    def add_strategy(self, stand: np.ndarray, outcome: np.ndarray) -> int:
        key = stand.tobytes()
        k = self.known.get(key)
        if k is None:
            k = self.known[key] = len(self.strategies)
            self.strategies.append(stand.copy())
            self.outcomes.append(outcome.copy())
        return k

    def flows(self, k: int) -> np.ndarray:
        """Flow of pure strategy ``k`` into each decision: the orders of ``B`` it hits along."""
        stand = self.strategies[k]
        flow = np.zeros(self.nb + NUM_RESULTS)
        flow[self.first] = 1.0
        for lev in self.levels:
            out = flow[lev] * ~stand[lev]
            for c in range(self.ch.shape[1]):
                live = self.live[lev, c]
                np.add.at(flow, self.ch[lev[live], c], out[live])
        return flow[:self.nb]


def _solve_cuts(game: HeadsUpGame, progress: Callable[[str], None] | None = None
                ) -> LPSolution:
    """The view-decomposed LP by cutting planes (see the module docstring)."""
    start = time.perf_counter()
    player = _player_side(game)
    n_z = len(player.seqs)
    groups: dict[tuple, list[View]] = {}
    for view in player.ends:
        groups.setdefault((view.up, view.hidden, view.status), []).append(view)
    dags: list[_ViewDAG] = []
    for key in sorted(groups):
        views = sorted(groups[key], key=_view_order)
        for at in range(0, len(views), _DAG_VIEWS):  # histories of one view: in chunks
            chunk = views[at:at + _DAG_VIEWS]
            hands = sorted({h for v in chunk for h in player.ends[v]})
            dags.append(_ViewDAG(game, chunk, hands))
    col: dict[View, int] = {}
    scale: list[float] = []
    rho_maps = []
    for dag in dags:
        rho_r: list[int] = []
        rho_c: list[int] = []
        rho_q: list[float] = []
        pos = {h: i for i, h in enumerate(dag.hands)}
        for s, view in enumerate(dag.views):
            col[view] = n_z + len(scale)
            # t_V = scale · t'_V, scale = the view's chance mass: rows of order 1 for HiGHS
            scale.append(sum(q for leaves in player.ends[view].values() for _j, q in leaves))
            for h, leaves in player.ends[view].items():
                for j, q in leaves:
                    rho_r.append(s * dag.m + pos[h])
                    rho_c.append(j)
                    rho_q.append(q)
        rho_maps.append(csr_matrix((rho_q, (rho_r, rho_c)), shape=(len(dag.views) * dag.m, n_z)))
    n_cols = n_z + len(scale)
    a_eq, b_eq = _equalities(game, player, n_cols)
    cost = np.zeros(n_cols)
    for j, coef in player.bust.items():
        cost[j] = -coef
    cost[n_z:] = -np.array(scale)
    master = _Master(cost, n_z, a_eq, b_eq)
    cut_r: list[int] = []
    cut_c: list[int] = []
    cut_v: list[float] = []
    cuts: list[tuple[int, int, int]] = []  # (dag, stake view, strategy)
    have: set[tuple[int, int, int]] = set()

    def add_cut(d: int, s: int, k: int) -> None:
        if (d, s, k) in have:  # violated only within HiGHS's tolerance
            return
        have.add((d, s, k))
        dag = dags[d]
        view = dag.views[s]
        u = np.einsum("hr,hr->h", dag.outcomes[k], dag.rows[s]) / scale[col[view] - n_z]
        row = len(cuts) - master.rows
        cut_r.append(row)
        cut_c.append(col[view])
        cut_v.append(1.0)
        for i, h in enumerate(dag.hands):
            for j, q in player.ends[view].get(h, ()):
                cut_r.append(row)
                cut_c.append(j)
                cut_v.append(-q * u[i])
        cuts.append((d, s, k))

    for d, dag in enumerate(dags):  # start: each view's answer to the chance-only prior
        stand, outcome = dag.respond(np.ones((len(dag.views), dag.m)))
        k = dag.add_strategy(stand[0], outcome[0])
        for s in range(len(dag.views)):
            add_cut(d, s, k)
    rounds = 0
    while True:
        rounds += 1
        master.add(coo_matrix((cut_v, (cut_r, cut_c)),
                              shape=(len(cuts) - master.rows, n_cols)).tocsr())
        cut_r.clear()
        cut_c.clear()
        cut_v.clear()
        x, ub, duals = master.solve()
        z = x[:n_z]
        t = x[n_z:] * scale
        lb = float(-cost[:n_z] @ z)
        added = 0
        for d, dag in enumerate(dags):
            ns = len(dag.views)
            rho = (rho_maps[d] @ z).reshape(ns, dag.m)
            stand, outcome = dag.respond(rho)
            # u[s, s2, h]: payoff of the response found at stake s, played at stake s2
            u = np.einsum("shr,thr->sth", outcome, dag.rows)
            lb += float(np.einsum("ssh,sh->", u, rho))
            tv = t[[col[v] - n_z for v in dag.views]]
            for s in range(ns):
                k = dag.add_strategy(stand[s], outcome[s])
                for s2 in range(ns):
                    if (tv[s2] - u[s, s2] @ rho[s2] > 1e-13 * max(1.0, abs(tv[s2]))
                            and (d, s2, k) not in have):
                        add_cut(d, s2, k)
                        added += 1
        if progress is not None:
            progress(f"round {rounds}: value between {lb:+.6f} and {ub:+.6f}, "
                     f"{len(cuts)} rows")
        if ub - lb <= _GAP or not added:
            break
        if rounds >= _MAX_ROUNDS:
            raise SolverError(f"the equilibrium LP did not converge in {rounds} rounds "
                              f"(bounds {lb:+.10f} .. {ub:+.10f})")
    bank = _mixed_bank_strategy(game, dags, cuts, -duals)
    nbank = sum(dag.nb * len(dag.views) for dag in dags)
    sizes = {"player_sequences": n_z, "bank_decisions": nbank, "views": len(scale),
             "bank_strategies": sum(len(dag.strategies) for dag in dags), "rows": len(cuts),
             "rounds": rounds, "nonzeros": master.nonzeros}
    return LPSolution(ub, _player_strategy(game, player, z), bank, game, sizes,
                      time.perf_counter() - start, "cuts", ub - lb)


class _Master:
    """The LP ``min cost·x, E x = e, x[:n_z] ≥ 0, rows x ≤ 0``, rows added between solves.

    HiGHS (SciPy's copy) keeps its basis when rows are added, so each round
    restarts the dual simplex from the last optimum instead of from scratch;
    without that interface (another SciPy) every round calls ``linprog``.
    """

    def __init__(self, cost: np.ndarray, n_z: int, a_eq: Any, b_eq: np.ndarray) -> None:
        self.cost, self.n_z, self.a_eq, self.b_eq = cost, n_z, a_eq, b_eq
        self.rows = 0
        self.nonzeros = int(a_eq.nnz)
        self.blocks: list[Any] = []
        self.highs = _highs_model(cost, n_z, a_eq, b_eq)

    def add(self, block: Any) -> None:
        """Append rows ``block x ≤ 0`` (a CSR matrix)."""
        self.rows += block.shape[0]
        self.nonzeros += int(block.nnz)
        self.blocks.append(block)
        if self.highs is None:
            return
        n = block.shape[0]
        self.highs.addRows(n, np.full(n, -np.inf), np.zeros(n), int(block.nnz),
                           block.indptr[:-1].astype(np.int32),
                           block.indices.astype(np.int32), block.data.astype(np.float64))

    def solve(self) -> tuple[np.ndarray, float, np.ndarray]:
        """Primal solution, maximised value (``-cost·x``) and the duals of the added rows."""
        if self.highs is not None:
            self.highs.run()
            status = self.highs.getModelStatus()
            if status.name == "kOptimal":
                sol = self.highs.getSolution()
                x = np.asarray(sol.col_value)
                duals = np.asarray(sol.row_dual)[self.a_eq.shape[0]:]
                return x, float(-self.cost @ x), duals
            self.highs = None  # not solved warm: solve this round and the next ones cold
        a_ub = vstack(self.blocks).tocsr()
        bounds = [(0.0, None)] * self.n_z + [(None, None)] * (self.cost.size - self.n_z)
        res = linprog(self.cost, A_ub=a_ub, b_ub=np.zeros(a_ub.shape[0]), A_eq=self.a_eq,
                      b_eq=self.b_eq, bounds=bounds, method="highs", options=_HIGHS_OPTIONS)
        if res.status != 0:
            raise SolverError(f"the equilibrium LP failed: {res.message}")
        return res.x, float(-res.fun), np.asarray(res.ineqlin.marginals)


def _highs_model(cost: np.ndarray, n_z: int, a_eq: Any, b_eq: np.ndarray) -> Any:
    """A HiGHS model of ``min cost·x, a_eq x = b_eq`` through SciPy's bindings, or ``None``."""
    try:
        from scipy.optimize._highspy import _core as hc
        highs = hc._Highs()
        highs.setOptionValue("output_flag", False)
        for name, value in _HIGHS_OPTIONS.items():
            highs.setOptionValue(name, value)
        lp = hc.HighsLp()
        lp.num_col_, lp.num_row_ = cost.size, a_eq.shape[0]
        lp.col_cost_ = cost
        lp.col_lower_ = np.concatenate([np.zeros(n_z), np.full(cost.size - n_z, -np.inf)])
        lp.col_upper_ = np.full(cost.size, np.inf)
        lp.row_lower_ = lp.row_upper_ = b_eq
        a = a_eq.tocsc()
        matrix = lp.a_matrix_
        matrix.format_ = hc.MatrixFormat.kColwise
        matrix.num_col_, matrix.num_row_ = cost.size, a_eq.shape[0]
        matrix.start_ = a.indptr.astype(np.int32)
        matrix.index_ = a.indices.astype(np.int32)
        matrix.value_ = a.data.astype(np.float64)
        lp.a_matrix_ = matrix
        if highs.passModel(lp).name != "kOk":
            return None
        return highs
    except Exception:  # pragma: no cover - SciPy without its HiGHS bindings
        return None


def _mixed_bank_strategy(game: HeadsUpGame, dags: list[_ViewDAG], cuts: list[tuple[int, int, int]],
                         lam: np.ndarray) -> TabularPolicy:
    """Behaviour of the mixture of generated strategies (weights: the rows' duals)."""
    mix: dict[tuple[int, int], dict[int, float]] = {}
    for (d, s, k), weight in zip(cuts, lam):
        if weight > 0.0:
            into = mix.setdefault((d, s), {})
            into[k] = into.get(k, 0.0) + float(weight)
    table: dict[tuple, Dist] = {}
    for d, dag in enumerate(dags):
        cache: dict[int, np.ndarray] = {}
        for s, view in enumerate(dag.views):
            flow = np.zeros(dag.nb)
            stand = np.zeros(dag.nb)
            weights = mix.get((d, s), {})
            total = sum(weights.values())  # the view's chance mass: normalise to 1
            for k, weight in weights.items():
                weight /= total
                if k not in cache:
                    cache[k] = dag.flows(k)
                flow += weight * cache[k]
                stand += weight * cache[k] * dag.strategies[k]
            for i, b in enumerate(dag.order):
                if not (dag.stand_ok[i] and dag.hit_ok[i]):
                    table[(view, b)] = [(A.STAND if dag.stand_ok[i] else A.HIT, 1.0)]
                else:
                    table[(view, b)] = _normalise([(A.STAND, stand[i]),
                                                   (A.HIT, flow[i] - stand[i])])
    return TabularPolicy("equilibrium (bank)", game, bank=table)
