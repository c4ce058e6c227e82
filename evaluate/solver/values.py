"""Exact heads-up values of Sette e mezzo: one player against the bank, one hand.

No sampling: every figure is a finite sum over the game of
:mod:`evaluate.solver.game` (read its docstring for the information model,
exchangeability and why states are multisets of cards).

* :func:`evaluate` — the exact EV of a pair of policies (player's view,
  units of ``min_bet``; without a jackpot the bank's EV is minus it, with
  one see *The jackpot* below), following the policies' bets and raises.
* :func:`best_response` — the best response of one role to a fixed policy
  of the other, on the responder's real information.
* :func:`exploitability` — what each role gains by best-responding.
* :func:`equilibrium` — the value and strategies of heads-up play
  (:mod:`evaluate.solver.lp`: the sequence-form LP, decomposed by the
  bank's views and solved with HiGHS by generating the bank's rows; with
  perfect recall on partial-recall games refined by
  :mod:`evaluate.solver.recall`); :mod:`evaluate.solver.public` gives the
  perfect-recall value and its certificate by public state, where the
  refinement does not close (bets after the first card with raises).

Every function takes ``recall``: ``"perfect"`` (the default; RULES.md
§8.10: both seats remember the hand's public history, so a best-responding
bank answers each history on its own) or ``"forgetful"`` (the older model
in which the bank sees only the finished hand's view). A pass that would
visit more than :data:`~evaluate.solver.game.MAX_NODES` player decisions
of the perfect-recall tree is refused with a :class:`SolverError` that
says what to do instead; against policies that ignore the order of play
the exact answer needs no more than the forgetful game (:func:`game_for`).

Policies (``player``, ``bank`` arguments) are spec strings (``"threshold:5"``,
``"random"``), agents following ``act(observation, action_mask)`` or
:class:`~evaluate.solver.policies.SolverPolicy` objects
(:func:`~evaluate.solver.policies.as_policy`).

The maths
---------
*Player.* Let ``x`` be a player node, ``π(a|x)`` the policy and ``p(o|x,a)``
the chance of outcome ``o`` (a card drawn without replacement from the
composition less the player's own cards; the bank's face-down card is drawn
after the player's turn — exchangeability). Then
``V(x) = Σ_a π(a|x) Σ_o p(o|x,a) V(o)`` with ``V(bust) = -s`` and
``V(end) = s · E_bank[result]``; the best response replaces ``Σ_a π`` by
``max_a``. The player's information is exactly its node: the only thing it
does not see, the bank's card, is independent of its play.

*Bank.* For a finished player hand the bank's cards form a chain of
multisets ``B``; the bank chooses at ``(view, B)``, where with perfect
recall the view holds the player's whole public history. Given the fixed player
policy, let ``ρ(view, H)`` be the probability that the player finishes with
hand ``H`` (hidden card included) showing ``view``. At ``(view, B)`` the bank
holds the posterior ``P(H | view, B) ∝ ρ(view, H) · w_H(B)``, where
``w_H(B) = Π_c (n_c)_(b_c) / (N)_(|B|)`` is the chance of the bank's own
cards from the shoe less ``H`` (:meth:`HeadsUpGame.draw_weight`), the same
whatever order they came in. Its best response minimises, bottom-up over
``B``, ``Σ_H P(H|view,B) · u_H(B, a)``, where ``u_H`` is the player's payoff
vector under the bank's (best) continuation. It never looks at the
player's face-down card: it averages over it with the weight the player's
policy gives it.

*Exploitability* of a pair ``(π_p, π_b)`` with ``EV = u(π_p, π_b)``:
``max_x u(x, π_b) - min_y u(π_p, y)`` (NashConv), the sum of the player's gain
``max_x u(x, π_b) - EV`` and the bank's gain ``EV - min_y u(π_p, y)``; both
are ≥ 0 and the sum is 0 exactly at an equilibrium.

The jackpot
-----------
With ``jackpot_ante`` > 0 (RULES.md §4.9, ``catalan``) the player antes
``a`` chips into a pot; with ``jackpot`` chips in it before this hand (a
parameter everywhere, default 0: the pot depends on earlier hands) a
natural takes ``pot = jackpot + a`` unless the bank's hand totals 7½, as in
``Engine._settle`` (in units of ``min_bet`` below). Let ``Z`` be the chips
the player wins from the bank. Then the payoffs are

    player: ``Z - a + pot · [natural and bank ≠ 7½]``,   bank: ``-Z``,

a general-sum game: the bank neither antes nor wins the pot. Every
function reports on each party's own payoff: :class:`Evaluation` has the
player's ``ev``, the bank's ``bank_ev`` (``-Z``) and the chance
``jackpot_win``; the player best-responds on its payoff (the pot counts),
the bank on ``-Z``; the NashConv is the player's gain plus the bank's gain,
each on its own payoff, 0 exactly at a Nash equilibrium of the real hand.

The equilibrium LP is zero-sum, so :func:`equilibrium` solves the zero-sum
game on the *player's* payoff (the bank treated as if it also wanted to
spoil the pot) and then checks the pair with the best responses above.
The player's strategy is a best response by construction (same payoff).
The bank's is one exactly when the chip-optimal and the pot-spoiling play
coincide wherever it matters — and they pull the same way: against a
natural the bank loses its chips unless it makes 7½, which is also the only
way to spoil the pot, so a bank that knows it faces a natural chases 7½ in
both games. They can differ only where the bank does *not* know: at a view
that may hide a natural next to hands it beats by standing, the pot tilts
the balance towards hitting. While the pot is small the LP's optimum does
not move — the jackpot-free equilibrium stays optimal for the player's
payoff (an LP optimum is stable under a small change of its
coefficients); the bank's part of it is chip-optimal, so the pair is an
exact Nash equilibrium of the real hand. This is not assumed: the check
certifies it (``Equilibrium.certified``, NashConv ≤ 1e-9). When
the pot grows large enough to change the player's play (it starts drawing
to a natural where it would not for chips), the spoiling bank hits where a
chip-minded bank would stand, the pair is *not* an equilibrium of the
real hand, and the solver says so and reports the NashConv. ``catalan``
(ante 1 chip, ``min_bet`` 10), free stakes: certified for every pot up to
``jackpot`` = 24 chips (pot 25 chips, 2.5 units; NashConv ~1e-13); from
``jackpot`` = 25 on the bank gains about 1e-3 units per hand (25: 1.1e-3,
40: 2.1e-3, 100: 6.5e-3, 400: 5.2e-2) and the pair is reported as not an
equilibrium.

What is supported
-----------------
Rules: every switch of RULES.md §1–§4 that one heads-up hand can meet
(``MODELLED_SWITCHES``), so every preset that leaves the house rules off —
``catalan`` (with its jackpot: the pot before the hand is the ``jackpot``
argument, ``--jackpot`` on the command line, default 0), ``spanish``,
``pagat`` — and any rules file in that range (decks, bet ladder,
``natural_beats_bank_multicard``, ``bank_must_chase_declared``,
``jackpot_ante``, …). Refused by name (:class:`SolverError`), all
offending switches in one message: the matta, the triplè, the pair of
sevens and every §6 house rule (so a Mort never makes a natural here), and
any switch added to ``Rules`` later unless it keeps its default. Irrelevant within one hand
(and said so in every report): ``first_bank``, ``bank_transfer``,
``max_bank_hands``, ``reshuffle``. Coverage is exact (the bank holds
``starting_chips`` and pays at most that), not a deep-stack assumption.

Stakes: :func:`evaluate` follows the policies' bets and raises. Best
responses, exploitability and the equilibrium default to ``stakes="free"``
(bets and raises are decisions, as in the engine: the real game);
``"fixed"`` holds the player to the smallest bet with no raises (the
per-unit-stake game, reported as such). The free equilibrium is exact for
every supported preset, within the 10-minute target
(``benchmarks/bench_solver.py`` measures it; :mod:`evaluate.solver.lp` says
why the LP is decomposed by the bank's views). The values of each preset's
equilibrium, free and fixed, with and without the jackpot, are tabled in
docs/RESULTS.md (tests/test_solver*.py pin them). With bets before the deal
the stake tells the bank nothing and the player, behind, bets the minimum;
betting after seeing the first card and raising on strong hands turn
``spanish`` in the player's favour.

Policies queried through observations must be deterministic functions of
(observation, mask); each information state is asked once, its observation
built by the real engine (:class:`~evaluate.solver.policies.EngineObservations`).
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from envs import actions as A
from envs.hands import DECLARED
from envs.rules import Rules
from evaluate.solver.game import (BANK_BUST, BUST, MAX_NODES, NUM_RESULTS, SEVEN_AND_HALF,
                                  SEVEN_MULTI,
                                  HeadsUpGame, SolverError, ToBank, ToNode, View, check_rules,
                                  view_hands)
from evaluate.solver.lp import solve_equilibrium
from evaluate.solver.policies import Dist, SolverPolicy, TabularPolicy, as_policy
from evaluate.solver.recall import solve_perfect_recall

__all__ = [
    "BankOutcomes", "BestResponse", "Equilibrium", "Evaluation", "Exploitability", "SolverError",
    "bank_best_response", "best_response", "equilibrium", "evaluate", "evaluate_policies",
    "exploitability", "exploitability_of", "make_game", "player_best_response",
]

Composition = Sequence[int] | Mapping[str, int] | str | None
_TIE = 1e-12


def make_game(rules: Rules | str, composition: Composition = None,
              policies: Sequence[SolverPolicy] = (), stakes: str = "free",
              jackpot: int | None = None, recall: str = "perfect") -> HeadsUpGame:
    """The game for ``rules`` and ``composition``, merging figures when every policy allows.

    ``jackpot``: chips in the pot before this hand's ante (default 0; see
    :class:`~evaluate.solver.game.HeadsUpGame`). ``recall``: ``"perfect"``
    (RULES.md §8.10, the real game) or ``"forgetful"`` (the bank sees only
    the finished hand's view).
    """
    merge = all(p.figure_symmetric for p in policies)
    return HeadsUpGame(rules, composition, merge_figures=merge, stakes=stakes, jackpot=jackpot,
                       recall=recall)


def game_for(game: HeadsUpGame, *policies: SolverPolicy) -> HeadsUpGame:
    """The smallest twin of ``game`` in which every one of ``policies`` is played exactly.

    Policies that never look at the order of play meet in the forgetful
    twin: there the histories that lead to one summary are merged, which
    changes nothing when nobody reads them (a best response *to* such
    policies included: what the responder could learn from the order is
    worth nothing against an opponent that ignores it). A policy that
    remembers some histories (a strategy of a partial-recall game of
    :mod:`evaluate.solver.recall`) needs those kept; one that remembers all
    (an information-state agent) needs the whole perfect-recall tree.
    """
    if game.recall == "forgetful":
        return game
    if all(p.forgets for p in policies):
        return game.twin("forgetful")
    memories = [p.memory for p in policies if not p.forgets]
    if any(m is None for m in memories):
        return game.twin("perfect", game.memory)
    union: frozenset[tuple] = frozenset().union(*[m for m in memories if m is not None])
    if game.memory is not None:
        union &= game.memory
    return game.twin("perfect", union)


# --------------------------------------------------------------------- bank side
def _legal(stand_ok: bool, hit_ok: bool) -> list[int]:
    return ([A.STAND] if stand_ok else []) + ([A.HIT] if hit_ok else [])


class BankOutcomes:
    """Distribution of the bank's result (:data:`NUM_RESULTS` entries) per finished hand.

    :meth:`compute` plays the bank policy forward over its multisets ``B``
    for many finished hands at once: ``reach[B]`` is a vector (list) over
    the hands, since the bank's choice at ``(view, B)`` is the same whatever the
    player's hidden card, and only the chance of each card differs (the shoe
    less each hand). Hands are batched by view, or, when the policy ignores
    the view, by what its legal actions depend on (cards out, a declared 7½
    to chase), so each decision is asked for once per batch.
    """

    def __init__(self, game: HeadsUpGame, policy: SolverPolicy) -> None:
        self.game = game
        self.policy = policy

    def compute(self, ends: Sequence[tuple[View, int]], weights: np.ndarray | None = None,
                record: dict[tuple, float] | None = None) -> dict[tuple[View, int], np.ndarray]:
        """``{(view, hand): outcome distribution}``; ``record`` gets ``Σ weight · P(view, B)``.

        ``weights`` (the chance of each finished hand) are needed with ``record`` only.
        """
        g = self.game
        chase = g.rules.bank_must_chase_declared
        groups: dict[tuple, dict[int, list[int]]] = {}
        for k, (view, hand) in enumerate(ends):
            if self.policy.bank_uses_view or record is not None:
                key: tuple = (view,)
            else:
                key = (None, g.ms.size[hand], view.status == DECLARED and chase)
            groups.setdefault(key, {}).setdefault(hand, []).append(k)
        out: dict[tuple[View, int], np.ndarray] = {}
        batched = getattr(self.policy, "view_outcomes", None)
        if batched is not None and record is None:  # the policy plays many views at once
            items = [(key[0], list(by_hand)) for key, by_hand in groups.items()]
            for (view, hands), dist in zip(items, batched(g, items)):
                for i, h in enumerate(hands):
                    for k in groups[(view,)][h]:
                        out[ends[k]] = dist[i]
            return out
        for key, by_hand in groups.items():
            hands = list(by_hand)
            view = key[0] if key[0] is not None else ends[by_hand[hands[0]][0]][0]
            w = None
            if record is not None:
                if weights is None:
                    raise ValueError("BankOutcomes.compute: record needs the weights of the ends")
                w = np.array([sum(weights[k] for k in by_hand[h]) for h in hands])
            dist = self._play(view, hands, w, record)
            for i, h in enumerate(hands):
                for k in by_hand[h]:
                    out[ends[k]] = dist[i]
        return out

    def _play(self, view: View, hands: list[int], weight: np.ndarray | None,
              record: dict[tuple, float] | None) -> np.ndarray:
        g = self.game
        ms = g.ms
        add, total, tuples, size = ms.add, ms.total, ms.tuples, ms.size
        k = len(hands)
        left = [g.remaining(h)[0] for h in hands]
        n = g.num_cards - size[hands[0]]
        out = [[0.0] * NUM_RESULTS for _ in hands]
        reach: dict[int, list[float]] = {}
        for c in range(g.num_classes):
            probs = [lh[c] / n for lh in left]
            if max(probs) > 0.0:
                reach[add[ms.empty][c]] = probs
        heap = list(reach)
        heapq.heapify(heap)
        policy = self.policy
        classes = range(g.num_classes)
        while heap:
            b = heapq.heappop(heap)
            r = reach.pop(b)
            if record is not None:
                key = (view, b)
                record[key] = record.get(key, 0.0) + float(weight @ np.array(r))
            legal = _legal(*g.bank_legal(view, b))
            for a, pa in policy.bank(g, view, b, legal):
                if pa <= 0.0:
                    continue
                rp = [x * pa for x in r]
                if a == A.STAND:
                    res = g.bank_result(b)
                    for i in range(k):
                        out[i][res] += rp[i]
                    continue
                tb = tuples[b]
                nb = n - size[b]
                for c in classes:
                    p = [x * (lh[c] - tb[c]) / nb if lh[c] > tb[c] else 0.0
                         for x, lh in zip(rp, left)]
                    if max(p) <= 0.0:
                        continue
                    child = add[b][c]
                    if child == BUST or total[child] == SEVEN_AND_HALF:
                        res = BANK_BUST if child == BUST else g.bank_result(child)
                        for i in range(k):
                            out[i][res] += p[i]
                    elif child in reach:
                        acc = reach[child]
                        for i in range(k):
                            acc[i] += p[i]
                    else:
                        reach[child] = p
                        heapq.heappush(heap, child)
        return np.array(out)


# --------------------------------------------------------------------- evaluation
class _BankSide:
    """``chips_ev`` defaults to ``ev`` (no jackpot); the bank's EV is minus the chips."""

    ev: float
    chips_ev: float | None

    def __post_init__(self) -> None:
        if self.chips_ev is None:
            self.chips_ev = self.ev

    def _chips(self) -> float:
        """``chips_ev``, which ``__post_init__`` has set."""
        return self.ev if self.chips_ev is None else self.chips_ev

    @property
    def bank_ev(self) -> float:
        """The bank's expected net win per hand (units): ``-chips_ev``; the pot is not its."""
        return -float(self._chips())


@dataclass
class Evaluation(_BankSide):
    """Exact EV of a policy pair and how it comes about (probabilities of one hand)."""

    ev: float
    """Player's expected net win per hand, in units of ``min_bet``: the chips won from the
    bank, less the ante, plus the pot when it takes the jackpot (without a jackpot the
    bank's EV is ``-ev``)."""
    player_bust: float
    """Probability that the player busts."""
    player_win: float
    """Probability that the player's hand is paid."""
    bank_bust: float
    """Probability that the bank plays and busts."""
    expected_stake: float
    """Expected stake, in units of ``min_bet``."""
    game: HeadsUpGame = field(repr=False)
    """The game it was computed in."""
    player_reach: dict[tuple, float] = field(default_factory=dict, repr=False)
    """Probability of each player decision node (filled with ``record=True``)."""
    bank_reach: dict[tuple, float] = field(default_factory=dict, repr=False)
    """Probability of each bank decision ``(view, B)`` (filled with ``record=True``)."""
    chips_ev: float | None = None
    """Chips the player wins from the bank per hand (units; ``Z``), ante and pot left out."""
    jackpot_win: float = 0.0
    """Probability that the player's natural takes the jackpot (the bank short of 7½)."""



@dataclass
class _Forward:
    ends: dict[tuple[View, int], float]
    bust_prob: float
    bust_payoff: float
    stake: float
    reach: dict[tuple, float]


def _player_forward(game: HeadsUpGame, policy: SolverPolicy, record: bool) -> _Forward:
    """Play the player's policy forward: finished hands ``(view, hand) -> probability``."""
    reach: dict[tuple, float] = {}
    heap: list[tuple[tuple, tuple]] = []
    for p, node in game.root_nodes():
        reach[node] = reach.get(node, 0.0) + p
        heapq.heappush(heap, (game.node_order(node), node))
    seen_reach: dict[tuple, float] = {}
    ends: dict[tuple[View, int], float] = {}
    bust_prob = bust_payoff = stake = 0.0
    visited = 0
    while heap:
        _key, node = heapq.heappop(heap)
        r = reach.pop(node)
        if record:
            seen_reach[node] = r
        actions = game.player_actions(node)
        by_action = dict(actions)
        for a, pa in policy.player(game, node, [a for a, _o in actions]):
            if pa <= 0.0:
                continue
            for o in by_action[a]:
                w = r * pa * o.prob
                if isinstance(o, ToNode):
                    if o.node not in reach:
                        reach[o.node] = 0.0
                        heapq.heappush(heap, (game.node_order(o.node), o.node))
                        visited += 1
                        if visited > MAX_NODES:
                            raise game.too_large(f"the play of {policy.name}")
                    reach[o.node] += w
                elif isinstance(o, ToBank):
                    key = (o.view, o.hand)
                    ends[key] = ends.get(key, 0.0) + w
                    stake += w * o.view.stake
                else:
                    bust_prob += w
                    bust_payoff -= w * node[3]
                    stake += w * node[3]
    return _Forward(ends, bust_prob, bust_payoff, stake, seen_reach)


def player_forward(game: HeadsUpGame, policy: SolverPolicy) -> _Forward:
    """The player's ``policy`` played forward in ``game``: ``ends`` maps each finished hand
    ``(view, hand)`` to its probability; ``bust_payoff`` is the payoff of its busts."""
    return _player_forward(game, policy, record=False)


def view_response(game: HeadsUpGame, view: View, hands: list[tuple[int, float]]) -> float:
    """``Σ_H ρ_H u_H`` when the bank best-responds at ``view`` to ``hands`` = ``[(H, ρ_H)]``,
    on the player's own payoff (the zero-sum game of the equilibrium LP)."""
    return _bank_view_response(game, view, hands, {}, own=True)


def _payoffs(game: HeadsUpGame, ends: Sequence[tuple[View, int]],
             own: bool = False) -> np.ndarray:
    """Payoff rows of finished hands against each bank result.

    The chips the player wins from the bank (``payoff_row``), or with
    ``own=True`` the player's own payoff less the ante (``player_row``: the
    pot added for a natural the bank does not match).
    """
    row_of = game.player_row if own else game.payoff_row
    rows: dict[tuple[int, int], list[float]] = {}
    for view, hand in ends:
        if (hand, view.stake) not in rows:
            rows[(hand, view.stake)] = row_of(hand, view.stake)
    return np.array([rows[(hand, view.stake)] for view, hand in ends]).reshape(
        len(ends), NUM_RESULTS)


def evaluate_policies(game: HeadsUpGame, player: SolverPolicy, bank: SolverPolicy,
                      record: bool = False) -> Evaluation:
    """Exact EV of two solver policies in ``game`` (see :func:`evaluate`).

    The player's policy is played forward over its nodes; each finished hand
    meets the bank's policy (:class:`BankOutcomes`); the EV sums
    probability x payoff over bust hands and the bank's results.
    """
    game = game_for(game, player, bank)
    fw = _player_forward(game, player, record)
    ends = list(fw.ends)
    weights = np.array([fw.ends[e] for e in ends])
    bank_reach: dict[tuple, float] = {}
    dists = BankOutcomes(game, bank).compute(ends, weights, bank_reach if record else None)
    dist = np.array([dists[e] for e in ends]).reshape(len(ends), NUM_RESULTS)
    rows = _payoffs(game, ends)
    chips = fw.bust_payoff + float(weights @ (rows * dist).sum(axis=1))
    win = float(weights @ (dist * (rows > 0)).sum(axis=1))
    bank_bust = float(weights @ dist[:, BANK_BUST])
    natural = np.array([game.is_natural(hand) for _view, hand in ends], dtype=float)
    short = 1.0 - dist[:, SEVEN_AND_HALF] - dist[:, SEVEN_MULTI] if len(ends) else 0.0
    jackpot = float(weights @ (natural * short)) if len(ends) else 0.0
    ev = chips - game.ante + game.pot * jackpot
    return Evaluation(ev, fw.bust_prob, win, bank_bust, fw.stake, game, fw.reach, bank_reach,
                      chips, jackpot)


def evaluate(rules: Rules | str, player: Any, bank: Any, composition: Composition = None,
             record: bool = False, jackpot: int | None = None,
             recall: str = "perfect") -> Evaluation:
    """Exact EV of ``player`` against ``bank`` for one hand of ``rules`` from ``composition``.

    ``composition`` is the shoe (default: full; see
    :func:`~evaluate.solver.game.parse_composition`). The policies' bets and
    raises are followed. ``record=True`` also returns the probability of every
    decision node (for strategy tables). ``jackpot`` is the pot before this
    hand's ante, in chips (default 0; only with ``jackpot_ante`` > 0).
    """
    rules = check_rules(rules)
    p, b = as_policy(player, rules, "player"), as_policy(bank, rules, "bank")
    game = make_game(rules, composition, (p, b), jackpot=jackpot, recall=recall)
    return evaluate_policies(game, p, b, record)


# --------------------------------------------------------------------- best responses
@dataclass
class BestResponse:
    """A best response of ``role`` to a fixed policy of the other role."""

    role: str
    value: float
    """What the responder optimises, player's view (units), when it best-responds: the
    player's own EV (jackpot and ante included) for the player; the chips the player wins
    from the bank (minus the bank's EV) for the bank."""
    baseline: float | None
    """The same for the policy it replaces, if one was given."""
    strategy: TabularPolicy
    game: HeadsUpGame

    @property
    def own_value(self) -> float:
        """The responder's own EV per hand with its best response."""
        return self.value if self.role == "player" else -self.value

    @property
    def gain(self) -> float | None:
        """What the responder gains over its baseline (≥ 0), on its own payoff."""
        if self.baseline is None:
            return None
        return self.value - self.baseline if self.role == "player" else self.baseline - self.value


def player_best_response(game: HeadsUpGame, bank: SolverPolicy) -> tuple[float, TabularPolicy]:
    """The player's best response: ``V(x) = max_a Σ_o p(o) V(o)`` over every player node.

    On the player's own payoff: the pot counts for a natural the bank does
    not match; the value is net of the ante. It is computed in the twin of
    ``game`` that keeps what the bank remembers (:func:`game_for`): against
    a bank that ignores some order of play, telling it apart gains nothing.
    """
    game = game_for(game, bank)
    nodes = game.all_player_nodes()
    ends = sorted({(o.view, o.hand) for node in nodes for _a, outs in game.player_actions(node)
                   for o in outs if isinstance(o, ToBank)}, key=lambda e: (_view_key(e[0]), e[1]))
    dists = BankOutcomes(game, bank).compute(ends)
    rows = _payoffs(game, ends, own=True)
    end_value = {e: float(rows[i] @ dists[e]) for i, e in enumerate(ends)}
    values: dict[tuple, float] = {}
    table: dict[tuple, Dist] = {}
    for node in reversed(nodes):
        best_a, best_v = -1, 0.0
        for a, outs in game.player_actions(node):
            v = 0.0
            for o in outs:
                if isinstance(o, ToNode):
                    v += o.prob * values[o.node]
                elif isinstance(o, ToBank):
                    v += o.prob * end_value[(o.view, o.hand)]
                else:
                    v -= o.prob * node[3]
            if best_a < 0 or v > best_v + _TIE:
                best_a, best_v = a, v
        values[node] = best_v
        table[node] = [(best_a, 1.0)]
    total = sum(p * values[node] for p, node in game.root_nodes()) - game.ante
    return total, TabularPolicy("best response (player)", game, player=table)


def _bank_view_response(game: HeadsUpGame, view: View, hands: list[tuple[int, float]],
                        table: dict[tuple, Dist], own: bool = False) -> float:
    """The bank's best response at every ``(view, B)``; returns ``Σ_H ρ_H · u_H``.

    ``hands`` lists ``(H, ρ(view, H))``. Bottom-up over the bank's multisets,
    the bank picks the action minimising the posterior-weighted payoff
    ``Σ_H ρ_H w_H(B) u_H(B, a)`` (see the module docstring); ``u_H(B)``, a
    vector over the hands (a list: views hold few hands), is the player's
    payoff under that choice: the chips it wins (the bank's own payoff), or
    with ``own=True`` the player's own payoff (``player_row``: the zero-sum
    game the equilibrium LP solves).
    """
    ms = game.ms
    add, total, tuples, size = ms.add, ms.total, ms.tuples, ms.size
    k = len(hands)
    row_of = game.player_row if own else game.payoff_row
    rows = [row_of(h, view.stake) for h, _r in hands]
    left = [game.remaining(h)[0] for h, _r in hands]
    n = game.num_cards - size[hands[0][0]]
    worst = -float(view.stake)
    classes = range(game.num_classes)
    memo: dict[int, list[float]] = {}

    def solve(b: int, w: list[float]) -> list[float]:
        """Payoff vector from ``b`` on; ``w`` = ``ρ_H · w_H(b)`` (order-free chance)."""
        got = memo.get(b)
        if got is not None:
            return got
        stand_ok, hit_ok = game.bank_legal(view, b)
        res = game.bank_result(b)
        stand = [row[res] for row in rows]
        if stand_ok and (not hit_ok or all(v == worst for v in stand)):
            memo[b] = stand
            table[(view, b)] = [(A.STAND, 1.0)]
            return stand
        hit = [0.0] * k
        tb = tuples[b]
        nb = n - size[b]
        for c in classes:
            probs = [(lh[c] - tb[c]) / nb for lh in left]
            if max(probs) <= 0.0:
                continue
            child = add[b][c]
            if child == BUST or total[child] == SEVEN_AND_HALF:
                res = BANK_BUST if child == BUST else game.bank_result(child)
                vals = [row[res] for row in rows]
            else:
                vals = solve(child, [wi * max(p, 0.0) for wi, p in zip(w, probs)])
            for i in range(k):
                if probs[i] > 0.0:
                    hit[i] += probs[i] * vals[i]
        gain = sum(wi * (s - h) for wi, s, h in zip(w, stand, hit))
        if stand_ok and gain <= _TIE * sum(w):
            choice, action = stand, A.STAND
        else:
            choice, action = hit, A.HIT
        table[(view, b)] = [(action, 1.0)]
        memo[b] = choice
        return choice

    value = 0.0
    for c in classes:
        probs = [lh[c] / n for lh in left]
        if max(probs) > 0.0:
            w = [r * p for (_h, r), p in zip(hands, probs)]
            vals = solve(add[ms.empty][c], w)
            value += sum(wi * v for wi, v in zip(w, vals))
    return value


class _LazyBankTable(dict):
    """Bank decisions, filled one view at a time on first use (``view_hands`` prior)."""

    def __init__(self, game: HeadsUpGame) -> None:
        super().__init__()
        self.game = game
        self.views: set[View] = set()

    def __missing__(self, key: tuple) -> Dist:
        view = key[0]
        hands = view_hands(self.game, view)
        if view in self.views or not hands:
            raise KeyError(key)
        self.views.add(view)
        _bank_view_response(self.game, view, hands, self)
        return self[key]


def bank_best_response(game: HeadsUpGame, player: SolverPolicy,
                       by_view: dict[View, float] | None = None
                       ) -> tuple[float, TabularPolicy]:
    """The bank's best response to ``player``: its value (player's view) and strategy.

    The bank's own payoff is the chips it wins from the player; the jackpot
    is not its (it neither antes nor wins the pot), so it minimises the
    chips the player wins (``payoff_row``) and the value is those chips.

    The player's policy gives ``ρ(view, H)``; each view is solved on its own
    (:func:`_bank_view_response`). Views the policy never shows are solved on
    first use, with the chance-only prior of :func:`view_hands`. ``by_view``, if
    given, gets each shown view's share of the value (the chips the player wins
    behind it; :mod:`evaluate.solver.breakdown`).
    """
    fw = _player_forward(game, player, record=False)
    hands_of: dict[View, list[tuple[int, float]]] = {}
    for (view, hand), w in fw.ends.items():
        hands_of.setdefault(view, []).append((hand, w))
    table = _LazyBankTable(game)
    total = fw.bust_payoff
    for view in sorted(hands_of, key=_view_key):
        table.views.add(view)
        value = _bank_view_response(game, view, hands_of[view], table)
        if by_view is not None:
            by_view[view] = value
        total += value
    return total, TabularPolicy("best response (bank)", game, bank=table)


def _view_key(view: View) -> tuple:
    return (view.stake, view.status, view.hidden, view.up, view.hist is not None,
            view.hist or ())


def best_response(rules: Rules | str, role: str, opponent: Any,
                  composition: Composition = None, baseline: Any = None,
                  stakes: str = "free", jackpot: int | None = None,
                  recall: str = "perfect", by_view: dict[View, float] | None = None
                  ) -> BestResponse:
    """Best response of ``role`` (``"player"`` or ``"bank"``) to the other role's ``opponent``.

    With ``recall="perfect"`` (default, RULES.md §8.10) the responder
    remembers the public history: a best-responding bank answers every
    history the player's policy reaches on its own.

    ``baseline``, if given, is the responder's own policy, to report the EV
    it gets (``value`` is always at least as good for the responder).
    ``stakes="fixed"`` restricts the player to the smallest bet and no raises.
    Each role best-responds on its own payoff: the player counts the
    jackpot (``jackpot`` chips before this hand's ante), the bank only chips.
    ``by_view`` (the bank only) gets the best response's value behind each view
    the player shows (:func:`bank_best_response`).
    """
    if role not in ("player", "bank"):
        raise SolverError(f"role {role!r}; choose 'player' or 'bank'")
    if by_view is not None and role != "bank":
        raise SolverError("by_view splits a bank's best response by the player's views; "
                          "the player's has no views to split by (role 'bank' only)")
    rules = check_rules(rules)
    opp = as_policy(opponent, rules, "bank" if role == "player" else "player")
    base = as_policy(baseline, rules, role) if baseline is not None else None
    game = make_game(rules, composition, (opp,) if base is None else (opp, base), stakes,
                     jackpot, recall)
    if role == "player":
        value, strategy = player_best_response(game, opp)
        base_ev = None if base is None else evaluate_policies(game, base, opp).ev
    else:
        value, strategy = bank_best_response(game, opp, by_view)
        base_ev = None if base is None else evaluate_policies(game, opp, base).chips_ev
    return BestResponse(role, value, base_ev, strategy, game)


# --------------------------------------------------------------------- exploitability
@dataclass
class Exploitability(_BankSide):
    """How much each role gains by best-responding to the other's policy, on its own payoff.

    Without a jackpot the game is zero-sum and ``chips_ev == ev``. With one
    the player's payoff is the chips it wins from the bank plus the pot it
    may take, less the ante, and the bank's is minus the chips: each gain is
    measured on the gainer's own payoff, and ``total`` is their sum
    (NashConv), 0 exactly at a Nash equilibrium of the general-sum game.
    """

    ev: float
    """The player's EV of the pair (units; jackpot and ante included)."""
    player_best: float
    """``max_x u_player(x, bank)``: the player's best-response value (own payoff)."""
    bank_best: float
    """``min_y Z(player, y)``: the chips the player wins when the bank best-responds
    (player's view: minus the bank's best-response value)."""
    game: HeadsUpGame = field(repr=False)
    """The game it was computed in."""
    player_response: TabularPolicy = field(repr=False)
    """The player's best response to the bank's policy."""
    bank_response: TabularPolicy = field(repr=False)
    """The bank's best response to the player's policy."""
    chips_ev: float | None = None
    """Chips the player wins from the bank with the pair (units): minus the bank's EV."""


    @property
    def player_gain(self) -> float:
        """What the player gains by best-responding (≥ 0), on its own payoff."""
        return self.player_best - self.ev

    @property
    def bank_gain(self) -> float:
        """What the bank gains by best-responding (≥ 0), on its own payoff."""
        return float(self._chips()) - self.bank_best

    @property
    def total(self) -> float:
        """NashConv: ``player_gain + bank_gain`` (0 exactly at a Nash equilibrium)."""
        return self.player_gain + self.bank_gain


def exploitability_of(game: HeadsUpGame, player: SolverPolicy,
                      bank: SolverPolicy) -> Exploitability:
    """Exploitability of two solver policies in ``game`` (see :class:`Exploitability`)."""
    ev = evaluate_policies(game, player, bank)
    vp, player_response = player_best_response(game, bank)
    vb, bank_response = bank_best_response(game, player)
    return Exploitability(ev.ev, vp, vb, game, player_response, bank_response, ev.chips_ev)


def exploitability(rules: Rules | str, player: Any, bank: Any,
                   composition: Composition = None, stakes: str = "free",
                   jackpot: int | None = None, recall: str = "perfect") -> Exploitability:
    """Exploitability of the pair (``player``, ``bank``); see :class:`Exploitability`.

    ``recall="perfect"`` (default): each best response remembers the public
    history (RULES.md §8.10); ``"forgetful"``: the bank sees only the finished hand's view.

    With ``stakes="free"`` a best-responding player may bet and raise as the
    rules allow; ``"fixed"`` holds it to the smallest bet. ``jackpot``: the
    pot before this hand's ante, in chips (default 0).
    """
    rules = check_rules(rules)
    p, b = as_policy(player, rules, "player"), as_policy(bank, rules, "bank")
    game = make_game(rules, composition, (p, b), stakes, jackpot, recall)
    return exploitability_of(game, p, b)


@dataclass
class Equilibrium:
    """Equilibrium value and strategies of the heads-up hand, with their own check.

    With a jackpot the strategies solve the zero-sum game on the player's
    payoff (the bank as a spoiler of the pot too); ``check`` measures them
    on each party's own payoff and ``certified`` says whether they are a
    Nash equilibrium of the real, general-sum hand (see :func:`equilibrium`).
    """

    value: float
    """The player's EV per hand with these strategies (units of ``min_bet``; the pot and
    the ante included): the game value when it is zero-sum."""
    player: TabularPolicy
    bank: TabularPolicy
    game: HeadsUpGame
    check: Exploitability
    """Exploitability of the returned strategies, recomputed by the best-response code."""
    size: dict[str, int]
    """LP size: player sequences, bank decisions, non-zeros, and the method's own counts."""
    seconds: float
    """Wall time of the solve (every LP and refinement round; the check not included)."""
    method: str = "cuts"
    """How the LP was solved: ``"cuts"`` (view-decomposed, default) or ``"full"``."""
    gap: float = 0.0
    """Upper minus lower bound on the value when the solver stopped."""
    recall: str = "perfect"
    """The game solved: ``"perfect"`` (RULES.md §8.10) or ``"forgetful"``."""
    rounds: list[Any] = field(default_factory=list)
    """With perfect recall: each partial-recall game solved on the way
    (:class:`~evaluate.solver.recall.RefinementRound`)."""

    @property
    def bank_value(self) -> float:
        """The bank's own EV per hand with these strategies (minus the chips it pays)."""
        return self.check.bank_ev

    @property
    def certified(self) -> bool:
        """Whether the best-response check finds no gain for either party (a Nash equilibrium
        of the real game, NashConv at most :data:`NASH_TOLERANCE`)."""
        return abs(self.check.total) <= NASH_TOLERANCE


NASH_TOLERANCE = 1e-9
"""NashConv (units per hand) below which a strategy pair is reported as an equilibrium."""


def equilibrium(rules: Rules | str, composition: Composition = None,
                stakes: str = "free", method: str = "cuts",
                jackpot: int | None = None,
                progress: Callable[[str], None] | None = None,
                recall: str = "perfect", time_limit: float | None = None) -> Equilibrium:
    """Equilibrium of the heads-up hand by the sequence-form LP (:mod:`evaluate.solver.lp`).

    ``recall="perfect"`` (default; RULES.md §8.10) solves the game in which
    both seats remember the public history: the LP is solved on
    partial-recall games whose memory grows until the perfect-recall
    NashConv is below :data:`NASH_TOLERANCE` (:mod:`evaluate.solver.recall`);
    ``time_limit`` (seconds) stops it early with exact bounds (``gap``).
    ``recall="forgetful"`` solves the smaller game in which the bank sees
    only the finished hand's view (and ``method`` picks how its LP is
    solved). Either way the strategies are rechecked by exact best responses
    in the game asked for (``check``).

    ``stakes="free"`` (default) makes bets and raises decisions, as in the
    engine; ``"fixed"`` solves per unit stake (the smallest bet, no raises).
    ``method="cuts"`` (default) solves the LP decomposed by the bank's views,
    generating its rows; ``"full"`` writes the whole sequence-form LP (same
    value; practical on small forgetful games only).

    With a jackpot (``jackpot_ante`` > 0; ``jackpot`` chips in the pot
    before this hand's ante) the hand is general-sum: the bank only cares
    about chips. The LP solves the zero-sum game on the *player's* payoff,
    as if the bank also wanted to spoil the pot; then ``check`` best-responds
    on each party's own payoff. The player's strategy is then a best
    response by construction (same payoff); the bank's is one exactly when,
    at every decision it reaches, the action that best keeps the pot from a
    natural is also chip-optimal. See the module
    docstring (*The jackpot*) for when that holds; ``certified`` reports
    it, and ``check`` gives the NashConv when it does not.

    ``progress(message)`` hears what is being done (the rounds, the check).
    """
    game = make_game(rules, composition, (), stakes, jackpot, recall)
    start = time.perf_counter()
    rounds: list[Any] = []
    if recall == "perfect":
        if method != "cuts":
            raise SolverError(f"method={method!r} solves the forgetful game only; the "
                              f"perfect-recall equilibrium is refined with 'cuts'")
        refined = solve_perfect_recall(game, progress, time_limit)
        sol = refined.solution
        rounds = refined.rounds
        size = dict(sol.size, remembered_histories=len(refined.memory), rounds=len(rounds))
    else:
        sol = solve_equilibrium(game, method, progress)
        size = sol.size
    seconds = time.perf_counter() - start
    if progress is not None:
        progress("checking the strategies with exact best responses")
    check = exploitability_of(game, sol.player, sol.bank)
    return Equilibrium(sol.value - game.ante, sol.player, sol.bank, game, check, size,
                       seconds, sol.method, sol.gap if recall == "forgetful"
                       else refined.gap, recall, rounds)
