"""The batched baselines choose exactly what the scalar agents choose, on every state met.

Seeded tables of every preset at 2–5 seats are played with the scalar agents
— half of them by the careful player and the table-reading bank (the states
they meet), half by random legal play (the odd positions: a bank facing a
split, a declared 7½, a shoe nearly spent) — and every observation and mask
met is put to each batched agent and to the scalar one.
"""

from __future__ import annotations

import numpy as np
import pytest

from agents import make_agent
from agents.batch_policies import _checked, batch_policy, careful_actions, careful_tables
from agents.learned import LearnedAgent
from agents.scripted import RandomAgent, ThresholdAgent
from envs.engine import Engine
from envs.observer import Observer
from envs.rules import PRESETS

SPECS = ("threshold:5.5", "threshold:4", "careful", "careful:4", "reader:6.5",
         "careful|threshold:6")
TABLES = 8


def _states(rules: str, seats: int) -> tuple[np.ndarray, np.ndarray]:
    """Every observation and mask of the actor at seeded tables (module docstring)."""
    engine = Engine(rules, seats, max_hands=10)
    observer = Observer(engine)
    careful, reader = make_agent("careful", rules=rules), make_agent("reader", rules=rules)
    rows, masks = [], []
    for table in range(TABLES):
        rng = RandomAgent(1000 * seats + table)
        engine.reset(seed=table)
        while not engine.over:
            seat = engine.actor
            obs, mask = observer.observe(seat), engine.action_mask()
            rows.append(obs)
            masks.append(mask)
            if table % 2:
                engine.step(rng.act(obs, mask))
            else:
                engine.step((reader if engine.bank == seat else careful).act(obs, mask))
    return np.array(rows), np.array(masks)


CASES = [(rules, seats) for rules in PRESETS for seats in (2, 3, 4, 5)]


@pytest.mark.parametrize("rules,seats", CASES, ids=[f"{r}-{s}" for r, s in CASES])
def test_kernels_choose_what_the_scalar_agents_choose(rules: str, seats: int) -> None:
    observations, masks = _states(rules, seats)
    assert len(observations) > 150
    for spec in SPECS:
        agent = make_agent(spec, rules=rules)
        batched = batch_policy(agent)
        assert batched is not None, spec
        expected = [agent.act(o, m) for o, m in zip(observations, masks)]
        got = batched.act_batch(observations, masks)
        assert got.dtype == np.int64
        wrong = np.flatnonzero(got != expected)
        assert not wrong.size, (f"{spec} at {rules}, {seats} seats, state {wrong[0]}: kernel "
                                f"{got[wrong[0]]}, scalar {expected[wrong[0]]}")


@pytest.mark.parametrize("rules", ["catalan", "spanish_full", "pagat_italian"])
def test_the_careful_kernel_decides_every_state_itself(rules: str) -> None:
    """No row is handed back to the scalar agent, so the test above measures the kernel."""
    observations, masks = _checked(*_states(rules, 4))
    for spec in ("careful", "reader:4"):
        agent = make_agent(spec, rules=rules)
        raw = careful_actions(observations, masks, careful_tables(agent, 4))
        assert (raw >= 0).all()
        assert {int(a) for a in raw} >= {0, 1}  # stands and hits, not one fixed answer


def test_a_row_without_legal_actions_is_refused_as_the_scalar_agent_refuses() -> None:
    observations, masks = _states("catalan", 2)
    masks = masks[:3].copy()
    masks[1] = 0
    for spec in ("threshold", "careful"):
        with pytest.raises(ValueError, match="allows no action"):
            batch_policy(make_agent(spec)).act_batch(observations[:3], masks)


def test_what_has_no_kernel_is_not_batched() -> None:
    class Bolder(ThresholdAgent):
        def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
            return 1

    assert batch_policy(RandomAgent(0)) is None
    assert batch_policy(Bolder()) is None  # its own act, not the threshold rule
    assert batch_policy(make_agent("random|threshold")) is None
    wrapped = batch_policy(make_agent("threshold:5"))
    observations, masks = _states("catalan", 2)
    assert wrapped.act(observations[0], masks[0]) == make_agent("threshold:5").act(
        observations[0], masks[0])
    with pytest.raises(ValueError, match="observations"):
        wrapped.act_batch(observations[:, :40], masks)


def _learned(size: int, actions: int, seed: int) -> LearnedAgent:
    rng = np.random.default_rng(seed)
    layers = [(rng.normal(size=(size, 32)), rng.normal(size=32), "tanh"),
              (rng.normal(size=(32, 32)), rng.normal(size=32), "relu"),
              (rng.normal(size=(32, actions)), rng.normal(size=actions), None)]
    return LearnedAgent(layers, size, "test")


def test_a_learned_model_batched_acts_as_it_acts_one_row_at_a_time() -> None:
    observations, masks = _states("catalan", 3)
    for seed in range(3):
        model = _learned(observations.shape[1], masks.shape[1], seed)
        assert batch_policy(model) is model
        expected = [model.act(o, m) for o, m in zip(observations, masks)]
        assert model.act_batch(observations, masks).tolist() == expected
    with pytest.raises(ValueError, match="actions"):
        model.act_batch(observations, masks[:, :10])
