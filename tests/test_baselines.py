"""Rule-based baselines: the protocol, legality everywhere, and the play they encode."""

from __future__ import annotations

import re

import numpy as np
import pytest

import envs
from agents import AGENT_SPECS, PolicyPool, make_agent
from agents.base import Agent, Policy
from envs import actions as A
from envs.engine import BANK, TRANSFER, Engine
from envs.observer import Observer, observation_slices

BASELINES = ("random", "threshold:3.5", "threshold:7", "careful", "careful:6", "reader",
             "reader:4")


def _playable_presets() -> list[str]:
    playable = []
    for name in envs.PRESETS:
        try:
            Engine(name, 2)
        except NotImplementedError:
            continue
        playable.append(name)
    return playable


def _states(preset: str, num_seats: int, count: int, seed: int):
    """``count`` decision points (observation, mask) of random play on ``preset``."""
    engine = Engine(preset, num_seats, max_hands=30)
    observer = Observer(engine)
    rng = np.random.default_rng(seed)
    engine.reset(seed=seed)
    for _ in range(count):
        if engine.over:
            engine.reset(seed=int(rng.integers(1 << 30)))
        seat = engine.actor
        obs, mask = observer.observe(seat), engine.action_mask()
        yield obs, mask
        engine.step(int(rng.choice(np.flatnonzero(mask))))


@pytest.mark.parametrize("preset", _playable_presets())
@pytest.mark.parametrize("num_seats", [2, 5])
def test_baselines_never_choose_a_masked_action(preset: str, num_seats: int) -> None:
    rules = envs.Rules.preset(preset)
    agents = [make_agent(spec, seed=1, rules=rules) for spec in BASELINES]
    for obs, mask in _states(preset, num_seats, 400, seed=num_seats):
        for agent in agents:
            action = agent.act(obs, mask)
            assert mask[action], (agent, action, np.flatnonzero(mask))


def test_baselines_stay_legal_under_any_mask_house_actions_included() -> None:
    """Random masks over every action index exercise the house-rule branches (§6)."""
    rng = np.random.default_rng(7)
    agents = [make_agent(spec, seed=2) for spec in BASELINES]
    for obs, mask in _states("catalan", 3, 300, seed=5):
        for _ in range(3):
            random_mask = (rng.random(mask.size) < 0.3).astype(np.int8)
            random_mask[int(rng.integers(mask.size))] = 1
            for agent in agents:
                assert random_mask[agent.act(obs, random_mask)]


def test_every_agent_follows_the_protocol_and_predicts_in_batches() -> None:
    obs, mask = next(_states("catalan", 2, 1, seed=0))
    for spec in BASELINES:
        agent = make_agent(spec, seed=0)
        assert isinstance(agent, Policy) and isinstance(agent, Agent)
        single, _ = agent.predict(obs, action_masks=mask)
        batch, _ = agent.predict(np.stack([obs, obs]), action_masks=np.stack([mask, mask]))
        assert mask[int(single)] and batch.shape == (2,)
        assert repr(agent) == spec


def test_specs_are_named_in_errors() -> None:
    with pytest.raises(ValueError, match="unknown agent 'wizard'.*threshold"):
        make_agent("wizard")
    with pytest.raises(ValueError, match="'threshold:high'.*not a number"):
        make_agent("threshold:high")
    with pytest.raises(ValueError, match="outside 0.5..7.5"):
        make_agent("careful:9")
    with pytest.raises(ValueError, match="needs a path"):
        make_agent("model")
    with pytest.raises(ValueError, match="does not exist"):
        make_agent("model:/nonexistent/run/player")
    assert {"random", "threshold", "careful", "reader", "model"} <= set(AGENT_SPECS)


def _bank_decision(deck: list[str], player_actions: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """Heads-up ``pagat`` (first card face down, later ones up), bank on seat 0."""
    engine = Engine("pagat", 2, max_hands=1)
    engine.reset(seed=0, bank=0, deck=deck)
    engine.step(engine.layout.bet(1))
    for action in player_actions:
        engine.step(action)
    assert engine.phase == BANK
    return Observer(engine).observe(0), engine.action_mask()


def test_reader_bank_reads_the_face_up_cards() -> None:
    reader = make_agent("reader", rules="pagat")
    # Player: hidden 1, then a face-up 6 (7 in all; the bank sees 6 + a card).
    # Bank: 5 and a figure is 5½ — below the 6 it can see: it must draw.
    obs, mask = _bank_decision(["1o", "5c", "6o"], [A.HIT, A.STAND])
    assert reader.act(obs, mask) == A.HIT
    # Player stood on its face-down card alone; the bank's 7 beats most such hands.
    obs, mask = _bank_decision(["5o", "7c"], [A.STAND])
    assert reader.act(obs, mask) == A.STAND
    # A bank that stands only on 7½ cannot tell the two apart: it draws on both.
    assert make_agent("threshold:7.5").act(obs, mask) == A.HIT


def test_careful_player_stands_high_and_hits_low() -> None:
    careful = make_agent("careful", rules="pagat")
    for deck, expected in ((["7o", "2c"], A.STAND), (["1o", "2c"], A.HIT)):
        engine = Engine("pagat", 2, max_hands=1)
        engine.reset(seed=0, bank=0, deck=deck)
        engine.step(engine.layout.bet(1))
        assert careful.act(Observer(engine).observe(1), engine.action_mask()) == expected


def test_careful_player_takes_the_bank_only_when_it_can_cover_the_table() -> None:
    careful = make_agent("careful", rules="catalan")
    slices = observation_slices(4)
    obs, _mask = next(_states("catalan", 4, 1, seed=0))
    obs[slices["phase"]] = 0
    obs[slices["phase"].start + TRANSFER] = 1            # the bank is offered
    mask = np.zeros(Engine("catalan", 4).layout.size, dtype=np.int8)
    mask[[A.TAKE_BANK, A.REFUSE_BANK]] = 1
    assert careful.act(obs, mask) == A.TAKE_BANK          # 1000 chips cover 3 x 100 x 2
    obs[slices["seat_0.chips"]] = 0.1                     # 100 chips do not
    assert careful.act(obs, mask) == A.REFUSE_BANK


def test_pool_keeps_baselines_and_bounds_learned_members() -> None:
    base = make_agent("threshold:5")
    pool = PolicyPool([base], max_learned=2)
    extra = [make_agent(f"threshold:{t}") for t in (4, 5.5, 6)]
    for agent in extra:
        pool.add(agent)
    assert pool.members == [base, extra[1], extra[2]] and len(pool) == 3
    rng = np.random.default_rng(0)
    assert {repr(pool.sample(rng)) for _ in range(100)} == {"threshold:5", "threshold:5.5",
                                                           "threshold:6"}
    with pytest.raises(ValueError, match="pinned baseline"):
        PolicyPool([])


@pytest.mark.parametrize("pinned, member", [(["reader", "careful"], "'reader'"),
                                             ("careful", None), ([5], "5")])
def test_pool_refuses_what_is_no_policy(pinned: object, member: str | None) -> None:
    """A pool takes policies: an agent spec (the opponents' lists take specs) or a bare
    string, which would otherwise be a pool of its letters, is refused where it is made."""
    message = "not one string" if member is None else f"not {member}"
    with pytest.raises(TypeError, match=re.escape(message)):
        PolicyPool(pinned)  # type: ignore[arg-type]
    pool = PolicyPool([make_agent("careful")])
    with pytest.raises(TypeError, match=re.escape("agents.make_agent('reader', rules=...)")):
        pool.add("reader")  # type: ignore[arg-type]
    assert len(pool) == 1


@pytest.mark.parametrize("seed", [-1, 1.5, "7"])
def test_random_agent_names_a_bad_seed(seed: object) -> None:
    with pytest.raises(ValueError, match=re.escape(f"seed={seed!r} must be a non-negative")):
        make_agent("random", seed=seed)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=re.escape(f"seed={seed!r} must be a non-negative")):
        make_agent("random").seed(seed)  # type: ignore[arg-type]


def test_careful_refuses_a_mask_of_another_rule_set() -> None:
    """careful reads bets by the bet ladder of its rules; a mask of other rules (another
    ladder) is named, where it used to pick by the wrong indices or find no action."""
    short_ladder = envs.Rules.resolve("catalan").replace(bet_ladder=(1, 3))
    engine = Engine(short_ladder, 2)
    engine.reset(seed=0)
    obs, mask = Observer(engine).observe(engine.actor), engine.action_mask()
    careful = make_agent("careful")  # catalan's ladder
    with pytest.raises(ValueError, match=rf"the action mask has {len(mask)} entries, but these "
                                         rf"rules have {careful.layout.size} actions"):
        careful.act(obs, mask)
    assert mask[make_agent("careful", rules=short_ladder).act(obs, mask)]
