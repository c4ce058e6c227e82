"""``BatchSeatVecEnv``: the single-seat views over a batch of tables, as an SB3 ``VecEnv``.

One table of it is the scalar view hand for hand (same seed, same actions);
many tables keep the views' payouts (rewards are the learner's chips) and
their averages; SB3 and MaskablePPO drive it through the ``VecEnv`` protocol.
"""

from __future__ import annotations

import re
from functools import partial

import numpy as np
import pytest
from gymnasium.error import ResetNeeded
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported
from stable_baselines3.common.vec_env import VecMonitor

from agents import PolicyPool, make_agent
from envs.observation import ObservationReader
from envs.rules import Rules
from envs.single_seat import BankEnv, PlayerEnv, SeatEnv
from train.batch_vec_env import BatchSeatVecEnv
from train.ppo import BatchMaskablePPO
from train.vec_env import EndedVecMonitor, ViewVecEnv

ENGINE = "compiled"
"""The compiled engine (catalan and pagat are among the rules it plays)."""
SCALAR_VIEWS = {"player": PlayerEnv, "bank": BankEnv, "seat": SeatEnv}


def _opponents(view: str) -> object:
    if view == "player":
        return {"bank": ["reader", "threshold:5.5"], "players": ["careful", "threshold:5"]}
    if view == "bank":
        return {"players": ["careful", "threshold:4.5"]}
    return ["careful", "threshold:5", "reader"]


def _legal(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return np.array([rng.choice(np.flatnonzero(m)) for m in masks])


@pytest.mark.parametrize("view,num_seats,observation_type", [
    ("player", 2, "observation"), ("player", 3, "information_state"), ("bank", 2, "observation"),
    ("bank", 3, "observation"), ("seat", 3, "observation"), ("seat", 2, "information_state")])
def test_one_table_is_the_scalar_view_hand_for_hand(view: str, num_seats: int,
                                                    observation_type: str) -> None:
    """Same seed, same learner actions (an illegal one now and then): the same observations,
    rewards, ends, terminal observations and masks as the scalar view under ViewVecEnv."""
    rules = Rules.resolve("catalan")
    batch = BatchSeatVecEnv(view, rules, num_seats, 1, opponents=_opponents(view),
                            observation_type=observation_type, engine=ENGINE)
    scalar = ViewVecEnv([partial(SCALAR_VIEWS[view], rules, num_seats, _opponents(view),
                                 observation_type=observation_type)])
    batch.seed(21)
    scalar.seed(21)
    np.testing.assert_array_equal(batch.reset(), scalar.reset())
    rng = np.random.default_rng(4)
    ends = illegal = 0
    for step in range(400):
        masks = batch.action_masks()
        np.testing.assert_array_equal(masks, np.stack(scalar.env_method("action_masks")))
        actions = _legal(masks, rng)
        if step % 37 == 36:
            actions[:] = int(np.flatnonzero(~masks[0])[0])
            illegal += 1
        obs_b, rew_b, done_b, info_b = batch.step(actions)
        obs_s, rew_s, done_s, info_s = scalar.step(actions)
        np.testing.assert_array_equal(obs_b, obs_s)
        np.testing.assert_array_equal(rew_b, rew_s)
        np.testing.assert_array_equal(done_b, done_s)
        np.testing.assert_array_equal(info_b[0]["action_mask"], info_s[0]["action_mask"])
        if done_b[0]:
            ends += 1
            np.testing.assert_array_equal(info_b[0]["terminal_observation"],
                                          info_s[0]["terminal_observation"])
            assert info_b[0].get("illegal_action") == info_s[0].get("illegal_action")
    assert ends > 15 and illegal


def test_the_vec_env_protocol_sb3_calls() -> None:
    env = BatchSeatVecEnv("player", "catalan", 3, 8, opponents="reader", engine=ENGINE)
    assert env.seed(5) == [5] * 8
    obs = env.reset()
    assert obs.shape == (8, env.observation_space.shape[0]) and obs.dtype == np.float32
    assert all(env.observation_space.contains(row) for row in obs)
    assert is_masking_supported(env)
    masks = get_action_masks(env)
    assert masks.shape == (8, env.action_space.n) and masks.dtype == bool
    assert masks.any(axis=1).all()
    np.testing.assert_array_equal(masks, env.action_masks())
    learners = env.get_attr("learner")
    assert len(learners) == 8 and all(0 <= s < 3 for s in learners)
    assert env.get_attr("num_seats", indices=[0, 3]) == [3, 3]
    assert env.env_method("get_action_meanings", indices=[2])[0][:2] == ["stand", "hit"]
    assert len(env.env_method("action_masks", indices=[1, 2])) == 2
    assert env.env_is_wrapped(VecMonitor) == [False] * 8
    env.set_attr("illegal_reward", -2.0)
    with pytest.raises(AttributeError, match="illegal_reward"):
        env.set_attr("num_seats", 4)
    with pytest.raises(ValueError, match="illegal_reward=True must be a finite number"):
        env.set_attr("illegal_reward", True)
    assert env.get_attr("illegal_reward") == [-2.0] * 8
    with pytest.raises(AttributeError, match="action_masks"):
        env.env_method("render")
    env.step_async(_legal(masks, np.random.default_rng(0)))
    obs, rewards, dones, infos = env.step_wait()
    assert obs.shape == (8, env.observation_space.shape[0]) and rewards.dtype == np.float32
    assert dones.dtype == bool and len(infos) == 8
    with pytest.raises(ValueError, match="action indices"):
        env.step_async(np.zeros(8, dtype=np.float32))


@pytest.mark.parametrize("bad,match", [
    ({"view": "dealer"}, "view='dealer' is not one of player, bank, seat"),
    ({"view": "bank", "bank": 1}, "only the Player view fixes the bank"),
    ({"view": "player", "seat": 1, "bank": 1}, "never holds the bank"),
    ({"view": "seat", "seat": 7}, "seat=7 must be 'random' or a seat 0..1"),
    ({"view": "seat", "observation_type": "cards"}, "observation_type='cards'"),
    ({"view": "bank", "one_hand_tables": 1.5}, "one_hand_tables=1.5 must be a share 0..1"),
    ({"view": "bank", "one_hand_tables": "half"}, "one_hand_tables='half' must be a share"),
    ({"view": "seat", "one_hand_tables": 0.5}, "only the player and bank views"),
    ({"view": "player", "seed": -1}, "seed=-1 must be a non-negative integer or None"),
    ({"view": "player", "seed": 1.5}, "seed=1.5 must be a non-negative integer or None"),
    ({"view": "player", "illegal_reward": "x"}, "illegal_reward='x' must be a finite number"),
    ({"view": "bank", "illegal_reward": float("nan")}, "illegal_reward=nan must be a finite")])
def test_bad_arguments_are_named(bad: dict, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        BatchSeatVecEnv(**{"rules": "catalan", "num_seats": 2, "num_envs": 2,
                           "engine": ENGINE, **bad})


def test_a_seed_and_a_step_are_checked_before_any_table_is_dealt() -> None:
    """``seed()`` names a bad seed (it used to keep ``int(1.5)``); a step before ``reset()``,
    which has dealt no table, is refused (it used to score every table -1 as illegal)."""
    env = BatchSeatVecEnv("player", "catalan", 2, num_envs=4, opponents="reader", engine=ENGINE)
    for bad in (1.5, -2):
        with pytest.raises(ValueError, match=re.escape(f"seed={bad!r} must be")):
            env.seed(bad)
    with pytest.raises(ResetNeeded, match=re.escape("call reset() first")):
        env.step(np.zeros(4, dtype=np.int64))
    env.reset()
    _, _, _, infos = env.step(_legal(env.action_masks(), np.random.default_rng(0)))
    assert not any("illegal_action" in info for info in infos)


@pytest.mark.parametrize("num_seats", [2, 4])
def test_hand_rewards_are_the_players_chips(num_seats: int) -> None:
    """Over every hand at many tables, a learning player's rewards add up to its chips won
    from its first decision to the terminal observation, in units of min_bet. (Pagat: no
    jackpot ante, which a hand takes before the player's first decision and the next hand in
    the step that settles this one, RULES.md §8.9. The other views are held to the scalar
    ones above: a bank's hand can be settled in part before it first decides.)"""
    rules = Rules.resolve("pagat")
    env = BatchSeatVecEnv("player", rules, num_seats, 32, opponents=_opponents("player"),
                          seed=8, engine=ENGINE)

    def chips(observation: np.ndarray) -> int:
        return ObservationReader(observation, rules).chips(0)

    obs = env.reset()
    start = np.array([chips(row) for row in obs])
    total = np.zeros(32)
    rng = np.random.default_rng(1)
    checked = 0
    for _ in range(120):
        obs, rewards, dones, infos = env.step(_legal(env.action_masks(), rng))
        total += rewards
        for t in np.flatnonzero(dones):
            won = chips(infos[t]["terminal_observation"]) - start[t]
            assert total[t] == pytest.approx(won / rules.min_bet)
            start[t], total[t] = chips(obs[t]), 0.0
            checked += 1
    assert checked > 200


def test_mean_reward_per_hand_agrees_with_the_scalar_view() -> None:
    """The threshold-5 player against the reader bank, heads-up: the batch's mean reward per
    hand (many tables) and the scalar view's agree within their 99.9% interval."""
    player = make_agent("threshold:5")
    hands = 4000
    batch = BatchSeatVecEnv("player", "catalan", 2, 200, opponents="reader", seed=2,
                            engine=ENGINE)
    batch_rewards = _play(batch, player, hands)
    scalar = ViewVecEnv([partial(PlayerEnv, "catalan", 2, "reader")] * 4)
    scalar.seed(3)
    scalar_rewards = _play(scalar, player, hands)
    diff = batch_rewards.mean() - scalar_rewards.mean()
    se = np.hypot(batch_rewards.std() / np.sqrt(len(batch_rewards)),
                  scalar_rewards.std() / np.sqrt(len(scalar_rewards)))
    assert abs(diff) < 3.3 * se, (batch_rewards.mean(), scalar_rewards.mean(), se)
    assert -0.3 < batch_rewards.mean() < 0.0  # the bank's edge, a few tenths at most


def _play(venv: object, policy: object, hands: int) -> np.ndarray:
    """Rewards per episode (hand) of ``policy`` playing the learner at every table."""
    obs = venv.reset()  # type: ignore[attr-defined]
    episodes: list[float] = []
    running = np.zeros(venv.num_envs)  # type: ignore[attr-defined]
    while len(episodes) < hands:
        masks = get_action_masks(venv)
        actions = np.array([policy.act(o, m) for o, m in zip(obs, masks)])  # type: ignore
        obs, rewards, dones, _ = venv.step(actions)  # type: ignore[attr-defined]
        running += rewards
        episodes.extend(running[dones].tolist())
        running[dones] = 0.0
    return np.array(episodes)


def test_a_seed_repeats_everything_and_pools_are_drawn_per_episode() -> None:
    pool = PolicyPool([make_agent("careful"), make_agent("threshold:4")], max_learned=2)

    def run(seed: int) -> tuple[list[np.ndarray], set[int]]:
        env = BatchSeatVecEnv("bank", "catalan", 3, 16, opponents={"players": pool},
                              seed=seed, engine=ENGINE)
        out = [env.reset()]
        rng = np.random.default_rng(0)
        for _ in range(60):
            obs, rewards, dones, _ = env.step(_legal(env.action_masks(), rng))
            out += [obs, rewards, dones]
        return out, set(np.unique(env._opponents.seat).tolist())

    first, drawn = run(7)
    again, _ = run(7)
    other, _ = run(8)
    for a, b in zip(first, again):
        np.testing.assert_array_equal(a, b)
    assert any(not np.array_equal(a, b) for a, b in zip(first, other))
    assert len(drawn) == 2, "both members of the pool sit at the tables"


@pytest.mark.parametrize("view", ["bank", "player"])
def test_one_hand_tables_start_every_hand_from_a_full_shoe(view: str) -> None:
    """``one_hand_tables=0.5``: the first half of the tables are dealt afresh after every
    hand (no hand played before any of their learner's decisions), and each of their hands
    is the scalar view's at one hand a table, seed for seed; the other half play on down
    the shoe to their tenth hand."""
    tables = 8
    env = BatchSeatVecEnv(view, "catalan", 2, tables, opponents=_opponents(view), seed=5,
                          engine=ENGINE, one_hand_tables=0.5)
    obs = env.reset()
    rng = np.random.default_rng(1)
    deepest = np.zeros(tables, dtype=int)
    for _ in range(300):
        played = [round(float(ObservationReader(o)["hands_played"][0]) * 10) for o in obs]
        deepest = np.maximum(deepest, played)
        obs, _, _, _ = env.step(_legal(env.action_masks(), rng))
    assert not deepest[:tables // 2].any(), "a one-hand table played a second hand"
    assert deepest[tables // 2:].min() >= 5, "the other tables play on down the shoe"

    one = BatchSeatVecEnv(view, "catalan", 2, 1, opponents=_opponents(view), seed=9,
                          engine=ENGINE, one_hand_tables=1.0)
    scalar = ViewVecEnv([partial(SCALAR_VIEWS[view], "catalan", 2, _opponents(view),
                                 table_hands=1)])
    scalar.seed(9)
    np.testing.assert_array_equal(one.reset(), scalar.reset())
    for _ in range(200):
        masks = one.action_masks()
        np.testing.assert_array_equal(masks, np.stack(scalar.env_method("action_masks")))
        actions = _legal(masks, rng)
        obs_b, rew_b, done_b, _ = one.step(actions)
        obs_s, rew_s, done_s, _ = scalar.step(actions)
        np.testing.assert_array_equal(obs_b, obs_s)
        np.testing.assert_array_equal(rew_b, rew_s)
        np.testing.assert_array_equal(done_b, done_s)


def test_a_tiny_maskable_ppo_run_learns_on_it() -> None:
    """MaskablePPO trains on the batch env through VecMonitor: episodes are counted and
    the run repeats for a seed."""
    def train(seed: int) -> tuple[np.ndarray, int]:
        env = VecMonitor(BatchSeatVecEnv("player", "catalan", 2, 64, opponents="reader",
                                          engine=ENGINE))
        model = MaskablePPO("MlpPolicy", env, n_steps=32, batch_size=512, n_epochs=2,
                            seed=seed, device="cpu", policy_kwargs={"net_arch": [32]})
        model.learn(total_timesteps=2048)
        assert model.num_timesteps == 2048
        weights = next(model.policy.parameters()).detach().numpy().copy()
        return weights, len(model.ep_info_buffer)

    weights, episodes = train(3)
    again, _ = train(3)
    assert episodes > 30
    np.testing.assert_array_equal(weights, again)


@pytest.mark.parametrize("fresh_infos", [True, False])
def test_the_ended_tables_monitor_records_what_vec_monitor_records(
        fresh_infos: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """EndedVecMonitor visits only the ended tables: the same infos, episode returns and
    lengths (types included) and counts as SB3's VecMonitor, step for step; the record
    goes into the info itself where the env's infos are fresh, into a copy otherwise."""
    monkeypatch.setattr(BatchSeatVecEnv, "fresh_infos", fresh_infos)

    def env(monitor: type) -> VecMonitor:
        venv = monitor(BatchSeatVecEnv("player", "catalan", 3, 32, opponents="reader",
                                       engine=ENGINE))
        venv.seed(9)
        venv.reset()
        return venv

    fast, slow = env(EndedVecMonitor), env(VecMonitor)
    assert fast._in_place is fresh_infos
    rng = np.random.default_rng(10)
    for _ in range(60):
        actions = _legal(get_action_masks(slow), rng)
        got, want = fast.step(actions), slow.step(actions)
        for a, b in zip(got[:3], want[:3]):
            np.testing.assert_array_equal(a, b)
        for g, w in zip(got[3], want[3]):
            assert g.keys() == w.keys()
            if "episode" in w:
                for key in ("r", "l"):
                    assert g["episode"][key] == w["episode"][key]
                    assert type(g["episode"][key]) is type(w["episode"][key])
    assert fast.episode_count == slow.episode_count > 60
    np.testing.assert_array_equal(fast.episode_lengths, slow.episode_lengths)


def test_batch_maskable_ppo_keeps_maskable_ppos_episode_buffer_and_weights() -> None:
    """BatchMaskablePPO reads only the ended tables' infos: the same episode buffer and
    the same weights as MaskablePPO for a seed."""
    def train(algorithm: type) -> tuple[np.ndarray, list[tuple[float, int]]]:
        env = EndedVecMonitor(BatchSeatVecEnv("player", "catalan", 2, 64, opponents="reader",
                                              engine=ENGINE))
        model = algorithm("MlpPolicy", env, n_steps=16, batch_size=512, n_epochs=1, seed=4,
                          device="cpu", policy_kwargs={"net_arch": [16]})
        model.learn(total_timesteps=2048)
        weights = next(model.policy.parameters()).detach().numpy().copy()
        return weights, [(e["r"], e["l"]) for e in model.ep_info_buffer or []]

    weights, episodes = train(BatchMaskablePPO)
    want_weights, want_episodes = train(MaskablePPO)
    np.testing.assert_array_equal(weights, want_weights)
    assert episodes == want_episodes and len(episodes) == 100


@pytest.mark.parametrize("actions", [54, 64, 70])
def test_mask_rows_are_the_masks_one_read_only_array_per_pattern(actions: int) -> None:
    """The infos' masks: row for row equal to the masks, read-only, one object per pattern
    however many steps show it; past 64 actions too."""
    from train.batch_vec_env import _MaskRows

    rng = np.random.default_rng(actions)
    patterns = rng.random((12, actions)) < 0.3
    rows = _MaskRows()
    seen: dict[bytes, int] = {}
    for _ in range(4):
        masks = patterns[rng.integers(len(patterns), size=300)]
        out = rows.rows(masks)
        assert len(out) == len(masks)
        for row, mask in zip(out, masks):
            np.testing.assert_array_equal(row, mask)
            assert row.dtype == bool and not row.flags.writeable
            assert seen.setdefault(mask.tobytes(), id(row)) == id(row)
    assert len(seen) == len(np.unique(patterns, axis=0))
    assert rows.rows(np.zeros((0, actions), dtype=bool)) == []
