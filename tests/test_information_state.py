"""Information states (RULES.md §8.10): a seat's perfect-recall view of the hand.

* ``observation_type`` on the AEC env and the three Gymnasium views: a bad value
  is refused by name; ``"observation"`` is today's vector, bit for bit; the
  information state starts with that vector and its space holds every vector
  produced, in every preset at 2..8 seats.
* No leaks (the deals and scripts of ``tests/test_no_leak.py``): two deals that
  differ only in a card a seat must not see give it the same information state
  — another player's face-down card, the bank's card before its turn, the card
  taken face down after ``reveal_hit``, the cards nobody sees (§6) — each with
  a control that must differ. §8.7: an undeclared 7½ looks exactly like a stand.
* Scripted decks decode to the history a player would tell: the bet placed
  after the first card, each raise between its cards, the face-up cards in the
  order they came, reveals; and order and timing, which the observation
  forgets, tell two hands apart.
* The tables of the docs are the module's; every event kind is read or left
  out with a reason; a history that does not fit raises rather than drops.
* MaskablePPO with an MLP trains on a view with ``observation_type="information_state"``.
"""

from __future__ import annotations

import pickle
import warnings
from pathlib import Path

import gymnasium
import numpy as np
import pytest

import envs  # noqa: F401  (registers the ids)
from envs import sette_e_mezzo_v0
from envs.engine import BANK, BET, PLAY, SIDE_BET, TRANSFER, Engine
from envs.events import EVENT_TYPES
from envs.information_state import (ENCODED_KINDS, HISTORY_KINDS, SKIPPED_KINDS,
                                    HistoryOverflow, InformationStateObserver,
                                    InformationStateReader, history_slots, information_state,
                                    information_state_bounds, information_state_size,
                                    information_state_slices, kinds_table, max_hand_cards,
                                    size_table, slot_size, slot_table)
from envs.observer import Observer, observation_size
from envs.rules import PRESETS, Rules

from scripted import play, start
from test_no_leak import (BANK_ALT, HIDDEN_HIT_ALT, PLAYER_CHOICE, SEAT2_ALT, deck, script,
                          same)

ROOT = Path(__file__).resolve().parent.parent
VIEWS = ("sette/Player-v0", "sette/Bank-v0", "sette/Seat-v0")


def history(engine, seat):
    """The decoded history of ``seat`` now: (kind, seat block, rank, amount) per item."""
    reader = InformationStateReader(information_state(engine, seat), engine.rules)
    return [(i.kind, i.seat, i.rank, i.amount) for i in reader.history()]


# ------------------------------------------------------------ the keyword
def test_a_bad_observation_type_is_refused_naming_it_and_the_choices():
    for make in (lambda: sette_e_mezzo_v0.env(observation_type="infostate"),
                 lambda: gymnasium.make("sette/Bank-v0", observation_type="infostate")):
        with pytest.raises(ValueError, match=r"'infostate'.*'observation', 'information_state'"):
            make()


def test_the_default_observation_is_the_observation_bit_for_bit():
    """No keyword, "observation" and the information state's first part are one vector."""
    envs_ = [sette_e_mezzo_v0.env(rules="catalan", num_seats=3)] + [
        sette_e_mezzo_v0.env(rules="catalan", num_seats=3, observation_type=t)
        for t in ("observation", "information_state")]
    for env in envs_:
        env.reset(seed=5)
    size = observation_size(3)
    assert envs_[0].observation_space("player_0") == envs_[1].observation_space("player_0")
    for env in envs_:
        for i, agent in enumerate(env.possible_agents):
            env.action_space(agent).seed(i)
    for agents in zip(*(env.agent_iter() for env in envs_)):
        assert len(set(agents)) == 1
        lasts = [env.last() for env in envs_]
        plain, named, info = (last[0]["observation"] for last in lasts)
        assert plain.dtype == named.dtype == info.dtype == np.float32
        assert plain.tobytes() == named.tobytes() == info[:size].tobytes()
        assert len(info) == information_state_size("catalan", 3)
        masks = [last[0]["action_mask"] for last in lasts]
        assert all(np.array_equal(masks[0], m) for m in masks)
        done = lasts[0][2] or lasts[0][3]
        action = None if done else envs_[0].action_space(agents[0]).sample(masks[0])
        for env in envs_:
            env.step(action)


@pytest.mark.parametrize("view", VIEWS)
def test_the_views_take_the_keyword_and_their_space_holds_every_vector(view):
    plain = gymnasium.make(view, rules="spanish", num_seats=3).unwrapped
    env = gymnasium.make(view, rules="spanish", num_seats=3,
                         observation_type="information_state").unwrapped
    assert env.observation_space.shape == (information_state_size(env.rules, 3),)
    low, high = information_state_bounds(env.rules, 3)
    assert np.array_equal(env.observation_space.low, low)
    assert np.array_equal(env.observation_space.high, high)
    size = plain.observation_space.shape[0]
    obs_a, info_a = plain.reset(seed=3)
    obs_b, info_b = env.reset(seed=3)
    for _ in range(120):
        assert obs_a.tobytes() == obs_b[:size].tobytes()
        assert env.observation_space.contains(obs_b)
        assert np.array_equal(info_a["action_mask"], info_b["action_mask"])
        assert np.array_equal(plain.action_masks(), env.action_masks())
        assert np.array_equal(obs_b, information_state(env.engine, env.learner))
        action = int(np.flatnonzero(info_a["action_mask"])[-1])
        obs_a, _, done, _, info_a = plain.step(action)
        obs_b, _, done_b, _, info_b = env.step(action)
        assert done == done_b
        if done:
            obs_a, info_a = plain.reset()
            obs_b, info_b = env.reset()


@pytest.mark.parametrize("preset", PRESETS)
def test_every_preset_at_2_to_8_seats_stays_inside_its_space(preset):
    """Random play; every vector inside the Box; the history never needs more slots."""
    for seats in range(2, 9):
        env = sette_e_mezzo_v0.env(rules=preset, num_seats=seats, max_hands=2,
                                   observation_type="information_state")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            env.reset(seed=seats)
        space = env.observation_space("player_0")["observation"]
        assert space.shape == (information_state_size(preset, seats),)
        for i, agent in enumerate(env.possible_agents):
            env.action_space(agent).seed(i)
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            assert space.contains(obs["observation"]), (preset, seats, agent)
            env.step(None if term or trunc else
                     env.action_space(agent).sample(obs["action_mask"]))
        items = InformationStateReader(obs["observation"], preset).history()
        assert 0 < len(items) <= history_slots(preset, seats)


def test_the_env_pickles_with_its_observation_type():
    env = sette_e_mezzo_v0.raw_env(rules="pagat", num_seats=2,
                                   observation_type="information_state")
    again = pickle.loads(pickle.dumps(env))
    assert again.observation_type == "information_state"
    assert again.observation_space("player_0") == env.observation_space("player_0")


# ------------------------------------------------------------ no leaks
def trace(preset, seats, cards, seed=1, steps=None):
    """(phase, [information state of every seat]) before the first action and after each."""
    e = start(preset, seats, cards, bank=0, seed=seed)
    encoder = InformationStateObserver(e)
    out = [(e.phase, [encoder.observe(s) for s in range(seats)])]
    for step in script(preset, seats) if steps is None else steps:
        play(e, [step])
        out.append((e.phase, [encoder.observe(s) for s in range(seats)]))
    return out


HIDDEN = (BET, PLAY, BANK, SIDE_BET)


@pytest.mark.parametrize("seats", [3, 5])
@pytest.mark.parametrize("preset", PRESETS)
def test_another_players_face_down_card_is_not_in_the_information_state(preset, seats):
    """RULES.md §4.1: seat 2's face-down card (2o or 6b) changes no other seat's information
    state until the showdown; seat 2 knows it from the deal on."""
    a = trace(preset, seats, deck(seats))
    b = trace(preset, seats, deck(seats, seat2=SEAT2_ALT))
    hidden = [i for i, (phase, _) in enumerate(a) if phase in HIDDEN]
    assert len(hidden) == len(script(preset, seats))
    for i in hidden:
        for seat in range(seats):
            if seat != 2:
                assert same(a[i][1][seat], b[i][1][seat]), (preset, seats, seat, i)
    dealt = next(i for i, (phase, _) in enumerate(a) if phase == PLAY)
    assert not same(a[dealt][1][2], b[dealt][1][2])                  # control: the owner
    assert not same(a[-1][1][1], b[-1][1][1])                        # and the showdown


@pytest.mark.parametrize("preset", PRESETS)
def test_the_banks_card_is_in_no_information_state_before_its_turn(preset):
    """RULES.md §4.1, §4.6: nobody, the bank included, knows its card before the bank's turn."""
    seats = 3
    a = trace(preset, seats, deck(seats))
    b = trace(preset, seats, deck(seats, bank=BANK_ALT))
    before = [i for i, (phase, _) in enumerate(a) if phase in (BET, PLAY, SIDE_BET)]
    assert len(before) == len(script(preset, seats)) - 2
    for i in before:
        for seat in range(seats):
            assert same(a[i][1][seat], b[i][1][seat]), (preset, seat, i)
    turn = before[-1] + 1
    assert a[turn][0] == BANK
    for seat in range(seats):                                         # control: it shows
        assert not same(a[turn][1][seat], b[turn][1][seat])


@pytest.mark.parametrize("preset", PLAYER_CHOICE)
def test_the_card_taken_face_down_after_reveal_hit_is_known_to_its_owner_only(preset):
    seats = 3
    a = trace(preset, seats, deck(seats))
    b = trace(preset, seats, deck(seats, seat1_hit=HIDDEN_HIT_ALT))
    for i in [i for i, (phase, _) in enumerate(a) if phase in HIDDEN]:
        for seat in (0, 2):
            assert same(a[i][1][seat], b[i][1][seat])
    after = script(preset, seats).index("1:reveal_hit") + 1
    assert not same(a[after][1][1], b[after][1][1])


def test_the_secret_three_cards_are_unknown_even_to_their_owner():
    """RULES.md §6 secret_three (catalan_house): the 3 is shown and thrown out; the two
    secret cards come face down and their ranks are in no history, the owner's included,
    until the bank has finished."""
    cards = ["1o", "3o", "2b", "Rb", "2c", "So", "Re"]   # seat 2's 3, then its secret 2 and R
    e = start("catalan_house", 3, cards, bank=0)
    play(e, ["1:bet_1", "2:bet_1", "1:hit", "1:stand", "2:stand", "0:hit"])
    own = history(e, 2)
    assert own[2:7] == [("card_down", 2, None, 0), ("card_down", 0, "3", 0),
                        ("discard", 0, "3", 0), ("card_down", 0, None, 0),
                        ("card_down", 0, None, 0)]
    play(e, ["0:stand"])
    assert [item for item in history(e, 1) if item[0] == "reveal" and item[1] == 1] == [
        ("reveal", 1, "2", 0), ("reveal", 1, "R", 0)]                 # seat 2 is block 1 of 1


@pytest.mark.parametrize("preset, declared", [("catalan", False), ("spanish", False),
                                              ("pagat", True)])
def test_an_undeclared_seven_and_a_half_looks_like_a_stand(preset, declared):
    """RULES.md §8.7: 7o + Rc (7½, the player may only stand) and 5o + Rc (5½, the player
    stands) give the bank the same information state at its turn — unless the rules
    declare a 7½, which the bank then sees."""
    states = []
    for first in ("7o", "5o"):
        e = start(preset, 2, [first, "2c", "Rc", "Sb"], bank=1)
        steps = ["0:bet_1", "0:hit"]
        if not (declared and first == "7o"):
            steps.append("0:stand")
        play(e, steps)
        assert e.phase == BANK and e.actor == 1
        states.append((information_state(e, 1), history(e, 1), history(e, 0)))
    (seven, seven_items, own_seven), (five, five_items, own_five) = states
    assert own_seven != own_five                                     # the player knows
    if declared:
        assert ("declare", 1, None, 0) in seven_items and not same(seven, five)
    else:
        assert seven_items == five_items and same(seven, five)
        assert ("stand", 1, None, 0) in seven_items


# ------------------------------------------------------------ the decoded history
def test_a_spanish_hand_decodes_to_its_bets_raises_cards_and_reveals_in_order():
    """Bets on the turn (after the first card), a raise before the hit and one after the
    reveal_hit: the player's and the bank's histories, seat blocks relative to each."""
    e = start("spanish", 2, ["3o", "2c", "Sb", "2e", "Rc"], bank=1)
    play(e, ["0:bet_1", "0:raise_1", "0:hit", "0:reveal_hit", "0:raise_2", "0:stand"])
    assert history(e, 0) == [
        ("card_down", 0, "3", 0), ("card_down", 1, None, 0), ("bet", 0, None, 10),
        ("raise", 0, None, 10), ("card_up", 0, "S", 0), ("reveal", 0, "3", 0),
        ("card_down", 0, "2", 0), ("raise", 0, None, 20), ("stand", 0, None, 0),
        ("reveal", 1, "2", 0)]
    assert history(e, 1) == [
        ("card_down", 1, None, 0), ("card_down", 0, None, 0), ("bet", 1, None, 10),
        ("raise", 1, None, 10), ("card_up", 1, "S", 0), ("reveal", 1, "3", 0),
        ("card_down", 1, None, 0), ("raise", 1, None, 20), ("stand", 1, None, 0),
        ("reveal", 0, "2", 0)]
    play(e, ["1:hit", "1:stand"])                                    # 2 + R: 2½ < 5½
    assert history(e, 1)[10:] == [("card_up", 0, "R", 0), ("stand", 0, None, 0),
                                  ("reveal", 1, "2", 0)]            # the showdown


def test_the_face_up_cards_are_in_the_order_they_came_which_the_observation_forgets():
    """catalan: S then 2 or 2 then S, both face up: the bank's observation at its turn is the
    same, its information state is not, and it reads the order."""
    states = {}
    for hits in (["Sb", "2e"], ["2e", "Sb"]):
        e = start("catalan", 2, ["1o", "2c"] + hits + ["Rc"], bank=1)
        play(e, ["0:bet_1", "0:hit", "0:hit", "0:stand"])
        assert e.phase == BANK
        states[hits[0]] = (Observer(e).observe(1), information_state(e, 1), history(e, 1))
    assert same(states["Sb"][0], states["2e"][0])
    assert not same(states["Sb"][1], states["2e"][1])
    ups = {k: [rank for kind, _, rank, _ in v[2] if kind == "card_up"] for k, v in states.items()}
    assert ups == {"Sb": ["S", "2"], "2e": ["2", "S"]}


def test_the_timing_of_a_raise_is_in_the_information_state_only():
    """spanish: raising before the hit or after it makes the same stake and cards."""
    states = []
    for steps in (["0:bet_1", "0:raise_2", "0:hit", "0:stand"],
                  ["0:bet_1", "0:hit", "0:raise_2", "0:stand"]):
        e = start("spanish", 2, ["3o", "2c", "Sb", "Rc"], bank=1)
        play(e, steps)
        states.append((Observer(e).observe(1), information_state(e, 1), history(e, 1)))
    assert same(states[0][0], states[1][0])
    assert not same(states[0][1], states[1][1])
    kinds = [[kind for kind, *_ in s[2]] for s in states]
    assert kinds[0].index("raise") < kinds[0].index("card_up")
    assert kinds[1].index("raise") > kinds[1].index("card_up")


def test_a_split_and_its_stake_are_history_items():
    """catalan_house: two figures split (§6 two_figures_once: the second stake at once); the
    bank, offered the 7½s (§5 offer), reads the split card, the new hand and its stake."""
    e = start("catalan_house", 2, ["So", "2c", "Sc", "7b", "7e", "Rb"], bank=1, max_hands=3)
    play(e, ["0:bet_1", "0:hit", "0:split", "0:hit", "0:stand", "0:hit", "0:stand", "1:stand"])
    assert e.phase == TRANSFER and e.actor == 0
    reader = InformationStateReader(information_state(e, 1), "catalan_house")
    items = reader.history()
    split = next(i for i in items if i.kind == "split")
    assert (split.seat, split.rank, split.hand) == (1, "S", 1)
    assert [(i.amount, i.hand) for i in items if i.kind == "bet"] == [(10, 0), (10, 1)]
    assert [(i.kind, i.hand) for i in items if i.kind in ("card_up", "card_down")][-2:] == [
        ("card_up", 0), ("card_down", 1)]                      # 7b on hand 0, 7e on hand 1


def test_a_sale_of_the_bank_names_the_buyer():
    """spanish_full (§5 bank_sale): the bank offers the bank on; the buyer, asked, reads who
    offered it to whom (target)."""
    e = start("spanish_full", 3, ["1o", "2o", "2c", "So", "Co", "Re"], bank=0, max_hands=3)
    play(e, script("spanish_full", 3) + ["0:sell_bank"])
    assert e.phase == TRANSFER and e.actor == 1
    reader = InformationStateReader(information_state(e, 1), "spanish_full")
    sale = reader.history()[-1]
    assert (sale.kind, sale.seat, sale.target) == ("sell", 2, 0)   # bank 0 is block 2 of 1


# ------------------------------------------------------------ schema, bound, overflow
def test_the_slices_name_every_entry_once_and_the_reader_reads_them():
    rules = Rules.preset("catalan")
    slices = information_state_slices(rules, 3)
    size = information_state_size(rules, 3)
    assert slices["observation"] == slice(0, observation_size(3))
    assert slices["history"] == slice(observation_size(3), size)
    width = slot_size(3)
    covered = np.zeros(size, dtype=int)
    for j in range(history_slots(rules, 3)):
        sl = slices[f"history_{j}"]
        assert sl.stop - sl.start == width
        covered[sl] += 1
        parts = [slices[f"history_{j}.{f}"] for f in ("kind", "seat", "target", "rank", "wild",
                                                      "shuffled", "amount", "hand")]
        assert [p.start for p in parts[1:]] == [p.stop for p in parts[:-1]]
        assert (parts[0].start, parts[-1].stop) == (sl.start, sl.stop)
    assert covered[slices["history"]].tolist() == [1] * (size - observation_size(3))
    e = play(start("catalan", 3, deck(3), bank=0), ["1:bet_1"])
    reader = InformationStateReader(information_state(e, 1), rules)
    assert reader["history_0.kind"][[k for k, _ in HISTORY_KINDS].index("bet")] == 1.0
    assert reader["history_0.seat"].tolist() == [1.0, 0.0, 0.0]          # seat 1 is block 0
    assert reader.observation.num_seats == 3 and reader.observation.phase_name == "bet"
    with pytest.raises(KeyError, match="history_<j>"):
        reader["history_0.colour"]
    with pytest.raises(ValueError, match="length 7"):
        InformationStateReader(np.zeros(7, dtype=np.float32), rules)


def test_a_hand_holds_at_most_its_cards_below_seven_and_a_half():
    """12 figures (6) and a 1 make 7 with 13 cards, so a 14th is the most (one deck); two
    decks have 14 figures below 7½, and a 15th card."""
    assert max_hand_cards(1) == 14 and max_hand_cards(2) == 15
    e = start("catalan", 2, ["So"] + ["2c"] + ["Sc", "Se", "Sb", "Co", "Cc", "Ce", "Cb",
                                               "Ro", "Rc", "Re", "Rb", "1o", "1c"], bank=1)
    play(e, ["0:bet_1"] + ["0:hit"] * 13)                            # 14 cards: 6 + 2 = 8
    cards = [kind for kind, seat, _, _ in history(e, 0) if seat == 0 and kind.startswith("card")]
    assert len(cards) == 14 and ("bust", 0, None, 0) in history(e, 0)


def test_a_history_that_does_not_fit_raises_naming_the_bound():
    """Nothing is dropped: past the bound (here made 2) the encoder names it and the item."""
    e = play(start("catalan", 2, ["1o", "2c", "Sb"], bank=1), ["0:bet_1"])  # bet, 2 cards
    encoder = InformationStateObserver(e)
    encoder.slots = 2
    with pytest.raises(HistoryOverflow, match="more than 2 history items.*card_down of seat 1"):
        encoder.observe(0)


def test_every_event_kind_is_read_or_left_out_with_a_reason():
    assert sorted(ENCODED_KINDS) + sorted(SKIPPED_KINDS) != []
    assert not set(ENCODED_KINDS) & set(SKIPPED_KINDS)
    assert set(ENCODED_KINDS) | set(SKIPPED_KINDS) == set(EVENT_TYPES)


def test_the_modules_example_runs():
    import doctest

    import envs.information_state as module

    result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0 and result.failed == 0


def test_the_docs_hold_the_modules_tables():
    import envs.information_state as module

    doc = (ROOT / "docs" / "INFORMATION_STATE.md").read_text(encoding="utf-8")
    assert slot_table() in module.__doc__
    for table in (slot_table(), kinds_table(), size_table()):
        assert table in doc, table.splitlines()[2]


# ------------------------------------------------------------ learning on it
def test_maskable_ppo_with_an_mlp_trains_on_the_information_state():
    pytest.importorskip("sb3_contrib")
    import torch
    from sb3_contrib import MaskablePPO

    env = gymnasium.make("sette/Bank-v0", rules="catalan", num_seats=2,
                         observation_type="information_state")
    model = MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=32, n_epochs=2, seed=0,
                        device="cpu", policy_kwargs={"net_arch": [16]})
    before = {k: v.clone() for k, v in model.policy.state_dict().items()}
    model.learn(total_timesteps=256)
    assert model.num_timesteps >= 256
    assert model.observation_space.shape == (information_state_size(env.unwrapped.rules, 2),)
    assert any(not torch.equal(before[k], v) for k, v in model.policy.state_dict().items())
    obs, info = env.reset(seed=1)
    action, _ = model.predict(obs, action_masks=info["action_mask"].astype(bool))
    assert info["action_mask"][int(action)]


def test_the_matta_and_a_card_from_a_fresh_reshuffle_are_flagged():
    """italian: the rey of oros is the matta (§1), the rey of copas is not. catalan
    (§3 when_empty): the first card drawn after the pile ran out mid-hand is flagged."""
    e = play(start("italian", 2, ["1o", "2c", "Ro", "Rc"], bank=1), ["0:bet_1", "0:hit", "0:hit"])
    reader = InformationStateReader(information_state(e, 1), "italian")
    assert [(i.rank, i.wild) for i in reader.history() if i.kind == "card_up"] == [
        ("R", True), ("R", False)]
    e = Engine("catalan", 8, max_hands=None)
    e.reset(seed=0)
    rng = np.random.default_rng(0)
    while not any(ev[0] == "shuffle" for ev in e.events[_last_hand(e.events):]):
        legal = e.legal_actions()
        e.step(1 if 1 in legal else int(rng.choice(legal)))
    items = InformationStateReader(information_state(e, 0), "catalan").history()
    assert [i.shuffled for i in items].count(True) == 1
    assert next(i for i in items if i.shuffled).kind in ("card_up", "card_down")


def _last_hand(events):
    return max(i for i, ev in enumerate(events) if ev[0] == "hand")
