"""Information-state agents asked by the perfect-recall solver (evaluate/solver/observed.py).

At the points of real hands played in the ``Player-v0`` and ``Bank-v0`` views
with ``observation_type="information_state"``, the solver's key of that
point (built from the hand's public events, ``HeadsUpGame.player_node`` /
``bank_view``) gives exactly the vector the view gave the learner; and an
agent that reads only the observation part of its information state is
valued exactly as the native policy it plays.
"""

from __future__ import annotations

import numpy as np
import pytest

from envs import actions as A
from envs.cards import rank_of
from envs.engine import BANK, BET, PLAY, Engine
from envs.hands import DECLARED
from envs.information_state import information_state_size
from envs.observation import ObservationReader, observation_size
from envs.seat_play import dealer_action
from envs.single_seat import BankEnv, PlayerEnv, fixed_bank_rules
from evaluate.solver.game import HeadsUpGame, SolverError
from evaluate.solver.observed import InformationStatePolicy, InformationStates
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
    assert type(policy) is AgentPolicy and policy.forgets


def test_information_states_need_the_perfect_recall_game() -> None:
    with pytest.raises(SolverError, match="perfect-recall game only"):
        InformationStates(HeadsUpGame("pagat", merge_figures=False, recall="forgetful"))
    with pytest.raises(SolverError, match="ten ranks"):
        InformationStates(HeadsUpGame("pagat"))
