"""The opponents' turns in one compiled call (``agents.batch_turns``) play as the Python loop.

``BatchSeatVecEnv(compiled_turns=False)`` plays every other seat's turn from
Python, a round of observe, decide and step at a time: the reference. With
the compiled turns (the default) every observation, reward, end, terminal
observation and mask must be the same, step for step, over many tables,
every view and rule set the compiled engine plays, and opponents of every
kind the kernel knows — and the Python loop must take over exactly where the
kernel leaves a table.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from agents import make_agent
from agents.batch_policies import batch_policy
from agents.batch_turns import CAREFUL, SPLIT, THRESHOLD, UNPLAYED, turn_policies
from envs.batch.engine import BatchEngine
from envs.rules import Rules
from train.batch_vec_env import BatchSeatVecEnv

TABLES = 48


def _opponents(view: str) -> Any:
    if view == "player":
        return {"bank": ["reader", "threshold:5.5", "careful|reader"],
                "players": ["careful", "threshold:5"]}
    if view == "bank":
        return {"players": ["careful", "threshold:4.5"]}
    return ["careful", "threshold:5", "reader", "threshold:4|reader"]


def _play(env: BatchSeatVecEnv, steps: int, seed: int) -> list[tuple[Any, ...]]:
    """``steps`` steps of random legal learner actions (an illegal one now and then)."""
    env.seed(seed)
    first = env.reset()
    assert isinstance(first, np.ndarray)
    out: list[tuple[Any, ...]] = [(first.copy(),)]
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        masks = env.action_masks()
        actions = np.argmax(np.where(masks, rng.random(masks.shape), -1.0), axis=1)
        actions[rng.random(len(actions)) < 0.01] = 0  # now and then a move that may be illegal
        obs, rewards, dones, infos = env.step(actions)
        ended = [(i, info["terminal_observation"].copy(), info["action_mask"].copy())
                 for i, info in enumerate(infos) if "terminal_observation" in info]
        out.append((np.array(obs), rewards.copy(), dones.copy(), env.action_masks(), ended,
                    [info.get("illegal_action") for info in infos]))
    return out


def _assert_same(compiled: list[tuple[Any, ...]], python: list[tuple[Any, ...]]) -> None:
    assert len(compiled) == len(python)
    for step, (a, b) in enumerate(zip(compiled, python)):
        for x, y in zip(a, b):
            if isinstance(x, list):
                assert len(x) == len(y), step
                for u, v in zip(x, y):
                    if isinstance(u, tuple):
                        assert u[0] == v[0], step
                        np.testing.assert_array_equal(u[1], v[1])
                        np.testing.assert_array_equal(u[2], v[2])
                    else:
                        assert u == v, step
            else:
                np.testing.assert_array_equal(x, y, err_msg=f"step {step}")


def _pair(view: str, rules: str, num_seats: int, **kwargs: Any
          ) -> tuple[BatchSeatVecEnv, BatchSeatVecEnv]:
    compiled, python = (BatchSeatVecEnv(view, rules, num_seats, TABLES,
                                        opponents=_opponents(view), engine="compiled",
                                        compiled_turns=turns, **kwargs)
                        for turns in (True, False))
    return compiled, python


@pytest.mark.parametrize("view,rules,num_seats,kwargs", [
    ("player", "catalan", 2, {"one_hand_tables": 0.5}),
    ("player", "catalan_house", 3, {}),
    ("player", "pagat_italian", 3, {"seat": 1}),
    ("bank", "catalan", 2, {"one_hand_tables": 0.7}),
    ("bank", "spanish", 4, {}),
    ("seat", "pagat_spanish", 3, {}),
    ("seat", "catalan", 2, {"table_hands": 4}),
])
def test_compiled_turns_play_as_the_python_loop(view: str, rules: str, num_seats: int,
                                                kwargs: dict[str, Any]) -> None:
    compiled, python = _pair(view, rules, num_seats, **kwargs)
    assert compiled._turns is not None and python._turns is None
    _assert_same(_play(compiled, 150, seed=5), _play(python, 150, seed=5))
    assert compiled._opponents.turn_policies(num_seats) is not None  # the kernel played


def test_the_python_loop_is_not_asked_when_the_kernel_plays_every_turn(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Baselines without wild cards never leave the kernel's tables: no Python round."""
    env = BatchSeatVecEnv("player", "catalan", 3, TABLES, opponents=_opponents("player"),
                          engine="compiled")

    def refuse(*_: Any) -> None:
        raise AssertionError("the Python loop played a turn the kernel should have")

    monkeypatch.setattr(env, "_play_opponents", refuse)
    _play(env, 60, seed=1)


def test_tables_the_kernel_leaves_are_finished_by_the_python_loop(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The kernel stops a table whose policy it cannot play (here: the bank's, marked never
    played) and the Python loop takes it from there: the same play as the Python loop alone."""
    compiled, python = _pair("player", "catalan", 3)
    handed: list[int] = []
    original = compiled._opponents.turn_policies
    loop = compiled._play_opponents

    def bank_left(num_seats: int) -> Any:
        policies = original(num_seats)
        if policies is None:
            return None
        kinds = policies.kinds.copy()
        kinds[compiled._opponents.bank[0]] = UNPLAYED
        return policies._replace(kinds=kinds)

    def counted(rows: np.ndarray, rewards: Any) -> None:
        handed.append(len(rows))
        loop(rows, rewards)

    monkeypatch.setattr(compiled._opponents, "turn_policies", bank_left)
    monkeypatch.setattr(compiled, "_play_opponents", counted)
    _assert_same(_play(compiled, 80, seed=2), _play(python, 80, seed=2))
    assert sum(handed) > TABLES


def test_learned_or_random_opponents_take_the_python_loop() -> None:
    env = BatchSeatVecEnv("bank", "catalan", 2, 4, opponents={"players": ["careful", "random"]},
                          engine="compiled")
    env.seed(0)
    env.reset()
    assert env._opponents.turn_policies(2) is None


def test_turn_policies_describe_every_kind_and_refuse_the_rest() -> None:
    rules = Rules.preset("catalan")
    agents = [make_agent(spec, rules=rules) for spec in ("threshold:4.5", "careful", "reader",
                                                         "careful|threshold:6")]
    policies = turn_policies([batch_policy(a) for a in agents], 2, [False, False, False, False])
    assert policies is not None
    assert policies.kinds.tolist() == [THRESHOLD, CAREFUL, CAREFUL, SPLIT, CAREFUL, THRESHOLD]
    assert policies.thresholds[0] == 4.5 and policies.thresholds[5] == 6.0
    assert policies.sides[3].tolist() == [4, 5]
    assert policies.careful_at.tolist()[1:3] == [0, 1] and policies.stand.shape[0] == 3
    assert turn_policies([batch_policy(agents[0]), None], 2) is None
    pooled = turn_policies([None, batch_policy(agents[0])], 2, [True, False])
    assert pooled is not None and pooled.kinds.tolist() == [UNPLAYED, THRESHOLD]


@pytest.mark.parametrize("kwargs", [{"record": True}, {"information_state": True},
                                    {"observe": False}])
def test_run_turns_refuses_an_engine_that_reads_every_move(kwargs: dict[str, Any]) -> None:
    tables = BatchEngine("catalan", 2, 2, **kwargs)
    with pytest.raises(ValueError, match="run_turns needs a BatchEngine with observe=True"):
        tables.run_turns(None, np.arange(2))
