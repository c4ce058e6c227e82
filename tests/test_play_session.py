"""The table session (play.session): what each seat sees, who may act, timers, history, settlement.

Scripted decks (``deck=``, RULES.md §4.1 deal order: players in turn order,
then the bank) make every hand known; the clock is a list the test moves, so
no test sleeps.
"""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

from agents.learned import LearnedAgent
from envs.engine import Engine
from envs.rules import PRESETS
from play.history import HistoryError, read_history, replay
from play.session import ActionRefused, Change, SessionError, TableSession

NO_TIMERS = {"bet_timeout": None, "act_timeout": None}


def _humans(rules: str, deck: str, bank: int, seats: int = 2, **kw) -> TableSession:
    return TableSession(["human"] * seats, rules, deck=deck.split(), bank=bank,
                        **{"hands": 1, **NO_TIMERS, **kw})


def _at_play(hidden: str) -> TableSession:
    """Catalan, seat 0 a person, seat 1 an agent, seat 2 the bank (an agent): seat 0 has
    bet and holds 7o face down; seat 1 was dealt ``hidden`` face down, the bank Rc."""
    session = TableSession(["human", "threshold:5.5", "threshold:5.5"], "catalan",
                           deck=["7o", hidden, "Rc", "4b", "Cc", "3o"], bank=2, hands=1,
                           **NO_TIMERS)
    session.act(0, "bet_1")
    return session


# ------------------------------------------------------------------ what a seat sees
def test_a_seat_sees_its_own_face_down_card_marked_and_backs_for_the_others():
    view = _at_play("5c").view(0)
    me, other, bank = view["seats"]
    assert me["hands"][0]["cards"] == ["7o"] and me["hands"][0]["own_hidden"] == [True]
    assert other["hands"][0]["cards"] == [None]  # another seat's face-down card (§4.1)
    assert bank["is_bank"] and bank["hands"][0]["cards"] == [None]  # the bank's, before its turn
    assert view["your_turn"] and [a["name"] for a in view["legal"]] == ["stand", "hit"]
    assert json.loads(json.dumps(view)) == view  # plain JSON values


def test_no_leak_two_deals_differing_in_a_hidden_card_give_the_same_view():
    one, two = _at_play("5c"), _at_play("2b")
    assert one.view(0) == two.view(0)
    assert one.view(None) == two.view(None)
    assert one.view(1) != two.view(1)  # control: the card's owner does see it


def test_the_bank_does_not_see_its_own_face_down_card_before_its_turn():
    session = _humans("catalan", "7o 5c 4b", bank=1)
    session.act(0, "bet_1")
    assert session.view(1)["seats"][1]["hands"][0]["cards"] == [None]  # RULES.md §4.1
    session.act(0, "stand")  # the bank's turn: its card is turned up for everyone
    assert session.view(0)["seats"][1]["hands"][0]["cards"] == ["5c"]


def test_only_the_seat_to_act_is_given_legal_actions_and_a_deadline():
    session = TableSession(["human", "human", "threshold:5.5"], "catalan", deck=["7o", "5c"],
                           bank=2, hands=1, clock=lambda: 100.0)
    assert session.actor == 0
    assert session.view(0)["legal"] and session.view(0)["deadline"] == 118.0
    waiting = session.view(1)
    assert waiting["legal"] == [] and waiting["deadline"] is None and not waiting["your_turn"]


def test_a_seat_that_is_not_at_the_table_is_refused():
    session = _humans("pagat", "5o 5c", bank=1)
    with pytest.raises(SessionError, match=r"seat 7 is not at this table; seats are 0\.\.1"):
        session.view(7)


# ------------------------------------------------------------------ acting
@pytest.mark.parametrize("seat, action, reason, words", [
    (1, "bet_1", "not_your_turn", "it is seat 0's turn, not seat 1's"),
    (0, "zz", "unknown_action", "'zz' is not an action; choose one of: 10 (bet 10)"),
    (0, "hit", "illegal", "hit is not legal now"),
    (0, "5000", "illegal", "a stake of 5000 is above your 999 chips"),
    (0, "015", "illegal", "015 is not a stake on offer; choose one of: 10 (bet 10)"),
    (0, 999, "unknown_action", "999 is not an action"),
    (2, "stand", "not_human", "seat 2 is not a human seat"),
])
def test_a_refused_action_names_why_and_changes_nothing(seat, action, reason, words):
    session = TableSession(["human", "human", "threshold:5.5"], "catalan", deck=["7o", "5c"],
                           bank=2, hands=1, **NO_TIMERS)
    before = (list(session.engine.events), session.version, session.view(0))
    with pytest.raises(ActionRefused, match=re.escape(words)) as refused:
        session.act(seat, action)
    assert refused.value.reason == reason
    assert (list(session.engine.events), session.version, session.view(0)) == before


def test_an_action_is_taken_by_key_name_or_id_and_agents_play_on():
    session = TableSession(["human", "threshold:5.5", "threshold:5.5"], "catalan",
                           deck=["7o", "5c", "Rc"], bank=2, hands=1, **NO_TIMERS)
    changes: list[Change] = []
    session.subscribe(changes.append)
    session.act(0, "10")  # the key of bet_1: its stake in chips
    assert [(c.decision.seat, c.decision.how) for c in changes if c.decision] == [
        (0, "human"), (1, "agent")]  # seat 1 bet by itself; seat 0 is to act again
    assert session.actor == 0
    session.act(0, session.engine.layout.index("stand"))
    assert session.over and changes[-1].kind == "over"


@pytest.mark.parametrize("typed", ["+10", "010"])
def test_a_stake_typed_another_way_int_reads_as_the_same_is_that_stake(typed):
    """``+10`` and ``010`` say 10 chips as ``int`` reads them: the stake ``10`` (bet_1), not
    a refusal claiming 10 is not on offer."""
    session = TableSession(["human", "threshold:5.5", "threshold:5.5"], "catalan",
                           deck=["7o", "5c", "Rc"], bank=2, hands=1, **NO_TIMERS)
    session.act(0, typed)
    assert (session.decisions[0].seat, session.decisions[0].name) == (0, "bet_1")
    assert session.view(0)["seats"][0]["chips"] == 989  # the stake and the jackpot's ante


def test_same_seed_same_hands():
    def table() -> list[object]:
        session = TableSession(["careful", "threshold:5.5", "random"], "catalan", seed=11,
                               hands=4)
        return [line.text for hand in session.settlements for line in hand]

    assert table() == table()


# ------------------------------------------------------------------ timers
def test_a_timer_plays_the_smallest_stake_then_stand():
    now = [0.0]
    session = TableSession(["human", "threshold:5.5"], "catalan", deck=["7o", "5c", "Cc"],
                           bank=1, hands=1, clock=lambda: now[0], bet_timeout=18,
                           act_timeout=22)
    assert session.deadline == 18 and not session.tick(17.9)
    now[0] = 18.0
    assert session.tick()
    assert session.decisions[0].name == "bet_1" and session.decisions[0].how == "timeout"
    assert session.deadline == 40.0  # 22 s to act, counted from the bet's timeout
    now[0] = 40.0
    assert session.tick()
    assert session.over and session.settlements[0][0].text.startswith("seat 0:")
    assert session.settlements[0][0].reasons == ("ante", "beat_bank")  # 7 against 5 + ½


@pytest.mark.parametrize("name", ["bet_timeout", "act_timeout"])
@pytest.mark.parametrize("value", [0, -1.0, float("nan"), float("inf"), 600.5, 1e12, "18",
                                   True])
def test_a_timer_out_of_the_command_lines_range_is_refused_by_name(name, value):
    """A session's timer is held to the command line's range (more than 0, at most 600
    seconds, a number): anything else is refused naming the argument and its value, not
    taken as a timer that never runs out."""
    with pytest.raises(ValueError) as refused:
        TableSession(["human", "threshold:5.5"], "catalan", **{name: value})
    assert str(refused.value) == (f"{name}={value!r}: a timer is more than 0 and at most 600 "
                                  f"seconds, or None (no timer)")


def test_a_timer_of_600_seconds_is_the_longest_taken():
    session = TableSession(["human", "threshold:5.5"], "catalan", bank=1, bet_timeout=600,
                           act_timeout=600.0, clock=lambda: 0.0)
    assert session.deadline == 600.0


def test_no_timer_for_a_lone_human_who_asks():
    session = TableSession(["human", "threshold:5.5"], "catalan", **NO_TIMERS)
    assert session.deadline is None and not session.tick(1e9)


# ------------------------------------------------------------------ history
def test_the_history_replays_to_the_same_chips(tmp_path):
    path = tmp_path / "hands.jsonl"
    now = [0.0]
    session = TableSession(["human", "careful", "threshold:5.5"], "catalan_house", seed=5,
                           hands=4, history=path, clock=lambda: now[0])
    while not session.over:
        now[0] += 30  # every decision of seat 0 is left to its timer
        session.tick()
    records = read_history(path)
    assert [r["hand"] for r in records] == [1, 2, 3, 4] and all(r["finished"] for r in records)
    assert any(how == "timeout" for r in records for _s, _n, how in r["actions"])
    assert replay(path) == session.engine.chips


def test_a_session_cut_short_saves_its_hand_in_play(tmp_path):
    path = tmp_path / "hands.jsonl"
    session = TableSession(["human", "threshold:5.5"], "catalan", seed=2, hands=3,
                           history=path, **NO_TIMERS)
    session.act(0, "bet_2")
    session.close()
    (record,) = read_history(path)
    assert not record["finished"] and record["actions"][0] == [0, "bet_2", "human"]
    assert replay(path) == session.engine.chips


def test_a_history_that_does_not_replay_is_named(tmp_path):
    path = tmp_path / "hands.jsonl"
    TableSession(["threshold:5.5", "careful"], "catalan", seed=3, hands=2, history=path)
    lines = path.read_text().splitlines()
    record = json.loads(lines[1])
    record["chips"][0] += 1
    path.write_text(lines[0] + "\n" + json.dumps(record) + "\n")
    with pytest.raises(HistoryError, match="hand 2: the replay settles to"):
        replay(path)


# ------------------------------------------------------------------ settlement lines
def _settle(rules: str, deck: str, script: list[tuple[int, str]], **kw) -> TableSession:
    session = _humans(rules, deck, bank=1, **kw)
    for seat, action in script:
        session.act(seat, action)
    return session


def test_settlement_bust_and_the_bank_collecting():
    player, bank = _settle("pagat", "6o 5c 6c", [(0, "bet_1"), (0, "hit")]).settlements[0]
    assert player.reasons == ("bust",) and player.net == -10
    assert player.text == "seat 0: -10 — bust with 12 (stake 10 to the bank)"
    assert bank.reasons == ("bank",) and bank.net == 10


def test_settlement_tie_to_the_bank():
    player, _bank = _settle("pagat", "5o 5c", [(0, "bet_1"), (0, "stand"),
                                               (1, "stand")]).settlements[0]
    assert player.reasons == ("tie",) and "tie to the bank at 5" in player.text


def test_settlement_coverage_runs_out():
    player, bank = _settle("pagat", "6o 5c", [(0, "bet_2"), (0, "stand"), (1, "stand")],
                           chips=[500, 15]).settlements[0]
    assert player.reasons == ("beat_bank", "coverage") and player.net == 15
    assert "coverage ran out: paid 15 of 20" in player.text and bank.net == -15


def test_settlement_natural_jackpot_and_the_bank_passed():
    session = _settle("catalan", "7o 2c Rc 5c", [(0, "bet_1"), (0, "hit"), (0, "stand"),
                                                (1, "hit"), (1, "stand"), (0, "take_bank")],
                      hands=2)
    player, bank = session.settlements[0]
    assert player.reasons == ("ante", "natural", "jackpot") and player.net == 20
    assert "natural 7½ paid 2:1" in player.text and "takes the jackpot of 1" in player.text
    assert player.cards == (("7o", "Rc"),)
    assert bank.reasons == ("bank", "bank_passed") and "passes to seat 0" in bank.text
    assert session.view(0)["bank"] == 0


# ------------------------------------------------------------------ agents' probabilities
def test_a_learned_agent_gives_the_softmax_of_its_legal_logits_a_scripted_one_its_choice():
    size = TableSession(["threshold:5.5", "threshold:5.5"], "catalan",
                        hands=1).observer.observe(0).shape[0]
    rng = np.random.default_rng(0)
    actions = Engine("catalan", 2).layout.size
    model = LearnedAgent([(rng.normal(size=(size, 16)), rng.normal(size=16), "tanh"),
                          (rng.normal(size=(16, actions)), rng.normal(size=actions), None)],
                         size, "test")
    session = TableSession([model, "threshold:5.5"], "catalan", seed=4, hands=2,
                           auto_agents=False)
    decisions = []
    session.subscribe(lambda change: decisions.append(change.decision))
    session.advance()
    learned = [d for d in decisions if d is not None and d.seat == 0]
    scripted = [d for d in decisions if d is not None and d.seat == 1]
    assert learned and scripted
    for d in learned:
        probabilities = np.array(list(d.probabilities.values()))
        assert probabilities.sum() == pytest.approx(1.0)
        assert max(d.probabilities, key=d.probabilities.get) == d.name  # it plays its best
        assert 0 < probabilities.min() and probabilities.max() < 1
    for d in scripted:
        assert d.probabilities[d.name] == 1.0 and sum(d.probabilities.values()) == 1.0


def _random_model(size: int, actions: int, **kw) -> LearnedAgent:
    rng = np.random.default_rng(1)
    return LearnedAgent([(rng.normal(size=(size, 8)), rng.normal(size=8), "tanh"),
                         (rng.normal(size=(8, actions)), rng.normal(size=actions), None)],
                        size, "test-model", **kw)


@pytest.mark.parametrize("case, words", [
    ("seats", "seat 1: model test-model was trained for 2 seats, not 3; seat it at a table "
              "of 2 (--seats 2)"),
    ("actions", "seat 1: model test-model was trained with 9 actions but this table has"),
    ("information_state", "seat 1: model test-model was trained on information states of "
                          "length"),
])
def test_a_model_that_cannot_play_at_the_table_is_refused_before_a_card_is_dealt(
        case, words, tmp_path):
    """Seated at another table size, bet ladder or information-state length than it was
    trained on, a model is refused by the session itself: no hand is dealt, none written
    to the history (it used to fail at its first decision, mid-hand)."""
    from envs.information_state import information_state_size
    from envs.observer import observation_size

    actions = Engine("catalan", 3).layout.size
    model = {"seats": _random_model(observation_size(2), actions),
             "actions": _random_model(observation_size(3), 9),
             "information_state": _random_model(information_state_size("catalan", 2), actions,
                                                observation_type="information_state")}[case]
    history = tmp_path / "hands.jsonl"
    with pytest.raises(SessionError) as refused:
        TableSession(["human", model, "threshold:5.5"], "catalan", history=history,
                     **NO_TIMERS)
    assert words in str(refused.value)
    assert not history.exists()
    # at the table it was trained for, the same model plays (a split seat checks both sides)
    if case == "seats":
        session = TableSession(["threshold:5.5", model], "catalan", hands=1, **NO_TIMERS)
        assert session.engine.over
    if case == "information_state":  # the bank side of a PLAYER|BANK seat is checked too
        with pytest.raises(SessionError, match="seat 1: model test-model was trained on "
                                               "information states"):
            TableSession(["human", _split(model), "threshold:5.5"], "catalan", **NO_TIMERS)
        session = TableSession(["threshold:5.5", _split(model)], "catalan", hands=1,
                               **NO_TIMERS)
        assert session.engine.over


def _split(bank: LearnedAgent):
    from agents.seating import RoleSplitAgent
    from agents.registry import make_agent

    return RoleSplitAgent(make_agent("threshold:5.5"), bank)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_preset_played_by_keys_conserves_chips_and_replays(preset, tmp_path):
    """People typing random legal keys at every preset: each key names one legal action and
    plays it, no chip is made or lost (stacks + jackpot at each settlement), and the
    history replays."""
    path = tmp_path / "hands.jsonl"
    session = TableSession(["human"] * 3, preset, seed=7, hands=4, history=path, **NO_TIMERS)
    rng = np.random.default_rng(0)
    total = sum(session.engine.chips) + session.engine.jackpot
    played: list[str] = []
    session.subscribe(lambda change: played.append(change.decision.name)
                      if change.decision else None)
    while not session.over:
        legal = session.legal()
        assert len({a.key for a in legal}) == len(legal)
        choice = legal[int(rng.integers(len(legal)))]
        session.act(session.actor, choice.key)
        assert played[-1] == choice.name
    records = read_history(path)
    assert len(records) == 4
    for record in records:  # stacks and jackpot as each hand settled
        assert sum(record["chips"]) + record["jackpot"] == total
    assert replay(path) == session.engine.chips
