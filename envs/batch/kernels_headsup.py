"""Heads-up ``catalan``, threshold against threshold, in one flat kernel: the fastest evaluator.

:func:`play_headsup` returns what :func:`envs.batch.kernels_fused.play_thresholds`
returns — the same hands from the same seeds, counted per seat and role as
``evaluate.tournament`` counts them — for exactly two rule sets at two
seats: the ``catalan`` preset and its fixed-bank form
(:func:`envs.single_seat.fixed_bank_rules`). Knowing the rules, the general
turn sequence of :mod:`envs.batch.kernels_table` collapses to a straight
line per hand, each table's state held in local scalars:

* RULES.md §5 high card: with one deck no two cards tie, a re-deal still follows the rule;
* RULES.md §2, §4.9: the player antes, then stakes the smallest stake (the
  first stake :func:`envs.seat_play.dealer_action` finds on offer); one
  card each, the player's then the bank's (§4.2);
* RULES.md §4.3, §4.6: the player hits while below its threshold (a 7½ ends
  the turn, §4.5; a bust pays the bank at once, §4.4), then the bank does
  likewise with its cards turned up; no house rule offers another action;
* RULES.md §4.7–4.9: the bank's 7½ wins every hand, a natural pays 2, the
  bank pays within what it holds, a player's natural takes the jackpot
  unless the bank made 7½;
* RULES.md §5, §8.2: a player winning with 7½ who can hold the bank is
  offered it and takes it (a threshold agent always does, so no refusal is
  ever remembered), except on the last hand; the bank passes on after
  ``max_bank_hands`` and whenever it cannot cover the table;
* RULES.md §3 ``when_empty``: the discards are shuffled into a new shoe when a card is wanted.

Which faces are up does not change a threshold decision here: a player
sees all its own cards (no card is unseen without the Mort or the secret
three) and the bank decides only after turning its cards up.
"""

from __future__ import annotations

from typing import Final

import numpy as np
from numba import njit, prange

from envs.batch import kernels_rulebook as rb
from envs.batch.kernels_fused import (BUSTS, CHIPS, FIELDS, HANDS, JACKPOT_CHIPS, JACKPOT_HITS,
                                      LOSSES, NATURALS, PUSHES, WINS)
from envs.batch.kernels_table import C_MAX_HANDS, MAX_CARDS
from envs.batch.rng import (_BUF32, _HAS32, _I_HI, _I_LO, _MASK32, _MULT_HI, _MULT_LO, _S_HI, _S_LO,
                            _U0, _U1, _U32, RNG_WORDS, _mulhi, seed_state)
from envs.cards import SEVEN_AND_HALF

__all__ = ["FIELDS", "hits", "play_headsup"]

_EPS: Final = 1e-9
_NUM_RANKS: Final = 10
_SUIT_ORDER = np.array((2, 3, 0, 1), dtype=np.int64)  # §5: copas > oros > bastos > espadas


@njit(cache=True, inline="always")
def hits(threshold, points):  # type: ignore[no-untyped-def]
    """:func:`envs.seat_play.dealer_action` offered both hit and stand: hit below ``threshold``
    points (``points`` in half points), else stand (``tests/test_batch_threshold_copies.py``)."""
    return points / 2 < threshold - 1e-6


@njit(cache=True, inline="always")
def _holder(start, chips0, chips1, need, cover):  # type: ignore[no-untyped-def]
    """``bank_seat.next_bank_seat`` at two seats: the first from ``start`` able to bank, or -1.

    RULES.md §5: the bank needs a player able to stake (``need`` chips) and
    ``cover`` chips of its own.
    """
    for i in range(2):
        seat = (start + i) % 2
        own, other = (chips0, chips1) if seat == 0 else (chips1, chips0)
        if other >= need and own >= cover:
            return seat
    return -1


@njit(cache=True, inline="always")
def _shuffle(g, items, n):  # type: ignore[no-untyped-def]
    """``rng.shuffle(g, items, n)`` (``Generator.shuffle``) with the generator's words in registers.

    The same arithmetic as :mod:`envs.batch.rng` (a PCG64 step, XSL-RR, the
    buffered 32-bit half, masked rejection), on locals: a shoe has fewer than
    2**32 cards, so every swap draws 32-bit words.
    """
    s_hi = g[_S_HI]
    s_lo = g[_S_LO]
    i_hi = g[_I_HI]
    i_lo = g[_I_LO]
    has = g[_HAS32]
    buf = g[_BUF32]
    for i in range(n - 1, 0, -1):
        top = np.uint64(i)
        mask = top
        mask |= mask >> np.uint64(1)
        mask |= mask >> np.uint64(2)
        mask |= mask >> np.uint64(4)
        mask |= mask >> np.uint64(8)
        mask |= mask >> np.uint64(16)
        while True:
            if has:
                has = _U0
                value = buf
            else:
                p_lo = s_lo * _MULT_LO
                p_hi = _mulhi(s_lo, _MULT_LO) + s_lo * _MULT_HI + s_hi * _MULT_LO
                lo = p_lo + i_lo
                s_hi = p_hi + i_hi + (_U1 if lo < p_lo else _U0)
                s_lo = lo
                word = s_hi ^ s_lo
                rot = s_hi >> np.uint64(58)
                word = (word >> rot) | (word << ((np.uint64(64) - rot) & np.uint64(63)))
                has = _U1
                buf = word >> _U32
                value = word & _MASK32
            value &= mask
            if value <= top:
                break
        j = np.int64(value)
        swap = items[i]
        items[i] = items[j]
        items[j] = swap
    g[_S_HI] = s_hi
    g[_S_LO] = s_lo
    g[_HAS32] = has
    g[_BUF32] = buf


@njit(cache=True, inline="always")
def _draw(pile, disc, g, piled, discarded):  # type: ignore[no-untyped-def]
    """The top card of the shoe; an empty shoe is first refilled from the discards, shuffled (§3).

    Returns the card and the new sizes of the draw and discard piles.
    """
    if piled == 0:
        for i in range(discarded):
            pile[i] = disc[i]
        piled = discarded
        discarded = 0
        _shuffle(g, pile, piled)
    piled -= 1
    return np.int64(pile[piled]), piled, discarded


@njit(cache=True, inline="always")
def _count(counts, t, seat, role, net, prize, ante_next, busted, natural, scale,
           ante):  # type: ignore[no-untyped-def]
    """``kernels_fused._count`` for one seat: add its finished hand to ``counts[t, seat, role]``."""
    chips = net * scale
    won = prize * scale
    flows = won - (ante if ante_next else 0.0)
    counts[t, seat, role, CHIPS] += chips
    counts[t, seat, role, HANDS] += 1
    result = chips - flows
    if result > _EPS:
        counts[t, seat, role, WINS] += 1
    elif result < -_EPS:
        counts[t, seat, role, LOSSES] += 1
    else:
        counts[t, seat, role, PUSHES] += 1
    if busted:
        counts[t, seat, role, BUSTS] += 1
    if natural:
        counts[t, seat, role, NATURALS] += 1
    if prize:
        counts[t, seat, role, JACKPOT_HITS] += 1
        counts[t, seat, role, JACKPOT_CHIPS] += won


@njit(cache=True, parallel=True)
def play_headsup(r, seeds, banks, thresholds, counts, chunks):  # type: ignore[no-untyped-def]
    """``kernels_fused.play_thresholds`` at two seats of ``catalan`` or its fixed-bank form.

    Table ``t`` deals the shoe of ``seeds[t]`` (first bank ``banks[t]``, -1:
    high card) and plays to its end, ``thresholds[t, seat, role]`` (points;
    role 0 player, 1 bank) deciding; each finished hand is added to
    ``counts[t]`` (``(2, 2, FIELDS)``). ``chunks`` runs of tables share out the threads.
    """
    total = seeds.shape[0]
    shoe = 40 * r[rb.R_DECKS]
    stake = r[rb.R_SMALLEST_STAKE]
    ante_chips = r[rb.R_JACKPOT_ANTE]
    need = rb.seat_need(stake, ante_chips)
    cover = rb.bank_cover(r, 1)
    offer = r[rb.R_BANK_TRANSFER] == rb.OFFER
    max_bank_hands = r[rb.R_MAX_BANK_HANDS]
    max_hands = r[C_MAX_HANDS]
    natural_pays = r[rb.R_NATURAL_PAYS]
    starting = r[rb.R_STARTING_CHIPS]
    scale = 1.0 / r[rb.R_MIN_BET]
    ante = r[rb.R_JACKPOT_ANTE] * scale
    per = (total + chunks - 1) // chunks
    for c in prange(chunks):
        pile = np.zeros(shoe, dtype=np.int8)
        disc = np.zeros(shoe, dtype=np.int8)
        g = np.zeros(RNG_WORDS, dtype=np.uint64)
        held = np.zeros(MAX_CARDS, dtype=np.int64)  # the player's cards
        bank_held = np.zeros(MAX_CARDS, dtype=np.int64)
        for t in range(c * per, min(total, (c + 1) * per)):
            seed_state(seeds[t], g)
            for i in range(shoe):
                pile[i] = i % 40
            piled = shoe
            discarded = 0
            _shuffle(g, pile, piled)
            bank = banks[t]
            while bank < 0:  # RULES.md §5 high card, ties re-dealt
                first = pile[piled - 1]
                second = pile[piled - 2]
                pile[piled - 2] = first
                pile[piled - 1] = second
                _shuffle(g, pile, piled)
                key0 = (first % _NUM_RANKS) * 4 + _SUIT_ORDER[first // _NUM_RANKS]
                key1 = (second % _NUM_RANKS) * 4 + _SUIT_ORDER[second // _NUM_RANKS]
                if key0 != key1:
                    bank = 0 if key0 > key1 else 1
            chips0 = starting
            chips1 = starting
            bank = _holder(bank, chips0, chips1, need, cover)
            jackpot = 0
            played = 0
            streak = 0
            while bank >= 0:
                # RULES.md §2, §4.9: the ante and the smallest stake, before the deal.
                player = 1 - bank
                start0 = chips0
                start1 = chips1
                streak += 1
                if player == 0:
                    chips0 -= ante_chips + stake
                else:
                    chips1 -= ante_chips + stake
                jackpot += ante_chips
                card, piled, discarded = _draw(pile, disc, g, piled, discarded)
                held[0] = card
                cards = 1
                points = rb.card_points(card)
                card, piled, discarded = _draw(pile, disc, g, piled, discarded)
                bank_held[0] = card
                bank_cards = 1
                bank_points = rb.card_points(card)
                # RULES.md §4.3–4.5: the player's turn.
                bust = False
                while points != SEVEN_AND_HALF and (piled > 0 or discarded > 0) \
                        and hits(thresholds[t, player, 0], points):
                    card, piled, discarded = _draw(pile, disc, g, piled, discarded)
                    held[cards] = card
                    cards += 1
                    points += rb.card_points(card)
                    if points > SEVEN_AND_HALF:
                        bust = True
                        break
                # RULES.md §4.6: the bank's turn, if the player stands.
                if not bust:
                    while bank_points < SEVEN_AND_HALF and (piled > 0 or discarded > 0) \
                            and hits(thresholds[t, bank, 1], bank_points):
                        card, piled, discarded = _draw(pile, disc, g, piled, discarded)
                        bank_held[bank_cards] = card
                        bank_cards += 1
                        bank_points += rb.card_points(card)
                # RULES.md §4.7, §4.8: the stake collected or paid within coverage.
                natural = points == SEVEN_AND_HALF and cards == 2
                multiple = 0
                if not bust:
                    if bank_points > SEVEN_AND_HALF:
                        multiple = natural_pays if natural else 1
                    elif bank_points < SEVEN_AND_HALF and points > bank_points:
                        multiple = natural_pays if natural else 1
                bank_chips = chips0 if bank == 0 else chips1
                player_chips = chips1 if bank == 0 else chips0
                if multiple == 0:
                    bank_chips += stake
                else:
                    pay = min(multiple * stake, bank_chips)
                    bank_chips -= pay
                    player_chips += stake + pay
                # RULES.md §4.9: a player's natural takes the jackpot, unless the bank made 7½.
                prize = 0
                if jackpot and bank_points != SEVEN_AND_HALF and natural:
                    prize = jackpot
                    player_chips += prize
                    jackpot = 0
                chips0 = bank_chips if bank == 0 else player_chips
                chips1 = player_chips if bank == 0 else bank_chips
                # RULES.md §5: the winner with 7½ takes the offered bank, except on the last hand.
                settled_bank = bank
                played += 1
                new_bank = -1
                if offer and multiple and points == SEVEN_AND_HALF \
                        and _holder(player, chips0, chips1, need, cover) == player \
                        and not (max_hands >= 0 and played >= max_hands):
                    new_bank = player
                for i in range(cards):
                    disc[discarded] = held[i]
                    discarded += 1
                for i in range(bank_cards):
                    disc[discarded] = bank_held[i]
                    discarded += 1
                if new_bank >= 0:
                    bank = new_bank
                    streak = 0
                elif max_bank_hands and streak >= max_bank_hands:  # RULES.md §8.2
                    successor = _holder(bank + 1, chips0, chips1, need, cover)
                    if successor >= 0 and successor != bank:
                        bank = successor
                        streak = 0
                if max_hands >= 0 and played >= max_hands:
                    bank = -1
                else:
                    keeper = _holder(bank, chips0, chips1, need, cover)
                    if keeper >= 0 and keeper != bank:
                        streak = 0
                    bank = keeper
                _count(counts, t, settled_bank, 1, (chips0 if settled_bank == 0 else chips1)
                       - (start0 if settled_bank == 0 else start1), 0,
                       bank >= 0 and bank != settled_bank,
                       bank_points > SEVEN_AND_HALF,
                       bank_points == SEVEN_AND_HALF and bank_cards == 2, scale, ante)
                _count(counts, t, player, 0, (chips0 if player == 0 else chips1)
                       - (start0 if player == 0 else start1), prize,
                       bank >= 0 and bank != player, bust, natural, scale, ante)
