"""``sette watch``: agents playing hand by hand, with the probability each gave its choices.

A :class:`play.session.TableSession` of agents only, advanced one action at
a time (``auto_agents=False``) at ``speed`` actions per second. The table is
drawn as a spectator sees it (face-up cards only, RULES.md §4), so a watcher
learns no more than someone standing by the table; each action is printed
with the probability the agent gave every legal action — a learned agent's
softmax over its legal logits, the random agent's uniform draw, 1.0 on the
choice of any other scripted agent — and each
hand ends with its settlement lines (:mod:`play.settlement`).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

from rich.console import Console
from rich.text import Text

from envs.table_view import hands_text, seats_text
from play.session import Change, Decision, TableSession
from play.terminal import settlement_text, table_renderable


def probability_text(session: TableSession, decision: Decision) -> str:
    """``hit 0.83 · stand 0.17``: the probability of each legal action, likeliest first."""
    if not decision.probabilities:
        return ""
    ranked = sorted(decision.probabilities.items(), key=lambda item: -item[1])
    return " · ".join(f"{session.label(decision.seat, name)} {p:.2f}" for name, p in ranked)


def watch(session: TableSession, speed: float = 2.0, console: Console | None = None,
          sleep: Callable[[float], None] = time.sleep) -> list[int]:
    """Play ``session`` (agents only) to its end, printing it; the final chips.

    ``speed``: actions per second (0: no pause).
    """
    if session.humans:
        raise ValueError(f"sette watch seats agents only; {seats_text(session.humans)} "
                         f"{'is' if len(session.humans) == 1 else 'are'} human")
    if not 0 <= speed < math.inf:  # false for nan
        raise ValueError(f"speed={speed!r} must be 0 (no pause) or a finite number of "
                         f"actions per second")
    out = console or Console(highlight=False)
    changes: list[Change] = []
    session.subscribe(changes.append)
    hand = 0
    while not session.over:
        view = session.view(None)
        if view["hand"] != hand:
            hand = view["hand"]
            out.print(table_renderable(view))
        session.advance(1)
        for change in changes:
            if change.kind == "action" and change.decision is not None:
                d = change.decision
                out.print(Text(f"  seat {d.seat} ({session.names[d.seat]}): "
                               f"{session.label(d.seat, d.name):<10}  "
                               f"[{probability_text(session, d)}]"))
            elif change.kind == "hand_over":
                out.print(Text(f"Hand {hand} over:", style="bold"))
                out.print(settlement_text([line.to_dict() for line in change.settlement]))
        changes.clear()
        if speed:
            sleep(1.0 / speed)
    chips = session.engine.chips
    out.print(Text(f"Table over after {hands_text(session.engine.hands_played)}. Final chips: "
                   + ", ".join(f"seat {s} {c}" for s, c in enumerate(chips))))
    return list(chips)
