"""The multi-agent env RLlib steps: agents follow the bank, rewards are the hand's chips.

Played with random legal actions (no training): every agent's role is the
role its seat has at that moment, so the bank's policy plays exactly the
bank's decisions as the bank moves from seat to seat (RULES.md §5); each
agent's reward is its seat's net chips over the hand (chips conserved at
the table); the same seed gives the same hands; the compiled batch engine
and the scalar engine play the same game through it.
"""

from __future__ import annotations

from typing import Any

import numpy as np


def _env(**config: Any) -> Any:
    from train.rllib_env import SetteTablesEnv

    return SetteTablesEnv({"rules": "catalan", "num_seats": 4, "num_tables": 6,
                           "table_hands": 6, "engine": "reference", "seed": 5, **config})


def _play(env: Any, episodes: int, seed: int = 0, check: Any = None) -> list[dict[str, Any]]:
    """Random legal play for ``episodes`` rounds of hands: every step's observations."""
    rng = np.random.default_rng(seed)
    seen = []
    observations, _ = env.reset(seed=seed)
    for _ in range(episodes):
        done = False
        while not done:
            seen.append({aid: obs["observations"].copy() for aid, obs in observations.items()})
            if check is not None:
                check(env, observations)
            actions = {aid: int(rng.choice(np.flatnonzero(obs["action_mask"])))
                       for aid, obs in observations.items()}
            observations, rewards, terminateds, _, _ = env.step(actions)
            done = terminateds["__all__"]
            if check is not None:
                check(env, observations, rewards, terminateds)
        observations, _ = env.reset()
    return seen


def test_each_agent_plays_its_seats_role_and_maps_to_that_policy() -> None:
    from train.rllib_env import policy_for

    env = _env()
    roles_by_seat: dict[tuple[int, int], set[str]] = {}

    def check(env: Any, observations: dict, *rest: Any) -> None:
        if rest:
            return
        for aid in observations:
            table, seat = int(aid.split("-")[1][1:]), int(aid.split("-")[2][1:])
            assert seat == int(env.tables.actor[table])
            expected = "bank" if seat == int(env.tables.bank[table]) else "player"
            assert policy_for(aid) == expected
            roles_by_seat.setdefault((table, seat), set()).add(expected)

    _play(env, 12, check=check)
    assert any(roles == {"player", "bank"} for roles in roles_by_seat.values()), \
        "the bank never moved: the test shows nothing"


def test_rewards_are_each_seats_net_chips_of_the_hand() -> None:
    """Over one round (one hand a table), each agent's reward is its seat's chips won or
    lost in that hand, in units of min_bet; every agent's part ends ``terminated``."""
    env = _env()
    rng = np.random.default_rng(1)
    observations, _ = env.reset(seed=1)
    before = env.tables.chips.copy()
    got: dict[tuple[int, int], float] = {}
    seen, ended = set(observations), set()
    done = False
    while not done:
        actions = {aid: int(rng.choice(np.flatnonzero(obs["action_mask"])))
                   for aid, obs in observations.items()}
        observations, rewards, terminateds, _, _ = env.step(actions)
        seen |= set(observations)
        for aid, reward in rewards.items():
            key = (int(aid.split("-")[1][1:]), int(aid.split("-")[2][1:]))
            got[key] = got.get(key, 0.0) + reward
        ended |= {aid for aid, flag in terminateds.items() if flag and aid != "__all__"}
        done = terminateds["__all__"]
    assert ended == seen
    won = (env.tables.chips - before) / env.rules.min_bet
    assert got and all(np.isclose(reward, won[table, seat])
                       for (table, seat), reward in got.items())
    assert any(reward != 0 for reward in got.values())


def _same(a: list[dict[str, Any]], b: list[dict[str, Any]]) -> bool:
    return len(a) == len(b) and all(
        x.keys() == y.keys() and all(np.array_equal(x[k], y[k]) for k in x)
        for x, y in zip(a, b))


def test_same_seed_same_hands_on_either_engine() -> None:
    """The scalar engine and the compiled batch engine (which deals from its own generator,
    :mod:`envs.batch.api`): the same seed and actions give the same observations."""
    for engine in ("reference", "compiled"):
        first = _play(_env(engine=engine), 3, seed=7)
        assert _same(first, _play(_env(engine=engine), 3, seed=7))
        assert not _same(first, _play(_env(engine=engine), 3, seed=8))


def test_legal_play_check_on_the_information_state() -> None:
    from train.rllib_env import check_legal_play

    env = _env(observation_type="information_state")
    assert check_legal_play(env, seed=2, steps=60) > 60
