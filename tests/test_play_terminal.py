"""The terminal table (``sette play --human``) driven through a pseudo-terminal with pexpect.

A scripted deck (``--deck``, ``--bank``: for tests and lessons) deals seat 0
(the person) 7o, seat 1 (an agent) 5c and the bank Rc, all face down
(RULES.md §4.1): until the showdown the person's screen shows 7o in brackets
and never 5c or Rc. Keystrokes are typed as a person would, Ctrl-C included.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pytest

from play.history import read_history, replay

pexpect = pytest.importorskip("pexpect")

ROOT = Path(__file__).resolve().parents[1]
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
TABLE = ["--opponents", "threshold:5.5,threshold:5.5", "--rules", "catalan", "--bank", "2",
         "--deck", "7o 5c Rc 4b Cc 3o", "--seed", "1"]


def _spawn(*args: str) -> "pexpect.spawn":
    env = {**os.environ, "NO_COLOR": "1", "TERM": "xterm"}
    return pexpect.spawn(sys.executable, ["-m", "train.cli", "play", "--human", *args],
                         cwd=str(ROOT), env=env, encoding="utf-8", dimensions=(60, 120),
                         timeout=30)


def _screen(text: str) -> str:
    return ANSI.sub("", text.replace("\r", ""))


def test_a_whole_session_shows_the_seat_what_it_may_see_and_replays(tmp_path):
    history = tmp_path / "hands.jsonl"
    child = _spawn(*TABLE, "--hands", "1", "--no-timer", "--history", str(history))
    child.expect("your move> ")
    bet_screen = _screen(child.before)
    assert "Actions: 10 bet 10 · 20 bet 20 · 50 bet 50 · 100 bet 100" in bet_screen
    child.sendline("10")
    child.expect("your move> ")
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
    child.expect("Time is up: the timer played bet 10 for you.")
    child.expect(r"your move \(\d+ s left, until \d\d:\d\d:\d\d\)> ")
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


def test_sette_watch_shows_each_action_with_its_probabilities(capsys):
    from train.cli import main

    assert main(["watch", "--agents", "random,threshold:5.5,threshold:5.5", "--rules", "pagat",
                 "--hands", "1", "--speed", "0", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "seat 0 (random): stand       [stand 0.50 · hit 0.50]" in out  # its uniform draw
    assert re.search(r"seat [12] \(threshold:5.5\): (\w+) +\[\1 1\.00", out)  # its choice
    assert "Hand 1 over:" in out and "Table over after 1 hands." in out
