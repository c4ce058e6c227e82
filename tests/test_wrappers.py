"""envs.wrappers: the fast wrappers behave exactly as PettingZoo's own.

Every check runs the same script on ``env()`` (our wrappers) and on the raw
env wrapped by PettingZoo's original classes, and compares what a user sees:
observations, rewards, terminations, truncations, infos, the agent to act,
warnings and errors.
"""

from __future__ import annotations

import logging
import random
import warnings

import numpy as np
import pytest
from pettingzoo.utils import wrappers as pz

from envs import sette_e_mezzo_v0


def original_env(**kwargs):
    environment = sette_e_mezzo_v0.raw_env(**kwargs)
    environment = pz.TerminateIllegalWrapper(environment, illegal_reward=-1)
    environment = pz.AssertOutOfBoundsWrapper(environment)
    return pz.OrderEnforcingWrapper(environment)


def transcript(environment, seed: int, illegal_at: int | None = None,
               numpy_actions: bool = False) -> list:
    """Random legal play (an illegal move at step ``illegal_at``), everything seen."""
    rnd = random.Random(seed)
    environment.reset(seed=seed)
    seen = []
    logged: list[str] = []
    handler = logging.Handler()
    handler.emit = lambda record: logged.append(record.getMessage())  # type: ignore[method-assign]
    logger = logging.getLogger("pettingzoo.utils.env_logger")
    logger.addHandler(handler)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for step, agent in enumerate(environment.agent_iter()):
            obs, reward, term, trunc, info = environment.last()
            seen.append((agent, obs["observation"].tolist(), obs["action_mask"].tolist(),
                         reward, term, trunc, dict(info), dict(environment.rewards)))
            if term or trunc:
                action = None
            else:
                legal = np.flatnonzero(obs["action_mask"])
                if step == illegal_at:
                    action = int(np.flatnonzero(obs["action_mask"] == 0)[0])
                else:
                    action = int(rnd.choice(legal))
                if numpy_actions:
                    action = np.int64(action)
            environment.step(action)
    logger.removeHandler(handler)
    seen.append(sorted(str(w.message) for w in caught) + logged)
    return seen


@pytest.mark.parametrize("rules", ["catalan", "spanish_full"])
@pytest.mark.parametrize("illegal_at", [None, 0, 7])
def test_same_play_as_pettingzoo_wrappers(rules, illegal_at):
    ours = transcript(sette_e_mezzo_v0.env(rules=rules, num_seats=3, max_hands=4), 5, illegal_at)
    theirs = transcript(original_env(rules=rules, num_seats=3, max_hands=4), 5, illegal_at)
    assert ours == theirs
    if illegal_at is not None:  # the offender was punished and the game ended
        assert any("Illegal move" in w for w in ours[-1])
        assert any(row[3] == -1 for row in ours[:-1])


def test_numpy_integer_actions_are_accepted_like_python_ints():
    ours = transcript(sette_e_mezzo_v0.env(num_seats=2, max_hands=3), 2, numpy_actions=True)
    theirs = transcript(original_env(num_seats=2, max_hands=3), 2, numpy_actions=True)
    assert ours == theirs


@pytest.mark.parametrize("bad", [-1, 54, 1.0, "1", None])
def test_out_of_space_actions_fail_the_same_assertion(bad):
    for environment in (sette_e_mezzo_v0.env(num_seats=2), original_env(num_seats=2)):
        environment.reset(seed=0)
        with pytest.raises(AssertionError, match="action is not in action space"):
            environment.step(bad)


def test_calls_before_reset_fail_as_in_pettingzoo():
    for environment in (sette_e_mezzo_v0.env(num_seats=2), original_env(num_seats=2)):
        with pytest.raises(AttributeError, match="agent_selection cannot be accessed"):
            environment.last()
        with pytest.raises(AssertionError, match="reset\\(\\) needs to be called before step"):
            environment.step(0)
        with pytest.raises(AssertionError, match="reset\\(\\) needs to be called before observe"):
            environment.observe("player_0")


@pytest.mark.parametrize("bad", [True, False, np.bool_(True)])
def test_a_bool_action_is_out_of_the_space_naming_itself(bad):
    """Discrete.contains takes True as 1, and PettingZoo's wrapper then indexes the mask
    with it (a numpy filter) and fails on an ambiguous truth value; ours refuses it first."""
    environment = sette_e_mezzo_v0.env(num_seats=2)
    environment.reset(seed=0)
    agent = environment.agent_selection
    with pytest.raises(AssertionError, match=rf"action is not in action space: {bad!r} for "
                                             rf"{agent}, whose space is Discrete"):
        environment.step(bad)
    assert environment.agent_selection == agent  # nothing was played


def test_the_raw_env_before_reset_fails_as_the_wrapped_one():
    raw = sette_e_mezzo_v0.raw_env(num_seats=2, render_mode="ansi")
    for call, name in ((lambda: raw.observe("player_0"), "observe"),
                       (lambda: raw.step(0), "step"), (raw.render, "render")):
        with pytest.raises(AssertionError, match=rf"reset\(\) needs to be called before {name}"):
            call()
    raw.reset(seed=0)
    assert raw.render()  # and after it, all is there
    assert raw.observe("player_0")["observation"].shape == raw.observation_space(
        "player_0")["observation"].shape


def test_an_unknown_agent_is_named_with_the_agents():
    environment = sette_e_mezzo_v0.env(num_seats=2)
    environment.reset(seed=0)
    with pytest.raises(KeyError, match="unknown agent 'player_2'; the agents are player_0, "
                                       "player_1"):
        environment.observe("player_2")
