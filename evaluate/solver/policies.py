"""Policies as the exact solver sees them: an action distribution per information state.

The solver never simulates; it asks each policy, once per information state,
for the probabilities of the legal actions:

* ``player(game, node, legal)`` — at a player node (own cards, stake);
* ``bank(game, view, bank, legal)`` — at a bank node (the player's public
  view and the bank's own cards).

Four kinds:

* :class:`ThresholdPolicy` and :class:`UniformPolicy` — the scripted agents
  ``threshold:T`` and ``random`` (``agents.scripted``) computed natively from
  the state; tests check them against the agents' ``act`` on real
  observations. They look only at totals, so figures may be merged.
* :class:`TabularPolicy` — a strategy the solver computed (best response,
  equilibrium), keyed by the solver's own states.
* :class:`AgentPolicy` — any object following the policy protocol
  ``act(observation, action_mask) -> action``: the solver builds the
  observation vector of the information state with the real engine and
  observer (:class:`EngineObservations`), calls ``act`` once and caches the
  answer. A policy is taken to be
  deterministic (a learned network in deterministic mode); its exact EV is
  the EV of the actions it returns.
"""

from __future__ import annotations

import dataclasses

from collections.abc import Hashable, Mapping
from typing import Any

import numpy as np

from agents import make_agent
from agents.base import Agent
from agents.scripted import RandomAgent, ThresholdAgent
from agents.seating import role_policy
from envs import actions as A
from envs.cards import NUM_RANKS, RANK_CHARS, SEVEN_AND_HALF, SUIT_CHARS
from envs.engine import BANK as ENGINE_BANK
from envs.engine import BET as ENGINE_BET
from envs.engine import Engine
from envs.information_state import INFORMATION_STATE
from envs.observation import FIELD, GLOBAL_FIELDS, ObservationReader, unit_scale
from envs.observer import Observer
from envs.rules import Rules
from evaluate.solver.game import BET, DECLARED, PLAY, HeadsUpGame, SolverError, View, view_hands

Dist = list[tuple[int, float]]
"""Legal action index -> probability, as a list of pairs."""


class SolverPolicy:
    """Base class: action distributions at player and bank information states."""

    name = "policy"
    figure_symmetric = True
    """True if the policy cannot tell sota, caballo and rey apart (figures may merge)."""
    bank_uses_view = True
    """False if the bank's choice depends only on its own cards (a faster evaluation)."""
    forgets = True
    """True if the policy never looks at the order of play (a node's or view's ``hist``)."""
    memory: frozenset[tuple] | None = None
    """When it does (``forgets`` false): the histories it tells apart (``None``: all)."""

    def player(self, game: HeadsUpGame, node: tuple, legal: list[int]) -> Dist:
        raise NotImplementedError

    def bank(self, game: HeadsUpGame, view: View, bank: int, legal: list[int]) -> Dist:
        raise NotImplementedError


class ThresholdPolicy(SolverPolicy):
    """``threshold:T``: the smallest bet; hit below ``T`` points, else stand (both roles).

    Mirrors ``ThresholdAgent.act``: the total is every card the seat knows
    of its own hand; if the wanted action is illegal it stands, or hits when
    standing is illegal too.
    """

    bank_uses_view = False

    def __init__(self, threshold: float) -> None:
        self.threshold = float(threshold)
        self.name = f"threshold:{threshold:g}"

    def _choose(self, total: int, legal: list[int]) -> Dist:
        want = A.HIT if total / 2 < self.threshold - 1e-6 else A.STAND
        if want not in legal:
            want = A.STAND if A.STAND in legal else A.HIT
        return [(want, 1.0)]

    def player(self, game: HeadsUpGame, node: tuple, legal: list[int]) -> Dist:
        if node[0] == BET:
            return [(legal[0], 1.0)]
        return self._choose(game.ms.total[game.player_hand(node)], legal)

    def bank(self, game: HeadsUpGame, view: View, bank: int, legal: list[int]) -> Dist:
        return self._choose(game.ms.total[bank], legal)


class UniformPolicy(SolverPolicy):
    """``random``: every legal action with equal probability (``RandomAgent`` in law)."""

    name = "random"
    bank_uses_view = False

    def player(self, game: HeadsUpGame, node: tuple, legal: list[int]) -> Dist:
        return [(a, 1.0 / len(legal)) for a in legal]

    def bank(self, game: HeadsUpGame, view: View, bank: int, legal: list[int]) -> Dist:
        return [(a, 1.0 / len(legal)) for a in legal]


class TabularPolicy(SolverPolicy):
    """A strategy computed by the solver: ``{state key: [(action, prob), ...]}``.

    Player keys are player nodes; bank keys are ``(view, bank)`` pairs, both
    of the game the strategy was computed in (``game_key`` records which).
    """

    def __init__(self, name: str, game: HeadsUpGame, player: Mapping[tuple, Dist] | None = None,
                 bank: Mapping[tuple[View, int], Dist] | None = None) -> None:
        self.name = name
        self.game = game
        self.figure_symmetric = game.merge_figures
        self.player_table: Mapping[tuple, Dist] = player if player is not None else {}
        self.bank_table: Mapping[tuple[View, int], Dist] = bank if bank is not None else {}
        self.forgets = game.recall == "forgetful"
        self.memory = game.memory

    def _lookup(self, table: Mapping[Any, Dist], key: Hashable, game: HeadsUpGame,
                role: str) -> Dist:
        if game is not self.game and game_key(game) != game_key(self.game):
            raise SolverError(f"strategy {self.name!r} was computed for another game (rules, "
                              f"composition, card classes or stakes differ)")
        try:
            return table[key]
        except KeyError:
            raise SolverError(f"strategy {self.name!r} has no {role} decision at "
                              f"{key!r}") from None

    # Keys of a twin game (another recall or memory) are read as this game keys them.
    def player(self, game: HeadsUpGame, node: tuple, legal: list[int]) -> Dist:
        return self._lookup(self.player_table, self.game.project_node(node), game, "player")

    def bank(self, game: HeadsUpGame, view: View, bank: int, legal: list[int]) -> Dist:
        return self._lookup(self.bank_table, (self.game.project_view(view), bank), game,
                            "bank")


def game_key(game: HeadsUpGame) -> tuple:
    """What identifies a game's state space: rules, composition, classes, stakes."""
    return (game.rules, game.rank_counts, game.merge_figures, game.stakes)


class AgentPolicy(SolverPolicy):
    """Any agent with ``act(observation, action_mask)``, queried once per information state."""

    figure_symmetric = False

    def __init__(self, agent: Any, name: str | None = None) -> None:
        if not callable(getattr(agent, "act", None)):
            raise SolverError(f"{agent!r} does not follow the policy protocol "
                              f"act(observation, action_mask) -> action")
        self.agent = agent
        self.name = name or type(agent).__name__
        self._caches: dict[tuple, dict[Hashable, Dist]] = {}
        self._game: HeadsUpGame | None = None
        self._cache: dict[Hashable, Dist] = {}
        self._observations: Any = None
        self.queries = 0
        """How many times ``act`` was called (once per information state and game)."""

    def _ask(self, game: HeadsUpGame, key: Hashable, obs_fn: Any, legal: list[int]) -> Dist:
        if game is not self._game:
            self._game = game
            self._cache = self._caches.setdefault(game_key(game), {})
            self._observations = None
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        if self._observations is None:
            self._observations = self.states(game)
        mask = np.zeros(game.layout.size, dtype=np.int8)
        mask[legal] = 1
        action = self.agent.act(obs_fn(self._observations), mask)
        self.queries += 1
        try:
            action = int(action)
        except (TypeError, ValueError):
            raise SolverError(f"agent {self.name} returned {action!r}, not an action "
                              f"index") from None
        if action not in legal:
            names = game.layout.names
            raise SolverError(f"agent {self.name} chose the illegal action {action} "
                              f"({names[action] if 0 <= action < len(names) else '?'}); legal: "
                              + ", ".join(names[a] for a in legal))
        dist = [(action, 1.0)]
        self._cache[key] = dist
        return dist

    def states(self, game: HeadsUpGame) -> Any:
        """What builds the vector ``act`` is given at ``game``'s states: the observation
        (:class:`~evaluate.solver.observed.SplicedObservations`: the engine's, the bank's
        spliced)."""
        from evaluate.solver.observed import SplicedObservations  # it builds on this module

        return SplicedObservations(game)

    # The observation is a summary without the order of play (envs.observation), so the
    # history in a perfect-recall key is left out: one question per summary.
    def player(self, game: HeadsUpGame, node: tuple, legal: list[int]) -> Dist:
        state = node[:5]
        return self._ask(game, ("p", state),
                         lambda ob: ob.player_observation(state, legal), legal)

    def bank(self, game: HeadsUpGame, view: View, bank: int, legal: list[int]) -> Dist:
        summary = dataclasses.replace(view, hist=None)
        return self._ask(game, ("b", summary, bank),
                         lambda ob: ob.bank_observation(summary, bank, legal), legal)


def as_policy(spec: Any, rules: Rules | None = None, role: str | None = None) -> SolverPolicy:
    """A solver policy from a spec string (``threshold:5``), an agent or a policy.

    Spec strings go through the agent registry (``agents.make_agent``, with
    ``rules`` for agents that read them). The scripted agents are recognised
    by their exact type and solved natively; any other agent is queried
    through observations and must be a function of (observation, mask), or,
    when its ``observation_type`` is ``"information_state"``, through
    information states (:mod:`evaluate.solver.observed`). With ``role``
    (``"player"`` or ``"bank"``, the role it is valued in), a trained model that
    learned the other role is refused (:meth:`agents.learned.LearnedAgent.check_role`).
    """
    if isinstance(spec, SolverPolicy):
        return spec
    if isinstance(spec, str):
        try:
            agent = make_agent(spec, rules=rules)
        except ValueError as exc:
            raise SolverError(str(exc)) from None
        name = spec
    else:
        agent, name = spec, None
    _refuse_table_information_states(agent, name)
    if role is not None:
        _refuse_the_other_role(agent, role)
    if type(agent) is ThresholdAgent:
        return ThresholdPolicy(agent.threshold)
    if type(agent) is RandomAgent:
        return UniformPolicy()
    from evaluate.solver.observed import (InformationStatePolicy,  # they build on this module
                                          ObservationPolicy)

    if getattr(agent, "observation_type", "observation") == INFORMATION_STATE:
        return InformationStatePolicy(agent, name)
    return ObservationPolicy(agent, name)


def _refuse_the_other_role(agent: Any, role: str) -> None:
    """``SolverError`` for a trained model (or the ``role`` side of a ``PLAYER|BANK`` pair)
    that learned the other role, not the ``role`` it is to be valued in."""
    check_role = getattr(role_policy(agent, role), "check_role", None)
    if check_role is not None:
        try:
            check_role(role)
        except ValueError as exc:
            raise SolverError(str(exc)) from None


def _refuse_table_information_states(agent: Any, name: str | None) -> None:
    """``SolverError`` for an RLlib policy trained on the information state.

    RLlib trains on the whole table, whose bank rotates (RULES.md §5), so its
    information state holds that table's history; the solver's heads-up hand
    keeps the bank on one seat (the Player and Bank views' table,
    :func:`envs.single_seat.fixed_bank_rules`) and has no such state to give it.
    """
    for part in (getattr(agent, "player", agent), getattr(agent, "bank", agent)):
        spec = str(getattr(part, "spec", ""))
        if (spec.startswith("rllib:")
                and getattr(part, "observation_type", "observation") == INFORMATION_STATE):
            raise SolverError(
                f"{name or spec}: an RLlib policy trained on the information state reads the "
                f"history of the whole table, whose bank rotates; the exact solver keeps the "
                f"bank on one seat and cannot value it. Compare it at the table instead (sette "
                f"evaluate, sette report's tournament), or train with --observation-type "
                f"observation for exact figures")


_DRAW_DEPENDENT = {A.STAND, A.HIT, A.REVEAL_HIT}
"""Actions whose legality depends on whether a card is left to draw."""


def check_engine_agrees(engine: Engine, seat: int, legal: list[int], patched: bool,
                        what: Any) -> None:
    """``SolverError`` unless ``engine`` asks ``seat`` with the solver's ``legal`` actions.

    With ``patched`` (a composition smaller than the engine's full shoe) the
    actions whose legality depends on a card being left to draw are not compared.
    """
    mine, theirs = set(legal), set(engine.legal_actions())
    if patched:
        mine -= _DRAW_DEPENDENT
        theirs -= _DRAW_DEPENDENT
    if engine.actor != seat or mine != theirs:
        raise SolverError(f"the engine disagrees with the solver at {what}: engine seat "
                          f"{engine.actor} may {sorted(engine.legal_actions())}, the solver "
                          f"expects seat {seat} with {sorted(legal)}")


class EngineObservations:
    """Observation vectors of the solver's information states, built by the real engine.

    For each state the engine is reset with a stacked deck and driven there
    by a scripted line of play (bet, raises, hits; the bank's hits), then
    ``Observer.observe`` gives the vector: whatever the observer shows, the
    solver passes on unchanged. The table is fresh and heads-up: seat 0
    plays, seat 1 holds the bank, both with ``starting_chips`` (the player
    less its ante), and the jackpot holds the game's ``jackpot`` chips plus
    this hand's ante. The engine's
    legal actions must equal the solver's at every state (checked; a
    mismatch raises ``SolverError``).

    The engine deals from a full shoe. For a smaller composition the cards
    missing from it count as out of the shoe and seen (as the cards of
    earlier hands are, with ``reshuffle = "when_empty"``): ``shoe_left`` and
    ``seen_ranks`` are adjusted accordingly, and the agent is given the
    composition's legal actions (hitting needs a card left in it).
    """

    def __init__(self, game: HeadsUpGame) -> None:
        if game.merge_figures:
            raise SolverError("observations need the ten ranks as card classes "
                              "(merge_figures=False)")
        self.game = game
        r = game.rules
        self.engine = Engine(r, 2, max_hands=1)
        self.observer = Observer(self.engine)
        self._shoe = GLOBAL_FIELDS["shoe_left"]
        self._seen = GLOBAL_FIELDS["seen_ranks"]
        missing = [4 * r.decks - n for n in game.rank_counts]
        self._shoe_shift = np.float32(sum(missing) / unit_scale(FIELD["shoe_left"].unit, r))
        self._seen_shift = (np.array(missing, dtype=np.float32)
                            / np.float32(unit_scale(FIELD["seen_ranks"].unit, r)))
        self._patch = any(missing)

    def _cards(self, ranks: list[int]) -> list[str]:
        """Distinct card names for a list of ranks (suits o, c, e, b, then the next deck)."""
        used = [0] * NUM_RANKS
        out = []
        for rank in ranks:
            out.append(RANK_CHARS[rank] + SUIT_CHARS[used[rank] % 4])
            used[rank] += 1
        return out

    def _ranks(self, m: int) -> list[int]:
        return [self.game.class_ranks[c][0] for c, n in enumerate(self.game.ms.tuples[m])
                for _ in range(n)]

    def _stake_plan(self, stake: int, hits: int, final: str) -> tuple[int, list[int]]:
        """A first bet and ``hits + 1`` raises (0 = none) adding up to ``stake``.

        Raise ``i`` comes before hit ``i``; the last one after the last hit.
        ``final`` says whether that last raise must be made (``"must"``: the
        node was reached by raising), may be (``"maybe"``: tried without it
        first) or may not (``"never"``).
        """
        r = self.game.rules
        ladder = r.bet_ladder
        firsts = [k for k in ladder if k * r.min_bet <= min(r.max_bet, self.game.player_chips)]
        if self.game.stakes == "fixed":
            firsts = firsts[:1]

        def fill(slots: int, left: int, last: bool) -> list[int] | None:
            if slots == 0:
                return [] if left == 0 else None
            options = [k for k in reversed(ladder) if k <= left]
            for k in options if last and slots == 1 else options + [0]:
                rest = fill(slots - 1, left - k, last)
                if rest is not None:
                    return [k] + rest
            return None

        tries = {"never": [(hits, False)], "maybe": [(hits, False), (hits + 1, True)],
                 "must": [(hits + 1, True)]}[final]
        if not (r.bet_raise and self.game.stakes == "free"):
            tries = [(0, False)]
        for slots, last in tries:
            for first in firsts:
                plan = fill(slots, stake - first, last) if first <= stake else None
                if plan is not None:
                    return first, plan + [0] * (hits + 1 - len(plan))
        raise SolverError(f"no line of play reaches stake {stake} with {hits} hits")

    def _play(self, deck: list[str], hits: int, bank_hits: int, stake: int, final: str,
              finish: list[int]) -> None:
        """Reset with ``deck`` on top, then bet, [raise] hit per card, ``finish``, bank hits."""
        e = self.engine
        e.reset(seed=0, deck=deck, bank=1)
        e.jackpot += self.game.jackpot  # the pot of earlier hands (the ante is in already)
        raises = [0] * (hits + 1)
        if stake:
            first, raises = self._stake_plan(stake, hits, final)
            e.step(e.layout.bet(first))
        for i in range(hits):
            if raises[i]:
                e.step(e.layout.raise_(raises[i]))
            e.step(A.HIT)
        if raises[hits]:
            e.step(e.layout.raise_(raises[hits]))
        for action in finish:
            e.step(action)
        for _ in range(bank_hits):
            e.step(A.HIT)

    def _observe(self, seat: int, legal: list[int], what: Any) -> np.ndarray:
        check_engine_agrees(self.engine, seat, legal, self._patch, what)
        obs = self.observer.observe(seat)
        if self._patch:
            obs = obs.copy()
            obs[self._shoe] -= self._shoe_shift
            obs[self._seen] += self._seen_shift
        return obs

    def player_observation(self, node: tuple, legal: list[int]) -> np.ndarray:
        """What seat 0 sees at a player node (its history, if any, is not looked at)."""
        g = self.game
        phase, h, up, s, raised = node[:5]
        if h < 0:  # before the deal: the cards do not show yet
            spare = self._spare([])
            self._play(self._cards([spare, self._spare([spare])]), 0, 0, 0, "never", [])
            return self._observe(0, legal, node)
        ranks = [g.class_ranks[h][0]] + self._ranks(up)
        names = self._cards(ranks + [self._spare(ranks)])
        deck = [names[0], names[-1]] + names[1:-1]
        if phase == BET:
            self._play(deck, 0, 0, 0, "never", [])
        else:
            self._play(deck, len(ranks) - 1, 0, s, "must" if raised else "maybe", [])
        return self._observe(0, legal, node)

    def bank_observation(self, view: View, bank: int, legal: list[int]) -> np.ndarray:
        """What seat 1 (the bank) sees at ``(view, bank)``."""
        g = self.game
        if view.status == DECLARED:
            ranks = self._ranks(view.up)
            finish: list[int] = []
            final = "never"
        else:
            hand = _view_hands(g, view, bank)[0][0]
            up = self._ranks(view.up)
            hidden = self._ranks(hand)
            for rank in up:
                hidden.remove(rank)
            ranks = hidden + up
            finish = [A.STAND]  # an undeclared 7½ stands too (RULES.md §8.7), never raises
            final = "never" if g.ms.total[hand] == SEVEN_AND_HALF else "maybe"
        bank_ranks = self._ranks(bank)
        names = self._cards(ranks + bank_ranks)
        player, banks = names[:len(ranks)], names[len(ranks):]
        deck = [player[0], banks[0]] + player[1:] + banks[1:]
        self._play(deck, len(player) - 1, len(banks) - 1, view.stake, final, finish)
        return self._observe(1, legal, (view, bank))

    def _spare(self, ranks: list[int]) -> int:
        """A rank still in the composition once ``ranks`` are dealt (the bank's card)."""
        for rank, n in enumerate(self.game.rank_counts):
            if n > ranks.count(rank):
                return rank
        raise SolverError("no card is left for the bank")


def _view_hands(game: HeadsUpGame, view: View, bank: int) -> list[tuple[int, float]]:
    """Hands that show ``view`` and leave the cards of ``bank`` in the shoe."""
    out = []
    for hand, w in view_hands(game, view):
        if game.draw_weight(bank, hand) > 0:
            out.append((hand, w))
    if not out:
        raise SolverError(f"no hand shows {view} next to the bank's cards")
    return out


class StrategyAgent(Agent):
    """Plays solver strategies at a real table: ``act(observation, action_mask)``.

    Reads the information state back from the heads-up observation
    (:class:`~envs.observation.ObservationReader`; seat block 0 is the
    seat itself, 1 the other) and samples the strategy's action there
    from its own seeded generator. ``player`` and ``bank`` are the
    strategies of the two roles (either may be ``None`` if that role is
    never asked); ``game`` is the game they were computed in.
    """

    def __init__(self, game: HeadsUpGame, player: SolverPolicy | None = None,
                 bank: SolverPolicy | None = None, seed: int | None = None) -> None:
        if game.recall != "forgetful":
            raise SolverError("StrategyAgent reads the observation, a summary without the "
                              "order of play: it plays strategies of a game with "
                              "recall='forgetful' only (a perfect-recall strategy needs the "
                              "hand's history)")
        self.game = game
        self.player_policy = player
        self.bank_policy = bank
        self.rng = np.random.default_rng(seed)
        self._class = [game.class_of_rank(r) for r in range(NUM_RANKS)]

    def _multiset(self, counts: np.ndarray) -> int:
        by_class = [0] * self.game.num_classes
        for rank, n in enumerate(np.rint(counts).astype(int)):
            by_class[self._class[rank]] += int(n)
        return self.game.ms.index[tuple(by_class)]

    def state(self, obs: np.ndarray, mask: np.ndarray) -> tuple[str, Any]:
        """``("player", node)`` or ``("bank", (view, B))`` for this observation."""
        g = self.game
        seen = ObservationReader(obs, g.rules)
        phase = seen.phase
        if phase == ENGINE_BANK:  # block 0 is the bank itself, block 1 the player
            view = View(self._multiset(seen.up_counts(1)), seen.hidden(1), seen.status(1),
                        seen.stake_units(1))
            return "bank", (view, self._multiset(seen.up_counts(0)))
        own_hidden = seen.own_hidden_counts().astype(int)
        h = self._class[int(np.argmax(own_hidden))] if own_hidden.sum() else -1
        up = self._multiset(seen.up_counts(0))
        s = seen.stake_units(0)
        if phase == ENGINE_BET:
            return "player", (BET, h, up, 0, False, None)
        r = g.rules
        room = min(r.max_bet - s * r.min_bet, g.player_chips - s * r.min_bet)
        seven_and_half = h >= 0 and g.ms.total[g.ms.add[up][h]] == SEVEN_AND_HALF
        raised = (r.bet_raise and g.stakes == "free" and r.bet_ladder[0] * r.min_bet <= room
                  and not seven_and_half  # only stand is left there (RULES.md §8.7)
                  and not mask[g.layout.raise_start:].any())
        return "player", (PLAY, h, up, s, bool(raised), None)

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        role, key = self.state(np.asarray(observation), np.asarray(action_mask))
        legal = [int(a) for a in np.flatnonzero(action_mask)]
        policy = self.player_policy if role == "player" else self.bank_policy
        if policy is None:
            raise SolverError(f"this StrategyAgent has no {role} strategy")
        if role == "player":
            dist = policy.player(self.game, key, legal)
        else:
            dist = policy.bank(self.game, key[0], key[1], legal)
        actions = [a for a, _p in dist]
        probs = np.array([p for _a, p in dist])
        return int(actions[self.rng.choice(len(actions), p=probs / probs.sum())])
