"""One line of input read against a turn timer, its prompt counting down in place.

The terminal table enforces the Catalan app's turn timers (docs/PLAY.md,
"Timers"): a person has so many seconds to type an action before the table
plays the default for them. Two readers share one call,
``readline(prompt, timeout)``:

* :class:`LineReader`, for input that is not a terminal (a pipe, a file):
  the prompt is written once and the line is read with a timed ``select``.
* :class:`LiveLineReader`, for a terminal: the input is read a key at a
  time (``tty.setcbreak``: no line discipline, no echo, but Ctrl-C still
  interrupts) into a :class:`LineEditor`, and the prompt line is redrawn in
  place — ``your move (17 s left)> 2`` — each time the whole seconds left
  change or a key is typed, so what was typed survives every redraw (a line
  wider than the terminal shows its end).
  Backspace rubs out a character, Ctrl-U the line, Enter sends it, Ctrl-D on
  an empty line ends the input; arrow keys and other escape sequences are
  ignored. The terminal's settings are restored whatever happens.

:func:`open_reader` picks the one that fits the input and the output.
No library does timed input with a live prompt among this project's
dependencies (``rich`` prompts block without a timeout), hence this module.
"""

from __future__ import annotations

import codecs
import math
import os
import select
import termios
import time
import tty
from collections.abc import Callable
from typing import IO

Prompt = Callable[[float | None], str]
"""The prompt text for the seconds left (None: no timer)."""

BACKSPACES = ("\x7f", "\b")
"""What Backspace sends: DEL on most terminals, Ctrl-H on some."""
KILL_LINE = "\x15"
"""Ctrl-U: rub out the whole line."""
END_OF_INPUT = "\x04"
"""Ctrl-D: the end of the input when the line is empty."""
INTERRUPT = "\x03"
"""Ctrl-C, should it arrive as a key rather than as a signal."""
ESCAPE = "\x1b"
CLEAR_TO_END = "\x1b[K"
"""The terminal's erase from the cursor to the end of the line."""


def seconds_shown(left: float) -> int:
    """The whole seconds shown for ``left``: rounded up, so 0 is shown only when time is up."""
    return max(0, math.ceil(left))


def next_change(left: float) -> float:
    """Seconds until :func:`seconds_shown` of the time left changes (or time is up)."""
    return max(0.0, left - (seconds_shown(left) - 1)) if left > 0 else 0.0


class LineEditor:
    """The line being typed, a key at a time."""

    def __init__(self) -> None:
        self.text = ""
        self._escape = ""  # the escape sequence being skipped, "" outside one

    def feed(self, key: str) -> bool:
        """Take one typed character; True when it is Enter and :attr:`text` is the line.

        Raises ``EOFError`` for Ctrl-D on an empty line and ``KeyboardInterrupt``
        for a Ctrl-C that arrives as a character.
        """
        if self._escape:
            self._skip_escape(key)
        elif key == ESCAPE:
            self._escape = ESCAPE
        elif key in ("\r", "\n"):
            return True
        elif key in BACKSPACES:
            self.text = self.text[:-1]
        elif key == KILL_LINE:
            self.text = ""
        elif key == END_OF_INPUT and not self.text:
            raise EOFError
        elif key == INTERRUPT:
            raise KeyboardInterrupt
        elif key.isprintable():
            self.text += key
        return False

    def _skip_escape(self, key: str) -> None:
        """Swallow an escape sequence: ESC [ params final, ESC O final, or ESC and one key."""
        if self._escape == ESCAPE and key in "[O":
            self._escape += key
        elif self._escape.endswith("[") and "\x20" <= key <= "\x3f":
            pass  # a parameter byte of a control sequence
        else:
            self._escape = ""


class LineReader:
    """Lines from a file descriptor that is not a terminal, read with a timeout (``select``).

    The prompt is written once, with the seconds left when it is written.
    Reading the descriptor directly keeps ``select`` truthful: no line waits
    unseen in a Python buffer while ``select`` says nothing is there.
    """

    live = False
    """Whether the prompt counts down in place."""

    def __init__(self, fd: int, out: IO[str]) -> None:
        self.fd = fd
        self.out = out
        self._pending = b""

    def readline(self, prompt: Prompt, timeout: float | None) -> str | None:
        """The next line, stripped; None if ``timeout`` seconds pass first.

        Raises ``EOFError`` at the end of the input.
        """
        self.out.write(prompt(timeout))
        self.out.flush()
        end = None if timeout is None else time.monotonic() + timeout
        while b"\n" not in self._pending:
            wait = None if end is None else max(0.0, end - time.monotonic())
            ready, _, _ = select.select([self.fd], [], [], wait)
            if not ready:
                return None
            chunk = os.read(self.fd, 4096)
            if not chunk:
                if self._pending:
                    line, self._pending = self._pending, b""
                    return line.decode("utf-8", "replace").strip()
                raise EOFError
            self._pending += chunk
        line, _, self._pending = self._pending.partition(b"\n")
        return line.decode("utf-8", "replace").strip()


class LiveLineReader:
    """Lines typed at a terminal, the prompt redrawn in place as the seconds run down.

    Keys typed after Enter wait for the next line.
    """

    live = True
    """Whether the prompt counts down in place."""

    def __init__(self, fd: int, out: IO[str]) -> None:
        self.fd = fd
        self.out = out
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._keys = ""
        self._drawn = ""

    def readline(self, prompt: Prompt, timeout: float | None) -> str | None:
        """The next line, stripped; None if ``timeout`` seconds pass first (the prompt then
        shows 0 s left).

        Raises ``EOFError`` at the end of the input or for Ctrl-D on an empty line.
        """
        end = None if timeout is None else time.monotonic() + timeout
        saved = termios.tcgetattr(self.fd)
        tty.setcbreak(self.fd, termios.TCSANOW)  # before the prompt: no key echoed twice
        try:
            return self._edit(prompt, end)
        finally:
            termios.tcsetattr(self.fd, termios.TCSANOW, saved)

    def _edit(self, prompt: Prompt, end: float | None) -> str | None:
        editor = LineEditor()
        self._drawn = ""
        while True:
            left = None if end is None else max(0.0, end - time.monotonic())
            while self._keys:
                key, self._keys = self._keys[0], self._keys[1:]
                if editor.feed(key):
                    self._draw(prompt(left), editor.text)
                    self._write("\n")
                    return editor.text.strip()
            self._draw(prompt(left), editor.text)
            if left == 0.0:
                return None
            wait = None if left is None else next_change(left)
            ready, _, _ = select.select([self.fd], [], [], wait)
            if ready:
                chunk = os.read(self.fd, 4096)
                if not chunk:
                    raise EOFError
                self._keys += self._decoder.decode(chunk)

    def _draw(self, prompt: str, typed: str) -> None:
        """Redraw the prompt line in place (only when it changed), the typed text's end
        alone when the whole line would wrap (a carriage return redraws one row)."""
        _, columns = termios.tcgetwinsize(self.fd)
        overflow = len(prompt) + len(typed) - (columns - 1)
        line = prompt + (typed[overflow:] if columns and overflow > 0 else typed)
        if line != self._drawn:
            self._drawn = line
            self._write("\r" + line + CLEAR_TO_END)

    def _write(self, text: str) -> None:
        self.out.write(text)
        self.out.flush()


def open_reader(fd: int, out: IO[str]) -> LineReader | LiveLineReader:
    """A :class:`LiveLineReader` when both ``fd`` and ``out`` are a terminal, else a
    :class:`LineReader`."""
    if os.isatty(fd) and out.isatty():
        return LiveLineReader(fd, out)
    return LineReader(fd, out)
