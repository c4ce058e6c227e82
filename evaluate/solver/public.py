"""The perfect-recall equilibrium of the heads-up hand by nested cutting planes over public states.

RULES.md §8.10: at its turn the bank remembers the player's whole public
history. With bets after the first card and raises (``spanish``) that tree
holds about 10^8 histories per opening stake, but it has a structure that
makes it small.

Public states and ranges
------------------------
The only private information during the player's turn is the player's one
face-down card ``h`` (the bank's card may be dealt after the player's turn,
:mod:`evaluate.solver.game`, *Exchangeability*). What can still happen
after a public history depends only on its *public state* ``x``: the phase,
the face-up cards as a multiset, the stake and the raise flag — the
player nodes of the forgetful game without their hidden card (a few
thousand states). What the history adds is the *range* ``r[h]``: the chance
of the history with face-down card ``h`` times the player's own
probabilities of its actions. Let ``W_x(r)`` be the value of the
perfect-recall subgame below a history of state ``x`` with range ``r``
(the player best-responds with every ``h``, the bank with its whole
history): it depends on nothing else, and

* ``W_x`` is concave and positively homogeneous: ``W_x(r) = min_σ r · u(σ)``
  over the bank's strategies ``σ`` below the history, ``u(σ)[h]`` the
  player's best-response value with card ``h`` against ``σ``;
* ``W_x(r) = max`` over the split of ``r`` among the player's actions
  (``y[h, a] ≥ 0``, ``Σ_a y[h, a] = r[h]``) of the busts plus ``W`` of each
  child history at its range (a stand's child is the bank's view, where
  ``W`` is the bank's best response to the posterior; a hit's, one per
  card; a reveal's, one per revealed card, whose new face-down card is
  chance's alone).

So the game value is ``W`` at the deal. Every seat's information set
contains its public history, so nothing is merged: this is the
perfect-recall game itself, evaluated by public state.

Nested cutting planes
---------------------
Each ``W_x`` is approximated from above by finitely many *cuts*
``W_x(r) ≤ u_j · r``: at a stand, the payoffs of one pure bank strategy
at that view; elsewhere, from the split LP of ``x`` with its children
replaced by their own cuts: the duals of its cut rows weigh each child's
cuts (a mixture of the children's bank strategies), and ``u[h]`` is the
player's best value with card ``h`` against that mixture. It bounds
``W_x`` at every range, exactly (recomputed from the weights, not read
off the LP's tolerances). Then

* *forward pass*: from the deal, each history splits its range by the LP of
  its state; histories with proportional ranges (the same posterior of the
  bank) behave alike and are visited once, as a group. At each stand the
  bank's exact best response to the group's range is computed. The total
  is the value of this player strategy against the perfect-recall bank's
  best response: a **lower bound**, exact.
* *backward pass*: every group visited, children first, solves its state's
  LP again with the new cuts of its children and adds the cut it finds.
  The LP value at the deal is an **upper bound** (every cut is valid), and
  at least the player's best response to the bank strategy the cuts
  describe.

The two bounds meet when every range the player's strategy reaches has
tight cuts; their difference bounds the NashConv of the pair in the
perfect-recall game. Histories are grouped when their normalised ranges
agree to :data:`_KEY_DIGITS` decimals; merging the histories of one group
can only help the bank, by at most that rounding times the stake per hand.
"""

from __future__ import annotations

import dataclasses
import heapq
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from envs import actions as A
from evaluate.solver.game import (BET, BUST, NO_CARD, PLAY, Busts, HeadsUpGame, SolverError,
                                  ToBank, View)
from evaluate.solver.lp import _ViewDAG
from evaluate.solver.policies import Dist, SolverPolicy

GAP = 1e-9
"""Stop once the upper and lower bound (units per hand) are this close."""
MAX_PASSES = 400
_KEY_DIGITS = 11
"""Ranges are grouped when their normalised entries agree to this many decimals."""
_KEEP = 1e-12
"""An action whose share of a card's range is below this is not played (the LP's noise)."""
_GAIN = 1e-12
"""A cut joins a state's list when it lowers its bound at the range it was found at by more."""

State = tuple
"""A public state: ``(phase, face-up multiset, stake, raised)``."""
Target = tuple
"""``("node", state)`` or ``("view", View)``: what a slot of a split LP leads to."""


@dataclass
class PublicPass:
    """One forward and backward pass and the bounds it proved."""

    lower: float
    """The player's strategy of the forward pass against the perfect-recall bank's best
    response (exact)."""
    upper: float
    """The split LP's value at the deal after the backward pass (an upper bound)."""
    groups: int
    """Histories visited, counted by group (public state and posterior)."""
    views: int
    """Groups of finished hands the bank best-responded to."""
    cuts: int
    seconds: float


@dataclass
class PublicSolution:
    """The bounds of the last pass and the passes that led to them."""

    lower: float
    upper: float
    passes: list[PublicPass] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def gap(self) -> float:
        """``upper - lower``: at least the NashConv of the strategies in the perfect-recall
        game."""
        return self.upper - self.lower

    @property
    def certified(self) -> bool:
        """Whether the bounds are within :data:`GAP`: the value is known to that precision."""
        return self.gap <= GAP


def perfect_recall_equilibrium(game: HeadsUpGame, progress: Callable[[str], None] | None = None,
                               time_limit: float | None = None) -> PublicSolution:
    """The value of ``game``'s perfect-recall hand with its certificate (the module docstring).

    Zero-sum hands only: with a jackpot the bank does not care about the pot,
    and the real hand is general-sum (:func:`evaluate.solver.values.equilibrium`
    checks that case on each party's payoff). ``time_limit`` (seconds): no new
    pass starts unless twice the last one's time still fits; the bounds then
    come back further apart than :data:`GAP`.
    """
    if game.general_sum:
        raise SolverError("the public-state solver solves zero-sum hands; with a jackpot "
                          f"(pot {game.pot_chips} chips) use --method cuts, which checks "
                          f"each party on its own payoff")
    return PublicSolver(game).solve(progress, time_limit)


class _Split:
    """The split LP of one public state, kept as a HiGHS model between solves."""

    def __init__(self, solver: PublicSolver, x: State) -> None:
        game = solver.game
        self.hs = hs = solver.hidden(x)
        cols: list[tuple[int, int]] = []
        bust: list[float] = []
        slots: dict[tuple, tuple[Target, dict[int, list[tuple[int, float]]]]] = {}
        for i, h in enumerate(hs):
            node = (x[0], h, x[1], x[2], x[3], None)
            for a, outs in game.player_actions(node):
                j = len(cols)
                cols.append((i, a))
                lost = 0.0
                for o in outs:
                    if isinstance(o, Busts):
                        lost -= o.prob * x[2]
                        continue
                    if isinstance(o, ToBank):
                        key: tuple = ("view", o.view)
                        target: Target = ("view", o.view)
                        index = o.hand
                    else:
                        child = o.node
                        if a == A.REVEAL_HIT:
                            key = ("reveal", h)
                        elif a == A.HIT:
                            key = ("hit", child[2])
                        else:
                            key = ("act", a)
                        target = ("node", (child[0], child[2], child[3], child[4]))
                        index = child[1]
                    slot = slots.setdefault(key, (target, {}))
                    slot[1].setdefault(index, []).append((j, o.prob))
                bust.append(lost)
        self.cols = cols
        self.bust = np.array(bust)
        self.keys = list(slots)
        """Each slot's public event: ``("view", V)``, ``("hit", U')``, ``("reveal", h)``,
        ``("act", a)`` (a bet or raise)."""
        self.targets: list[Target] = []
        self.maps: list[np.ndarray] = []
        for target, into in slots.values():
            pos = {t: k for k, t in enumerate(solver.index(target))}
            m = np.zeros((len(pos), len(cols)))
            for t, pairs in into.items():
                for j, p in pairs:
                    m[pos[t], j] += p
            self.targets.append(target)
            self.maps.append(m)
        self.owner = np.array([i for i, _a in cols])
        self.nc, self.ns = len(cols), len(self.targets)
        self.row_slot: list[int] = []
        """The slot of each cut row, in the order written."""
        self.row_gain: list[np.ndarray] = []
        """Each cut row's payoff per column: ``cut · map`` of its slot."""
        self.used = [0] * self.ns
        """Cuts of each slot's target already written as rows."""
        self.highs = _model(self.nc, self.ns, self.bust, self.owner, len(hs))

    def solve(self, solver: PublicSolver, r: np.ndarray) -> tuple[float, np.ndarray, np.ndarray]:
        """Value, split ``y`` and cut (the equality rows' duals) at the normalised range ``r``."""
        hc = _highs()
        rows_r: list[int] = []
        rows_c: list[int] = []
        rows_v: list[float] = []
        n = 0
        for k, target in enumerate(self.targets):
            have = solver.cuts[target]
            for u in have[self.used[k]:]:
                gain = u @ self.maps[k]
                self.row_slot.append(k)
                self.row_gain.append(gain)
                coef = -gain
                nz = np.nonzero(coef)[0]
                rows_r.extend([n] * (len(nz) + 1))
                rows_c.extend(nz.tolist() + [self.nc + k])
                rows_v.extend(coef[nz].tolist() + [1.0])
                n += 1
            self.used[k] = len(have)
        if n:
            from scipy.sparse import csr_matrix
            block = csr_matrix((rows_v, (rows_r, rows_c)), shape=(n, self.nc + self.ns))
            self.highs.addRows(n, np.full(n, -np.inf), np.zeros(n), int(block.nnz),
                               block.indptr[:-1].astype(np.int32),
                               block.indices.astype(np.int32), block.data.astype(np.float64))
        for i, v in enumerate(r):
            self.highs.changeRowBounds(i, float(v), float(v))
        self.highs.run()
        status = self.highs.getModelStatus()
        if status != hc.HighsModelStatus.kOptimal:
            raise SolverError(f"a split LP ended {self.highs.modelStatusToString(status)}")
        sol = self.highs.getSolution()
        x = np.asarray(sol.col_value)
        return self._cut(np.asarray(sol.row_dual)[len(self.hs):], r, x[:self.nc])

    def _cut(self, duals: np.ndarray, r: np.ndarray, y: np.ndarray
             ) -> tuple[float, np.ndarray, np.ndarray]:
        """The cut of the bank strategy the cut rows' duals describe, exactly.

        The duals weigh each slot's cuts (a mixture of the children's bank
        strategies, renormalised to weigh 1 per slot against HiGHS's
        tolerances); against it the player's best value with card ``h`` is
        the best column of ``h``: bust plus the weighted children. So the
        cut is an upper bound on ``W_x`` to rounding, whatever the LP's
        tolerance, and the value at ``r`` is that cut's.
        """
        weight = np.maximum(duals, 0.0)
        slot = np.array(self.row_slot, dtype=np.int64)
        per_slot = np.bincount(slot, weights=weight, minlength=self.ns)
        if (per_slot <= 0.0).any():
            raise SolverError("a split LP left a child without a bank strategy")
        weight = weight / per_slot[slot]
        column = self.bust + weight @ np.array(self.row_gain)
        u = np.full(len(self.hs), -np.inf)
        np.maximum.at(u, self.owner, column)
        return float(u @ r), y, u


def _highs() -> Any:
    from scipy.optimize._highspy import _core
    return _core


def _model(nc: int, ns: int, bust: np.ndarray, owner: np.ndarray, ne: int) -> Any:
    """``max bust·y + Σ t`` with ``Σ_a y[h, a] = r[h]`` (set per solve), ``y ≥ 0``, ``t`` free."""
    hc = _highs()
    highs = hc._Highs()
    highs.setOptionValue("output_flag", False)
    highs.setOptionValue("presolve", "off")
    highs.setOptionValue("primal_feasibility_tolerance", 1e-10)
    highs.setOptionValue("dual_feasibility_tolerance", 1e-10)
    lp = hc.HighsLp()
    lp.num_col_, lp.num_row_ = nc + ns, ne
    lp.col_cost_ = np.concatenate([bust, np.ones(ns)])
    lp.sense_ = hc.ObjSense.kMaximize
    lp.col_lower_ = np.concatenate([np.zeros(nc), np.full(ns, -np.inf)])
    lp.col_upper_ = np.full(nc + ns, np.inf)
    lp.row_lower_ = lp.row_upper_ = np.zeros(ne)
    matrix = lp.a_matrix_
    matrix.format_ = hc.MatrixFormat.kColwise
    matrix.num_col_, matrix.num_row_ = nc + ns, ne
    matrix.start_ = np.concatenate([np.arange(nc + 1), np.full(ns, nc)]).astype(np.int32)
    matrix.index_ = owner.astype(np.int32)
    matrix.value_ = np.ones(nc)
    lp.a_matrix_ = matrix
    if highs.passModel(lp).name != "kOk":
        raise SolverError("HiGHS refused a split LP")
    return highs


class PublicSolver:
    """Nested cutting planes on the perfect-recall game of ``game`` (see the module docstring)."""

    def __init__(self, game: HeadsUpGame) -> None:
        if game.recall != "perfect" or game.memory is not None:
            raise SolverError("the public-state solver needs the perfect-recall game "
                              "(recall='perfect', no memory)")
        self.game = game
        self.forgetful = game.twin("forgetful")
        """Its nodes are the pairs (public state, face-down card)."""
        self.ms = game.ms
        self.cuts: dict[Target, list[np.ndarray]] = {}
        self.plays: dict[tuple[State, tuple], np.ndarray] = {}
        """The last forward pass's split at each group, as shares of its normalised range."""
        self.kept: dict[tuple[State, tuple], np.ndarray] = {}
        """The same for the pass with the best lower bound: the strategy returned."""
        self._hidden: dict[State, list[int]] = {}
        self._index: dict[Target, list[int]] = {}
        self._splits: dict[State, _Split] = {}
        self._dags: dict[View, _ViewDAG] = {}
        self.root: State = (BET, self.ms.empty, 0, False)
        self.states = sorted({(n[0], n[2], n[3], n[4])
                              for n in self.forgetful.all_player_nodes()}, key=self._order)
        self.stakes = sorted({x[2] for x in self.states if x[0] == PLAY})
        """Every stake a finished hand can carry."""

    # ------------------------------------------------------------ structure
    def _order(self, x: State) -> tuple:
        """Parents before children: a hit or reveal adds a card, a raise adds to the stake."""
        return (self.ms.size[x[1]], x[0], x[2], x[3])

    def hidden(self, x: State) -> list[int]:
        """The face-down card classes a history of state ``x`` can hold."""
        got = self._hidden.get(x)
        if got is None and x[0] == BET and self.game.rules.bet_timing == "before_deal":
            got = self._hidden[x] = [-1]  # the stake comes before any card
        if got is None:
            left, _n = self.game.remaining(x[1])
            add = self.ms.add[x[1]]
            got = self._hidden[x] = [h for h in range(self.game.num_classes)
                                     if left[h] > 0 and add[h] not in (BUST, NO_CARD)]
        return got

    def index(self, target: Target) -> list[int]:
        """What a target's ranges are indexed by: face-down cards, or a view's whole hands."""
        got = self._index.get(target)
        if got is None:
            kind, t = target
            if kind == "node":
                got = self.hidden(t)
            elif t.hidden == 0:
                got = [t.up]
            else:
                got = [self.ms.add[t.up][h] for h in self.hidden((PLAY, t.up, t.stake, False))]
            self._index[target] = got
        return got

    def split(self, x: State) -> _Split:
        got = self._splits.get(x)
        if got is None:
            got = self._splits[x] = _Split(self, x)
        return got

    def chance(self, x: State) -> np.ndarray:
        """The chance-only range of ``x``'s face-down card (the deal, or a fresh reveal)."""
        if self.hidden(x) == [-1]:
            return np.ones(1)
        left, _n = self.game.remaining(x[1])
        r = np.array([float(left[h]) for h in self.hidden(x)])
        return r / r.sum()

    def respond(self, view: View, rho: np.ndarray) -> np.ndarray:
        """The payoffs, per hand, of the bank's exact best response at ``view`` to ``rho``."""
        got = self._dags.get(view)
        if got is None:
            # One bank tree serves every stake of a view (lp._ViewDAG); built once for all.
            views = [dataclasses.replace(view, stake=s) for s in self.stakes]
            shared = _ViewDAG(self.game, views, self.index(("view", view)))
            for k, v in enumerate(views):
                self._dags[v] = shared.at_stake(k)
            got = self._dags[view]
        _stand, outcome = got.respond(rho[None, :])
        return np.einsum("hr,hr->h", outcome[0], got.rows[0])

    def offer(self, target: Target, u: np.ndarray, r: np.ndarray, value: float) -> bool:
        """Add the cut ``u`` (found at ``r``, worth ``value`` there) if it tightens the bound."""
        have = self.cuts.setdefault(target, [])
        if have and min(float(c @ r) for c in have) <= value + _GAIN:
            return False
        have.append(u)
        return True

    # ------------------------------------------------------------ passes
    def initialise(self) -> None:
        """A first cut for every state and view: children first, at the chance-only range."""
        for x in reversed(self.states):
            sp = self.split(x)
            for target in sp.targets:
                if target[0] == "view" and target not in self.cuts:
                    prior = np.array([self.game.draw_weight(hand, self.ms.empty)
                                      for hand in self.index(target)])
                    self.offer(target, self.respond(target[1], prior), prior, np.inf)
            r = self.chance(x)
            value, _y, u = sp.solve(self, r)
            self.offer(("node", x), u, r, value)

    def forward(self) -> tuple[float, list[tuple[State, np.ndarray]],
                               list[tuple[View, np.ndarray, np.ndarray]]]:
        """Play the split LPs forward; the exact lower bound, the groups and the stands."""
        self.plays.clear()
        groups: dict[State, dict[tuple, np.ndarray]] = {self.root: {}}
        r0 = self.chance(self.root)
        groups[self.root][_key(r0)] = r0
        stands: dict[View, dict[tuple, np.ndarray]] = {}
        heap = [(self._order(self.root), self.root)]
        queued = {self.root}
        lower = 0.0
        visited: list[tuple[State, np.ndarray]] = []
        while heap:
            _k, x = heapq.heappop(heap)
            sp = self.split(x)
            for r in groups.pop(x).values():
                mass = float(r.sum())
                rn = r / mass
                _value, y, _u = sp.solve(self, rn)
                visited.append((x, rn))
                share = _clean(y, sp.owner, rn)
                self.plays[(x, _key(rn))] = share
                play = share * mass
                lower += float(sp.bust @ play)
                for target, m in zip(sp.targets, sp.maps):
                    rho = m @ play
                    if rho.sum() <= 0.0:
                        continue
                    kind, t = target
                    into = (stands if kind == "view" else groups).setdefault(t, {})
                    key = _key(rho)
                    into[key] = into.get(key, 0.0) + rho
                    if kind == "node" and t not in queued:
                        queued.add(t)
                        heapq.heappush(heap, (self._order(t), t))
        ends = []
        for view, by_key in stands.items():
            for rho in by_key.values():
                u = self.respond(view, rho)
                lower += float(rho @ u)
                ends.append((view, rho / rho.sum(), u))
        return lower, visited, ends

    def backward(self, visited: list[tuple[State, np.ndarray]],
                 ends: list[tuple[View, np.ndarray, np.ndarray]]) -> float:
        """New cuts at every group of the forward pass, children first; the bound at the deal."""
        for view, rho, u in ends:
            self.offer(("view", view), u, rho, float(rho @ u))
        upper = np.inf
        for x, r in reversed(visited):
            value, _y, u = self.split(x).solve(self, r)
            self.offer(("node", x), u, r, value)
            upper = value
        return upper

    def solve(self, progress: Callable[[str], None] | None = None,
              time_limit: float | None = None) -> PublicSolution:
        """Passes until the bounds meet within :data:`GAP` (or ``time_limit`` seconds)."""
        say = progress or (lambda _message: None)
        began = time.perf_counter()
        self.initialise()
        say(f"first cuts for {len(self.states):,} public states "
            f"({time.perf_counter() - began:.0f} s)")
        out = PublicSolution(-np.inf, np.inf)
        while True:
            start = time.perf_counter()
            lower, visited, ends = self.forward()
            upper = self.backward(visited, ends)
            done = PublicPass(lower, upper, len(visited), len(ends),
                              sum(len(c) for c in self.cuts.values()),
                              time.perf_counter() - start)
            out.passes.append(done)
            if lower > out.lower:  # the best player strategy so far is the one kept
                self.kept = dict(self.plays)
            out.lower, out.upper = max(out.lower, lower), min(out.upper, upper)
            out.seconds = time.perf_counter() - began
            say(f"pass {len(out.passes)}: value between {out.lower:+.10f} and "
                f"{out.upper:+.10f} (gap {out.gap:.1e}; {done.groups:,} history groups, "
                f"{done.cuts:,} cuts; {out.seconds:.0f} s)")
            if out.gap <= GAP:
                return out
            if time_limit is not None and out.seconds + 2 * done.seconds > time_limit:
                say(f"stopping before the time limit ({time_limit:g} s)")
                return out
            if len(out.passes) >= MAX_PASSES:
                raise SolverError(f"the public-state passes did not close the gap in "
                                  f"{MAX_PASSES} passes ({out.lower:+.10f} .. {out.upper:+.10f})")


class PublicPlayer(SolverPolicy):
    """The player's strategy of a solver's best forward pass, on the perfect-recall tree.

    At a history it plays the split of its group: the range of the history
    is replayed from the deal, event by event, through the same split LPs.
    For checks on games small enough to walk whole
    (:func:`evaluate.solver.values.bank_best_response` then gives the lower bound).
    """

    forgets = False
    memory = None

    def __init__(self, solver: PublicSolver) -> None:
        self.solver = solver
        self.name = "public-state equilibrium (player)"
        self.figure_symmetric = solver.game.merge_figures
        self._ranges: dict[tuple, tuple[State, np.ndarray]] = {}

    def _range(self, hist: tuple) -> tuple[State, np.ndarray]:
        """The public state of a history and its range (chance times the player's shares)."""
        got = self._ranges.get(hist)
        if got is not None:
            return got
        sv = self.solver
        if not hist:
            got = (sv.root, sv.chance(sv.root))
        else:
            x, r = self._range(hist[:-1])
            sp = sv.split(x)
            play = sv.kept[(x, _key(r))] * float(r.sum())
            kind, arg = hist[-1]
            layout = sv.game.layout
            key: tuple
            if kind == "bet":
                key = ("act", layout.bet(arg))
            elif kind == "raise":
                key = ("act", layout.raise_(arg))
            elif kind == "hit":
                key = ("hit", sv.ms.add[x[1]][arg])
            else:
                key = ("reveal", arg)
            k = sp.keys.index(key)
            got = (sp.targets[k][1], sp.maps[k] @ play)
        self._ranges[hist] = got
        return got

    def player(self, game: HeadsUpGame, node: tuple, legal: list[int]) -> Dist:
        x, r = self._range(node[5])
        sp = self.solver.split(x)
        i = self.solver.hidden(x).index(node[1])
        share = self.solver.kept[(x, _key(r))]
        cols = [j for j, (owner, _a) in enumerate(sp.cols) if owner == i]
        total = sum(share[j] for j in cols)
        return [(sp.cols[j][1], float(share[j] / total)) for j in cols if share[j] > 0.0]

    def bank(self, game: HeadsUpGame, view: View, bank: int, legal: list[int]) -> Dist:
        raise SolverError("the public-state solver's bank is its cuts, not a table")


def _key(r: np.ndarray) -> tuple:
    return tuple(np.round(r / r.sum(), _KEY_DIGITS).tolist())


def _clean(y: np.ndarray, owner: np.ndarray, r: np.ndarray) -> np.ndarray:
    """The LP's split as a strategy: shares below :data:`_KEEP` dropped, each card's range
    kept exactly."""
    play = np.where(y >= _KEEP * r[owner], np.maximum(y, 0.0), 0.0)
    total = np.bincount(owner, weights=play, minlength=len(r))
    scale = np.divide(r, total, out=np.zeros_like(r), where=total > 0)
    return play * scale[owner]
