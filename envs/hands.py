"""A hand on the table and how it scores (RULES.md §1, §4, §6).

Totals are in half points (7½ = 15). Without a wild card a hand's total is
the plain sum. With the **matta** (§1: ``wild_card``), each wild card counts
½ or any whole number 1–7, and the hand is scored at its best value: the
highest total that does not pass 7½ (if every choice passes, the lowest).

Special hands (§4.8, §6), set on ``Hand.special``:

* ``PAIR_OF_SEVENS`` — exactly two 7s (PAG Italian): not a bust; beats every
  other hand and pays 3.
* ``TRIPLE`` — a 7 and the matta as two cards (ITA triplè): pays 3 and beats
  every bank hand.
* ``MORT`` — the player accepted the Mort on an initial 7 (CAT): one more
  card face down that nobody sees; lost unless exactly 7½.
* ``FUSILAR`` — the player shot on an initial 7 (ESP): one card face down
  under it, seen by nobody; 7½ pays 4x unless the bank makes 7½, anything
  else is a bust.
* ``SECRET`` — the initial 3 was swapped for two secret cards (CAT): nobody,
  not even the owner, sees them until the bank has finished.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Final

from envs.cards import HALF_POINTS, NUM_RANKS, SEVEN_AND_HALF, get_state, set_state

# Final: the compiled core (envs._native) reads these as C constants, not dict lookups.
NONE: Final = 0
PAIR_OF_SEVENS: Final = 1
TRIPLE: Final = 2
MORT: Final = 3
FUSILAR: Final = 4
SECRET: Final = 5

# Public status of a hand (what every seat can see).
WAITING: Final = 0
PLAYING: Final = 1
STOOD: Final = 2
BUST: Final = 3
DECLARED: Final = 4
STATUS_NAMES = ("waiting", "playing", "stood", "bust", "declared")

_WILD_VALUES = (1, 2, 4, 6, 8, 10, 12, 14)  # ½ or 1..7, in half points
_SEVEN_RANK: Final = 6


@lru_cache(maxsize=None)
def _wild_sums(count: int) -> tuple[int, ...]:
    """Every total ``count`` wild cards can make, ascending."""
    sums = {0}
    for _ in range(count):
        sums = {s + v for s in sums for v in _WILD_VALUES}
    return tuple(sorted(sums))


def best_total(base: int, wilds: int) -> int:
    """Best total of a hand whose other cards sum to ``base`` with ``wilds`` wild cards."""
    if not wilds:
        return base
    best = base + wilds  # every wild at ½: the lowest possible total
    for extra in _wild_sums(wilds):
        if base + extra <= SEVEN_AND_HALF:
            best = base + extra
        else:
            break
    return best


class Hand:
    """One hand: cards with their face, who may see them, stake and status.

    ``face_up[i]`` says whether card ``i`` is shown to the table;
    ``unseen[i]`` marks a face-down card that even the owner has not seen
    (Mort, fusilar, secret three).
    """

    __slots__ = ("seat", "index", "cards", "face_up", "unseen", "base", "wilds", "total",
                 "status", "bet", "settled", "special", "doubled", "side_bets", "splits")

    def __init__(self, seat: int, bet: int = 0, index: int = 0) -> None:
        self.seat = seat
        self.index = index
        self.cards: list[int] = []
        self.face_up: list[bool] = []
        self.unseen: list[bool] = []
        self.base = 0
        self.wilds = 0
        self.total = 0
        self.status = WAITING
        self.bet = bet
        self.settled = False
        self.special = NONE
        self.doubled = False
        self.side_bets: list[tuple[int, int]] = []  # (bettor seat, stake)
        self.splits = 0

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle as (class, constructor arguments, attributes): see envs.cards.get_state."""
        return (Hand, (self.seat,), get_state(self))

    def __setstate__(self, state: dict[str, Any]) -> None:
        set_state(self, state)

    def add(self, card: int, face_up: bool, unseen: bool, wild: int) -> None:
        """Put ``card`` in the hand and rescore (``wild``: the wild card code or -1)."""
        self.cards.append(card)
        self.face_up.append(face_up)
        self.unseen.append(unseen)
        if card == wild:
            self.wilds += 1
            self.total = best_total(self.base, self.wilds)
        else:
            self.base += HALF_POINTS[card]
            self.total = best_total(self.base, self.wilds) if self.wilds else self.base

    def remove_last(self, wild: int) -> tuple[int, bool, bool]:
        """Take the last card out (a split) and rescore; returns card, face, unseen."""
        card = self.cards.pop()
        up = self.face_up.pop()
        unseen = self.unseen.pop()
        if card == wild:
            self.wilds -= 1
        else:
            self.base -= HALF_POINTS[card]
        self.total = best_total(self.base, self.wilds)
        return card, up, unseen

    @property
    def hidden_count(self) -> int:
        """Number of face-down cards."""
        return self.face_up.count(False)

    @property
    def is_natural(self) -> bool:
        """Exactly two cards totalling 7½ (RULES.md §1), a Mort that makes 7½ included."""
        return self.total == SEVEN_AND_HALF and len(self.cards) == 2

    @property
    def is_pair_of_sevens(self) -> bool:
        """Exactly two cards, both 7s (RULES.md §4.8, PAG Italian)."""
        cards = self.cards
        return (len(cards) == 2 and cards[0] % NUM_RANKS == _SEVEN_RANK
                and cards[1] % NUM_RANKS == _SEVEN_RANK)

    @property
    def busted(self) -> bool:
        """Over 7½ — except a pair of sevens, which is a hand of its own."""
        return self.total > SEVEN_AND_HALF and self.special != PAIR_OF_SEVENS

    @property
    def wild_value(self) -> int:
        """Half points the wild card(s) count for in the best total (0 without one)."""
        return self.total - self.base if self.wilds else 0
