"""Agents on the information state, asked for their actions at the solver's states.

An agent trained on the information state (``observation_type=
"information_state"``: the seat's observation followed by the hand's public
history in order, :mod:`envs.information_state`) decides on what the
perfect-recall game's keys hold (RULES.md §8.10): a player node
``(phase, h, up, s, raised, hist)`` and a bank view ``View(up, hidden, status,
stake, hist)`` carry the ordered public history ``hist`` of the hand — the
bet, each raise in its place, each face-up card as it came, each reveal.
:class:`InformationStates` replays that history in a scripted engine hand
(the player's cards dealt in that order, every bet, raise, hit and reveal
stepped at its moment) and asks the engine's
:class:`~envs.information_state.InformationStateObserver` for the vector:
exactly what the ``Player-v0`` / ``Bank-v0`` view with
``observation_type="information_state"`` gives the seat at that point of a
real hand (the views' :func:`~envs.single_seat.fixed_bank_rules`, a fresh
heads-up table, seat 0 playing, seat 1 the bank).
:class:`InformationStatePolicy` asks the agent once per key and caches the
answer; :func:`evaluate.solver.policies.as_policy` returns one for any agent
whose ``observation_type`` is ``"information_state"`` (an observation agent
is asked through :class:`~evaluate.solver.policies.EngineObservations`).

**The bank's own cards.** The solver keys the bank's cards as a multiset: the
best response of the bank, who moves last, does not depend on their order.
An agent's network may. At ``(view, B)`` the bank is shown ``B`` in one
order — its face-down card and then its hits by card class, the order
:class:`~evaluate.solver.policies.EngineObservations` deals them in — so the
values are exact for the policy "the network, shown its own cards in that
order", which is the network itself wherever the order of its own cards does
not change its choice.

Like the observation queries, the vectors need the ten ranks as card classes
(``merge_figures=False``); a smaller shoe counts the cards missing from it as
seen and out of the shoe, in the observation part of the vector.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from envs import actions as A
from envs.cards import NUM_RANKS, RANK_CHARS, SUIT_CHARS
from envs.engine import Engine
from envs.hands import DECLARED
from envs.information_state import InformationStateObserver
from envs.observation import FIELD, GLOBAL_FIELDS, unit_scale
from envs.single_seat import fixed_bank_rules
from evaluate.solver.game import HeadsUpGame, SolverError, View, view_hands
from evaluate.solver.policies import AgentPolicy, Dist, check_engine_agrees


class InformationStates:
    """Information-state vectors of the perfect-recall game's keys, built by the real engine.

    For each key the engine is reset with a stacked deck — the player's
    cards in the order the history dealt them, the bank's face-down card
    second — and the history is stepped (bet, raises, hits, reveals; then the
    stand and the bank's hits for a bank key). The engine's legal actions
    must equal the solver's there (checked; a mismatch raises
    ``SolverError``). The jackpot holds the game's ``jackpot`` chips plus
    this hand's ante.
    """

    def __init__(self, game: HeadsUpGame) -> None:
        if game.merge_figures:
            raise SolverError("information states need the ten ranks as card classes "
                              "(merge_figures=False)")
        if game.recall != "perfect" or game.memory is not None:
            raise SolverError("an information-state agent reads the whole order of play: it "
                              "is asked in the perfect-recall game only (recall='perfect', "
                              "every history kept)")
        self.game = game
        rules = fixed_bank_rules(game.rules)  # the Player and Bank views' table
        self.engine = Engine(rules, 2, max_hands=1)
        self.observer = InformationStateObserver(self.engine)
        missing = [4 * rules.decks - n for n in game.rank_counts]
        self._patch = any(missing)
        self._shoe = GLOBAL_FIELDS["shoe_left"]
        self._seen = GLOBAL_FIELDS["seen_ranks"]
        self._shoe_shift = np.float32(sum(missing) / unit_scale(FIELD["shoe_left"].unit, rules))
        self._seen_shift = (np.array(missing, dtype=np.float32)
                            / np.float32(unit_scale(FIELD["seen_ranks"].unit, rules)))

    # ------------------------------------------------------------ the keys
    def player_state(self, node: tuple, legal: list[int]) -> np.ndarray:
        """What seat 0 (the player) is given at ``node``."""
        _phase, h, _up, _s, _raised, hist = node
        if hist is None:
            raise SolverError(f"the player node {node!r} holds no history (a forgetful game)")
        if h < 0:  # before the deal (before_deal bets): no card is dealt yet
            first = self._spare([])
            deck = self._names([first, self._spare([first])])
            self._play(deck, [])
            return self._observe(0, legal, node)
        cards, actions = self._player_line(hist, h)
        deck = self._deck(cards, [self._spare(cards)])
        self._play(deck, actions)
        return self._observe(0, legal, node)

    def bank_state(self, view: View, bank: int, legal: list[int]) -> np.ndarray:
        """What seat 1 (the bank) is given at ``(view, bank)``: the player's history, then
        its own cards ``bank`` in class order (module docstring)."""
        g = self.game
        if view.hist is None:
            raise SolverError(f"the bank view {view!r} holds no history (a forgetful game)")
        hand = self._player_hand(view, bank)
        shown = [c for kind, c in view.hist if kind in ("hit", "reveal")]
        rest = list(g.ms.tuples[hand])
        for c in shown:
            rest[c] -= 1
        hidden = [c for c, n in enumerate(rest) for _ in range(n)]
        if len(hidden) != 1:
            raise SolverError(f"the hand behind {view!r} does not leave one face-down card")
        cards, actions = self._player_line(view.hist, hidden[0])
        if view.status != DECLARED:
            actions.append(A.STAND)  # an undeclared 7½ stands too (RULES.md §8.7)
        own = self._ranks(bank)
        deck = self._deck(cards, own)
        self._play(deck, actions + [A.HIT] * (len(own) - 1))
        return self._observe(1, legal, (view, bank))

    # ------------------------------------------------------------ the line of play
    def _player_line(self, hist: tuple, hidden: int) -> tuple[list[int], list[int]]:
        """The player's cards (engine ranks) in the order dealt and its actions, from
        ``hist`` ending with ``hidden`` face down."""
        g = self.game
        faces = [c for kind, c in hist if kind == "reveal"] + [hidden]
        classes = [faces[0]]
        actions: list[int] = []
        turned = 0
        for kind, x in hist:
            if kind == "bet":
                actions.append(g.layout.bet(x))
            elif kind == "raise":
                actions.append(g.layout.raise_(x))
            elif kind == "hit":
                classes.append(x)
                actions.append(A.HIT)
            elif kind == "reveal":
                turned += 1
                classes.append(faces[turned])
                actions.append(A.REVEAL_HIT)
            elif kind != "shown":  # a declared 7½'s face-down card shown: no action
                raise SolverError(f"unknown history event {(kind, x)!r}")
        return [g.class_ranks[c][0] for c in classes], actions

    def _player_hand(self, view: View, bank: int) -> int:
        """A player hand that shows ``view`` next to the bank's cards ``bank``."""
        g = self.game
        for hand, _w in view_hands(g, view):
            if g.draw_weight(bank, hand) > 0:
                return hand
        raise SolverError(f"no hand shows {view} next to the bank's cards")

    def _ranks(self, m: int) -> list[int]:
        """The engine ranks of multiset ``m``, by card class."""
        return [self.game.class_ranks[c][0] for c, n in enumerate(self.game.ms.tuples[m])
                for _ in range(n)]

    def _spare(self, ranks: list[int]) -> int:
        """A rank still in the composition once ``ranks`` are dealt."""
        for rank, n in enumerate(self.game.rank_counts):
            if n > ranks.count(rank):
                return rank
        raise SolverError("no card is left for the bank")

    @staticmethod
    def _names(ranks: list[int]) -> list[str]:
        """Distinct card names for ``ranks`` (suits o, c, e, b, then the next deck)."""
        used = [0] * NUM_RANKS
        out = []
        for rank in ranks:
            out.append(RANK_CHARS[rank] + SUIT_CHARS[used[rank] % 4])
            used[rank] += 1
        return out

    def _deck(self, player: list[int], bank: list[int]) -> list[str]:
        """The deck's top: the player's first card, the bank's, then the player's draws,
        then the bank's."""
        names = self._names(player + bank)
        p, b = names[:len(player)], names[len(player):]
        return [p[0], b[0]] + p[1:] + b[1:]

    def _play(self, deck: list[str], actions: list[int]) -> None:
        """Reset with ``deck`` on top and step ``actions``."""
        e = self.engine
        e.reset(seed=0, deck=deck, bank=1)
        e.jackpot += self.game.jackpot  # the pot of earlier hands (the ante is in already)
        for action in actions:
            e.step(action)

    def _observe(self, seat: int, legal: list[int], what: Any) -> np.ndarray:
        check_engine_agrees(self.engine, seat, legal, self._patch, what)
        state = self.observer.observe(seat)
        if self._patch:
            state[self._shoe] -= self._shoe_shift
            state[self._seen] += self._seen_shift
        return state


class InformationStatePolicy(AgentPolicy):
    """An agent on the information state, asked once per perfect-recall key (module doc).

    It reads the whole order of play (``forgets`` false, every history
    remembered): the solver plays it in the perfect-recall game.
    """

    forgets = False
    memory = None

    def states(self, game: HeadsUpGame) -> InformationStates:
        return InformationStates(game)

    def player(self, game: HeadsUpGame, node: tuple, legal: list[int]) -> Dist:
        return self._ask(game, ("p", node), lambda ob: ob.player_state(node, legal), legal)

    def bank(self, game: HeadsUpGame, view: View, bank: int, legal: list[int]) -> Dist:
        return self._ask(game, ("b", view, bank),
                         lambda ob: ob.bank_state(view, bank, legal), legal)
