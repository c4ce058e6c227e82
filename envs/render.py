"""Text views of a table and of an episode's event log.

``table_text`` draws the table as one viewer may see it — what is shown,
totals included, comes from :func:`envs.table_view.table_view`, which the
picture (:mod:`envs.picture`) shares: face-down cards the viewer may not see
are drawn ``##``, the viewer's own face-down cards in brackets. ``transcript``
turns an engine's event log into readable lines — the golden playthroughs are
stored in this form.
"""

from __future__ import annotations

from envs.cards import card_name, format_half_points
from envs.engine import STATUS_NAMES, Engine
from envs.table_view import HandShown, SeatShown, table_view


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
        head = f"episode over after {view.hand} hands"
    else:
        head = f"hand {view.hand}{limit} · phase {view.phase}"
    lines = [f"{head} · jackpot {view.jackpot} · shoe {view.shoe} · discard {view.discard}"]
    for seat in view.seats:
        lines.extend(_seat_lines(seat))
    return "\n".join(lines)


def _event_text(event: tuple) -> str:
    kind = event[0]
    if kind == "reset":
        _, seed, deck, bank, chips = event
        extra = "".join([f" deck={' '.join(deck)}" if deck else "",
                         f" bank={bank}" if bank is not None else "",
                         f" chips={chips}" if chips else ""])
        return f"reset seed={seed}{extra}"
    if kind == "shuffle":
        return f"shuffle {event[1]} cards"
    if kind == "high_card":
        return f"  high card: seat {event[1]} draws {card_name(event[2])}"
    if kind == "first_bank":
        return f"first bank: seat {event[1]} ({event[2]})"
    if kind == "hand":
        return f"== hand {event[1]}: bank seat {event[2]} (hand {event[3]} in a row)"
    if kind == "ante":
        return f"  seat {event[1]} antes {event[2]}"
    if kind == "bet":
        hand = f" on hand {event[3] + 1}" if event[3] else ""
        return f"  seat {event[1]} bets {event[2]}{hand}"
    if kind == "raise":
        return f"  seat {event[1]} raises {event[2]} to {event[3]}"
    if kind == "card":
        face = "up" if event[3] else ("down, unseen" if event[5] else "down")
        hand = f" (hand {event[4] + 1})" if event[4] else ""
        return f"  seat {event[1]} gets {card_name(event[2])} face {face}{hand}"
    if kind == "reveal":
        hand = f" (hand {event[3] + 1})" if event[3] else ""
        return f"  seat {event[1]} shows {card_name(event[2])}{hand}"
    if kind == "action":
        return f"seat {event[1]}: {event[2]}"
    if kind == "bust":
        return f"  seat {event[1]} busts with {format_half_points(event[2])}"
    if kind == "status":
        hand = f" hand {event[3] + 1}" if event[3] else ""
        return f"  seat {event[1]}{hand}: {STATUS_NAMES[event[2]]}"
    if kind == "split":
        return f"  seat {event[1]} splits {card_name(event[2])} into hand {event[4] + 1}"
    if kind == "double":
        return f"  seat {event[1]} doubles to {event[2]}"
    if kind == "discarded":
        return f"  seat {event[1]} discards {card_name(event[2])} ({event[3]})"
    if kind == "four_back":
        return f"  seat {event[1]} puts {card_name(event[2])} back into the pile"
    if kind == "special":
        return f"  seat {event[1]}: {event[2].replace('_', ' ')}"
    if kind == "decline_mort":
        return f"  seat {event[1]} declines the Mort"
    if kind == "side_bet":
        return f"  seat {event[1]} stakes {event[3]} on seat {event[2]}'s hand"
    if kind == "side_win":
        return f"  seat {event[1]} wins {event[2]} on seat {event[4]}'s hand"
    if kind == "side_lose":
        return f"  seat {event[1]} loses {event[2]} on seat {event[3]}'s hand"
    if kind == "bid":
        return f"  seat {event[1]} bids {event[2]} for the bank"
    if kind == "sell":
        return f"  bank seat {event[1]} offers the bank to seat {event[2]}"
    if kind == "lose":
        hand = f" on hand {event[3] + 1}" if event[3] else ""
        return f"  seat {event[1]} loses {event[2]}{hand}"
    if kind == "win":
        short = "" if event[2] == event[3] else f" (owed {event[3]}, bank out of chips)"
        hand = f" on hand {event[4] + 1}" if event[4] else ""
        return f"  seat {event[1]} wins {event[2]}{hand}{short}"
    if kind == "jackpot":
        return f"  seat {event[1]} takes the jackpot of {event[2]}"
    if kind == "chips":
        return f"  chips {event[1]} jackpot {event[2]}"
    if kind == "forced_take":
        return f"  seat {event[1]} must take the bank (refused before)"
    if kind == "bank":
        return f"bank passes to seat {event[1]} ({event[2]})"
    if kind == "over":
        return f"episode over after {event[1]} hands"
    return " ".join(str(x) for x in event)


def transcript(events: list[tuple]) -> str:
    """The event log as readable lines, one event a line."""
    return "\n".join(_event_text(ev) for ev in events) + "\n"
