"""The table render: text and picture show what the viewer may see, with the engine's totals.

Scripted deals (tests/scripted.py: one card to each player from the seat
after the bank, then the bank; hits draw the next card):

* the picture is an ``(H, W, 3)`` ``uint8`` array of one size per table;
* a face-down card the viewer may not see changes nothing in the viewer's
  picture or text (RULES.md §4), while the viewer's own card does;
* totals are the engine's scoring, the matta at its best value (§1):
  ``5o Ro`` is 7 under ``italian`` and ``pagat_italian``, not 5½; beside a
  card the viewer cannot see, the cards shown count their face value (the
  matta ½), so "X + ?" never claims more than the hand holds;
* the last frame of an episode names the bank and seats nobody "sitting out".
"""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest

import envs  # noqa: F401  (registers the ids)
from envs import sette_e_mezzo_v0
from envs.cards import format_half_points
from envs.engine import Engine
from envs.picture import picture_size, table_picture
from envs.render import table_text
from envs.rules import PRESETS
from envs.table_view import table_view
from tests.scripted import play, start

VIEW_IDS = ("sette/Player-v0", "sette/Bank-v0", "sette/Seat-v0")


def _matta_deal(rules: str, first_card: str = "5o", bank_card: str = "3c"):
    """Seat 0 (player) holds ``first_card`` face down and the matta Ro face up; bank seat 1."""
    engine = start(rules, 2, [first_card, bank_card, "Ro", "4b"], bank=1)
    return play(engine, ["0:bet_1", "0:hit"])


def test_picture_is_an_rgb_array_of_one_size_per_table():
    for seats in (2, 6):
        engine = start("catalan", seats, ["5o"], bank=0)
        picture = table_picture(engine, viewer=1)
        assert picture.dtype == np.uint8
        assert picture.shape == (*picture_size(seats), 3)
    assert picture_size(6)[0] > picture_size(2)[0]


@pytest.mark.parametrize("viewer", [0, None])
def test_a_card_hidden_from_the_viewer_changes_nothing_it_is_shown(viewer):
    """The bank's face-down card (3c or 4c) is hidden from seat 0 and from a spectator."""
    a, b = _matta_deal("italian", bank_card="3c"), _matta_deal("italian", bank_card="4c")
    assert a.bank_hand.cards != b.bank_hand.cards
    np.testing.assert_array_equal(table_picture(a, viewer), table_picture(b, viewer))
    assert table_text(a, viewer) == table_text(b, viewer)


def test_the_viewers_own_face_down_card_is_shown_to_it_alone():
    a, b = _matta_deal("italian", first_card="5o"), _matta_deal("italian", first_card="6o")
    assert not np.array_equal(table_picture(a, 0), table_picture(b, 0))
    assert "(5o) Ro" in table_text(a, 0)
    np.testing.assert_array_equal(table_picture(a, 1), table_picture(b, 1))
    np.testing.assert_array_equal(table_picture(a, None), table_picture(b, None))


@pytest.mark.parametrize("rules", ["italian", "pagat_italian"])
def test_totals_with_the_matta_are_the_engines_score(rules):
    engine = _matta_deal(rules)
    hand = engine.hands[0][0]
    assert hand.total == 14  # 5 and the matta as 2: 7 (RULES.md §1)
    assert f"total {format_half_points(hand.total)} " in table_text(engine, viewer=0)
    assert table_view(engine, 0).seats[0].hands[0].total == hand.total
    # A spectator sees only the matta, whose value is chosen with the card it
    # cannot see: the cards shown count their face value, the matta ½.
    assert "## Ro                  total ½ + ?" in table_text(engine)


@pytest.mark.parametrize("rules", ["italian", "pagat_italian"])
@pytest.mark.parametrize("hidden", ["1o", "3o", "5o", "6o"])
def test_a_partial_total_never_claims_more_than_the_hand_holds(rules, hidden):
    """The matta beside a hidden card: the hand makes 7, not "7 + ?" (RULES.md §1)."""
    engine = _matta_deal(rules, first_card=hidden)
    total = engine.hands[0][0].total
    assert total == 14
    shown = table_view(engine).seats[0].hands[0]
    assert shown.partial and shown.total_text == "½ + ?"
    assert shown.total + 1 <= total  # the hidden card is worth ½ at least


@pytest.mark.parametrize("rules", sorted(PRESETS))
def test_partial_totals_are_lower_bounds_in_seeded_play(rules):
    """What a total "X + ?" shows, plus ½ for each card not shown, never passes the hand's score.

    A total with every card shown is the engine's score (§1, the matta at its best value).
    """
    rng = np.random.default_rng(7)
    engine = Engine(rules, 4, max_hands=6)
    checked = 0
    for seed in range(3):
        engine.reset(seed=seed)
        while not engine.over:
            for viewer in (None, *range(engine.num_seats)):
                for seat, hands in zip(table_view(engine, viewer).seats, _hands(engine)):
                    for hand, real in zip(seat.hands, hands):
                        hidden = hand.cards.count(None)
                        assert hand.partial == (hidden > 0)
                        assert hand.total + hidden <= real.total if hidden else (
                            hand.total == real.total)
                        checked += 1
            engine.step(int(rng.choice(engine.legal_actions())))
    assert checked > 100


def _hands(engine):
    """Each seat's hands as the table view lists them (none once the episode is over)."""
    return [[] if engine.over else [engine.bank_hand] if s == engine.bank else engine.hands[s]
            for s in range(engine.num_seats)]


def _finished(rules: str = "catalan", seats: int = 3):
    engine = start(rules, seats, ["5o", "4c", "3b"], bank=2, max_hands=1)
    while not engine.over:
        engine.step(int(np.flatnonzero(engine.action_mask())[0]))
    return engine


def test_last_frame_names_the_bank_and_nobody_sitting_out():
    engine = _finished()
    text = table_text(engine)
    lines = text.splitlines()
    assert lines[0].startswith("episode over after 1 hand")
    assert len(lines) == 1 + engine.num_seats
    assert "sitting out" not in text
    assert lines[1 + engine.bank].startswith("  seat 2 BANK")
    shown = table_view(engine)
    assert [s.is_bank for s in shown.seats] == [False, False, True]
    nets = [s.last_hand_net for s in shown.seats]
    assert nets == [c - s for c, s in zip(engine.chips, engine.hand_start_chips)]
    assert f"last hand {nets[0]:+d}" in lines[1]


def test_aec_env_renders_rgb_array_for_a_spectator():
    env = sette_e_mezzo_v0.env(rules="catalan", num_seats=4, render_mode="rgb_array")
    assert "rgb_array" in env.metadata["render_modes"]
    env.reset(seed=3)
    shapes = set()
    for agent in env.agent_iter():
        obs, _, termination, truncation, _ = env.last()
        picture = env.render()
        shapes.add(picture.shape)
        np.testing.assert_array_equal(picture, table_picture(env.unwrapped.engine))
        env.step(None if termination or truncation else int(obs["action_mask"].argmax()))
    assert shapes == {(*picture_size(4), 3)}


@pytest.mark.parametrize("view_id", VIEW_IDS)
def test_views_render_rgb_array_for_the_learner(view_id):
    env = gymnasium.make(view_id, rules="catalan", num_seats=3, render_mode="rgb_array")
    assert "rgb_array" in env.metadata["render_modes"]
    env.reset(seed=0)
    for _ in range(4):
        picture = env.render()
        assert picture.shape == (*picture_size(3), 3) and picture.dtype == np.uint8
        learner = env.unwrapped.learner
        np.testing.assert_array_equal(picture, table_picture(env.unwrapped.engine, learner))
        if env.step(int(env.unwrapped.action_masks().argmax()))[2]:
            env.reset()
