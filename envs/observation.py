"""The observation schema: one table of fields, and the reader beside the encoder.

:data:`FIELDS` is the one definition of the observation vector that
:class:`envs.observer.Observer` writes (RULES.md §4 says who sees what). The
slices (:func:`observation_slices`), the ``Box`` bounds
(:func:`observation_bounds`), the observer's per-hand starting values
(:func:`seat_wipes`, :func:`own_wipe`) and the table below all come from it,
and :class:`ObservationReader` decodes a vector with the same table, so a
scale is written once.

Each field has a *scope*:

* ``table`` — the same for every seat (the phase, the shoe, the jackpot);
* ``own`` — what only the observing seat knows; these come after every
  ``table`` field, since the observer lays its public part, then the
  observer's own part, then the seat blocks;
* ``seat`` — one block per seat, ordered **relative to the observer**: block
  0 is the observer, block 1 the next seat in turn order, and so on.

A field marked *wiped* is reset at each new hand: to 0, except that a seat
dealt into the hand reads 1 at the field's *dealt* entry (the ``waiting``
status, one hand). Every other field carries over from hand to hand.

Values are stored divided by their *unit*'s scale (:data:`UNITS`), so most
lie in 0..1; *max* is each entry's upper bound (every entry is at least 0).

The table (:func:`schema_table`; ``tests/test_observation_schema.py`` holds
it to :data:`FIELDS`; N seats):

================  ====  =====  =====  ====  ===========  ==========================================
name              size  scope  wiped  max   unit         meaning
================  ====  =====  =====  ====  ===========  ==========================================
``phase``         8     table  no     1     one-hot      engine phase: bet, play, bank, transfer,
                                                         over, auction, side_bet, sell
``jackpot``       1     table  no     inf   chips        chips in the jackpot
``shoe_left``     1     table  no     1     shoe         cards left in the draw pile
``seen_ranks``    10    table  no     1     rank share   face-up or shown cards since the last
                                                         shuffle (not the observer's own face-down
                                                         cards), by rank 1..7, S, C, R
``hands_played``  1     table  no     1     hands        hands played (0 if the game has no hand
                                                         limit)
``own_hidden``    10    own    yes    inf   count        the observer's own face-down cards it has
                                                         seen, by rank (cards it knows but others
                                                         do not)
``own_total``     1     own    yes    inf   half points  best total of the cards the observer knows
                                                         in its current hand
``is_bank``       1     seat   no     1     flag         this seat holds the bank
``bank_streak``   1     seat   no     inf   count        hands in a row this seat has held the bank
``sitting_out``   1     seat   no     1     flag         the seat takes no part in this hand (set
                                                         at each deal)
``acting``        1     seat   no     1     flag         this seat is to act now
``chips``         1     seat   no     inf   chips        chips behind
``bet``           1     seat   yes    inf   stake        stakes on the seat's hands
``status``        5     seat   yes    1     one-hot      current hand: waiting, playing, stood,
                                                         bust, declared (dealt: waiting)
``up_ranks``      10    seat   yes    inf   count        face-up cards of all its hands, by rank
``hidden``        1     seat   yes    inf   count        face-down cards of all its hands
``up_total``      1     seat   yes    inf   half points  best total of the current hand's face-up
                                                         cards (the matta at its best value)
``refused``       1     seat   no     1     flag         the seat refused an offered bank (§5
                                                         offer)
``hands``         1     seat   yes    inf   count        number of hands, more than 1 after a split
                                                         (dealt: 1)
``doubled``       1     seat   yes    1     flag         the current hand was doubled (§6)
``unseen``        1     seat   yes    inf   count        face-down cards nobody has seen (Mort,
                                                         fusilar, secret three: §6)
``wild_value``    1     seat   yes    1     half points  what the matta counts for in the current
                                                         hand once the whole hand is shown
``side_stake``    1     seat   yes    inf   stake        side bets this seat placed on others
================  ====  =====  =====  ====  ===========  ==========================================

Units (the stored value is the quantity divided by the scale):

===========  ===============================================================
unit         stored as
===========  ===============================================================
flag         1 or 0
one-hot      1 at the entry that holds, 0 elsewhere
count        the number itself (cards, hands)
chips        chips / ``starting_chips``
stake        chips / ``max_bet``
half points  half points / 15, so 7½ reads 1
shoe         cards / (40 x ``decks``)
rank share   cards / (4 x ``decks``), per rank
hands        hands / ``max_hands``
===========  ===============================================================

Adding a field: a row in :data:`FIELDS` (its slices, bounds, wipe and raw
reading by :class:`ObservationReader` follow), the field table above pasted from
:func:`schema_table`, and the numbers written in :mod:`envs.observer` — by
:class:`~envs.observer.Observer` from the events and by
``reference_observation`` from the engine's state, which
``tests/test_observer.py`` holds equal.

Reading a vector (``rules`` only for the accessors that need its scales)::

    >>> from envs import Engine
    >>> from envs.observer import Observer
    >>> engine = Engine("catalan", 2)
    >>> _ = engine.reset(seed=0)
    >>> reader = ObservationReader(Observer(engine).observe(0), engine.rules)
    >>> reader.phase_name, reader.num_seats, reader.chips(0) == engine.chips[0]
    ('bet', 2, True)
"""

from __future__ import annotations

import math
import textwrap
from functools import lru_cache
from typing import Final, NamedTuple

import numpy as np

from envs.cards import NUM_RANKS, SEVEN_AND_HALF
from envs.engine import PHASE_NAMES
from envs.hands import STATUS_NAMES, WAITING
from envs.rules import MAX_SEATS, MIN_SEATS, Rules

TABLE = "table"
OWN = "own"
SEAT = "seat"
SCOPES = (TABLE, OWN, SEAT)
"""Field scopes, in the order the vector lays them out."""

UNITS: dict[str, str] = {
    "flag": "1 or 0",
    "one-hot": "1 at the entry that holds, 0 elsewhere",
    "count": "the number itself (cards, hands)",
    "chips": "chips / ``starting_chips``",
    "stake": "chips / ``max_bet``",
    "half points": "half points / 15, so 7½ reads 1",
    "shoe": "cards / (40 x ``decks``)",
    "rank share": "cards / (4 x ``decks``), per rank",
    "hands": "hands / ``max_hands``",
}
"""Each unit and how a quantity in it is stored."""

INF = math.inf
TOTAL_SCALE: Final = 15.0
"""Totals are stored in half points / ``TOTAL_SCALE``, so 7½ reads 1 (``SEVEN_AND_HALF``).

A literal, so that the compiled observer divides by a C constant."""


class Field(NamedTuple):
    """One field of the observation (a row of :data:`FIELDS`)."""

    name: str
    size: int
    scope: str
    """``table``, ``own`` or ``seat`` (see the module docstring)."""
    wiped: bool
    """Reset at each new hand."""
    high: float
    """Upper bound of each entry (the lower bound is 0)."""
    unit: str
    """A key of :data:`UNITS`."""
    doc: str
    dealt: int = -1
    """For a wiped field: the entry that reads 1 for a seat dealt into a new hand (-1: none)."""


_RANKS = "by rank 1..7, S, C, R"

FIELDS: tuple[Field, ...] = (
    Field("phase", len(PHASE_NAMES), TABLE, False, 1.0, "one-hot",
          "engine phase: " + ", ".join(PHASE_NAMES)),
    Field("jackpot", 1, TABLE, False, INF, "chips", "chips in the jackpot"),
    Field("shoe_left", 1, TABLE, False, 1.0, "shoe", "cards left in the draw pile"),
    Field("seen_ranks", NUM_RANKS, TABLE, False, 1.0, "rank share",
          "face-up or shown cards since the last shuffle (not the observer's own face-down "
          f"cards), {_RANKS}"),
    Field("hands_played", 1, TABLE, False, 1.0, "hands",
          "hands played (0 if the game has no hand limit)"),
    Field("own_hidden", NUM_RANKS, OWN, True, INF, "count",
          "the observer's own face-down cards it has seen, by rank (cards it knows but "
          "others do not)"),
    Field("own_total", 1, OWN, True, INF, "half points",
          "best total of the cards the observer knows in its current hand"),
    Field("is_bank", 1, SEAT, False, 1.0, "flag", "this seat holds the bank"),
    Field("bank_streak", 1, SEAT, False, INF, "count",
          "hands in a row this seat has held the bank"),
    Field("sitting_out", 1, SEAT, False, 1.0, "flag",
          "the seat takes no part in this hand (set at each deal)"),
    Field("acting", 1, SEAT, False, 1.0, "flag", "this seat is to act now"),
    Field("chips", 1, SEAT, False, INF, "chips", "chips behind"),
    Field("bet", 1, SEAT, True, INF, "stake", "stakes on the seat's hands"),
    Field("status", len(STATUS_NAMES), SEAT, True, 1.0, "one-hot",
          "current hand: " + ", ".join(STATUS_NAMES), dealt=WAITING),
    Field("up_ranks", NUM_RANKS, SEAT, True, INF, "count",
          "face-up cards of all its hands, by rank"),
    Field("hidden", 1, SEAT, True, INF, "count", "face-down cards of all its hands"),
    Field("up_total", 1, SEAT, True, INF, "half points",
          "best total of the current hand's face-up cards (the matta at its best value)"),
    Field("refused", 1, SEAT, False, 1.0, "flag", "the seat refused an offered bank (§5 offer)"),
    Field("hands", 1, SEAT, True, INF, "count",
          "number of hands, more than 1 after a split", dealt=0),
    Field("doubled", 1, SEAT, True, 1.0, "flag", "the current hand was doubled (§6)"),
    Field("unseen", 1, SEAT, True, INF, "count",
          "face-down cards nobody has seen (Mort, fusilar, secret three: §6)"),
    Field("wild_value", 1, SEAT, True, 1.0, "half points",
          "what the matta counts for in the current hand once the whole hand is shown"),
    Field("side_stake", 1, SEAT, True, INF, "stake", "side bets this seat placed on others"),
)
"""The observation, field by field, in vector order (the ``seat`` ones once per seat)."""


def _check(fields: tuple[Field, ...]) -> None:
    """Refuse a table the observer cannot lay out, naming the field."""
    names = [f.name for f in fields]
    order = [SCOPES.index(f.scope) if f.scope in SCOPES else -1 for f in fields]
    for f, rank, before in zip(fields, order, [0] + order):
        if names.count(f.name) > 1:
            raise ValueError(f"observation field {f.name!r} is defined twice")
        if rank < 0:
            raise ValueError(f"field {f.name!r}: scope {f.scope!r} is not one of {SCOPES}")
        if rank < before:
            raise ValueError(f"field {f.name!r}: a {f.scope!r} field must come before every "
                             f"{SCOPES[before]!r} field (order: {', '.join(SCOPES)})")
        if f.unit not in UNITS:
            raise ValueError(f"field {f.name!r}: unit {f.unit!r} is not one of {list(UNITS)}")
        if f.dealt >= f.size or (f.dealt >= 0 and not f.wiped):
            raise ValueError(f"field {f.name!r}: dealt={f.dealt} must index a wiped field "
                             f"of size {f.size}")
        if f.scope == OWN and not f.wiped:
            raise ValueError(f"field {f.name!r}: an 'own' field is the current hand's, so "
                             "it must be wiped")


_check(FIELDS)
if TOTAL_SCALE != SEVEN_AND_HALF:
    raise ValueError(f"TOTAL_SCALE={TOTAL_SCALE} must be 7½ in half points, {SEVEN_AND_HALF}")


def _offsets(scopes: tuple[str, ...]) -> dict[str, slice]:
    out: dict[str, slice] = {}
    offset = 0
    for f in FIELDS:
        if f.scope in scopes:
            out[f.name] = slice(offset, offset + f.size)
            offset += f.size
    return out


GLOBAL_FIELDS: dict[str, slice] = _offsets((TABLE, OWN))
"""Name -> slice of each ``table`` and ``own`` field, from the vector's start."""
SEAT_FIELDS: dict[str, slice] = _offsets((SEAT,))
"""Name -> slice of each ``seat`` field within a seat block."""
GLOBAL_SIZE: int = sum(f.size for f in FIELDS if f.scope != SEAT)
OWN_START: int = sum(f.size for f in FIELDS if f.scope == TABLE)
"""Where the observer's own part starts (the ``table`` fields come first)."""
SEAT_BLOCK: int = sum(f.size for f in FIELDS if f.scope == SEAT)
FIELD: dict[str, Field] = {f.name: f for f in FIELDS}
"""Name -> its row of :data:`FIELDS`."""


def observation_size(num_seats: int) -> int:
    """Length of the observation vector for ``num_seats`` seats."""
    return GLOBAL_SIZE + num_seats * SEAT_BLOCK


def observation_seats(size: int) -> int:
    """The number of seats an observation of length ``size`` describes."""
    num_seats, rest = divmod(size - GLOBAL_SIZE, SEAT_BLOCK)
    if rest or not MIN_SEATS <= num_seats <= MAX_SEATS:
        raise ValueError(f"an observation of length {size} is not a sette e mezzo "
                         f"observation ({GLOBAL_SIZE} + {SEAT_BLOCK} x seats for "
                         f"{MIN_SEATS}..{MAX_SEATS} seats)")
    return num_seats


@lru_cache(maxsize=None)
def _slices(num_seats: int) -> dict[str, slice]:
    out = dict(GLOBAL_FIELDS)
    out["seats"] = slice(GLOBAL_SIZE, GLOBAL_SIZE + num_seats * SEAT_BLOCK)
    for i in range(num_seats):
        base = GLOBAL_SIZE + i * SEAT_BLOCK
        out[f"seat_{i}"] = slice(base, base + SEAT_BLOCK)
        for name, sl in SEAT_FIELDS.items():
            out[f"seat_{i}.{name}"] = slice(base + sl.start, base + sl.stop)
    return out


def observation_slices(num_seats: int) -> dict[str, slice]:
    """Name -> slice of the observation vector.

    Global names (``phase``, ``seen_ranks``, …), ``seats`` for all blocks,
    and ``seat_<i>`` / ``seat_<i>.<field>`` for block ``i`` (0 = observer).
    """
    return dict(_slices(num_seats))


def observation_bounds(num_seats: int) -> tuple[np.ndarray, np.ndarray]:
    """Lower and upper bounds of every entry (for the ``Box`` space), from :data:`FIELDS`."""
    size = observation_size(num_seats)
    low = np.zeros(size, dtype=np.float32)
    high = np.empty(size, dtype=np.float32)
    for f in FIELDS:
        if f.scope == SEAT:
            sl = SEAT_FIELDS[f.name]
            for base in range(GLOBAL_SIZE, size, SEAT_BLOCK):
                high[base + sl.start:base + sl.stop] = f.high
        else:
            high[GLOBAL_FIELDS[f.name]] = f.high
    return low, high


def _start_values(field: Field, dealt: bool) -> list[float]:
    return [float(dealt and i == field.dealt) for i in range(field.size)]


def seat_wipes() -> tuple[tuple[int, int, list[float], list[float]], ...]:
    """The runs of wiped ``seat`` fields: (start, stop, values for a seat dealt in, for one not).

    Offsets are within a seat block; the observer writes these at each new hand.
    """
    runs: list[tuple[int, int, list[float], list[float]]] = []
    for f in FIELDS:
        if f.scope != SEAT or not f.wiped:
            continue
        start = SEAT_FIELDS[f.name].start
        if runs and runs[-1][1] == start:
            _, _, dealt, empty = runs.pop()
            start -= len(dealt)
        else:
            dealt, empty = [], []
        runs.append((start, start + len(dealt) + f.size, dealt + _start_values(f, True),
                     empty + _start_values(f, False)))
    return tuple(runs)


def own_wipe() -> list[float]:
    """The observer's own part at a new hand (every ``own`` field is wiped)."""
    return [v for f in FIELDS if f.scope == OWN for v in _start_values(f, False)]


def schema_table() -> str:
    """The field table of the module docstring, written from :data:`FIELDS`."""
    widths = (16, 4, 5, 5, 4, 11, 42)
    rule = "  ".join("=" * w for w in widths)

    def row(cells: tuple[str, ...]) -> str:
        return "  ".join(c.ljust(w) for c, w in zip(cells, widths)).rstrip()

    lines = [rule, row(("name", "size", "scope", "wiped", "max", "unit", "meaning")), rule]
    for f in FIELDS:
        doc = f.doc
        if f.dealt >= 0:
            doc += " (dealt: " + (STATUS_NAMES[f.dealt] if f.name == "status" else "1") + ")"
        text = textwrap.wrap(doc, widths[-1])
        lines.append(row((f"``{f.name}``", str(f.size), f.scope, "yes" if f.wiped else "no",
                          "inf" if f.high == INF else f"{f.high:g}", f.unit, text[0])))
        lines.extend(row(("",) * 6 + (more,)) for more in text[1:])
    lines.append(rule)
    return "\n".join(lines)


def unit_scale(unit: str, rules: Rules | None, max_hands: int | None = None) -> float:
    """What a quantity in ``unit`` is divided by to be stored (:data:`UNITS`).

    ``rules`` (the table's) for the units that depend on them, ``max_hands``
    for ``hands``.
    """
    if unit in ("flag", "one-hot", "count"):
        return 1.0
    if unit == "half points":
        return TOTAL_SCALE
    if unit == "hands":
        if not max_hands:
            raise ValueError("hands_played is stored / max_hands: pass the game's max_hands "
                             "to read it")
        return float(max_hands)
    if unit not in UNITS:
        raise ValueError(f"unit {unit!r} is not one of {list(UNITS)}")
    if rules is None:
        raise ValueError(f"a quantity in {unit!r} is stored / {UNITS[unit].split(' / ')[1]}: "
                         "reading it needs the table's rules, ObservationReader(observation, "
                         "rules)")
    if unit == "chips":
        return float(rules.starting_chips)
    if unit == "stake":
        return float(rules.max_bet)
    return (40.0 if unit == "shoe" else 4.0) * rules.decks


class ObservationReader:
    """Named, unit-ful views of one observation vector (the decoder of :class:`Observer`).

    The seat count is read off the vector's length. Seat block ``i`` is the
    ``i``-th seat after the observer in turn order (0 = the observer). Totals
    come back in half points (7½ = 15), cards as counts, stakes and chips in
    chips; ``rules`` (the table's :class:`~envs.rules.Rules`) is needed only by
    the accessors whose scale depends on it, which say so when it is missing.
    """

    __slots__ = ("obs", "num_seats", "rules", "slices")

    def __init__(self, observation: np.ndarray, rules: Rules | None = None) -> None:
        self.obs = observation
        self.num_seats = observation_seats(len(observation))
        self.rules = rules
        self.slices = _slices(self.num_seats)

    # ---------------------------------------------------------------- raw
    def __getitem__(self, name: str) -> np.ndarray:
        """The stored entries of field ``name`` (a global or ``seat_<i>.<field>`` name)."""
        try:
            return self.obs[self.slices[name]]
        except KeyError:
            raise KeyError(f"{name!r} is not an observation field; fields: "
                           f"{list(GLOBAL_FIELDS)} and seat_<i>.<field> for "
                           f"{list(SEAT_FIELDS)}") from None

    def seat(self, i: int, field: str) -> np.ndarray:
        """The stored entries of ``field`` (a name of ``SEAT_FIELDS``) of seat block ``i``."""
        sl = SEAT_FIELDS.get(field)
        if sl is None:
            raise KeyError(f"{field!r} is not a seat field; seat fields: {list(SEAT_FIELDS)}")
        if not 0 <= i < self.num_seats:
            raise IndexError(f"seat block {i} is not in this observation; blocks are "
                             f"0..{self.num_seats - 1}")
        base = GLOBAL_SIZE + i * SEAT_BLOCK
        return self.obs[base + sl.start:base + sl.stop]

    def _entry(self, name: str, i: int | None) -> float:
        sl = GLOBAL_FIELDS[name] if i is None else SEAT_FIELDS[name]
        base = 0 if i is None else GLOBAL_SIZE + i * SEAT_BLOCK
        return float(self.obs[base + sl.start])

    def value(self, name: str, i: int | None = None, max_hands: int | None = None) -> float:
        """A one-entry field in its unit: the stored float32 entry times its scale.

        Not rounded, so ``value("chips", i)`` may read 989.99998 for 990 chips
        (:meth:`chips` rounds).

        ``i`` is the seat block of a ``seat`` field (None for a global one).
        """
        field = FIELD.get(name)
        if field is None or field.size != 1 or (field.scope == SEAT) != (i is not None):
            raise KeyError(f"{name!r} with seat block {i!r} is not a one-entry field; "
                           f"global: {[f.name for f in FIELDS if f.scope != SEAT]}, per "
                           f"seat: {list(SEAT_FIELDS)}")
        return self._entry(name, i) * unit_scale(field.unit, self.rules, max_hands)

    def _rules(self, what: str) -> Rules:
        if self.rules is None:
            raise ValueError(f"reading {what} needs the table's rules: "
                             "ObservationReader(observation, rules)")
        return self.rules

    def _half(self, name: str, i: int | None) -> int:
        return int(round(self._entry(name, i) * TOTAL_SCALE))

    # ---------------------------------------------------------- the table
    @property
    def phase(self) -> int:
        """The engine phase index (``envs.engine.BET``, ``PLAY``, ``BANK``, ``TRANSFER``, …)."""
        return int(np.argmax(self["phase"]))

    @property
    def phase_name(self) -> str:
        """The engine phase by name (``envs.engine.PHASE_NAMES``)."""
        return PHASE_NAMES[self.phase]

    def seen_counts(self) -> np.ndarray:
        """Face-up or shown cards since the shuffle by rank (whole numbers, float32)."""
        decks = self._rules("seen_ranks").decks
        return np.round(self["seen_ranks"] * np.float32(4 * decks))

    def unseen_counts(self) -> np.ndarray:
        """Cards of each rank the observer has not seen (whole numbers, float32).

        The shoe holds ``4 x decks`` of each rank; less every card seen since
        the shuffle and the observer's own face-down cards, what is left is the
        draw pile plus the other seats' face-down cards.
        """
        decks = self._rules("unseen cards").decks
        return np.maximum(4 * decks - self.seen_counts() - self.own_hidden_counts(),
                          np.float32(0))

    # ------------------------------------------------------ the observer's own
    def own_hidden_counts(self) -> np.ndarray:
        """The observer's own face-down cards it has seen, by rank (whole numbers, float32)."""
        return np.round(self["own_hidden"])

    @property
    def own_total_half(self) -> int:
        """Best total of the cards the observer knows in its current hand, in half points."""
        return self._half("own_total", None)

    @property
    def own_total(self) -> float:
        """The same in points (7.5 = 7½)."""
        return self.own_total_half / 2

    @property
    def is_bank(self) -> bool:
        """Whether the observer holds the bank."""
        return self.holds_bank(0)

    # ------------------------------------------------------------- per seat
    def holds_bank(self, i: int) -> bool:
        """Whether seat block ``i`` holds the bank."""
        return self._entry("is_bank", i) > 0

    def sitting_out(self, i: int) -> bool:
        """Whether seat block ``i`` takes no part in this hand."""
        return self._entry("sitting_out", i) > 0

    def chips(self, i: int) -> int:
        """Chips behind seat block ``i``."""
        return int(round(self.value("chips", i)))

    def stake_share(self, i: int) -> float:
        """Stakes on seat block ``i``'s hands as a share of ``max_bet`` (the stored entry)."""
        return self._entry("bet", i)

    def stake_units(self, i: int) -> int:
        """Stakes on seat block ``i``'s hands in units of ``min_bet``."""
        r = self._rules("a stake")
        return int(round(self._entry("bet", i) * r.max_bet / r.min_bet))

    def status(self, i: int) -> int:
        """Status of seat block ``i``'s current hand (``envs.hands.WAITING`` …), -1 if none."""
        entries = self.seat(i, "status")
        return int(np.argmax(entries)) if entries.any() else -1

    def has_status(self, i: int, status: int) -> bool:
        """Whether seat block ``i``'s current hand has ``status`` (``envs.hands.STOOD`` …)."""
        return bool(self.obs[GLOBAL_SIZE + i * SEAT_BLOCK + SEAT_FIELDS["status"].start
                             + status])

    def up_counts(self, i: int) -> np.ndarray:
        """Face-up cards of seat block ``i``'s hands by rank (whole numbers, float32)."""
        return self.seat(i, "up_ranks")

    def hidden(self, i: int) -> int:
        """Face-down cards of seat block ``i``'s hands."""
        return int(self._entry("hidden", i))

    def cards(self, i: int) -> int:
        """Cards of seat block ``i``'s hands, face up or down."""
        return int(self.up_counts(i).sum()) + self.hidden(i)

    def up_total_half(self, i: int) -> int:
        """Best total of seat block ``i``'s current hand's face-up cards, in half points."""
        return self._half("up_total", i)
