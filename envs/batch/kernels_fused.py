"""Whole episodes of threshold players and banks inside one kernel: the evaluator's fast path.

:func:`play_thresholds` resets each table (the shoe of ``Engine.reset(seed=)``),
plays it to its end with every decision taken by the built-in dealer's rule
— :func:`envs.seat_play.dealer_action` from the seat's known total, the
threshold of the role the seat holds at that moment — and counts each
settled hand per seat and role exactly as ``evaluate.tournament`` counts a
finished hand. No state leaves the kernel but the counts, and no events are
written (a table's row buffer is empty), so a heads-up hand costs a few
hundred nanoseconds.
"""

from __future__ import annotations

from typing import Final

import numpy as np
from numba import njit, prange

from envs import actions as A
from envs.batch import kernels_rulebook as rb
from envs.batch.event_rows import ROW
from envs.batch.kernels_table import (C_ACTIONS, C_HAND_SLOTS, C_NUM_SEATS, C_CODE, C_UNSEEN, C_UP,
                                      E_BUSTED, E_CHIPS, E_CURRENT, E_NATURAL, E_NET, E_ORDER,
                                      E_PLAYED, E_PRIZE, E_SIZE, H_CARDS, H_SIZE, MAX_CARDS,
                                      T_ACTOR, T_BANK, T_ORDER_LEN, T_PHASE, T_PLAYED,
                                      T_SETTLED_BANK, T_SIZE, fill_mask, reset_table, step_table)
from envs.batch.rng import RNG_WORDS
from envs.batch.handles import TABLE_HANDLE, pack_table
from envs.phases import OVER

__all__ = ["FIELDS", "play_thresholds"]

# The fields of one (seat, role) row, as evaluate.tournament counts them.
CHIPS: Final = 0
HANDS: Final = 1
WINS: Final = 2
PUSHES: Final = 3
LOSSES: Final = 4
BUSTS: Final = 5
NATURALS: Final = 6
JACKPOT_HITS: Final = 7
JACKPOT_CHIPS: Final = 8
FIELDS: Final = 9
_EPS: Final = 1e-9
_FIRST_BET: Final = len(A.CORE_ACTIONS)


@njit(cache=True)
def _known_total(r, tt, se, hf, cd, seat):  # type: ignore[no-untyped-def]
    """``Observer.own_total(seat)``: the best total of the cards ``seat`` knows in its current hand.

    A card is known to its owner when face up, or face down and not unseen,
    except the bank's face-down card, which nobody sees before its turn (RULES.md §4.6).
    """
    slots = r[C_HAND_SLOTS]
    is_bank = seat == tt[T_BANK]
    slot = r[C_NUM_SEATS] * slots if is_bank else seat * slots + se[seat, E_CURRENT]
    base = 0
    wilds = 0
    for i in range(hf[slot, H_CARDS]):
        if cd[slot, i, C_UP] or not (cd[slot, i, C_UNSEEN] or is_bank):
            card = np.int64(cd[slot, i, C_CODE])
            if card == r[rb.R_WILD]:
                wilds += 1
            else:
                base += rb.card_points(card)
    return rb.best_total(base, wilds)


@njit(cache=True)
def dealer_action(threshold, total, mask):  # type: ignore[no-untyped-def]
    """:func:`envs.seat_play.dealer_action`, branch for branch."""
    if mask[A.TAKE_BANK]:
        return A.TAKE_BANK
    if mask[A.CLAIM_BANK]:
        return A.CLAIM_BANK
    if mask[A.HIT] or mask[A.STAND]:
        want = A.HIT if total / 2 < threshold - 1e-6 else A.STAND
        if mask[want]:
            return want
        return A.STAND if mask[A.STAND] else A.HIT
    if mask[A.PASS]:
        return A.PASS
    if mask[A.DECLINE]:
        return A.DECLINE
    for a in range(_FIRST_BET, mask.shape[0]):
        if mask[a]:
            return a
    for a in range(mask.shape[0]):
        if mask[a]:
            return a
    return -1


@njit(cache=True)
def _count(r, tt, se, counts, ante_next):  # type: ignore[no-untyped-def]
    """Add the hand just finished to ``counts[seat, role, field]`` (``tournament._count_hand``).

    Called on the step that finishes the hand (the settlement, or the answer to
    a bank offer after it). As the tournament reads that hand's events, a seat's
    jackpot flows are its prize and, when the same step dealt the next hand,
    that hand's ante.
    """
    scale = 1.0 / r[rb.R_MIN_BET]
    bank = tt[T_SETTLED_BANK]
    ante = r[rb.R_JACKPOT_ANTE] * scale
    ante_next[:] = False
    if tt[T_PHASE] != OVER:
        for i in range(tt[T_ORDER_LEN]):
            ante_next[se[i, E_ORDER]] = True
    for s in range(se.shape[0]):
        is_bank = s == bank
        if not (is_bank or se[s, E_PLAYED]):
            continue
        row = counts[s, 1 if is_bank else 0]
        net = se[s, E_NET] * scale
        prize = se[s, E_PRIZE] * scale
        flows = prize - (ante if ante_next[s] else 0.0)
        row[CHIPS] += net
        row[HANDS] += 1
        result = net - flows
        if result > _EPS:
            row[WINS] += 1
        elif result < -_EPS:
            row[LOSSES] += 1
        else:
            row[PUSHES] += 1
        row[BUSTS] += se[s, E_BUSTED]
        row[NATURALS] += se[s, E_NATURAL]
        if se[s, E_PRIZE]:
            row[JACKPOT_HITS] += 1
            row[JACKPOT_CHIPS] += prize


@njit(cache=True, parallel=True)
def play_thresholds(r, lad, seeds, banks, thresholds, counts, chunks):  # type: ignore[no-untyped-def]
    """Play table ``t`` from ``seeds[t]`` (first bank ``banks[t]``, -1: the rules') to its end.

    ``thresholds[t, seat, role]`` (points; role 0 player, 1 bank) decide; the
    counts of every settled hand are added to ``counts[t]`` (``(S, 2, FIELDS)``).
    The tables are split into ``chunks`` runs, each with its own scratch table.
    """
    total = seeds.shape[0]
    n = r[C_NUM_SEATS]
    slots = r[C_HAND_SLOTS] * n + 1
    shoe = 40 * r[rb.R_DECKS]
    per = (total + chunks - 1) // chunks
    for c in prange(chunks):
        tt = np.zeros(T_SIZE, dtype=np.int64)
        se = np.zeros((n, E_SIZE), dtype=np.int64)
        hf = np.zeros((slots, H_SIZE), dtype=np.int64)
        cd = np.zeros((slots, MAX_CARDS, 3), dtype=np.int8)
        pile = np.zeros(shoe, dtype=np.int8)
        disc = np.zeros(shoe, dtype=np.int8)
        g = np.zeros(RNG_WORDS, dtype=np.uint64)
        rows = np.zeros((0, ROW), dtype=np.int64)
        mask = np.zeros(r[C_ACTIONS], dtype=np.int8)
        ante_next = np.zeros(n, dtype=np.bool_)
        tb = np.zeros(TABLE_HANDLE, dtype=np.int64)
        pack_table(tb, r, lad, tt, se, hf, cd, pile, disc, g, rows)
        for t in range(c * per, min(total, (c + 1) * per)):
            se[:, E_CHIPS] = r[rb.R_STARTING_CHIPS]
            reset_table(tb, seeds[t], banks[t])
            while tt[T_PHASE] != OVER:
                fill_mask(tb, mask)
                actor = tt[T_ACTOR]
                role = 1 if actor == tt[T_BANK] else 0
                known = _known_total(r, tt, se, hf, cd, actor)
                played = tt[T_PLAYED]
                step_table(tb, dealer_action(thresholds[t, actor, role], known, mask))
                if tt[T_PLAYED] != played:
                    _count(r, tt, se, counts[t], ante_next)
