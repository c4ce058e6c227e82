"""What one seat may see, as a flat float32 vector with named slices.

"Who sees what" (RULES.md §4) lives here and only here:

* a seat sees all its own cards, including its face-down ones (the bank
  does not see its own face-down card until its turn: RULES.md §4.1, CAT);
* of every other hand it sees the face-up cards and how many are face down;
* the bank's cards are face down until the bank's turn (§4.6);
* a bust or declared hand is shown (§4.4, §4.5), and every hand is shown at
  settlement, so the discard pile holds only seen cards.

Seats are ordered **relative to the observer**: block 0 is the observer,
block 1 the next seat in turn order, and so on. A policy therefore reads
"me", "the seat after me", … whatever its seat number.

Layout (``OBS_SLICES`` from :func:`observation_slices`), all float32:

==================  =====  ===============================================
name                size   meaning
==================  =====  ===============================================
``phase``           5      one-hot: bet, play, bank, transfer, over
``jackpot``         1      chips in the jackpot / ``starting_chips``
``shoe_left``       1      cards left in the draw pile / shoe size
``seen_ranks``      10     face-up or shown cards since the last shuffle
                           (not counting the observer's own face-down
                           cards), by rank 1..7, S, C, R / (4 x ``decks``)
``hands_played``    1      hands played / ``max_hands`` (0 if unlimited)
``own_hidden``      10     the observer's own face-down cards by rank
                           (cards it knows but others do not)
``own_total``       1      total of the cards the observer knows in its
                           own hand, in points / 7.5
``seats``           N x 24 one block per seat, observer first:
==================  =====  ===============================================

Each seat block (``SEAT_FIELDS``, offsets within the block):

==================  =====  ===============================================
``is_bank``         1      1 if this seat holds the bank
``bank_streak``     1      hands in a row this seat has held the bank
``sitting_out``     1      1 if the seat takes no part in this hand
``acting``          1      1 if this seat is to act now
``chips``           1      chips behind / ``starting_chips``
``bet``             1      stake on the table / ``max_bet``
``status``          5      one-hot: waiting, playing, stood, bust, declared
``up_ranks``        10     face-up cards by rank (counts)
``hidden``          1      number of face-down cards
``up_total``        1      total of the face-up cards / 7.5
``refused``         1      1 if the seat refused an offered bank (§5 offer)
==================  =====  ===============================================
"""

from __future__ import annotations

import numpy as np

from envs.cards import HALF_POINTS as _HALF
from envs.cards import NUM_RANKS
from envs.engine import OVER, Engine

SEAT_FIELDS: dict[str, slice] = {}
_offset = 0
for _name, _size in (("is_bank", 1), ("bank_streak", 1), ("sitting_out", 1), ("acting", 1),
                     ("chips", 1), ("bet", 1), ("status", 5), ("up_ranks", NUM_RANKS),
                     ("hidden", 1), ("up_total", 1), ("refused", 1)):
    SEAT_FIELDS[_name] = slice(_offset, _offset + _size)
    _offset += _size
SEAT_BLOCK = _offset

_GLOBAL = (("phase", 5), ("jackpot", 1), ("shoe_left", 1), ("seen_ranks", NUM_RANKS),
           ("hands_played", 1), ("own_hidden", NUM_RANKS), ("own_total", 1))
GLOBAL_SIZE = sum(size for _, size in _GLOBAL)

# Offsets used by the hot path.
_PHASE, _JACKPOT, _SHOE, _SEEN, _HANDS, _OWN_HIDDEN, _OWN_TOTAL = (
    0, 5, 6, 7, 17, 18, 28)
_IS_BANK, _STREAK, _OUT, _ACTING, _CHIPS, _BET, _STATUS, _UP, _HIDDEN, _UP_TOTAL, _REFUSED = (
    0, 1, 2, 3, 4, 5, 6, 11, 21, 22, 23)


def observation_size(num_seats: int) -> int:
    """Length of the observation vector for ``num_seats`` seats."""
    return GLOBAL_SIZE + num_seats * SEAT_BLOCK


def observation_slices(num_seats: int) -> dict[str, slice]:
    """Name -> slice of the observation vector.

    Global names (``phase``, ``seen_ranks``, …), ``seats`` for all blocks,
    and ``seat_<i>`` / ``seat_<i>.<field>`` for block ``i`` (0 = observer).
    """
    out: dict[str, slice] = {}
    offset = 0
    for name, size in _GLOBAL:
        out[name] = slice(offset, offset + size)
        offset += size
    out["seats"] = slice(offset, offset + num_seats * SEAT_BLOCK)
    for i in range(num_seats):
        base = offset + i * SEAT_BLOCK
        out[f"seat_{i}"] = slice(base, base + SEAT_BLOCK)
        for name, sl in SEAT_FIELDS.items():
            out[f"seat_{i}.{name}"] = slice(base + sl.start, base + sl.stop)
    return out


def observation_bounds(num_seats: int) -> tuple[np.ndarray, np.ndarray]:
    """Lower and upper bounds of every entry (for the ``Box`` space)."""
    size = observation_size(num_seats)
    low = np.zeros(size, dtype=np.float32)
    high = np.ones(size, dtype=np.float32)
    sl = observation_slices(num_seats)
    for name in ("jackpot",):
        high[sl[name]] = np.inf
    high[sl["own_hidden"]] = 16.0
    high[sl["own_total"]] = 16.0
    for i in range(num_seats):
        for name in ("bank_streak", "chips", "bet", "up_ranks", "hidden", "up_total"):
            high[sl[f"seat_{i}.{name}"]] = np.inf
    return low, high


class Observer:
    """Builds the observation vector of any seat from an engine's state."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.size = observation_size(engine.num_seats)
        r = engine.rules
        self._chips_scale = 1.0 / r.starting_chips
        self._bet_scale = 1.0 / r.max_bet
        self._seen_scale = 1.0 / (4 * r.decks)
        self._shoe_scale = 1.0 / (40 * r.decks)

    def observe(self, seat: int) -> np.ndarray:
        """The observation vector of ``seat``: exactly what that seat may see."""
        e = self.engine
        n = e.num_seats
        obs = [0.0] * self.size
        obs[_PHASE + e.phase] = 1.0
        obs[_JACKPOT] = e.jackpot * self._chips_scale
        obs[_SHOE] = len(e.draw_pile) * self._shoe_scale
        seen_scale = self._seen_scale
        for rank, count in enumerate(e.seen):
            if count:
                obs[_SEEN + rank] = count * seen_scale
        if e.max_hands:
            obs[_HANDS] = e.hands_played / e.max_hands
        over = e.phase == OVER
        bank = e.bank
        in_hand = e.order
        chips_scale, bet_scale = self._chips_scale, self._bet_scale
        for i in range(n):
            seat_i = (seat + i) % n
            base = GLOBAL_SIZE + i * SEAT_BLOCK
            if seat_i == bank:
                obs[base + _IS_BANK] = 1.0
                obs[base + _STREAK] = float(e.bank_streak)
                hands = (e.bank_hand,) if not over else ()
            else:
                hands = e.hands[seat_i]
                if seat_i not in in_hand:
                    obs[base + _OUT] = 1.0
            if seat_i == e.actor:
                obs[base + _ACTING] = 1.0
            obs[base + _CHIPS] = e.chips[seat_i] * chips_scale
            if e.refused[seat_i]:
                obs[base + _REFUSED] = 1.0
            for hand in hands:
                obs[base + _BET] += hand.bet * bet_scale
                obs[base + _STATUS + hand.status] = 1.0
                up_total = 0
                hidden = 0
                own = i == 0
                for card, up in zip(hand.cards, hand.face_up):
                    if up:
                        obs[base + _UP + card % NUM_RANKS] += 1.0
                        up_total += _HALF[card]
                    else:
                        hidden += 1
                        if own and seat_i != bank:
                            obs[_OWN_HIDDEN + card % NUM_RANKS] += 1.0
                            obs[_OWN_TOTAL] += _HALF[card] / 15.0
                obs[base + _HIDDEN] = float(hidden)
                obs[base + _UP_TOTAL] = up_total / 15.0
                if own:
                    obs[_OWN_TOTAL] += up_total / 15.0
        return np.array(obs, dtype=np.float32)

