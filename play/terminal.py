"""The terminal table: one person at a :class:`play.session.TableSession`, drawn with ``rich``.

A line-based loop, no full-screen interface: before each of the person's
decisions the table is drawn as their seat may see it (the session's
:meth:`~play.session.TableSession.view`, so never another seat's face-down
card nor the bank's before its turn, RULES.md §4), then the legal actions
with their keys, and the prompt with the time left, counting down in place
at a terminal (:mod:`play.timed_input`). When the time runs out the session
plays the default (the smallest stake, or ``stand``) and the screen says
so. What the other seats do is printed as it happens, each hand's
settlement lines when it ends (:mod:`play.settlement`).

Bad input — an unknown key, an illegal action, a stake above the chips —
gets one line saying why and the prompt again. Ctrl-C (or end of input)
leaves cleanly: the hand in play is written to the history as unfinished.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from typing import IO, Any

from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from envs.table_view import hands_text
from play.session import ActionRefused, Change, TableSession
from play.timed_input import LineReader, LiveLineReader, open_reader, seconds_shown

BACK = "##"
"""A card the viewer may not see."""
WHO_WIDTH = 24
"""The most characters of a seat's entry in the table's "who" column: with the columns beside
it, a row fits an 80-column terminal, so the column is cut here (:func:`who_text`), not by
``rich``."""


def who_text(who: str) -> str:
    """``who`` cut to :data:`WHO_WIDTH` characters by its start, behind ``…``: two models'
    paths differ at their end (``…seed0/player``, ``…seed1/player``), where a cut at the
    end would show them alike, and a bank's ``(bank)`` stays shown."""
    return who if len(who) <= WHO_WIDTH else "…" + who[len(who) - WHO_WIDTH + 1:]


def card_text(name: str | None, own_hidden: bool) -> str:
    """A card as drawn: its name, ``##`` for a back, ``[7o]`` for the viewer's own face-down one."""
    if name is None:
        return BACK
    return f"[{name}]" if own_hidden else name


def table_renderable(view: dict[str, Any]) -> Group:
    """The table of one view (:meth:`TableSession.view`): a header line and a row per seat."""
    limit = f"/{view['max_hands']}" if view["max_hands"] else ""
    head = (f"hand {view['hand']}{limit} · {view['phase']} · bank: seat {view['bank']} · "
            f"jackpot {view['jackpot']} · shoe {view['shoe']}")
    if view["over"]:
        head = f"table over after {hands_text(view['hand'])} · jackpot {view['jackpot']}"
    grid = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
    for column in ("", "seat", "who", "chips", "bet", "cards", "total", "status"):
        grid.add_column(column, no_wrap=column == "who")  # cut by who_text, not by rich
    for seat in view["seats"]:
        who = ("you" if seat["is_viewer"] else seat["name"]) + (" (bank)" if seat["is_bank"]
                                                                else "")
        marker = ">" if seat["acting"] else ""
        if seat["last_hand_net"] is not None:
            rows = [("", f"last hand {seat['last_hand_net']:+d}", "", "")]
        elif seat["sitting_out"]:
            rows = [("", "sitting out", "", "")]
        else:
            rows = [("" if seat["is_bank"] else str(hand["bet"]),
                     " ".join(card_text(n, h) for n, h in zip(hand["cards"], hand["own_hidden"]))
                     or "-", hand["total_text"], hand["status"]) for hand in seat["hands"]]
        for bet, cards, total, status in rows or [("", "-", "", "")]:
            grid.add_row(Text(marker), Text(str(seat["seat"])), Text(who_text(who)),
                         Text(str(seat["chips"])), Text(bet), Text(cards), Text(total),
                         Text(status), style="bold" if seat["is_viewer"] else None)
    return Group(Text(head, style="bold"), grid)


def legal_text(view: dict[str, Any]) -> Text:
    """The viewer's legal actions with their keys: ``s stand · h hit``."""
    return Text(" · ".join(f"{a['key']} {a['label']}" for a in view["legal"]))


def settlement_text(lines: Sequence[dict[str, Any]]) -> Text:
    """A finished hand's settlement lines, each with the seat's hands as shown."""
    out = []
    for line in lines:
        shown = " | ".join(" ".join(card_text(c, False) for c in hand) for hand in line["cards"])
        out.append(f"  {line['text']}" + (f"   [{shown}]" if shown else ""))
    return Text("\n".join(out))


def played_so_far(session: TableSession) -> list[Change]:
    """What ``session`` played before a front-end listened, as the changes it would have
    heard: every finished hand's actions and settlement, then the hand in play's actions.

    The agents play as soon as a session opens, so whole hands can be over before the
    person's first decision (they hold the bank and every player busts, say); each is
    shown, in order, as if it had happened at the table.
    """
    changes: list[Change] = []
    for decisions, lines in zip(session.hand_decisions, session.settlements):
        changes.extend(Change("action", d) for d in decisions)
        changes.append(Change("hand_over", settlement=lines))
    changes.extend(Change("action", d) for d in session.decisions)
    return changes


class TerminalTable:
    """Play ``session`` from ``seat`` in the terminal until the table is over or the player
    leaves."""

    def __init__(self, session: TableSession, seat: int, console: Console | None = None,
                 reader: LineReader | LiveLineReader | None = None,
                 history: str | None = None) -> None:
        if seat not in session.humans:
            raise ValueError(f"seat {seat} is not a human seat (human seats: "
                             f"{', '.join(map(str, session.humans))})")
        self.session = session
        self.seat = seat
        self.console = console or Console(highlight=False)
        self.reader = reader or open_reader(0, self.console.file)
        self.history = history
        self._changes = played_so_far(session)
        session.subscribe(self._changes.append)

    def run(self) -> int:
        """The session loop; 0 once the table is over, 130 when the player left (Ctrl-C)."""
        try:
            self._report()
            while not self.session.over:
                self._decide()
                self._report()
        except (KeyboardInterrupt, EOFError):
            self.session.close()
            self.console.print()
            self.console.print(Text("You left the table." + self._saved()))
            return 130
        self._finish()
        return 0

    def _saved(self) -> str:
        return f" Hand history saved to {self.history}." if self.history else ""

    def _decide(self) -> None:
        """Draw the table, prompt, and play the player's input (or the timer's default)."""
        session = self.session
        view = session.view(self.seat)
        console = self.console
        console.print(table_renderable(view))
        console.print(Text("Your cards in [brackets] are face down: only you see them. "
                           "## is a card you may not see.", style="dim"))
        console.print(Text("Actions: ") + legal_text(view))
        while not session.over and session.actor == self.seat:
            line = self.reader.readline(self._prompt, session.remaining())
            if line is None:
                before = session.default_action()
                label = next(a.label for a in session.legal() if a.id == before)
                if session.tick():
                    console.print()
                    console.print(Text(f"Time is up: the timer played {label} for you."))
                    return
                continue
            if not line:
                continue
            try:
                session.act(self.seat, line)
            except ActionRefused as refused:
                console.print(Text(f"Refused: {refused}"))
                continue
            return

    def _prompt(self, left: float | None) -> str:
        """``your move (17 s left)> ``; a prompt written once (input not a terminal) also says
        until when."""
        if left is None:
            return "your move> "
        if self.reader.live:
            return f"your move ({seconds_shown(left)} s left)> "
        until = datetime.datetime.now() + datetime.timedelta(seconds=left)
        return f"your move ({seconds_shown(left)} s left, until {until:%H:%M:%S})> "

    def _report(self) -> None:
        """Print what happened since the last prompt: the actions and finished hands."""
        changes, self._changes[:] = list(self._changes), []
        for change in changes:
            if change.kind == "action" and change.decision is not None:
                d = change.decision
                who = ("you" if d.seat == self.seat
                       else f"seat {d.seat} ({self.session.names[d.seat]})")
                note = " (timer)" if d.how == "timeout" else ""
                self.console.print(Text(f"  {who}: {self.session.label(d.seat, d.name)}{note}"))
            elif change.kind == "hand_over":
                self.console.print(Text("Hand over:", style="bold"))
                self.console.print(settlement_text([line.to_dict()
                                                    for line in change.settlement]))

    def _finish(self) -> None:
        view = self.session.view(self.seat)
        self.console.print(table_renderable(view))
        chips = ", ".join(f"seat {s['seat']} {s['chips']}" for s in view["seats"])
        self.console.print(Text(f"Table over. Final chips: {chips}." + self._saved()))


def play_in_terminal(session: TableSession, seat: int, history: str | None = None,
                     stream: IO[str] | None = None) -> int:
    """Run :class:`TerminalTable` for ``seat`` on standard input and output; its exit status."""
    console = Console(highlight=False)
    reader = open_reader(0 if stream is None else stream.fileno(), console.file)
    return TerminalTable(session, seat, console=console, reader=reader, history=history).run()
