"""The compiled kernels of :class:`envs.batch.observer.BatchObserver` (numba).

They are :class:`envs.observer.Observer`'s event handlers and reads, one
table per ``prange`` iteration, on struct-of-arrays state whose first axis is
the table: the event rows of :mod:`envs.batch.event_rows` stand for the
engine's tuples, and the engine's arrays of :class:`envs.batch.api.TableBatch`
for its attributes. What each seat may see is the scalar observer's rule,
unchanged (RULES.md §4.1 a face-down card is its owner's, §4.6 the bank's is
nobody's before its turn, §6 an unseen card is nobody's until shown); every
float is computed as the scalar observer computes it (float64, stored as
float32), so the vectors are bit-identical.

Per table ``t`` and seat ``s`` the state is:

* ``pub[t]`` — the ``table`` fields (phase, jackpot, shoe, seen ranks, hands);
* ``own[t, s]`` — the seat's own fields (its face-down ranks, its known total);
* ``tab[t, s]`` — the seat's block in absolute seat order;
* ``views[t, s, h]`` — what the observer tracks of hand ``h``: the ``V_*``
  fields (face-up and known sums and matte, face-down cards, stake, doubled);
* ``nhands``, ``current``, ``status``, ``side`` ``(B, S)``: the seat's hands,
  its current hand, the status set in its one-hot (-1 none), its side stakes;
* ``hand_bank``, ``bank`` ``(B,)``: the bank of the hand being played (-1
  between episodes) and the seat shown holding the bank;
* ``seen`` ``(B, 10)`` and ``stale`` ``(B,)``: the engine's count of cards
  seen since the shuffle (``Engine.seen``, kept from the rows) and whether a
  shuffle came in the last rows (the scalar observer then takes that count);
* ``error`` ``(B,)``: nonzero when a row asked for a hand past the capacity
  (``E_HANDS``); the Python side raises, naming the table.
"""

from __future__ import annotations

from typing import Final

import numpy as np
from numba import prange

from envs import observation as _schema
from envs.batch import event_rows as _rows
from envs.batch.handles import observer_arrays, pack_observer
from envs.batch.table_jit import table_jit
from envs.cards import NUM_RANKS
from envs.hands import WAITING
from envs.observation import GLOBAL_FIELDS, SEAT_FIELDS

# Event kinds (a row's first number).
K_RESET: Final = _rows.K_RESET
K_SHUFFLE: Final = _rows.K_SHUFFLE
K_FIRST_BANK: Final = _rows.K_FIRST_BANK
K_HAND: Final = _rows.K_HAND
K_CARD: Final = _rows.K_CARD
K_REVEAL: Final = _rows.K_REVEAL
K_DISCARDED: Final = _rows.K_DISCARDED
K_FOUR_BACK: Final = _rows.K_FOUR_BACK
K_STATUS: Final = _rows.K_STATUS
K_BET: Final = _rows.K_BET
K_RAISE: Final = _rows.K_RAISE
K_DOUBLE: Final = _rows.K_DOUBLE
K_SPLIT: Final = _rows.K_SPLIT
K_SIDE_BET: Final = _rows.K_SIDE_BET
K_BANK: Final = _rows.K_BANK
K_OVER: Final = _rows.K_OVER

# The vector's layout (envs.observation).
SEAT_BLOCK: Final = _schema.SEAT_BLOCK
GLOBAL_SIZE: Final = _schema.GLOBAL_SIZE
OWN_START: Final = _schema.OWN_START
OWN_SIZE: Final = GLOBAL_SIZE - OWN_START
PHASE: Final = GLOBAL_FIELDS["phase"].start
PHASES: Final = GLOBAL_FIELDS["phase"].stop - PHASE
JACKPOT: Final = GLOBAL_FIELDS["jackpot"].start
SHOE: Final = GLOBAL_FIELDS["shoe_left"].start
SEEN: Final = GLOBAL_FIELDS["seen_ranks"].start
HANDS: Final = GLOBAL_FIELDS["hands_played"].start
OWN_HIDDEN_AT: Final = GLOBAL_FIELDS["own_hidden"].start - OWN_START
OWN_TOTAL_AT: Final = GLOBAL_FIELDS["own_total"].start - OWN_START
IS_BANK: Final = SEAT_FIELDS["is_bank"].start
STREAK: Final = SEAT_FIELDS["bank_streak"].start
OUT: Final = SEAT_FIELDS["sitting_out"].start
ACTING: Final = SEAT_FIELDS["acting"].start
CHIPS: Final = SEAT_FIELDS["chips"].start
BET: Final = SEAT_FIELDS["bet"].start
STATUS: Final = SEAT_FIELDS["status"].start
UP: Final = SEAT_FIELDS["up_ranks"].start
HIDDEN: Final = SEAT_FIELDS["hidden"].start
UP_TOTAL: Final = SEAT_FIELDS["up_total"].start
REFUSED: Final = SEAT_FIELDS["refused"].start
NUM_HANDS: Final = SEAT_FIELDS["hands"].start
DOUBLED: Final = SEAT_FIELDS["doubled"].start
UNSEEN: Final = SEAT_FIELDS["unseen"].start
WILD: Final = SEAT_FIELDS["wild_value"].start
SIDE: Final = SEAT_FIELDS["side_stake"].start
RANKS: Final = NUM_RANKS
TOTAL_SCALE: Final = _schema.TOTAL_SCALE
SEVEN_AND_HALF: Final = 15
WAITING_STATUS: Final = WAITING

# The fields of a hand view (views[t, s, h, V_*]).
V_UP_BASE: Final = 0
V_UP_WILDS: Final = 1
V_KNOWN_BASE: Final = 2
V_KNOWN_WILDS: Final = 3
V_HIDDEN: Final = 4
V_BET: Final = 5
V_DOUBLED: Final = 6
VIEW_FIELDS: Final = 7

# The rules' numbers (an int64 array, P_*, and a float64 one, F_*).
P_WILD: Final = 0
"""The matta's card id, -1 without one."""
P_WHEN_EMPTY: Final = 1
"""1 when the discard pile is shuffled in mid-hand (RULES.md §3 ``when_empty``)."""
P_MAX_HANDS: Final = 2
"""The episode's hand limit, 0 for none."""
INT_PARAMS: Final = 3
F_CHIPS: Final = 0
F_STAKE: Final = 1
F_RANK_SHARE: Final = 2
F_SHOE: Final = 3
FLOAT_PARAMS: Final = 4

E_HANDS: Final = 1
"""``error`` code: a hand index past the views' capacity."""

NO_SUM: Final = 1 << 30
"""Padding of the ``wild_sums`` table, above every total."""


def wild_sums_table(max_wilds: int) -> np.ndarray:
    """``(max_wilds + 1, L)`` int64: row ``w`` the totals ``w`` matte can make, ascending,
    padded with :data:`NO_SUM` (:func:`envs.hands.best_total`'s ``_wild_sums``)."""
    from envs.hands import _wild_sums

    rows = [_wild_sums(w) for w in range(max_wilds + 1)]
    out = np.full((max_wilds + 1, max(len(r) for r in rows)), NO_SUM, dtype=np.int64)
    for w, sums in enumerate(rows):
        out[w, :len(sums)] = sums
    return out


@table_jit(inline=True)
def best_total(base: int, wilds: int, wild_sums: np.ndarray) -> int:
    """:func:`envs.hands.best_total`: the highest total not past 7½, else the lowest."""
    if wilds == 0:
        return base
    best = base + wilds
    for j in range(wild_sums.shape[1]):
        if base + wild_sums[wilds, j] <= SEVEN_AND_HALF:
            best = base + wild_sums[wilds, j]
        else:
            break
    return best


@table_jit(inline=True)
def _restart(t, pub, own, tab, views, nhands, current, status, side, hand_bank, bank, seen,
             stale, dirty):
    pub[t, :] = 0.0
    own[t, :, :] = 0.0
    tab[t, :, :] = 0.0
    views[t, :, :, :] = 0
    nhands[t, :] = 0
    current[t, :] = 0
    status[t, :] = -1
    side[t, :] = 0
    hand_bank[t] = -1
    bank[t] = -1
    seen[t, :] = 0
    stale[t] = False
    dirty[t, :] = False


@table_jit(inline=True)
def _view(t, seat, index, views, nhands, error):
    """Hand ``index`` of ``seat``, adding empty hands up to it (``Observer._view``)."""
    if index >= views.shape[2]:
        error[t] = E_HANDS
        return False
    while nhands[t, seat] <= index:
        for j in range(VIEW_FIELDS):
            views[t, seat, nhands[t, seat], j] = 0
        nhands[t, seat] += 1
    return True


@table_jit(inline=True)
def _add_card(t, seat, h, card, up, unseen, sign, own, tab, views, hand_bank, half, wild):
    """Count (``sign`` +1) or uncount (-1) one card of a hand (``Observer._add_card``)."""
    is_wild = card == wild
    rank = card % RANKS
    known = up or (not unseen and seat != hand_bank[t])
    if up:
        tab[t, seat, UP + rank] += sign
        if is_wild:
            views[t, seat, h, V_UP_WILDS] += sign
        else:
            views[t, seat, h, V_UP_BASE] += sign * half[card]
    else:
        views[t, seat, h, V_HIDDEN] += sign
        tab[t, seat, HIDDEN] += sign
        if unseen:
            tab[t, seat, UNSEEN] += sign
        elif seat != hand_bank[t]:
            own[t, seat, OWN_HIDDEN_AT + rank] += sign
    if known:
        if is_wild:
            views[t, seat, h, V_KNOWN_WILDS] += sign
        else:
            views[t, seat, h, V_KNOWN_BASE] += sign * half[card]


@table_jit(inline=True)
def _set_bank(t, seat, streak, tab, bank):
    old = bank[t]
    if old >= 0:
        tab[t, old, IS_BANK] = 0.0
        tab[t, old, STREAK] = 0.0
    tab[t, seat, IS_BANK] = 1.0
    tab[t, seat, STREAK] = float(streak)
    bank[t] = seat


@table_jit(inline=True)
def _clear_hands(t, rows, k, playing, own, tab, views, nhands, current, status, side, bank,
                 wipe_dealt, wipe_empty, wiped):
    """A new hand (``playing``: the ``hand`` row's order and bank) or the end (none)."""
    n = tab.shape[1]
    for seat in range(n):
        in_hand = False
        if playing:
            if seat == rows[t, k, 2]:
                in_hand = True
            for i in range(rows[t, k, 4]):
                if rows[t, k, 5 + i] == seat:
                    in_hand = True
        for j in range(SEAT_BLOCK):
            if wiped[j]:
                tab[t, seat, j] = wipe_dealt[j] if in_hand else wipe_empty[j]
        tab[t, seat, OUT] = 0.0 if in_hand or seat == bank[t] else 1.0
        for j in range(OWN_SIZE):
            own[t, seat, j] = 0.0
        status[t, seat] = WAITING_STATUS if in_hand else -1
        for j in range(VIEW_FIELDS):
            views[t, seat, 0, j] = 0
        nhands[t, seat] = 1 if in_hand else 0
        current[t, seat] = 0
        side[t, seat] = 0


@table_jit(inline=True)
def _refresh(t, seat, tab, views, nhands, current, wild_sums, stake_scale):
    """Rewrite a seat's per-hand numbers (``Observer._refresh``)."""
    nh = nhands[t, seat]
    if nh == 0:
        return
    h = current[t, seat]
    if nh == 1:
        tab[t, seat, BET] = views[t, seat, h, V_BET] * stake_scale
    else:
        total = 0
        for other in range(nh):
            total += views[t, seat, other, V_BET]
        tab[t, seat, BET] = total * stake_scale
        tab[t, seat, NUM_HANDS] = float(nh)
    tab[t, seat, DOUBLED] = float(views[t, seat, h, V_DOUBLED])
    up_base, up_wilds = views[t, seat, h, V_UP_BASE], views[t, seat, h, V_UP_WILDS]
    if up_wilds:
        up_total = best_total(up_base, up_wilds, wild_sums)
        tab[t, seat, UP_TOTAL] = up_total / TOTAL_SCALE
        tab[t, seat, WILD] = 0.0 if views[t, seat, h, V_HIDDEN] else \
            (up_total - up_base) / TOTAL_SCALE
    else:
        tab[t, seat, UP_TOTAL] = up_base / TOTAL_SCALE
        tab[t, seat, WILD] = 0.0


@table_jit(inline=True)
def _apply_rows(t, rows, count, pub, own, tab, views, nhands, current, status, side,
                hand_bank, bank, seen, stale, dirty, error, ints, floats, half, wild_sums,
                wipe_dealt, wipe_empty, wiped):
    """One table's new rows, in order (``Observer._apply`` for each, then the refreshes)."""
    wild = ints[P_WILD]
    rank_share = floats[F_RANK_SHARE]
    n = tab.shape[1]
    for k in range(count):
        kind = rows[t, k, 0]
        if kind == K_STATUS:
            seat, new, index = rows[t, k, 1], rows[t, k, 2], rows[t, k, 3]
            old = status[t, seat]
            if old != new:
                if old >= 0:
                    tab[t, seat, STATUS + old] = 0.0
                tab[t, seat, STATUS + new] = 1.0
                status[t, seat] = new
            if index != current[t, seat] or index >= nhands[t, seat]:
                current[t, seat] = index
                _view(t, seat, index, views, nhands, error)
                dirty[t, seat] = True
        elif kind == K_CARD:
            seat, card, up, index = rows[t, k, 1], rows[t, k, 2], rows[t, k, 3] != 0, rows[t, k, 4]
            unseen = rows[t, k, 5] != 0
            if _view(t, seat, index, views, nhands, error):
                _add_card(t, seat, index, card, up, unseen, 1, own, tab, views, hand_bank,
                          half, wild)
            if up:
                pub[t, SEEN + card % RANKS] += rank_share
                seen[t, card % RANKS] += 1
            dirty[t, seat] = True
        elif kind == K_REVEAL:
            seat, card, index, unseen = rows[t, k, 1], rows[t, k, 2], rows[t, k, 3], \
                rows[t, k, 4] != 0
            if _view(t, seat, index, views, nhands, error):
                _add_card(t, seat, index, card, False, unseen, -1, own, tab, views, hand_bank,
                          half, wild)
                _add_card(t, seat, index, card, True, False, 1, own, tab, views, hand_bank,
                          half, wild)
            pub[t, SEEN + card % RANKS] += rank_share
            seen[t, card % RANKS] += 1
            dirty[t, seat] = True
        elif kind == K_BET or kind == K_RAISE or kind == K_DOUBLE:
            seat = rows[t, k, 1]
            if kind == K_BET:
                total, index = rows[t, k, 2], rows[t, k, 3]
            elif kind == K_RAISE:
                total, index = rows[t, k, 3], rows[t, k, 4]
            else:
                total, index = rows[t, k, 2], rows[t, k, 3]
            if _view(t, seat, index, views, nhands, error):
                views[t, seat, index, V_BET] = total
                if kind == K_DOUBLE:
                    views[t, seat, index, V_DOUBLED] = 1
            dirty[t, seat] = True
        elif kind == K_HAND:
            _set_bank(t, rows[t, k, 2], rows[t, k, 3], tab, bank)
            hand_bank[t] = rows[t, k, 2]
            _clear_hands(t, rows, k, True, own, tab, views, nhands, current, status, side, bank,
                         wipe_dealt, wipe_empty, wiped)
        elif kind == K_BANK or kind == K_FIRST_BANK:
            _set_bank(t, rows[t, k, 1], 0, tab, bank)
        elif kind == K_SHUFFLE:
            stale[t] = True
            for r in range(RANKS):
                count_up = 0
                if ints[P_WHEN_EMPTY]:  # RULES.md §3: the face-up cards in play count again
                    for s in range(n):
                        count_up += int(tab[t, s, UP + r])
                seen[t, r] = count_up
        elif kind == K_SPLIT:
            seat, card, source, target = rows[t, k, 1], rows[t, k, 2], rows[t, k, 3], rows[t, k, 4]
            up, unseen = rows[t, k, 5] != 0, rows[t, k, 6] != 0
            nh = nhands[t, seat]
            if nh >= views.shape[2] or target > nh:
                error[t] = E_HANDS
            else:
                _add_card(t, seat, source, card, up, unseen, -1, own, tab, views, hand_bank,
                          half, wild)
                for h in range(nh, target, -1):
                    for j in range(VIEW_FIELDS):
                        views[t, seat, h, j] = views[t, seat, h - 1, j]
                for j in range(VIEW_FIELDS):
                    views[t, seat, target, j] = 0
                nhands[t, seat] = nh + 1
                _add_card(t, seat, target, card, up, unseen, 1, own, tab, views, hand_bank,
                          half, wild)
            dirty[t, seat] = True
        elif kind == K_DISCARDED:
            seat, card = rows[t, k, 1], rows[t, k, 2]
            if _view(t, seat, 0, views, nhands, error):
                _add_card(t, seat, 0, card, False, False, -1, own, tab, views, hand_bank,
                          half, wild)
            pub[t, SEEN + card % RANKS] += rank_share
            seen[t, card % RANKS] += 1
            dirty[t, seat] = True
        elif kind == K_FOUR_BACK:
            seat, card = rows[t, k, 1], rows[t, k, 2]
            if _view(t, seat, 0, views, nhands, error):
                _add_card(t, seat, 0, card, False, False, -1, own, tab, views, hand_bank,
                          half, wild)
            dirty[t, seat] = True
        elif kind == K_SIDE_BET:
            bettor = rows[t, k, 1]
            side[t, bettor] += rows[t, k, 3]
            tab[t, bettor, SIDE] = side[t, bettor] * floats[F_STAKE]
        elif kind == K_OVER:
            hand_bank[t] = -1
            _clear_hands(t, rows, k, False, own, tab, views, nhands, current, status, side, bank,
                         wipe_dealt, wipe_empty, wiped)
        elif kind == K_RESET:
            _restart(t, pub, own, tab, views, nhands, current, status, side, hand_bank, bank,
                     seen, stale, dirty)
            error[t] = 0
    for s in range(n):
        if dirty[t, s]:
            _refresh(t, s, tab, views, nhands, current, wild_sums, floats[F_STAKE])
            dirty[t, s] = False
    if stale[t]:
        for r in range(RANKS):
            pub[t, SEEN + r] = seen[t, r] * rank_share
        stale[t] = False


@table_jit()
def read_rows(t, rows, count, oh):  # type: ignore[no-untyped-def]
    """Table ``t``'s ``count`` new rows (:func:`_apply_rows`), ``t`` an int64, into the
    observer's arrays behind the handle ``oh`` (:func:`envs.batch.handles.pack_observer`).

    A call, not inlined: the row reader is the observer's largest function, and
    this one compiled copy serves every caller (:func:`update` and the batch
    engine's kernels, :mod:`envs.batch.kernels`); the handle makes the call
    cheap (:mod:`envs.batch.handles`)."""
    (pub, own, tab, views, nhands, current, status, side, hand_bank, bank, seen, stale, dirty,
     error, ints, floats, half, wild_sums, wipe_dealt, wipe_empty, wiped) = observer_arrays(oh)
    _apply_rows(t, rows, count, pub, own, tab, views, nhands, current, status, side, hand_bank,
                bank, seen, stale, dirty, error, ints, floats, half, wild_sums, wipe_dealt,
                wipe_empty, wiped)


@table_jit(inline=True)
def _read_state(t, phase, actor, chips, refused, jackpot, pile_left, hands_played, pub, tab,
                ints, floats):
    """The numbers the scalar observer reads off the engine at each observation."""
    n = tab.shape[1]
    for s in range(n):
        tab[t, s, ACTING] = 1.0 if s == actor[t] else 0.0
        tab[t, s, CHIPS] = chips[t, s] * floats[F_CHIPS]
        tab[t, s, REFUSED] = 1.0 if refused[t, s] else 0.0
    for p in range(PHASES):
        pub[t, PHASE + p] = 0.0
    pub[t, PHASE + phase[t]] = 1.0
    pub[t, JACKPOT] = jackpot[t] * floats[F_CHIPS]
    pub[t, SHOE] = pile_left[t] * floats[F_SHOE]
    if ints[P_MAX_HANDS]:
        pub[t, HANDS] = hands_played[t] / ints[P_MAX_HANDS]


@table_jit(parallel=True)
def update(rows, counts, phase, actor, chips, refused, jackpot, pile_left, hands_played,
           pub, own, tab, views, nhands, current, status, side, hand_bank, bank, seen, stale,
           dirty, error, ints, floats, half, wild_sums, wipe_dealt, wipe_empty, wiped, oh):
    """Every table reads its ``counts[t]`` new rows, then the engine's arrays (``oh``: room
    for the observer's handle)."""
    pack_observer(oh, pub, own, tab, views, nhands, current, status, side, hand_bank, bank, seen,
                  stale, dirty, error, ints, floats, half, wild_sums, wipe_dealt, wipe_empty,
                  wiped)
    for t in prange(rows.shape[0]):
        if counts[t]:
            read_rows(np.int64(t), rows, counts[t], oh)
        _read_state(t, phase, actor, chips, refused, jackpot, pile_left, hands_played, pub,
                    tab, ints, floats)


@table_jit(inline=True)
def write_observation(i, t, seat, out, pub, own, tab, views, nhands, current, wild_sums):
    """Table ``t``'s observation of ``seat`` into ``out[i, :observation_size]``
    (``Observer._observe``: the public part, the seat's own part, the blocks from it on).
    Written entry by entry: a row view would cost a reference count a table."""
    n = tab.shape[1]
    for j in range(OWN_START):
        out[i, j] = pub[t, j]
    known = 0
    if nhands[t, seat]:
        h = current[t, seat]
        known = best_total(views[t, seat, h, V_KNOWN_BASE], views[t, seat, h, V_KNOWN_WILDS],
                           wild_sums)
    for j in range(OWN_SIZE):
        out[i, OWN_START + j] = own[t, seat, j]
    out[i, OWN_START + OWN_TOTAL_AT] = known / TOTAL_SCALE
    for block in range(n):
        s = (seat + block) % n
        base = GLOBAL_SIZE + block * SEAT_BLOCK
        for j in range(SEAT_BLOCK):
            out[i, base + j] = tab[t, s, j]


@table_jit(parallel=True)
def observe(tables, seats, out, pub, own, tab, views, nhands, current, wild_sums):
    """Table ``tables[i]``'s observation of ``seats[i]`` into ``out[i]``."""
    for i in prange(tables.shape[0]):
        write_observation(i, tables[i], seats[i], out, pub, own, tab, views, nhands, current,
                          wild_sums)
