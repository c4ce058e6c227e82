"""The bank's play behind one view, every hand and every bank hand of a level at once.

An agent asked as the bank (:class:`~evaluate.solver.observed.InformationStatePolicy`)
meets, behind each view of the player's play, every bank hand ``B`` its own
choices reach: on a full shoe of ``catalan`` behind ``careful`` some ten
million ``(view, B)`` states, too many to ask one by one.
:func:`view_outcomes` plays the bank forward as
:class:`~evaluate.solver.values.BankOutcomes` does (the same reach, the same
chance of each card from the shoe less each player hand, RULES.md §4.6: the
bank hits until it stands, busts or makes 7½), but a level at a time — every
reached ``B`` with the same number of cards together — and asks the agent for
a whole level in one call (:class:`BankDecisions`).

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

from typing import Any

import numpy as np

from envs import actions as A
from evaluate.solver.game import (BANK_BUST, BUST, NUM_RESULTS, SEVEN_AND_HALF, HeadsUpGame,
                                  SolverError, View)

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


def view_outcomes(game: HeadsUpGame, view: View, hands: list[int], decisions: "BankDecisions"
                  ) -> np.ndarray:
    """The distribution of the bank's result (``(len(hands), NUM_RESULTS)``) behind ``view``
    for each player hand of ``hands`` (all of one size), the bank playing ``decisions``."""
    tree = decisions.tree(game)
    left = np.array([game.remaining(h)[0] for h in hands], dtype=np.float64).T  # (C, k)
    n = game.num_cards - game.ms.size[hands[0]]
    k = len(hands)
    out = np.zeros((NUM_RESULTS, k))
    ids = tree.add[game.ms.empty]
    reach = left / n  # (C, k): the bank's first card
    keep = reach.max(axis=1) > 0.0
    ids, reach = ids[keep], reach[keep]
    while ids.size:
        stand_ok, hit_ok = game.bank_legal(view, int(ids[0]))  # a level: one size of hand
        legal = [A.STAND] * stand_ok + [A.HIT] * hit_ok
        hit = decisions.decide(game, view, ids, legal) == A.HIT
        stand = ~hit
        np.add.at(out, tree.result[ids[stand]], reach[stand])
        ids, reach = ids[hit], reach[hit]
        if not ids.size:
            break
        # the next card, of each class c: (n_c - b_c) / (cards left) from the shoe less H
        drawn = n - tree.size[ids[0]]
        avail = np.maximum(left[None, :, :] - tree.tuples[ids][:, :, None], 0.0)
        p = (reach[:, None, :] * avail / drawn).reshape(-1, k)
        child = tree.add[ids].ravel()
        live = p.max(axis=1) > 0.0
        child, p = child[live], p[live]
        bust = child == BUST
        out[BANK_BUST] += p[bust].sum(axis=0)
        child, p = child[~bust], p[~bust]
        made = tree.stops[child]
        np.add.at(out, tree.result[child[made]], p[made])
        ids, where = np.unique(child[~made], return_inverse=True)
        reach = np.zeros((len(ids), k))
        np.add.at(reach, where, p[~made])
    return out.T


class BankDecisions:
    """An agent's choices at many ``(view, B)`` of one level at once.

    ``states`` gives the agent's vector at a key (``bank_state(view, B, legal)``);
    for a :class:`~agents.learned.LearnedAgent` the logits come from the first
    layer's pre-activation built incrementally (module docstring) from
    ``spliced``, the :class:`~evaluate.solver.observed.SplicedBankStates` behind
    ``states``; any other agent is asked with ``act`` at each key.
    """

    def __init__(self, agent: Any, states: Any, spliced: Any) -> None:
        self.agent = agent
        self.states = states
        self.spliced = spliced
        self.queries = 0
        """How many ``(view, B)`` were decided."""
        self._tree: tuple[HeadsUpGame, _Tree] | None = None
        self._network = _Network.of(agent, spliced)

    def tree(self, game: HeadsUpGame) -> _Tree:
        if self._tree is None or self._tree[0] is not game:
            self._tree = (game, _Tree(game))
        return self._tree[1]

    def decide(self, game: HeadsUpGame, view: View, ids: np.ndarray, legal: list[int]
               ) -> np.ndarray:
        """The agent's action at ``(view, B)`` for each ``B`` of ``ids`` (legal: ``legal``)."""
        self.queries += len(ids)
        mask = np.zeros(game.layout.size, dtype=np.int8)
        mask[legal] = 1
        if self._network is not None and len(legal) == 2:
            actions, unsure = self._network.decide(view, ids, legal)
        else:
            actions, unsure = np.zeros(len(ids), dtype=np.int64), np.arange(len(ids))
        for i in unsure:
            action = self.agent.act(self.states.bank_state(view, int(ids[i]), legal), mask)
            if int(action) not in legal:
                names = game.layout.names
                raise SolverError(f"agent {getattr(self.agent, 'spec', self.agent)!r} chose "
                                  f"the illegal action {names[int(action)]}; legal: "
                                  + ", ".join(names[a] for a in legal))
            actions[i] = int(action)
        return actions


class _Network:
    """A :class:`~agents.learned.LearnedAgent`'s logits at spliced bank states, the first
    layer built incrementally (module docstring)."""

    def __init__(self, agent: Any, spliced: Any) -> None:
        from agents.learned import LearnedAgent

        weight, bias, activation = agent.layers[0]
        self.spliced = spliced
        self.weight = weight
        self.bias = bias
        width = weight.shape[1]
        # the layers from the first activation on: an identity layer carries the activation
        # (x @ I + 0 is x to the bit)
        self.tail = LearnedAgent([(np.eye(width), np.zeros(width), activation),
                                  *agent.layers[1:]], width)
        self._view: tuple[View, np.ndarray] | None = None
        self._parts: dict[int, tuple[np.ndarray, np.ndarray]] = {}

    @classmethod
    def of(cls, agent: Any, spliced: Any) -> "_Network | None":
        from agents.learned import LearnedAgent

        if type(agent) is not LearnedAgent or spliced is None:
            return None
        return cls(agent, spliced)

    def _base(self, view: View) -> np.ndarray:
        """The template's pre-activation less its bank part's."""
        if self._view is not None and self._view[0] == view:
            return self._view[1]
        s = self.spliced
        t = s.template(view)
        x = t.vector.astype(np.float64)
        base = x @ self.weight + self.bias - self._part(t.bank, t.first)
        base -= x[s.shoe_index] * self.weight[s.shoe_index]
        self._view = (view, base)
        return base

    def _part(self, bank: int, first: int) -> np.ndarray:
        """What the bank's own part and its seen cards add, its history from slot ``first``."""
        columns, values = self.spliced.bank_entries(bank, first)
        return values.astype(np.float64) @ self.weight[columns]

    def _parts_at(self, ids: np.ndarray, first: int) -> np.ndarray:
        """:meth:`_part` of each bank hand of ``ids`` (rows), kept by history slot."""
        known, parts = self._parts.setdefault(
            first, (np.zeros(len(self.spliced.game.ms.size), dtype=bool),
                    np.zeros((len(self.spliced.game.ms.size), self.weight.shape[1]))))
        for b in ids[~known[ids]]:
            parts[b] = self._part(int(b), first)
            known[b] = True
        return parts[ids]

    def decide(self, view: View, ids: np.ndarray, legal: list[int]
               ) -> tuple[np.ndarray, np.ndarray]:
        """Actions at ``(view, B)`` for ``B`` in ``ids``, and the rows too close to call."""
        s = self.spliced
        t = s.template(view)
        base = self._base(view)
        pre = self._parts_at(ids, t.first) + base
        pre += s.shoe_values(view, ids).astype(np.float64)[:, None] * self.weight[s.shoe_index]
        logits = self.tail.logits(pre)[:, legal]
        actions = np.asarray(legal)[np.argmax(logits, axis=1)]
        gap = np.abs(logits[:, 0] - logits[:, 1])
        unsure = np.flatnonzero(gap <= TIE_MARGIN * (1.0 + np.abs(logits).max(axis=1)))
        return actions, unsure
