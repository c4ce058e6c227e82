"""The terminal table's timed input (play.timed_input): the line typed so far survives
the prompt's redraws, Backspace and Ctrl-U rub out, arrow keys are ignored, the
time running out returns None with 0 shown, and the terminal's settings come back.

A pseudo-terminal (``os.openpty``) stands in for the person's terminal.
"""

from __future__ import annotations

import io
import os
import termios
import tty

import pytest

from play.timed_input import (LineEditor, LineReader, LiveLineReader, next_change, open_reader,
                              seconds_shown)


def _prompt(left: float | None) -> str:
    return "move> " if left is None else f"move ({seconds_shown(left)} s)> "


def test_the_seconds_shown_round_up_and_change_on_the_whole_second():
    assert [seconds_shown(t) for t in (18.0, 17.2, 0.3, 0.0)] == [18, 18, 1, 0]
    assert next_change(18.0) == pytest.approx(1.0)
    assert next_change(17.25) == pytest.approx(0.25)
    assert next_change(0.0) == 0.0


def test_the_editor_keeps_the_line_with_backspace_kill_and_arrow_keys_ignored():
    editor = LineEditor()
    typed = "1\x1b[D5\x7f\x1bOA0"  # 1, left arrow, 5, Backspace, up arrow (SS3), 0
    assert not any(editor.feed(key) for key in typed)
    assert editor.text == "10"
    assert editor.feed("\r")
    editor = LineEditor()
    for key in "zz\x15s":  # Ctrl-U rubs out the whole line
        editor.feed(key)
    assert editor.text == "s"
    editor.feed("\x04")  # Ctrl-D on a line with text: ignored
    assert editor.text == "s"
    with pytest.raises(EOFError):
        LineEditor().feed("\x04")


@pytest.fixture()
def terminal():
    """A pseudo-terminal: (the keyboard's end, the table's end)."""
    keyboard, table = os.openpty()
    yield keyboard, table
    os.close(keyboard)
    os.close(table)


def test_typed_keys_are_edited_and_echoed_in_the_redrawn_prompt(terminal):
    keyboard, table = terminal
    tty.setcbreak(table)  # keys arrive one by one, not edited by the line discipline
    os.write(keyboard, "15\x7f0\nzz".encode())
    out = io.StringIO()
    reader = LiveLineReader(table, out)
    assert reader.readline(_prompt, None) == "10"
    # the prompt, then (the keys read at once) one redraw with the line as edited
    assert out.getvalue() == "\rmove> \x1b[K\rmove> 10\x1b[K\n"
    assert reader.readline(_prompt, 0.2) is None  # "zz" was typed ahead, then time ran out
    assert out.getvalue().endswith("\rmove (1 s)> zz\x1b[K\rmove (0 s)> zz\x1b[K")


def test_a_line_wider_than_the_terminal_shows_its_end_on_one_row(terminal):
    keyboard, table = terminal
    termios.tcsetwinsize(table, (24, 12))
    tty.setcbreak(table)
    os.write(keyboard, b"abcdefghij\n")
    out = io.StringIO()
    assert LiveLineReader(table, out).readline(_prompt, None) == "abcdefghij"
    assert out.getvalue().endswith("\rmove> fghij\x1b[K\n")  # 11 columns drawn of 12


def test_time_running_out_returns_none_and_restores_the_terminal(terminal):
    keyboard, table = terminal
    before = termios.tcgetattr(table)
    out = io.StringIO()
    assert LiveLineReader(table, out).readline(_prompt, 0.2) is None
    assert out.getvalue() == "\rmove (1 s)> \x1b[K\rmove (0 s)> \x1b[K"
    assert termios.tcgetattr(table) == before  # canonical mode and echo back


def test_input_that_is_not_a_terminal_is_read_by_lines_with_the_prompt_written_once():
    keys, typist = os.pipe()
    os.write(typist, b"10\ns")
    os.close(typist)
    out = io.StringIO()
    reader = open_reader(keys, out)
    assert type(reader) is LineReader and not reader.live
    assert reader.readline(_prompt, 5.0) == "10"
    assert reader.readline(_prompt, None) == "s"
    with pytest.raises(EOFError):
        reader.readline(_prompt, None)
    os.close(keys)
    assert out.getvalue() == "move (5 s)> move> move> "
