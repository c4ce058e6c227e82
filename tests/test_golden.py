"""Golden playthroughs, replay and determinism of the engine.

The files in ``tests/golden/`` are transcripts of seeded episodes played by
the deterministic seats of ``tests/golden/regenerate.py``; they were checked
by hand against RULES.md (payouts, jackpot, who gets the bank) when written.
A difference means the engine now plays those episodes differently: if that
is intended, run ``python tests/golden/regenerate.py`` and review the diff.
"""

from __future__ import annotations

import difflib
import importlib.util
from pathlib import Path

import pytest

from envs.rules import PRESETS

from envs.engine import Engine, replay
from envs.render import transcript

GOLDEN_DIR = Path(__file__).resolve().parent / "golden"


def _load_regenerate():
    spec = importlib.util.spec_from_file_location("golden_regenerate",
                                                  GOLDEN_DIR / "regenerate.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


regen = _load_regenerate()
EPISODES = regen.EPISODES


def _episode_id(episode):
    preset, seats, seed, max_hands = episode
    return f"{preset}-{seats}seats-seed{seed}-{max_hands}hands"


# ------------------------------------------------------------- the files
def test_golden_files_are_exactly_the_listed_episodes():
    stored = sorted(p.name for p in GOLDEN_DIR.glob("*.txt"))
    listed = sorted(regen.file_name(p, s, k) for p, s, k, _ in EPISODES)
    assert stored == listed
    assert {p for p, _, _, _ in EPISODES} == set(PRESETS)
    assert len(listed) == 38


@pytest.mark.parametrize("episode", EPISODES, ids=_episode_id)
def test_golden_playthrough_matches(episode):
    preset, seats, seed, max_hands = episode
    path = GOLDEN_DIR / regen.file_name(preset, seats, seed)
    expected = path.read_text(encoding="utf-8")
    actual = regen.golden_text(preset, seats, seed, max_hands)
    if actual != expected:
        diff = "".join(difflib.unified_diff(
            expected.splitlines(keepends=True), actual.splitlines(keepends=True),
            fromfile=f"stored {path.name}", tofile="played now", n=4))
        pytest.fail(
            f"the engine no longer plays {path.name} as stored.\n"
            f"If the change is intended, run `python tests/golden/regenerate.py` and "
            f"review the files.\n{diff}", pytrace=False)


@pytest.mark.parametrize("episode", EPISODES, ids=_episode_id)
def test_golden_episode_ends_with_consistent_chips(episode):
    preset, seats, seed, max_hands = episode
    engine = regen.play_episode(preset, seats, seed, max_hands)
    assert engine.over
    assert engine.hands_played == max_hands
    # chips only move between seats and the jackpot
    assert sum(engine.chips) + engine.jackpot == seats * engine.rules.starting_chips
    text = (GOLDEN_DIR / regen.file_name(preset, seats, seed)).read_text(encoding="utf-8")
    assert text.splitlines()[-1] == (f"final chips: {engine.chips} jackpot: "
                                     f"{engine.jackpot} hands: {max_hands}")


def _settlement(lines):
    """The settlement lines of a hand, in order: wins, losses, jackpot."""
    return [line for line in lines
            if " wins " in line or " loses " in line or "takes the jackpot" in line]


def _hand_lines(name, number):
    lines = (GOLDEN_DIR / name).read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"== hand {number}:"))
    end = next((i for i, line in enumerate(lines)
                if line.startswith(f"== hand {number + 1}:")), len(lines))
    return lines[start:end]


def test_hand_checked_by_hand_catalan():
    """catalan, 4 seats, seed 5, hand 1-2 (checked against RULES.md §4.8, §4.9, §5)."""
    text = (GOLDEN_DIR / "catalan_4seats_seed5.txt").read_text(encoding="utf-8")
    lines = text.splitlines()
    # high card: Sb beats 6c, 1c, 1o (figures rank above 7)
    assert "first bank: seat 0 (high_card)" in lines
    hand1 = lines[lines.index("== hand 1: bank seat 0 (hand 1 in a row)"):
                  lines.index("== hand 2: bank seat 2 (hand 1 in a row)")]
    # seat 1: 3+1+½+3 = 7½ in four cards pays 1:1; seat 2: R+7 natural pays 2 against
    # the busted bank and takes the jackpot (3 antes); seat 3 (6) paid 1:1 on 20
    assert "  seat 0 busts with 9" in hand1
    assert _settlement(hand1) == [
        "  seat 1 wins 10", "  seat 2 wins 20", "  seat 3 wins 20",
        "  seat 2 takes the jackpot of 3"]
    assert "  chips [950, 1009, 1022, 1019] jackpot 0" in hand1
    # offer: the first 7½ in turn order (seat 1) refuses, the offer passes to seat 2
    assert hand1[-3:] == ["seat 1: refuse_bank", "seat 2: take_bank",
                          "bank passes to seat 2 (seven_and_half)"]
    # hand 2: seat 1 makes 7½ again and must take the bank
    assert "  seat 1 must take the bank (refused before)" in lines
    assert "bank passes to seat 1 (seven_and_half)" in lines


def test_hand_checked_by_hand_spanish():
    """spanish, 4 seats, seed 2, hand 1 (RULES.md §2 bet_raise, §4.3, §4.8, §5 right)."""
    hand = _hand_lines("spanish_4seats_seed2.txt", 1)
    assert hand[0] == "== hand 1: bank seat 1 (hand 1 in a row)"
    # player_choice: reveal the face-down card, the new one comes face down
    assert hand[hand.index("seat 2: reveal_hit") + 1:][:2] == [
        "  seat 2 shows 2o", "  seat 2 gets 1b face down"]
    # seat 0 bets on its turn after seeing its 7, raises by 10
    assert "  seat 0 raises 10 to 30" in hand
    # bank stands on 6: 2+1+2+½+2 = 7½ (four cards) pays 2 (any 7½), 6½ and 7 pay 1:1
    assert "seat 1: stand" in hand
    assert _settlement(hand) == ["  seat 2 wins 20", "  seat 3 wins 20", "  seat 0 wins 30"]
    assert "  chips [1030, 930, 1020, 1020] jackpot 0" in hand
    # right: the first player to 7½ claims the bank
    assert hand[-3:] == ["seat 2: claim_bank", "bank passes to seat 2 (seven_and_half)",
                         "shuffle 40 cards"]


def test_hand_checked_by_hand_pagat():
    """pagat, 4 seats, seed 2, hand 1 (RULES.md §4.3, §4.5, §4.8, §5 mandatory)."""
    hand = _hand_lines("pagat_4seats_seed2.txt", 1)
    assert hand[0] == "== hand 1: bank seat 1 (hand 1 in a row)"
    # first_only: first card face down, the rest face up; 7½ is shown at once
    assert "  seat 2 gets 1b face up" in hand
    # 2+1+2+½+2: shown during seat 2's own turn, before seat 3 plays
    assert hand.index("  seat 2 gets 2e face up") < hand.index("  seat 2 shows 2o") \
        < hand.index("seat 3: hit")
    # every win pays 1:1, the 7½ too
    assert _settlement(hand) == ["  seat 2 wins 10", "  seat 3 wins 20", "  seat 0 wins 20"]
    assert "  chips [1020, 950, 1010, 1020] jackpot 0" in hand
    # mandatory: the 7½ takes the bank, no decision asked
    assert hand[-2:] == ["bank passes to seat 2 (seven_and_half)", "shuffle 40 cards"]
    assert not any("take_bank" in line or "claim_bank" in line for line in hand)


# ---------------------------------------------------------------- replay
def test_hand_checked_by_hand_catalan_house():
    """catalan_house, 5 seats, seed 15, hand 1 (RULES.md §6: change_four, secret_three, mort;
    §4.8 payouts against a bust bank; §5 offer)."""
    hand = _hand_lines("catalan_house_5seats_seed15.txt", 1)
    # a forced change of the 4, then the 3 swapped for two secret cards nobody sees
    assert hand[hand.index("  seat 4 gets 4o face down"):][:6] == [
        "  seat 4 gets 4o face down", "  seat 4 discards 4o (change_four)",
        "  seat 4 gets 3b face down", "  seat 4 discards 3b (secret_three)",
        "  seat 4 gets 1o face down, unseen", "  seat 4 gets Sc face down, unseen"]
    # the Mort: the 7 shown, one unseen card; 7 + 6 is not 7½, lost though the bank busts
    assert hand[hand.index("seat 0: mort"):][:5] == [
        "seat 0: mort", "  seat 0 shows 7c", "  seat 0: mort",
        "  seat 0 gets 6o face down, unseen", "  seat 0: stood"]
    assert "  seat 1 busts with 8" in hand
    # 4-card 7½ pays 1:1, 7 and the secret 1½ win 1:1 against the bust bank
    assert _settlement(hand) == ["  seat 0 loses 20", "  seat 2 wins 10", "  seat 3 wins 20",
                                 "  seat 4 wins 10"]
    assert "  chips [979, 980, 1009, 1019, 1009] jackpot 4" in hand
    assert hand[-2:] == ["seat 2: take_bank", "bank passes to seat 2 (seven_and_half)"]


def test_hand_checked_by_hand_spanish_full():
    """spanish_full, 5 seats, seed 4: the auction (RULES.md §5) and hand 3 (§6 abrirse,
    fusilar with the bank made to chase, side bets, raise); abrirse shows the opened
    card (§8.5)."""
    lines = (GOLDEN_DIR / "spanish_full_5seats_seed4.txt").read_text(encoding="utf-8")
    assert "first bank: seat 3 (bought for 20 to each seat)" in lines.splitlines()
    hand = _hand_lines("spanish_full_5seats_seed4.txt", 3)
    assert hand[hand.index("seat 0: split"):][:6] == [
        "seat 0: split", "  seat 0 shows 2e", "  seat 0 splits 2e into hand 2",
        "  seat 0 hand 2: waiting", "  seat 0: playing", "seat 0: bet_1"]
    assert hand[hand.index("seat 1: fusilar"):][:6] == [
        "seat 1: fusilar", "  seat 1 shows 7b", "  seat 1: fusilar",
        "  seat 1 gets 4o face down, unseen", "seat 1: bet_2", "  seat 1 bets 20"]
    # the bank (Co) must chase the fusilar's 7½: it hits at ½ and at 6½ and busts
    assert hand[hand.index("  seat 4 shows Co"):][:8] == [
        "  seat 4 shows Co", "  seat 4: playing", "seat 4: hit", "  seat 4 gets 6c face up",
        "seat 4: hit", "  seat 4 gets 7o face up", "  seat 4: bust", "  seat 4 busts with 13½"]
    # 7 + 4 under the fusilar is no 7½: lost, and the side bet on it too, bust bank or not
    assert _settlement(hand) == [
        "  seat 1 loses 20", "  seat 0 loses 10 on seat 1's hand", "  seat 0 wins 10",
        "  seat 0 wins 10 on hand 2", "  seat 2 wins 10", "  seat 3 wins 20",
        "  seat 2 wins 10 on seat 3's hand"]
    assert "  chips [990, 960, 990, 1110, 950] jackpot 0" in hand


def test_hand_checked_by_hand_italian():
    """italian, 5 seats, seed 10 (RULES.md §1 matta, §4.8 triplè, §5 natural_only)."""
    # the matta (Ro) counts at its best value: 3 + Ro = 7 (Ro as 4), and the bank's
    # 7½ of three cards beats it
    hand2 = _hand_lines("italian_5seats_seed10.txt", 2)
    assert hand2[hand2.index("  seat 2 gets Ro face up") + 1:][:2] == [
        "seat 2: stand", "  seat 2: stood"]
    assert _settlement(hand2) == ["  seat 2 loses 20", "  seat 4 loses 10"]
    # hands 1-5: no player natural, so the bank stays (natural_only, no max_bank_hands)
    assert _hand_lines("italian_5seats_seed10.txt", 6)[0] == (
        "== hand 6: bank seat 1 (hand 6 in a row)")
    # hand 6: Ro + 7 as two cards is the triplè: shown, paid 3 x 10, takes the bank
    hand6 = _hand_lines("italian_5seats_seed10.txt", 6)
    assert hand6[hand6.index("  seat 0 gets 7o face up"):][:4] == [
        "  seat 0 gets 7o face up", "  seat 0: triple", "  seat 0: declared",
        "  seat 0 shows Ro"]
    assert _settlement(hand6) == ["  seat 2 wins 10", "  seat 4 wins 20", "  seat 0 wins 30"]
    assert "  chips [1000, 1100, 960, 960, 980] jackpot 0" in hand6
    assert "bank passes to seat 0 (triple)" in hand6
    assert not any("take_bank" in line or "claim_bank" in line for line in hand6)


def test_hand_checked_by_hand_natural_against_a_multicard_bank_seven_and_half():
    """Seed 158, 2 seats, hand 1: seat 0's natural (S + 7) against the bank's 1 + R + 6 =
    7½ in three cards (RULES.md §4.7): pagat_italian pays it 2 ("double"), italian pays it
    1:1 ("single"); either way the natural won the hand, so it takes the bank (§8.1; §5
    mandatory and natural_only)."""
    for name, won, tail in (
            ("pagat_italian_2seats_seed158.txt", "  seat 0 wins 40",
             "bank passes to seat 0 (seven_and_half)"),
            ("italian_2seats_seed158.txt", "  seat 0 wins 20",
             "bank passes to seat 0 (natural)")):
        hand = _hand_lines(name, 1)
        assert "  seat 0: declared" in hand
        assert hand[hand.index("  seat 1 shows 1c"):][:7] == [
            "  seat 1 shows 1c", "  seat 1: playing", "seat 1: hit", "  seat 1 gets Rb face up",
            "seat 1: hit", "  seat 1 gets 6c face up", "  seat 1: stood"]
        assert _settlement(hand) == [won]
        assert tail in hand[-2:]
    assert _hand_lines("pagat_italian_2seats_seed158.txt", 2)[0] == (
        "== hand 2: bank seat 0 (hand 1 in a row)")
    assert _hand_lines("italian_2seats_seed158.txt", 2)[0] == (
        "== hand 2: bank seat 0 (hand 1 in a row)")


def test_hand_checked_by_hand_pagat_italian_and_pagat_spanish():
    """pagat_italian 4 seats seed 9 hand 3 (pair of sevens, §4.8); pagat_spanish 4 seats
    seed 1 hand 1 (split of two figures, second stake at least the first, §6)."""
    hand = _hand_lines("pagat_italian_4seats_seed9.txt", 3)
    assert hand[hand.index("  seat 0 gets 7e face up"):][:3] == [
        "  seat 0 gets 7e face up", "  seat 0 shows 7b", "  seat 0: pair of sevens"]
    assert _settlement(hand) == ["  seat 0 wins 30"]  # 3 x 10
    assert hand[-3:] == ["bank passes to seat 0 (pair_of_sevens)", "episode over after 3 hands",
                         "final chips: [1040, 960, 960, 1040] jackpot: 0 hands: 3"]
    hand = _hand_lines("pagat_spanish_4seats_seed1.txt", 1)
    assert hand[hand.index("seat 2: split"):][:6] == [
        "seat 2: split", "  seat 2 splits Co into hand 2", "  seat 2 hand 2: waiting",
        "  seat 2: playing", "seat 2: bet_1", "  seat 2 bets 10 on hand 2"]
    assert "  seat 2 busts with 8½" in hand  # hand 2, lost at once
    assert _settlement(hand) == ["  seat 2 wins 10", "  seat 3 wins 20"]  # all wins 1:1
    assert "  chips [980, 1000, 1000, 1020] jackpot 0" in hand


@pytest.mark.parametrize("episode", EPISODES, ids=_episode_id)
def test_replay_reproduces_the_events(episode):
    preset, seats, seed, max_hands = episode
    engine = regen.play_episode(preset, seats, seed, max_hands)
    again = replay(preset, seats, max_hands, engine.events)
    assert again.events == engine.events
    assert again.chips == engine.chips
    assert again.jackpot == engine.jackpot
    assert again.over


def test_replay_of_scripted_deck_options():
    engine = Engine("catalan", 3, max_hands=2)
    engine.reset(seed=9, deck=["7o", "So", "4b", "Rc"], bank=2, chips=[300, 200, 100])
    while not engine.over:
        engine.step(regen.golden_action(engine))
    assert engine.events[0] == ("reset", 9, ["7o", "So", "4b", "Rc"], 2, [300, 200, 100])
    again = replay("catalan", 3, 2, engine.events)
    assert again.events == engine.events
    assert transcript(again.events) == transcript(engine.events)


def test_replay_rejects_a_log_from_other_rules():
    engine = regen.play_episode("catalan", 4, 1, 3)
    with pytest.raises(ValueError, match="log says seat 3 acts, but seat 2 is to act"):
        replay("pagat", 4, 3, engine.events)


def test_replay_rejects_a_log_with_other_actions():
    engine = regen.play_episode("pagat", 2, 1, 3)
    events = list(engine.events)
    # change the first hit into a stand: the rest of the log no longer follows
    i = events.index(next(ev for ev in events if ev[0] == "action" and ev[2] == "hit"))
    events[i] = ("action", events[i][1], "stand")
    with pytest.raises(ValueError, match="log|not legal"):
        replay("pagat", 2, 3, events)


def test_replay_rejects_a_log_without_reset():
    engine = regen.play_episode("pagat", 2, 1, 3)
    with pytest.raises(ValueError, match="'shuffle'"):
        replay("pagat", 2, 3, engine.events[1:])


# ------------------------------------------------------------ determinism
@pytest.mark.parametrize("preset", ["catalan", "spanish", "pagat"])
def test_same_seed_same_events_different_seed_different_events(preset):
    a = regen.play_episode(preset, 4, 7, 4)
    b = regen.play_episode(preset, 4, 7, 4)
    c = regen.play_episode(preset, 4, 8, 4)
    assert a.events == b.events
    assert a.chips == b.chips
    assert a.events != c.events
    # the first shuffle already differs: the deal is not the same
    deal = [ev for ev in a.events if ev[0] == "card"][:5]
    other = [ev for ev in c.events if ev[0] == "card"][:5]
    assert deal != other


def test_reset_seed_is_recorded_and_unseeded_resets_differ():
    engine = Engine("pagat", 3, max_hands=2)
    engine.reset(seed=123)
    assert engine.events[0] == ("reset", 123, None, None, None)
    engine.reset()
    first = engine.events[0][1]
    engine.reset()
    second = engine.events[0][1]
    assert isinstance(first, int) and isinstance(second, int)
    assert first != second


def test_engine_reset_restarts_the_same_episode():
    engine = Engine("spanish", 4, max_hands=3)
    engine.reset(seed=42)
    while not engine.over:
        engine.step(regen.golden_action(engine))
    first = list(engine.events)
    engine.reset(seed=42)
    while not engine.over:
        engine.step(regen.golden_action(engine))
    assert engine.events == first


# ------------------------------------------------------ bank refusals
def test_refusal_is_forgotten_once_the_seat_has_held_the_bank():
    # catalan, 2 seats, seed 2: seat 1 refuses the bank in hand 6, holds the bank
    # in hands 7-9 and 13-15 (max_bank_hands), makes 7½ again in hand 16.
    engine = regen.play_episode("catalan", 2, 2, 20)
    refused_then_held = {}  # seat -> held the bank since its last refusal?
    checked = 0
    for event in engine.events:
        if event[0] == "action" and event[2] == "refuse_bank":
            refused_then_held[event[1]] = False
        elif event[0] == "hand" and event[2] in refused_then_held:
            refused_then_held[event[2]] = True
        elif event[0] == "hand" and event[1] == 16:
            checked += 1
            assert refused_then_held == {1: True}
        elif event[0] == "forced_take":
            # a forced take only follows a refusal the seat still carries
            assert refused_then_held.get(event[1]) is False, event
    assert checked == 1
    # in hand 16 seat 1 is offered the bank again (and refuses, as an odd seat)
    events = engine.events
    hand16 = events.index(next(ev for ev in events if ev[0] == "hand" and ev[1] == 16))
    hand17 = events.index(next(ev for ev in events if ev[0] == "hand" and ev[1] == 17))
    assert ("action", 1, "refuse_bank") in events[hand16:hand17]
