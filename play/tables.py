"""Private tables: codes, seat tokens, agents in the empty seats, one task per table.

A person opens a **private table** (issue 15, "Browser"): the table gets an
unguessable code (``secrets.token_urlsafe``) that friends join by, and every
human seat, once someone takes it, a seat token of its own — a secret that is
that seat's rejoin link. What each secret lets in:

* the **table code** claims a human seat that nobody holds yet, never a held
  one: a stranger who learns the code takes at most a free seat;
* a **seat token** opens that seat alone, for as long as the table lives: a
  closed tab comes back through it, and no other seat answers to it.

Seats that are not human are agents: a built-in one of :mod:`agents.registry`, or a
trained model the server's operator offers (:func:`page_refusal`).
Each table is driven by one asyncio task (:meth:`PrivateTable.drive`) that
calls the session's ``tick`` at its deadlines, so the timers of the Catalan
app (18 s to bet, 22 s to act) play a seat's default when its player is
away. The session (:class:`play.session.TableSession`) is the one table core:
it decides what each seat may see (RULES.md §4, §8.7) and which actions are
legal; this module only routes a seat's messages to it and its views back.
"""

from __future__ import annotations

import asyncio
import logging
import re
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agents.registry import AGENT_SPECS, make_agent, resolve_spec
from agents.seating import SeatVectors, stream_seed
from envs.engine import Engine
from envs.observer import Observer
from envs.rules import MIN_SEATS, PRESETS, Rules
from envs.table_view import count_text, seats_text
from play.play_cli import TIMER_RANGE, is_timer
from play.session import ACT_TIMEOUT, BET_TIMEOUT, HUMAN, TableSession

CODE_BYTES = 16
"""Random bytes in a table code (``secrets.token_urlsafe``: 22 characters)."""
TOKEN_BYTES = 24
"""Random bytes in a seat token (32 characters)."""
IDLE_S = 3600.0
"""A table nobody is connected to is closed after this many seconds without a move."""
SHOWN = 40
"""The most characters of a refused value a message echoes."""
MAX_SPEC = 200
"""The longest agent spec a page may send (an offered model may be longer)."""
FILE_AGENTS = ("model", "rllib")
"""The registry's agents that read a file: a page seats one only as a model the server offers."""
BUILT_IN = tuple(name for name in AGENT_SPECS if name not in FILE_AGENTS)
"""The built-in agents a page may seat: ``random``, ``threshold``, ``careful``, ``reader``."""
BUILT_IN_FORMS = ", ".join(
    [doc.partition(" — ")[0] if " — " in doc else name
     for name, (_factory, doc) in AGENT_SPECS.items() if name in BUILT_IN]
    + ["or a PLAYER|BANK pair of them (e.g. careful|threshold:6)"])
"""The built-in agents' forms, in the registry's words: ``threshold:T``, ``careful[:B]``..."""


def shown(value: str) -> str:
    """``value`` quoted for a message, cut to :data:`SHOWN` characters (saying how long it was).

    >>> shown("bogus"), shown("x" * 50)
    ("'bogus'", "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…' (50 characters)")
    """
    if len(value) <= SHOWN:
        return repr(value)
    return f"{value[:SHOWN] + '…'!r} ({len(value)} characters)"


def page_refusal(spec: str, models: tuple[str, ...] = ()) -> str | None:
    """Why a page may not seat the agent ``spec``, or ``None`` if it may.

    A page seats a built-in agent (:data:`BUILT_IN`, with its argument, or a
    ``PLAYER|BANK`` pair of them; the registry then checks the arguments) or
    one of ``models``, the operator's ``sette serve --model`` specs, exactly as
    written. Anything else is refused from the text alone, before anything
    touches the disk, so a refusal tells a page nothing about the server's
    files: a spec that would read one (``model:``, ``rllib:``, a path) is told
    that this server reads only the models it offers; any other names an
    unknown agent. Either way the message lists what the server accepts.

    >>> [page_refusal(s) for s in ("reader:4", "careful|threshold:6")]
    [None, None]
    >>> page_refusal("bogus").split(";")[0]
    "unknown agent 'bogus'"
    >>> page_refusal("runs/r", ("runs/s",)).split(";")[0]
    "'runs/r' reads a file, and this server reads only the models it offers"
    """
    if spec in models:
        return None
    parts = spec.split("|")
    if len(spec) <= MAX_SPEC and all(part.partition(":")[0] in BUILT_IN for part in parts):
        return None
    offered = (f"or a trained model this server offers: {', '.join(models)}" if models
               else "this server offers no trained models")
    choose = f"choose {BUILT_IN_FORMS}; {offered}"
    if not spec:
        return f"no agent named; {choose}"
    if len(spec) > MAX_SPEC:
        return f"an agent of {len(spec)} characters: at most {MAX_SPEC}; {choose}"
    if any(part.partition(":")[0] in FILE_AGENTS or "/" in part or "\\" in part
           for part in parts):
        return (f"{shown(spec)} reads a file, and this server reads only the models it "
                f"offers; {choose}")
    return f"unknown agent {shown(spec)}; {choose}"


SEATS_HINT = re.compile(r"seat it at a table of (\d+) \(--seats \1\)$")
"""The command line's hint that ends the refusal of a model at a table of another size
(:mod:`agents.learned`); a page has no ``--seats``."""


def page_words(refusal: str) -> str:
    """``refusal`` in a page's words: a model at a table of another size is told to choose a
    table of its own size, where the command line is told ``--seats``.

    >>> page_words("model m was trained for 2 seats, not 3; seat it at a table of 2 (--seats 2)")
    'model m was trained for 2 seats, not 3; choose a 2-seat table'
    """
    return SEATS_HINT.sub(r"choose a \1-seat table", refusal)


_log = logging.getLogger(__name__)


class TableError(ValueError):
    """A request a table refuses: the message says what was wrong and what is allowed."""


class NotFound(TableError):
    """No table has this code (or it has closed)."""


class SeatTaken(TableError):
    """Every human seat of the table is held."""


class Full(TableError):
    """The server holds its ``max_tables`` tables: a new one opens once one of them closes."""


@dataclass
class Subscriber:
    """One connection of a seat: the views pushed to it, newest last."""

    seat: int
    queue: asyncio.Queue[dict[str, Any]] = field(default_factory=asyncio.Queue)


@dataclass(frozen=True)
class TableOptions:
    """What the person who opens a table chooses."""

    rules: str = "catalan"
    seats: tuple[str, ...] = (HUMAN, "threshold:5.5")
    """One entry per seat: ``"human"`` or an agent spec."""
    hands: int = 10
    seed: int | None = None
    """The deal's seed; ``None``: a fresh random one (the history keeps it)."""
    bet_timeout: float | None = BET_TIMEOUT
    act_timeout: float | None = ACT_TIMEOUT
    deck: tuple[str, ...] | None = None
    """A stacked first hand (card names in draw order), for tests and lessons."""
    bank: int | None = None
    """The first bank seat; ``None``: drawn as the rules say (RULES.md §5)."""

    def checked(self, models: tuple[str, ...] = ()) -> TableOptions:
        """These options, or a :class:`TableError` naming the bad value and the valid ones.

        A seat's agent is a built-in one (``random``, ``threshold:5.5``, ``careful``,
        ``reader:4``, or a ``PLAYER|BANK`` pair of them) or one of ``models``, the
        trained models the server's operator offers (``sette serve --model``): a
        page never names a file on the server's disk (:func:`page_refusal`).
        """
        if self.rules not in PRESETS:
            raise TableError(f"rules {shown(self.rules)}: not a preset; choose one of "
                             f"{', '.join(PRESETS)}")
        most = Rules.resolve(self.rules).max_seats
        if not MIN_SEATS <= len(self.seats) <= most:
            raise TableError(f"{count_text(len(self.seats), 'seat')}: a {self.rules} table has "
                             f"{MIN_SEATS} to {most} seats")
        if HUMAN not in self.seats:
            raise TableError("no human seat: keep at least one seat 'human' for yourself")
        if not 1 <= self.hands <= 1000:
            raise TableError(f"hands {self.hands}: choose 1 to 1000")
        for timeout in (self.bet_timeout, self.act_timeout):
            if timeout is not None and not is_timer(timeout):
                raise TableError(f"timeout {timeout}: choose {TIMER_RANGE}, or none")
        rules = Rules.resolve(self.rules)
        engine = Engine(rules, len(self.seats))
        vectors = SeatVectors(engine, Observer(engine))  # a model fits the table's size
        for seat, entry in enumerate(self.seats):
            if entry != HUMAN:
                refusal = page_refusal(entry, models)
                if refusal is not None:
                    raise TableError(f"seat {seat}: {refusal}")
                try:
                    vectors.check(make_agent(resolve_spec(entry), rules=rules))
                except (ValueError, OSError) as exc:
                    raise TableError(f"seat {seat}: {page_words(str(exc))}") from None
        return self


SessionFactory = Callable[[TableOptions, int, "Path | None", Callable[[], float]], TableSession]
"""``factory(options, seed, history_path, clock)``: the session a table deals with."""


def make_session(options: TableOptions, seed: int, history: Path | None,
                 clock: Callable[[], float]) -> TableSession:
    """The table core for ``options`` (:class:`play.session.TableSession`)."""
    return TableSession(list(options.seats), options.rules, seed=seed, hands=options.hands,
                        bet_timeout=options.bet_timeout, act_timeout=options.act_timeout,
                        clock=clock, history=history, deck=options.deck, bank=options.bank)


class PrivateTable:
    """One private table: its seat tokens, its connections and, once dealt, its session.

    The session is made when the table starts — when every human seat is held,
    or when a seated player asks to deal — so no timer runs while the opener
    waits for friends.
    """

    def __init__(self, code: str, options: TableOptions, seed: int,
                 clock: Callable[[], float] = time.monotonic,
                 history_path: Path | None = None,
                 session_factory: SessionFactory = make_session) -> None:
        self.code = code
        self.options = options
        self.seed = seed
        self.clock = clock
        self.history_path = history_path
        self.session_factory = session_factory
        self.session: TableSession | None = None
        self.tokens: dict[int, str] = {}
        """The seat token of every human seat that someone holds."""
        self.subscribers: list[Subscriber] = []
        self.last_seen = clock()
        """The clock's time of the last connection, departure or action."""
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    # -- who sits where -------------------------------------------------------------------
    @property
    def started(self) -> bool:
        return self.session is not None

    @property
    def human_seats(self) -> list[int]:
        return [s for s, entry in enumerate(self.options.seats) if entry == HUMAN]

    def claim_seat(self) -> tuple[int, str]:
        """The first human seat nobody holds, and its new token (:class:`SeatTaken` if none).

        Taking the last free seat deals the first hand.
        """
        for seat in self.human_seats:
            if seat not in self.tokens:
                token = secrets.token_urlsafe(TOKEN_BYTES)
                self.tokens[seat] = token
                if len(self.tokens) == len(self.human_seats):
                    self.start()
                return seat, token
        raise SeatTaken(f"table {self.code}: every human seat is taken "
                        f"({seats_text(self.human_seats)}); a player rejoins through their "
                        "own seat link")

    def seat_of(self, token: object) -> int:
        """The seat ``token`` opens; a :class:`TableError` for any other value."""
        if isinstance(token, str):
            for seat, held in self.tokens.items():
                if secrets.compare_digest(held.encode(), token.encode()):
                    return seat
        raise TableError(f"table {self.code}: this seat token opens no seat; rejoin through "
                         "your own seat link, or join the table by its code")

    @property
    def free_seats(self) -> list[int]:
        """The human seats nobody holds yet."""
        return [s for s in self.human_seats if s not in self.tokens]

    @property
    def timers(self) -> bool:
        """Whether a seat's timers play its default (both run: the bet's and the action's)."""
        return self.options.bet_timeout is not None and self.options.act_timeout is not None

    def public(self) -> dict[str, Any]:
        """What anyone with the code may know: the rules and who sits where (no cards)."""
        return {"code": self.code, "rules": self.options.rules, "hands": self.options.hands,
                "timers": self.timers, "started": self.started,
                "over": self.session is not None and self.session.over,
                "seats": [{"seat": s, "kind": HUMAN if e == HUMAN else "agent",
                           "agent": None if e == HUMAN else e,
                           "held": s in self.tokens if e == HUMAN else True}
                          for s, e in enumerate(self.options.seats)],
                "free_seats": self.free_seats}

    # -- play ----------------------------------------------------------------------------
    def start(self) -> None:
        """Deal the first hand; seats nobody holds yet then play by their timers.

        Without timers nothing would ever play a free seat — the table would wait
        at its first turn for good — so a table without them deals only once
        every human seat is held (:class:`TableError` until then).
        """
        if self.session is None and self.free_seats and not self.timers:
            raise TableError(f"this table has no timers, so nobody would play "
                             f"{seats_text(self.free_seats)}: it deals once every friend "
                             "has taken a seat through the invite link")
        if self.session is None:
            self.session = self.session_factory(self.options, self.seed, self.history_path,
                                                self.clock)
            self.wake()

    def act(self, seat: int, action: object) -> None:
        """Seat ``seat`` plays ``action``; :class:`SessionError` (nothing changes) unless legal."""
        if self.session is None:
            raise TableError("the table has not started: it deals once every human seat is "
                             "held, or when a seated player presses 'deal now'")
        if not isinstance(action, (int, str)) or isinstance(action, bool):
            raise TableError(f"action {action!r}: name an action (\"stand\"), its key or "
                             "its number")
        self.session.act(seat, action)
        self.last_seen = self.clock()
        self.wake()

    def view(self, seat: int) -> dict[str, Any]:
        """The message a seat's connection gets: its own seat's view only, and the table."""
        session = self.session
        seconds_left = None if session is None else session.remaining(self.clock())
        return {"type": "view", "seat": seat, "table": self.public(),
                "view": None if session is None else session.view(seat),
                "seconds_left": seconds_left}

    # -- connections ---------------------------------------------------------------------
    def subscribe(self, seat: int) -> Subscriber:
        """A new connection of ``seat``: it gets the seat's view now and after every change."""
        sub = Subscriber(seat)
        self.subscribers.append(sub)
        self.last_seen = self.clock()
        sub.queue.put_nowait(self.view(seat))
        return sub

    def unsubscribe(self, sub: Subscriber) -> None:
        if sub in self.subscribers:
            self.subscribers.remove(sub)
        self.last_seen = self.clock()

    def publish(self) -> None:
        """Push every connection its own seat's view (computed once per seat)."""
        views: dict[int, dict[str, Any]] = {}
        for sub in self.subscribers:
            if sub.seat not in views:
                views[sub.seat] = self.view(sub.seat)
            sub.queue.put_nowait(views[sub.seat])

    def wake(self) -> None:
        self._wake.set()

    # -- the task ------------------------------------------------------------------------
    async def drive(self) -> None:
        """Tick the session at its deadlines and publish the views after every change.

        An agent that fails (a model that cannot act, say) stops the table: its
        players are told why, and the hand in play is written as unfinished.
        """
        while True:
            self._wake.clear()
            session = self.session
            try:
                if session is not None:
                    session.tick(self.clock())
            except Exception as exc:  # an agent's own error: stop this table, not the server
                _log.exception("table %s stopped", self.code)
                assert session is not None
                session.close()
                for sub in self.subscribers:
                    sub.queue.put_nowait({"type": "error",
                                          "message": f"the table stopped: {exc}"})
                return
            self.publish()
            if session is not None and session.over:
                return
            delay = None if session is None else session.remaining(self.clock())
            try:
                await asyncio.wait_for(self._wake.wait(), delay)
            except asyncio.TimeoutError:
                pass

    def launch(self) -> None:
        """Start :meth:`drive` on the running event loop."""
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self.drive())

    def stop(self) -> None:
        """Stop the task at once; the session writes its hand in play as unfinished."""
        if self._task is not None:
            self._task.cancel()
        if self.session is not None:
            self.session.close()

    async def close(self) -> None:
        """Stop the task and wait for it; the session writes its hand in play as unfinished."""
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except asyncio.CancelledError:
                pass
        if self.session is not None:
            self.session.close()


class TableRegistry:
    """Every open private table, by code; hand histories go to ``history_dir`` as CODE.jsonl."""

    def __init__(self, history_dir: Path | None = None, max_tables: int = 1000,
                 clock: Callable[[], float] = time.monotonic,
                 session_factory: SessionFactory = make_session, seed: int | None = None,
                 models: tuple[str, ...] = ()) -> None:
        self.tables: dict[str, PrivateTable] = {}
        self.models = models
        """The trained models a table may seat (``sette serve --model``), as the operator wrote them."""
        self.seed = seed
        """``None``: every table is dealt with a fresh random seed; else the ``k``-th table
        opened gets ``stream_seed(seed, k)`` (the same tables for the same seed)."""
        self.opened = 0
        self.history_dir = history_dir
        self.max_tables = max_tables
        self.clock = clock
        self.session_factory = session_factory

    def open(self, options: TableOptions) -> tuple[PrivateTable, int, str]:
        """A new table, with the opener in its first human seat: the table, seat and token."""
        options = options.checked(self.models)
        self.prune()
        if len(self.tables) >= self.max_tables:
            raise Full(f"this server holds {self.max_tables} tables already; try again later")
        code = secrets.token_urlsafe(CODE_BYTES)
        history = None if self.history_dir is None else self.history_dir / f"{code}.jsonl"
        if options.seed is not None:
            seed = options.seed
        elif self.seed is not None:
            seed = stream_seed(self.seed, self.opened)
        else:
            seed = secrets.randbits(31)
        self.opened += 1
        table = PrivateTable(code, options, seed, self.clock, history, self.session_factory)
        self.tables[code] = table
        seat, token = table.claim_seat()
        return table, seat, token

    def prune(self) -> None:
        """Close the tables nobody is connected to that are over or saw no move for :data:`IDLE_S`.

        It runs before every new table opens. A table that is over (its last
        hand played, or stopped by an agent's error) has nothing left to play,
        so once its last page closes its place goes to the next table; one still
        in play keeps its place for an hour, so a player can come back through
        their seat link.
        """
        now = self.clock()
        for code, table in list(self.tables.items()):
            over = table.session is not None and table.session.over
            if not table.subscribers and (over or now - table.last_seen > IDLE_S):
                del self.tables[code]
                table.stop()

    def get(self, code: object) -> PrivateTable:
        """The table of ``code``; :class:`NotFound` names a wrong one."""
        if isinstance(code, str) and code in self.tables:
            return self.tables[code]
        shown = code if isinstance(code, str) and len(code) <= 64 else "(that)"
        raise NotFound(f"no table has the code {shown!r}: check the link, or open a new table")

    async def close_all(self) -> None:
        for table in list(self.tables.values()):
            await table.close()
        self.tables.clear()
