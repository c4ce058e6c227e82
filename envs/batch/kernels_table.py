"""One table's turn sequence, compiled: the scalar engine's transitions on plain arrays.

This is :class:`envs.engine.Engine` (with :mod:`envs.bank_seat` and the §6
plug-ins of :mod:`envs.house_rules` that the compiled engine plays) written
over the arrays of ONE table, so that :mod:`envs.batch.kernels` can run many
tables side by side. Every function mirrors the scalar method of the same
name, step for step and event for event: the same cards are drawn in the
same order from the same generator (:mod:`envs.batch.rng`), and each logged
event is written as its row (:mod:`envs.batch.event_rows`). What wins and
what is paid comes from the rulebook twins (:mod:`envs.batch.kernels_rulebook`).

A table is these arrays (the batch engine's arrays at one table index):

* ``tt`` int64 — the table's scalars, indexed by the ``T_*`` constants
  (phase, actor, bank, the turn flags of the engine's docstring, jackpot,
  pile and discard sizes, the seen ranks, the row count, ...);
* ``se`` int64 ``(S, E_SIZE)`` — per seat: chips, refusal, hands, the
  current hand, chips at the hand's start, the turn order and the transfer
  queue (one entry per position), the hand's net chips for the rewards;
* ``hf`` int64 ``(S * hand_slots + 1, H_SIZE)`` — per hand: cards held, base
  and wild count, total, status, stake, settled, special form, doubled,
  splits made, face-down cards, the multiple it won. Seat ``s``'s hand ``i``
  is slot ``s * hand_slots + i``; the bank's hand is the last slot;
* ``cd`` int8 ``(slots, MAX_CARDS, 3)`` — each hand's cards: code, face up, unseen;
* ``pile``, ``disc`` int8 — the draw pile (drawn from the end) and the discards;
* ``g`` uint64 — the table's generator;
* ``rows`` int64 ``(K, ROW)`` — the events of this call, as rows (``K`` may
  be 0: no rows are kept).

``r`` is the rules vector (:func:`envs.batch.kernels_rulebook.pack_rules`,
completed with the table's ``C_*`` entries) and ``lad`` the bet ladder.

The functions compiled on their own (``@table_jit()``) take the table as one
handle ``tb`` (:mod:`envs.batch.handles`: the ten arrays' addresses and
shapes) and open it with ``table_arrays(tb)``; a call passing the ten arrays
themselves cost more than the work of most of these functions. The small
helpers numba inlines into their callers (``@table_jit(inline=True)``) take
the arrays they use.
"""

from __future__ import annotations

from typing import Final

import numpy as np

from envs import actions as A
from envs.batch import event_rows as ev
from envs.batch import kernels_rulebook as rb
from envs.batch.kernels_rulebook import R_SIZE
from envs.batch.rng import integers, seed_state, shuffle
from envs.batch.handles import table_arrays
from envs.batch.table_jit import table_jit
from envs.cards import SEVEN_AND_HALF
from envs.hands import (BUST, DECLARED, MORT, NONE, PAIR_OF_SEVENS, PLAYING, SECRET, STOOD,
                        TRIPLE, WAITING)
from envs.phases import BANK, BET, OVER, PLAY, TRANSFER

# ----------------------------------------------------------------- table config (in r)
C_NUM_SEATS: Final = R_SIZE
C_MAX_HANDS: Final = R_SIZE + 1  # -1: no limit
C_HAND_SLOTS: Final = R_SIZE + 2
C_BET_START: Final = R_SIZE + 3
C_RAISE_START: Final = R_SIZE + 4
C_ACTIONS: Final = R_SIZE + 5
CONFIG_SIZE: Final = R_SIZE + 6

# ----------------------------------------------------------------- table scalars (tt)
T_PHASE: Final = 0
T_ACTOR: Final = 1
T_BANK: Final = 2
T_TURN: Final = 3
T_HAND_INDEX: Final = 4
T_RAISED: Final = 5
T_PURPOSE: Final = 6
T_MORT_DECIDED: Final = 7
T_FOUR_CHANGES: Final = 8
T_TRANSFER_KIND: Final = 9
T_QUEUE_LEN: Final = 10
T_STREAK: Final = 11
T_JACKPOT: Final = 12
T_PLAYED: Final = 13
T_PILE: Final = 14
T_DISCARD: Final = 15
T_ORDER_LEN: Final = 16
T_REWARDED: Final = 17
T_SEED: Final = 18
T_ROWS: Final = 19
T_OVERFLOW: Final = 20
T_NEXT_HAND: Final = 21  # a hand ended and the next is to start (see _end_hand)
T_SETTLED_BANK: Final = 22  # the bank of the last settlement
T_SEEN: Final = 23  # 10 entries: face-up cards seen per rank since the last shuffle
T_SIZE: Final = T_SEEN + 10

PURPOSE_ROUND: Final = 0
PURPOSE_TURN: Final = 1
PURPOSE_SPLIT: Final = 2

# ----------------------------------------------------------------- per seat (se)
E_CHIPS: Final = 0
E_REFUSED: Final = 1
E_HANDS: Final = 2
E_CURRENT: Final = 3
E_START_CHIPS: Final = 4
E_ORDER: Final = 5
E_QUEUE: Final = 6
E_NET: Final = 7
# What the last settlement left each seat, for tallies (the fused loops): whether it played the hand
# (in the order; the bank is T_SETTLED_BANK), whether any of its hands (the bank's: its hand) busted
# or was a natural, and the jackpot it won.
E_PLAYED: Final = 8
E_BUSTED: Final = 9
E_NATURAL: Final = 10
E_PRIZE: Final = 11
E_SIZE: Final = 12

# ----------------------------------------------------------------- per hand (hf)
H_CARDS: Final = 0
H_BASE: Final = 1
H_WILDS: Final = 2
H_TOTAL: Final = 3
H_STATUS: Final = 4
H_BET: Final = 5
H_SETTLED: Final = 6
H_SPECIAL: Final = 7
H_DOUBLED: Final = 8
H_SPLITS: Final = 9
H_HIDDEN: Final = 10
H_MULTIPLE: Final = 11
H_SIZE: Final = 12

MAX_CARDS: Final = 16
"""Cards a hand can hold: 7½ is 15 half points and no card is worth less than ½, plus the last card."""
C_CODE: Final = 0
C_UP: Final = 1
C_UNSEEN: Final = 2

_THREE_RANK: Final = 2
_FOUR_RANK: Final = 3
_SEVEN_RANK: Final = 6
_NUM_RANKS: Final = 10
_SUIT_ORDER = np.array((2, 3, 0, 1), dtype=np.int64)  # RULES.md §5: copas > oros > bastos > espadas

_R_GIVEN: Final = np.int64(ev.REASON_ID["given"])
_R_RANDOM: Final = np.int64(ev.REASON_ID["random"])
_R_HIGH_CARD: Final = np.int64(ev.REASON_ID["high_card"])
_R_FIRST_BANK: Final = np.int64(ev.REASON_ID["first bank"])
_R_CANNOT_COVER: Final = np.int64(ev.REASON_ID["cannot cover"])
_R_MAX_BANK_HANDS: Final = np.int64(ev.REASON_ID["max_bank_hands"])
_R_PAIR: Final = np.int64(ev.REASON_ID["pair_of_sevens"])
_R_TRIPLE: Final = np.int64(ev.REASON_ID["triple"])
_R_NATURAL: Final = np.int64(ev.REASON_ID["natural"])
_R_SEVEN_AND_HALF: Final = np.int64(ev.REASON_ID["seven_and_half"])
_R_SECRET_THREE: Final = np.int64(ev.REASON_ID["secret_three"])
_R_CHANGE_FOUR: Final = np.int64(ev.REASON_ID["change_four"])
_NO_SEAT: Final = np.int64(-1)
_FIRST_TURN: Final = np.int64(0)
_FACE_DOWN: Final = np.int64(0)
_FACE_UP: Final = np.int64(1)
_OWNER_SEES: Final = np.int64(0)
_NOBODY_SEES: Final = np.int64(1)
"""Arguments of the compiled helpers as int64 scalars, never bare literals: numba compiles a
function again for each literal it is called with (``_give(..., 0, 1)`` beside ``_give(..., up,
0)``), where one int64 signature serves every call (one cold compile, not one per call site)."""
_S_PAIR: Final = ev.SPECIAL_ID["pair_of_sevens"]
_S_TRIPLE: Final = ev.SPECIAL_ID["triple"]
_S_MORT: Final = ev.SPECIAL_ID["mort"]


# ------------------------------------------------------------------------- rows
@table_jit(inline=True)
def _claim_row(tt, rows):  # type: ignore[no-untyped-def]
    """The index of the next free row, zeroed and counted, or -1 when the buffer is full
    (flagged as an overflow, unless the buffer has no rows at all: nobody reads the rows)."""
    k = tt[T_ROWS]
    if k >= rows.shape[0]:
        if rows.shape[0]:
            tt[T_OVERFLOW] = 1
        return -1
    for j in range(rows.shape[1]):  # indexed, not a row view: no reference count per row
        rows[k, j] = 0
    tt[T_ROWS] = k + 1
    return k


@table_jit(inline=True)
def _row(tt, rows, kind, a, b, c, d, e, f):  # type: ignore[no-untyped-def]
    """Log one event as a row: its kind, then up to six fields (unused ones 0)."""
    k = _claim_row(tt, rows)
    if k < 0:
        return
    rows[k, 0] = kind
    rows[k, 1] = a
    rows[k, 2] = b
    rows[k, 3] = c
    rows[k, 4] = d
    rows[k, 5] = e
    rows[k, 6] = f


@table_jit()
def _hand_row(tb):  # type: ignore[no-untyped-def]
    """``("hand", number, bank, streak, order)``."""
    _, _, tt, se, _, _, _, _, _, rows = table_arrays(tb)
    k = _claim_row(tt, rows)
    if k < 0:
        return
    rows[k, 0] = ev.K_HAND
    rows[k, 1] = tt[T_PLAYED] + 1
    rows[k, 2] = tt[T_BANK]
    rows[k, 3] = tt[T_STREAK]
    n = tt[T_ORDER_LEN]
    rows[k, 4] = n
    for i in range(n):
        rows[k, 5 + i] = se[i, E_ORDER]


@table_jit()
def _chips_row(tb):  # type: ignore[no-untyped-def]
    """``("chips", chips, jackpot)``."""
    _, _, tt, se, _, _, _, _, _, rows = table_arrays(tb)
    k = _claim_row(tt, rows)
    if k < 0:
        return
    rows[k, 0] = ev.K_CHIPS
    rows[k, 1] = tt[T_JACKPOT]
    n = se.shape[0]
    rows[k, 2] = n
    for s in range(n):
        rows[k, 3 + s] = se[s, E_CHIPS]


# ------------------------------------------------------------------------- hands
@table_jit(inline=True)
def _slots(r):  # type: ignore[no-untyped-def]
    return r[C_HAND_SLOTS]


@table_jit(inline=True)
def _bank_slot(r):  # type: ignore[no-untyped-def]
    return r[C_NUM_SEATS] * r[C_HAND_SLOTS]


@table_jit(inline=True)
def _seat_of(r, tt, slot):  # type: ignore[no-untyped-def]
    if slot == _bank_slot(r):
        return tt[T_BANK]
    return slot // r[C_HAND_SLOTS]


@table_jit(inline=True)
def _index_of(r, slot):  # type: ignore[no-untyped-def]
    if slot == _bank_slot(r):
        return 0
    return slot % r[C_HAND_SLOTS]


@table_jit(inline=True)
def _clear_hand(hf, slot):  # type: ignore[no-untyped-def]
    hf[slot, :] = 0  # Hand(): no cards, WAITING, no stake, NONE


@table_jit(inline=True)
def _add(r, hf, cd, slot, card, up, unseen):  # type: ignore[no-untyped-def]
    """``Hand.add``: the card, its face, and the new total (the matta at its best)."""
    h = hf[slot]
    n = h[H_CARDS]
    cd[slot, n, C_CODE] = card
    cd[slot, n, C_UP] = up
    cd[slot, n, C_UNSEEN] = unseen
    h[H_CARDS] = n + 1
    if not up:
        h[H_HIDDEN] += 1
    if card == r[rb.R_WILD]:
        h[H_WILDS] += 1
        h[H_TOTAL] = rb.best_total(h[H_BASE], h[H_WILDS])
    else:
        h[H_BASE] += rb.card_points(card)
        h[H_TOTAL] = rb.best_total(h[H_BASE], h[H_WILDS]) if h[H_WILDS] else h[H_BASE]


@table_jit()
def _remove_last(tb, slot):  # type: ignore[no-untyped-def]
    """``Hand.remove_last``: the last card out, rescored; returns it (face and unseen stay in ``cd``)."""
    r, _, _, _, hf, cd, _, _, _, _ = table_arrays(tb)
    h = hf[slot]
    n = h[H_CARDS] - 1
    h[H_CARDS] = n
    card = cd[slot, n, C_CODE]
    if not cd[slot, n, C_UP]:
        h[H_HIDDEN] -= 1
    if card == r[rb.R_WILD]:
        h[H_WILDS] -= 1
    else:
        h[H_BASE] -= rb.card_points(card)
    h[H_TOTAL] = rb.best_total(h[H_BASE], h[H_WILDS])
    return n


@table_jit(inline=True)
def _form(r, hf, cd, slot):  # type: ignore[no-untyped-def]
    """RULES.md §4.8, §8.4: the hand's special form from its cards (``Engine._form``)."""
    return rb.hand_form(hf[slot, H_CARDS], cd[slot, 0, C_CODE], cd[slot, 1, C_CODE],
                        r[rb.R_WILD], r[rb.R_PAIR_OF_SEVENS] != 0, r[rb.R_TRIPLE] != 0)


@table_jit()
def _player_wins(tb, slot):  # type: ignore[no-untyped-def]
    """``Engine._player_wins``: the multiple the hand wins, 0 if the bank wins."""
    r, _, _, _, hf, cd, _, _, _, _ = table_arrays(tb)
    b = _bank_slot(r)
    return rb.winning_multiple(r, hf[slot, H_TOTAL], hf[slot, H_CARDS], hf[slot, H_SPECIAL],
                               _form(r, hf, cd, slot), hf[b, H_TOTAL], hf[b, H_CARDS],
                               hf[b, H_SPECIAL] == PAIR_OF_SEVENS)


@table_jit(inline=True)
def _set_status(r, tt, se, hf, rows, slot, status):  # type: ignore[no-untyped-def]
    hf[slot, H_STATUS] = status
    seat = _seat_of(r, tt, slot)
    index = _index_of(r, slot)
    se[seat, E_CURRENT] = index
    _row(tt, rows, ev.K_STATUS, seat, status, index, 0, 0, 0)


@table_jit()
def _reveal(tb, slot):  # type: ignore[no-untyped-def]
    """Every face-down card of the hand turned up (``Engine._reveal``)."""
    r, _, tt, _, hf, cd, _, _, _, rows = table_arrays(tb)
    if hf[slot, H_HIDDEN] == 0:
        return
    seat = _seat_of(r, tt, slot)
    index = _index_of(r, slot)
    for i in range(hf[slot, H_CARDS]):
        if not cd[slot, i, C_UP]:
            cd[slot, i, C_UP] = 1
            card = np.int64(cd[slot, i, C_CODE])
            tt[T_SEEN + card % _NUM_RANKS] += 1
            _row(tt, rows, ev.K_REVEAL, seat, card, index, np.int64(cd[slot, i, C_UNSEEN]), 0, 0)
            cd[slot, i, C_UNSEEN] = 0
    hf[slot, H_HIDDEN] = 0


# ------------------------------------------------------------------------- cards
@table_jit()
def _shuffle_all(tb):  # type: ignore[no-untyped-def]
    _, _, tt, _, _, _, pile, _, g, rows = table_arrays(tb)
    shuffle(g, pile, tt[T_PILE])
    tt[T_SEEN:T_SEEN + _NUM_RANKS] = 0
    _row(tt, rows, ev.K_SHUFFLE, tt[T_PILE], 0, 0, 0, 0, 0)


@table_jit(inline=True)
def _can_draw(r, tt):  # type: ignore[no-untyped-def]
    return tt[T_PILE] > 0 or (r[rb.R_RESHUFFLE] != rb.EVERY_HAND and tt[T_DISCARD] > 0)


@table_jit(inline=True)
def _count_face_up(tt, hf, cd, slot):  # type: ignore[no-untyped-def]
    for i in range(hf[slot, H_CARDS]):
        if cd[slot, i, C_UP]:
            tt[T_SEEN + cd[slot, i, C_CODE] % _NUM_RANKS] += 1


@table_jit()
def _draw(tb):  # type: ignore[no-untyped-def]
    r, _, tt, se, hf, cd, pile, disc, g, rows = table_arrays(tb)
    if tt[T_PILE] == 0:
        # RULES.md §3 when_empty: the discard pile (not cards in play) becomes the shoe.
        n = tt[T_DISCARD]
        for i in range(n):
            pile[i] = disc[i]
        tt[T_PILE] = n
        tt[T_DISCARD] = 0
        _shuffle_all(tb)
        slots = _slots(r)
        for i in range(tt[T_ORDER_LEN]):
            s = se[i, E_ORDER]
            for h in range(se[s, E_HANDS]):
                _count_face_up(tt, hf, cd, s * slots + h)
        _count_face_up(tt, hf, cd, _bank_slot(r))
    n = tt[T_PILE] - 1
    tt[T_PILE] = n
    return np.int64(pile[n])


@table_jit()
def _give(tb, slot, up, unseen):  # type: ignore[no-untyped-def]
    r, _, tt, se, hf, cd, pile, disc, g, rows = table_arrays(tb)
    card = _draw(tb)
    _add(r, hf, cd, slot, card, up, unseen)
    if up:
        tt[T_SEEN + card % _NUM_RANKS] += 1
    _row(tt, rows, ev.K_CARD, _seat_of(r, tt, slot), card, up, _index_of(r, slot), unseen, 0)


@table_jit()
def _discard_initial(tb, slot, reason):  # type: ignore[no-untyped-def]
    """Take the initial card out of the hand, shown, onto the discard pile."""
    r, _, tt, _, hf, cd, _, disc, _, rows = table_arrays(tb)
    i = _remove_last(tb, slot)
    card = np.int64(cd[slot, i, C_CODE])
    disc[tt[T_DISCARD]] = card
    tt[T_DISCARD] += 1
    tt[T_SEEN + card % _NUM_RANKS] += 1
    _row(tt, rows, ev.K_DISCARDED, _seat_of(r, tt, slot), card, reason, 0, 0, 0)


# ------------------------------------------------------------------------- the bank seat
@table_jit(inline=True)
def _can_hold_bank(r, se, seat):  # type: ignore[no-untyped-def]
    """``bank_seat.can_hold_bank`` (RULES.md §5)."""
    need = rb.seat_need(r[rb.R_SMALLEST_STAKE], r[rb.R_JACKPOT_ANTE])
    players = 0
    for s in range(se.shape[0]):
        if s != seat and se[s, E_CHIPS] >= need:
            players += 1
    if players == 0:
        return False
    return se[seat, E_CHIPS] >= rb.bank_cover(r, players)


@table_jit()
def _next_bank_seat(tb, start):  # type: ignore[no-untyped-def]
    """``bank_seat.next_bank_seat``: the first seat from ``start`` able to hold the bank, or -1."""
    r, _, _, se, _, _, _, _, _, _ = table_arrays(tb)
    n = se.shape[0]
    for i in range(n):
        s = (start + i) % n
        if _can_hold_bank(r, se, s):
            return s
    return -1


@table_jit()
def _settle_bank_seat(tb, seat, reason):  # type: ignore[no-untyped-def]
    """``bank_seat.settle_bank_seat`` (RULES.md §5 ``bank_min_cover``)."""
    r, _, tt, se, _, _, _, _, _, rows = table_arrays(tb)
    s = _next_bank_seat(tb, seat)
    if s < 0:
        return False
    if s != tt[T_BANK]:
        _row(tt, rows, ev.K_BANK, s, reason, 0, 0, 0, 0)
        tt[T_STREAK] = 0
    tt[T_BANK] = s
    return True


@table_jit(inline=True)
def _high_card_key(card):  # type: ignore[no-untyped-def]
    return (card % _NUM_RANKS) * 4 + _SUIT_ORDER[card // _NUM_RANKS]


@table_jit()
def _draw_first_bank(tb):  # type: ignore[no-untyped-def]
    """``bank_seat.draw_first_bank``: RULES.md §5 high card (ties re-dealt) or at random.

    Each contender's card is kept in its ``E_QUEUE`` entry (no transfer is
    pending before the first hand) and the contenders as bits of one word."""
    r, _, tt, se, _, _, pile, _, g, rows = table_arrays(tb)
    n = se.shape[0]
    if r[rb.R_FIRST_BANK] != rb.HIGH_CARD:
        seat = integers(g, n)
        _row(tt, rows, ev.K_FIRST_BANK, seat, _R_RANDOM, 0, 0, 0, 0)
        return seat
    contenders = (1 << n) - 1
    while True:
        best = -1
        for s in range(n):
            if contenders >> s & 1:
                k = tt[T_PILE] - 1
                tt[T_PILE] = k
                se[s, E_QUEUE] = pile[k]
                _row(tt, rows, ev.K_HIGH_CARD, s, se[s, E_QUEUE], 0, 0, 0, 0)
                best = max(best, _high_card_key(se[s, E_QUEUE]))
        for s in range(n):
            if contenders >> s & 1:
                pile[tt[T_PILE]] = se[s, E_QUEUE]
                tt[T_PILE] += 1
        _shuffle_all(tb)
        left = 0
        winner = -1
        for s in range(n):
            if contenders >> s & 1:
                if _high_card_key(se[s, E_QUEUE]) == best:
                    left += 1
                    winner = s
                else:
                    contenders &= ~(1 << s)
        if left == 1:
            _row(tt, rows, ev.K_FIRST_BANK, winner, _R_HIGH_CARD, 0, 0, 0, 0)
            return winner


@table_jit(inline=True)
def _last_hand(r, tt):  # type: ignore[no-untyped-def]
    return r[C_MAX_HANDS] >= 0 and tt[T_PLAYED] + 1 >= r[C_MAX_HANDS]


@table_jit()
def _transfer_reason(tb, seat):  # type: ignore[no-untyped-def]
    r, _, _, se, hf, cd, _, _, _, _ = table_arrays(tb)
    base = seat * _slots(r)
    for h in range(se[seat, E_HANDS]):
        form = _form(r, hf, cd, base + h)
        if form == PAIR_OF_SEVENS:
            return _R_PAIR
        if form == TRIPLE:
            return _R_TRIPLE
    return _R_NATURAL if r[rb.R_BANK_TRANSFER] == rb.NATURAL_ONLY else _R_SEVEN_AND_HALF


@table_jit()
def _pass_on(tb, new_bank, reason):  # type: ignore[no-untyped-def]
    """``bank_seat.pass_on``: RULES.md §5, §8.2 ``max_bank_hands``."""
    r, _, tt, se, _, _, _, _, _, rows = table_arrays(tb)
    if new_bank >= 0:
        _row(tt, rows, ev.K_BANK, new_bank, reason, 0, 0, 0, 0)
        tt[T_BANK] = new_bank
        tt[T_STREAK] = 0
    elif r[rb.R_MAX_BANK_HANDS] and tt[T_STREAK] >= r[rb.R_MAX_BANK_HANDS]:
        successor = _next_bank_seat(tb, tt[T_BANK] + 1)
        if successor >= 0 and successor != tt[T_BANK]:
            tt[T_BANK] = successor
            tt[T_STREAK] = 0
            _row(tt, rows, ev.K_BANK, successor, _R_MAX_BANK_HANDS, 0, 0, 0, 0)


@table_jit()
def _transfer_candidates(tb, out):  # type: ignore[no-untyped-def]
    """``bank_seat.transfer_candidates`` into ``out``; returns how many."""
    r, _, tt, se, hf, cd, _, _, _, _ = table_arrays(tb)
    kind = r[rb.R_BANK_TRANSFER]
    if kind == rb.TRANSFER_NONE:
        return 0
    count = 0
    slots = _slots(r)
    for i in range(tt[T_ORDER_LEN]):
        s = se[i, E_ORDER]
        if not _can_hold_bank(r, se, s):
            continue
        for h in range(se[s, E_HANDS]):
            slot = s * slots + h
            if rb.qualifies_for_bank(kind, _form(r, hf, cd, slot), _player_wins(tb, slot),
                                     hf[slot, H_TOTAL], hf[slot, H_CARDS]):
                out[count] = s
                count += 1
                break
    return count


# ------------------------------------------------------------------------- hand flow
@table_jit()
def _finish_episode(tb):  # type: ignore[no-untyped-def]
    _, _, tt, _, _, _, _, _, _, rows = table_arrays(tb)
    tt[T_PHASE] = OVER
    tt[T_ACTOR] = -1
    _row(tt, rows, ev.K_OVER, tt[T_PLAYED], 0, 0, 0, 0, 0)


@table_jit()
def _start_hand(tb):  # type: ignore[no-untyped-def]
    r, lad, tt, se, hf, cd, pile, disc, g, rows = table_arrays(tb)
    n = se.shape[0]
    if r[rb.R_RESHUFFLE] == rb.EVERY_HAND and tt[T_PLAYED]:
        p = tt[T_PILE]
        d = tt[T_DISCARD]
        for i in range(d):
            pile[p + i] = disc[i]
        tt[T_PILE] = p + d
        tt[T_DISCARD] = 0
        _shuffle_all(tb)
    bank = tt[T_BANK]
    for s in range(n):
        se[s, E_START_CHIPS] = se[s, E_CHIPS]
    se[bank, E_REFUSED] = 0  # a refusal counts until the seat next holds the bank
    need = rb.seat_need(r[rb.R_SMALLEST_STAKE], r[rb.R_JACKPOT_ANTE])
    count = 0
    for i in range(1, n):
        s = (bank + i) % n
        if se[s, E_CHIPS] >= need:
            se[count, E_ORDER] = s
            count += 1
    tt[T_ORDER_LEN] = count
    tt[T_STREAK] += 1
    for s in range(n):
        se[s, E_CURRENT] = 0
    _hand_row(tb)
    slots = _slots(r)
    for s in range(n):
        se[s, E_HANDS] = 0
    for i in range(count):
        s = se[i, E_ORDER]
        se[s, E_HANDS] = 1
        _clear_hand(hf, s * slots)
    _clear_hand(hf, _bank_slot(r))
    ante = r[rb.R_JACKPOT_ANTE]
    if ante:
        for i in range(count):
            s = se[i, E_ORDER]
            se[s, E_CHIPS] -= ante
            tt[T_JACKPOT] += ante
            _row(tt, rows, ev.K_ANTE, s, ante, 0, 0, 0, 0)
    if r[rb.R_BET_TIMING] != rb.ON_TURN:
        tt[T_TURN] = 0
        tt[T_HAND_INDEX] = 0
        tt[T_PURPOSE] = PURPOSE_ROUND
        tt[T_PHASE] = BET
        tt[T_ACTOR] = se[0, E_ORDER]
    else:
        _deal(tb)


@table_jit()
def _deal(tb):  # type: ignore[no-untyped-def]
    """One card face down to each player in turn order, then the bank (``Engine._deal``).

    The §6 deal hooks on each first card: the forced change of a 4, then the secret three.
    """
    r, lad, tt, se, hf, cd, pile, disc, g, rows = table_arrays(tb)
    slots = _slots(r)
    for i in range(tt[T_ORDER_LEN]):
        s = se[i, E_ORDER]
        slot = s * slots
        _give(tb, slot, _FACE_DOWN, _OWNER_SEES)
        if r[rb.R_CHANGE_FOUR] == rb.FOUR_FORCED:
            while cd[slot, 0, C_CODE] % _NUM_RANKS == _FOUR_RANK and _can_draw(r, tt):
                _discard_initial(tb, slot, _R_CHANGE_FOUR)
                _give(tb, slot, _FACE_DOWN, _OWNER_SEES)
        if r[rb.R_SECRET_THREE]:
            if cd[slot, 0, C_CODE] % _NUM_RANKS == _THREE_RANK and _can_draw(r, tt):
                _discard_initial(tb, slot, _R_SECRET_THREE)
                hf[slot, H_SPECIAL] = SECRET
                _give(tb, slot, _FACE_DOWN, _NOBODY_SEES)
                if _can_draw(r, tt):
                    _give(tb, slot, _FACE_DOWN, _NOBODY_SEES)
    _give(tb, _bank_slot(r), _FACE_DOWN, _OWNER_SEES)
    _begin_turn(tb, _FIRST_TURN)


@table_jit()
def _begin_turn(tb, turn):  # type: ignore[no-untyped-def]
    r, lad, tt, se, hf, cd, pile, disc, g, rows = table_arrays(tb)
    tt[T_TURN] = turn
    tt[T_RAISED] = 0
    tt[T_HAND_INDEX] = 0
    tt[T_MORT_DECIDED] = 0
    tt[T_FOUR_CHANGES] = 0
    if turn >= tt[T_ORDER_LEN]:
        _begin_bank_turn(tb)
        return
    actor = se[turn, E_ORDER]
    tt[T_ACTOR] = actor
    _set_status(r, tt, se, hf, rows, actor * _slots(r), PLAYING)
    if r[rb.R_BET_TIMING] == rb.ON_TURN:
        tt[T_PURPOSE] = PURPOSE_TURN
        tt[T_PHASE] = BET
    else:
        tt[T_PHASE] = PLAY


@table_jit()
def _next_hand(tb):  # type: ignore[no-untyped-def]
    """The hand in play is done: the seat's next split hand, or the next seat."""
    r, lad, tt, se, hf, cd, pile, disc, g, rows = table_arrays(tb)
    actor = tt[T_ACTOR]
    if tt[T_HAND_INDEX] + 1 < se[actor, E_HANDS]:
        tt[T_HAND_INDEX] += 1
        tt[T_RAISED] = 0
        _set_status(r, tt, se, hf, rows, actor * _slots(r) + tt[T_HAND_INDEX], PLAYING)
        tt[T_PHASE] = PLAY
    else:
        _begin_turn(tb, tt[T_TURN] + 1)


@table_jit()
def _after_card(tb, slot):  # type: ignore[no-untyped-def]
    """Bust, a declared 7½ and a pair of sevens end the hand in play (True if ended)."""
    r, lad, tt, se, hf, cd, pile, disc, g, rows = table_arrays(tb)
    h = hf[slot]
    seat = _seat_of(r, tt, slot)
    if h[H_SPECIAL] == NONE:
        form = _form(r, hf, cd, slot)
        if form == PAIR_OF_SEVENS:
            h[H_SPECIAL] = PAIR_OF_SEVENS  # RULES.md §4.8: shown once made
            _reveal(tb, slot)
            _row(tt, rows, ev.K_SPECIAL, seat, _S_PAIR, _index_of(r, slot), 0, 0, 0)
            _set_status(r, tt, se, hf, rows, slot, STOOD)
            _next_hand(tb)
            return True
        if form == TRIPLE:
            h[H_SPECIAL] = TRIPLE  # RULES.md §4.8 (ITA triplè)
            _row(tt, rows, ev.K_SPECIAL, seat, _S_TRIPLE, _index_of(r, slot), 0, 0, 0)
    if h[H_TOTAL] > SEVEN_AND_HALF:
        _bust(tb, slot)
        _next_hand(tb)
        return True
    if h[H_TOTAL] == SEVEN_AND_HALF and r[rb.R_DECLARE]:
        _set_status(r, tt, se, hf, rows, slot, DECLARED)  # RULES.md §4.5
        _reveal(tb, slot)
        _next_hand(tb)
        return True
    return False


@table_jit()
def _bust(tb, slot):  # type: ignore[no-untyped-def]
    """RULES.md §4.4: the hand is shown; its stake goes to the bank at once."""
    r, _, tt, se, hf, cd, _, _, _, rows = table_arrays(tb)
    _set_status(r, tt, se, hf, rows, slot, BUST)
    _reveal(tb, slot)
    lost = hf[slot, H_BET]
    se[tt[T_BANK], E_CHIPS] += lost
    hf[slot, H_SETTLED] = 1
    _row(tt, rows, ev.K_BUST, _seat_of(r, tt, slot), hf[slot, H_TOTAL], lost, 0, 0, 0)


@table_jit()
def _begin_bank_turn(tb):  # type: ignore[no-untyped-def]
    """RULES.md §4.6: the bank turns its cards up; it plays if anyone is left."""
    r, lad, tt, se, hf, cd, pile, disc, g, rows = table_arrays(tb)
    tt[T_PHASE] = BANK
    tt[T_ACTOR] = tt[T_BANK]
    tt[T_HAND_INDEX] = 0
    b = _bank_slot(r)
    _reveal(tb, b)
    slots = _slots(r)
    for i in range(tt[T_ORDER_LEN]):
        s = se[i, E_ORDER]
        for h in range(se[s, E_HANDS]):
            if not hf[s * slots + h, H_SETTLED]:
                _set_status(r, tt, se, hf, rows, b, PLAYING)
                return
    _set_status(r, tt, se, hf, rows, b, STOOD)
    _settle(tb)


@table_jit()
def _settle(tb):  # type: ignore[no-untyped-def]
    """RULES.md §4.7–4.9: collect, pay in turn order within coverage, jackpot."""
    r, lad, tt, se, hf, cd, pile, disc, g, rows = table_arrays(tb)
    bank = tt[T_BANK]
    slots = _slots(r)
    order_len = tt[T_ORDER_LEN]
    for i in range(order_len):  # secret and Mort cards are seen only now
        s = se[i, E_ORDER]
        for h in range(se[s, E_HANDS]):
            slot = s * slots + h
            for c in range(hf[slot, H_CARDS]):
                if cd[slot, c, C_UNSEEN]:
                    _reveal(tb, slot)
                    break
    for i in range(order_len):
        s = se[i, E_ORDER]
        for h in range(se[s, E_HANDS]):
            slot = s * slots + h
            if hf[slot, H_SETTLED]:
                hf[slot, H_MULTIPLE] = 0
                continue
            multiple = _player_wins(tb, slot)
            hf[slot, H_MULTIPLE] = multiple
            if multiple:
                continue
            se[bank, E_CHIPS] += hf[slot, H_BET]
            hf[slot, H_SETTLED] = 1
            _row(tt, rows, ev.K_LOSE, s, hf[slot, H_BET], h, 0, 0, 0)
    for i in range(order_len):
        s = se[i, E_ORDER]
        for h in range(se[s, E_HANDS]):
            slot = s * slots + h
            multiple = hf[slot, H_MULTIPLE]
            if hf[slot, H_SETTLED] or multiple == 0:
                continue
            bet = hf[slot, H_BET]
            pay = rb.covered_pay(multiple, bet, se[bank, E_CHIPS])
            se[bank, E_CHIPS] -= pay
            se[s, E_CHIPS] += bet + pay
            hf[slot, H_SETTLED] = 1
            _row(tt, rows, ev.K_WIN, s, pay, multiple * bet, h, 0, 0)
    b = _bank_slot(r)
    bank_total = hf[b, H_TOTAL]
    prize_seat = -1
    prize = 0
    if tt[T_JACKPOT] and bank_total != SEVEN_AND_HALF:
        for i in range(order_len):
            s = se[i, E_ORDER]
            for h in range(se[s, E_HANDS]):
                slot = s * slots + h
                if rb.wins_jackpot(hf[slot, H_TOTAL], hf[slot, H_CARDS], hf[slot, H_SPECIAL],
                                   bank_total):
                    prize_seat = s
                    break
            if prize_seat >= 0:
                prize = tt[T_JACKPOT]
                se[prize_seat, E_CHIPS] += prize
                _row(tt, rows, ev.K_JACKPOT, prize_seat, prize, 0, 0, 0, 0)
                tt[T_JACKPOT] = 0
                break
    for i in range(order_len):
        s = se[i, E_ORDER]
        for h in range(se[s, E_HANDS]):
            _reveal(tb, s * slots + h)
    _tally(tb, prize_seat, prize)
    tt[T_REWARDED] = 1
    _chips_row(tb)
    _begin_transfer(tb)


@table_jit()
def _tally(tb, prize_seat, prize):  # type: ignore[no-untyped-def]
    """What the settlement left each seat: net chips, played, busted, a natural, the jackpot won."""
    r, _, tt, se, hf, _, _, _, _, _ = table_arrays(tb)
    slots = _slots(r)
    for s in range(se.shape[0]):
        se[s, E_NET] = se[s, E_CHIPS] - se[s, E_START_CHIPS]
        se[s, E_PLAYED] = 0
        se[s, E_BUSTED] = 0
        se[s, E_NATURAL] = 0
        se[s, E_PRIZE] = prize if s == prize_seat else 0
    for i in range(tt[T_ORDER_LEN]):
        s = se[i, E_ORDER]
        se[s, E_PLAYED] = 1
        for h in range(se[s, E_HANDS]):
            slot = s * slots + h
            if hf[slot, H_TOTAL] > SEVEN_AND_HALF and hf[slot, H_SPECIAL] != PAIR_OF_SEVENS:
                se[s, E_BUSTED] = 1  # Hand.busted
            if hf[slot, H_TOTAL] == SEVEN_AND_HALF and hf[slot, H_CARDS] == 2:
                se[s, E_NATURAL] = 1
    b = _bank_slot(r)
    bank = tt[T_BANK]
    tt[T_SETTLED_BANK] = bank
    se[bank, E_BUSTED] = 1 if hf[b, H_TOTAL] > SEVEN_AND_HALF \
        and hf[b, H_SPECIAL] != PAIR_OF_SEVENS else 0
    se[bank, E_NATURAL] = 1 if hf[b, H_TOTAL] == SEVEN_AND_HALF and hf[b, H_CARDS] == 2 else 0


# ------------------------------------------------------------------------- the transfer
@table_jit()
def _begin_transfer(tb):  # type: ignore[no-untyped-def]
    """``bank_seat.begin_transfer`` (RULES.md §5, §8.8): the candidates are listed in the
    seats' ``E_QUEUE`` entries, the queue of the seats to be asked."""
    r, lad, tt, se, hf, cd, pile, disc, g, rows = table_arrays(tb)
    kind = r[rb.R_BANK_TRANSFER]
    candidates = se[:, E_QUEUE]
    count = _transfer_candidates(tb, candidates)
    tt[T_TRANSFER_KIND] = kind
    if count == 0:
        _after_transfer(tb, _NO_SEAT)
    elif kind == rb.MANDATORY or kind == rb.NATURAL_ONLY:
        _after_transfer(tb, candidates[0])
    elif _last_hand(r, tt):
        _after_transfer(tb, _NO_SEAT)
    else:
        if kind == rb.RIGHT:
            count = 1
        tt[T_QUEUE_LEN] = count
        _ask_transfer(tb)


@table_jit()
def _ask_transfer(tb):  # type: ignore[no-untyped-def]
    r, lad, tt, se, hf, cd, pile, disc, g, rows = table_arrays(tb)
    if tt[T_QUEUE_LEN]:
        seat = se[0, E_QUEUE]
        if tt[T_TRANSFER_KIND] == rb.OFFER and se[seat, E_REFUSED]:
            _row(tt, rows, ev.K_FORCED_TAKE, seat, 0, 0, 0, 0, 0)
            _after_transfer(tb, seat)
            return
        tt[T_PHASE] = TRANSFER
        tt[T_ACTOR] = seat
        return
    _after_transfer(tb, _NO_SEAT)


@table_jit()
def _after_transfer(tb, new_bank):  # type: ignore[no-untyped-def]
    r, lad, tt, se, hf, cd, pile, disc, g, rows = table_arrays(tb)
    reason = 0 if new_bank < 0 else _transfer_reason(tb, new_bank)
    _end_hand(tb, new_bank, reason)


@table_jit()
def _answer_transfer(tb, action):  # type: ignore[no-untyped-def]
    """``bank_seat.answer_transfer``: take (or claim) the bank, or refuse it."""
    r, lad, tt, se, hf, cd, pile, disc, g, rows = table_arrays(tb)
    seat = se[0, E_QUEUE]
    count = tt[T_QUEUE_LEN] - 1
    for i in range(count):
        se[i, E_QUEUE] = se[i + 1, E_QUEUE]
    tt[T_QUEUE_LEN] = count
    if action == A.TAKE_BANK or action == A.CLAIM_BANK:
        _end_hand(tb, seat,
                  _transfer_reason(tb, seat))
        return
    if tt[T_TRANSFER_KIND] == rb.OFFER:
        se[seat, E_REFUSED] = 1
    _ask_transfer(tb)


@table_jit()
def _end_hand(tb, new_bank, reason):  # type: ignore[no-untyped-def]
    """Discard the cards, rotate the bank, start the next hand or end."""
    r, _, tt, se, hf, cd, _, disc, _, rows = table_arrays(tb)
    tt[T_PLAYED] += 1
    n = se.shape[0]
    slots = _slots(r)
    d = tt[T_DISCARD]
    for s in range(n):
        for h in range(se[s, E_HANDS]):
            slot = s * slots + h
            for c in range(hf[slot, H_CARDS]):
                disc[d] = cd[slot, c, C_CODE]
                d += 1
        se[s, E_HANDS] = 0
    b = _bank_slot(r)
    for c in range(hf[b, H_CARDS]):
        disc[d] = cd[b, c, C_CODE]
        d += 1
    tt[T_DISCARD] = d
    _clear_hand(hf, b)
    tt[T_ORDER_LEN] = 0
    _pass_on(tb, new_bank, reason)
    if r[C_MAX_HANDS] >= 0 and tt[T_PLAYED] >= r[C_MAX_HANDS]:
        _finish_episode(tb)
        return
    if not _settle_bank_seat(tb, tt[T_BANK], _R_CANNOT_COVER):
        _finish_episode(tb)
        return
    tt[T_NEXT_HAND] = 1  # the caller starts it: no call cycle (numba caches no recursion)


@table_jit()
def _play_on(tb):  # type: ignore[no-untyped-def]
    """Start each next hand a transition ended with, until the table waits for a decision.

    A hand can end and the next begin inside one transition (the bank's last
    action settles it, the deal of the next may run straight into another
    settlement): :func:`_end_hand` only flags it, and this loop starts it.
    """
    r, lad, tt, se, hf, cd, pile, disc, g, rows = table_arrays(tb)
    while tt[T_NEXT_HAND]:
        tt[T_NEXT_HAND] = 0
        _start_hand(tb)


# ------------------------------------------------------------------------- actions
@table_jit()
def _bet_action(tb, action):  # type: ignore[no-untyped-def]
    r, lad, tt, se, hf, cd, pile, disc, g, rows = table_arrays(tb)
    seat = tt[T_ACTOR]
    index = tt[T_HAND_INDEX]
    slot = seat * _slots(r) + index
    amount = lad[action - r[C_BET_START]] * r[rb.R_MIN_BET]
    se[seat, E_CHIPS] -= amount
    hf[slot, H_BET] = amount
    _row(tt, rows, ev.K_BET, seat, amount, index, 0, 0, 0)
    purpose = tt[T_PURPOSE]
    if purpose == PURPOSE_ROUND:
        tt[T_TURN] += 1
        if tt[T_TURN] < tt[T_ORDER_LEN]:
            tt[T_ACTOR] = se[tt[T_TURN], E_ORDER]
        else:
            _deal(tb)
    elif purpose == PURPOSE_SPLIT:
        tt[T_HAND_INDEX] = index - 1  # back to the hand that was split
        tt[T_PHASE] = PLAY
    else:
        tt[T_PHASE] = PLAY


@table_jit()
def _split(tb, slot):  # type: ignore[no-untyped-def]
    """RULES.md §6 split (``house_rules.Split.apply``): the last card starts the next hand."""
    r, _, tt, se, hf, cd, _, _, _, rows = table_arrays(tb)
    seat = tt[T_ACTOR]
    index = tt[T_HAND_INDEX]
    i = _remove_last(tb, slot)
    card = np.int64(cd[slot, i, C_CODE])
    up = np.int64(cd[slot, i, C_UP])
    unseen = np.int64(cd[slot, i, C_UNSEEN])
    hf[slot, H_SPLITS] += 1
    base = seat * _slots(r)
    count = se[seat, E_HANDS]
    for h in range(count - 1, index, -1):  # the later hands move up one
        for k in range(hf.shape[1]):
            hf[base + h + 1, k] = hf[base + h, k]
        for k in range(cd.shape[1]):
            for j in range(cd.shape[2]):
                cd[base + h + 1, k, j] = cd[base + h, k, j]
    new = slot + 1
    _clear_hand(hf, new)
    _add(r, hf, cd, new, card, up, unseen)
    se[seat, E_HANDS] = count + 1
    _row(tt, rows, ev.K_SPLIT, seat, card, index, index + 1, up, unseen)
    _set_status(r, tt, se, hf, rows, new, WAITING)
    _set_status(r, tt, se, hf, rows, slot, PLAYING)
    if r[rb.R_SPLIT_RULE] == rb.SPLIT_ONCE:
        bet = hf[slot, H_BET]
        se[seat, E_CHIPS] -= bet  # CAT: "una segona aposta igual"
        hf[new, H_BET] = bet
        _row(tt, rows, ev.K_BET, seat, bet, index + 1, 0, 0, 0)
    else:
        tt[T_HAND_INDEX] = index + 1
        tt[T_PURPOSE] = PURPOSE_SPLIT
        tt[T_PHASE] = BET


@table_jit()
def _player_action(tb, action):  # type: ignore[no-untyped-def]
    r, lad, tt, se, hf, cd, pile, disc, g, rows = table_arrays(tb)
    seat = tt[T_ACTOR]
    index = tt[T_HAND_INDEX]
    slot = seat * _slots(r) + index
    if action == A.STAND:
        _set_status(r, tt, se, hf, rows, slot, STOOD)
        _next_hand(tb)
        return
    if action == A.HIT:
        up = 1 if rb.hit_face_up(r[rb.R_HIDDEN_CARDS], hf[slot, H_HIDDEN]) else 0
        _give(tb, slot, up, _OWNER_SEES)
    elif action == A.REVEAL_HIT:
        _reveal(tb, slot)
        _give(tb, slot, _FACE_DOWN, _OWNER_SEES)
    elif action == A.DOUBLE:  # RULES.md §6 double: one more card, then stand
        bet = hf[slot, H_BET]
        se[seat, E_CHIPS] -= bet
        hf[slot, H_BET] = 2 * bet
        hf[slot, H_DOUBLED] = 1
        _row(tt, rows, ev.K_DOUBLE, seat, 2 * bet, index, 0, 0, 0)
        up = 1 if rb.hit_face_up(r[rb.R_HIDDEN_CARDS], hf[slot, H_HIDDEN]) else 0
        _give(tb, slot, up, _OWNER_SEES)
        if not _after_card(tb, slot):
            _set_status(r, tt, se, hf, rows, slot, STOOD)
            _next_hand(tb)
        return
    elif action == A.SPLIT:
        _split(tb, slot)
        return
    elif action == A.DECLINE:  # RULES.md §6 mort: play on
        tt[T_MORT_DECIDED] = 1
        _row(tt, rows, ev.K_DECLINE_MORT, seat, 0, 0, 0, 0, 0)
        return
    elif action == A.MORT:  # one card face down, seen by nobody; the hand stands
        hf[slot, H_SPECIAL] = MORT
        _reveal(tb, slot)
        _row(tt, rows, ev.K_SPECIAL, seat, _S_MORT, index, 0, 0, 0)
        _give(tb, slot, _FACE_DOWN, _NOBODY_SEES)
        _set_status(r, tt, se, hf, rows, slot, STOOD)
        _next_hand(tb)
        return
    else:  # raise_<k>
        amount = lad[action - r[C_RAISE_START]] * r[rb.R_MIN_BET]
        se[seat, E_CHIPS] -= amount
        hf[slot, H_BET] += amount
        tt[T_RAISED] = 1
        _row(tt, rows, ev.K_RAISE, seat, amount, hf[slot, H_BET], index, 0, 0)
        return
    tt[T_RAISED] = 0
    _after_card(tb, slot)


@table_jit()
def _bank_action(tb, action):  # type: ignore[no-untyped-def]
    r, lad, tt, se, hf, cd, pile, disc, g, rows = table_arrays(tb)
    b = _bank_slot(r)
    if action == A.STAND:
        _set_status(r, tt, se, hf, rows, b, STOOD)
        _settle(tb)
        return
    _give(tb, b, _FACE_UP, _OWNER_SEES)
    total = hf[b, H_TOTAL]
    if r[rb.R_PAIR_OF_SEVENS] and hf[b, H_CARDS] == 2 \
            and cd[b, 0, C_CODE] % _NUM_RANKS == _SEVEN_RANK \
            and cd[b, 1, C_CODE] % _NUM_RANKS == _SEVEN_RANK:
        hf[b, H_SPECIAL] = PAIR_OF_SEVENS
        _row(tt, rows, ev.K_SPECIAL, tt[T_BANK], _S_PAIR, 0, 0, 0, 0)
        _set_status(r, tt, se, hf, rows, b, STOOD)
        _settle(tb)
    elif total > SEVEN_AND_HALF:
        _set_status(r, tt, se, hf, rows, b, BUST)
        _row(tt, rows, ev.K_BUST, tt[T_BANK], total, 0, 0, 0, 0)
        _settle(tb)
    elif total == SEVEN_AND_HALF:
        _set_status(r, tt, se, hf, rows, b, STOOD)
        _settle(tb)


@table_jit()
def step_table(tb, action):  # type: ignore[no-untyped-def]
    """``Engine.step(action)`` at one table (the action is legal: the caller checked)."""
    r, lad, tt, se, hf, cd, pile, disc, g, rows = table_arrays(tb)
    tt[T_REWARDED] = 0
    _row(tt, rows, ev.K_ACTION, tt[T_ACTOR], action, 0, 0, 0, 0)
    phase = tt[T_PHASE]
    if phase == PLAY:
        _player_action(tb, action)
    elif phase == BANK:
        _bank_action(tb, action)
    elif phase == BET:
        _bet_action(tb, action)
    else:
        _answer_transfer(tb, action)
    _play_on(tb)


# ------------------------------------------------------------------------- reset
@table_jit()
def reset_table(tb, seed, given_bank):  # type: ignore[no-untyped-def]
    """``Engine.reset(seed=seed, bank=given_bank or None)`` at one table; ``se``'s chips are set."""
    r, lad, tt, se, hf, cd, pile, disc, g, rows = table_arrays(tb)
    seed_state(seed, g)
    tt[:] = 0
    tt[T_SEED] = seed
    _row(tt, rows, ev.K_RESET, seed, given_bank, 0, 0, 0, 0)
    n = se.shape[0]
    for s in range(n):
        se[s, E_REFUSED] = 0
        se[s, E_HANDS] = 0
        se[s, E_CURRENT] = 0
        se[s, E_NET] = 0
        se[s, E_START_CHIPS] = se[s, E_CHIPS]
    size = 40 * r[rb.R_DECKS]
    for i in range(size):
        pile[i] = i % 40
    tt[T_PILE] = size
    _clear_hand(hf, _bank_slot(r))
    tt[T_ACTOR] = -1
    _shuffle_all(tb)
    tt[T_BANK] = -1
    if given_bank >= 0:
        _row(tt, rows, ev.K_FIRST_BANK, given_bank, _R_GIVEN, 0, 0, 0, 0)
        bank = given_bank
    else:
        bank = _draw_first_bank(tb)
    tt[T_BANK] = bank
    if not _settle_bank_seat(tb, bank, _R_FIRST_BANK):
        _finish_episode(tb)
        return
    tt[T_NEXT_HAND] = 1
    _play_on(tb)


# ------------------------------------------------------------------------- legal actions
@table_jit(inline=True)
def _stakes(r, lad, mask, start, low, high):  # type: ignore[no-untyped-def]
    """RULES.md §8.9: the ladder's stakes of ``low`` to ``high`` chips, from action ``start``."""
    for i in range(lad.shape[0]):
        k = lad[i] * r[rb.R_MIN_BET]
        if low <= k <= high:
            mask[start + i] = 1


@table_jit()
def _bank_must_chase(tb):  # type: ignore[no-untyped-def]
    """RULES.md §4.6: the bank may not stand below 7½ against a declared 7½ (``forces_chase``)."""
    r, _, tt, se, hf, _, _, _, _, _ = table_arrays(tb)
    if hf[_bank_slot(r), H_TOTAL] >= SEVEN_AND_HALF:
        return False
    chase = r[rb.R_CHASE_DECLARED] != 0
    slots = _slots(r)
    for i in range(tt[T_ORDER_LEN]):
        s = se[i, E_ORDER]
        for h in range(se[s, E_HANDS]):
            slot = s * slots + h
            if not hf[slot, H_SETTLED] and rb.forces_chase(hf[slot, H_SPECIAL],
                                                           hf[slot, H_STATUS], chase):
                return True
    return False


@table_jit()
def fill_mask(tb, mask):  # type: ignore[no-untyped-def]
    """``Engine.action_mask()`` of the table into ``mask`` (zeros when over)."""
    r, lad, tt, se, hf, cd, _, _, _, _ = table_arrays(tb)
    mask[:] = 0
    phase = tt[T_PHASE]
    if phase == OVER:
        return
    actor = tt[T_ACTOR]
    if phase == PLAY:
        slot = actor * _slots(r) + tt[T_HAND_INDEX]
        h = hf[slot]
        if h[H_TOTAL] == SEVEN_AND_HALF:
            mask[A.STAND] = 1  # RULES.md §4.5 the turn ends, undeclared: as a stand (§8.7)
            return
        can_draw = _can_draw(r, tt)
        initial = tt[T_HAND_INDEX] == 0 and h[H_CARDS] == 1 and h[H_SPECIAL] == NONE
        initial_seven = initial and cd[slot, 0, C_CODE] % _NUM_RANKS == _SEVEN_RANK
        if r[rb.R_SECRET_THREE] and h[H_SPECIAL] == SECRET:
            mask[A.STAND] = 1
            return
        if r[rb.R_MORT] and initial_seven and not tt[T_MORT_DECIDED] and can_draw:
            mask[A.MORT] = 1
            mask[A.DECLINE] = 1
            return
        mask[A.STAND] = 1
        if can_draw:
            mask[A.HIT] = 1
            if r[rb.R_HIDDEN_CARDS] == rb.PLAYER_CHOICE and h[H_HIDDEN]:
                mask[A.REVEAL_HIT] = 1
        chips = se[actor, E_CHIPS]
        if r[rb.R_DOUBLE] and can_draw and h[H_CARDS] == 1 and not h[H_DOUBLED] \
                and chips >= h[H_BET]:
            mask[A.DOUBLE] = 1
        if r[rb.R_SPLIT_RULE] != rb.SPLIT_NONE:
            opened = 0
            base = actor * _slots(r)
            for i in range(se[actor, E_HANDS]):
                opened += hf[base + i, H_SPLITS]
            if rb.may_split(r, lad, h[H_CARDS], cd[slot, 0, C_CODE], cd[slot, 1, C_CODE],
                            h[H_SPECIAL], h[H_DOUBLED] != 0, opened, chips, h[H_BET]):
                mask[A.SPLIT] = 1
        if r[rb.R_BET_RAISE] and not tt[T_RAISED]:
            room = min(r[rb.R_MAX_BET] - h[H_BET], chips)
            _stakes(r, lad, mask, r[C_RAISE_START], 1, room)
    elif phase == BANK:
        can_draw = _can_draw(r, tt)
        if not (_bank_must_chase(tb) and can_draw):
            mask[A.STAND] = 1
        if can_draw:
            mask[A.HIT] = 1
    elif phase == BET:
        low = r[rb.R_SMALLEST_STAKE]
        if tt[T_PURPOSE] == PURPOSE_SPLIT:
            low = rb.split_floor(r, hf[actor * _slots(r) + tt[T_HAND_INDEX] - 1, H_BET])
        _stakes(r, lad, mask, r[C_BET_START], low,
                min(r[rb.R_MAX_BET], se[actor, E_CHIPS]))
    elif phase == TRANSFER:
        if r[rb.R_BANK_TRANSFER] == rb.RIGHT:
            mask[A.REFUSE_BANK] = 1
            mask[A.CLAIM_BANK] = 1
        else:
            mask[A.TAKE_BANK] = 1
            mask[A.REFUSE_BANK] = 1
