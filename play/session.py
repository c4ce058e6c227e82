"""The table session: people and agents at one engine table, with turn timers.

One :class:`TableSession` is the table both front-ends drive — the terminal
(:mod:`play.terminal`) and the browser server. It holds one scalar engine
(:class:`envs.engine.Engine`, dealt with the session's seed: same seed, same
hands), one policy per agent seat (any agent spec, :func:`agents.make_agent`,
seeded as every table seeds its seats, :mod:`agents.seating`) and the humans'
seats, which wait for :meth:`TableSession.act`.

**What a seat sees.** :meth:`TableSession.view` is the only way a front-end
reads the table, and it is built from :func:`envs.table_view.table_view` for
that viewer — the one source of what a viewer may see (RULES.md §4, §8.7):
its own face-down card marked, every other face-down card a back (``None``),
the bank's cards backs until its turn (§4.1, §4.6). The rest of the view is
public: stakes, chips, the bank, the jackpot, whose turn it is, the actions
taken this hand (actions are public, §4), the settlement lines of the last
hand (every hand is shown at the showdown, §4.7) and, for the seat to act
only, its legal actions and its timer's deadline.

**Timers** (the Catalan app's, RULES.md §7 ``catalan``): ``bet_timeout``
seconds to bet (18) and ``act_timeout`` to act (22), each ``None`` for no
timer, else more than 0 and at most the command line's ``MAX_TIMEOUT`` seconds
(:func:`play.play_cli.is_timer`). When a human seat's deadline passes,
:meth:`TableSession.tick` plays its default: the smallest legal stake for a
bet, else the passive action (``stand``, ``pass``, ``refuse_bank``,
``decline``, in that order of preference), else the first legal one. Time
comes from ``clock`` (a callable giving seconds), so tests move time by hand.

**Listening.** :meth:`TableSession.subscribe` registers a callback called
after every change with a :class:`Change`; a server re-sends each of its
connections ``view(seat)`` then. Callbacks run in the thread that changed the
table; an asyncio server hands them to its loop (``loop.call_soon_threadsafe``).

Every finished hand is written to the hand history (:mod:`play.history`)
with its settlement lines (:mod:`play.settlement`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import numpy as np

from agents.registry import make_agent, model_label, resolve_spec
from agents.scripted import RandomAgent
from agents.seating import SeatVectors, seed_seats
from envs import actions as A
from envs.engine import BET, PHASE_NAMES, Engine, Hand
from envs.observer import Observer
from envs.policy import Policy
from envs.rules import MAX_SEATS, MIN_SEATS, Rules
from envs.table_view import HandShown, table_view
from play.history import FORMAT, HistoryWriter, table_record
from play.play_cli import TIMER_RANGE, is_timer
from play.settlement import SettlementLine, settlement_lines

HUMAN: Final = "human"
"""The seat spec of a person's seat: it waits for :meth:`TableSession.act`."""

BET_TIMEOUT: Final = 18.0
"""Seconds to bet, as in the Catalan app."""
ACT_TIMEOUT: Final = 22.0
"""Seconds for every other decision, as in the Catalan app."""

_FIXED_KEYS: Final[dict[str, str]] = {
    "stand": "s", "hit": "h", "reveal_hit": "v", "take_bank": "t", "refuse_bank": "r",
    "claim_bank": "c", "double": "d", "split": "x", "change_four": "c4", "mort": "m",
    "decline": "n", "fusilar": "f", "pass": "p", "sell_bank": "$",
}
_PASSIVE: Final = ("stand", "pass", "refuse_bank", "decline")
"""The defaults a timer plays outside a bet, the first legal one of them."""


class SessionError(ValueError):
    """A request the table refuses; nothing has changed."""


class ActionRefused(SessionError):
    """An action the seat may not take now: out of turn, unknown, illegal or at an agent's seat.

    ``seat`` and ``action`` are what was asked, ``legal`` the names of the
    actions the seat may take now (empty when it is not its turn), ``reason``
    one of ``not_your_turn``, ``unknown_action``, ``illegal``, ``not_human``,
    ``over``.
    """

    def __init__(self, message: str, seat: int, action: object, legal: Sequence[str],
                 reason: str) -> None:
        super().__init__(message)
        self.seat = seat
        self.action = action
        self.legal = list(legal)
        self.reason = reason


@dataclass(frozen=True)
class LegalAction:
    """One action the seat to act may take: its layout id and name, a key and words."""

    id: int
    name: str
    key: str
    label: str

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "key": self.key, "label": self.label}


@dataclass(frozen=True)
class Decision:
    """One action taken at the table, and how: by a ``human``, an ``agent`` or a ``timeout``.

    ``probabilities`` (agents only): the probability the agent gave each legal
    action by name — a learned agent's softmax over its legal logits, 1.0 on
    the choice of an agent without them.
    """

    seat: int
    name: str
    how: str
    probabilities: dict[str, float] | None = None


@dataclass(frozen=True)
class Change:
    """What a listener is told: ``kind`` is ``action`` (``decision`` says which),
    ``hand_over`` (``settlement`` holds its lines), ``over`` or ``closed``."""

    kind: str
    decision: Decision | None = None
    settlement: tuple[SettlementLine, ...] = ()


def action_key(name: str, min_bet: int) -> str:
    """The key a player types for ``name``: ``stand`` is ``s``, ``bet_2`` its stake (``20``)."""
    if name in _FIXED_KEYS:
        return _FIXED_KEYS[name]
    block, _, rest = name.rpartition("_")
    k = int(rest)
    if block == "bet":
        return str(k * min_bet)
    if block == "raise":
        return f"+{k * min_bet}"
    if block == "bid":
        return f"b{k * min_bet}"
    offset = block.rpartition("_")[2]
    return f"o{offset}:{k * min_bet}"


def action_label(name: str, min_bet: int, seat: int, num_seats: int) -> str:
    """The action in words: ``bet 20``, ``raise 10``, ``side bet 10 on seat 3``."""
    if name in _FIXED_KEYS:
        return name.replace("_", " ")
    block, _, rest = name.rpartition("_")
    chips = int(rest) * min_bet
    if block in ("bet", "raise", "bid"):
        return f"{block} {chips}"
    offset = int(block.rpartition("_")[2])
    return f"side bet {chips} on seat {(seat + offset) % num_seats}"


def _chips_typed(text: str) -> int | None:
    """The number of chips ``text`` says, as ``int`` reads it, or None if it is no number.

    A stake's key is its chips written plainly (``10``), but a person may type
    the same number otherwise — ``+10``, ``010`` — and means the same stake.
    """
    try:
        return int(text)
    except ValueError:
        return None


def _hand_dict(hand: HandShown) -> dict[str, Any]:
    return {"cards": list(hand.cards), "own_hidden": list(hand.own_hidden), "bet": hand.bet,
            "total": hand.total, "total_text": hand.total_text, "partial": hand.partial,
            "status": hand.status}


class _Human:
    """The placeholder policy of a human seat: it never acts by itself."""

    spec = HUMAN

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        raise SessionError("a human seat acts through TableSession.act")


def _seat_policy(player: str | Policy, rules: Rules) -> Policy:
    """The policy of one seat: :data:`HUMAN`, an agent spec, or an agent already made."""
    if player == HUMAN:
        return _Human()
    if isinstance(player, str):
        return make_agent(resolve_spec(player), rules=rules)
    if not callable(getattr(player, "act", None)):
        raise SessionError(f"a seat takes 'human', an agent spec or an agent with act(), "
                           f"got {player!r}")
    return player


class TableSession:
    """One table of humans and agents (module docstring).

    ``players``: one per seat — :data:`HUMAN` for a person, else any agent
    spec (``threshold:5.5``, ``careful``, a model path, ``PLAYER|BANK``) or
    an agent already made (a loaded model); 2..8 seats at one deck, more
    with more decks (RULES.md §2). ``rules``: a preset name, a rules file, a
    mapping or :class:`Rules`. ``seed`` deals the table; ``hands`` is the hand limit
    (``None``: until no seat can hold the bank); ``deck``, ``bank`` and
    ``chips`` go to ``Engine.reset`` (a stacked first hand, for tests and
    lessons). ``history``: a file to write one JSON line per hand to.
    ``auto_agents``: agents play as soon as it is their turn (else call
    :meth:`advance`, as ``sette watch`` does to pace them).
    """

    def __init__(self, players: Sequence[str | Policy],
                 rules: Rules | str | Path | None = "catalan", *, seed: int = 0,
                 hands: int | None = 10,
                 bet_timeout: float | None = BET_TIMEOUT,
                 act_timeout: float | None = ACT_TIMEOUT,
                 clock: Callable[[], float] = time.monotonic,
                 history: str | Path | None = None, deck: Sequence[str] | None = None,
                 bank: int | None = None, chips: Sequence[int] | None = None,
                 auto_agents: bool = True) -> None:
        if not MIN_SEATS <= len(players) <= MAX_SEATS:
            raise SessionError(f"a table seats {MIN_SEATS}..{MAX_SEATS} players, got "
                               f"{len(players)}: {', '.join(map(str, players)) or 'none'}")
        for name, value in (("bet_timeout", bet_timeout), ("act_timeout", act_timeout)):
            if value is not None and not is_timer(value):
                raise SessionError(f"{name}={value!r}: a timer is {TIMER_RANGE}, or None "
                                   f"(no timer)")
        self.rules = Rules.resolve(rules)
        self.engine = Engine(self.rules, len(players), max_hands=hands)
        self.observer = Observer(self.engine)
        self.policies: list[Policy] = [_seat_policy(p, self.rules) for p in players]
        self.specs = [getattr(p, "spec", type(p).__name__) for p in self.policies]
        self.humans = tuple(s for s, p in enumerate(self.policies) if isinstance(p, _Human))
        self.names = [HUMAN if isinstance(p, _Human) else model_label(spec)
                      for p, spec in zip(self.policies, self.specs)]
        self.seed = seed
        self.bet_timeout = bet_timeout
        self.act_timeout = act_timeout
        self.clock = clock
        self.auto_agents = auto_agents
        self.deadline: float | None = None
        """The clock time at which the human seat to act gets its default; None: no timer."""
        self.decisions: list[Decision] = []
        """Every action of the hand in play, in order."""
        self.last_settlement: tuple[SettlementLine, ...] = ()
        self.settlements: list[tuple[SettlementLine, ...]] = []
        """The settlement lines of every finished hand, in order."""
        self.hand_decisions: list[tuple[Decision, ...]] = []
        """The actions of every finished hand, in order (``settlements`` holds their lines):
        hands can end before a front-end first listens (the agents play as soon as the
        session opens), and it shows them from these."""
        self.version = 0
        """Counts the changes: a front-end redraws when it moves."""
        self._listeners: list[Callable[[Change], None]] = []
        self.vectors = SeatVectors(self.engine, self.observer)
        for seat, policy in enumerate(self.policies):
            try:
                self.vectors.check(policy)
            except ValueError as exc:
                raise SessionError(f"seat {seat}: {exc}") from None
        self._table = table_record(self.rules, len(players), hands, seed,
                                   None if deck is None else list(deck), bank,
                                   None if chips is None else list(chips), self.specs)
        self.closed = False
        seed_seats(self.policies, seed)
        self.engine.reset(seed=seed, deck=None if deck is None else list(deck), bank=bank,
                          chips=None if chips is None else list(chips))
        self._writer = None if history is None else HistoryWriter(history)
        self._begin_hand_record()
        self._settle_turn()

    # ------------------------------------------------------------------ reading
    @property
    def over(self) -> bool:
        """True once the table has played its last hand (or was closed)."""
        return self.engine.over or self.closed

    @property
    def actor(self) -> int | None:
        """The seat to act, or None once the table is over."""
        return None if self.over else self.engine.actor

    def legal(self) -> list[LegalAction]:
        """The legal actions of the seat to act (empty once over), with keys and words."""
        if self.over:
            return []
        e = self.engine
        names = e.layout.names
        r = self.rules
        return [LegalAction(a, names[a], action_key(names[a], r.min_bet),
                            action_label(names[a], r.min_bet, e.actor, e.num_seats))
                for a in e.legal_actions()]

    def label(self, seat: int, name: str) -> str:
        """Action ``name`` of ``seat`` in words (:func:`action_label`): ``bet 20``."""
        return action_label(name, self.rules.min_bet, seat, self.engine.num_seats)

    def remaining(self, now: float | None = None) -> float | None:
        """Seconds left on the running timer (never below 0), None with no timer."""
        if self.deadline is None:
            return None
        return max(0.0, self.deadline - (self.clock() if now is None else now))

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see, as plain JSON values (``None``: a spectator).

        Keys: ``seat``, ``hand``, ``max_hands``, ``phase``, ``over``, ``jackpot``,
        ``shoe``, ``discard``, ``bank``, ``actor``, ``your_turn``, ``seats`` (per
        seat: ``seat``, ``name``, ``human``, ``is_bank``, ``bank_streak``,
        ``acting``, ``is_viewer``, ``chips``, ``sitting_out``, ``last_hand_net``,
        ``hands``: ``cards`` (names, ``None`` for a back), ``own_hidden``,
        ``bet``, ``total``, ``total_text``, ``partial``, ``status``),
        ``actions`` (this hand's, ``{"seat", "name", "how"}``), ``legal``
        (``{"id", "name", "key", "label"}``, the viewer's at its turn only),
        ``deadline``/``remaining`` (the viewer's timer at its turn, else None),
        ``last_settlement`` (the last hand's lines, :meth:`SettlementLine.to_dict`),
        ``min_bet`` and ``version``.
        """
        e = self.engine
        if seat is not None and not (isinstance(seat, int) and 0 <= seat < e.num_seats):
            raise SessionError(f"seat {seat!r} is not at this table; seats are "
                               f"0..{e.num_seats - 1}")
        shown = table_view(e, seat)
        your_turn = seat is not None and self.actor == seat
        return {
            "seat": seat, "hand": shown.hand, "max_hands": shown.max_hands,
            "phase": shown.phase, "over": self.over, "jackpot": shown.jackpot,
            "shoe": shown.shoe, "discard": shown.discard, "bank": e.bank,
            "actor": self.actor, "your_turn": your_turn, "min_bet": self.rules.min_bet,
            "seats": [{"seat": s.seat, "name": self.names[s.seat],
                       "human": self.specs[s.seat] == HUMAN, "is_bank": s.is_bank,
                       "bank_streak": s.bank_streak, "acting": s.acting and not self.over,
                       "is_viewer": s.is_viewer, "chips": s.chips,
                       "sitting_out": s.sitting_out, "last_hand_net": s.last_hand_net,
                       "hands": [_hand_dict(h) for h in s.hands]} for s in shown.seats],
            "actions": [{"seat": d.seat, "name": d.name, "how": d.how}
                        for d in self.decisions],
            "legal": [a.to_dict() for a in self.legal()] if your_turn else [],
            "deadline": self.deadline if your_turn else None,
            "remaining": self.remaining() if your_turn else None,
            "last_settlement": [line.to_dict() for line in self.last_settlement],
            "version": self.version,
        }

    # ------------------------------------------------------------------ acting
    def parse_action(self, seat: int, action: int | str) -> int:
        """The layout id of ``action`` for ``seat`` now: an id, a name or a key (a stake's key
        however ``int`` reads it: ``+10`` and ``010`` are the stake ``10``).

        Raises :class:`ActionRefused` (nothing changes) naming the action and the
        legal ones when it is not the seat's turn, not an action, or not legal.
        """
        legal = self.legal() if self.actor == seat else []
        legal_names = [a.name for a in legal]
        choices = ", ".join(f"{a.key} ({a.label})" for a in legal)
        if self.over:
            raise ActionRefused(f"the table is over; seat {seat} cannot play {action!r}",
                                seat, action, [], "over")
        if seat not in self.humans:
            raise ActionRefused(f"seat {seat} is not a human seat at this table (human seats: "
                                f"{', '.join(map(str, self.humans)) or 'none'})",
                                seat, action, [], "not_human")
        if self.actor != seat:
            raise ActionRefused(f"it is seat {self.actor}'s turn, not seat {seat}'s; "
                                f"{action!r} refused", seat, action, [], "not_your_turn")
        layout = self.engine.layout
        index: int | None = None
        if isinstance(action, bool):
            index = None
        elif isinstance(action, int):
            index = action
        elif isinstance(action, str):
            text = action.strip()
            by_key = [a.id for a in legal if a.key == text]
            if by_key:
                index = by_key[0]
            elif text in layout.names:
                index = layout.names.index(text)
            else:
                chips = _chips_typed(text)
                stakes = {int(a.key): a.id for a in legal if a.name.startswith("bet_")}
                if chips in stakes:
                    index = stakes[chips]
                elif chips is not None:
                    raise ActionRefused(self._stake_text(text, chips)
                                        + f"; choose one of: {choices}", seat, action,
                                        legal_names, "illegal")
        if index is None or not 0 <= index < layout.size:
            raise ActionRefused(f"{action!r} is not an action; choose one of: {choices}",
                                seat, action, legal_names, "unknown_action")
        if index not in self.engine.legal_actions():
            raise ActionRefused(f"{layout.names[index]} is not legal now; choose one of: "
                                f"{choices}", seat, action, legal_names, "illegal")
        return index

    def _stake_text(self, text: str, chips: int) -> str:
        """Why the stake typed as ``text`` (``chips`` chips) is not on offer now: no bet is
        asked, it is above the seat's chips or the table's limit, or off the ladder of
        stakes. It names the stake as typed."""
        if self.engine.phase != BET:
            return f"no stake is asked now ({text} chips)"
        r = self.rules
        held = self.engine.chips[self.engine.actor]
        if chips > held:
            return f"a stake of {text} is above your {held} chips"
        if chips > r.max_bet:
            return f"a stake of {text} is above the table's limit of {r.max_bet}"
        return f"{text} is not a stake on offer"

    def act(self, seat: int, action: int | str) -> None:
        """Play ``action`` (layout id, name or key) for human ``seat``; agents then play on.

        Raises :class:`ActionRefused` (nothing changes) if the seat may not take it.
        """
        index = self.parse_action(seat, action)
        self._step(index, "human")
        self._settle_turn()

    def tick(self, now: float | None = None) -> bool:
        """Play the default of a human seat whose timer ran out; True if one was played.

        ``now``: the clock's time (default ``clock()``). A front-end calls it
        whenever it wakes up (the terminal at a timed-out read, a server on a
        timer set to :attr:`deadline`).
        """
        if self.over or self.deadline is None:
            return False
        if (self.clock() if now is None else now) < self.deadline:
            return False
        self._step(self.default_action(), "timeout")
        self._settle_turn()
        return True

    def default_action(self) -> int:
        """What a timer plays for the seat to act (module docstring)."""
        e = self.engine
        legal = e.legal_actions()
        names = e.layout.names
        if e.phase == BET:
            stakes = [a for a in legal if names[a].startswith("bet_")]
            if stakes:
                return stakes[0]
        for name in _PASSIVE:
            if e.layout.index(name) in legal:
                return e.layout.index(name)
        return legal[0]

    def advance(self, steps: int | None = None) -> int:
        """Let agents play up to ``steps`` actions (None: until a human is to act or the
        table is over); how many they played."""
        played = 0
        while not self.over and self.engine.actor not in self.humans and (
                steps is None or played < steps):
            seat = self.engine.actor
            index, probabilities = self._agent_choice(seat)
            self._step(index, "agent", probabilities)
            played += 1
        self._start_timer()
        return played

    def close(self) -> None:
        """End the session: the hand in play is written as unfinished, the history closed."""
        if self.closed:
            return
        if not self.engine.over and self._writer is not None:
            self._writer.write(self._hand_record(finished=False))
        if self._writer is not None:
            self._writer.close()
        self.closed = True
        self.deadline = None
        self._notify(Change("closed"))

    # ---------------------------------------------------------------- listening
    def subscribe(self, callback: Callable[[Change], None]) -> Callable[[], None]:
        """Call ``callback(change)`` after every change; returns the function that stops it."""
        self._listeners.append(callback)

        def unsubscribe() -> None:
            if callback in self._listeners:
                self._listeners.remove(callback)

        return unsubscribe

    def _notify(self, change: Change) -> None:
        self.version += 1
        for callback in list(self._listeners):
            callback(change)

    # ------------------------------------------------------------------ engine
    def _agent_choice(self, seat: int) -> tuple[int, dict[str, float]]:
        """The agent's action at ``seat`` and the probability it gave each legal action."""
        e = self.engine
        side, observation = self.vectors.of(self.policies[seat], seat)
        mask = e.action_mask()
        index = int(side.act(observation, mask))
        names = e.layout.names
        legal = e.legal_actions()
        if isinstance(side, RandomAgent):
            return index, {names[a]: 1.0 / len(legal) for a in legal}
        logits = getattr(side, "logits", None)
        if callable(logits):
            values = np.asarray(logits(observation), dtype=np.float64)[legal]
            weights = np.exp(values - values.max())
            probs = weights / weights.sum()
            return index, {names[a]: float(p) for a, p in zip(legal, probs)}
        return index, {names[a]: 1.0 if a == index else 0.0 for a in legal}

    def _begin_hand_record(self) -> None:
        e = self.engine
        self._hand_no = e.hands_played
        self._hand_refs: tuple[list[list[Hand]], Hand] = (e.hands, e.bank_hand)
        self._start_chips = list(e.hand_start_chips)
        starts = [i for i, ev in enumerate(e.events) if ev[0] == "hand"]
        self._hand_event = starts[-1] if starts else len(e.events)
        self.decisions = []

    def _step(self, index: int, how: str, probabilities: dict[str, float] | None = None
              ) -> None:
        e = self.engine
        decision = Decision(e.actor, e.layout.names[index], how, probabilities)
        self._hand_refs = (e.hands, e.bank_hand)  # the lists a settling step replaces
        self.deadline = None
        e.step(index)
        self.decisions.append(decision)
        self._notify(Change("action", decision))
        if e.hands_played != self._hand_no:
            self._finish_hand()

    def _finish_hand(self) -> None:
        e = self.engine
        events = e.events[self._hand_event:]  # an auction for the first bank comes first
        starts = [i for i, ev in enumerate(events) if ev[0] == "hand"]
        events = events[starts[0]:starts[1] if len(starts) > 1 else None]
        hands, bank_hand = self._hand_refs
        lines = tuple(settlement_lines(events, hands, bank_hand, self._start_chips))
        settled = [ev for ev in events if ev[0] == "chips"]
        self._settled = (list(settled[-1][1]), int(settled[-1][2]))  # stacks, jackpot
        if self._writer is not None:
            self._writer.write(self._hand_record(finished=True, lines=lines))
        self.last_settlement = lines
        self.settlements.append(lines)
        self.hand_decisions.append(tuple(self.decisions))
        self._begin_hand_record()
        self._notify(Change("hand_over", settlement=lines))
        if e.over:
            if self._writer is not None:
                self._writer.close()
            self._notify(Change("over"))

    def _hand_record(self, finished: bool, lines: Sequence[SettlementLine] = ()
                     ) -> dict[str, Any]:
        e = self.engine
        return {"format": FORMAT, "table": self._table, "hand": self._hand_no + 1,
                "bank": self._hand_refs[1].seat,
                "actions": [[d.seat, d.name, d.how] for d in self.decisions],
                "chips": self._settled[0] if finished else list(e.chips),
                "jackpot": self._settled[1] if finished else e.jackpot, "finished": finished,
                "settlement": [line.to_dict() for line in lines]}

    def _settle_turn(self) -> None:
        """After a change: agents play on (``auto_agents``), then the human's timer starts."""
        if self.auto_agents:
            self.advance()
        else:
            self._start_timer()

    def _start_timer(self) -> None:
        if self.over or self.engine.actor not in self.humans:
            self.deadline = None
            return
        if self.deadline is not None:
            return
        timeout = self.bet_timeout if self.engine.phase == BET else self.act_timeout
        self.deadline = None if timeout is None else self.clock() + timeout

    def phase_name(self) -> str:
        """The engine's phase, by name (``bet``, ``play``, ``bank``, …)."""
        return PHASE_NAMES[self.engine.phase]
