"""What one viewer may see of a table: the one source of the text render and the picture.

:func:`table_view` reads the engine and returns plain values; the text render
(:func:`envs.render.table_text`) and the picture (:mod:`envs.picture`) only lay
them out, so they cannot disagree with each other or with the rules:

* **Cards** (RULES.md §4): a card is shown if it is face up, or if it is the
  viewer's own face-down card that the viewer has seen. Nobody sees a card
  dealt unseen (Mort, fusilar, secret three, §6), and the bank does not see
  its own face-down card before its turn (§4.1, as in the observation,
  :mod:`envs.observer`). A spectator (``viewer=None``) sees face-up cards only.
* **Totals** are the engine's scoring (``Hand.total``, from
  :func:`envs.rulebook.score`: the matta at its best value, §1) when every
  card is shown. Beside a card the viewer
  cannot see, the total is the face value of the cards shown, marked as
  partial (``3 + ?``): the matta counts ½ there, since its value is chosen
  with the cards not shown — ``## Ro`` may make 7 or 7½, so "7 + ?" would
  claim more than the hand holds. A partial total never does.
* **Seats**: the bank seat is always named, also once the episode is over;
  a seat is "sitting out" only while a hand is on and it was not dealt in.
  Once the episode is over each seat shows what the last hand won or lost.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from envs.cards import card_name, format_half_points
from envs.engine import OVER, PHASE_NAMES, STATUS_NAMES, Engine, Hand
from envs.rulebook import score


@dataclass(frozen=True)
class HandShown:
    """One hand as the viewer sees it; ``cards`` holds ``None`` for a card back."""

    cards: tuple[str | None, ...]
    own_hidden: tuple[bool, ...]
    """For each card: face down, shown only because it is the viewer's own."""
    bet: int
    total: int
    """Half points: the hand's score, or, if ``partial``, the face value of the cards shown."""
    partial: bool
    """Some cards are not shown: ``total`` is the least the hand holds, not its score."""
    status: str

    @property
    def total_text(self) -> str:
        """The total as shown: ``6½``, ``3 + ?`` beside a card back, ``?`` if nothing shows.

        A shown matta beside a card back counts ½ (``## Ro`` reads ``½ + ?``):
        its value is chosen with the card not shown (RULES.md §1).
        """
        if self.partial and all(name is None for name in self.cards):
            return "?"
        return format_half_points(self.total) + (" + ?" if self.partial else "")


@dataclass(frozen=True)
class SeatShown:
    """One seat: its role, chips and hands (none between episodes or when out)."""

    seat: int
    is_bank: bool
    bank_streak: int
    """Hands in a row this seat has held the bank; 0 for a bank just passed on."""
    acting: bool
    is_viewer: bool
    chips: int
    sitting_out: bool
    hands: tuple[HandShown, ...]
    last_hand_net: int | None
    """Chips won (+) or lost (-) in the last hand, once the episode is over."""


@dataclass(frozen=True)
class TableShown:
    """The whole table for one viewer."""

    hand: int
    max_hands: int | None
    phase: str
    over: bool
    jackpot: int
    shoe: int
    discard: int
    seats: tuple[SeatShown, ...]


def _hand_shown(hand: Hand, viewer: int | None, bank: int, wild: int) -> HandShown:
    cards: list[str | None] = []
    own_hidden: list[bool] = []
    shown_cards: list[int] = []
    for card, up, unseen in zip(hand.cards, hand.face_up, hand.unseen):
        shown = up or (viewer == hand.seat and not unseen and hand.seat != bank)
        cards.append(card_name(card) if shown else None)
        own_hidden.append(shown and not up)
        if shown:
            shown_cards.append(card)
    partial = len(shown_cards) < len(hand.cards)
    # Beside a hidden card, face value: scored with no card wild, the matta is a figure, ½.
    total = score(shown_cards, -1) if partial else hand.total
    return HandShown(tuple(cards), tuple(own_hidden), hand.bet, total, partial,
                     STATUS_NAMES[hand.status])


def count_text(count: int, noun: str) -> str:
    """``"1 table"``, ``"3 tables"``: a count as a line of text says it (``noun`` singular)."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def hands_text(count: int) -> str:
    """``"1 hand"``, ``"3 hands"``: a count of hands as a line of text says it."""
    return count_text(count, "hand")


def seats_text(seats: Sequence[int]) -> str:
    """``"seat 1"``, ``"seats 0 and 1"``, ``"seats 0, 2 and 3"``: seats as a sentence names them."""
    if len(seats) == 1:
        return f"seat {seats[0]}"
    return f"seats {', '.join(map(str, seats[:-1]))} and {seats[-1]}"


def table_view(engine: Engine, viewer: int | None = None) -> TableShown:
    """The table as ``viewer`` may see it (``None``: a spectator); see the module docstring."""
    e = engine
    over = e.phase == OVER
    seats = []
    for seat in range(e.num_seats):
        is_bank = seat == e.bank
        if over:
            hands: list[Hand] = []
        elif is_bank:
            hands = [e.bank_hand]
        else:
            hands = e.hands[seat]
        sitting_out = not over and not is_bank and seat not in e.order
        seats.append(SeatShown(
            seat=seat, is_bank=is_bank, bank_streak=e.bank_streak if is_bank else 0,
            acting=seat == e.actor, is_viewer=seat == viewer, chips=e.chips[seat],
            sitting_out=sitting_out,
            hands=tuple(_hand_shown(h, viewer, e.bank, e.wild) for h in hands),
            last_hand_net=e.chips[seat] - e.hand_start_chips[seat] if over else None))
    return TableShown(hand=e.hands_played + (0 if over else 1), max_hands=e.max_hands,
                      phase=PHASE_NAMES[e.phase], over=over, jackpot=e.jackpot,
                      shoe=len(e.draw_pile), discard=len(e.discard), seats=tuple(seats))
