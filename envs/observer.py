"""What one seat may see, as a flat float32 vector with named slices.

"Who sees what" (RULES.md §4, §6) lives here and only here:

* a seat sees all its own cards, including its face-down ones — except the
  cards nobody sees: a Mort or fusilar card and a secret pair (§6), shown
  only once the bank has finished; the bank does not see its own face-down
  card until its turn (§4.1, CAT);
* of every other hand it sees the face-up cards and how many are face down;
* the bank's cards are face down until the bank's turn (§4.6);
* a bust, declared or special hand is shown (§4.4, §4.5, §4.8), and every
  hand is shown at settlement, so the discard pile holds only seen cards.

Seats are ordered **relative to the observer**: block 0 is the observer,
block 1 the next seat in turn order, and so on. A policy therefore reads
"me", "the seat after me", … whatever its seat number. A seat's *current
hand* is the one it is playing, or the one it played last (split hands are
played one after the other).

The layout — every field, its size, scope, unit and bounds, and which fields
a new hand wipes — is the schema table of :mod:`envs.observation`, whose
:class:`~envs.observation.ObservationReader` decodes what this module encodes.
This module derives its offsets from that table at import.

Every kind of event (:mod:`envs.events`) is either read by a handler here
(:data:`OBSERVED_KINDS`) or named in :data:`UNOBSERVED_KINDS` with the
reason it changes nothing a seat sees; ``tests/test_events.py`` holds every
kind to one of the two.
"""

from __future__ import annotations

from array import array
from typing import Any, Final, cast

import numpy as np

from envs import observation as _schema
from envs.cards import HALF_POINTS as _HALF
from envs.cards import NUM_RANKS, get_state, set_state
from envs.engine import AUCTION, OVER, WAITING, Engine, as_index
from envs.events import (BankEvent, BetEvent, CardEvent, DiscardedEvent, DoubleEvent,
                         FirstBankEvent, FourBackEvent, HandEvent, OverEvent, RaiseEvent,
                         RevealEvent, ShuffleEvent, SideBetEvent, SplitEvent, StatusEvent)
from envs.hands import best_total
from envs.observation import (GLOBAL_FIELDS, SEAT_FIELDS, TOTAL_SCALE, observation_bounds,
                              observation_size, observation_slices, unit_scale)

__all__ = ["GLOBAL_SIZE", "OBSERVED_KINDS", "SEAT_BLOCK", "SEAT_FIELDS", "UNOBSERVED_KINDS",
           "Observer", "observation_bounds", "observation_size", "observation_slices",
           "reference_observation"]

# Offsets used by the hot path, derived from the schema (Final: C constants in the
# compiled core, envs._native).
SEAT_BLOCK: Final[int] = _schema.SEAT_BLOCK
GLOBAL_SIZE: Final[int] = _schema.GLOBAL_SIZE
_OWN_START: Final[int] = _schema.OWN_START
_OWN_SIZE: Final[int] = GLOBAL_SIZE - _OWN_START
_PHASE: Final[int] = GLOBAL_FIELDS["phase"].start
_JACKPOT: Final[int] = GLOBAL_FIELDS["jackpot"].start
_SHOE: Final[int] = GLOBAL_FIELDS["shoe_left"].start
_SEEN: Final[int] = GLOBAL_FIELDS["seen_ranks"].start
_HANDS: Final[int] = GLOBAL_FIELDS["hands_played"].start
_OWN_HIDDEN: Final[int] = GLOBAL_FIELDS["own_hidden"].start
_OWN_TOTAL: Final[int] = GLOBAL_FIELDS["own_total"].start
_OWN_HIDDEN_AT: Final[int] = _OWN_HIDDEN - _OWN_START
"""The same fields within the observer's own part."""
_OWN_TOTAL_AT: Final[int] = _OWN_TOTAL - _OWN_START
_IS_BANK: Final[int] = SEAT_FIELDS["is_bank"].start
_STREAK: Final[int] = SEAT_FIELDS["bank_streak"].start
_OUT: Final[int] = SEAT_FIELDS["sitting_out"].start
_ACTING: Final[int] = SEAT_FIELDS["acting"].start
_CHIPS: Final[int] = SEAT_FIELDS["chips"].start
_BET: Final[int] = SEAT_FIELDS["bet"].start
_STATUS: Final[int] = SEAT_FIELDS["status"].start
_UP: Final[int] = SEAT_FIELDS["up_ranks"].start
_HIDDEN: Final[int] = SEAT_FIELDS["hidden"].start
_UP_TOTAL: Final[int] = SEAT_FIELDS["up_total"].start
_REFUSED: Final[int] = SEAT_FIELDS["refused"].start
_NUM_HANDS: Final[int] = SEAT_FIELDS["hands"].start
_DOUBLED: Final[int] = SEAT_FIELDS["doubled"].start
_UNSEEN: Final[int] = SEAT_FIELDS["unseen"].start
_WILD: Final[int] = SEAT_FIELDS["wild_value"].start
_SIDE: Final[int] = SEAT_FIELDS["side_stake"].start


class _HandView:
    """What the observer tracks of one hand: face-up and known cards, stake."""

    __slots__ = ("up_base", "up_wilds", "known_base", "known_wilds", "hidden", "bet",
                 "doubled")

    def __init__(self) -> None:
        self.up_base = self.up_wilds = self.known_base = self.known_wilds = 0
        self.hidden = 0
        self.bet = 0
        self.doubled = False

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle as (class, constructor arguments, attributes): see envs.cards.get_state."""
        return (_HandView, (), get_state(self))

    def __setstate__(self, state: dict[str, Any]) -> None:
        set_state(self, state)


class Observer:
    """Builds the observation vector of any seat from an engine's state.

    The observation is a function of the engine's event log (what was dealt,
    face up or down, statuses, bets, splits, who holds the bank) plus the
    chips, the acting seat and the refusals, which are compared with their
    last values. Each call reads only the events logged since the previous
    call, so a step costs a few updates whatever the table size. The numbers
    live in float32 ``array.array`` buffers, whose element updates cost a
    fraction of numpy's and which numpy wraps without converting.
    :func:`reference_observation` is the plain definition the tests hold this
    fast path to. Each event handler takes its kind's :mod:`envs.events`
    class, so the type checker holds its unpacking to the schema; the event
    itself stays the plain logged tuple, unpacked by position. Compiled
    (:mod:`envs._native`), the unpacked fields are then C integers.
    """

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        n = engine.num_seats
        self.size = observation_size(n)
        r = engine.rules
        self._wild = engine.wild
        self._chips_scale = 1.0 / unit_scale("chips", r)
        self._bet_scale = 1.0 / unit_scale("stake", r)
        self._seen_scale = 1.0 / unit_scale("rank share", r)
        self._shoe_scale = 1.0 / unit_scale("shoe", r)
        self._events: list | None = None
        self._cursor = 0

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle as (class, constructor arguments, attributes): see envs.cards.get_state."""
        return (Observer, (self.engine,), get_state(self))

    def __setstate__(self, state: dict[str, Any]) -> None:
        set_state(self, state)

    # -------------------------------------------------------------- events
    def _restart(self) -> None:
        """Forget everything and read the engine's log from its start."""
        n = self.engine.num_seats
        self._events = self.engine.events
        self._cursor = 0
        self._public = array("f", bytes(4 * _OWN_START))
        self._own = [array("f", bytes(4 * _OWN_SIZE)) for _ in range(n)]  # per seat
        self._table = array("f", bytes(4 * n * SEAT_BLOCK))
        self._hands: list[list[_HandView]] = [[] for _ in range(n)]
        self._current = [0] * n
        self._status = [-1] * n  # the status set in each seat's one-hot, -1: none
        self._side = [0] * n
        self._hand_bank = -1
        self._bank = -1
        self._phase = -1
        self._actor = -1
        self._jackpot = -1
        self._left = -1
        self._played = -1
        self._chips: list[int] = []
        self._refused: list[bool] = []
        self._seen_stale = False
        self._dirty: set[int] = set()

    def _refresh(self, seat: int) -> None:
        """Rewrite a seat's per-hand numbers: stakes, current hand's totals."""
        hands = self._hands[seat]
        if not hands:
            return
        table = self._table
        base = seat * SEAT_BLOCK
        view = hands[self._current[seat]]
        if len(hands) == 1:
            table[base + _BET] = view.bet * self._bet_scale
        else:
            table[base + _BET] = sum(h.bet for h in hands) * self._bet_scale
            table[base + _NUM_HANDS] = float(len(hands))
        table[base + _DOUBLED] = float(view.doubled)
        if view.up_wilds:
            up_total = best_total(view.up_base, view.up_wilds)
            table[base + _UP_TOTAL] = up_total / TOTAL_SCALE
            table[base + _WILD] = 0.0 if view.hidden else \
                (up_total - view.up_base) / TOTAL_SCALE
        else:
            table[base + _UP_TOTAL] = view.up_base / TOTAL_SCALE
            table[base + _WILD] = 0.0

    def _add_card(self, seat: int, view: _HandView, card: int, up: bool, unseen: bool,
                  sign: int) -> None:
        """Count (sign +1) or uncount (-1) one card of a hand in every total."""
        table = self._table
        base = seat * SEAT_BLOCK
        wild = card == self._wild
        rank = card % NUM_RANKS
        known = up or (not unseen and seat != self._hand_bank)
        if up:
            table[base + _UP + rank] += sign
            if wild:
                view.up_wilds += sign
            else:
                view.up_base += sign * _HALF[card]
        else:
            view.hidden += sign
            table[base + _HIDDEN] += sign
            if unseen:
                table[base + _UNSEEN] += sign
            elif seat != self._hand_bank:
                self._own[seat][_OWN_HIDDEN_AT + rank] += sign
        if known:
            if wild:
                view.known_wilds += sign
            else:
                view.known_base += sign * _HALF[card]

    def _view(self, seat: int, index: int) -> _HandView:
        hands = self._hands[seat]
        while len(hands) <= index:
            hands.append(_HandView())
        return hands[index]

    def _on_card(self, event: CardEvent) -> None:
        _, seat, card, up, index, unseen = event
        hands = self._hands[seat]
        view = hands[index] if index < len(hands) else self._view(seat, index)
        self._add_card(seat, view, card, up, unseen, 1)
        if up:
            self._public[_SEEN + card % NUM_RANKS] += self._seen_scale
        self._dirty.add(seat)

    def _on_reveal(self, event: RevealEvent) -> None:
        _, seat, card, index, unseen = event
        view = self._view(seat, index)
        self._add_card(seat, view, card, False, unseen, -1)
        self._add_card(seat, view, card, True, False, 1)
        self._public[_SEEN + card % NUM_RANKS] += self._seen_scale
        self._dirty.add(seat)

    def _on_split(self, event: SplitEvent) -> None:
        _, seat, card, source, target, up, unseen = event
        hands = self._hands[seat]
        self._add_card(seat, hands[source], card, up, unseen, -1)
        hands.insert(target, _HandView())
        self._add_card(seat, hands[target], card, up, unseen, 1)
        self._dirty.add(seat)

    def _on_discarded(self, event: DiscardedEvent) -> None:
        """An initial card dealt face down, shown and thrown away (§6)."""
        _, seat, card, _reason = event
        self._add_card(seat, self._view(seat, 0), card, False, False, -1)
        self._public[_SEEN + card % NUM_RANKS] += self._seen_scale
        self._dirty.add(seat)

    def _on_four_back(self, event: FourBackEvent) -> None:
        """An initial 4 shown and put back into the draw pile (§6 change_four)."""
        _, seat, card = event
        self._add_card(seat, self._view(seat, 0), card, False, False, -1)
        self._dirty.add(seat)

    def _on_status(self, event: StatusEvent) -> None:
        _, seat, status, index = event
        old = self._status[seat]
        if old != status:
            base = seat * SEAT_BLOCK + _STATUS
            if old >= 0:
                self._table[base + old] = 0.0
            self._table[base + status] = 1.0
            self._status[seat] = status
        if index != self._current[seat] or index >= len(self._hands[seat]):
            self._current[seat] = index  # another hand is now the seat's current one
            self._view(seat, index)
            self._dirty.add(seat)

    def _on_bet(self, event: BetEvent) -> None:
        _, seat, amount, index = event
        self._view(seat, index).bet = amount
        self._dirty.add(seat)

    def _on_raise(self, event: RaiseEvent) -> None:
        _, seat, _amount, total, index = event
        self._view(seat, index).bet = total
        self._dirty.add(seat)

    def _on_double(self, event: DoubleEvent) -> None:
        _, seat, total, index = event
        view = self._view(seat, index)
        view.bet = total
        view.doubled = True
        self._dirty.add(seat)

    def _on_side_bet(self, event: SideBetEvent) -> None:
        _, bettor, _target, stake = event
        self._side[bettor] += stake
        self._table[bettor * SEAT_BLOCK + _SIDE] = self._side[bettor] * self._bet_scale

    def _on_shuffle(self, event: ShuffleEvent) -> None:
        # The count restarts; with when_empty the engine re-counts the face-up
        # cards still in play, so take its numbers once the batch is read.
        self._seen_stale = True

    def _set_bank(self, bank: int, streak: int) -> None:
        table = self._table
        if self._bank >= 0:
            table[self._bank * SEAT_BLOCK + _IS_BANK] = 0.0
            table[self._bank * SEAT_BLOCK + _STREAK] = 0.0
        table[bank * SEAT_BLOCK + _IS_BANK] = 1.0
        table[bank * SEAT_BLOCK + _STREAK] = float(streak)
        self._bank = bank

    def _on_bank(self, event: BankEvent | FirstBankEvent) -> None:
        self._set_bank(event[1], 0)

    def _clear_hands(self, playing: tuple[int, ...]) -> None:
        """A new hand (or the end): no cards, no bets; ``playing`` seats wait."""
        table = self._table
        n = len(self._own)
        hands: list[list[_HandView]] = []
        for seat in range(n):
            base = seat * SEAT_BLOCK
            in_hand = seat in playing
            for start, stop, dealt, empty in _SEAT_WIPES:
                table[base + start:base + stop] = dealt if in_hand else empty
            table[base + _OUT] = 0.0 if in_hand or seat == self._bank else 1.0
            self._own[seat][:] = _OWN_WIPE
            self._status[seat] = WAITING if in_hand else -1
            hands.append([_HandView()] if in_hand else [])
        self._hands = hands
        self._current = [0] * n
        self._side = [0] * n

    def _on_hand(self, event: HandEvent) -> None:
        _, _, bank, streak, order = event
        self._set_bank(bank, streak)
        self._hand_bank = bank
        self._clear_hands(order + (bank,))

    def _on_over(self, event: OverEvent) -> None:
        self._hand_bank = -1
        self._clear_hands(())

    def _apply(self, event: tuple) -> None:
        """Dispatch one event; the most frequent kinds are tested first."""
        kind: str = event[0]
        if kind == "action":
            return
        if kind == "status":
            self._on_status(cast(StatusEvent, event))
        elif kind == "card":
            self._on_card(cast(CardEvent, event))
        elif kind == "reveal":
            self._on_reveal(cast(RevealEvent, event))
        elif kind == "bet":
            self._on_bet(cast(BetEvent, event))
        elif kind == "hand":
            self._on_hand(cast(HandEvent, event))
        elif kind == "bank" or kind == "first_bank":
            self._on_bank(cast(BankEvent, event))  # first_bank: the same fields
        elif kind == "shuffle":
            self._on_shuffle(cast(ShuffleEvent, event))
        elif kind == "raise":
            self._on_raise(cast(RaiseEvent, event))
        elif kind == "double":
            self._on_double(cast(DoubleEvent, event))
        elif kind == "split":
            self._on_split(cast(SplitEvent, event))
        elif kind == "discarded":
            self._on_discarded(cast(DiscardedEvent, event))
        elif kind == "four_back":
            self._on_four_back(cast(FourBackEvent, event))
        elif kind == "side_bet":
            self._on_side_bet(cast(SideBetEvent, event))
        elif kind == "over":
            self._on_over(cast(OverEvent, event))

    def _read_events(self) -> None:
        """Apply the events logged since the last call."""
        events = self.engine.events
        if events is not self._events or len(events) < self._cursor:
            self._restart()
        cursor = self._cursor
        if cursor == len(events):
            return
        end = len(events)
        for i in range(cursor, end):
            self._apply(events[i])
        self._cursor = end
        if self._dirty:
            for seat in self._dirty:
                self._refresh(seat)
            self._dirty.clear()
        if self._seen_stale:
            scale = self._seen_scale
            self._public[_SEEN:_SEEN + NUM_RANKS] = array(
                "f", [count * scale for count in self.engine.seen])
            self._seen_stale = False

    # ------------------------------------------------------------- observe
    def observe(self, seat: object) -> np.ndarray:
        """The observation vector of ``seat``: exactly what that seat may see.

        ``seat`` is an integer in ``0..num_seats - 1`` (read by
        :func:`envs.engine.as_index`: a numpy integer too, never a float or a
        bool); anything else is refused by name, compiled or pure.
        """
        index = seat if type(seat) is int else as_index(seat)
        if not 0 <= index < self.engine.num_seats:
            raise ValueError(f"seat {seat!r} is not a seat at this table; seats are the "
                             f"integers 0..{self.engine.num_seats - 1}")
        return self._observe(index)

    def _observe(self, seat: int) -> np.ndarray:
        e = self.engine
        self._read_events()
        table = self._table
        if e.actor != self._actor:
            if self._actor >= 0:
                table[self._actor * SEAT_BLOCK + _ACTING] = 0.0
            if e.actor >= 0:
                table[e.actor * SEAT_BLOCK + _ACTING] = 1.0
            self._actor = e.actor
        if e.chips != self._chips:
            self._chips = list(e.chips)
            scale = self._chips_scale
            for i, chips in enumerate(self._chips):
                table[i * SEAT_BLOCK + _CHIPS] = chips * scale
        if e.refused != self._refused:
            self._refused = list(e.refused)
            for i, refused in enumerate(self._refused):
                table[i * SEAT_BLOCK + _REFUSED] = float(refused)
        public = self._public
        if e.phase != self._phase:
            if self._phase >= 0:
                public[_PHASE + self._phase] = 0.0
            public[_PHASE + e.phase] = 1.0
            self._phase = e.phase
        jackpot = e.jackpot
        if jackpot != self._jackpot:
            public[_JACKPOT] = jackpot * self._chips_scale
            self._jackpot = jackpot
        left = len(e.draw_pile)
        if left != self._left:
            public[_SHOE] = left * self._shoe_scale
            self._left = left
        played = e.hands_played
        if played != self._played:
            if e.max_hands:
                public[_HANDS] = played / e.max_hands
            self._played = played
        own = self._own[seat]
        own[_OWN_TOTAL_AT] = self._known_total(seat) / TOTAL_SCALE
        buffer = public + own
        if seat:
            split = seat * SEAT_BLOCK
            buffer += table[split:]
            buffer += table[:split]
        else:
            buffer += table
        return _FROMBUFFER(buffer, _FLOAT32)

    def own_total(self, seat: int) -> int:
        """The best total of the cards ``seat`` knows in its current hand, in half points.

        The ``own_total`` entry of its observation (times 15), without building
        the vector.
        """
        self._read_events()
        return self._known_total(seat)

    def _known_total(self, seat: int) -> int:
        hands = self._hands[seat]
        if not hands:
            return 0
        view = hands[self._current[seat]]
        return best_total(view.known_base, view.known_wilds) if view.known_wilds \
            else view.known_base


OBSERVED_KINDS: Final[tuple[str, ...]] = (
    "status", "card", "reveal", "bet", "hand", "bank", "first_bank", "shuffle", "raise",
    "double", "split", "discarded", "four_back", "side_bet", "over")
"""The event kinds :meth:`Observer._apply` reads."""
UNOBSERVED_KINDS: Final[dict[str, str]] = {
    "reset": "a new game logs a new event list, which the observer reads from its start",
    "high_card": "the first-bank draw (§5): the first_bank event names the bank",
    "bid": "an auction bid (§5): no field shows bids; the chips are read from the engine",
    "ante": "the jackpot and the chips are read from the engine at each observation",
    "action": "a decision shows only through the events it causes (cards, bets, statuses)",
    "special": "a special hand (§4.8, §6) shows through its cards, unseen cards and status",
    "decline_mort": "the 7 plays on as an ordinary hand: nothing on the table changes",
    "bust": "the bust shows through its reveal and status events; chips from the engine",
    "lose": "settlement: the chips are read from the engine",
    "side_lose": "settlement: the chips are read from the engine",
    "win": "settlement: the chips are read from the engine",
    "side_win": "settlement: the chips are read from the engine",
    "jackpot": "the jackpot and the chips are read from the engine",
    "chips": "the chips and the jackpot are read from the engine",
    "forced_take": "the bank moves with the bank event; refusals are read from the engine",
    "sell": "an offer of the bank (§5): the phase and the acting seat come from the engine",
}
"""Event kinds the observer skips, each with why no seat's view changes."""

# Bound once: the compiled observe() then skips two attribute lookups a call.
_FROMBUFFER: Final = np.frombuffer
_FLOAT32: Final = np.dtype(np.float32)
_SEAT_WIPES: Final[tuple[tuple[int, int, array[float], array[float]], ...]] = tuple(
    [(start, stop, array("f", dealt), array("f", empty))
     for start, stop, dealt, empty in _schema.seat_wipes()])
"""The wiped runs of a seat block: (start, stop, values if dealt in, values if not)."""
_OWN_WIPE = array("f", _schema.own_wipe())
"""The observer's own part at a new hand."""


def reference_observation(engine: Engine, seat: int) -> np.ndarray:
    """The observation of ``seat``, computed from scratch from the engine's state.

    The plain definition of the observation; :class:`Observer` must agree
    with it after every step (the tests check this).
    """
    e = engine
    n = e.num_seats
    r = e.rules
    chips_scale, bet_scale = 1.0 / r.starting_chips, 1.0 / r.max_bet
    obs = [0.0] * observation_size(n)
    obs[_PHASE + e.phase] = 1.0
    obs[_JACKPOT] = e.jackpot * chips_scale
    obs[_SHOE] = len(e.draw_pile) / (40 * r.decks)
    for rank, count in enumerate(e.seen):
        obs[_SEEN + rank] = count / (4 * r.decks)
    if e.max_hands:
        obs[_HANDS] = e.hands_played / e.max_hands
    over = e.phase == OVER
    side = [0] * n
    for s in range(n):
        for hand in e.hands[s]:
            for bettor, stake in hand.side_bets:
                side[bettor] += stake
    for i in range(n):
        seat_i = (seat + i) % n
        base = GLOBAL_SIZE + i * SEAT_BLOCK
        is_bank = seat_i == e.bank
        if is_bank:
            obs[base + _IS_BANK] = 1.0
            obs[base + _STREAK] = float(e.bank_streak)
            hands = [e.bank_hand] if not over else []
        else:
            hands = e.hands[seat_i]
            if seat_i not in e.order and e.phase != AUCTION:
                obs[base + _OUT] = 1.0
        obs[base + _ACTING] = float(seat_i == e.actor)
        obs[base + _CHIPS] = e.chips[seat_i] * chips_scale
        obs[base + _REFUSED] = float(e.refused[seat_i])
        obs[base + _SIDE] = side[seat_i] * bet_scale
        if not hands:
            continue
        obs[base + _NUM_HANDS] = float(len(hands))
        for hand in hands:
            obs[base + _BET] += hand.bet * bet_scale
            for card, up, unseen in zip(hand.cards, hand.face_up, hand.unseen):
                if up:
                    obs[base + _UP + card % NUM_RANKS] += 1.0
                else:
                    obs[base + _HIDDEN] += 1.0
                    if unseen:
                        obs[base + _UNSEEN] += 1.0
                    elif i == 0 and not is_bank:
                        obs[_OWN_HIDDEN + card % NUM_RANKS] += 1.0
        current = hands[0] if is_bank else hands[e.current[seat_i]]
        obs[base + _STATUS + current.status] = 1.0
        obs[base + _DOUBLED] = float(current.doubled)
        up_cards = [c for c, up in zip(current.cards, current.face_up) if up]
        up_total = _score(up_cards, e.wild)
        obs[base + _UP_TOTAL] = up_total / TOTAL_SCALE
        if current.wilds and all(current.face_up):
            obs[base + _WILD] = current.wild_value / TOTAL_SCALE
        if i == 0:
            known = [c for c, up, unseen in zip(current.cards, current.face_up, current.unseen)
                     if up or (not unseen and not is_bank)]
            obs[_OWN_TOTAL] = _score(known, e.wild) / TOTAL_SCALE
    return np.array(obs, dtype=np.float32)


def _score(cards: list[int], wild: int) -> int:
    wilds = sum(1 for c in cards if c == wild)
    return best_total(sum(_HALF[c] for c in cards if c != wild), wilds)
