"""Text views of a table and of an episode's event log.

``table_text`` draws the table as one viewer may see it — what is shown,
totals included, comes from :func:`envs.table_view.table_view`, which the
picture (:mod:`envs.picture`) shares: face-down cards the viewer may not see
are drawn ``##``, the viewer's own face-down cards in brackets. ``transcript``
turns an engine's event log into readable lines — the golden playthroughs are
stored in this form: each event is read by name as its class of
:mod:`envs.events`, and :data:`EVENT_LINES` holds one line-writer per kind.
"""

from __future__ import annotations

from typing import Any, Callable, Final

from envs.cards import card_name, format_half_points
from envs.engine import STATUS_NAMES, Engine
from envs.events import (ActionEvent, AnteEvent, BankEvent, BetEvent, BidEvent, BustEvent,
                         CardEvent, ChipsEvent, DeclineMortEvent, DiscardedEvent, DoubleEvent,
                         FirstBankEvent, ForcedTakeEvent, FourBackEvent, HandEvent, HighCardEvent,
                         JackpotEvent, LoseEvent, OverEvent, RaiseEvent, ResetEvent, RevealEvent,
                         SellEvent, ShuffleEvent, SideBetEvent, SideLoseEvent, SideWinEvent,
                         SpecialEvent, SplitEvent, StatusEvent, WinEvent, typed)
from envs.table_view import HandShown, SeatShown, hands_text, table_view


def _hand_text(hand: HandShown) -> str:
    cards = []
    for name, own_hidden in zip(hand.cards, hand.own_hidden):
        cards.append("##" if name is None else f"({name})" if own_hidden else name)
    return " ".join(cards) or "-"


def _seat_lines(seat: SeatShown) -> list[str]:
    marker = ">" if seat.acting else " "
    role = "player" if not seat.is_bank else (
        f"BANK x{seat.bank_streak}" if seat.bank_streak else "BANK")  # x0: passed, not held
    head = f"{marker} seat {seat.seat} {role:<8} chips {seat.chips:>6}"
    if seat.last_hand_net is not None:
        return [f"{head}   last hand {seat.last_hand_net:+d}"]
    if seat.sitting_out:
        return [f"{head}   (sitting out)"]
    lines = []
    for hand in seat.hands:
        bet = "        " if seat.is_bank else f"bet {hand.bet:>4}"
        lines.append(f"{head} {bet}  {_hand_text(hand):<22} total {hand.total_text:<6} "
                     f"{hand.status}")
    return lines


def table_text(engine: Engine, viewer: int | None = None) -> str:
    """The table as ``viewer`` sees it (``None``: a spectator who sees no face-down card).

    The bank does not see its own face-down card before its turn (RULES.md §4.1);
    totals are the engine's scoring of the cards shown (§1, the matta included).
    """
    view = table_view(engine, viewer)
    limit = f"/{view.max_hands}" if view.max_hands else ""
    if view.over:
        head = f"episode over after {hands_text(view.hand)}"
    else:
        head = f"hand {view.hand}{limit} · phase {view.phase}"
    lines = [f"{head} · jackpot {view.jackpot} · shoe {view.shoe} · discard {view.discard}"]
    for seat in view.seats:
        lines.extend(_seat_lines(seat))
    return "\n".join(lines)


def _nth_hand(index: int, form: str) -> str:
    """``form`` with the 1-based number of a seat's hand (``index`` from 0), or "" for its first."""
    return form.format(index + 1) if index else ""


def _reset_line(e: ResetEvent) -> str:
    extra = "".join([f" deck={' '.join(e.deck)}" if e.deck else "",
                     f" bank={e.bank}" if e.bank is not None else "",
                     f" chips={e.chips}" if e.chips else ""])
    return f"reset seed={e.seed}{extra}"


def _shuffle_line(e: ShuffleEvent) -> str:
    return f"shuffle {e.pile_size} cards"


def _high_card_line(e: HighCardEvent) -> str:
    return f"  high card: seat {e.seat} draws {card_name(e.card)}"


def _bid_line(e: BidEvent) -> str:
    return f"  seat {e.seat} bids {e.amount} for the bank"


def _first_bank_line(e: FirstBankEvent) -> str:
    return f"first bank: seat {e.seat} ({e.reason})"


def _hand_line(e: HandEvent) -> str:
    return f"== hand {e.number}: bank seat {e.bank} (hand {e.streak} in a row)"


def _ante_line(e: AnteEvent) -> str:
    return f"  seat {e.seat} antes {e.amount}"


def _card_line(e: CardEvent) -> str:
    face = "up" if e.face_up else ("down, unseen" if e.unseen else "down")
    return (f"  seat {e.seat} gets {card_name(e.card)} face {face}"
            f"{_nth_hand(e.hand_index, ' (hand {})')}")


def _reveal_line(e: RevealEvent) -> str:
    return f"  seat {e.seat} shows {card_name(e.card)}{_nth_hand(e.hand_index, ' (hand {})')}"


def _discarded_line(e: DiscardedEvent) -> str:
    return f"  seat {e.seat} discards {card_name(e.card)} ({e.reason})"


def _four_back_line(e: FourBackEvent) -> str:
    return f"  seat {e.seat} puts {card_name(e.card)} back into the pile"


def _action_line(e: ActionEvent) -> str:
    return f"seat {e.seat}: {e.name}"


def _status_line(e: StatusEvent) -> str:
    return f"  seat {e.seat}{_nth_hand(e.hand_index, ' hand {}')}: {STATUS_NAMES[e.status]}"


def _bet_line(e: BetEvent) -> str:
    return f"  seat {e.seat} bets {e.amount}{_nth_hand(e.hand_index, ' on hand {}')}"


def _raise_line(e: RaiseEvent) -> str:
    return f"  seat {e.seat} raises {e.amount} to {e.bet}"


def _double_line(e: DoubleEvent) -> str:
    return f"  seat {e.seat} doubles to {e.bet}"


def _split_line(e: SplitEvent) -> str:
    return f"  seat {e.seat} splits {card_name(e.card)} into hand {e.new_hand_index + 1}"


def _special_line(e: SpecialEvent) -> str:
    return f"  seat {e.seat}: {e.name.replace('_', ' ')}"


def _decline_mort_line(e: DeclineMortEvent) -> str:
    return f"  seat {e.seat} declines the Mort"


def _side_bet_line(e: SideBetEvent) -> str:
    return f"  seat {e.seat} stakes {e.stake} on seat {e.target}'s hand"


def _bust_line(e: BustEvent) -> str:
    return f"  seat {e.seat} busts with {format_half_points(e.total)}"


def _lose_line(e: LoseEvent) -> str:
    return f"  seat {e.seat} loses {e.stake}{_nth_hand(e.hand_index, ' on hand {}')}"


def _side_lose_line(e: SideLoseEvent) -> str:
    return f"  seat {e.seat} loses {e.stake} on seat {e.target}'s hand"


def _win_line(e: WinEvent) -> str:
    short = "" if e.paid == e.owed else f" (owed {e.owed}, bank out of chips)"
    return f"  seat {e.seat} wins {e.paid}{_nth_hand(e.hand_index, ' on hand {}')}{short}"


def _side_win_line(e: SideWinEvent) -> str:
    return f"  seat {e.seat} wins {e.paid} on seat {e.target}'s hand"


def _jackpot_line(e: JackpotEvent) -> str:
    return f"  seat {e.seat} takes the jackpot of {e.amount}"


def _chips_line(e: ChipsEvent) -> str:
    return f"  chips {e.chips} jackpot {e.jackpot}"


def _forced_take_line(e: ForcedTakeEvent) -> str:
    return f"  seat {e.seat} must take the bank (refused before)"


def _sell_line(e: SellEvent) -> str:
    return f"  bank seat {e.seat} offers the bank to seat {e.buyer}"


def _bank_line(e: BankEvent) -> str:
    return f"bank passes to seat {e.seat} ({e.reason})"


def _over_line(e: OverEvent) -> str:
    return f"episode over after {hands_text(e.hands)}"


EVENT_LINES: Final[dict[str, Callable[[Any], str]]] = {
    "reset": _reset_line,
    "shuffle": _shuffle_line,
    "high_card": _high_card_line,
    "bid": _bid_line,
    "first_bank": _first_bank_line,
    "hand": _hand_line,
    "ante": _ante_line,
    "card": _card_line,
    "reveal": _reveal_line,
    "discarded": _discarded_line,
    "four_back": _four_back_line,
    "action": _action_line,
    "status": _status_line,
    "bet": _bet_line,
    "raise": _raise_line,
    "double": _double_line,
    "split": _split_line,
    "special": _special_line,
    "decline_mort": _decline_mort_line,
    "side_bet": _side_bet_line,
    "bust": _bust_line,
    "lose": _lose_line,
    "side_lose": _side_lose_line,
    "win": _win_line,
    "side_win": _side_win_line,
    "jackpot": _jackpot_line,
    "chips": _chips_line,
    "forced_take": _forced_take_line,
    "sell": _sell_line,
    "bank": _bank_line,
    "over": _over_line,
}
"""Each event kind (:data:`envs.events.EVENT_TYPES`) and the function writing its line.

A function takes the event as its class (its parameter says which); the
table is keyed by kind, so its values are typed loosely.
"""


def event_line(event: tuple) -> str:
    """One logged event as a transcript line; a ``ValueError`` names an unknown kind."""
    typed_event = typed(event)
    return EVENT_LINES[typed_event.kind](typed_event)


def transcript(events: list[tuple]) -> str:
    """The event log as readable lines, one event a line."""
    return "\n".join([event_line(ev) for ev in events]) + "\n"
