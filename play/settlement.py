"""One settlement line per seat per hand, saying why the chips moved.

Every reason is read from the engine's event log (:mod:`envs.events`) and the
hands as they ended, never recomputed from the rules: the engine already
logged each stake lost (``lose``, ``bust``), each payment and what was owed
(``win``: paid short of owed means the bank's chips ran out, RULES.md §4.7
coverage), the jackpot (§4.9) and the bank moving on (§5, ``bank``). The
reasons a line may give, as codes (:data:`REASONS`) and in words:

* ``bust`` — over 7½, the stake went to the bank at once (§4.4);
* ``tie`` — the same total as the bank: ties go to the bank (§4.7);
* ``beaten`` / ``beat_bank`` — the bank's total was higher, or lower;
* ``bank_bust`` — the bank went over 7½ and paid every hand still standing;
* ``natural`` — a two-card 7½ paid 2:1 (§4.8); ``special`` — a special
  hand paid more (§6); ``coverage`` — the bank ran out of chips (§4.7);
* ``jackpot`` — the first natural took the jackpot (§4.9); ``ante`` — the
  seat paid its ante into it;
* ``side_win`` / ``side_lose`` — a side bet on another hand (§6);
* ``sat_out`` — not dealt in; ``bank`` — held the bank; ``bank_passed`` —
  the bank moved to another seat after the hand (§5).

Only what the table saw at the showdown is named: every player's hand is
shown at settlement (§4.7), the bank's at its turn (§4.6); a card never
turned up (the bank's, when every player busted) stays ``None``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from envs.cards import card_name, format_half_points
from envs.engine import Hand
from envs.events import typed
from envs.rulebook import is_bust

REASONS: Final = ("bust", "tie", "beaten", "beat_bank", "bank_bust", "natural", "special",
                  "coverage", "jackpot", "ante", "side_win", "side_lose", "sat_out", "bank",
                  "bank_passed")
"""Every reason code a :class:`SettlementLine` may carry (module docstring)."""


@dataclass(frozen=True)
class SettlementLine:
    """What one seat won or lost in one hand, and why."""

    seat: int
    net: int
    """Chips won (+) or lost (-) over the hand: stakes, payments, ante and jackpot."""
    reasons: tuple[str, ...]
    """Codes of :data:`REASONS`, in the order the hand settled them."""
    text: str
    """The line in words: ``seat 1: -10 — bust with 8 (stake 10 to the bank)``."""
    cards: tuple[tuple[str | None, ...], ...] = field(default=())
    """The seat's hands as shown at the showdown (``None``: a card never turned up)."""

    def to_dict(self) -> dict[str, Any]:
        """The line as plain JSON values."""
        return {"seat": self.seat, "net": self.net, "reasons": list(self.reasons),
                "text": self.text, "cards": [list(h) for h in self.cards]}


def _shown(hand: Hand) -> tuple[str | None, ...]:
    return tuple(card_name(c) if up else None for c, up in zip(hand.cards, hand.face_up))


def settlement_lines(events: Sequence[tuple], hands: Sequence[Sequence[Hand]],
                     bank_hand: Hand, start_chips: Sequence[int]) -> list[SettlementLine]:
    """The settlement line of every seat for one hand.

    ``events`` are the hand's events, from its ``hand`` event up to (not
    including) the next hand's; ``hands`` and ``bank_hand`` the hands as they
    ended (the engine's lists of that hand); ``start_chips`` the stacks before
    its ante (``Engine.hand_start_chips``).
    """
    typed_events: list[Any] = [typed(e) for e in events]  # read by kind, field by name
    head = next((e for e in typed_events if e.kind == "hand"), None)
    if head is None:
        raise ValueError("a hand's events start with its 'hand' event")
    bank, order = head.bank, tuple(head.order)
    chips_event = next((e for e in typed_events if e.kind == "chips"), None)
    if chips_event is None:
        raise ValueError("the hand is not settled: its events hold no 'chips' event")
    bank_total = bank_hand.total
    bank_bust = is_bust(bank_total, bank_hand.special)
    parts: dict[int, list[tuple[str, str]]] = {s: [] for s in range(len(start_chips))}
    for e in typed_events:
        kind = e.kind
        if kind == "ante":
            parts[e.seat].append(("ante", f"ante {e.amount} into the jackpot"))
        elif kind == "bust":
            if e.seat == bank:
                parts[bank].append(("bank_bust", f"busts with {format_half_points(e.total)}"))
            else:
                parts[e.seat].append(("bust", f"bust with {format_half_points(e.total)} (stake {e.lost} "
                                              f"to the bank)"))
        elif kind == "lose":
            hand = hands[e.seat][e.hand_index]
            if hand.total == bank_total:
                parts[e.seat].append(("tie", f"tie to the bank at {format_half_points(hand.total)} "
                                             f"(loses {e.stake})"))
            else:
                parts[e.seat].append(("beaten", f"{format_half_points(hand.total)} against the bank's "
                                                f"{format_half_points(bank_total)} (loses {e.stake})"))
        elif kind == "win":
            hand = hands[e.seat][e.hand_index]
            multiple = e.owed // hand.bet if hand.bet else 1
            if multiple >= 3:
                parts[e.seat].append(("special", f"special hand paid {multiple}:1"))
            elif multiple == 2:
                parts[e.seat].append(("natural", "natural 7½ paid 2:1"))
            elif bank_bust:
                parts[e.seat].append(("bank_bust", f"the bank busts: {format_half_points(hand.total)} "
                                                   f"paid 1:1"))
            else:
                parts[e.seat].append(("beat_bank", f"{format_half_points(hand.total)} beats the bank's "
                                                   f"{format_half_points(bank_total)}"))
            if e.paid < e.owed:
                parts[e.seat].append(("coverage", f"coverage ran out: paid {e.paid} of "
                                                  f"{e.owed}"))
            else:
                parts[e.seat][-1] = (parts[e.seat][-1][0],
                                     parts[e.seat][-1][1] + f" (wins {e.paid})")
        elif kind == "side_win":
            parts[e.seat].append(("side_win", f"side bet on seat {e.target} wins {e.paid}"))
        elif kind == "side_lose":
            parts[e.seat].append(("side_lose", f"side bet on seat {e.target} loses {e.stake}"))
        elif kind == "jackpot":
            parts[e.seat].append(("jackpot", f"takes the jackpot of {e.amount}"))
        elif kind == "bank":
            parts[bank].append(("bank_passed", f"the bank passes to seat {e.seat} "
                                               f"({e.reason.replace('_', ' ')})"))
    lines = []
    for seat, seat_parts in parts.items():
        if seat == bank:
            total = "?" if not any(bank_hand.face_up) else format_half_points(bank_total)
            if any(code == "bank_bust" for code, _ in seat_parts):
                seat_parts.insert(0, ("bank", "held the bank"))
            else:
                seat_parts.insert(0, ("bank", f"held the bank ({total})"))
            cards: tuple[tuple[str | None, ...], ...] = (_shown(bank_hand),)
        elif seat not in order:
            seat_parts.insert(0, ("sat_out", "sat the hand out"))
            cards = ()
        else:
            cards = tuple(_shown(h) for h in hands[seat])
        net = chips_event.chips[seat] - start_chips[seat]
        text = f"seat {seat}: {net:+d} — " + "; ".join(words for _code, words in seat_parts)
        lines.append(SettlementLine(seat, net, tuple(code for code, _ in seat_parts), text,
                                    cards))
    return lines
