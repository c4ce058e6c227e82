"""The batch evaluator: :func:`evaluate.ev.play`'s tables, many at a time, on a batch engine.

:func:`play_tables` plays the tables of one evaluation on any
:class:`envs.batch.api.TableBatch` — the compiled engine
(:class:`envs.batch.engine.BatchEngine`) or the slow reference
(:class:`envs.batch.reference.ScalarTables`) — ``num_tables`` tables at once,
and returns the :class:`evaluate.ev.Tally` that :func:`evaluate.ev.play`
returns for the same arguments: the same tables (table ``k`` dealt with
``agents.seating.table_seeds(seed, tables)[k]``), the same first banks, and
per table, seat and role the same sums of net chips and hands, hand by hand.

**Who decides.** At every step each table's actor is asked by the policy of
its seat in its role (one side of a ``PLAYER|BANK`` seat,
:func:`agents.seating.role_policy`), all tables whose actor has the same
policy in one call: :func:`agents.batch_policies.batch_policy` gives it a
kernel where it has one (threshold, careful, reader, learned models), the
others are asked row by row with their own ``act``. A policy trained on the
information state (:mod:`agents.learned`) is given the seat's information
state, every other one its observation, as :class:`agents.seating.Table`
gives them.

**Seeding** (the rule of :mod:`agents.seating`, so that the numbers are those
of the scalar evaluator): a policy with randomness (``seed``) is copied for
every table, and the copy is seeded with ``stream_seed(table_seed, s)`` for
the first seat ``s`` it holds at that table; one object in several seats of
a table stays one object there, with one stream. A policy without
randomness is shared by all tables.

**What a hand counts** (as :func:`evaluate.ev.play`): the net chips of every
seat over the hand's steps (``rewards``), to its role in that hand; one
bank hand to the seat that held the bank when the hand was dealt and one
player hand to every seat dealt in (the ``hand`` event's turn order). A hand ends at
the step that raises ``hands_played``.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from agents.seating import RoleSplitAgent, role_policy, stream_seed, table_seeds
from envs.batch.api import TableBatch, UnsupportedRules
from envs.batch.event_rows import K_HAND
from envs.policy import Policy
from envs.rules import Rules
from evaluate.ev import Tally

__all__ = ["BLOCK_TABLES", "batch_seats", "play_batched", "play_tables"]

_PLAYER, _BANK = 0, 1
"""Role indices of a Tally (:data:`evaluate.ev.ROLE_NAMES`)."""
BLOCK_TABLES = 8192
"""Tables the compiled engine plays at once (memory grows with it; speed stops growing)."""


def _seeded(policy: Policy, seed: int) -> Policy:
    """A copy of ``policy`` seeded with ``seed`` if it has randomness, else ``policy`` itself."""
    if not hasattr(policy, "seed"):
        return policy
    fresh = copy.deepcopy(policy)
    fresh.seed(seed)
    return fresh


def _table_sides(policies: Sequence[Policy], table_seed: int) -> list[tuple[Policy, Policy]]:
    """Each seat's (player, bank) policies at the table dealt with ``table_seed``, seeded by the
    rule of :mod:`agents.seating`: an object seeded once, for the first seat it holds, and
    a ``PLAYER|BANK`` seat's sides with their own streams (:class:`RoleSplitAgent`)."""
    made: dict[int, tuple[Policy, Policy]] = {}
    out = []
    for s, policy in enumerate(policies):
        if id(policy) not in made:
            stream = stream_seed(table_seed, s)
            if isinstance(policy, RoleSplitAgent):
                made[id(policy)] = (_seeded(policy.player, stream_seed(stream, 0)),
                                    _seeded(policy.bank, stream_seed(stream, 1)))
            else:
                alone = _seeded(policy, stream)
                made[id(policy)] = (alone, alone)
        out.append(made[id(policy)])
    return out


def batch_seats(policies: Sequence[Policy]) -> bool:
    """Whether every seat's policy, in both roles, has a kernel (so ``engine="auto"`` batches)."""
    from agents.batch_policies import batch_policy

    return all(batch_policy(role_policy(p, role)) is not None
               for p in policies for role in ("player", "bank"))


def play_batched(rules: Rules, num_seats: int,
                 seats: Sequence[Policy] | Callable[[int], Sequence[Policy]], hands: int,
                 seed: int, table_hands: int, bank: int | Callable[[int], int] | None,
                 required: bool) -> Tally | None:
    """:func:`evaluate.ev.play` on the compiled batch engine, or ``None`` when ``required`` is
    False and the engine does not play ``rules`` or a seat has no batched kernel
    (``engine="auto"``); with ``required`` unsupported rules raise
    :class:`envs.batch.api.UnsupportedRules` naming why."""
    from envs.batch.engine import BatchEngine, check_supported

    tables = math.ceil(hands / table_hands)
    if required:
        check_supported(rules)
    else:
        try:
            check_supported(rules)
        except UnsupportedRules:
            return None
        lineups = [seats(t) for t in range(tables)] if callable(seats) else [seats]
        seated = {id(p): p for lineup in lineups for p in lineup}
        if not batch_seats(list(seated.values())):
            return None
    engine = BatchEngine(rules, num_seats, min(tables, BLOCK_TABLES), max_hands=table_hands)
    return play_tables(engine, seats, hands, seed, bank)


class _Deciders:
    """Every distinct side policy of a run, numbered, with its batched form (or ``None``)."""

    def __init__(self) -> None:
        self.policies: list[Any] = []
        self.batched: list[Any] = []
        self.recall: list[bool] = []
        self._index: dict[int, int] = {}

    def number(self, policy: Any) -> int:
        k = self._index.get(id(policy))
        if k is None:
            from agents.batch_policies import batch_policy

            k = self._index[id(policy)] = len(self.policies)
            self.policies.append(policy)
            self.batched.append(batch_policy(policy))
            self.recall.append(getattr(policy, "observation_type", "observation")
                               == "information_state")
        return k


def _dealt(tables: TableBatch, which: np.ndarray) -> np.ndarray:
    """``(len(which), S)`` bool: the seats dealt into the hand each table of ``which`` has just
    dealt (``Engine.order``; none where no hand was dealt), read from the ``hand`` event
    rows of the last call (a compiled engine's ``row_buffer``, :mod:`envs.batch.event_rows`)
    or from the reference's scalar engines."""
    out = np.zeros((len(which), tables.num_seats), dtype=bool)
    buffer = getattr(tables, "row_buffer", None)
    if buffer is None:
        engines = getattr(tables, "engines", None)  # the reference: ScalarTables
        if engines is None:
            raise TypeError(f"{type(tables).__name__} has neither row_buffer (the event rows of "
                            f"the last call) nor scalar engines: the evaluator cannot tell "
                            f"which seats were dealt in")
        for i, t in enumerate(which):
            out[i, engines[t].order] = True
        return out
    rows = buffer[which]
    fresh = np.arange(rows.shape[1])[None, :] < getattr(tables, "row_count")[which][:, None]
    is_hand = (rows[:, :, 0] == K_HAND) & fresh
    found = np.flatnonzero(is_hand.any(axis=1))
    hand = rows[found, is_hand[found].argmax(axis=1)]
    for j in range(tables.num_seats):  # fields: number, bank, streak, len(order), order...
        seated = found[hand[:, 4] > j]
        out[seated, hand[hand[:, 4] > j, 5 + j]] = True
    return out


def play_tables(tables: TableBatch, seats: Sequence[Policy] | Callable[[int], Sequence[Policy]],
                hands: int, seed: int = 0,
                bank: int | Callable[[int], int] | None = None) -> Tally:
    """:func:`evaluate.ev.play` on ``tables`` (see the module docstring).

    ``tables.max_hands`` is the hands per table; ``tables.num_tables`` tables
    play at once, block after block. ``seats`` and ``bank`` are those of
    :func:`evaluate.ev.play`.
    """
    table_hands = tables.max_hands
    if not table_hands:
        raise ValueError("the batch evaluator plays tables of max_hands hands: build the "
                         "tables with max_hands set (the evaluator's table_hands)")
    if hands < 1:
        raise ValueError(f"hands={hands!r} must be at least 1")
    count = math.ceil(hands / table_hands)
    n = tables.num_seats
    seeds = table_seeds(seed, count)
    chips = np.zeros((count, n, 2))
    counts = np.zeros((count, n, 2))
    for start in range(0, count, tables.num_tables):
        stop = min(start + tables.num_tables, count)
        deciders = _Deciders()  # per block: the seeded copies of one block only
        ids = np.empty((stop - start, n, 2), dtype=np.int64)
        banks = np.full(stop - start, -1, dtype=np.int64)
        for t in range(start, stop):
            policies = list(seats(t) if callable(seats) else seats)
            if len(policies) != n:
                raise ValueError(f"{len(policies)} policies for {n} seats")
            for s, sides in enumerate(_table_sides(policies, seeds[t])):
                for role, side in enumerate(sides):
                    ids[t - start, s, role] = deciders.number(side)
            first_bank = bank(t) if callable(bank) else bank
            banks[t - start] = -1 if first_bank is None else first_bank
        _play_block(tables, np.array(seeds[start:stop], dtype=np.int64), banks, ids, deciders,
                    chips[start:stop], counts[start:stop])
    return Tally(chips, counts, seed)


def _play_block(tables: TableBatch, seeds: np.ndarray, banks: np.ndarray, ids: np.ndarray,
                deciders: _Deciders, chips: np.ndarray, counts: np.ndarray) -> None:
    """Play ``len(seeds)`` tables to their end on the first tables of ``tables``, adding each
    finished hand into ``chips`` and ``counts`` (one row per table)."""
    k = len(seeds)
    rows = np.arange(k)
    tables.reset(seeds, tables=rows, banks=banks)
    width = tables.num_tables
    net = np.zeros((k, tables.num_seats))
    hand_bank = tables.bank[:k].copy()
    dealt = _dealt(tables, rows)
    played = tables.hands_played[:k].copy()
    seat_index = np.arange(tables.num_seats)
    actions = np.zeros(width, dtype=np.int64)
    while not tables.over[:k].all():
        live = np.flatnonzero(~tables.over[:k])
        actor = tables.actor[live]
        role = (tables.bank[live] == actor).astype(np.int64)
        deciding = ids[live, actor, role]
        masks = tables.masks()[live]
        seats_now = np.where(tables.actor >= 0, tables.actor, 0)
        views: dict[bool, np.ndarray] = {}
        for d in np.unique(deciding):
            mine = deciding == d
            recall = deciders.recall[d]
            if recall not in views:
                views[recall] = (tables.information_state(seats_now) if recall
                                 else tables.observe(seats_now))[live]
            actions[live[mine]] = _decide(deciders, int(d), views[recall][mine], masks[mine])
        tables.step(actions[live], tables=live)
        net += tables.rewards[:k]
        ended = np.flatnonzero(tables.hands_played[:k] != played)
        if not ended.size:
            continue
        is_bank = seat_index[None, :] == hand_bank[ended, None]
        chips[ended, :, _BANK] += np.where(is_bank, net[ended], 0.0)
        chips[ended, :, _PLAYER] += np.where(is_bank, 0.0, net[ended])
        counts[ended, hand_bank[ended], _BANK] += 1
        counts[ended, :, _PLAYER] += dealt[ended]
        net[ended] = 0.0
        hand_bank[ended] = tables.bank[ended]
        dealt[ended] = _dealt(tables, ended)
        played[ended] = tables.hands_played[ended]


def _decide(deciders: _Deciders, d: int, observations: np.ndarray, masks: np.ndarray
            ) -> np.ndarray:
    batched = deciders.batched[d]
    if batched is not None:
        return np.asarray(batched.act_batch(observations, masks), dtype=np.int64)
    policy = deciders.policies[d]
    return np.array([policy.act(o, m) for o, m in zip(observations, masks)], dtype=np.int64)
