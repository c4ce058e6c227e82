"""The baselines over a batch of observations: one compiled call decides for many seats.

:func:`batch_policy` turns an agent into a :class:`envs.policy.BatchPolicy` —
``act_batch(observations (n, D) float32, masks (n, A) int8) -> (n,) int64`` —
that chooses, row by row, exactly what the agent's own ``act`` chooses on
the same observation and mask; ``act`` itself stays the agent's, so the
wrapped agent sits anywhere a scalar policy does. It returns ``None`` for an
agent it has no kernel for (random play, whose draws come from each seat's
own stream: :mod:`agents.seating`); callers loop ``act`` over those rows.

* **threshold** (:class:`agents.scripted.ThresholdAgent`): the built-in
  dealer's rule, :func:`envs.seat_play.dealer_action`, from the seat's own
  total (``own_total``) and the mask;
* **careful** and **reader** (:class:`agents.heuristics.CarefulAgent`): the
  careful player and the table-reading bank. The values of its bank model
  (:class:`agents.heuristics._PlayerModel`: standing on a total, playing a
  hand on) do not depend on the table, so they are tabulated once per rule
  set by the agent's own code; the kernel does the rest from the observation
  — the live odds of the unseen cards, one card ahead as a player, the odds
  of every standing player's total and the dynamic program over its own
  total as the bank — with the same floating-point operations in the same
  order as the scalar agent (numpy's float32 counts, its pairwise sum of a
  16-entry vector, Python's left-to-right sums), so every near-tie breaks
  the same way. A state outside the tables (a face-up total above the known
  total, which only a wild card could make) is handed to the scalar agent;
* **PLAYER|BANK** (:class:`agents.seating.RoleSplitAgent`): rows split by
  whether the seat holds the bank, each side batched when it can be;
* **learned models** (:class:`agents.learned.LearnedAgent`) batch themselves:
  their ``act_batch`` is one matrix product over the rows.

The kernels are ``numba`` functions compiled once and cached on disk
(``cache=True``); this module and :mod:`agents.batch_turns` are the ones of
:mod:`agents` that import numba, and only those who batch import them. The careful kernel's rows
are shared among numba's threads and it is compiled as the batch engine's
per-table code is (:func:`envs.batch.table_jit.table_jit`: no reference
counts, which every call between its functions paid for each array, from
both threads at once): it allocates nothing, each thread keeping a row's figures
in its scratch row, which :func:`careful_actions` allocates for the call.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any, Final, NamedTuple

import numpy as np
from numba import config, get_thread_id, njit, prange

from agents.heuristics import (_BANK_BEATS_UP_TO, RAISE_EDGE, STAKE_GAINS, STOOD_LIKELIHOOD,
                               CarefulAgent)
from agents.scripted import ThresholdAgent
from agents.seating import RoleSplitAgent
from envs.batch.jit_cache import CONSTANTS, refresh
from envs.batch.table_jit import table_jit
from envs import actions as A
from envs.cards import NUM_RANKS, SEVEN_AND_HALF
from envs.hands import DECLARED, STOOD
from envs.observation import GLOBAL_FIELDS, GLOBAL_SIZE, SEAT_BLOCK, SEAT_FIELDS, TOTAL_SCALE
from envs.phases import AUCTION, BANK, BET, SELL, SIDE_BET, TRANSFER
from envs.rulebook import FUSILAR_PAYS

_AGENTS: Final = Path(__file__).resolve().parent
POLICY_SOURCES: Final = (Path(__file__).resolve(), _AGENTS / "heuristics.py",
                         _AGENTS.parent / "envs" / "observation.py",
                         _AGENTS.parent / "envs" / "batch" / "table_jit.py", *CONSTANTS)
"""The files this module's kernels are compiled from (their constants and code): a change to
one clears the kernels' cache (:func:`envs.batch.jit_cache.refresh`), which numba alone
checks against this file only."""
refresh(_AGENTS, {"batch_policies": POLICY_SOURCES})

__all__ = ["BatchedAgent", "CarefulTables", "POLICY_SOURCES", "batch_policy", "careful_actions",
           "careful_tables", "threshold_actions"]

# ------------------------------------------------------------ the vector layout
_PHASE = GLOBAL_FIELDS["phase"].start
_NUM_PHASES = GLOBAL_FIELDS["phase"].stop - _PHASE
_SEEN = GLOBAL_FIELDS["seen_ranks"].start
_OWN_HIDDEN = GLOBAL_FIELDS["own_hidden"].start
_OWN_TOTAL = GLOBAL_FIELDS["own_total"].start
_IS_BANK = SEAT_FIELDS["is_bank"].start
_SITTING_OUT = SEAT_FIELDS["sitting_out"].start
_CHIPS = SEAT_FIELDS["chips"].start
_BET = SEAT_FIELDS["bet"].start
_STATUS = SEAT_FIELDS["status"].start
_NUM_STATUSES = SEAT_FIELDS["status"].stop - _STATUS
_UP_RANKS = SEAT_FIELDS["up_ranks"].start
_HIDDEN = SEAT_FIELDS["hidden"].start
_UP_TOTAL = SEAT_FIELDS["up_total"].start
_BUST = SEVEN_AND_HALF + 1
_FIGURE = 1
"""Half points of a figure (sota, caballo, rey: ½ point, RULES.md §1)."""
_FIRST_FIGURE_RANK = 7
"""Rank index of the sota; the two ranks after it are the other figures."""
_FIRST_BET = len(A.CORE_ACTIONS)
_NO_KERNEL = -1
"""A kernel's answer for a row it leaves to the scalar agent (the wrapper asks ``act``)."""
_STAKE_GAINS = np.array(STAKE_GAINS, dtype=np.float64)

# A row's scratch (float64), so the careful kernel allocates nothing (module docstring).
_W_UNSEEN = 0
"""The unseen count of every rank (float32 values, exact in float64)."""
_W_OPTION = _W_UNSEEN + NUM_RANKS
"""A player's value of every action before ``pass`` (``CarefulAgent._play``'s options)."""
_W_OFFERED = _W_OPTION + A.PASS
"""1.0 where that action is offered."""
_W_STAND = _W_OFFERED + A.PASS
_W_DIST = _W_STAND + _BUST
_W_NEXT = _W_DIST + _BUST
_W_MULT = _W_NEXT + _BUST
_W_BEATEN = _W_MULT + _BUST
_W_PAID = _W_BEATEN + _BUST + 1
_W_BEST = _W_PAID + _BUST + 1
_W_SIZE = _W_BEST + _BUST


@table_jit(inline=True)
def _half(entry: float) -> int:
    """A stored total back in half points (``ObservationReader._half``: Python's ``round``,
    half to even, of the float64 entry times the scale)."""
    return int(np.rint(np.float64(entry) * TOTAL_SCALE))


@table_jit(inline=True)
def _first_legal(mask: np.ndarray) -> int:
    for a in range(mask.shape[0]):
        if mask[a]:
            return a
    return _NO_KERNEL


# -------------------------------------------------------------- threshold
@table_jit()
def _threshold_action(threshold: float, total: int, mask: np.ndarray) -> int:
    """:func:`envs.seat_play.dealer_action`, the same branches in the same order."""
    if mask[A.TAKE_BANK]:
        return A.TAKE_BANK
    if mask[A.CLAIM_BANK]:
        return A.CLAIM_BANK
    if mask[A.HIT] or mask[A.STAND]:
        want = A.HIT if total / 2 < threshold - 1e-6 else A.STAND
        if mask[want]:
            return want
        return A.STAND if mask[A.STAND] else A.HIT
    first = _first_legal(mask)
    if first < 0:
        return _NO_KERNEL  # the scalar rule raises: no legal action
    if mask[A.PASS]:
        return A.PASS
    if mask[A.DECLINE]:
        return A.DECLINE
    for a in range(_FIRST_BET, mask.shape[0]):
        if mask[a]:
            return a
    return first


@njit(cache=True)
def threshold_actions(observations: np.ndarray, masks: np.ndarray, threshold: float
                      ) -> np.ndarray:
    """The threshold rule on every row: hit below ``threshold`` points of the seat's own
    total, stand at or above it, take the bank, pass, stake the minimum
    (:func:`envs.seat_play.dealer_action`); -1 where no action is legal."""
    out = np.empty(observations.shape[0], dtype=np.int64)
    for k in range(observations.shape[0]):
        out[k] = _threshold_action(threshold, _half(observations[k, _OWN_TOTAL]), masks[k])
    return out


# ---------------------------------------------------------------- careful
class CarefulTables(NamedTuple):
    """What the careful agent's bank model gives for one rule set, tabulated by its own code.

    ``stand[total, up, hidden > 0, natural]`` is ``_PlayerModel.stand`` and
    ``play[total, up, hidden > 0, first]`` is ``_PlayerModel.play`` (both depend
    on the face-down cards only through whether there are any); ``*_ok`` says
    where the model has a value (a face-up total above 7½ has none).
    ``numbers``: the scalar settings the kernel reads (:func:`_careful_numbers`).
    """

    stand: np.ndarray
    stand_ok: np.ndarray
    play: np.ndarray
    play_ok: np.ndarray
    numbers: np.ndarray


_N_DECKS, _N_FRESH_HAND, _N_CHASE, _N_NATURAL_PAYS, _N_OTHER_PAYS, _N_BEATS_MULTI, \
    _N_ASSUME_STAND, _N_ALTERNATE, _N_CHASE_DECLARED, _N_STARTING_CHIPS, _N_COVER, \
    _N_LADDER, _N_RAISE_START = range(13)
_N_SIZE = 13


def _careful_numbers(agent: CarefulAgent, num_seats: int) -> np.ndarray:
    r = agent.rules
    model = agent.model
    numbers = np.zeros(_N_SIZE, dtype=np.float64)
    numbers[_N_DECKS] = r.decks
    numbers[_N_FRESH_HAND] = model.fresh_hand
    numbers[_N_CHASE] = model.chase_seven_and_half
    numbers[_N_NATURAL_PAYS] = agent.natural_pays
    numbers[_N_OTHER_PAYS] = agent.other_pays
    numbers[_N_BEATS_MULTI] = agent.natural_beats_multicard
    numbers[_N_ASSUME_STAND] = agent.assume_stand
    numbers[_N_ALTERNATE] = model.alternate
    numbers[_N_CHASE_DECLARED] = r.bank_must_chase_declared
    numbers[_N_STARTING_CHIPS] = r.starting_chips
    numbers[_N_COVER] = (num_seats - 1) * r.max_bet * r.max_payout_multiple
    numbers[_N_LADDER] = len(agent.layout.ladder)
    numbers[_N_RAISE_START] = agent.layout.raise_start
    return numbers


def _tabulate(value: Any, shape: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """``value(*index)`` at every index of ``shape``, and where it has one."""
    table = np.zeros(shape, dtype=np.float64)
    ok = np.zeros(shape, dtype=np.bool_)
    for index in np.ndindex(*shape):
        try:
            table[index] = value(*index)
        except IndexError:  # a face-up total the model's bank cannot stop at
            continue
        ok[index] = True
    return table, ok


@lru_cache(maxsize=32)
def careful_tables(agent: CarefulAgent, num_seats: int) -> CarefulTables:
    """The tables of ``agent`` at a table of ``num_seats`` seats (cached per agent)."""
    model = agent.model
    shape = (_BUST, _BUST, 2, 2)
    stand, stand_ok = _tabulate(lambda t, u, h, nat: model.stand(t, u, h, bool(nat)), shape)
    play, play_ok = _tabulate(lambda t, u, h, f: model.play(t, u, h, bool(f)), shape)
    return CarefulTables(stand, stand_ok, play, play_ok, _careful_numbers(agent, num_seats))


@table_jit(inline=True)
def _pairwise16(x: np.ndarray) -> float:
    """``x.sum()`` of a 16-entry float64 vector as numpy adds it (eight running sums)."""
    r0, r1, r2, r3 = x[0] + x[8], x[1] + x[9], x[2] + x[10], x[3] + x[11]
    r4, r5, r6, r7 = x[4] + x[12], x[5] + x[13], x[6] + x[14], x[7] + x[15]
    return ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))


@table_jit(inline=True)
def _live_odds(obs: np.ndarray, decks: float, values: np.ndarray, probs: np.ndarray,
               unseen: np.ndarray) -> int:
    """``_by_value(_odds(view))`` of the careful agent into ``values``/``probs``; their count.

    The unseen cards are counted in float32 as ``ObservationReader.unseen_counts``
    does, each rank's chance is a float32 quotient, and the three figures'
    chances are summed in rank order; values come sorted, figures first.
    ``unseen``: the row's scratch for the counts (float32 values).
    """
    per_deck = np.float32(4 * decks)
    total = np.float32(0.0)
    for r in range(NUM_RANKS):
        seen = np.float32(np.rint(np.float32(obs[_SEEN + r]) * per_deck))
        own = np.float32(np.rint(obs[_OWN_HIDDEN + r]))
        u = np.float32(np.float32(np.float32(4 * decks) - seen) - own)
        u = u if u > np.float32(0.0) else np.float32(0.0)
        unseen[r] = u
        total += u
    count = 0
    figure = 0.0
    has_figure = False
    for r in range(_FIRST_FIGURE_RANK, NUM_RANKS):
        odds = _rank_odds(unseen, r, total)
        if odds > 0:
            figure += odds
            has_figure = True
    if has_figure:
        values[0] = _FIGURE
        probs[0] = figure
        count = 1
    for r in range(_FIRST_FIGURE_RANK):
        odds = _rank_odds(unseen, r, total)
        if odds > 0:
            values[count] = 2 * (r + 1)
            probs[count] = odds
            count += 1
    return count


@table_jit(inline=True)
def _rank_odds(unseen: np.ndarray, r: int, total: np.float32) -> float:
    """The chance of rank ``r``: a float32 quotient of the counts, then float64."""
    return np.float64(np.float32(unseen[r]) / total) if total > 0 else 1.0 / NUM_RANKS


@table_jit()
def _after_cards(t: CarefulTables, values: np.ndarray, probs: np.ndarray, count: int,
                 total: int, up: int, hidden: int, first: bool, face_up: bool,
                 then_stand: bool) -> tuple[float, bool]:
    """``_PlayerModel.after_cards`` with the live odds; False where the tables have no value."""
    value = 0.0
    for k in range(count):
        v, p = values[k], probs[k]
        new_total = total + v
        if new_total > SEVEN_AND_HALF:
            value -= p
            continue
        new_up, new_hidden = (up + v, hidden) if face_up else (up, hidden + 1)
        if new_up >= _BUST:
            return 0.0, False
        h = 1 if new_hidden > 0 else 0
        if new_total == SEVEN_AND_HALF or then_stand:
            nat = 1 if (first and new_total == SEVEN_AND_HALF) else 0
            if not t.stand_ok[new_total, new_up, h, nat]:
                return 0.0, False
            value += p * t.stand[new_total, new_up, h, nat]
        else:
            if not t.play_ok[new_total, new_up, h, 0]:
                return 0.0, False
            value += p * t.play[new_total, new_up, h, 0]
    return value, True


@table_jit(inline=True)
def _hit_face_up(t: CarefulTables, hidden: int) -> bool:
    return hidden > 0 if t.numbers[_N_ALTERNATE] else True


@table_jit(inline=True)
def _own_hand(obs: np.ndarray) -> tuple[int, int, int]:
    """Seat block 0: face-up total (half points), face-down cards, cards."""
    base = GLOBAL_SIZE
    up = _half(obs[base + _UP_TOTAL])
    hidden = int(obs[base + _HIDDEN])
    cards = 0.0
    for r in range(NUM_RANKS):
        cards += obs[base + _UP_RANKS + r]
    return up, hidden, int(cards) + hidden


@table_jit()
def _worth_changing_four(t: CarefulTables, values: np.ndarray, probs: np.ndarray, count: int,
                         total: int, up: int, hidden: int) -> tuple[bool, bool]:
    """``CarefulAgent._worth_changing_four``; the second item False: no value in the tables."""
    h = 1 if hidden > 0 else 0
    if up >= _BUST or total >= _BUST or not t.play_ok[total, up, h, 1]:
        return False, False
    fresh = 0.0
    for k in range(count):
        if not t.play_ok[values[k], up, h, 1]:
            return False, False
        fresh += probs[k] * t.play[values[k], up, h, 1]
    return fresh > t.play[total, up, h, 1], True


@table_jit()
def _careful_play(t: CarefulTables, obs: np.ndarray, mask: np.ndarray, values: np.ndarray,
                  probs: np.ndarray, count: int, work: np.ndarray) -> int:
    """``CarefulAgent._play``: the best option one card ahead, by the same comparisons
    (``work``: the row's scratch)."""
    total = _half(obs[_OWN_TOTAL])
    up, hidden, cards = _own_hand(obs)
    first = cards == 1
    if total >= _BUST or up >= _BUST:
        return _NO_KERNEL
    h = 1 if hidden > 0 else 0
    option = work[_W_OPTION:_W_OPTION + A.PASS]
    offered = work[_W_OFFERED:_W_OFFERED + A.PASS]
    for a in range(A.PASS):
        option[a], offered[a] = -np.inf, 0.0
    if mask[A.STAND]:
        if not t.stand_ok[total, up, h, 0]:
            return _NO_KERNEL
        option[A.STAND], offered[A.STAND] = t.stand[total, up, h, 0], 1.0
    if mask[A.HIT]:
        v, ok = _after_cards(t, values, probs, count, total, up, hidden, first,
                             _hit_face_up(t, hidden), False)
        if not ok:
            return _NO_KERNEL
        option[A.HIT], offered[A.HIT] = v, 1.0
    if mask[A.REVEAL_HIT]:
        v, ok = _after_cards(t, values, probs, count, total, total, 0, first, False, False)
        if not ok:
            return _NO_KERNEL
        option[A.REVEAL_HIT], offered[A.REVEAL_HIT] = v, 1.0
    play_on = -1.0
    seen_any = False
    for a in (A.STAND, A.HIT, A.REVEAL_HIT):  # max(): the first of equal values
        if offered[a] != 0.0 and (not seen_any or option[a] > play_on):
            play_on, seen_any = option[a], True
    figure = 0.0
    for k in range(count):
        if values[k] == _FIGURE:
            figure = probs[k]
    if mask[A.DOUBLE]:
        v, ok = _after_cards(t, values, probs, count, total, up, hidden, first,
                             _hit_face_up(t, hidden), True)
        if not ok:
            return _NO_KERNEL
        option[A.DOUBLE], offered[A.DOUBLE] = 2.0 * v, 1.0
    if mask[A.MORT]:
        option[A.MORT] = figure * t.numbers[_N_NATURAL_PAYS] - (1.0 - figure)
        offered[A.MORT] = 1.0
    if mask[A.DECLINE]:
        option[A.DECLINE], offered[A.DECLINE] = play_on, 1.0
    if mask[A.FUSILAR]:
        chase = t.numbers[_N_CHASE]
        option[A.FUSILAR] = figure * (1 - chase) * FUSILAR_PAYS - (1 - figure) \
            - figure * chase
        offered[A.FUSILAR] = 1.0
    if mask[A.SPLIT]:
        v, ok = _after_cards(t, values, probs, count, 1, 0, 1, True, True, False)
        if not ok:
            return _NO_KERNEL
        option[A.SPLIT], offered[A.SPLIT] = 2.0 * v, 1.0
    if mask[A.CHANGE_FOUR]:
        worth, ok = _worth_changing_four(t, values, probs, count, total, up, hidden)
        if not ok:
            return _NO_KERNEL
        if worth:
            return A.CHANGE_FOUR
    best = -1
    for a in (A.STAND, A.HIT, A.REVEAL_HIT, A.DOUBLE, A.MORT, A.DECLINE, A.FUSILAR, A.SPLIT):
        if offered[a] != 0.0 and (best < 0 or option[a] > option[best]):
            best = a
    if best < 0:
        return _first_legal(mask)
    raise_start = int(t.numbers[_N_RAISE_START])
    if best == A.STAND and option[A.STAND] > RAISE_EDGE:
        for a in range(raise_start, raise_start + int(t.numbers[_N_LADDER])):
            if mask[a]:
                return a
    return best


@table_jit()
def _careful_bet(t: CarefulTables, obs: np.ndarray, mask: np.ndarray, values: np.ndarray,
                 probs: np.ndarray, count: int, work: np.ndarray) -> int:
    """``CarefulAgent._bet_phase``: the stake one rung up per gain over a fresh shoe's hand."""
    total = _half(obs[_OWN_TOTAL])
    up, hidden, cards = _own_hand(obs)
    if mask[A.CHANGE_FOUR]:
        worth, ok = _worth_changing_four(t, values, probs, count, total, up, hidden)
        if not ok:
            return _NO_KERNEL
        if worth:
            return A.CHANGE_FOUR
    ladder = int(t.numbers[_N_LADDER])
    n_bets = 0
    for a in range(_FIRST_BET, _FIRST_BET + ladder):
        if mask[a]:
            n_bets += 1
    if n_bets == 0:
        return _careful_play(t, obs, mask, values, probs, count, work)
    h = 1 if hidden > 0 else 0
    if cards:
        if total >= _BUST or up >= _BUST or not t.play_ok[total, up, h, 1 if cards == 1 else 0]:
            return _NO_KERNEL
        expected = t.play[total, up, h, 1 if cards == 1 else 0]
    else:
        expected = 0.0
        for k in range(count):
            expected += probs[k] * t.play[values[k], 0, 1, 1]
    gain = expected - t.numbers[_N_FRESH_HAND]
    rung = 0
    for level in _STAKE_GAINS:
        if gain > level:
            rung += 1
    return _nth_bet(mask, ladder, min(rung, n_bets - 1))


@table_jit()
def _nth_bet(mask: np.ndarray, ladder: int, n: int) -> int:
    """The ``n``-th legal stake of the ladder (counted from 0)."""
    for a in range(_FIRST_BET, _FIRST_BET + ladder):
        if mask[a]:
            if n == 0:
                return a
            n -= 1
    return _NO_KERNEL


@table_jit()
def _careful_transfer(t: CarefulTables, obs: np.ndarray, mask: np.ndarray) -> int:
    """``CarefulAgent._transfer``: keep the bank when the chips cover the table."""
    chips = np.float64(obs[GLOBAL_SIZE + _CHIPS]) * t.numbers[_N_STARTING_CHIPS]
    if chips >= t.numbers[_N_COVER]:
        for a in (A.TAKE_BANK, A.CLAIM_BANK, A.PASS):
            if mask[a]:
                return a
    else:
        for a in (A.REFUSE_BANK, A.SELL_BANK):
            if mask[a]:
                return a
    return _first_legal(mask)


@table_jit(inline=True)
def _player_total_odds(t: CarefulTables, obs: np.ndarray, base: int, values: np.ndarray,
                       probs: np.ndarray, count: int, dist: np.ndarray, nxt: np.ndarray
                       ) -> tuple[float, float]:
    """``CarefulAgent._player_odds`` of the seat block at ``base`` into ``dist``: the chance
    of a natural and the stake, or a stake of 0 when the bank does not count it (``nxt``:
    scratch)."""
    bet = np.float64(obs[base + _BET])
    stood = obs[base + _STATUS + STOOD] != 0
    if obs[base + _SITTING_OUT] > 0 or bet <= 0 or not (stood or
                                                       obs[base + _STATUS + DECLARED] != 0):
        return 0.0, 0.0
    up = _half(obs[base + _UP_TOTAL])
    hidden = int(obs[base + _HIDDEN])
    cards = 0.0
    for r in range(NUM_RANKS):
        cards += obs[base + _UP_RANKS + r]
    for j in range(_BUST):
        dist[j] = 0.0
    low = high = min(up, SEVEN_AND_HALF)  # dist is 0 outside low..high
    dist[low] = 1.0
    least, most = _BUST, 0
    for k in range(count):
        least, most = min(least, values[k]), max(most, values[k])
    for _ in range(hidden):
        for j in range(_BUST):
            nxt[j] = 0.0
        for k in range(count):  # a term outside low..high would add +0.0: left out
            v, p = values[k], probs[k]
            for j in range(low, min(high + 1, _BUST - v)):
                nxt[v + j] += p * dist[j]
        for j in range(_BUST):
            dist[j] = nxt[j]
        low, high = min(low + least, _BUST), min(high + most, SEVEN_AND_HALF)
    if hidden and stood:
        for j in range(int(t.numbers[_N_ASSUME_STAND])):
            dist[j] *= STOOD_LIKELIHOOD
    mass = _pairwise16(dist)
    if mass <= 0:
        return 0.0, 0.0
    for j in range(_BUST):
        dist[j] /= mass
    natural = dist[SEVEN_AND_HALF] if int(cards) + hidden == 2 else 0.0
    return natural, bet


@table_jit(inline=True)
def _careful_bank(t: CarefulTables, obs: np.ndarray, mask: np.ndarray, num_seats: int,
                  values: np.ndarray, probs: np.ndarray, count: int, work: np.ndarray) -> int:
    """``CarefulAgent._bank``: stand when standing wins at least what drawing on does
    (``work``: the row's scratch)."""
    if not (mask[A.HIT] and mask[A.STAND]):
        return A.HIT if mask[A.HIT] else A.STAND if mask[A.STAND] else _first_legal(mask)
    total = _half(obs[_OWN_TOTAL])
    cards = _own_hand(obs)[2]
    if total >= _BUST:
        return _NO_KERNEL
    natural_pays, other_pays = t.numbers[_N_NATURAL_PAYS], t.numbers[_N_OTHER_PAYS]
    pays = t.numbers[_N_BEATS_MULTI]
    stand = work[_W_STAND:_W_STAND + _BUST]
    dist = work[_W_DIST:_W_DIST + _BUST]
    nxt = work[_W_NEXT:_W_NEXT + _BUST]
    mult = work[_W_MULT:_W_MULT + _BUST]
    beaten = work[_W_BEATEN:_W_BEATEN + _BUST + 1]
    paid = work[_W_PAID:_W_PAID + _BUST + 1]
    best = work[_W_BEST:_W_BEST + _BUST]
    for j in range(_BUST):
        stand[j] = 0.0
    stand_multi = 0.0
    bust = 0.0
    chase = False
    for i in range(1, num_seats):
        base = GLOBAL_SIZE + i * SEAT_BLOCK
        if t.numbers[_N_CHASE_DECLARED] and _status(obs, base) == DECLARED:
            chase = True
        natural, bet = _player_total_odds(t, obs, base, values, probs, count, dist, nxt)
        if bet == 0.0:
            continue
        for j in range(_BUST):
            mult[j] = 1.0
        if natural_pays == other_pays:
            mult[SEVEN_AND_HALF] = natural_pays
        elif dist[SEVEN_AND_HALF] > 0:
            share = natural / dist[SEVEN_AND_HALF]
            mult[SEVEN_AND_HALF] = other_pays + share * (natural_pays - other_pays)
        beaten[0] = 0.0
        for j in range(_BUST):
            beaten[j + 1] = beaten[j] + dist[j]
        paid[_BUST] = 0.0
        paid[_BUST - 1] = dist[_BUST - 1] * mult[_BUST - 1]
        for j in range(_BUST - 2, -1, -1):
            paid[j] = paid[j + 1] + dist[j] * mult[j]
        for s in range(_BUST):
            k = _BANK_BEATS_UP_TO[s] + 1
            stand[s] += bet * (beaten[k] - paid[k])
        bust -= bet * paid[0]
        if not pays:
            stand_multi += bet
        else:
            stand_multi += bet * (1.0 - natural * (1 + pays))
    if not np.any(stand) and not bust:
        return A.STAND
    for j in range(_BUST):
        best[j] = 0.0
    best[SEVEN_AND_HALF] = stand_multi
    for s in range(SEVEN_AND_HALF - 1, total, -1):
        hit = 0.0
        for k in range(count):
            u = s + values[k]
            hit += probs[k] * (bust if u > SEVEN_AND_HALF else best[u])
        best[s] = hit if chase else (hit if hit > stand[s] else stand[s])
    if cards + 1 < 3:
        best[SEVEN_AND_HALF] = stand[SEVEN_AND_HALF]
    stay = stand_multi if (total == SEVEN_AND_HALF and cards >= 3) else stand[total]
    hit = 0.0
    for k in range(count):
        u = total + values[k]
        hit += probs[k] * (bust if u > SEVEN_AND_HALF else best[u])
    return A.STAND if stay >= hit else A.HIT


@table_jit(inline=True)
def _status(obs: np.ndarray, base: int) -> int:
    """``ObservationReader.status``: the one-hot status's entry, -1 when none is set."""
    found = -1
    top = 0.0
    for s in range(_NUM_STATUSES):
        if obs[base + _STATUS + s] > top:
            found, top = s, obs[base + _STATUS + s]
    return found


@table_jit(inline=True)
def _phase(obs: np.ndarray) -> int:
    """``ObservationReader.phase``: the argmax of the one-hot phase (the first of equals)."""
    found = 0
    for p in range(1, _NUM_PHASES):
        if obs[_PHASE + p] > obs[_PHASE + found]:
            found = p
    return found


@table_jit()
def _careful_row(obs: np.ndarray, mask: np.ndarray, t: CarefulTables, num_seats: int,
                 values: np.ndarray, probs: np.ndarray, work: np.ndarray) -> int:
    """``CarefulAgent.act`` on one row (``values``/``probs``/``work``: the row's scratch),
    or -1."""
    legal = 0
    only = _NO_KERNEL
    for a in range(mask.shape[0]):
        if mask[a]:
            legal += 1
            only = a if legal == 1 else only
    if legal <= 1:
        return only
    phase = _phase(obs)
    if phase == TRANSFER or phase == SELL:
        return _careful_transfer(t, obs, mask)
    if phase == AUCTION or phase == SIDE_BET:
        return A.PASS if mask[A.PASS] else _first_legal(mask)
    count = _live_odds(obs, t.numbers[_N_DECKS], values, probs,
                       work[_W_UNSEEN:_W_UNSEEN + NUM_RANKS])
    if phase == BANK:
        return _careful_bank(t, obs, mask, num_seats, values, probs, count, work)
    if phase == BET:
        return _careful_bet(t, obs, mask, values, probs, count, work)
    return _careful_play(t, obs, mask, values, probs, count, work)


def _thread_rows() -> int:
    """Rows of scratch a kernel needs for a row per thread: numba's most threads
    (``NUMBA_NUM_THREADS``), which :func:`numba.get_thread_id` stays below."""
    return int(config.NUMBA_NUM_THREADS)  # type: ignore[attr-defined]  # read from the environment


def careful_actions(observations: np.ndarray, masks: np.ndarray, t: CarefulTables
                    ) -> np.ndarray:
    """``CarefulAgent.act`` on every row (see the module docstring), the rows shared among
    numba's threads; -1 marks a row the kernel leaves to the scalar agent."""
    n, threads = observations.shape[0], _thread_rows()
    out = np.empty(n, dtype=np.int64)
    _careful_rows(observations, masks, t, np.empty((threads, NUM_RANKS), dtype=np.int64),
                  np.empty((threads, NUM_RANKS)), np.empty((threads, _W_SIZE)), out)
    return out


@table_jit(parallel=True)
def _careful_rows(observations: np.ndarray, masks: np.ndarray, t: CarefulTables,
                  values: np.ndarray, probs: np.ndarray, work: np.ndarray, out: np.ndarray
                  ) -> None:
    """:func:`careful_actions` into ``out``, each thread working in its own scratch rows
    (``NUMBA_NUM_THREADS`` of them: one a row of observations was a cache miss a row)."""
    num_seats = (observations.shape[1] - GLOBAL_SIZE) // SEAT_BLOCK
    for k in prange(observations.shape[0]):
        own = get_thread_id()
        out[k] = _careful_row(observations[k], masks[k], t, num_seats, values[own], probs[own],
                              work[own])


# ------------------------------------------------------------- the wrappers
def _checked(observations: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    obs = np.ascontiguousarray(observations, dtype=np.float32)
    mask = np.ascontiguousarray(masks, dtype=np.int8)
    if obs.ndim != 2 or mask.ndim != 2 or len(obs) != len(mask):
        raise ValueError(f"act_batch takes observations (n, D) and masks (n, A) with the same "
                         f"n, got shapes {np.shape(observations)} and {np.shape(masks)}")
    if (obs.shape[1] - GLOBAL_SIZE) % SEAT_BLOCK or obs.shape[1] <= GLOBAL_SIZE:
        raise ValueError(f"observations of length {obs.shape[1]} are not sette e mezzo "
                         f"observations ({GLOBAL_SIZE} + {SEAT_BLOCK} x seats)")
    return obs, mask


class BatchedAgent:
    """An agent with a kernel: ``act`` is the agent's own, ``act_batch`` the kernel's.

    Rows the kernel leaves (-1) are asked of ``act``, so the scalar agent's errors
    (no legal action) come out unchanged.
    """

    def __init__(self, agent: Any) -> None:
        self.agent = agent
        self.spec = getattr(agent, "spec", repr(agent))

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        return int(self.agent.act(observation, action_mask))

    def _kernel(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def act_batch(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        obs, mask = _checked(observations, masks)
        actions = self._kernel(obs, mask)
        for k in np.flatnonzero(actions < 0):
            actions[k] = self.agent.act(obs[k], mask[k])
        return actions

    def __repr__(self) -> str:
        return self.spec


class _ThresholdBatch(BatchedAgent):
    def _kernel(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        return threshold_actions(observations, masks, float(self.agent.threshold))


class _CarefulBatch(BatchedAgent):
    def _kernel(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        seats = (observations.shape[1] - GLOBAL_SIZE) // SEAT_BLOCK
        return careful_actions(observations, masks, careful_tables(self.agent, seats))


class _RoleSplitBatch(BatchedAgent):
    """Rows of a seat holding the bank go to the bank's side, the rest to the player's."""

    def __init__(self, agent: RoleSplitAgent, player: Any, bank: Any) -> None:
        super().__init__(agent)
        self.sides = (player, bank)

    def act_batch(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        obs, mask = _checked(observations, masks)
        actions = np.empty(len(obs), dtype=np.int64)
        holds = obs[:, GLOBAL_SIZE + _IS_BANK] > 0
        for side, rows in zip(self.sides, (~holds, holds)):
            if rows.any():
                actions[rows] = _batched_or_looped(side, obs[rows], mask[rows])
        return actions


def _batched_or_looped(policy: Any, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
    if hasattr(policy, "act_batch"):
        return np.asarray(policy.act_batch(observations, masks), dtype=np.int64)
    return np.array([policy.act(o, m) for o, m in zip(observations, masks)], dtype=np.int64)


def batch_policy(agent: Any) -> Any:
    """``agent`` as a batch policy (``act_batch`` and ``act``), or ``None`` when it has no
    kernel (random play, a policy of unknown type): callers loop ``act`` over those rows.

    An agent that already has ``act_batch`` (a learned model) is returned as it is.
    Subclasses are not batched: their ``act`` may differ from the kernel's rule.
    """
    if hasattr(agent, "act_batch"):
        return agent
    kind = type(agent)
    if kind is ThresholdAgent:
        return _ThresholdBatch(agent)
    if kind is CarefulAgent:
        return _CarefulBatch(agent)
    if kind is RoleSplitAgent:
        sides = [batch_policy(side) for side in (agent.player, agent.bank)]
        if any(side is None for side in sides):
            return None
        return _RoleSplitBatch(agent, *sides)
    return None

