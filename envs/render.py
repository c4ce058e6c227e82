"""Text views of a table and of an episode's event log.

``table_text`` draws the table as one viewer may see it: face-down cards the
viewer may not see are drawn ``##``. ``transcript`` turns an engine's event
log into readable lines — the golden playthroughs are stored in this form.
"""

from __future__ import annotations

from envs.cards import HALF_POINTS, card_name, format_half_points
from envs.engine import PHASE_NAMES, STATUS_NAMES, Engine, Hand


def _hand_text(hand: Hand, show_hidden: bool) -> str:
    cards = []
    for card, up in zip(hand.cards, hand.face_up):
        if up:
            cards.append(card_name(card))
        elif show_hidden:
            cards.append(f"({card_name(card)})")
        else:
            cards.append("##")
    return " ".join(cards) or "-"


def _visible_total(hand: Hand, show_hidden: bool) -> str:
    total = sum(HALF_POINTS[c] for c, up in zip(hand.cards, hand.face_up) if up or show_hidden)
    hidden = "" if show_hidden or hand.hidden_count == 0 else " + ?"
    return format_half_points(total) + hidden


def table_text(engine: Engine, viewer: int | None = None) -> str:
    """The table as ``viewer`` sees it (``None``: a spectator who sees no face-down card).

    The bank does not see its own face-down card before its turn (RULES.md §4.1).
    """
    e = engine
    lines = [f"hand {e.hands_played + (0 if e.over else 1)}"
             f"{'/' + str(e.max_hands) if e.max_hands else ''} · phase {PHASE_NAMES[e.phase]}"
             f" · jackpot {e.jackpot} · shoe {len(e.draw_pile)} · discard {len(e.discard)}"]
    for seat in range(e.num_seats):
        is_bank = seat == e.bank
        role = f"BANK x{e.bank_streak}" if is_bank else "player"
        marker = ">" if seat == e.actor else " "
        hands = [e.bank_hand] if is_bank and not e.over else e.hands[seat]
        if not is_bank and seat not in e.order:
            lines.append(f"{marker} seat {seat} {role:<8} chips {e.chips[seat]:>6}   (sitting out)")
            continue
        for hand in hands:
            show = viewer == seat and not is_bank
            bet = f"bet {hand.bet:>4}" if not is_bank else "        "
            lines.append(
                f"{marker} seat {seat} {role:<8} chips {e.chips[seat]:>6} {bet}  "
                f"{_hand_text(hand, show):<22} total {_visible_total(hand, show):<6} "
                f"{STATUS_NAMES[hand.status]}")
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
