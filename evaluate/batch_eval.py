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

**The fused loop.** Tables where every seat plays the threshold rule
(:func:`threshold_seats`) need no observation: the compiled engine plays
them whole, deciding inside its kernel from each seat's own total as
:func:`envs.seat_play.dealer_action` does, and counts every hand as the
tournament counts it (:data:`evaluate.tournament.FIELDS`).
:func:`play_batched` (``evaluate.ev.play(engine=...)``) and
:func:`batch_tournament` (``sette evaluate --engine``) take that path for
threshold tables, :func:`play_tables` the general one for the rest.

**What a hand counts** (as :func:`evaluate.ev.play`): the net chips of every
seat over the hand's steps (``rewards``), to its role in that hand; one
bank hand to the seat that held the bank when the hand was dealt and one
player hand to every seat dealt in (``in_hand`` at the deal). A hand ends at
the step that raises ``hands_played``.
"""

from __future__ import annotations

import copy
import math
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from agents.scripted import ThresholdAgent
from agents.seating import (RoleSplitAgent, role_policy, stream_seed, table_seed_array,
                             table_seeds)
from envs.batch.api import TableBatch, UnsupportedRules
from envs.policy import Policy
from envs.rules import Rules
from evaluate.ev import Tally

__all__ = ["BLOCK_TABLES", "batch_refusal", "batch_seats", "batch_tournament", "play_batched",
           "play_counts", "play_tables", "say_once", "threshold_seats"]

_PLAYER, _BANK = 0, 1
"""Role indices of a Tally (:data:`evaluate.ev.ROLE_NAMES`)."""
_CHIPS, _HANDS = 0, 1
"""The first two fields of the tournament (:data:`evaluate.tournament.FIELDS`), a Tally's."""
_EPS = 1e-9
"""A result nearer zero than this is a push (:func:`evaluate.tournament._count_hand`)."""
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
    """Whether every seat's policy, in both roles, has a kernel (so ``engine="auto"`` batches).

    A policy with randomness (``seed``) has none, which is told without loading the
    kernels (and numba)."""
    sides = [role_policy(p, role) for p in policies for role in ("player", "bank")]
    if any(hasattr(side, "seed") for side in sides):
        return False
    from agents.batch_policies import batch_policy

    return all(batch_policy(side) is not None for side in sides)


def play_batched(rules: Rules, num_seats: int,
                 seats: Sequence[Policy] | Callable[[int], Sequence[Policy]], hands: int,
                 seed: int, table_hands: int, bank: int | Callable[[int], int] | None,
                 required: bool) -> Tally | None:
    """:func:`evaluate.ev.play` on the compiled batch engine, or ``None`` when ``required`` is
    False and the engine does not play ``rules`` or a seat has no batched kernel
    (``engine="auto"``); with ``required`` unsupported rules raise
    :class:`envs.batch.api.UnsupportedRules` naming why. Tables where every seat is a
    threshold agent are played in the engine's fused loop (:func:`threshold_seats`)."""
    tables = math.ceil(hands / table_hands)
    lineups = _lineups(seats, tables) if callable(seats) else [seats]  # [seats]: every table's
    seated = list({id(p): p for lineup in lineups for p in lineup}.values())
    by_lineup: dict[tuple[int, ...], np.ndarray | None] = {}
    for lineup in lineups:  # tables share lineups: read each one once
        key = tuple(map(id, lineup))
        if key not in by_lineup:
            by_lineup[key] = threshold_seats(lineup)
    fused = all(t is not None for t in by_lineup.values())
    if not required and not (fused or batch_seats(seated)):
        return None  # seats without kernels are asked faster on the scalar engine
    if not _supported(rules, num_seats, required):
        return None
    if fused:
        from evaluate.tournament import CHIPS, HANDS

        if callable(bank):
            banks = np.array([-1 if b is None else b for b in map(bank, range(tables))],
                             dtype=np.int64)
        else:
            banks = np.full(tables, -1 if bank is None else bank, dtype=np.int64)
        known = {key: t for key, t in by_lineup.items() if t is not None}  # all, when fused
        first = next(iter(known.values()))
        thresholds = (np.broadcast_to(first, (tables, *first.shape)) if len(lineups) == 1
                      else np.stack([known[tuple(map(id, lineup))] for lineup in lineups]))
        counts = _fused_counts(rules, num_seats, table_seed_array(seed, tables), banks,
                               thresholds, table_hands)
        return Tally(counts[..., CHIPS].copy(), counts[..., HANDS].copy(), seed)
    return play_tables(_engine(rules, num_seats, tables, table_hands, seated), seats, hands,
                       seed, bank)


def batch_refusal(rules: Rules, num_seats: int) -> str | None:
    """Why the compiled engine does not play ``rules`` at ``num_seats`` seats, every refused
    switch named with the values it plays (``envs.batch.engine.SUPPORTED``), or ``None``."""
    from envs.batch.engine import SUPPORTED, BatchEngine

    bad = [f"{name}={getattr(rules, name)!r} (supported: "
           f"{', '.join(repr(v) for v in values)})"
           for name, values in SUPPORTED.items() if getattr(rules, name) not in values]
    if bad:
        return "; ".join(bad) + " not in the batch engine"
    try:
        BatchEngine(rules, num_seats, 1, max_hands=1, observe=False)
    except UnsupportedRules as exc:
        return str(exc)
    return None


def _supported(rules: Rules, num_seats: int, required: bool, name: str = "the rules",
               note: Callable[[str], None] | None = None) -> bool:
    """Whether the compiled engine plays ``rules``; when ``required``, why not is raised
    (:class:`envs.batch.api.UnsupportedRules`), else told to ``note``."""
    reason = batch_refusal(rules, num_seats)
    if reason is None:
        return True
    if required:
        raise UnsupportedRules(f"{name}: {reason}; use --engine scalar or auto "
                               f"(engine='scalar' or 'auto') for these rules")
    if note is not None:
        note(f"{name}: {reason} — playing the scalar engine")
    return False


def say_once(write: Callable[[str], None]) -> Callable[[str], None]:
    """``write`` that says each distinct message once (a fallback note per rule set)."""
    said: set[str] = set()

    def note(message: str) -> None:
        if message not in said:
            said.add(message)
            write(message)

    return note


def batch_tournament(config: Any, engine: str = "auto",
                     progress: Callable[[int], None] | None = None,
                     agents: Sequence[Policy] | None = None,
                     actions: np.ndarray | None = None,
                     note: Callable[[str], None] | None = None) -> Any:
    """:func:`evaluate.tournament.run_tournament` of ``config`` on the compiled batch engine:
    the same :class:`~evaluate.tournament.TournamentResult`, count for count.

    Every arrangement plays all tables at once: in the engine's fused loop when
    every seat is a threshold agent (and no ``actions`` are counted), else by
    :func:`play_counts`, which reads busts, naturals and the jackpot from the
    engine's event rows (:mod:`evaluate.batch_counts`). ``agents``: as
    :func:`~evaluate.tournament.run_tournament`'s. ``actions`` (one entry per
    action of the rules' layout), if given, is added the count of every action
    every seat took.

    ``engine="auto"`` returns ``None`` — the caller plays the scalar engine —
    where the engine does not play the rules or a seat has no batched kernel
    (:func:`batch_seats`: such seats are asked faster on the scalar engine),
    telling ``note`` why; ``engine="batch"`` raises
    :class:`envs.batch.api.UnsupportedRules` for rules the engine does not play
    and plays every agent (those without kernels row by row); ``"scalar"``
    returns ``None``.
    """
    from evaluate.tournament import FIELDS, TournamentResult, arrangements, build_agents

    if engine not in ("auto", "batch", "scalar"):
        raise ValueError(f"engine={engine!r} is not one of auto, batch, scalar")
    if engine == "scalar":
        return None
    rules = config.resolved_rules()
    if not _supported(rules, config.num_seats, engine == "batch", config.rules_name, note):
        return None
    built = list(agents) if agents is not None else build_agents(config)
    if engine == "auto":
        slow = [e.label for e, agent in zip(config.entrants, built)
                if threshold_seats([agent]) is None and not batch_seats([agent])]
        if slow:
            if note is not None:
                note(f"{config.rules_name}: {', '.join(slow)} ha{'s' if len(slow) == 1 else 've'}"
                     f" no batched policy (agents.batch_policies) — playing the scalar engine")
            return None
    started = time.perf_counter()
    if progress is not None:
        progress(0)
    tables = config.tables
    lineups = [[built[a] for a in lineup]
               for lineup in arrangements(len(built), config.num_seats)]
    data = np.zeros((tables, len(lineups), config.num_seats, 2, len(FIELDS)))
    seeds = table_seed_array(config.seed, tables)
    for r, lineup in enumerate(lineups):
        thresholds = threshold_seats(lineup)
        if thresholds is not None and actions is None:
            data[:, r] = _fused_counts(rules, config.num_seats, seeds,
                                       np.full(tables, -1, dtype=np.int64),
                                       np.broadcast_to(thresholds, (tables, *thresholds.shape)),
                                       config.table_hands)
        else:
            data[:, r] = play_counts(_engine(rules, config.num_seats, tables, config.table_hands,
                                             lineup), lineup, tables * config.table_hands,
                                     config.seed, actions=actions)
    if progress is not None:
        progress(tables)
    return TournamentResult(config, data, time.perf_counter() - started)


def _engine(rules: Rules, num_seats: int, tables: int, table_hands: int,
            policies: Sequence[Policy]) -> Any:
    """A compiled engine for :func:`play_tables`: at most :data:`BLOCK_TABLES` tables at once,
    keeping the information state when a policy reads it."""
    from envs.batch.engine import BatchEngine

    recall = any(getattr(role_policy(p, role), "observation_type", "observation")
                 == "information_state" for p in policies for role in ("player", "bank"))
    return BatchEngine(rules, num_seats, min(tables, BLOCK_TABLES), max_hands=table_hands,
                       information_state=recall)


def threshold_seats(policies: Sequence[Policy]) -> np.ndarray | None:
    """``(S, 2)`` thresholds in points, ``[seat, role]`` (0 player, 1 bank), when every seat
    plays the threshold rule (:class:`agents.scripted.ThresholdAgent`) in both roles — what
    the engine's fused loop plays without observations — else ``None``."""
    out = np.empty((len(policies), 2))
    for s, policy in enumerate(policies):
        for role, name in ((_PLAYER, "player"), (_BANK, "bank")):
            side = role_policy(policy, name)
            if type(side) is not ThresholdAgent:
                return None
            out[s, role] = side.threshold
    return out


def _fused_counts(rules: Rules, num_seats: int, seeds: np.ndarray, banks: np.ndarray,
                  thresholds: np.ndarray, table_hands: int) -> np.ndarray:
    """``counts[table, seat, role, field]`` (the tournament's fields,
    :data:`evaluate.tournament.FIELDS`) of threshold tables played whole in the engine's
    fused loop (``BatchEngine.play_thresholds``: its scratch is per table, so one call plays
    them all)."""
    from envs.batch.engine import BatchEngine

    engine = BatchEngine(rules, num_seats, 1, max_hands=table_hands, observe=False)
    return engine.play_thresholds(seeds.astype(np.int64), banks,
                                  np.ascontiguousarray(thresholds, dtype=np.float64))


def _lineups(seats: Sequence[Policy] | Callable[[int], Sequence[Policy]], tables: int
             ) -> list[Sequence[Policy]]:
    return [seats(t) for t in range(tables)] if callable(seats) else [seats] * tables


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


def play_tables(tables: TableBatch, seats: Sequence[Policy] | Callable[[int], Sequence[Policy]],
                hands: int, seed: int = 0,
                bank: int | Callable[[int], int] | None = None) -> Tally:
    """:func:`evaluate.ev.play` on ``tables`` (see the module docstring).

    ``tables.max_hands`` is the hands per table; ``tables.num_tables`` tables
    play at once, block after block. ``seats`` and ``bank`` are those of
    :func:`evaluate.ev.play`.
    """
    counts = _play(tables, seats, hands, seed, bank, _HANDS + 1, None)
    return Tally(counts[..., _CHIPS].copy(), counts[..., _HANDS].copy(), seed)


def play_counts(tables: Any, seats: Sequence[Policy] | Callable[[int], Sequence[Policy]],
                hands: int, seed: int = 0, bank: int | Callable[[int], int] | None = None,
                actions: np.ndarray | None = None) -> np.ndarray:
    """:func:`play_tables` counting every field of the tournament: ``counts[table, seat, role,
    field]`` (:data:`evaluate.tournament.FIELDS`) as the scalar tournament counts its hands.

    ``tables`` is a compiled :class:`envs.batch.engine.BatchEngine`, whose event rows
    tell the busts, naturals and jackpot (:mod:`evaluate.batch_counts`); ``actions``,
    if given, is added the count of every action taken (indices of the rules' layout).
    """
    from evaluate.tournament import FIELDS

    return _play(tables, seats, hands, seed, bank, len(FIELDS), actions)


def _play(tables: TableBatch, seats: Sequence[Policy] | Callable[[int], Sequence[Policy]],
          hands: int, seed: int, bank: int | Callable[[int], int] | None, fields: int,
          actions: np.ndarray | None) -> np.ndarray:
    """``counts[table, seat, role, field]`` of the first ``fields`` tournament fields."""
    table_hands = tables.max_hands
    if not table_hands:
        raise ValueError("the batch evaluator plays tables of max_hands hands: build the "
                         "tables with max_hands set (the evaluator's table_hands)")
    if hands < 1:
        raise ValueError(f"hands={hands!r} must be at least 1")
    count = math.ceil(hands / table_hands)
    n = tables.num_seats
    seeds = table_seeds(seed, count)
    counts = np.zeros((count, n, 2, fields))
    rows = None
    if fields > _HANDS + 1:
        from evaluate.batch_counts import HandRows

        rows = HandRows(tables)
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
                    counts[start:stop], rows, actions)
    return counts


def _play_block(tables: TableBatch, seeds: np.ndarray, banks: np.ndarray, ids: np.ndarray,
                deciders: _Deciders, counts: np.ndarray, rows: Any,
                actions_taken: np.ndarray | None) -> None:
    """Play ``len(seeds)`` tables to their end on the first tables of ``tables``, adding each
    finished hand into ``counts`` (one row per table; with ``rows``, a
    :class:`evaluate.batch_counts.HandRows`, every tournament field)."""
    k = len(seeds)
    block = np.arange(k)
    tables.reset(seeds, tables=block, banks=banks)
    if rows is not None:
        rows.read(block)
    width = tables.num_tables
    net = np.zeros((k, tables.num_seats))
    hand_bank = tables.bank[:k].copy()
    dealt = tables.in_hand[:k].copy()
    played = tables.hands_played[:k].copy()
    seat_index = np.arange(tables.num_seats)
    actions = np.zeros(width, dtype=np.int64)
    while not tables.over[:k].all():
        live = np.flatnonzero(~tables.over[:k])
        actor = tables.actor[live]
        role = (tables.bank[live] == actor).astype(np.int64)
        deciding = ids[live, actor, role]
        masks = tables.masks()[live]
        views: dict[bool, np.ndarray] = {}
        for d in np.unique(deciding):
            mine = deciding == d
            recall = deciders.recall[d]
            if recall not in views:
                views[recall] = (tables.information_state if recall else tables.observe)(
                    actor, tables=live)
            actions[live[mine]] = _decide(deciders, int(d), views[recall][mine], masks[mine])
        tables.step(actions[live], tables=live)
        if rows is not None:
            rows.read(live)
        if actions_taken is not None:
            actions_taken += np.bincount(actions[live], minlength=len(actions_taken))
        net += tables.rewards[:k]
        ended = np.flatnonzero(tables.hands_played[:k] != played)
        if not ended.size:
            continue
        is_bank = seat_index[None, :] == hand_bank[ended, None]
        counts[ended, :, _BANK, _CHIPS] += np.where(is_bank, net[ended], 0.0)
        counts[ended, :, _PLAYER, _CHIPS] += np.where(is_bank, 0.0, net[ended])
        counts[ended, hand_bank[ended], _BANK, _HANDS] += 1
        counts[ended, :, _PLAYER, _HANDS] += dealt[ended]
        if rows is not None:
            _count_fields(counts, ended, is_bank, dealt[ended], net[ended], rows,
                          1.0 / tables.rules.min_bet)
        net[ended] = 0.0
        hand_bank[ended] = tables.bank[ended]
        dealt[ended] = tables.in_hand[ended]
        played[ended] = tables.hands_played[ended]


def _count_fields(counts: np.ndarray, ended: np.ndarray, is_bank: np.ndarray,
                  dealt: np.ndarray, net: np.ndarray, rows: Any, scale: float) -> None:
    """Add the fields after chips and hands of the hands just ended at tables ``ended``, as
    :func:`evaluate.tournament._count_hand` counts them: for every seat in the hand, the
    result (net chips less the jackpot's ante and prize) as a win, push or loss, a bust, a
    natural, the jackpot's hits and chips."""
    from evaluate.tournament import (BUSTS, JACKPOT_CHIPS, JACKPOT_HITS, LOSSES, NATURALS,
                                     PUSHES, WINS)

    taking_part = is_bank | dealt
    role = is_bank.astype(np.int64)
    table = ended[:, None]
    seat = np.arange(is_bank.shape[1])[None, :]
    prize = rows.settled_prize[ended] * scale
    result = net - (prize - rows.settled_ante[ended] * scale)
    for field, value in ((WINS, result > _EPS), (LOSSES, result < -_EPS),
                         (PUSHES, np.abs(result) <= _EPS),
                         (BUSTS, rows.settled_busted[ended]),
                         (NATURALS, rows.settled_natural[ended]),
                         (JACKPOT_HITS, rows.settled_hits[ended]), (JACKPOT_CHIPS, prize)):
        counts[table, seat, role, field] += np.where(taking_part, value, 0)


def _decide(deciders: _Deciders, d: int, observations: np.ndarray, masks: np.ndarray
            ) -> np.ndarray:
    batched = deciders.batched[d]
    if batched is not None:
        return np.asarray(batched.act_batch(observations, masks), dtype=np.int64)
    policy = deciders.policies[d]
    return np.array([policy.act(o, m) for o, m in zip(observations, masks)], dtype=np.int64)
