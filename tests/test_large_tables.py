"""Tables above 8 seats (RULES.md §2: ITA seats "virtually unlimited" players with more decks).

One 40-card deck seats at most ``SEATS_PER_DECK``; up to ``MAX_SEATS`` seats play
with ``decks >= 2``, through the engine, the PettingZoo env, the single-seat views,
the scripted agents and the tournament. A table too large for its shoe is refused,
naming the value and what is allowed. Side bets keep the action layout of every
other table size: they reach the seven seats after the bettor (``envs.rules``).
"""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test

from agents import make_agent
from agents.base import ObservationReader
from envs import Engine, sette_e_mezzo_v0
from envs import actions as A
from envs.observer import Observer, observation_bounds, observation_size
from envs.rules import MAX_SEATS, MIN_SEATS, SEATS_PER_DECK, Rules
from envs.single_seat import PlayerEnv, SeatEnv
from evaluate.tournament import Entrant, TournamentConfig, run_tournament

TWO_DECKS = ("italian", "catalan", "spanish_full", "pagat_italian")
"""Presets played at large tables: the matta and triplè, the jackpot and bank cover,
side bets with the auction and abrirse, the pair of sevens."""


def _rules(preset: str, decks: int = 2) -> Rules:
    return Rules.preset(preset).replace(decks=decks)


def _play(engine: Engine, seed: int) -> set[int]:
    """Random legal play to the end; returns every action index taken."""
    rng = np.random.default_rng(seed)
    start = sum(engine.chips) + engine.jackpot
    taken = set()
    while not engine.over:
        legal = engine.legal_actions()
        assert legal, "a live state with no legal action"
        action = legal[int(rng.integers(len(legal)))]
        taken.add(action)
        engine.step(action)
    assert sum(engine.chips) + engine.jackpot == start  # chips are conserved
    return taken


def test_the_seat_limits():
    assert (MIN_SEATS, SEATS_PER_DECK, MAX_SEATS) == (2, 8, 16)
    assert [_rules("italian", d).max_seats for d in (1, 2, 3, 8)] == [8, 16, 16, 16]


@pytest.mark.parametrize("num_seats", [9, 12, 16])
@pytest.mark.parametrize("preset", ["italian", "catalan"])
def test_more_than_eight_seats_on_one_deck_is_refused_naming_what_is_allowed(preset, num_seats):
    with pytest.raises(ValueError) as info:
        Engine(preset, num_seats)
    msg = str(info.value)
    assert f"num_seats={num_seats} is out of range; allowed: 2..8 with decks=1" in msg
    assert "up to 16 seats need decks >= 2" in msg
    with pytest.raises(ValueError, match=f"num_seats={num_seats}"):
        sette_e_mezzo_v0.env(rules=preset, num_seats=num_seats)
    with pytest.raises(ValueError, match=f"num_seats={num_seats}"):
        PlayerEnv(preset, num_seats)


@pytest.mark.parametrize("bad", [17, 20, 1, 0, 12.0, "12", True])
def test_seat_counts_outside_the_table_are_refused_with_two_decks(bad):
    with pytest.raises(ValueError) as info:
        Engine(_rules("italian"), bad)
    assert f"num_seats={bad!r} is out of range; allowed: 2..16 with decks=2" in str(info.value)


@pytest.mark.parametrize("num_seats", [12, 16])
@pytest.mark.parametrize("preset", TWO_DECKS)
def test_large_tables_play_whole_episodes_through_the_engine(preset, num_seats):
    engine = Engine(_rules(preset), num_seats, max_hands=6)
    for seed in range(2):
        engine.reset(seed=seed)
        assert ("shuffle", 80) in engine.events  # the shoe holds both decks
        _play(engine, seed)
        assert engine.hands_played >= 1


def test_the_action_layout_is_the_same_at_every_table_size():
    """No index is renumbered: a 16-seat table has the 2-seat table's action space."""
    rules = _rules("spanish_full")
    small, large = Engine(rules, 2), Engine(rules, 16)
    assert large.layout.names == small.layout.names
    assert large.layout.size == small.layout.size


@pytest.mark.parametrize("num_seats", [12, 16])
def test_side_bets_at_a_large_table_reach_the_seven_seats_after_the_bettor(num_seats):
    """``side_bet_<o>_<k>`` names the seat ``o`` places after the bettor, o <= MAX_OFFSET:
    every bet placed lands on one of those seats, and bets on far seats are placed."""
    engine = Engine(_rules("spanish_full"), num_seats, max_hands=4)
    offsets = set()
    for seed in range(6):
        engine.reset(seed=seed, bank=0)
        rng = np.random.default_rng(seed)
        while not engine.over:
            legal = engine.legal_actions()
            assert all(0 <= a < engine.layout.size for a in legal)
            bets = [a for a in legal if a >= engine.layout.side_bet_start]
            action = bets[int(rng.integers(len(bets)))] if bets and rng.random() < 0.5 \
                else legal[int(rng.integers(len(legal)))]
            bettor = engine.actor
            engine.step(action)
            if action >= engine.layout.side_bet_start:
                offset, _k = engine.layout.side_bet_of(action)
                _kind, seat, target, _stake = next(
                    e for e in reversed(engine.events) if e[0] == "side_bet")
                assert seat == bettor and target == (bettor + offset) % num_seats
                offsets.add(offset)
    assert offsets == set(range(1, A.MAX_OFFSET + 1))


@pytest.mark.parametrize("num_seats", [12, 16])
def test_observations_of_a_large_table_stay_in_their_bounds(num_seats):
    engine = Engine(_rules("catalan"), num_seats, max_hands=5)
    observer = Observer(engine)
    low, high = observation_bounds(num_seats)
    assert low.shape == (observation_size(num_seats),)
    rng = np.random.default_rng(0)
    engine.reset(seed=3)
    while not engine.over:
        for seat in range(num_seats):
            obs = observer.observe(seat)
            assert obs.shape == low.shape
            assert np.all(obs >= low) and np.all(obs <= high)
        legal = engine.legal_actions()
        engine.step(legal[int(rng.integers(len(legal)))])
    assert ObservationReader(obs).num_seats == num_seats


@pytest.mark.parametrize("num_seats", [12, 16])
@pytest.mark.parametrize("preset", ["italian", "spanish_full"])
def test_pettingzoo_api_test_at_a_large_table(preset, num_seats):
    env = sette_e_mezzo_v0.env(rules=_rules(preset), num_seats=num_seats, max_hands=3)
    with pytest.warns(UserWarning):  # api_test resets with options={"options": 1}
        api_test(env, num_cycles=40)


@pytest.mark.parametrize("num_seats", [12, 16])
def test_scripted_agents_play_a_large_table(num_seats):
    """Every seat a scripted agent reading the observation (``careful``, ``reader``,
    thresholds): the seat count is read off the observation's length."""
    engine = Engine(_rules("italian"), num_seats, max_hands=5)
    observer = Observer(engine)
    specs = ["careful", "reader", "threshold:5", "random"]
    seats = [make_agent(specs[i % len(specs)], seed=i) for i in range(num_seats)]
    engine.reset(seed=1)
    while not engine.over:
        seat = engine.actor
        engine.step(seats[seat].act(observer.observe(seat), engine.action_mask()))
    assert engine.hands_played == 5
    assert sum(engine.chips) == num_seats * engine.rules.starting_chips


@pytest.mark.parametrize("view, num_seats", [(PlayerEnv, 16), (SeatEnv, 12)])
def test_single_seat_views_play_a_large_table(view, num_seats):
    env = view(_rules("italian"), num_seats, opponents="careful", table_hands=4)
    assert env.observation_space.shape == (observation_size(num_seats),)
    obs, info = env.reset(seed=0)
    episodes, steps = 0, 0
    while episodes < 3:
        assert env.observation_space.contains(obs)
        legal = np.flatnonzero(info["action_mask"])
        obs, _reward, terminated, truncated, info = env.step(int(legal[steps % len(legal)]))
        steps += 1
        if terminated or truncated:
            episodes += 1
            obs, info = env.reset()
    assert steps > 3


def test_a_tournament_at_twelve_seats_on_two_decks():
    config = TournamentConfig((Entrant("t5", "threshold:5"), Entrant("careful", "careful")),
                              _rules("italian"), 12, hands=20, table_hands=5)
    summary = run_tournament(config).summary(reps=50)
    assert summary["seats"] == 12
    with pytest.raises(ValueError, match="num_seats=12 is out of range; allowed: 2..8"):
        TournamentConfig((Entrant("t5", "threshold:5"),), "italian", 12)


def test_sette_play_at_sixteen_seats_with_a_two_deck_rules_file(tmp_path, capsys):
    from train.cli import main

    path = tmp_path / "big.toml"
    path.write_text('preset = "italian"\ndecks = 2\n', encoding="utf-8")
    assert main(["play", "--rules", str(path), "--seats", "16", "--hands", "2"]) == 0
    out = capsys.readouterr().out
    assert "shuffle 80 cards" in out and "episode over after 2 hands" in out
    assert main(["play", "--rules", "italian", "--seats", "16"]) == 2
    assert "num_seats=16 is out of range; allowed: 2..8 with decks=1" in capsys.readouterr().err
