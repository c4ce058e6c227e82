"""How a test starts a child process that Ctrl-C must reach as it reaches a terminal's game."""

from __future__ import annotations

import signal


def foreground_sigint() -> None:
    """Reset SIGINT to its default in a child, before it runs (a ``preexec_fn``).

    A shell starts background jobs (``make test &``, ``nohup``) with SIGINT ignored, and a
    child inherits that; a terminal's Ctrl-C reaches a foreground job with the default.
    """
    signal.signal(signal.SIGINT, signal.SIG_DFL)
