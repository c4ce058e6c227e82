"""The event log's schema (envs/events.py) against what the engine logs.

Seeded episodes of every preset at 2, 4 and 5 seats, played by the golden
seats (tests/golden/regenerate.py, which use every house action) and by
random legal play, plus a scripted reset with a deck, a bank and stacks,
log every kind of event. Each logged event must be its class to the field:
the right length, every field of its annotated type. Every kind has a
transcript line (envs/render.py) and a rule in the observer (envs/observer.py:
what it reads, or that it reads nothing).
"""

from __future__ import annotations

import importlib.util
import re
import types
from pathlib import Path
from typing import Literal, Union, get_args, get_origin, get_type_hints

import numpy as np
import pytest

import envs.events
from envs.cards import NUM_RANKS, NUM_SUITS
from envs.engine import Engine
from envs.events import EVENT_TYPES, typed
from envs.render import EVENT_LINES, event_line
from envs.rules import PRESETS
from tests.scripted import start

_REGENERATE = Path(__file__).resolve().parent / "golden" / "regenerate.py"
SEED = 5  # with 8 hands, every kind comes up across the presets (forced_take: catalan 4 seats)
MAX_HANDS = 8


def _golden_action():
    spec = importlib.util.spec_from_file_location("golden_regenerate", _REGENERATE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.golden_action


def _play(engine: Engine, choose) -> list[tuple]:
    while not engine.over:
        engine.step(choose(engine))
    return engine.events


@pytest.fixture(scope="module")
def logs() -> list[list[tuple]]:
    golden_action = _golden_action()
    out = []
    for preset in PRESETS:
        for seats in (2, 4, 5):
            engine = Engine(preset, seats, max_hands=MAX_HANDS)
            engine.reset(seed=SEED)
            out.append(_play(engine, golden_action))
            rng = np.random.default_rng(seats)
            engine = Engine(preset, seats, max_hands=MAX_HANDS)
            engine.reset(seed=seats)
            out.append(_play(engine, lambda e: int(rng.choice(e.legal_actions()))))
    scripted = start("catalan", 3, ["5o", "4c", "3b"], bank=2, chips=[50, 60, 70])
    out.append(_play(scripted, lambda e: e.legal_actions()[0]))
    return out


def _matches(value: object, hint: object) -> bool:
    """``value`` is of the annotated type ``hint`` (exactly: a bool is not an int)."""
    origin, args = get_origin(hint), get_args(hint)
    if hint in (int, bool, str):
        return type(value) is hint
    if hint is type(None):
        return value is None
    if origin is Literal:
        return value in args
    if origin in (Union, types.UnionType):
        return any(_matches(value, arg) for arg in args)
    if origin is list:
        return type(value) is list and all(_matches(v, args[0]) for v in value)
    if origin is tuple and args[1:] == (Ellipsis,):
        return type(value) is tuple and all(_matches(v, args[0]) for v in value)
    raise AssertionError(f"the test has no check for the annotation {hint!r}")


def test_every_kind_is_logged_and_no_other(logs):
    logged = {event[0] for log in logs for event in log}
    assert logged == set(EVENT_TYPES)


def test_every_logged_event_is_its_class_field_by_field(logs):
    hints = {kind: get_type_hints(cls) for kind, cls in EVENT_TYPES.items()}
    wrong = []
    for log in logs:
        assert log[0][0] == "reset"
        for event in log:
            cls = EVENT_TYPES[event[0]]
            if len(event) != len(cls._fields):
                wrong.append(f"{event!r}: {len(event)} items, {cls.__name__} has {cls._fields}")
                continue
            for name, value in zip(cls._fields, event):
                if not _matches(value, hints[event[0]][name]):
                    wrong.append(f"{event!r}: {name}={value!r} is not "
                                 f"{hints[event[0]][name]}")
            assert typed(event) == event and isinstance(typed(event), cls)
    assert not wrong, "\n".join(wrong[:20])


def test_fields_hold_what_their_names_say(logs):
    """Read by name, every event makes sense at its table: a field swapped in the schema fails."""
    for log in logs:
        seats = len(next(typed(e) for e in log if e[0] == "chips").chips)
        hands = 0
        for event in map(typed, log):
            for name in ("seat", "bank", "target", "buyer"):
                value = getattr(event, name, 0)
                assert value is None or 0 <= value < seats, event
            if hasattr(event, "card"):
                assert 0 <= event.card < NUM_RANKS * NUM_SUITS, event
            if hasattr(event, "hand_index"):
                assert 0 <= event.hand_index <= 3, event
            if event.kind == "hand":
                hands += 1
                assert event.number == hands and event.bank not in event.order, event
                assert 1 <= event.streak <= hands and len(event.order) < seats, event
            elif event.kind == "split":
                assert event.new_hand_index == event.hand_index + 1, event
            elif event.kind in ("win", "side_win"):
                assert 0 <= event.paid <= event.owed, event
            elif event.kind == "raise":
                assert 0 < event.amount < event.bet, event
            elif event.kind == "bust":
                assert event.total > 15 and event.lost >= 0, event
            elif event.kind == "chips":
                assert len(event.chips) == seats and event.jackpot >= 0, event
            elif event.kind == "over":
                assert event.hands == hands, event


def test_a_reset_given_a_deck_a_bank_and_chips_logs_them(logs):
    reset = typed(logs[-1][0])
    assert isinstance(reset, envs.events.ResetEvent)
    assert (reset.seed, reset.deck, reset.bank, reset.chips) == (
        0, ["5o", "4c", "3b"], 2, [50, 60, 70])


def test_each_class_names_its_kind_first_and_its_rule():
    for kind, cls in EVENT_TYPES.items():
        assert cls._fields[0] == "kind"
        assert get_args(get_type_hints(cls)["kind"]) == (kind,)
        assert "§" in (cls.__doc__ or ""), f"{cls.__name__} cites no section of RULES.md"


def test_the_module_docstring_table_is_the_schema():
    rows = re.findall(r"^``(\w+)``\s+(\w+)\s+(.*?)\s*$", envs.events.__doc__, re.MULTILINE)
    assert rows == [(kind, cls.__name__, ", ".join(cls._fields[1:]))
                    for kind, cls in EVENT_TYPES.items()]


@pytest.mark.parametrize("event, message", [
    (("deal", 1, 2), "unknown event kind 'deal'"),
    ((), "unknown event kind None"),
    ((3, 1), "unknown event kind 3"),
    (("bet", 1, 20), "a 'bet' event has 4 items (kind, seat, amount, hand_index), not 3"),
    (("over", 3, 4), "a 'over' event has 2 items (kind, hands), not 3"),
])
def test_typed_names_a_bad_event(event, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        typed(event)
    with pytest.raises(ValueError, match=re.escape(message)):
        event_line(event)


# One line per kind: what a reader of a transcript sees for each event.
LINES = [
    (("reset", 7, None, None, None), "reset seed=7"),
    (("reset", 0, ["5o", "Rc"], 1, [50, 60]), "reset seed=0 deck=5o Rc bank=1 chips=[50, 60]"),
    (("shuffle", 40), "shuffle 40 cards"),
    (("high_card", 2, 9), "  high card: seat 2 draws Ro"),
    (("bid", 1, 10), "  seat 1 bids 10 for the bank"),
    (("first_bank", 3, "high_card"), "first bank: seat 3 (high_card)"),
    (("hand", 4, 1, 2, (2, 0)), "== hand 4: bank seat 1 (hand 2 in a row)"),
    (("ante", 0, 1), "  seat 0 antes 1"),
    (("card", 1, 16, True, 0, False), "  seat 1 gets 7c face up"),
    (("card", 1, 16, False, 1, False), "  seat 1 gets 7c face down (hand 2)"),
    (("card", 1, 16, False, 0, True), "  seat 1 gets 7c face down, unseen"),
    (("reveal", 0, 0, 0, False), "  seat 0 shows 1o"),
    (("reveal", 0, 0, 2, True), "  seat 0 shows 1o (hand 3)"),
    (("discarded", 2, 3, "four"), "  seat 2 discards 4o (four)"),
    (("four_back", 2, 13), "  seat 2 puts 4c back into the pile"),
    (("action", 0, "hit"), "seat 0: hit"),
    (("status", 1, 0, 0), "  seat 1: waiting"),
    (("status", 1, 0, 1), "  seat 1 hand 2: waiting"),
    (("bet", 0, 20, 0), "  seat 0 bets 20"),
    (("bet", 0, 20, 1), "  seat 0 bets 20 on hand 2"),
    (("raise", 0, 10, 30, 0), "  seat 0 raises 10 to 30"),
    (("double", 0, 40, 0), "  seat 0 doubles to 40"),
    (("split", 0, 7, 0, 1, True, False), "  seat 0 splits So into hand 2"),
    (("special", 1, "pair_of_sevens", 0), "  seat 1: pair of sevens"),
    (("decline_mort", 1), "  seat 1 declines the Mort"),
    (("side_bet", 1, 2, 10), "  seat 1 stakes 10 on seat 2's hand"),
    (("bust", 0, 17, 20), "  seat 0 busts with 8½"),
    (("lose", 0, 20, 0), "  seat 0 loses 20"),
    (("lose", 0, 20, 1), "  seat 0 loses 20 on hand 2"),
    (("side_lose", 1, 10, 2), "  seat 1 loses 10 on seat 2's hand"),
    (("win", 0, 40, 40, 0), "  seat 0 wins 40"),
    (("win", 0, 5, 40, 1), "  seat 0 wins 5 on hand 2 (owed 40, bank out of chips)"),
    (("side_win", 1, 20, 20, 2), "  seat 1 wins 20 on seat 2's hand"),
    (("jackpot", 2, 12), "  seat 2 takes the jackpot of 12"),
    (("chips", [90, 110], 0), "  chips [90, 110] jackpot 0"),
    (("forced_take", 2), "  seat 2 must take the bank (refused before)"),
    (("sell", 1, 2), "  bank seat 1 offers the bank to seat 2"),
    (("bank", 2, "seven_and_half"), "bank passes to seat 2 (seven_and_half)"),
    (("over", 8), "episode over after 8 hands"),
]


def test_every_kind_has_a_transcript_line():
    assert set(EVENT_LINES) == set(EVENT_TYPES)
    assert {event[0] for event, _ in LINES} == set(EVENT_TYPES)


@pytest.mark.parametrize("event, line", LINES, ids=lambda x: x[0] if isinstance(x, tuple) else "")
def test_transcript_line_of_each_kind(event, line):
    assert event_line(event) == line


def test_every_kind_has_an_observer_rule():
    """The observer says for every kind whether it reads it (envs/observer.py)."""
    from envs.observer import OBSERVED_KINDS, UNOBSERVED_KINDS
    assert len(set(OBSERVED_KINDS)) == len(OBSERVED_KINDS)
    assert not set(OBSERVED_KINDS) & set(UNOBSERVED_KINDS)
    assert set(OBSERVED_KINDS) | set(UNOBSERVED_KINDS) == set(EVENT_TYPES)
    assert all(why.strip() for why in UNOBSERVED_KINDS.values()), "say why a kind is skipped"
