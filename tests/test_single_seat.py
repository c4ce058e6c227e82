"""The single-seat Gymnasium views: registration, API, roles, rewards, opponents."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.error import ResetNeeded
from gymnasium.utils.env_checker import check_env

import envs
from agents import PolicyPool, make_agent
from envs.observer import Observer, observation_slices
from envs.seat_play import dealer_action
from envs.single_seat import BankEnv, DealerRule, PlayerEnv, SeatEnv, fixed_bank_rules

VIEW_IDS = ("sette/Player-v0", "sette/Bank-v0", "sette/Seat-v0")


def _playable_presets() -> list[str]:
    """Every preset the engine can play now (new presets are picked up by themselves)."""
    playable = []
    for name in envs.PRESETS:
        try:
            envs.Engine(name, 2)
        except NotImplementedError:
            continue
        playable.append(name)
    return playable


def _random_run(env: gym.Env, steps: int, seed: int = 0):
    """Random legal actions; yields (obs, reward, terminated, info) after each step."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    for _ in range(steps):
        legal = np.flatnonzero(env.unwrapped.action_masks())
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(legal)))
        yield obs, reward, terminated, info
        if terminated or truncated:
            env.reset()


@pytest.mark.parametrize("view_id", VIEW_IDS)
@pytest.mark.parametrize("preset", _playable_presets())
def test_check_env_passes_for_every_view_and_preset(view_id: str, preset: str) -> None:
    env = gym.make(view_id, rules=preset, num_seats=3, opponents="threshold:5")
    check_env(env.unwrapped, skip_render_check=True)


def test_ids_are_registered_and_the_module_form_works() -> None:
    for view_id in VIEW_IDS:
        assert view_id in gym.registry
    env = gym.make("envs:sette/Player-v0", rules="catalan", num_seats=2)
    obs, info = env.reset(seed=1)
    assert env.observation_space.contains(obs)
    assert info["role"] == "player"


@pytest.mark.parametrize("view_id", VIEW_IDS)
def test_spaces_are_those_of_the_pettingzoo_env(view_id: str) -> None:
    aec = envs.sette_e_mezzo_v0.raw_env(rules="catalan", num_seats=4)
    env = gym.make(view_id, rules="catalan", num_seats=4)
    assert env.observation_space == aec.observation_space("player_0")["observation"]
    assert env.action_space == aec.action_space("player_0")
    assert env.unwrapped.get_action_meanings() == aec.get_action_meanings()


@pytest.mark.parametrize("num_seats", [2, 4])
def test_player_view_never_holds_the_bank_and_bank_view_always_does(num_seats: int) -> None:
    is_bank = observation_slices(num_seats)["seat_0.is_bank"].start
    player = PlayerEnv("catalan", num_seats, opponents="careful")
    seats = set()
    for obs, _r, _t, info in _random_run(player, 600):
        assert obs[is_bank] == 0 and info["role"] == "player"
        seats.add(info["seat"])
    if num_seats > 2:
        assert len(seats) > 1, "the learner's seat is drawn per hand"
    bank = BankEnv("catalan", num_seats, opponents="careful")
    for obs, _r, _t, info in _random_run(bank, 300):
        assert obs[is_bank] == 1 and info["role"] == "bank"


def test_seat_view_plays_both_roles_and_the_role_is_in_the_observation() -> None:
    is_bank = observation_slices(3)["seat_0.is_bank"].start
    env = SeatEnv("catalan", 3, opponents="threshold:5", seat=0, table_hands=30)
    roles = set()
    for obs, _r, _t, info in _random_run(env, 3000):
        roles.add(info["role"])
        if not _t:
            assert bool(obs[is_bank]) == (info["role"] == "bank")
    assert roles == {"player", "bank"}


@pytest.mark.parametrize("cls", [PlayerEnv, BankEnv])
def test_reward_is_the_learners_chips_per_hand_in_min_bets(cls: type) -> None:
    env = cls("pagat", 3, opponents="threshold:5")
    rng = np.random.default_rng(3)
    env.reset(seed=3)
    for _ in range(200):
        engine = env.engine
        seat, hands, before = env.learner, engine.hands_played, engine.hand_start_chips[env.learner]
        total, terminated = 0.0, False
        while not terminated:
            _obs, reward, terminated, _tr, _info = env.step(
                int(rng.choice(np.flatnonzero(env.action_masks()))))
            total += reward
        if engine.hands_played == hands + 1 and not engine.over:
            delta = engine.hand_start_chips[seat] - before
            assert total == pytest.approx(delta / env.rules.min_bet)
        env.reset()


def test_fixed_bank_rules_keep_the_bank_and_every_other_switch() -> None:
    for name in _playable_presets():
        rules = envs.Rules.preset(name)
        fixed = fixed_bank_rules(rules)
        assert (fixed.bank_transfer, fixed.max_bank_hands, fixed.bank_min_cover) == \
            ("none", 0, False)
        assert fixed.natural_pays == rules.natural_pays
        assert fixed.hidden_cards == rules.hidden_cards


def test_seeded_resets_repeat_exactly_with_random_opponents() -> None:
    def trajectory() -> list:
        env = PlayerEnv("catalan", 3, opponents={"bank": "random", "players": "random"})
        return [(o.tobytes(), r) for o, r, _t, _i in _random_run(env, 200, seed=11)]

    assert trajectory() == trajectory()


def test_opponents_can_be_pools_lists_and_role_mappings() -> None:
    pool = PolicyPool([make_agent("threshold:4"), make_agent("threshold:6")], max_learned=1)
    env = PlayerEnv("catalan", 3, opponents={"bank": pool, "players": ["careful", "random"]})
    drawn = set()
    for _ in _random_run(env, 300):
        drawn.add(repr(env._policy_of(env.engine.bank)))
    assert drawn == {"threshold:4", "threshold:6"}


def test_illegal_action_ends_the_episode_with_the_penalty() -> None:
    env = PlayerEnv("catalan", 2, illegal_reward=-3.0)
    env.reset(seed=0)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    _obs, reward, terminated, _tr, info = env.step(illegal)
    assert (reward, terminated, info["illegal_action"]) == (-3.0, True, illegal)
    env.reset()
    assert env.action_masks().any()


@pytest.mark.parametrize("cls", [PlayerEnv, BankEnv, SeatEnv])
def test_a_step_after_the_episode_ends_waits_for_reset(cls: type) -> None:
    """Once ``terminated`` is returned, the next step is refused until ``reset()``: it neither
    plays the next hand unseen nor throws the table away, and ``reset()`` carries on with
    the table's next hand (a new table only for the Seat view, whose episode is one)."""
    env = cls("catalan", 2, opponents="reader")
    with pytest.raises(ResetNeeded, match=re.escape("call reset() for the next one")):
        env.step(0)
    env.reset(seed=0)
    terminated = False
    while not terminated:
        _, _, terminated, _, _ = env.step(int(np.flatnonzero(env.action_masks())[0]))
    hands, events = env.engine.hands_played, len(env.engine.events)
    legal = int(np.flatnonzero(env.action_masks())[0]) if env.action_masks().any() else 0
    with pytest.raises(ResetNeeded, match=re.escape(f"step({legal}): the episode is over")):
        env.step(legal)
    assert (env.engine.hands_played, len(env.engine.events)) == (hands, events)
    env.reset()
    if cls is not SeatEnv:
        assert env.engine.hands_played >= hands > 0
    _, _, terminated, _, _ = env.step(int(np.flatnonzero(env.action_masks())[0]))


def test_bad_arguments_are_named() -> None:
    with pytest.raises(ValueError, match="never holds the bank"):
        PlayerEnv("catalan", 3, seat=1, bank=1)
    with pytest.raises(ValueError, match="unknown role 'dealer'"):
        PlayerEnv("catalan", 2, opponents={"dealer": "random"})
    with pytest.raises(ValueError, match="unknown agent 'nobody'"):
        BankEnv("catalan", 2, opponents="nobody")
    with pytest.raises(ValueError, match="seat=9"):
        SeatEnv("catalan", 2, seat=9)
    with pytest.raises(TypeError, match="neither a policy"):
        SeatEnv("catalan", 2, opponents=42)
    with pytest.raises(envs.RulesError, match="presets are"):
        gym.make("sette/Bank-v0", rules="klondike")
    for bad in ("x", float("inf"), None, True):
        with pytest.raises(ValueError, match=re.escape(f"illegal_reward={bad!r} must be a "
                                                       f"finite number")):
            PlayerEnv("catalan", 2, illegal_reward=bad)
    assert PlayerEnv("catalan", 2, illegal_reward=np.int64(-3)).illegal_reward == -3.0


def test_masks_work_with_maskable_ppo_through_subprocesses() -> None:
    pytest.importorskip("sb3_contrib")  # the "train" extra
    from sb3_contrib.common.maskable.utils import get_action_masks
    from stable_baselines3.common.env_util import make_vec_env
    from stable_baselines3.common.vec_env import SubprocVecEnv

    venv = make_vec_env("envs:sette/Player-v0", n_envs=2, vec_env_cls=SubprocVecEnv,
                        env_kwargs={"rules": "catalan", "num_seats": 2, "render_mode": None},
                        vec_env_kwargs={"start_method": "fork"})
    try:
        venv.reset()
        masks = get_action_masks(venv)
        assert masks.shape == (2, venv.action_space.n) and masks.any(axis=1).all()
    finally:
        venv.close()


@pytest.mark.parametrize("preset", ["catalan", "spanish_full", "italian"])
def test_the_built_in_dealer_decides_the_same_without_its_observation(preset: str) -> None:
    """The views ask a DealerRule (and a ThresholdAgent) from the engine's numbers
    (envs.seat_play.dealer_action); it must be the act() it would give from its vector."""
    engine = envs.Engine(preset, 4, max_hands=None)
    observer = Observer(engine)
    dealers = [DealerRule(t) for t in (0.5, 4, 5.3, 5.5, 7.5)] + [make_agent("threshold:6")]
    rng = np.random.default_rng(1)
    engine.reset(seed=2)
    compared = set()
    for _ in range(3000):
        if engine.over:
            engine.reset(seed=int(rng.integers(1000)))
        seat = engine.actor
        for dealer in dealers:
            seen = dealer.act(observer.observe(seat), engine.action_mask())
            assert dealer_action(dealer.threshold, observer.own_total(seat),
                                 engine.legal_mask()) == seen
            compared.add(seen)
        engine.step(int(rng.choice(engine.legal_actions())))
    assert {0, 1} <= compared, "stand and hit were both decided"


def test_a_subclass_that_overrides_act_is_asked_through_act() -> None:
    class Contrarian(DealerRule):
        def act(self, observation, action_mask):
            return 0 if action_mask[0] else int(np.flatnonzero(action_mask)[0])

    env = PlayerEnv("catalan", 2, opponents={"bank": Contrarian(7.5)}, seat=0, bank=1)
    bank_actions = set()
    for _obs, _r, _terminated, _info in _random_run(env, 400):
        bank_actions |= {ev[2] for ev in env.engine.events if ev[0] == "action" and ev[1] == 1}
    assert bank_actions == {"stand"}, "the override stands at once; a threshold of 7.5 hits"


FRESH_SPECS = {
    "reader": '"reader"',
    "careful": '"careful"',
    "threshold": '"threshold:5"',
    "random": '"random"',
    "list": '["careful", "threshold:5"]',
    "roles": '{"bank": "reader", "players": ["careful", "random"]}',
}


@pytest.mark.parametrize("spec", sorted(FRESH_SPECS))
@pytest.mark.parametrize("view_id", VIEW_IDS)
def test_module_form_id_takes_any_spec_in_a_fresh_interpreter(view_id: str, spec: str) -> None:
    """``gymnasium.make("envs:<id>", opponents=<spec>)`` with nothing imported before.

    The views import the agent registry on the first spec string
    (envs.single_seat); before, this failed with "`import agents` first".
    """
    script = (f"import gymnasium\n"
              f"env = gymnasium.make('envs:{view_id}', num_seats=3, "
              f"opponents={FRESH_SPECS[spec]})\n"
              f"env.reset(seed=0)\n"
              f"for _ in range(5):\n"
              f"    mask = env.unwrapped.action_masks()\n"
              f"    if env.step(int(mask.argmax()))[2]:\n"
              f"        env.reset()\n"
              f"print('ok')\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=120, cwd=os.path.dirname(os.path.dirname(__file__)))
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "ok"


@pytest.mark.parametrize("bad", [1.5, 1.0, True, "1", None])
def test_a_view_refuses_an_action_that_is_not_an_index(bad):
    env = envs.single_seat.PlayerEnv(rules="catalan", num_seats=2)
    env.reset(seed=0)
    with pytest.raises(ValueError, match="not an action index"):
        env.step(bad)


def test_a_view_takes_numpy_integers_as_actions():
    env = envs.single_seat.PlayerEnv(rules="catalan", num_seats=2)
    obs, info = env.reset(seed=0)
    action = int(np.flatnonzero(info["action_mask"])[0])
    for value in (np.int64(action), np.array(action)):
        env.reset(seed=0)
        _, _, _, _, step_info = env.step(value)
        assert "illegal_action" not in step_info
