"""Information-state agents asked by the perfect-recall solver (evaluate/solver/observed.py).

At the points of real hands played in the ``Player-v0`` and ``Bank-v0`` views
with ``observation_type="information_state"``, the solver's key of that
point (built from the hand's public events, ``HeadsUpGame.player_node`` /
``bank_view``) gives exactly the vector the view gave the learner; and an
agent that reads only the observation part of its information state is
valued exactly as the native policy it plays.
"""

from __future__ import annotations

import dataclasses
import hashlib

import numpy as np
import pytest

from agents import make_agent
from agents.learned import LearnedAgent
from envs import actions as A
from envs.cards import rank_of
from envs.engine import BANK, BET, PLAY, Engine
from envs.hands import DECLARED
from envs.information_state import information_state_size
from envs.observation import ObservationReader, observation_size
from envs.rules import Rules
from envs.seat_play import dealer_action
from envs.single_seat import BankEnv, PlayerEnv, fixed_bank_rules
from evaluate.solver import values
from evaluate.solver.game import HeadsUpGame, SolverError, View
from evaluate.solver.observed import (InformationStatePolicy, InformationStates,
                                      ObservationPolicy, SplicedObservations)
from evaluate.solver.policies import AgentPolicy, as_policy
from evaluate.solver.values import evaluate

RULES = ["pagat", "catalan", "spanish"]


def solver_events(game: HeadsUpGame, engine: Engine, seat: int) -> tuple[int, list[tuple]]:
    """The face-down card's class of ``seat``'s hand now and the hand's public events as the
    solver keys them (``bet``/``raise`` in units of ``min_bet``, ``hit``, ``reveal``),
    read from the engine's event log."""
    events = engine.events
    start = max(i for i, e in enumerate(events) if e[0] == "hand")
    out: list[tuple] = []
    hidden, last = -1, None
    for e in events[start:]:
        if e[0] == "action" and e[1] == seat:
            last = e[2]
            if last.startswith("bet_"):
                out.append(("bet", int(last[4:])))
            elif last.startswith("raise_"):
                out.append(("raise", int(last[6:])))
        elif e[0] == "card" and e[1] == seat:
            c = game.class_of_rank(rank_of(e[2]))
            if e[3]:
                out.append(("hit", c))
            else:
                hidden = c
        elif e[0] == "reveal" and e[1] == seat and last == "reveal_hit":
            out.append(("reveal", game.class_of_rank(rank_of(e[2]))))
            last = None  # later reveals (a bust, a declaration) are not the player's
    if engine.hands[seat][0].status == DECLARED and last == "reveal_hit":
        out.append(("shown", hidden))  # the 7½ came face down and was shown
    return hidden, out


def _step_randomly(env: PlayerEnv | BankEnv, rng: np.random.Generator
                   ) -> tuple[np.ndarray, bool]:
    """One random legal step of the learner (hits weighted up): the vector the view returns
    and whether the hand ended."""
    legal = np.flatnonzero(env.action_masks())
    weights = np.where(np.isin(legal, [A.HIT, A.REVEAL_HIT]), 3.0, 1.0)
    obs, _r, terminated, truncated, _info = env.step(
        int(rng.choice(legal, p=weights / weights.sum())))
    return obs, terminated or truncated


@pytest.mark.parametrize("rules", RULES)
def test_the_player_is_given_the_views_information_state(rules: str) -> None:
    env = PlayerEnv(rules, 2, opponents="threshold:5.5", seat=0, bank=1,
                    observation_type="information_state")
    game = HeadsUpGame(rules, merge_figures=False)
    states = InformationStates(game)
    rng = np.random.default_rng(5)
    checked = 0
    for seed in range(40):  # the first hand of a fresh table: the solver's full shoe
        obs, _info = env.reset(seed=seed)
        while True:
            engine = env.engine
            assert engine.phase in (BET, PLAY) and engine.actor == 0
            hidden, events = solver_events(game, engine, 0)
            node = game.player_node(hidden, events)
            legal = [int(a) for a in np.flatnonzero(env.action_masks())]
            assert sorted(a for a, _o in game.player_actions(node)) == legal, node
            np.testing.assert_array_equal(states.player_state(node, legal), obs,
                                          err_msg=f"{rules} {node}")
            checked += 1
            obs, done = _step_randomly(env, rng)
            if done:
                break
    assert checked > 60


@pytest.mark.parametrize("rules", RULES)
def test_the_bank_is_given_the_views_information_state(rules: str) -> None:
    """Checked where the bank's cards came in class order, the order the solver shows them
    in (evaluate/solver/observed.py: the bank's own cards); its first decision always."""
    env = BankEnv(rules, 2, opponents="random", seat=1, observation_type="information_state")
    game = HeadsUpGame(rules, merge_figures=False)
    states = InformationStates(game)
    rng = np.random.default_rng(7)
    checked = later = 0
    for seed in range(80):
        obs, _info = env.reset(seed=seed)
        if env.engine.hands_played:  # the players busted in the first hand: not a full shoe
            continue
        while True:
            engine = env.engine
            assert engine.phase == BANK and engine.actor == 1
            hidden, events = solver_events(game, engine, 0)
            view = game.bank_view(hidden, events, engine.hands[0][0].status)
            ranks = [rank_of(c) for c in engine.bank_hand.cards]
            counts = [0] * game.num_classes
            for r in ranks:
                counts[game.class_of_rank(r)] += 1
            bank = game.ms.index[tuple(counts)]
            legal = [int(a) for a in np.flatnonzero(env.action_masks())]
            stand_ok, hit_ok = game.bank_legal(view, bank)
            assert [A.STAND] * stand_ok + [A.HIT] * hit_ok == legal, view
            if ranks == sorted(ranks):
                np.testing.assert_array_equal(states.bank_state(view, bank, legal), obs,
                                              err_msg=f"{rules} {view} {ranks}")
                checked += 1
                later += len(ranks) > 1
            obs, done = _step_randomly(env, rng)
            if done:
                break
    assert checked > 60 and later > 10


class ObservationPartThreshold:
    """An information-state agent that plays ``threshold:T`` from the observation part."""

    observation_type = "information_state"

    def __init__(self, threshold: float, rules: str) -> None:
        self.threshold = threshold
        self.size = information_state_size(fixed_bank_rules(rules), 2)
        self.sizes: set[int] = set()

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        self.sizes.add(len(observation))
        total = ObservationReader(observation[:observation_size(2)]).own_total_half
        return dealer_action(self.threshold, total, action_mask)


@pytest.mark.parametrize("rules", ["pagat", "spanish"])
def test_an_information_state_agent_is_valued_as_the_policy_it_plays(rules: str) -> None:
    """Through information states (a small shoe: the missing cards count as seen) the
    agents' own act() gives the native thresholds' values, in the perfect-recall game."""
    shoe = "1,1,1,1,1,1,1,2,1,1"
    player, bank = ObservationPartThreshold(4.5, rules), ObservationPartThreshold(5.5, rules)
    p, b = as_policy(player), as_policy(bank)
    assert isinstance(p, InformationStatePolicy) and isinstance(b, InformationStatePolicy)
    assert not p.forgets and p.memory is None
    ev = evaluate(rules, p, b, composition=shoe).ev
    assert ev == pytest.approx(evaluate(rules, "threshold:4.5", "threshold:5.5",
                                        composition=shoe).ev, abs=1e-12)
    assert player.sizes == bank.sizes == {player.size}
    assert p.queries > 20 and b.queries > 100


def test_an_observation_agent_is_still_asked_the_observation() -> None:
    class Plain:
        def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
            return int(np.flatnonzero(action_mask)[0])

    policy = as_policy(Plain())
    assert type(policy) is ObservationPolicy and isinstance(policy, AgentPolicy)
    assert policy.forgets


def test_information_states_need_the_perfect_recall_game() -> None:
    with pytest.raises(SolverError, match="perfect-recall game only"):
        InformationStates(HeadsUpGame("pagat", merge_figures=False, recall="forgetful"))
    with pytest.raises(SolverError, match="ten ranks"):
        InformationStates(HeadsUpGame("pagat"))


# ---------------------------------------------------------------- the spliced bank states
def _bank_keys(game: HeadsUpGame, player: object, views: int, per_view: int) -> list[tuple]:
    """``(view, B, legal)`` at bank decisions the solver can meet behind ``player``'s play
    (drawn, seeded): ``views`` of the views it shows, ``per_view`` bank hands below 7½ one
    of its hands leaves behind each."""
    ends = values.player_forward(game, as_policy(player)).ends
    hands: dict[View, list[int]] = {}
    for view, hand in ends:
        hands.setdefault(view, []).append(hand)
    shown = sorted(hands, key=values._view_key)
    rng = np.random.default_rng(0)
    ms = game.ms
    banks = [b for b in range(len(ms.size)) if ms.size[b] and ms.total[b] < 15]
    keys = []
    for v in rng.choice(len(shown), min(views, len(shown)), replace=False):
        view = shown[v]
        fits = [b for b in banks if any(game.draw_weight(b, h) > 0 for h in hands[view])]
        for b in rng.choice(fits, min(per_view, len(fits)), replace=False):
            stand_ok, hit_ok = game.bank_legal(view, int(b))
            keys.append((view, int(b), [A.STAND] * stand_ok + [A.HIT] * hit_ok))
    return keys


class HashAgent:
    """A deterministic agent whose every choice hangs on every bit of its vector."""

    def __init__(self, observation_type: str) -> None:
        self.observation_type = observation_type

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        legal = np.flatnonzero(action_mask)
        digest = hashlib.blake2b(np.ascontiguousarray(observation).tobytes(), digest_size=4)
        return int(legal[int.from_bytes(digest.digest(), "little") % len(legal)])


PLAYERS = {"random": "random", "hash": HashAgent("observation")}
"""The player behind the bank: ``random`` plays every history of the small shoes (raises,
reveals, declared 7½s); ``hash`` one line per deal, with raises and reveals (``spanish``'s
free stakes with every history are out of reach even on small shoes)."""

SPLICE_GAMES = [("catalan", "1,1,1,1,1,1,1,2,1,1", "random"),
                ("spanish", "1,1,2,1,1,1,1,1,1,1", "hash"),
                ("pagat", "2,1,1,1,1,1,1,1,2,1", "random")]


@pytest.mark.parametrize("rules, shoe, player", SPLICE_GAMES)
def test_spliced_bank_states_are_the_replayed_ones(rules: str, shoe: str | None,
                                                   player: str) -> None:
    """Entry for entry, the spliced vector at a bank key is the one the whole replay of the
    key gives, on small shoes (the missing cards counted as seen) behind the player's
    histories (raises, reveals, declared 7½s, hands that leave the bank few cards)."""
    game = HeadsUpGame(rules, shoe, merge_figures=False)
    states = InformationStates(game)
    observations = SplicedObservations(game.twin("forgetful"))
    keys = _bank_keys(game, PLAYERS[player], 20, 5)
    later = 0
    for view, bank, legal in keys:
        np.testing.assert_array_equal(states.bank_state(view, bank, legal),
                                      states.replayed_bank_state(view, bank, legal),
                                      err_msg=f"{rules} {view} {game.ms.tuples[bank]}")
        summary = dataclasses.replace(view, hist=None)
        np.testing.assert_array_equal(
            observations.bank_observation(summary, bank, legal),
            observations.replayed_bank_observation(summary, bank, legal),
            err_msg=f"{rules} {summary} {game.ms.tuples[bank]}")
        later += game.ms.size[bank] > 2
    assert len(keys) > 60 and later > 10  # bank hands of three cards and more


def _network(rules: str, seed: int, tie: bool = False) -> LearnedAgent:
    """A small random network on the information state (``tie``: its stand and hit
    logits always equal)."""
    rng = np.random.default_rng(seed)
    size = information_state_size(fixed_bank_rules(rules), 2)
    actions = HeadsUpGame(rules).layout.size
    out = rng.normal(size=(16, actions))
    if tie:
        out[:, A.HIT] = out[:, A.STAND]
    layers = [(rng.normal(size=(size, 16)), rng.normal(size=16), "tanh"),
              (out, rng.normal(size=actions) * (0.0 if tie else 1.0), None)]
    return LearnedAgent(layers, size, observation_type="information_state")


BANK_AGENTS = {"hash on the information state": lambda r: HashAgent("information_state"),
               "hash on the observation": lambda r: HashAgent("observation"),
               "network": lambda r: _network(r, 3),
               "network, tied logits": lambda r: _network(r, 4, tie=True),
               "reader (its batch kernel)": lambda r: make_agent("reader",
                                                                 rules=Rules.resolve(r))}


@pytest.mark.parametrize("rules, shoe, player, stakes",
                         [("catalan", "1,1,0,1,0,1,1,1,0,1", "random", "free"),
                          ("spanish", "1,1,1,0,1,0,1,1,0,1", "hash", "fixed")])
def test_a_bank_on_spliced_states_is_valued_as_on_replayed_ones(rules: str, shoe: str,
                                                                 player: str, stakes: str,
                                                                 monkeypatch) -> None:
    """The exact EV and the player's best response against a bank agent are the same with
    the spliced bank states, a level at a time (a network's first layer built
    incrementally, its near ties decided by act), as with a replay of every key one by one
    (to 1e-12): agents on the information state and on the observation whose choices
    follow every bit, a network, and one whose logits tie everywhere. Behind ``random``
    the bank meets hands that leave it fewer cards than it could hold; ``reader`` on the
    observation is decided by its batch kernel, a level of bank hands per call; ``spanish``'s best
    response is the fixed-stakes one (with every raise at every moment it is out of reach)."""
    def values_of(agent: object) -> tuple[float, float]:
        bank = as_policy(agent)
        ev = evaluate(rules, PLAYERS[player], bank, composition=shoe)
        br = values.best_response(rules, "player", bank, composition=shoe, stakes=stakes)
        assert bank.queries > 100
        return ev.ev, br.value

    agents = {label: make(rules) for label, make in BANK_AGENTS.items()}
    spliced = {label: values_of(agent) for label, agent in agents.items()}
    monkeypatch.setattr(InformationStates, "bank_state", InformationStates.replayed_bank_state)
    monkeypatch.setattr(SplicedObservations, "bank_observation",
                        SplicedObservations.replayed_bank_observation)
    monkeypatch.delattr(InformationStatePolicy, "view_outcomes")
    monkeypatch.delattr(ObservationPolicy, "view_outcomes")
    for label, agent in agents.items():
        replayed = values_of(agent)
        assert spliced[label] == pytest.approx(replayed, abs=1e-12), label
    assert len({round(ev, 9) for ev, _br in spliced.values()}) == len(agents)  # they differ


def test_a_bank_hand_the_shoe_cannot_hold_has_no_chance() -> None:
    """Behind a player hand that leaves fewer cards than a bank hand holds, the chance of
    that bank hand is zero (not a division by zero), and a bank hand that fits keeps its."""
    game = HeadsUpGame("catalan", "2,1,1,0,0,0,0,0,0,0", merge_figures=False)
    ms = game.ms
    player = ms.index[(1, 1, 0) + (0,) * 7]  # an ace and a two: an ace and a three left
    assert game.draw_weight(ms.index[(1, 0, 1) + (0,) * 7], player) == pytest.approx(0.5)
    assert game.draw_weight(ms.index[(2, 0, 1) + (0,) * 7], player) == 0.0  # 3 of 2 left
