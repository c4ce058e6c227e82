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

**Cheap bank states.** Asked as the bank, an agent meets every history of
the player's play times its own cards: far too many engine replays on a
full shoe. :class:`SplicedBankStates` replays each view once and each bank
hand once and splices the bank's vector at ``(view, B)`` from the two (its
docstring says which entries come from where); ``tests/test_solver_observed.py``
holds it to the replay of every key (:meth:`InformationStates.replayed_bank_state`)
entry for entry. :class:`SplicedObservations` does the same for an agent on
the observation (the bank ``reader``).

Like the observation queries, the vectors need the ten ranks as card classes
(``merge_figures=False``); a smaller shoe counts the cards missing from it as
seen and out of the shoe, in the observation part of the vector.
"""

from __future__ import annotations

import dataclasses
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from typing import Any, NamedTuple

import numpy as np

from envs import actions as A
from envs.cards import NUM_RANKS, RANK_CHARS, SUIT_CHARS
from envs.engine import BET, Engine, IllegalActionError
from envs.hands import DECLARED
from envs.information_state import (KIND_NAMES, InformationStateObserver,
                                    information_state_slices)
from envs.observation import FIELD, GLOBAL_FIELDS, observation_size, observation_slices, unit_scale
from envs.single_seat import fixed_bank_rules
from evaluate.solver.bank_batch import BankDecisions, view_outcomes
from evaluate.solver.game import HeadsUpGame, SolverError, View, view_hands
from evaluate.solver.policies import AgentPolicy, Dist, EngineObservations, check_engine_agrees


class InformationStates:
    """Information-state vectors of the perfect-recall game's keys, built by the real engine.

    For each key the engine is reset with a stacked deck — the player's
    cards in the order the history dealt them, the bank's face-down card
    second — and the history is stepped (bet, raises, hits, reveals; then the
    stand and the bank's hits for a bank key). The engine's legal actions
    must equal the solver's there (checked; a mismatch raises
    ``SolverError``). The jackpot holds the game's ``jackpot`` chips plus
    this hand's ante. The bank's states are spliced (:class:`SplicedBankStates`)
    from such replays: :meth:`replayed_bank_state` is the replay of one key.
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
        self.spliced = SplicedBankStates(game, self.engine, self.observer,
                                         self.replayed_bank_state, history=True)
        """The bank's states, spliced (what :meth:`bank_state` reads)."""

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
        its own cards ``bank`` in class order (module docstring), spliced from a replay of
        ``view`` and one of ``bank`` (:class:`SplicedBankStates`)."""
        return self.spliced.state(view, bank)

    def replayed_bank_state(self, view: View, bank: int, legal: list[int]) -> np.ndarray:
        """:meth:`bank_state` by replaying the whole key in the engine (one replay a key)."""
        g = self.game
        if view.hist is None:
            raise SolverError(f"the bank view {view!r} holds no history (a forgetful game)")
        shown = [c for kind, c in view.hist if kind in ("hit", "reveal")]
        own = self._ranks(bank)
        for hand in self._player_hands(view, bank):
            rest = list(g.ms.tuples[hand])
            for c in shown:
                rest[c] -= 1
            hidden = [c for c, n in enumerate(rest) for _ in range(n)]
            if len(hidden) != 1:
                raise SolverError(f"the hand behind {view!r} does not leave one face-down card")
            cards, actions = self._player_line(view.hist, hidden[0])
            if view.status != DECLARED:
                actions.append(A.STAND)  # an undeclared 7½ stands too (RULES.md §8.7)
            try:
                self._play(self._deck(cards, own), actions + [A.HIT] * (len(own) - 1))
            except IllegalActionError:
                continue  # not with this face-down card (it made 7½ before a raise)
            return self._observe(1, legal, (view, bank))
        raise SolverError(f"no hand plays {view} next to the bank's cards")

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

    def _player_hands(self, view: View, bank: int) -> Iterator[int]:
        """The player hands that show ``view`` next to the bank's cards ``bank``."""
        g = self.game
        for hand, _w in view_hands(g, view):
            if g.draw_weight(bank, hand) > 0:
                yield hand

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


class _Template(NamedTuple):
    """One view's replay at its bank's first card (:class:`SplicedBankStates`)."""

    vector: np.ndarray
    bank: int
    """The bank's first card in it (a one-card multiset)."""
    seen: np.ndarray
    """``seen_ranks`` without the bank's card."""
    cards_left: int
    """Cards left to draw before the bank's first card."""
    first: int
    """The history slot of the bank's first item (its reveal); -1 without a history."""
    used: int
    """History slots in use."""


class _BankPart(NamedTuple):
    """What the bank's own cards put in its vector (:class:`SplicedBankStates`)."""

    own: np.ndarray
    seen: np.ndarray
    rows: np.ndarray
    """The history slots from the bank's reveal on (none without a history)."""


class SplicedBankStates:
    """The bank's vector at ``(view, B)`` from one replay of ``view`` and one of ``B``.

    The bank decides after the player's turn (RULES.md §4.6), and what it is
    given there falls in three parts:

    * **the bank's own part** — ``own_hidden``, ``own_total``, the bank's seat
      block (block 0: its status, its cards face up once its turn begins, their
      total) and, in an information state, the history items from the
      revealing of its face-down card on: functions of its cards ``B`` in the
      order shown (module docstring), whoever the player was. They are read
      off a replay of ``B`` behind a *reference* player (one card face down,
      the smallest bet, stood), one replay per ``B``;
    * **the shared counts** — ``shoe_left`` (the cards left) and
      ``seen_ranks`` (the cards shown, by rank): the player's cards and the
      bank's, added;
    * **the rest** — the phase, the pot, the player's seat block, every
      history item of the player's turn (the bank's face-down card among them,
      its rank unseen): the same for every ``B``. It comes from the *template*,
      the replay of ``(view, B0)`` for one single card ``B0``, one per view.

    ``replay(view, B, legal)`` is the full replay of one key (the vector the
    agent is given, with a smaller shoe's shift applied); ``engine`` and
    ``observer`` the ones it drives. Nothing but those replays is trusted:
    ``tests/test_solver_observed.py`` holds the splice equal to the replay of
    every key of real hands and of the solver's games.
    """

    TEMPLATES = 256
    """Views whose template is kept (the solver asks one view's bank states together)."""

    def __init__(self, game: HeadsUpGame, engine: Engine, observer: Any,
                 replay: Callable[[View, int, list[int]], np.ndarray], history: bool) -> None:
        self.game = game
        self.engine = engine
        self.observer = observer
        self._replay = replay
        rules = engine.rules
        size = observation_size(2)
        block = observation_slices(2)["seat_0"]
        self._own = np.r_[GLOBAL_FIELDS["own_hidden"], GLOBAL_FIELDS["own_total"], block]
        self._seen = GLOBAL_FIELDS["seen_ranks"]
        self.shoe_index = GLOBAL_FIELDS["shoe_left"].start
        self._shoe_scale = 1.0 / unit_scale(FIELD["shoe_left"].unit, rules)
        missing = sum(4 * rules.decks - n for n in game.rank_counts)
        self._shoe_shift = (np.float32(missing / unit_scale(FIELD["shoe_left"].unit, rules))
                            if missing else None)
        self._history = history
        if history:
            slices = information_state_slices(rules, 2)
            base = slices["history_0"].start
            self._width = slices["history_0"].stop - base
            self._slots = (slices["history"].stop - slices["history"].start) // self._width
            self._start = size
            kinds = slices["history_0.kind"]
            self._kinds = slice(kinds.start - base, kinds.stop - base)
            self._reveal = kinds.start - base + KIND_NAMES.index("reveal")
            self._own_seat = slices["history_0.seat"].start - base  # block 0: the bank
        self._sizes = np.asarray(game.ms.size)
        self._templates: OrderedDict[View, _Template] = OrderedDict()
        self._banks: dict[int, _BankPart] = {}

    def state(self, view: View, bank: int) -> np.ndarray:
        """The bank's vector at ``(view, bank)`` (a new array)."""
        t = self.template(view)
        b = self.bank_part(bank)
        x = t.vector.copy()
        x[self._own] = b.own
        x[self._seen] = t.seen + b.seen
        x[self.shoe_index] = self.shoe_values(np.array([t.cards_left]), np.array([bank]))[0]
        if self._history:
            rows = self._rows(x)
            rows[t.first:t.used] = 0.0
            rows[t.first:t.first + len(b.rows)] = b.rows
        return x

    # ------------------------------------------------------------ the parts
    def template(self, view: View) -> _Template:
        """The replay of ``view`` at its bank's first card."""
        t = self._templates.get(view)
        if t is None:
            return self._template(view)
        self._templates.move_to_end(view)
        return t

    def bank_part(self, bank: int) -> _BankPart:
        """What the bank's cards ``bank`` put in its vector."""
        b = self._banks.get(bank)
        if b is None:
            b = self._banks[bank] = self._bank_part(bank)
        return b

    def bank_entries(self, bank: int, first: int) -> tuple[np.ndarray, np.ndarray]:
        """The entries (indices, values) of the bank's own part and of its cards in
        ``seen_ranks``, its history items from slot ``first`` on."""
        b = self.bank_part(bank)
        columns = [self._own, np.arange(self._seen.start, self._seen.stop)]
        if self._history:
            start = self._start + first * self._width
            columns.append(np.arange(start, start + b.rows.size))
        return np.concatenate(columns), np.concatenate([b.own, b.seen, b.rows.ravel()])

    def shoe_values(self, cards_left: np.ndarray, banks: np.ndarray) -> np.ndarray:
        """``shoe_left`` (float32) with each bank hand of ``banks`` dealt behind a view
        that left ``cards_left`` (its template's, per bank hand)."""
        shoe = ((cards_left - self._sizes[banks]) * self._shoe_scale).astype(np.float32)
        return shoe if self._shoe_shift is None else shoe - self._shoe_shift

    # ------------------------------------------------------------ the replays
    def _template(self, view: View) -> _Template:
        g = self.game
        hands = [hand for hand, _w in view_hands(g, view)]
        why = SolverError(f"no card is left for the bank behind {view}")
        for c in range(g.num_classes):  # the bank's first card: one any hand leaves
            first = g.ms.add[g.ms.empty][c]
            if not any(g.draw_weight(first, hand) > 0 for hand in hands):
                continue
            stand_ok, hit_ok = g.bank_legal(view, first)
            try:
                vector = self._replay(view, first, [A.STAND] * stand_ok + [A.HIT] * hit_ok)
            except SolverError as exc:  # only hands that could not play the history leave it
                why = exc
                continue
            break
        else:
            raise why
        vector = vector.copy()
        left = len(self.engine.draw_pile) + 1
        reveal, used = self._bank_slots(vector) if self._history else (-1, 0)
        t = _Template(vector, first, vector[self._seen] - self.bank_part(first).seen, left,
                      reveal, used)
        self._templates[view] = t
        if len(self._templates) > self.TEMPLATES:
            self._templates.popitem(last=False)
        return t

    def _bank_part(self, bank: int) -> _BankPart:
        """Replay ``bank`` (class order) behind the reference player; read the bank's part."""
        g, e = self.game, self.engine
        ranks = [g.class_ranks[c][0] for c, n in enumerate(g.ms.tuples[bank]) for _ in range(n)]
        spare = next(rank for rank in range(NUM_RANKS)
                     if ranks.count(rank) < 4 * e.rules.decks)
        e.reset(seed=0, deck=InformationStates._names([spare] + ranks), bank=1)
        while e.actor == 0:
            e.step(e.layout.bet(e.rules.bet_ladder[0]) if e.phase == BET else A.STAND)
        for _ in ranks[1:]:
            e.step(A.HIT)
        if e.actor != 1:
            raise SolverError(f"the bank holding {ranks} does not decide behind a player who "
                              f"stood on one card")
        vector = self.observer.observe(1)
        rows = np.zeros((0, 0), dtype=np.float32)
        if self._history:
            reveal, used = self._bank_slots(vector)
            rows = self._rows(vector)[reveal:used].copy()
        return _BankPart(vector[self._own].copy(), vector[self._seen].copy(), rows)

    def _rows(self, vector: np.ndarray) -> np.ndarray:
        return vector[self._start:].reshape(self._slots, self._width)

    def _bank_slots(self, vector: np.ndarray) -> tuple[int, int]:
        """The slot of the bank's reveal (its turn's first item) and the slots in use."""
        rows = self._rows(vector)
        used = int(np.count_nonzero(rows[:, self._kinds].any(axis=1)))
        mine = np.flatnonzero((rows[:used, self._reveal] == 1.0)
                              & (rows[:used, self._own_seat] == 1.0))
        if len(mine) != 1:
            raise SolverError("the bank's vector holds no single reveal of its own card")
        return int(mine[0]), used


class SplicedObservations(EngineObservations):
    """:class:`~evaluate.solver.policies.EngineObservations` whose bank observations are
    spliced (:class:`SplicedBankStates`): one replay per view and per bank hand."""

    def __init__(self, game: HeadsUpGame) -> None:
        super().__init__(game)
        self.spliced = SplicedBankStates(game, self.engine, self.observer,
                                         self.replayed_bank_observation, history=False)
        """The splice of the bank's observations (its parts, for :class:`BankDecisions`)."""

    def bank_observation(self, view: View, bank: int, legal: list[int]) -> np.ndarray:
        """What seat 1 (the bank) sees at ``(view, bank)``, spliced."""
        return self.spliced.state(view, bank)

    def replayed_bank_observation(self, view: View, bank: int, legal: list[int]) -> np.ndarray:
        """:meth:`bank_observation` by replaying the whole key in the engine."""
        return super().bank_observation(view, bank, legal)


class ObservationPolicy(AgentPolicy):
    """An agent on the observation (:class:`~evaluate.solver.policies.AgentPolicy`), played
    as the bank many views at a time (:meth:`view_outcomes`).

    The observation holds no order of play, so behind a perfect-recall view the bank is
    asked at the view's summary (``hist`` dropped), as :meth:`AgentPolicy.bank` asks it.
    """

    def __init__(self, agent: Any, name: str | None = None) -> None:
        super().__init__(agent, name)
        self._batch: tuple[HeadsUpGame, BankDecisions] | None = None

    def view_outcomes(self, game: HeadsUpGame, items: Sequence[tuple[View, list[int]]]
                      ) -> list[np.ndarray]:
        """The bank's result distribution behind each ``view`` of ``items`` for each of its
        ``hands`` (:func:`evaluate.solver.bank_batch.view_outcomes`; each ``(view, B)``
        decided as :meth:`bank` decides it, on the spliced observation)."""
        if self._batch is None or self._batch[0] is not game:
            states = SplicedObservations(game)
            self._batch = (game, BankDecisions(
                self.agent, lambda view, bank, _legal: states.bank_observation(view, bank, []),
                states.spliced))
        decisions = self._batch[1]
        asked = decisions.queries
        out = view_outcomes(game, [(dataclasses.replace(view, hist=None), hands)
                                   for view, hands in items], decisions)
        self.queries += decisions.queries - asked
        return out


class InformationStatePolicy(AgentPolicy):
    """An agent on the information state, asked once per perfect-recall key (module doc).

    It reads the whole order of play (``forgets`` false, every history
    remembered): the solver plays it in the perfect-recall game. As the bank it
    is played a view at a time (:meth:`view_outcomes`).
    """

    def __init__(self, agent: Any, name: str | None = None) -> None:
        super().__init__(agent, name)
        self._batch: tuple[HeadsUpGame, BankDecisions] | None = None

    forgets = False
    memory = None

    def states(self, game: HeadsUpGame) -> InformationStates:
        return InformationStates(game)

    def view_outcomes(self, game: HeadsUpGame, items: Sequence[tuple[View, list[int]]]
                      ) -> list[np.ndarray]:
        """The bank's result distribution behind each ``view`` of ``items`` for each of its
        ``hands``, this agent playing the bank (:func:`evaluate.solver.bank_batch.view_outcomes`:
        a level of bank hands of many views per call; each ``(view, B)`` decided as
        :meth:`bank` decides it)."""
        if self._batch is None or self._batch[0] is not game:
            states = self.states(game)
            self._batch = (game, BankDecisions(self.agent, states.bank_state, states.spliced))
        decisions = self._batch[1]
        asked = decisions.queries
        out = view_outcomes(game, items, decisions)
        self.queries += decisions.queries - asked
        return out

    def player(self, game: HeadsUpGame, node: tuple, legal: list[int]) -> Dist:
        return self._ask(game, ("p", node), lambda ob: ob.player_state(node, legal), legal)

    def bank(self, game: HeadsUpGame, view: View, bank: int, legal: list[int]) -> Dist:
        return self._ask(game, ("b", view, bank),
                         lambda ob: ob.bank_state(view, bank, legal), legal)
