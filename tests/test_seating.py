"""One way to seat agents: every spec form everywhere, one policy protocol, one table loop
and one seeding rule (agents.registry, agents.seating, envs.policy)."""

from __future__ import annotations

import numpy as np
import pytest

import agents
import agents.base
from agents import RoleSplitAgent, Table, make_agent, model_label, resolve_spec
from agents.heuristics import CarefulAgent
from agents.learned import LearnedAgent
from agents.scripted import RandomAgent, ThresholdAgent
from agents.seating import seed_seats, stream_seed, table_seeds
from envs import policy as envs_policy
from envs.rules import Rules
from envs.single_seat import BankEnv, PlayerEnv
from evaluate.ev import play
from evaluate.tournament import CHIPS, HANDS, TournamentConfig, parse_entrant, run_tournament


@pytest.fixture(scope="module")
def model_run(tmp_path_factory):
    """A pagat 2-seat run with an (untrained) player and bank saved as sette train saves them."""
    from test_plots_report import _learned_run

    return _learned_run(tmp_path_factory.mktemp("seating") / "tiny", ("player", "bank"))


class _SeedLog:
    """A policy with randomness that records the seeds it is given and plays the first legal
    action."""

    def __init__(self) -> None:
        self.seeds: list[int] = []

    def seed(self, seed: int) -> None:
        self.seeds.append(seed)

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        return int(np.flatnonzero(action_mask)[0])


# ------------------------------------------------------------------ spec forms
@pytest.mark.parametrize("spec, kind, canonical", [
    ("random", RandomAgent, "random"),
    ("threshold:4.5", ThresholdAgent, "threshold:4.5"),
    ("careful", CarefulAgent, "careful"),
    ("reader:4", CarefulAgent, "reader:4"),
    ("careful|threshold:6", RoleSplitAgent, "careful|threshold:6"),
])
def test_every_scripted_spec_form_makes_its_agent(spec, kind, canonical):
    agent = make_agent(spec, rules="pagat")
    assert isinstance(agent, kind) and agent.spec == canonical
    assert isinstance(agent, agents.Policy)


def test_a_pair_plays_each_role_with_its_side():
    agent = make_agent("threshold:7|threshold:0.5", rules="pagat")
    assert isinstance(agent, RoleSplitAgent)
    assert (agent.player.threshold, agent.bank.threshold) == (7.0, 0.5)
    assert agents.role_policy(agent, "bank") is agent.bank
    assert agents.role_policy(make_agent("careful"), "bank").spec == "careful"


def test_a_bare_model_path_is_a_model_spec_everywhere(model_run):
    stage = model_run / "player"
    assert resolve_spec(str(stage)) == f"model:{stage}"
    agent = make_agent(str(stage), rules="pagat")
    assert isinstance(agent, LearnedAgent) and agent.spec == f"model:{stage}"
    pair = make_agent(f"{stage}|{model_run / 'bank'}", rules="pagat")
    assert isinstance(pair, RoleSplitAgent) and isinstance(pair.bank, LearnedAgent)
    assert model_label(resolve_spec(f"{stage}|{model_run / 'bank'}")) == "tiny/player|bank"


def test_views_take_every_spec_form(model_run):
    for opponents in ("careful|reader", str(model_run / "bank"),
                      {"bank": f"threshold:5|{model_run / 'bank'}", "players": "careful"}):
        env = PlayerEnv(rules="pagat", num_seats=2, opponents=opponents)
        obs, info = env.reset(seed=1)
        for _ in range(3):
            obs, reward, terminated, truncated, info = env.step(
                int(np.flatnonzero(info["action_mask"])[0]))
            if terminated:
                obs, info = env.reset()
    bank_view = BankEnv(rules="pagat", num_seats=3, opponents=["careful|threshold:6", "random"])
    bank_view.reset(seed=2)
    assert isinstance(bank_view.sources["players"].members[0], RoleSplitAgent)


def test_training_configs_take_every_spec_form(model_run):
    from train.config import TrainConfig, validate

    config = TrainConfig()
    config.table.rules = "pagat"
    config.player.opponents = ["careful|reader", str(model_run / "bank")]
    config.selfplay.players = [f"{model_run / 'player'}|threshold:5"]
    validate(config)


@pytest.mark.parametrize("spec, words", [
    ("wizard", ["unknown agent 'wizard'", "threshold", "model path", "PLAYER|BANK"]),
    ("a|b|c", ["'a|b|c'", "PLAYER|BANK"]),
    ("careful|", ["PLAYER|BANK"]),
    ("careful|wizard", ["unknown agent 'wizard'"]),
    ("model:/no/such/model.zip", ["/no/such/model.zip", "does not exist"]),
    ("model:", ["needs a path"]),
    ("threshold:x", ["'threshold:x'", "not a number"]),
    ("threshold:9", ["0.5..7.5"]),
    ("threshold:", ["'threshold:'", "'' is not a number"]),  # was the default, threshold:5.5
    ("careful:99", ["agent spec 'careful:99': 99.0 is outside 0.5..7.5 points"]),
    ("reader:-1", ["agent spec 'reader:-1': -1.0 is outside 0.5..7.5 points"]),
    ("random:3", ["takes no argument"]),
    ("", ["non-empty string"]),
    (5, ["non-empty string", "5"]),
])
def test_bad_specs_name_the_spec_and_the_valid_forms(spec, words):
    with pytest.raises(ValueError) as caught:
        make_agent(spec)
    for word in words:
        assert word in str(caught.value)


# ------------------------------------------------------------ one protocol
def test_one_policy_protocol_for_envs_and_agents():
    assert agents.Policy is agents.base.Policy is envs_policy.Policy
    assert isinstance(agents.PolicyPool([make_agent("careful")]), envs_policy.PolicySource)
    assert not isinstance(object(), envs_policy.Policy)


# ----------------------------------------------------- one loop, one seeding
def test_seat_streams_come_from_the_table_seed_and_the_seat():
    assert stream_seed(7, 1) == int(np.random.SeedSequence([7, 1]).generate_state(1)[0])
    assert len({stream_seed(7, s) for s in range(8)}) == 8
    assert table_seeds(3, 4) == table_seeds(3, 4) != table_seeds(4, 4)
    log, other = _SeedLog(), _SeedLog()
    seed_seats([make_agent("careful"), log, other, log], 11)
    assert log.seeds == [stream_seed(11, 1)]        # one object, one stream: its first seat
    assert other.seeds == [stream_seed(11, 2)]
    player, bank = _SeedLog(), _SeedLog()
    RoleSplitAgent(player, bank).seed(5)
    assert (player.seeds, bank.seeds) == ([stream_seed(5, 0)], [stream_seed(5, 1)])


def test_a_table_seeds_each_seat_then_plays_every_hand_to_the_end():
    log = _SeedLog()
    table = Table(Rules.resolve("pagat"), 3, table_hands=4)
    hands = list(table.hands([make_agent("threshold:5"), make_agent("careful", rules="pagat"),
                              log], seed=9, bank=1))
    assert log.seeds == [stream_seed(9, 2)]
    assert len(hands) == table.engine.hands_played == 4 and table.engine.over
    assert hands[0].bank == 1 and 1 not in hands[0].order
    for hand in hands:                                   # pagat: no jackpot, chips change hands
        assert sum(hand.net) == pytest.approx(0.0)
    played = [event for hand in hands for event in hand.events]
    assert played == table.engine.events[-len(played):] and played[-1][0] == "over"
    assert [e for e in played if e[0] == "hand"] == [e for e in table.engine.events
                                                     if e[0] == "hand"][1:]
    again = Table(Rules.resolve("pagat"), 3, table_hands=4)
    assert again.play([make_agent("threshold:5"), make_agent("careful", rules="pagat"), log],
                      seed=9, bank=1).events == table.engine.events


def test_evaluator_and_tournament_seat_random_play_alike():
    """The same tables, lineup and seeds give a random seat the same draws in both."""
    tally = play("pagat", 2, [make_agent("random"), make_agent("threshold:5")], hands=60,
                 seed=4)
    config = TournamentConfig((parse_entrant("random"), parse_entrant("threshold:5")),
                              "pagat", 2, 60, 4)
    data = run_tournament(config).data  # arrangement 0: random in seat 0, threshold in seat 1
    assert np.array_equal(data[:, 0, :, :, HANDS], tally.hands)
    assert np.allclose(data[:, 0, :, :, CHIPS], tally.chips)


def test_a_rules_file_is_read_once_when_the_tournament_is_configured(tmp_path):
    path = tmp_path / "house.toml"
    path.write_text(Rules.resolve("pagat").to_toml(), encoding="utf-8")
    config = TournamentConfig((parse_entrant("threshold:5"),), str(path), 2, 20, 0)
    path.unlink()
    assert run_tournament(config).data[..., HANDS].sum() == 2 * 20
    assert config.resolved_rules() == Rules.resolve("pagat")


def test_a_list_of_opponents_is_one_pool_of_policies():
    with pytest.raises(TypeError, match="a list is itself the pool"):
        PlayerEnv(rules="pagat", opponents=[agents.PolicyPool([make_agent("careful")])])


def test_sette_play_seats_and_seeds_its_table_as_every_table(capsys):
    from envs.render import transcript
    from train.cli import main

    assert main(["play", "--rules", "pagat", "--seats", "3", "--hands", "3", "--seed", "5",
                 "--agents", "random", "careful", "random"]) == 0
    out = capsys.readouterr().out
    rules = Rules.resolve("pagat")
    engine = Table(rules, 3, 3).play([make_agent("random"), make_agent("careful", rules=rules),
                                      make_agent("random")], seed=5)
    assert out.startswith(transcript(engine.events))
