"""Cards of the 40-card Spanish deck and their values (RULES.md §1).

A card is a small integer ``code = suit * 10 + rank_index`` in ``0..39``:

* ``rank_index`` 0..6 are the ranks 1..7, 7 is the *sota* (S), 8 the
  *caballo* (C), 9 the *rey* (R). There are no 8s and 9s.
* ``suit`` 0..3 are oros (``o``), copas (``c``), espadas (``e``), bastos (``b``).

Every text interface (tests, options, logs) uses the two-character names
``7o``, ``Rc``, ``Se``, ``1b``: rank character, then suit character.

Values are kept in **half points** so that all arithmetic is exact integers:
ranks 1..7 are worth 2..14 half points, every figure 1 half point (½), and
7½ is ``SEVEN_AND_HALF = 15``. A total above 15 is a bust.

    >>> from envs.cards import HALF_POINTS, card_name, format_half_points, parse_cards
    >>> seven, king = parse_cards("7o Rc")
    >>> card_name(king), HALF_POINTS[seven], HALF_POINTS[king]
    ('Rc', 14, 1)
    >>> format_half_points(HALF_POINTS[seven] + HALF_POINTS[king])
    '7½'
    >>> parse_cards("8o")
    Traceback (most recent call last):
    ValueError: card '8o': rank '8' is not one of 1, 2, 3, 4, 5, 6, 7, S, C, R
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

RANK_CHARS = "1234567SCR"
SUIT_CHARS = "oceb"
SUIT_NAMES = ("oros", "copas", "espadas", "bastos")
RANK_NAMES = ("1", "2", "3", "4", "5", "6", "7", "sota", "caballo", "rey")
# Final: the compiled core (envs._native) reads these as C constants, not dict lookups.
NUM_RANKS: Final = 10
NUM_SUITS: Final = 4
DECK_SIZE: Final = NUM_RANKS * NUM_SUITS

SEVEN_AND_HALF: Final = 15
"""7½ in half points."""

FIGURE_RANKS = (7, 8, 9)

# Half-point value of each card code, indexed by code.
HALF_POINTS: Final[tuple[int, ...]] = tuple(
    (r + 1) * 2 if r < 7 else 1 for _s in range(NUM_SUITS) for r in range(NUM_RANKS)
)

# RULES.md §5 "First bank": high card ranks 1..7 then sota, caballo, rey; a tie
# is broken by suit, copas > oros > bastos > espadas.
_SUIT_HIGH_CARD_ORDER = {1: 3, 0: 2, 3: 1, 2: 0}


def rank_of(card: int) -> int:
    """Rank index 0..9 (1..7, sota, caballo, rey) of a card code."""
    return card % NUM_RANKS


def suit_of(card: int) -> int:
    """Suit index 0..3 (oros, copas, espadas, bastos) of a card code."""
    return card // NUM_RANKS


def is_figure(card: int) -> bool:
    """True for sota, caballo and rey (each worth ½)."""
    return card % NUM_RANKS >= 7


def card_name(card: int) -> str:
    """Two-character name of a card code: ``7o``, ``Rc``, ``Se``, ``1b``."""
    if not 0 <= card < DECK_SIZE:
        raise ValueError(f"card code {card!r} is not in 0..{DECK_SIZE - 1}")
    return RANK_CHARS[card % NUM_RANKS] + SUIT_CHARS[card // NUM_RANKS]


def parse_card(name: object) -> int:
    """Card code of a two-character card name (``"7o"`` -> 6).

    Raises ``ValueError`` naming the bad value (a non-string too) and the
    valid characters.
    """
    if not isinstance(name, str) or len(name) != 2:
        raise ValueError(
            f"card {name!r} is not a two-character card name such as '7o', 'Rc', 'Se', '1b'"
        )
    rank_char, suit_char = name[0].upper(), name[1].lower()
    if rank_char not in RANK_CHARS:
        raise ValueError(f"card {name!r}: rank {name[0]!r} is not one of {', '.join(RANK_CHARS)}")
    if suit_char not in SUIT_CHARS:
        raise ValueError(f"card {name!r}: suit {name[1]!r} is not one of {', '.join(SUIT_CHARS)}")
    return SUIT_CHARS.index(suit_char) * NUM_RANKS + RANK_CHARS.index(rank_char)


def parse_cards(names: Iterable[str] | str) -> list[int]:
    """Card codes of several names; a string is split on whitespace or commas."""
    if isinstance(names, str):
        names = names.replace(",", " ").split()
    return [parse_card(n) for n in names]


def format_cards(cards: Iterable[int]) -> str:
    """Space-separated card names."""
    return " ".join(card_name(c) for c in cards)


def high_card_key(card: int) -> int:
    """Sort key for choosing the first bank by high card (RULES.md §5).

    Rank decides first (1 < 2 < … < 7 < sota < caballo < rey), then suit
    (espadas < bastos < oros < copas).
    """
    return rank_of(card) * NUM_SUITS + _SUIT_HIGH_CARD_ORDER[suit_of(card)]


def new_shoe(decks: int) -> list[int]:
    """All card codes of ``decks`` 40-card decks, unshuffled."""
    return list(range(DECK_SIZE)) * decks


def format_half_points(total: int) -> str:
    """A total in half points as players say it: 15 -> ``7½``, 4 -> ``2``."""
    whole, half = divmod(total, 2)
    if not half:
        return str(whole)
    return f"{whole}½" if whole else "½"


# ------------------------------------------------------------------ pickling
# The engine's classes are compiled by mypyc on install (envs._native), and a
# compiled class neither has a __dict__ nor can be unpickled without calling
# its __init__. Each class therefore pickles as (class, constructor arguments,
# attributes), with the attributes read and restored by name; the same code
# works compiled or not.
def get_state(obj: object) -> dict[str, object]:
    """The attributes of ``obj`` by name, whether its class is compiled or not."""
    cls = type(obj)
    names = getattr(cls, "__mypyc_attrs__", None) or getattr(cls, "__slots__", None)
    if names is None:
        return dict(vars(obj))
    return {name: getattr(obj, name) for name in names if hasattr(obj, name)}


def set_state(obj: object, state: dict[str, object]) -> None:
    """Restore what :func:`get_state` read."""
    for name, value in state.items():
        setattr(obj, name, value)
