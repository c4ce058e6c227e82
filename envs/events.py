"""The event log's schema: one typed definition per kind of event the engine logs.

:class:`envs.engine.Engine` appends one event to ``engine.events`` for
everything that happens at the table. At run time an event is a **plain
tuple** whose first item is its kind, ``("card", seat, card, face_up,
hand_index, unseen)``; building a named tuple on every step would slow the
engine down. The classes below are that tuple's schema: they name its fields in
order, give their types, and say what the event records and who at the table
may know it (RULES.md sections). A reader off the hot path turns a logged
tuple into its class with :func:`typed` and reads fields by name::

    >>> from envs.events import typed
    >>> event = typed(("bet", 1, 20, 0))
    >>> event.seat, event.amount, event.hand_index
    (1, 20, 0)
    >>> event == ("bet", 1, 20, 0)
    True

A typed event is still equal to its plain tuple, so logs, transcripts and
golden files compare as before. A hot-path reader (the observer) annotates a
handler's parameter with the class (``event: CardEvent``) and receives the
plain tuple unchanged.

Cards are card ids (:mod:`envs.cards`, ``card_name`` gives ``7o``); totals are
in half points; ``hand_index`` counts a seat's hands from 0 (more than one
only after a split, §6); chip amounts are whole chips.

==================  ==================  =============================================
kind                class               fields after ``kind``
==================  ==================  =============================================
``reset``           ResetEvent          seed, deck, bank, chips
``shuffle``         ShuffleEvent        pile_size
``high_card``       HighCardEvent       seat, card
``bid``             BidEvent            seat, amount
``first_bank``      FirstBankEvent      seat, reason
``hand``            HandEvent           number, bank, streak, order
``ante``            AnteEvent           seat, amount
``card``            CardEvent           seat, card, face_up, hand_index, unseen
``reveal``          RevealEvent         seat, card, hand_index, unseen
``discarded``       DiscardedEvent      seat, card, reason
``four_back``       FourBackEvent       seat, card
``action``          ActionEvent         seat, name
``status``          StatusEvent         seat, status, hand_index
``bet``             BetEvent            seat, amount, hand_index
``raise``           RaiseEvent          seat, amount, bet, hand_index
``double``          DoubleEvent         seat, bet, hand_index
``split``           SplitEvent          seat, card, hand_index, new_hand_index, face_up, unseen
``special``         SpecialEvent        seat, name, hand_index
``decline_mort``    DeclineMortEvent    seat
``side_bet``        SideBetEvent        seat, target, stake
``bust``            BustEvent           seat, total, lost
``lose``            LoseEvent           seat, stake, hand_index
``side_lose``       SideLoseEvent       seat, stake, target
``win``             WinEvent            seat, paid, owed, hand_index
``side_win``        SideWinEvent        seat, paid, owed, target
``jackpot``         JackpotEvent        seat, amount
``chips``           ChipsEvent          chips, jackpot
``forced_take``     ForcedTakeEvent     seat
``sell``            SellEvent           seat, buyer
``bank``            BankEvent           seat, reason
``over``            OverEvent           hands
==================  ==================  =============================================

``tests/test_events.py`` holds this table to the classes and every logged
event of seeded play to its class.
"""

from __future__ import annotations

from typing import Final, Literal, NamedTuple, Union


class ResetEvent(NamedTuple):
    """The first event of every log: how ``Engine.reset`` was called.

    ``seed`` is the seed actually used (drawn when none was given); ``deck``
    the stacked cards by name, ``bank`` the given first bank and ``chips`` the
    given stacks, each ``None`` when not given. :func:`envs.engine.replay`
    rebuilds an engine from it. Nobody at the table knows it: the seed decides
    every shuffle (§3).
    """

    kind: Literal["reset"]
    seed: int
    deck: list[str] | None
    bank: int | None
    chips: list[int] | None


class ShuffleEvent(NamedTuple):
    """The draw pile was shuffled (RULES.md §3); ``pile_size`` cards are in it. Public.

    From here the count of seen cards starts again (with ``when_empty`` the
    face-up cards still in play count again as seen).
    """

    kind: Literal["shuffle"]
    pile_size: int


class HighCardEvent(NamedTuple):
    """``seat`` is dealt ``card`` face up to choose the first bank (§5 ``high_card``). Public."""

    kind: Literal["high_card"]
    seat: int
    card: int


class BidEvent(NamedTuple):
    """``seat`` bids ``amount`` to each other seat for the first bank (§5 ``bank_sale``).

    Public.
    """

    kind: Literal["bid"]
    seat: int
    amount: int


class FirstBankEvent(NamedTuple):
    """``seat`` holds the first bank (§5), and why: given, random, high card, bought. Public."""

    kind: Literal["first_bank"]
    seat: int
    reason: str


class HandEvent(NamedTuple):
    """Hand ``number`` (from 1) begins. Public (§2, §4).

    ``bank`` holds the bank for the ``streak``-th hand in a row (§5
    ``max_bank_hands``); ``order`` is the players dealt in, in turn order from
    the seat after the bank (§2); a seat not in it sits the hand out.
    """

    kind: Literal["hand"]
    number: int
    bank: int
    streak: int
    order: tuple[int, ...]


class AnteEvent(NamedTuple):
    """``seat`` pays ``amount`` into the jackpot at the start of the hand (§4.9). Public."""

    kind: Literal["ante"]
    seat: int
    amount: int


class CardEvent(NamedTuple):
    """``seat``'s hand ``hand_index`` is dealt ``card`` (§4.1, §4.3).

    That a card was dealt, and whether face up, is public. A face-up card is
    known to all. A face-down card is known to its owner only (§4.1), except
    the bank's, which nobody sees before the bank's turn (§4.6), and an
    ``unseen`` one (Mort, fusilar, secret three, §6), which nobody sees until
    it is revealed.
    """

    kind: Literal["card"]
    seat: int
    card: int
    face_up: bool
    hand_index: int
    unseen: bool


class RevealEvent(NamedTuple):
    """A face-down ``card`` of ``seat``'s hand ``hand_index`` is turned face up. Public.

    A hand is shown when it busts (§4.4), is declared 7½ (§4.5), at the bank's
    turn (§4.6), at settlement, or when the player turns it before a hit
    (§4.3 ``player_choice``). ``unseen``: nobody knew the card until now (§6).
    """

    kind: Literal["reveal"]
    seat: int
    card: int
    hand_index: int
    unseen: bool


class DiscardedEvent(NamedTuple):
    """``seat``'s first card is shown and thrown onto the discard pile, and why. Public.

    RULES.md §6: ``change_four`` forced (a 4) and ``secret_three`` (a 3).
    """

    kind: Literal["discarded"]
    seat: int
    card: int
    reason: str


class FourBackEvent(NamedTuple):
    """``seat``'s first card, a 4, is shown and put back into the draw pile. Public.

    RULES.md §6 ``change_four`` optional; the card goes back into the middle
    of the pile, so it does not count as seen.
    """

    kind: Literal["four_back"]
    seat: int
    card: int


class ActionEvent(NamedTuple):
    """``seat`` took the action ``name`` (its name in the action layout). Public.

    The decisions of a hand (RULES.md §4), of the bank (§5) and of the house
    rules (§6).
    """

    kind: Literal["action"]
    seat: int
    name: str


class StatusEvent(NamedTuple):
    """``seat``'s hand ``hand_index`` is now in ``status`` (``envs.hands.STATUS_NAMES``). Public.

    Waiting for its turn, playing, stood, bust (§4.4) or declared 7½ (§4.5);
    it is also the seat's current hand from now on.
    """

    kind: Literal["status"]
    seat: int
    status: int
    hand_index: int


class BetEvent(NamedTuple):
    """``seat`` stakes ``amount`` on its hand ``hand_index`` (§2). Public.

    A split's second stake is logged as a bet on the new hand (§6).
    """

    kind: Literal["bet"]
    seat: int
    amount: int
    hand_index: int


class RaiseEvent(NamedTuple):
    """``seat`` raises by ``amount``; the stake of hand ``hand_index`` is now ``bet``. Public.

    RULES.md §2 ``bet_raise``.
    """

    kind: Literal["raise"]
    seat: int
    amount: int
    bet: int
    hand_index: int


class DoubleEvent(NamedTuple):
    """``seat`` doubles: the stake of hand ``hand_index`` is now ``bet``. Public.

    RULES.md §6 ``double``.
    """

    kind: Literal["double"]
    seat: int
    bet: int
    hand_index: int


class SplitEvent(NamedTuple):
    """``seat`` splits: ``card`` moves from hand ``hand_index`` to the new ``new_hand_index``.

    RULES.md §6 ``split_rule``. Public; the moved card keeps its ``face_up``
    and ``unseen`` flags, so what each seat knows of it does not change.
    """

    kind: Literal["split"]
    seat: int
    card: int
    hand_index: int
    new_hand_index: int
    face_up: bool
    unseen: bool


class SpecialEvent(NamedTuple):
    """``seat``'s hand ``hand_index`` is a special hand ``name``. Public.

    ``pair_of_sevens`` and ``triple`` (§4.8, shown once made), ``mort`` and
    ``fusilar`` (§6, the player's choice). The bank's hand has index 0.
    """

    kind: Literal["special"]
    seat: int
    name: str
    hand_index: int


class DeclineMortEvent(NamedTuple):
    """``seat`` declines the Mort and plays on with its 7 (§6 ``mort``). Public."""

    kind: Literal["decline_mort"]
    seat: int


class SideBetEvent(NamedTuple):
    """``seat`` stakes ``stake`` on the hand of seat ``target`` (§6 ``side_bets``). Public."""

    kind: Literal["side_bet"]
    seat: int
    target: int
    stake: int


class BustEvent(NamedTuple):
    """``seat``'s hand busts with ``total``, shown; ``lost`` chips go to the bank at once. Public.

    RULES.md §4.4: ``lost`` is the stake and the side bets on the hand; a bank
    that busts loses nothing here (``lost`` 0), it pays at settlement (§4.7).
    """

    kind: Literal["bust"]
    seat: int
    total: int
    lost: int


class LoseEvent(NamedTuple):
    """At settlement ``seat`` loses its ``stake`` on hand ``hand_index`` (§4.7). Public."""

    kind: Literal["lose"]
    seat: int
    stake: int
    hand_index: int


class SideLoseEvent(NamedTuple):
    """``seat`` loses its side bet ``stake`` on seat ``target``'s hand (§6 side bets). Public."""

    kind: Literal["side_lose"]
    seat: int
    stake: int
    target: int


class WinEvent(NamedTuple):
    """``seat``'s hand ``hand_index`` wins: ``paid`` chips of the ``owed`` (§4.7, §4.8). Public.

    ``owed`` is the payout multiple times the stake; ``paid`` is less only when
    the bank runs out of chips (coverage, §4.8). The stake comes back as well.
    """

    kind: Literal["win"]
    seat: int
    paid: int
    owed: int
    hand_index: int


class SideWinEvent(NamedTuple):
    """``seat``'s side bet on seat ``target``'s hand wins ``paid`` of ``owed``. Public.

    RULES.md §6 side bets, paid as the hand is, with coverage (§4.8).
    """

    kind: Literal["side_win"]
    seat: int
    paid: int
    owed: int
    target: int


class JackpotEvent(NamedTuple):
    """``seat`` takes the jackpot of ``amount`` with a natural (§4.9). Public."""

    kind: Literal["jackpot"]
    seat: int
    amount: int


class ChipsEvent(NamedTuple):
    """The hand is settled: every seat's ``chips`` and the ``jackpot`` left. Public.

    RULES.md §4.7 to §4.9.
    """

    kind: Literal["chips"]
    chips: list[int]
    jackpot: int


class ForcedTakeEvent(NamedTuple):
    """``seat`` refused the bank before and must take it now (§5 ``offer``). Public."""

    kind: Literal["forced_take"]
    seat: int


class SellEvent(NamedTuple):
    """The bank, ``seat``, offers the bank to the next seat, ``buyer``. Public.

    RULES.md §5 ``bank_sale``.
    """

    kind: Literal["sell"]
    seat: int
    buyer: int


class BankEvent(NamedTuple):
    """The bank passes to ``seat`` from the next hand, and why (§5). Public."""

    kind: Literal["bank"]
    seat: int
    reason: str


class OverEvent(NamedTuple):
    """The episode is over after ``hands`` hands (§2). Public."""

    kind: Literal["over"]
    hands: int


Event = Union[ResetEvent, ShuffleEvent, HighCardEvent, BidEvent, FirstBankEvent, HandEvent,
              AnteEvent, CardEvent, RevealEvent, DiscardedEvent, FourBackEvent, ActionEvent,
              StatusEvent, BetEvent, RaiseEvent, DoubleEvent, SplitEvent, SpecialEvent,
              DeclineMortEvent, SideBetEvent, BustEvent, LoseEvent, SideLoseEvent, WinEvent,
              SideWinEvent, JackpotEvent, ChipsEvent, ForcedTakeEvent, SellEvent, BankEvent,
              OverEvent]
"""Any typed event."""

EVENT_TYPES: Final[dict[str, type[Event]]] = {
    "reset": ResetEvent,
    "shuffle": ShuffleEvent,
    "high_card": HighCardEvent,
    "bid": BidEvent,
    "first_bank": FirstBankEvent,
    "hand": HandEvent,
    "ante": AnteEvent,
    "card": CardEvent,
    "reveal": RevealEvent,
    "discarded": DiscardedEvent,
    "four_back": FourBackEvent,
    "action": ActionEvent,
    "status": StatusEvent,
    "bet": BetEvent,
    "raise": RaiseEvent,
    "double": DoubleEvent,
    "split": SplitEvent,
    "special": SpecialEvent,
    "decline_mort": DeclineMortEvent,
    "side_bet": SideBetEvent,
    "bust": BustEvent,
    "lose": LoseEvent,
    "side_lose": SideLoseEvent,
    "win": WinEvent,
    "side_win": SideWinEvent,
    "jackpot": JackpotEvent,
    "chips": ChipsEvent,
    "forced_take": ForcedTakeEvent,
    "sell": SellEvent,
    "bank": BankEvent,
    "over": OverEvent,
}
"""Each event kind and its class, in the order of the module's table."""


def typed(event: tuple) -> Event:
    """The logged plain tuple ``event`` as its event class (equal to it, fields by name).

    A ``ValueError`` names an unknown kind (with the known ones) or a tuple of
    the wrong length (with the fields its kind has).
    """
    kind = event[0] if event else None
    cls = EVENT_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise ValueError(f"unknown event kind {kind!r} in {event!r}; "
                         f"known kinds: {', '.join(EVENT_TYPES)}")
    if len(event) != len(cls._fields):
        raise ValueError(f"a {kind!r} event has {len(cls._fields)} items "
                         f"({', '.join(cls._fields)}), not {len(event)}: {event!r}")
    return cls._make(event)
