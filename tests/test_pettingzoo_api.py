"""PettingZoo conformance of the AEC environment, and its documented contract.

* ``api_test``, ``seed_test`` and ``render_test`` for all eight presets of
  RULES.md §7 (``envs.rules.PRESETS``) with 2, 4 and 8 seats, built both from
  the module (``envs.sette_e_mezzo_v0.env``) and from the registry
  (``pettingzoo.make``);
* the fixed action layout (``envs/actions.py``), which actions each preset can
  ever unmask, illegal actions (raw and wrapped env), the named observation
  slices, rewards at settlement (chip delta / ``min_bet``) on scripted decks,
  reset options, and constructor errors.

Action indices are looked up by name (``get_action_meanings().index``) and
observation sizes come from ``GLOBAL_SIZE``/``SEAT_BLOCK``.
"""

from __future__ import annotations

import functools
import importlib.util
import re

import numpy as np
import pettingzoo
import pytest
from pettingzoo.test import api_test, render_test, seed_test

import envs
from envs import RulesError, sette_e_mezzo_v0
from envs.observer import GLOBAL_SIZE, SEAT_BLOCK, SEAT_FIELDS
from envs.rules import PRESETS

PRESET_NAMES = tuple(PRESETS)
BASE_PRESETS = ("catalan", "spanish", "pagat")
SEAT_COUNTS = (2, 4, 8)

# Action indices by name (envs/actions.py; every preset shares the default ladder).
MEANINGS = sette_e_mezzo_v0.raw_env(rules="catalan", num_seats=2).get_action_meanings()
STAND, HIT, REVEAL_HIT, TAKE_BANK, REFUSE_BANK, CLAIM_BANK = (
    MEANINGS.index(name) for name in
    ("stand", "hit", "reveal_hit", "take_bank", "refuse_bank", "claim_bank"))
BET_1, BET_2, BET_5, BET_10 = (MEANINGS.index(f"bet_{k}") for k in (1, 2, 5, 10))
RAISE_1, RAISE_2, RAISE_5, RAISE_10 = (MEANINGS.index(f"raise_{k}") for k in (1, 2, 5, 10))


def _from_module(**kwargs):
    return sette_e_mezzo_v0.env(**kwargs)


def _from_registry(**kwargs):
    return pettingzoo.make("aec", envs.ENV_ID, **kwargs)


HAS_REGISTRY = importlib.util.find_spec("pettingzoo.env_registry") is not None
"""PettingZoo 1.27 on has a registry (``pettingzoo.make``); 1.26 has none."""
needs_registry = pytest.mark.skipif(not HAS_REGISTRY, reason="PettingZoo < 1.27: no registry")

FACTORIES = {"module": _from_module, **({"registry": _from_registry} if HAS_REGISTRY else {})}


# --------------------------------------------------------------- conformance
@pytest.mark.parametrize("num_seats", SEAT_COUNTS)
@pytest.mark.parametrize("rules", PRESET_NAMES)
@pytest.mark.parametrize("factory", sorted(FACTORIES))
def test_api_test(factory, rules, num_seats):
    env = FACTORIES[factory](rules=rules, num_seats=num_seats)
    assert env.unwrapped.rules == envs.Rules.preset(rules)
    assert env.unwrapped.possible_agents == [f"player_{i}" for i in range(num_seats)]
    # api_test resets with options={"options": 1}, which the env warns about.
    with pytest.warns(UserWarning, match="'options'"):
        api_test(env, num_cycles=60)


@pytest.mark.parametrize("num_seats", SEAT_COUNTS)
@pytest.mark.parametrize("rules", PRESET_NAMES)
@pytest.mark.parametrize("factory", sorted(FACTORIES))
def test_seed_test(factory, rules, num_seats):
    seed_test(functools.partial(FACTORIES[factory], rules=rules, num_seats=num_seats),
              num_cycles=60)


@pytest.mark.parametrize("num_seats", SEAT_COUNTS)
@pytest.mark.parametrize("rules", PRESET_NAMES)
@pytest.mark.parametrize("factory", sorted(FACTORIES))
def test_render_test(factory, rules, num_seats, capsys):
    render_test(functools.partial(FACTORIES[factory], rules=rules, num_seats=num_seats))
    # "human" mode printed the table: one line per seat plus a header.
    out = capsys.readouterr().out
    assert "phase" in out
    assert f"seat {num_seats - 1} " in out


@needs_registry
@pytest.mark.parametrize("rules", PRESET_NAMES)
def test_registry_and_module_envs_are_the_same_game(rules):
    a = _from_registry(rules=rules, num_seats=4)
    b = _from_module(rules=rules, num_seats=4)
    assert type(a.unwrapped) is type(b.unwrapped) is sette_e_mezzo_v0.raw_env
    a.reset(seed=5)
    b.reset(seed=5)
    assert a.agent_selection == b.agent_selection
    oa, ob = a.observe(a.agent_selection), b.observe(b.agent_selection)
    np.testing.assert_array_equal(oa["observation"], ob["observation"])
    np.testing.assert_array_equal(oa["action_mask"], ob["action_mask"])
    assert a.unwrapped.engine.events == b.unwrapped.engine.events


def test_render_ansi_returns_table_and_no_mode_warns():
    env = sette_e_mezzo_v0.env(rules="catalan", num_seats=3, render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert isinstance(text, str)
    lines = text.splitlines()
    assert lines[0].startswith("hand 1/10 · phase bet")
    assert len(lines) == 1 + 3
    plain = sette_e_mezzo_v0.env(rules="catalan", num_seats=3)
    plain.reset(seed=0)
    with pytest.warns(UserWarning, match="render_mode"):
        assert plain.render() is None


# ------------------------------------------------------------ action layout
CORE = ["stand", "hit", "reveal_hit", "take_bank", "refuse_bank", "claim_bank",
        "double", "split", "change_four", "mort", "decline", "fusilar", "pass", "sell_bank"]


def test_action_meanings_at_fixed_indices():
    raw = sette_e_mezzo_v0.raw_env(rules="catalan", num_seats=4)
    names = raw.get_action_meanings()
    ladder = (1, 2, 5, 10)
    assert names == (
        CORE
        + [f"bet_{k}" for k in ladder]
        + [f"raise_{k}" for k in ladder]
        + [f"bid_{k}" for k in ladder]
        + [f"side_bet_{o}_{k}" for o in range(1, 8) for k in ladder])
    assert names[:14] == CORE  # the core actions sit at fixed indices 0..13
    assert names.index("bet_1") == 14 and names.index("raise_1") == 18
    assert names.index("bid_1") == 22 and names.index("side_bet_1_1") == 26
    assert names[-1] == "side_bet_7_10"
    assert len(names) == 54
    assert raw.action_space("player_0").n == 54
    assert raw.engine.layout.names == names
    # every preset, at every table size, shares the layout
    for rules in PRESET_NAMES:
        for seats in (2, 8):
            other = sette_e_mezzo_v0.raw_env(rules=rules, num_seats=seats)
            assert other.get_action_meanings() == names, rules
            assert other.action_space("player_1").n == 54


def test_action_meanings_follow_the_bet_ladder():
    rules = envs.Rules.preset("catalan").replace(bet_ladder=(1, 3), max_bet=30)
    raw = sette_e_mezzo_v0.raw_env(rules=rules, num_seats=2)
    names = raw.get_action_meanings()
    assert names[:14] == CORE
    assert names[14:22] == ["bet_1", "bet_3", "raise_1", "raise_3", "bid_1", "bid_3",
                            "side_bet_1_1", "side_bet_1_3"]
    assert names[22:] == [f"side_bet_{o}_{k}" for o in range(2, 8) for k in (1, 3)]
    assert raw.action_space("player_1").n == 14 + 10 * 2 == 34
    assert raw.observation_space("player_1")["action_mask"].shape == (34,)


def _family(name):
    """``bet_5`` -> ``bet_k``, ``side_bet_3_2`` -> ``side_bet_k``; other names unchanged."""
    for prefix in ("side_bet_", "bet_", "raise_", "bid_"):
        if name.startswith(prefix):
            return prefix + "k"
    return name


# What each preset can ever unmask (RULES.md §5, §6, §7); everything else stays masked.
_PLAY = {"stand", "hit", "bet_k"}
PRESET_ACTIONS = {
    "catalan": _PLAY | {"take_bank", "refuse_bank"},
    "catalan_house": _PLAY | {"take_bank", "refuse_bank", "double", "split", "mort",
                              "decline"},
    "spanish": _PLAY | {"reveal_hit", "raise_k", "refuse_bank", "claim_bank"},
    "spanish_full": _PLAY | {"reveal_hit", "raise_k", "refuse_bank", "claim_bank", "split",
                             "change_four", "fusilar", "pass", "sell_bank", "take_bank",
                             "bid_k", "side_bet_k"},
    "pagat": _PLAY,
    "pagat_italian": _PLAY,
    "pagat_spanish": _PLAY | {"reveal_hit", "split"},
    "italian": _PLAY,
}


@pytest.mark.parametrize("rules", PRESET_NAMES)
def test_each_preset_unmasks_exactly_its_own_actions(rules):
    """Random legal play at 2, 4 and 8 seats: the families of actions ever legal are
    exactly the preset's (the others are always masked, the preset's all show up)."""
    assert set(PRESET_ACTIONS) == set(PRESET_NAMES)
    seen = set()
    rng = np.random.default_rng(0)
    for seats in (2, 4, 8):
        env = sette_e_mezzo_v0.env(rules=rules, num_seats=seats)
        names = env.unwrapped.get_action_meanings()
        for episode in range(25):
            env.reset(seed=episode)
            for agent in env.agent_iter(max_iter=3000):
                obs, _, term, trunc, _ = env.last()
                if term or trunc:
                    env.step(None)
                    continue
                legal = np.flatnonzero(obs["action_mask"])
                assert legal.size > 0
                seen.update(_family(names[a]) for a in legal)
                env.step(int(rng.choice(legal)))
    assert seen == PRESET_ACTIONS[rules]


def test_house_rule_actions_are_always_masked_in_base_presets():
    first_house, last_house = MEANINGS.index("double"), MEANINGS.index("sell_bank")
    for rules in BASE_PRESETS:
        env = sette_e_mezzo_v0.env(rules=rules, num_seats=4)
        env.reset(seed=11)
        for agent in env.agent_iter(max_iter=400):
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            mask = obs["action_mask"]
            assert not mask[first_house:last_house + 1].any(), (rules, mask)
            assert not mask[MEANINGS.index("bid_1"):].any(), (rules, mask)  # bids, side bets
            if rules != "spanish":
                assert not mask[RAISE_1:].any(), (rules, mask)
                assert not mask[REVEAL_HIT] and not mask[CLAIM_BANK]
            env.step(int(np.flatnonzero(mask)[0]))


# ---------------------------------------------------------- illegal actions
def test_illegal_action_on_raw_env_raises_naming_action_and_legal_ones():
    raw = sette_e_mezzo_v0.raw_env(rules="catalan", num_seats=4)
    raw.reset(seed=0, options={"bank": 0})
    assert raw.agent_selection == "player_1"
    with pytest.raises(ValueError) as info:
        raw.step(HIT)  # betting phase: only bet_<k> is legal
    message = str(info.value)
    assert "1 (hit)" in message
    assert "seat 1" in message
    assert "phase bet" in message
    assert f"{BET_1} (bet_1), {BET_2} (bet_2), {BET_5} (bet_5), {BET_10} (bet_10)" in message
    # nothing happened: the same seat still has to bet
    assert raw.agent_selection == "player_1"
    assert raw.engine.hands[1][0].bet == 0


def test_out_of_layout_action_on_raw_env_raises_value_error():
    raw = sette_e_mezzo_v0.raw_env(rules="pagat", num_seats=2)
    raw.reset(seed=0, options={"bank": 1})
    with pytest.raises(ValueError, match=r"action 99 \(not an action index\) is not legal"):
        raw.step(99)


def test_illegal_action_on_wrapped_env_terminates_with_minus_one():
    env = sette_e_mezzo_v0.env(rules="catalan", num_seats=4)
    env.reset(seed=0, options={"bank": 0})
    offender = env.agent_selection
    assert offender == "player_1"
    env.step(HIT)  # illegal while betting
    assert all(env.terminations.values())
    assert env.rewards == {"player_0": 0, "player_1": -1.0, "player_2": 0, "player_3": 0}
    # the game is over: every agent is stepped out with None and sees its reward
    last_rewards = {}
    for agent in env.agent_iter():
        _, reward, termination, _, _ = env.last()
        assert termination is True
        last_rewards[agent] = reward
        env.step(None)
    assert last_rewards == {"player_0": 0, "player_1": -1.0, "player_2": 0, "player_3": 0}
    assert env.agents == []


# ---------------------------------------------------------- observations
@pytest.mark.parametrize("num_seats", SEAT_COUNTS)
def test_observation_slices_cover_the_vector(num_seats):
    raw = sette_e_mezzo_v0.raw_env(rules="catalan", num_seats=num_seats)
    size = raw.observation_space("player_0")["observation"].shape[0]
    assert (GLOBAL_SIZE, SEAT_BLOCK) == (32, 29)  # the documented sizes
    assert size == GLOBAL_SIZE + SEAT_BLOCK * num_seats
    slices = raw.observation_slices
    top = ["phase", "jackpot", "shoe_left", "seen_ranks", "hands_played", "own_hidden",
           "own_total", "seats"]
    covered = np.zeros(size, dtype=int)
    for name in top:
        covered[slices[name]] += 1
    assert covered.tolist() == [1] * size  # top-level slices partition the vector
    widths = {name: slices[name].stop - slices[name].start for name in top}
    assert widths == {"phase": 8, "jackpot": 1, "shoe_left": 1, "seen_ranks": 10,
                      "hands_played": 1, "own_hidden": 10, "own_total": 1,
                      "seats": SEAT_BLOCK * num_seats}
    assert sum(widths.values()) - widths["seats"] == GLOBAL_SIZE
    field_widths = {name: sl.stop - sl.start for name, sl in SEAT_FIELDS.items()}
    assert field_widths == {
        "is_bank": 1, "bank_streak": 1, "sitting_out": 1, "acting": 1, "chips": 1, "bet": 1,
        "status": 5, "up_ranks": 10, "hidden": 1, "up_total": 1, "refused": 1, "hands": 1,
        "doubled": 1, "unseen": 1, "wild_value": 1, "side_stake": 1}
    assert sum(field_widths.values()) == SEAT_BLOCK
    for i in range(num_seats):
        block = slices[f"seat_{i}"]
        assert block == slice(GLOBAL_SIZE + SEAT_BLOCK * i, GLOBAL_SIZE + SEAT_BLOCK * (i + 1))
        inner = np.zeros(size, dtype=int)
        for field in SEAT_FIELDS:
            inner[slices[f"seat_{i}.{field}"]] += 1
        assert inner[block].tolist() == [1] * SEAT_BLOCK
        assert inner.sum() == SEAT_BLOCK
    assert len(slices) == len(top) + num_seats * (1 + len(SEAT_FIELDS))


def test_observation_names_match_the_table():
    env = sette_e_mezzo_v0.env(rules="catalan", num_seats=4)
    env.reset(seed=0, options={"bank": 0, "deck": ["7o", "6c", "5e", "4b"]})
    sl = env.unwrapped.observation_slices
    for _ in range(3):
        env.step(BET_1)  # seats 1, 2, 3 bet 10, then the deal
    assert env.agent_selection == "player_1"
    obs = env.observe("player_1")["observation"]
    assert obs[sl["phase"]].tolist() == [0, 1, 0, 0, 0, 0, 0, 0]  # play
    assert obs[sl["jackpot"]][0] == pytest.approx(3 / 1000)
    assert obs[sl["own_hidden"]].tolist() == [0, 0, 0, 0, 0, 0, 1, 0, 0, 0]  # the 7
    assert obs[sl["own_total"]][0] == pytest.approx(14 / 15)
    assert obs[sl["seat_0.acting"]][0] == 1.0  # block 0 is the observer
    assert obs[sl["seat_0.bet"]][0] == pytest.approx(10 / 100)
    assert obs[sl["seat_3.is_bank"]][0] == 1.0  # seat 0 (bank) is three seats on
    assert obs[sl["seat_3.hidden"]][0] == 1.0
    assert obs[sl["seat_3.up_ranks"]].sum() == 0.0  # nobody sees the bank's card
    # seat 2 sees seat 1's card only as one face-down card
    obs2 = env.observe("player_2")["observation"]
    assert obs2[sl["own_hidden"]].tolist() == [0, 0, 0, 0, 0, 1, 0, 0, 0, 0]  # the 6
    assert obs2[sl["seat_3.hidden"]][0] == 1.0  # seat 1 relative to seat 2
    assert obs2[sl["seat_3.up_ranks"]].sum() == 0.0
    assert env.observe("player_2")["action_mask"].sum() == 0


# ---------------------------------------------------------------- rewards
def _play_script(env, script):
    """Step ``(agent, action)`` pairs, checking who is to act each time."""
    for agent, action in script:
        assert env.agent_selection == agent, (env.agent_selection, agent, action)
        env.step(action)


def _check_rewards_are_chip_deltas(env, before):
    raw = env.unwrapped
    after = raw.engine.chips
    expected = {f"player_{i}": (a - b) / raw.rules.min_bet
                for i, (a, b) in enumerate(zip(after, before))}
    assert env.rewards == pytest.approx(expected)
    return after


def test_rewards_at_settlement_catalan():
    env = sette_e_mezzo_v0.env(rules="catalan", num_seats=4)
    env.reset(seed=0, options={"bank": 0, "chips": [500, 400, 300, 200],
                               "deck": ["7o", "6c", "5e", "4b", "So", "6b", "1o"]})
    # the antes are already in the jackpot: the hand's reward counts them
    assert env.unwrapped.engine.chips == [500, 399, 299, 199]
    before = [500, 400, 300, 200]
    _play_script(env, [
        ("player_1", BET_1), ("player_2", BET_1), ("player_3", BET_1),
        ("player_1", HIT),    # 7o + So: a natural; undeclared, only stand is left (§8.7)
        ("player_1", STAND),
        ("player_2", STAND),  # 6
        ("player_3", HIT),    # 5 + 6: bust
        ("player_0", HIT),    # bank 4 + 1 = 5
    ])
    assert env.rewards == {a: 0.0 for a in env.agents}  # nothing settled yet
    env.step(STAND)
    # seat 1: ante 1, natural paid 2 x 10, jackpot of 3; seat 2 paid 1:1;
    # seat 3 lost ante and stake; the bank paid 20 + 10 and collected 10.
    assert env.unwrapped.engine.chips == [480, 422, 309, 189]
    assert env.unwrapped.engine.jackpot == 0
    assert env.rewards == {"player_0": -2.0, "player_1": 2.2, "player_2": 0.9,
                           "player_3": -1.1}
    _check_rewards_are_chip_deltas(env, before)
    # seat 1 made 7½ and the bank did not: it is offered the bank (offer)
    assert env.agent_selection == "player_1"
    _, reward, _, _, _ = env.last()
    assert reward == pytest.approx(2.2)
    mask = env.observe("player_1")["action_mask"]
    assert np.flatnonzero(mask).tolist() == [TAKE_BANK, REFUSE_BANK]
    env.step(REFUSE_BANK)  # no reward for a transfer decision
    assert env.rewards == {a: 0.0 for a in env.agents}
    assert env.unwrapped.engine.bank == 0
    assert env.unwrapped.engine.refused[1] is True


def test_rewards_at_settlement_spanish_with_raise_and_claim():
    env = sette_e_mezzo_v0.env(rules="spanish", num_seats=3)
    env.reset(seed=0, options={"bank": 0, "deck": ["4o", "Rc", "5b", "3c", "3e", "4e", "2b"]})
    before = list(env.unwrapped.engine.chips)
    assert before == [1000, 1000, 1000]
    _play_script(env, [
        ("player_1", BET_2),     # bet on the turn, after seeing the 4
        ("player_1", RAISE_1),   # raise to 30
        ("player_1", HIT),       # 4 + 3 = 7
        ("player_1", STAND),
        ("player_2", BET_1),
        ("player_2", HIT),       # R + 3 = 3½
        ("player_2", HIT),       # + 4 = 7½ with three cards: only stand is left (§8.7)
        ("player_2", STAND),
        ("player_0", HIT),       # bank 5 + 2 = 7
    ])
    env.step(STAND)
    # a tie goes to the bank; any 7½ pays 2 in the spanish preset
    assert env.unwrapped.engine.chips == [1010, 970, 1020]
    assert env.rewards == {"player_0": 1.0, "player_1": -3.0, "player_2": 2.0}
    _check_rewards_are_chip_deltas(env, before)
    assert env.agent_selection == "player_2"
    assert np.flatnonzero(env.observe("player_2")["action_mask"]).tolist() == [
        REFUSE_BANK, CLAIM_BANK]
    env.step(CLAIM_BANK)
    assert env.unwrapped.engine.bank == 2
    assert env.rewards == {a: 0.0 for a in env.agents}


def test_rewards_at_settlement_pagat_bank_seven_and_half_beats_natural():
    env = sette_e_mezzo_v0.env(rules="pagat", num_seats=2)
    env.reset(seed=0, options={"bank": 1, "deck": ["Sc", "6o", "7c", "Re", "1e"]})
    before = list(env.unwrapped.engine.chips)
    _play_script(env, [
        ("player_0", BET_2),
        ("player_0", HIT),   # S + 7: a natural, declared and shown
        ("player_1", HIT),   # bank 6 + ½
    ])
    assert env.unwrapped.engine.hands[0][0].face_up == [True, True]
    env.step(HIT)            # + 1 = 7½ with three cards: the bank's turn ends
    assert env.unwrapped.engine.chips == [980, 1020]
    assert env.rewards == {"player_0": -2.0, "player_1": 2.0}
    _check_rewards_are_chip_deltas(env, before)
    # no transfer: the bank made 7½ too; the next hand starts, same bank
    assert env.unwrapped.engine.bank == 1
    assert env.unwrapped.engine.hands_played == 1
    assert env.agent_selection == "player_0"


def test_rewards_at_settlement_spanish_full_fusilar_and_side_bet():
    """RULES.md §6 fusilar and side_bets through the env: a side bet rides on the shooter's
    hand and is paid 4x with it; rewards are the hand's chip deltas, side bets included."""
    env = sette_e_mezzo_v0.env(rules="spanish_full", num_seats=3, max_hands=2)
    env.reset(seed=0, options={"bank": 0, "deck": ["7o", "5c", "6e", "So", "3b"]})
    names = env.unwrapped.get_action_meanings()
    act = names.index
    before = list(env.unwrapped.engine.chips)
    assert before == [1000, 1000, 1000]
    # the deal is done: side bets first, in turn order (seat 1, then seat 2)
    assert env.agent_selection == "player_1"
    mask = env.observe("player_1")["action_mask"]
    assert [names[a] for a in np.flatnonzero(mask)] == [
        "pass", "side_bet_1_1", "side_bet_1_2", "side_bet_1_5", "side_bet_1_10"]
    _play_script(env, [
        ("player_1", act("pass")),
        ("player_2", act("side_bet_2_1")),   # 10 on seat 1's hand (two places on)
        ("player_1", act("fusilar")),        # before betting on its turn, holding the 7
        ("player_1", BET_1),
        ("player_2", BET_1),
        ("player_2", STAND),                 # 5
    ])
    assert env.unwrapped.engine.chips == [1000, 990, 980]
    assert env.rewards == {a: 0.0 for a in env.agents}
    # the bank may not stand against a live fusilar: only hit is legal
    assert [names[a] for a in np.flatnonzero(env.observe("player_0")["action_mask"])] == [
        "hit"]
    env.step(HIT)                            # 6 + 3: bust
    # fusilar 7 + S = 7½ and the bank did not make 7½: 4 x 10, the side bet too;
    # seat 2's 5 beats the busted bank 1:1
    assert env.unwrapped.engine.chips == [910, 1040, 1050]
    assert env.rewards == {"player_0": -9.0, "player_1": 4.0, "player_2": 5.0}
    _check_rewards_are_chip_deltas(env, before)
    # the winning fusilar 7½ has the right to the bank (RULES.md §8.3); waived, the
    # bank may sell the bank to the next seat (bank_sale), or keep it
    assert env.agent_selection == "player_1"
    assert [names[a] for a in np.flatnonzero(env.observe("player_1")["action_mask"])] == [
        "refuse_bank", "claim_bank"]
    env.step(act("refuse_bank"))
    assert env.agent_selection == "player_0"
    assert [names[a] for a in np.flatnonzero(env.observe("player_0")["action_mask"])] == [
        "pass", "sell_bank"]


@pytest.mark.parametrize("rules", PRESET_NAMES)
def test_cumulative_rewards_sum_to_final_chip_deltas(rules):
    """Rewards are per-hand chip deltas / min_bet (and the auction price when the first bank
    is bought), so over an episode they add up to the chips won or lost since the reset
    (antes lost to an unwon jackpot count)."""
    env = sette_e_mezzo_v0.env(rules=rules, num_seats=4, max_hands=6)
    env.reset(seed=21)
    totals = {a: 0.0 for a in env.possible_agents}
    rng = np.random.default_rng(0)
    start = None
    for agent in env.agent_iter():
        engine = env.unwrapped.engine
        if start is None and any(ev[0] == "hand" for ev in engine.events):
            start = list(engine.hand_start_chips)  # after an auction, before the antes
        obs, reward, term, trunc, _ = env.last()
        totals[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    engine = env.unwrapped.engine
    assert engine.hands_played == 6
    assert any(reward != 0 for reward in totals.values())
    # The auction of the first bank (spanish_full) moves chips before any hand: the
    # buyer pays its bid to each other seat (RULES.md §5), rewarded at that step.
    bids = [ev for ev in engine.events if ev[0] == "bid"]
    sold = [ev for ev in engine.events if ev[0] == "first_bank" and ev[2].startswith("bought")]
    expected_start = [1000] * 4
    assert bool(sold) == (rules == "spanish_full")  # random play bought the bank here
    if sold:
        buyer, price = sold[0][1], bids[-1][2]
        assert bids[-1][1] == buyer
        expected_start = [1000 + price if s != buyer else 1000 - 3 * price for s in range(4)]
    assert start == expected_start
    expected = {f"player_{i}": (c - 1000) / 10 for i, c in enumerate(engine.chips)}
    assert totals == pytest.approx(expected)
    # chips are only moved, never made: the jackpot holds the rest
    assert sum(engine.chips) + engine.jackpot == 4000
    if engine.rules.jackpot_ante == 0:
        assert engine.jackpot == 0


# ------------------------------------------------------------ reset options
def test_unknown_reset_options_warn_naming_them():
    env = sette_e_mezzo_v0.env(rules="catalan", num_seats=2)
    with pytest.warns(UserWarning) as record:
        env.reset(seed=0, options={"bank": 1, "zzz": 1, "decks": 2})
    messages = [str(w.message) for w in record]
    assert any("'decks'" in m and "'zzz'" in m and "deck, bank, chips" in m for m in messages)
    assert env.unwrapped.engine.bank == 1  # the known option still applies


def test_reset_options_deck_bank_chips_apply():
    env = sette_e_mezzo_v0.env(rules="pagat", num_seats=3)
    env.reset(seed=4, options={"bank": 2, "chips": [100, 200, 300], "deck": "Ro 1c 5e"})
    engine = env.unwrapped.engine
    assert engine.bank == 2
    assert engine.chips == [100, 200, 300]
    assert engine.events[0] == ("reset", 4, ["Ro", "1c", "5e"], 2, [100, 200, 300])
    env.step(BET_1)
    env.step(BET_1)
    # dealt in turn order (seats 0, 1), then the bank
    assert engine.hands[0][0].cards == [envs.cards.parse_card("Ro")]
    assert engine.hands[1][0].cards == [envs.cards.parse_card("1c")]
    assert engine.bank_hand.cards == [envs.cards.parse_card("5e")]


@pytest.mark.parametrize("options, bad", [
    ({"bank": 5}, "bank=5"),
    ({"chips": [10, 20]}, "chips=[10, 20]"),
    ({"deck": ["7o", "7o"]}, "7o 2 times"),
    ({"deck": ["9o"]}, "'9o'"),
])
def test_bad_reset_options_raise_naming_the_value(options, bad):
    env = sette_e_mezzo_v0.env(rules="catalan", num_seats=3)
    with pytest.raises(ValueError, match=re.escape(bad)):
        env.reset(seed=0, options=options)


# ------------------------------------------------------ constructor errors
def test_unknown_rules_preset_is_rejected_naming_it():
    with pytest.raises(RulesError) as info:
        sette_e_mezzo_v0.env(rules="klondike", num_seats=4)
    assert "'klondike'" in str(info.value)
    assert ("catalan, catalan_house, spanish, spanish_full, pagat, pagat_italian, "
            "pagat_spanish, italian") in str(info.value)
    if HAS_REGISTRY:
        with pytest.raises(RulesError, match="'klondike'"):
            pettingzoo.make("aec", envs.ENV_ID, rules="klondike")


@pytest.mark.parametrize("num_seats", [0, 1, 9, "4", 2.0, True])
def test_bad_num_seats_is_rejected_naming_it(num_seats):
    with pytest.raises(ValueError) as info:
        sette_e_mezzo_v0.env(rules="catalan", num_seats=num_seats)
    assert f"num_seats={num_seats!r}" in str(info.value)
    assert "2..8" in str(info.value)


@pytest.mark.parametrize("render_mode", ["rgb", "text", ""])
def test_bad_render_mode_is_rejected_naming_it(render_mode):
    with pytest.raises(ValueError) as info:
        sette_e_mezzo_v0.env(rules="catalan", render_mode=render_mode)
    assert f"render_mode={render_mode!r}" in str(info.value)
    for mode in ("'ansi'", "'human'", "'rgb_array'"):
        assert mode in str(info.value)


def test_bad_rules_mapping_is_rejected_naming_the_switch():
    with pytest.raises(RulesError) as info:
        sette_e_mezzo_v0.env(rules={"preset": "pagat", "no_such_switch": 1})
    assert "'no_such_switch'" in str(info.value)


@pytest.mark.parametrize("max_hands", [0, -1, 2.5])
def test_bad_max_hands_is_rejected_naming_it(max_hands):
    with pytest.raises(ValueError, match=re.escape(f"max_hands={max_hands!r}")):
        sette_e_mezzo_v0.env(rules="catalan", max_hands=max_hands)


def test_registration_works_without_pettingzoos_registry(monkeypatch):
    """PettingZoo 1.26 has no ``pettingzoo.env_registry``: importing envs must still work."""
    import sys

    monkeypatch.setitem(sys.modules, "pettingzoo.env_registry", None)  # its import fails
    with pytest.raises(ImportError):
        import pettingzoo.env_registry  # noqa: F401
    assert envs._register_pettingzoo() is False
    envs._register()  # the Gymnasium views register all the same
    env = sette_e_mezzo_v0.env(rules="catalan", num_seats=2)
    env.reset(seed=0)
    assert env.agent_selection in env.possible_agents


@needs_registry
def test_registration_uses_pettingzoos_registry_where_it_exists():
    assert envs._register_pettingzoo() is True
    assert envs.ENV_ID in pettingzoo.env_registry.registration.aec_registry


def test_envs_imports_and_plays_where_pettingzoo_has_no_registry():
    """A fresh ``import envs`` with ``pettingzoo.env_registry`` missing (as in 1.26)."""
    import subprocess
    import sys

    script = ("import sys, pettingzoo\n"  # 1.27 imports its registry itself: block it after
              "sys.modules['pettingzoo.env_registry'] = None\n"
              "sys.modules['pettingzoo.env_registry.registration'] = None\n"
              "import envs, gymnasium\n"
              "env = envs.sette_e_mezzo_v0.env(rules='catalan', num_seats=2)\n"
              "env.reset(seed=0)\n"
              "gymnasium.make('sette/Player-v0').reset(seed=0)\n"
              "print('ok')\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "ok"


def _play_on(env, seed, limit=400):
    """(agent, reward, observation bytes) of every turn from here to the end, random legal
    actions drawn from ``seed``."""
    rng = np.random.default_rng(seed)
    seen = []
    for agent in env.agent_iter(limit):
        obs, reward, term, trunc, _ = env.last()
        seen.append((agent, reward, obs["observation"].tobytes()))
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return seen


@pytest.mark.parametrize("factory", [sette_e_mezzo_v0.env, sette_e_mezzo_v0.raw_env])
@pytest.mark.parametrize("clone", ["deepcopy", "pickle"])
@pytest.mark.parametrize("observation_type", ["observation", "information_state"])
def test_a_game_copied_mid_hand_plays_on_as_the_original(factory, clone, observation_type):
    """A copy (what a search client such as MCTS takes at every node) holds the game as it
    stands, the cards still in the shoe included: it plays on as the original would, and
    playing it leaves the original where it was."""
    import copy
    import pickle
    env = factory(rules="catalan", num_seats=3, observation_type=observation_type)
    env.reset(seed=0)
    _play_on(env, seed=1, limit=5)
    twin = copy.deepcopy(env) if clone == "deepcopy" else pickle.loads(pickle.dumps(env))
    where = (env.agent_selection, env.unwrapped.engine.events[:])
    played = _play_on(twin, seed=2)
    assert (env.agent_selection, env.unwrapped.engine.events) == where
    assert _play_on(env, seed=2) == played and len(played) > 10
