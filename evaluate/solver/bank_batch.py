"""The bank's play behind one view, every hand and every bank hand of a level at once.

An agent asked as the bank (:class:`~evaluate.solver.observed.InformationStatePolicy`)
meets, behind each view of the player's play, every bank hand ``B`` its own
choices reach: on a full shoe of ``catalan`` behind ``careful`` some ten
million ``(view, B)`` states, too many to ask one by one.
:func:`view_outcomes` plays the bank forward as
:class:`~evaluate.solver.values.BankOutcomes` does (the same reach, the same
chance of each card from the shoe less each player hand, RULES.md §4.6: the
bank hits until it stands, busts or makes 7½), but for :data:`CHUNK` views
together and a level at a time — every reached ``B`` with the same number of
cards — and asks the agent for a whole level in one call
(:class:`BankDecisions`).

For a network (:class:`agents.learned.LearnedAgent`) a level costs no vector
at all: the first layer is linear, and the spliced vector
(:class:`~evaluate.solver.observed.SplicedBankStates`) differs from its view's
template only in the bank's own part and the shared counts, so its
pre-activation is the template's plus the bank part's, each computed once
(per view; per ``B`` and history slot). The sums come in another order than
in :meth:`LearnedAgent.act`, so they may differ in the last bits: where the
two legal logits are closer than :data:`TIE_MARGIN` the agent's own ``act``
decides on the spliced vector, so every choice is the one ``act`` makes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from envs import actions as A
from evaluate.solver.game import (BANK_BUST, BUST, NUM_RESULTS, SEVEN_AND_HALF, HeadsUpGame,
                                  SolverError, View)

_ACTIVATIONS: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "tanh": np.tanh, "relu": lambda x: np.maximum(x, 0.0)}
"""The first layer's activations the incremental path knows (those of agents.learned; a
network with another is asked key by key)."""

TIE_MARGIN = 1e-7
"""Logits closer than this (relative to their size) are decided by the agent's ``act``: the
incremental sums differ from ``act``'s by rounding only, many orders of magnitude less."""


class _Tree:
    """The game's bank hands as arrays: cards per class, size, result, children."""

    def __init__(self, game: HeadsUpGame) -> None:
        ms = game.ms
        self.tuples = np.array(ms.tuples, dtype=np.float64)
        self.size = np.array(ms.size)
        self.add = np.array(ms.add)
        total = np.array(ms.total)
        self.result = np.array([game.bank_result(m) for m in range(len(ms.size))])
        self.stops = total == SEVEN_AND_HALF


CHUNK = 128
"""Views played together (their bank hands of one level decided in one call)."""


def view_outcomes(game: HeadsUpGame, items: Sequence[tuple[View, list[int]]],
                  decisions: "BankDecisions") -> list[np.ndarray]:
    """For each ``(view, hands)`` of ``items`` the distribution of the bank's result
    (``(len(hands), NUM_RESULTS)``) behind ``view`` for each player hand of ``hands`` (all
    of one size), the bank playing ``decisions``; :data:`CHUNK` views at a time."""
    out: list[np.ndarray] = []
    for at in range(0, len(items), CHUNK):
        out += _chunk_outcomes(game, items[at:at + CHUNK], decisions)
    return out


def _chunk_outcomes(game: HeadsUpGame, items: Sequence[tuple[View, list[int]]],
                    decisions: "BankDecisions") -> list[np.ndarray]:
    tree = decisions.tree(game)
    views = [view for view, _hands in items]
    width = max(len(hands) for _view, hands in items)
    # the shoe less each player hand, per view, class and hand (no hand: nothing left)
    left = np.zeros((len(items), game.num_classes, width))
    for v, (_view, hands) in enumerate(items):
        left[v, :, :len(hands)] = np.array([game.remaining(h)[0] for h in hands]).T
    cards = np.array([game.num_cards - game.ms.size[hands[0]] for _view, hands in items])
    out = np.zeros((len(items), NUM_RESULTS, width))
    # the bank's first card
    vid = np.repeat(np.arange(len(items)), game.num_classes)
    ids = np.tile(tree.add[game.ms.empty], len(items))
    reach = (left / cards[:, None, None]).reshape(-1, width)
    keep = reach.max(axis=1) > 0.0
    vid, ids, reach = vid[keep], ids[keep], reach[keep]
    while ids.size:
        hit = decisions.decide(game, views, vid, ids) == A.HIT
        stand = ~hit
        np.add.at(out, (vid[stand], tree.result[ids[stand]]), reach[stand])
        vid, ids, reach = vid[hit], ids[hit], reach[hit]
        if not ids.size:
            break
        # the next card, of each class c: (n_c - b_c) / (cards left) from the shoe less H
        drawn = (cards[vid] - tree.size[ids]).astype(np.float64)
        avail = np.maximum(left[vid] - tree.tuples[ids][:, :, None], 0.0)
        p = (reach[:, None, :] * avail / drawn[:, None, None]).reshape(-1, width)
        child = tree.add[ids].ravel()
        vid = np.repeat(vid, game.num_classes)
        live = p.max(axis=1) > 0.0
        vid, child, p = vid[live], child[live], p[live]
        bust = child == BUST
        np.add.at(out, (vid[bust], BANK_BUST), p[bust])
        vid, child, p = vid[~bust], child[~bust], p[~bust]
        made = tree.stops[child]
        np.add.at(out, (vid[made], tree.result[child[made]]), p[made])
        vid, child, p = vid[~made], child[~made], p[~made]
        keys, where = np.unique(vid * len(tree.size) + child, return_inverse=True)
        vid, ids = keys // len(tree.size), keys % len(tree.size)
        reach = np.zeros((len(keys), width))
        np.add.at(reach, where, p)
    return [out[v, :, :len(hands)].T for v, (_view, hands) in enumerate(items)]


class BankDecisions:
    """An agent's choices at many ``(view, B)`` at once.

    ``state(view, B, legal)`` gives the agent's vector at a key; for a
    :class:`~agents.learned.LearnedAgent` the logits come from the first layer's
    pre-activation built incrementally (module docstring) from ``spliced``, the
    :class:`~evaluate.solver.observed.SplicedBankStates` behind ``state``; an agent
    with a batch kernel (:func:`agents.batch_policies.batch_policy`: ``careful``,
    ``reader``, which choose there what their ``act`` chooses) is given a level's
    vectors in one call; any other agent is asked with ``act`` at each key.
    """

    def __init__(self, agent: Any, state: Callable[[View, int, list[int]], np.ndarray],
                 spliced: Any) -> None:
        from agents.batch_policies import batch_policy

        self.agent = agent
        self.state = state
        self.spliced = spliced
        self.queries = 0
        """How many ``(view, B)`` were decided."""
        self._tree: tuple[HeadsUpGame, _Tree] | None = None
        self._network = _Network.of(agent, spliced)
        self._kernel = batch_policy(agent) if self._network is None else None

    def tree(self, game: HeadsUpGame) -> _Tree:
        if self._tree is None or self._tree[0] is not game:
            self._tree = (game, _Tree(game))
        return self._tree[1]

    def decide(self, game: HeadsUpGame, views: list[View], vid: np.ndarray, ids: np.ndarray
               ) -> np.ndarray:
        """The agent's action at ``(views[vid[i]], ids[i])`` for every ``i`` (bank hands of
        one size: what is legal depends on the view only)."""
        self.queries += len(ids)
        stand_ok = np.zeros(len(views), dtype=bool)
        hit_ok = np.zeros(len(views), dtype=bool)
        for v, i in zip(*np.unique(vid, return_index=True)):
            stand_ok[v], hit_ok[v] = game.bank_legal(views[v], int(ids[i]))
        actions = np.where(stand_ok[vid], A.STAND, A.HIT).astype(np.int64)
        unsure = np.arange(len(ids))
        if self._network is not None:  # a forced action needs no network
            both = np.flatnonzero(stand_ok[vid] & hit_ok[vid])
            chosen, close = self._network.decide(views, vid[both], ids[both])
            actions[both] = chosen
            unsure = both[close]
        if not unsure.size:
            return actions
        moves = [[A.STAND] * bool(stand_ok[v]) + [A.HIT] * bool(hit_ok[v])
                 for v in range(len(views))]
        masks = np.zeros((len(views), game.layout.size), dtype=np.int8)
        for v, legal in enumerate(moves):
            masks[v, legal] = 1
        vectors = [self.state(views[int(vid[i])], int(ids[i]), moves[int(vid[i])])
                   for i in unsure]
        if self._kernel is not None:
            chosen = np.asarray(self._kernel.act_batch(np.stack(vectors), masks[vid[unsure]]))
        else:
            chosen = np.array([int(self.agent.act(x, masks[vid[i]]))
                               for x, i in zip(vectors, unsure)], dtype=np.int64)
        names = game.layout.names
        known = (chosen >= 0) & (chosen < len(names))
        illegal = np.flatnonzero(~known | (masks[vid[unsure], np.where(known, chosen, 0)] == 0))
        if illegal.size:
            i, action = unsure[illegal[0]], int(chosen[illegal[0]])
            raise SolverError(f"agent {getattr(self.agent, 'spec', self.agent)!r} chose the "
                              f"illegal action {names[action] if known[illegal[0]] else action}; "
                              f"legal: " + ", ".join(names[a] for a in moves[int(vid[i])]))
        actions[unsure] = chosen
        return actions


class _Network:
    """A :class:`~agents.learned.LearnedAgent`'s logits at spliced bank states, the first
    layer built incrementally (module docstring)."""

    BASES = 4 * CHUNK
    """Views whose template pre-activation is kept."""

    def __init__(self, agent: Any, spliced: Any) -> None:
        from agents.learned import LearnedAgent

        weight, bias, activation = agent.layers[0]
        self.spliced = spliced
        self.weight = weight
        self.bias = bias
        self.activation = _ACTIVATIONS[activation] if activation is not None else None
        self.tail = LearnedAgent(agent.layers[1:], weight.shape[1])
        """The layers after the first."""
        self._bases: dict[View, np.ndarray] = {}
        self._parts: dict[int, tuple[np.ndarray, np.ndarray]] = {}

    @classmethod
    def of(cls, agent: Any, spliced: Any) -> "_Network | None":
        from agents.learned import LearnedAgent

        if type(agent) is not LearnedAgent or spliced is None or len(agent.layers) < 2 \
                or agent.layers[0][2] not in (None, *_ACTIVATIONS):
            return None
        return cls(agent, spliced)

    def _base(self, view: View) -> np.ndarray:
        """The template's pre-activation less its bank part's."""
        got = self._bases.get(view)
        if got is not None:
            return got
        if len(self._bases) >= self.BASES:
            self._bases.clear()
        s = self.spliced
        t = s.template(view)
        x = t.vector.astype(np.float64)
        base = x @ self.weight + self.bias - self._part(t.bank, t.first)
        base -= x[s.shoe_index] * self.weight[s.shoe_index]
        self._bases[view] = base
        return base

    def _part(self, bank: int, first: int) -> np.ndarray:
        """What the bank's own part and its seen cards add, its history from slot ``first``."""
        columns, values = self.spliced.bank_entries(bank, first)
        return values.astype(np.float64) @ self.weight[columns]

    def _parts_at(self, ids: np.ndarray, first: int) -> np.ndarray:
        """:meth:`_part` of each bank hand of ``ids`` (rows), kept by history slot."""
        got = self._parts.get(first)
        if got is None:
            count = len(self.spliced.game.ms.size)
            got = self._parts[first] = (np.zeros(count, dtype=bool),
                                        np.zeros((count, self.weight.shape[1])))
        known, parts = got
        for b in ids[~known[ids]]:
            parts[b] = self._part(int(b), first)
            known[b] = True
        return parts[ids]

    def decide(self, views: list[View], vid: np.ndarray, ids: np.ndarray
               ) -> tuple[np.ndarray, np.ndarray]:
        """Stand or hit at ``(views[vid[i]], ids[i])``, and the rows too close to call."""
        s = self.spliced
        present = np.unique(vid)
        templates = {int(v): s.template(views[v]) for v in present}
        pre = np.empty((len(ids), self.weight.shape[1]))
        first = np.array([templates[int(v)].first for v in vid])
        for f in np.unique(first):
            rows = np.flatnonzero(first == f)
            pre[rows] = self._parts_at(ids[rows], int(f))
        bases = np.zeros((len(views), self.weight.shape[1]))
        left = np.zeros(len(views), dtype=np.int64)
        for v in present:
            bases[v] = self._base(views[v])
            left[v] = templates[int(v)].cards_left
        pre += bases[vid]
        pre += s.shoe_values(left[vid], ids).astype(np.float64)[:, None] \
            * self.weight[s.shoe_index]
        if self.activation is not None:
            pre = self.activation(pre)
        logits = self.tail.logits(pre)[:, [A.STAND, A.HIT]]
        actions = np.where(logits[:, 1] > logits[:, 0], A.HIT, A.STAND).astype(np.int64)
        gap = np.abs(logits[:, 0] - logits[:, 1])
        unsure = np.flatnonzero(gap <= TIE_MARGIN * (1.0 + np.abs(logits).max(axis=1)))
        return actions, unsure
