"""The terminal table (``sette play --human``) driven through a pseudo-terminal with pexpect.

A scripted deck (``--deck``, ``--bank``: for tests and lessons) deals seat 0
(the person) 7o, seat 1 (an agent) 5c and the bank Rc, all face down
(RULES.md §4.1): until the showdown the person's screen shows 7o in brackets
and never 5c or Rc. Keystrokes are typed as a person would, Backspace and
Ctrl-C included; the prompt counts the seconds down in place while it waits.
"""

from __future__ import annotations

import io
import math
import os
import re
import sys
from pathlib import Path

import pytest
from rich.console import Console

from play.history import read_history, replay
from play.session import HUMAN, TableSession
from play.terminal import TerminalTable
from play.timed_input import open_reader
from tests.foreground import foreground_sigint

pexpect = pytest.importorskip("pexpect")

ROOT = Path(__file__).resolve().parents[1]
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
PROMPT = "your move> \x1b[K"
"""The prompt without a timer, nothing typed yet (the rest of its line cleared)."""


def _live_prompt(typed: str = "") -> str:
    """The prompt counting down (the seconds as group 1) with ``typed`` after it."""
    return r"your move \((\d+) s left\)> " + re.escape(typed) + r"\x1b\[K"


TABLE = ["--opponents", "threshold:5.5,threshold:5.5", "--rules", "catalan", "--bank", "2",
         "--deck", "7o 5c Rc 4b Cc 3o", "--seed", "1"]


def _spawn(*args: str) -> "pexpect.spawn":
    env = {**os.environ, "NO_COLOR": "1", "TERM": "xterm"}
    return pexpect.spawn(sys.executable, ["-m", "train.cli", "play", "--human", *args],
                         cwd=str(ROOT), env=env, encoding="utf-8", dimensions=(60, 120),
                         timeout=30, preexec_fn=foreground_sigint)


def _screen(text: str) -> str:
    return ANSI.sub("", text.replace("\r", ""))


def test_a_whole_session_shows_the_seat_what_it_may_see_and_replays(tmp_path):
    history = tmp_path / "hands.jsonl"
    child = _spawn(*TABLE, "--hands", "1", "--no-timer", "--history", str(history))
    child.expect_exact(PROMPT)
    bet_screen = _screen(child.before)
    assert "Actions: 10 bet 10 · 20 bet 20 · 50 bet 50 · 100 bet 100" in bet_screen
    child.sendline("10")
    child.expect_exact(PROMPT)
    play_screen = _screen(child.before)
    assert re.search(r">\s+0\s+you\s+989\s+10\s+\[7o\]\s+7\s+playing", play_screen)
    assert re.search(r"1\s+threshold:5.5\s+989\s+10\s+##\s+\?\s+waiting", play_screen)
    assert re.search(r"2\s+threshold:5.5 \(bank\)\s+1000\s+##\s+\?", play_screen)
    assert "Actions: s stand · h hit" in play_screen
    child.sendline("s")
    child.expect(pexpect.EOF)
    end_screen = _screen(child.before)
    child.close()
    assert child.exitstatus == 0
    before_showdown = bet_screen + play_screen + end_screen.split("Hand over:")[0]
    for hidden in ("5c", "Rc"):  # seat 1's and the bank's face-down cards
        assert hidden not in before_showdown
    assert "seat 1: -11 — ante 1 into the jackpot; bust with 9" in end_screen  # 5c 4b, shown
    final = re.search(r"Final chips: seat 0 (\d+), seat 1 (\d+), seat 2 (\d+)", end_screen)
    assert final is not None
    assert replay(history) == [int(c) for c in final.groups()]


def test_timers_fire_bad_input_is_refused_and_ctrl_c_saves_the_history(tmp_path):
    history = tmp_path / "hands.jsonl"
    child = _spawn(*TABLE, "--hands", "3", "--bet-timeout", "2", "--history", str(history))
    child.expect(r"your move \(0 s left\)> ")  # the count reached 0
    child.expect("Time is up: the timer played bet 10 for you.")
    child.expect(_live_prompt())
    child.sendline("zz")
    child.expect("Refused: 'zz' is not an action; choose one of: s \\(stand\\), h \\(hit\\)")
    child.expect("your move")
    child.sendline("s")
    child.expect("Hand over:")
    child.expect("your move")
    child.sendline("5000")
    child.expect("Refused: a stake of 5000 is above your \\d+ chips")
    child.expect("your move")
    child.sendintr()
    child.expect("You left the table. Hand history saved to")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    records = read_history(history)
    assert records[0]["finished"] and records[0]["actions"][0] == [0, "bet_1", "timeout"]
    assert replay(history) == records[-1]["chips"]


def test_the_prompt_counts_down_and_what_was_typed_survives_each_redraw():
    child = _spawn(*TABLE, "--hands", "1", "--bet-timeout", "6")
    child.expect(_live_prompt())
    first = int(child.match.group(1))
    child.send("2")
    redrawn = first
    while redrawn >= first:  # the echo of "2", then the redraw a second later
        child.expect(_live_prompt("2"))
        redrawn = int(child.match.group(1))
    assert 0 < redrawn < first
    child.send("5\x7f")  # a 5, rubbed out by Backspace
    child.expect(_live_prompt("2"))
    child.send("0\r")
    child.expect(_live_prompt())
    play_screen = _screen(child.before)
    assert "  you: bet 20" in play_screen
    assert re.search(r">\s+0\s+you\s+979\s+20\s+\[7o\]\s+7\s+playing", play_screen)
    child.send("s\r")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_input_that_is_not_a_terminal_gets_one_prompt_saying_until_when():
    session = TableSession([HUMAN, "threshold:5.5", "threshold:5.5"], "catalan", seed=1,
                           hands=1, deck="7o 5c Rc 4b Cc 3o".split(), bank=2)
    keys, typist = os.pipe()  # piped input, as in `sette play --human < keys.txt`
    os.write(typist, b"10\ns\n")
    os.close(typist)
    out = io.StringIO()
    table = TerminalTable(session, 0, console=Console(file=out, width=120),
                          reader=open_reader(keys, out))
    assert table.run() == 0
    os.close(keys)
    screen = out.getvalue()
    assert re.search(r"your move \(18 s left, until \d\d:\d\d:\d\d\)>   you: bet 10", screen)
    assert "\x1b[K" not in screen  # written once, never redrawn
    assert "Final chips: seat 0 1009, seat 1 989, seat 2 1000." in screen


def test_sette_watch_shows_each_action_with_its_probabilities(capsys):
    from train.cli import main

    assert main(["watch", "--agents", "random,threshold:5.5,threshold:5.5", "--rules", "pagat",
                 "--hands", "1", "--speed", "0", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "seat 0 (random): stand       [stand 0.50 · hit 0.50]" in out  # its uniform draw
    assert re.search(r"seat [12] \(threshold:5.5\): (\w+) +\[\1 1\.00", out)  # its choice
    assert "Hand 1 over:" in out and "Table over after 1 hand." in out


@pytest.mark.parametrize("agents", [["careful,random"], ["careful", "random"],
                                    ["careful,", "random"]])
def test_sette_play_takes_its_agents_as_sette_watch_does(agents, capsys):
    """``sette play --agents`` names the seats as ``sette watch --agents`` does (the same
    :func:`play.play_cli.spec_list`): comma-separated, one word a seat, or both."""
    from train.cli import main

    assert main(["play", "--agents", *agents, "--seats", "2", "--hands", "1"]) == 0
    assert capsys.readouterr().out.endswith("seats: careful, random)\n")
    assert main(["play", "--agents", "careful,careful,careful", "--seats", "2"]) == 2
    assert capsys.readouterr().err == ("sette play: error: --agents takes one spec for every "
                                       "seat or 2 specs, got 3\n")


@pytest.mark.parametrize("argv, words", [
    (["watch", "--agents", "careful,threshold:5.5,careful", "--seats", "2"],
     "--seats 2, but --agents names 3 agents, one a seat; name 2, or one to copy to every "
     "seat"),
    (["play", "--human", "--opponents", "careful,careful", "--seats", "4"],
     "--seats 4, but --opponents names 2 agents: with you the table has 3 seats; name 3 "
     "opponents, or leave out --seats"),
])
def test_a_seat_count_that_contradicts_the_agents_named_is_refused(argv, words, capsys):
    """``--seats`` sizes the table only where the agents do not (one spec for ``sette watch``,
    none for ``sette play --human``); where they do, a different count is refused in one
    line before anything is dealt, not silently ignored."""
    from train.cli import main

    assert main([*argv, "--hands", "1", "--speed" if argv[0] == "watch" else "--no-timer",
                 *(["0"] if argv[0] == "watch" else [])]) == 2
    out, err = capsys.readouterr()
    assert words in err and out == ""


@pytest.mark.parametrize("seats, expected", [(["--seats", "3"], 3), ([], 4)])
def test_sette_watch_copies_one_spec_to_every_seat(seats, expected, capsys):
    from train.cli import main

    assert main(["watch", "--agents", "careful", *seats, "--hands", "1", "--speed", "0"]) == 0
    final = capsys.readouterr().out.split("Final chips:")[-1]
    assert re.findall(r"seat\s+(\d+)\s", final) == [str(s) for s in range(expected)]


def _piped(session: TableSession, keys: bytes = b"") -> tuple[int, str]:
    """Run the terminal table on ``keys`` piped in (then the end of input); its exit status
    and the screen."""
    read_end, typist = os.pipe()
    os.write(typist, keys)
    os.close(typist)
    out = io.StringIO()
    status = TerminalTable(session, 0, console=Console(file=out, width=120),
                           reader=open_reader(read_end, out)).run()
    os.close(read_end)
    return status, out.getvalue()


def test_hands_the_agents_play_before_the_first_decision_are_shown_and_kept(tmp_path):
    """Seed 3, two seats: you hold the bank and seat 1 busts, so hand 1 is over before you
    decide anything (the agents play as soon as the table opens). Its actions and
    settlement come first, then hand 2's bets and the table at your first decision."""
    history = tmp_path / "hands.jsonl"
    session = TableSession([HUMAN, "threshold:5.5"], "catalan", seed=3, hands=3,
                           bet_timeout=None, act_timeout=None, history=history)
    status, screen = _piped(session)
    assert status == 130  # the input ended at the first prompt: you left the table
    hand_one = ["  seat 1 (threshold:5.5): bet 10",
                "  seat 1 (threshold:5.5): hit",
                "  seat 1 (threshold:5.5): hit",
                "Hand over:",
                "  seat 0: +10 — held the bank (½)   [Cc]",
                "  seat 1: -11 — ante 1 into the jackpot; bust with 11½ (stake 10 to the bank)"
                "   [4b Sb 7o]",
                ]
    hand_two = ["  seat 1 (threshold:5.5): bet 10", "  seat 1 (threshold:5.5): hit",
                "  seat 1 (threshold:5.5): hit", "  seat 1 (threshold:5.5): stand"]
    lines = screen.splitlines()
    assert lines[:len(hand_one) + len(hand_two)] == hand_one + hand_two
    assert lines[len(hand_one) + len(hand_two)].startswith("hand 2/3 · bank · bank: seat 0")
    first, second = read_history(history)
    assert first["finished"] and first["actions"] == [[1, "bet_1", "agent"], [1, "hit", "agent"],
                                                      [1, "hit", "agent"]]
    assert not second["finished"]


def test_a_table_over_before_the_first_decision_shows_its_hand_and_the_count_in_words():
    session = TableSession([HUMAN, "threshold:5.5"], "catalan", seed=3, hands=1,
                           bet_timeout=None, act_timeout=None)
    status, screen = _piped(session)
    assert status == 0
    assert "Hand over:\n  seat 0: +10 — held the bank (½)   [Cc]" in screen
    assert "table over after 1 hand · jackpot 1" in screen
    assert "Table over. Final chips: seat 0 1010, seat 1 989." in screen


def test_two_long_model_names_stay_told_apart_at_80_columns():
    """At an 80-column terminal the "who" column cuts a long model path by its start, so two
    runs whose names differ at their end are still two names, and the bank stays marked."""
    from play.terminal import table_renderable

    session = TableSession([HUMAN, "careful", "careful"], "catalan", bank=2, hands=1,
                           bet_timeout=None, act_timeout=None)
    run = "runs/20261207-001212-all-catalan-2seats-seed"
    session.names[1:] = [f"{run}0/player", f"{run}1/player"]
    out = io.StringIO()
    Console(file=out, width=80).print(table_renderable(session.view(0)))
    rows = out.getvalue().splitlines()
    assert "…lan-2seats-seed0/player " in rows[3] and "…ats-seed1/player (bank) " in rows[4]


TIMER = "a timer is more than 0 and at most 600 seconds (--no-timer turns the timers off)"
SPEED = "the speed is 0 (no pause) or 0.01 to 1000 actions per second"


@pytest.mark.parametrize("argv, words", [
    (["play", "--human", "--bet-timeout", "1e12"], f"argument --bet-timeout: '1e12': {TIMER}"),
    (["play", "--human", "--bet-timeout", "1e300"], f"argument --bet-timeout: '1e300': {TIMER}"),
    (["play", "--human", "--bet-timeout", "nan"], f"argument --bet-timeout: 'nan': {TIMER}"),
    (["play", "--human", "--act-timeout", "inf"], f"argument --act-timeout: 'inf': {TIMER}"),
    (["watch", "--agents", "careful", "--speed", "1e-300"],
     f"argument --speed: '1e-300': {SPEED}"),
    (["watch", "--agents", "careful", "--speed", "nan"], f"argument --speed: 'nan': {SPEED}"),
    (["watch", "--agents", "careful", "--speed", "inf"], f"argument --speed: 'inf': {SPEED}"),
])
def test_a_timer_or_speed_that_is_not_finite_or_beyond_its_bound_is_refused(argv, words,
                                                                           capsys):
    """A timer is more than 0 and at most 600 seconds, a speed 0 or 0.01..1000 actions a
    second: anything else (nan and inf too) is refused by its option before the table is
    drawn, not a traceback once a prompt or a pause needs it."""
    from train.cli import main

    with pytest.raises(SystemExit) as stop:
        main([*argv, "--hands", "1"])
    out, err = capsys.readouterr()
    assert stop.value.code == 2 and out == ""
    assert err.splitlines()[-1] == f"sette {argv[0]}: error: {words}"


@pytest.mark.parametrize("command", [["watch", "--agents", "careful", "--speed", "0"],
                                     ["play", "--human", "--no-timer"]])
@pytest.mark.parametrize("seats", ["-2", "1", "17"])
def test_a_seat_count_that_is_no_table_size_is_refused_by_the_option(command, seats, capsys):
    from train.cli import main

    assert main([*command, "--seats", seats, "--hands", "1"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == f"sette {command[0]}: error: --seats {seats} is not a table size: a table " \
                  f"seats 2..16\n"


def test_sette_watch_names_the_human_seats_it_refuses_in_words():
    from play.watch import watch

    with pytest.raises(ValueError, match=r"agents only; seat 0 is human$"):
        watch(TableSession([HUMAN, "careful"], "catalan", hands=1))
    with pytest.raises(ValueError, match=r"agents only; seats 0 and 2 are human$"):
        watch(TableSession([HUMAN, "careful", HUMAN], "catalan", hands=1))


@pytest.mark.parametrize("speed", [math.inf, math.nan])
def test_sette_watch_refuses_a_speed_that_is_no_finite_number(speed):
    from play.watch import watch

    out = io.StringIO()
    with pytest.raises(ValueError, match=r"must be 0 \(no pause\) or a finite number"):
        watch(TableSession(["careful", "careful"], "catalan", hands=1, auto_agents=False),
              speed=speed, console=Console(file=out))
    assert out.getvalue() == ""  # refused before anything is drawn
