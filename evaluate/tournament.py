"""Tournaments: any agents, any rules, any table size, every agent in every seat.

A tournament deals ``tables`` seeded tables of ``table_hands`` hands each
(the shoe, the jackpot and the chip stacks carry over inside a table, as at a
real one) and plays **every table once per arrangement** of the agents. With
``K`` agents and ``S`` seats there are ``K`` arrangements; arrangement ``r``
puts agent ``(r + s) mod K`` in seat ``s``. So every agent sits in every seat
exactly once per table — with fewer agents than seats an agent fills several
seats of one arrangement, with more it sits out some — and, since the first
bank is drawn from the table's seed, every agent starts as the bank equally
often. The same seeds replay the same shoe for every arrangement (*common
random numbers*): differences between agents are not luck of the seat or
of the cards. Who holds the bank later follows the rules (a 7½ passing it,
``max_bank_hands``…) and therefore the play; ``fixed_bank=True`` keeps the
first bank for the whole table (:func:`envs.single_seat.fixed_bank_rules`).

**What is counted**, per table, arrangement, seat and role (player or bank),
for every hand the seat takes part in: net chips (units of ``min_bet``, the
jackpot ante and prize included), hands, wins / pushes / losses (the sign of
the net chips *without* the jackpot ante and prize: a push is a hand that
neither won nor lost, such as a winner the bank could not cover), busts,
naturals (two cards making 7½, RULES.md §1), jackpot hits and jackpot chips.

**Intervals.** The arrangements of one table share its deals, so the table
seed is the independent unit: an agent's EV per hand is the ratio of its
chips to its hands summed over arrangements and seats, with the
cluster-robust 95 % interval of :func:`evaluate.ev.ratio_estimate`. Paired
differences between two agents use the per-table difference
(:func:`evaluate.ev.paired_difference`), which common random numbers make
much tighter than either EV. Groups of agents — several training seeds of
one method — are summarised by their interquartile mean and probability of
improvement with stratified-bootstrap intervals (:mod:`evaluate.stats`).

Tables and agents are seeded by the one rule of :mod:`agents.seating` (the
table's seed and the seat), and each seat holds its own copy of an agent with
randomness: everything is deterministic for a given ``seed``, whatever
``workers``.
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

import numpy as np

from agents.registry import make_agent, model_label, resolve_spec
from agents.seating import FinishedHand, Table, seat_copies, table_seeds
from envs.events import AnteEvent, JackpotEvent
from envs.policy import Policy
from envs.rules import Rules
from envs.single_seat import fixed_bank_rules
from envs.table_view import count_text
from evaluate.ev import Estimate, paired_difference, ratio_estimate
from evaluate.stats import SeedAggregate, aggregate_seeds
from evaluate.workers import process_pool

ROLES = ("player", "bank")
"""Roles a seat can hold in a hand; results also offer ``"all"`` (both together)."""
FIELDS = ("chips", "hands", "wins", "pushes", "losses", "busts", "naturals", "jackpot_hits",
          "jackpot_chips")
"""What is counted per table, arrangement, seat and role (see the module docstring)."""
(CHIPS, HANDS, WINS, PUSHES, LOSSES, BUSTS, NATURALS, JACKPOT_HITS,
 JACKPOT_CHIPS) = range(len(FIELDS))
RATE_FIELDS = ("wins", "pushes", "losses", "busts", "naturals", "jackpot_hits")
"""Fields reported as a share of the hands played in the role."""
_EPS = 1e-9


# --------------------------------------------------------------------- entrants
@dataclass(frozen=True)
class Entrant:
    """One agent of a tournament: a display label, its spec, and its group (if any)."""

    label: str
    spec: str
    group: str | None = None
    named: bool = field(default=False, compare=False)
    """Whether the user gave the label (``LABEL=SPEC``): :func:`unique_labels` never renames
    such a label, it refuses one that another agent also has."""


def parse_entrant(text: str, group: str | None = None) -> Entrant:
    """``[LABEL=]SPEC`` from the command line; the label defaults to the spec as given, or
    for a trained model to its short name (:func:`model_label`)."""
    label, sep, spec = text.partition("=")
    if not sep:
        label, spec = text, text
    if not label or not spec:
        raise ValueError(f"agent {text!r}: write SPEC or LABEL=SPEC, e.g. "
                         f"cautious=threshold:4.5")
    resolved = resolve_spec(spec)
    if sep:
        return Entrant(label, resolved, group, named=True)
    return Entrant(model_label(resolved, default=label), resolved, group)


def group_entrants(name: str, specs: Sequence[str]) -> list[Entrant]:
    """The members of a group (one method, several training seeds): ``NAME[0]``, ``NAME[1]``…"""
    if not specs:
        raise ValueError(f"group {name!r} names no agent; give NAME SPEC [SPEC ...]")
    if "=" in name:
        raise ValueError(f"group name {name!r} may not contain '='")
    return [Entrant(f"{name}[{i}]", resolve_spec(spec), name) for i, spec in enumerate(specs)]


def unique_labels(entrants: Sequence[Entrant]) -> list[Entrant]:
    """The entrants with repeated labels made unique.

    Two different models whose short labels agree (runs of the same name in
    different folders) get as many folders above the run as tell them apart
    (:func:`model_label`); what is still repeated becomes ``label#2``, ``label#3``…
    A label the user gave (:attr:`Entrant.named`) is theirs to choose: one that
    another agent also has is refused, naming both agents, rather than renamed
    to ``label#2`` where the tables would no longer say which agent it is.
    """
    entrants = list(entrants)
    depth = [1] * len(entrants)
    auto = [e.label == model_label(e.spec) != e.spec for e in entrants]
    while True:
        clashing = [i for i, e in enumerate(entrants) if auto[i] and any(
            o.label == e.label and o.spec != e.spec for o in entrants)]
        longer = {i: model_label(entrants[i].spec, depth[i] + 1) for i in clashing}
        grown = [i for i in clashing if longer[i] != entrants[i].label]
        if not grown:
            break
        for i in grown:
            depth[i] += 1
            e = entrants[i]
            entrants[i] = Entrant(longer[i], e.spec, e.group)
    seen: dict[str, list[Entrant]] = {}
    out = []
    for e in entrants:
        before = seen.setdefault(e.label, [])
        clash = next((o for o in before if o.named or e.named), None)
        if clash is not None:
            raise ValueError(f"agent label {e.label!r} names two agents, {clash.spec} and "
                             f"{e.spec}: give each its own label (LABEL=SPEC)")
        before.append(e)
        out.append(e if len(before) == 1 else Entrant(f"{e.label}#{len(before)}", e.spec,
                                                      e.group))
    return out


def arrangements(num_agents: int, num_seats: int) -> list[tuple[int, ...]]:
    """Agent index per seat for every arrangement: agent ``(r + s) mod K`` in seat ``s``."""
    if num_agents < 1:
        raise ValueError("a tournament needs at least one agent")
    return [tuple((r + s) % num_agents for s in range(num_seats)) for r in range(num_agents)]


# --------------------------------------------------------------------- playing
@dataclass(frozen=True)
class TournamentConfig:
    """Everything that determines a tournament's numbers."""

    entrants: tuple[Entrant, ...]
    rules: str | Rules = "catalan"          # preset name, rules file or Rules
    num_seats: int = 4                      # as many as the rules' shoe serves
    hands: int = 1000                       # hands dealt per arrangement (rounded up to tables)
    seed: int = 0                           # seeds every table's shoe and every agent
    table_hands: int = 10                   # hands per table: shoe, jackpot, stacks carry over
    fixed_bank: bool = False                # keep the first bank for the whole table
    _given: Rules = field(init=False, repr=False, compare=False)  # given_rules()
    _played: Rules = field(init=False, repr=False, compare=False)  # resolved_rules()

    def __post_init__(self) -> None:
        if not self.entrants:
            raise ValueError("a tournament needs at least one agent")
        rules = Rules.resolve(self.rules)  # once: a rules file is read here only
        object.__setattr__(self, "_given", rules)
        object.__setattr__(self, "_played", fixed_bank_rules(rules) if self.fixed_bank
                           else rules)
        self._played.check_seats(self.num_seats)  # the seats its shoe serves
        for name in ("hands", "table_hands"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{name}={value!r} must be a positive integer")
        labels = [e.label for e in self.entrants]
        if len(set(labels)) != len(labels):
            raise ValueError(f"agent labels must be unique: {labels}")

    @property
    def tables(self) -> int:
        """Seeded tables dealt (each played once per arrangement)."""
        return whole_tables(self.hands, self.table_hands)

    @property
    def played_hands(self) -> int:
        """Hands dealt per arrangement: ``hands`` rounded up to whole tables."""
        return self.tables * self.table_hands

    def resolved_rules(self) -> Rules:
        """The rules the tables play (with the bank kept in place if ``fixed_bank``)."""
        return self._played

    def given_rules(self) -> Rules:
        """The rules as given (``rules`` resolved), before ``fixed_bank`` keeps the bank."""
        return self._given

    @property
    def rules_name(self) -> str:
        """The preset name or rules file the tournament was given."""
        return self.rules if isinstance(self.rules, str) else "custom rules"


def whole_tables(hands: int, table_hands: int) -> int:
    """Tables of ``table_hands`` hands that deal at least ``hands`` hands: a table is played
    whole (its shoe, jackpot and stacks carry over), so the hands are rounded up to tables."""
    return math.ceil(hands / table_hands)


def rounded_hands_note(option: str, hands: int, table_hands: int) -> str | None:
    """What a command says when ``option`` asked for ``hands`` that are not whole tables of
    ``table_hands``: how many it plays instead (``None`` when they are whole tables)."""
    tables = whole_tables(hands, table_hands)
    if tables * table_hands == hands:
        return None
    return (f"{option} {hands} rounded up to whole tables: {count_text(tables, 'table')} of "
            f"{table_hands} hands, {tables * table_hands} hands")


def workers_note(workers: int) -> str:
    """Why ``--workers`` played no part: the batch engine played the tables, in this process
    (``workers`` spread only :func:`run_tournament`'s tables over processes)."""
    return (f"--workers {workers} not used: the batch engine played the tables in this "
            f"process (--workers spreads the scalar engine's: --engine scalar)")


def build_agents(config: TournamentConfig) -> list[Policy]:
    """One agent per entrant (an unknown spec or a missing model fails here, named)."""
    rules = config.resolved_rules()
    return [make_agent(e.spec, rules=rules) for e in config.entrants]


class _TablePlayer:
    """Plays tables of one tournament: one :class:`agents.seating.Table` and one agent per
    arrangement seat, seeded by the rule of :mod:`agents.seating`."""

    def __init__(self, config: TournamentConfig, agents: Sequence[Policy]) -> None:
        self.config = config
        self.rules = config.resolved_rules()
        self.table = Table(self.rules, config.num_seats, config.table_hands)
        self.arrangements = arrangements(len(agents), config.num_seats)
        # Every seat draws its own stream; agents without randomness are shared,
        # which also keeps one loaded model.
        self.seats = [seat_copies([agents[a] for a in lineup]) for lineup in self.arrangements]
        self.seeds = table_seeds(config.seed, config.tables)

    def play(self, start: int, stop: int, progress: Callable[[int], None] | None = None
             ) -> np.ndarray:
        """Counts of tables ``start..stop-1``: ``[table, arrangement, seat, role, field]``."""
        n = self.config.num_seats
        out = np.zeros((stop - start, len(self.arrangements), n, len(ROLES), len(FIELDS)))
        for t in range(start, stop):
            seed = self.seeds[t]
            for r, policies in enumerate(self.seats):
                self._table(policies, seed, out[t - start, r])
            if progress is not None:
                progress(1)
        return out

    def _table(self, policies: Sequence[Policy], seed: int, out: np.ndarray) -> None:
        """One table under one arrangement, adding every hand's counts into ``out[seat, role]``."""
        scale = 1.0 / self.rules.min_bet
        for hand in self.table.hands(policies, seed):
            _count_hand(out, hand, scale)


def _count_hand(out: np.ndarray, hand: FinishedHand, scale: float) -> None:
    """Add one finished hand to ``out[seat, role, field]`` (see the module docstring)."""
    net = hand.net
    flows = [0.0] * len(net)  # jackpot ante and prize, in units
    prizes = [0.0] * len(net)
    hits = [0] * len(net)
    for event in hand.events:
        kind = event[0]  # every logged event's first item (envs.events)
        if kind == "ante":
            ante = AnteEvent._make(event)
            flows[ante.seat] -= ante.amount * scale
        elif kind == "jackpot":
            prize = JackpotEvent._make(event)
            flows[prize.seat] += prize.amount * scale
            prizes[prize.seat] += prize.amount * scale
            hits[prize.seat] += 1
    bank = hand.bank
    for seat in (*hand.order, bank):
        is_bank = seat == bank
        row = out[seat, 1 if is_bank else 0]
        row[CHIPS] += net[seat]
        row[HANDS] += 1
        result = net[seat] - flows[seat]
        row[WINS if result > _EPS else LOSSES if result < -_EPS else PUSHES] += 1
        own = [hand.bank_hand] if is_bank else hand.hands[seat]
        row[BUSTS] += any(h.busted for h in own)
        row[NATURALS] += any(h.is_natural for h in own)
        row[JACKPOT_HITS] += hits[seat]
        row[JACKPOT_CHIPS] += prizes[seat]


_worker_player: _TablePlayer | None = None


def _worker_init(config: TournamentConfig) -> None:
    global _worker_player
    _worker_player = _TablePlayer(config, build_agents(config))


def _worker_play(bounds: tuple[int, int]) -> np.ndarray:
    assert _worker_player is not None
    return _worker_player.play(*bounds)


class Progress:
    """A one-line progress bar on a terminal (``\\r``-updated), silent when ``stream`` is None."""

    def __init__(self, total: int, label: str, stream: TextIO | None = sys.stderr,
                 every_s: float = 0.5) -> None:
        self.total = total
        self.label = label
        self.stream = stream
        self.every_s = every_s
        self.done = 0
        self.started = time.perf_counter()
        self._shown = 0.0

    def __call__(self, count: int) -> None:
        now = time.perf_counter()
        if count == 0 and self.done == 0:  # play starts now (agents loaded): time from here
            self.started = now
            return
        self.done += count
        if self.stream is not None and (now - self._shown >= self.every_s
                                        or self.done >= self.total):
            self._shown = now
            elapsed = now - self.started
            eta = elapsed / self.done * (self.total - self.done) if self.done else 0.0
            width = 30
            filled = int(width * self.done / max(self.total, 1))
            self.stream.write(f"\r{self.label} [{'#' * filled}{'.' * (width - filled)}] "
                              f"{self.done}/{self.total} tables, {elapsed:.0f}s, "
                              f"eta {eta:.0f}s ")
            if self.done >= self.total:
                self.stream.write("\n")
            self.stream.flush()


def run_tournament(config: TournamentConfig, workers: int = 1,
                   progress: Callable[[int], None] | None = None,
                   agents: Sequence[Policy] | None = None) -> "TournamentResult":
    """Play the tournament (see the module docstring); ``progress(k)`` hears of finished tables
    (``progress(0)`` once the agents are built and play starts).

    ``workers > 1`` plays blocks of tables in that many spawned processes
    (:mod:`evaluate.workers`; the agents are built again from their specs in
    each); the numbers do not change.
    ``agents`` overrides the agents built from the specs (one per entrant, in
    process only).
    """
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers={workers!r} must be a positive integer")
    if agents is not None:
        if len(agents) != len(config.entrants):
            raise ValueError(f"{len(agents)} agents for {len(config.entrants)} entrants")
        if workers > 1:
            raise ValueError("agents given as objects play in this process only; use "
                             "workers=1 or let the tournament build them from their specs")
    tables = config.tables
    started = time.perf_counter()
    if workers == 1 or tables < 2:
        built = list(agents) if agents is not None else build_agents(config)
        player = _TablePlayer(config, built)
        if progress is not None:
            progress(0)
        data = player.play(0, tables, progress)
    else:
        build_agents(config)  # an unknown spec or a missing model fails here, not in a worker
        blocks = min(tables, workers * 4)
        edges = np.linspace(0, tables, blocks + 1).astype(int)
        bounds = [(int(a), int(b)) for a, b in zip(edges[:-1], edges[1:]) if b > a]
        with process_pool(workers, _worker_init, (config,)) as pool:
            parts = []
            for (a, b), part in zip(bounds, pool.map(_worker_play, bounds)):
                parts.append(part)
                if progress is not None:
                    progress(b - a)
        data = np.concatenate(parts)
    return TournamentResult(config, data, time.perf_counter() - started)


# --------------------------------------------------------------------- results
@dataclass
class TournamentResult:
    """Counts of a tournament, ``data[table, arrangement, seat, role, field]``, and summaries."""

    config: TournamentConfig
    data: np.ndarray
    wall_s: float = 0.0
    _per_agent: np.ndarray | None = field(default=None, repr=False)

    @property
    def labels(self) -> list[str]:
        return [e.label for e in self.config.entrants]

    def _index(self, agent: str | int) -> int:
        if isinstance(agent, int):
            return agent
        try:
            return self.labels.index(agent)
        except ValueError:
            raise ValueError(f"no agent {agent!r} in this tournament; agents: "
                             f"{', '.join(self.labels)}") from None

    def per_agent(self) -> np.ndarray:
        """Counts summed over arrangements and seats: ``[agent, table, role, field]``."""
        if self._per_agent is None:
            lineups = arrangements(len(self.config.entrants), self.config.num_seats)
            out = np.zeros((len(self.config.entrants), self.data.shape[0], len(ROLES),
                            len(FIELDS)))
            for r, lineup in enumerate(lineups):
                for s, a in enumerate(lineup):
                    out[a] += self.data[:, r, s]
            self._per_agent = out
        return self._per_agent

    def tables_of(self, agent: str | int, role: str, what: str) -> np.ndarray:
        """Per-table sums of field ``what`` for ``agent`` in ``role`` (or ``"all"``)."""
        if what not in FIELDS:
            raise ValueError(f"unknown field {what!r}; fields: {', '.join(FIELDS)}")
        counts = self.per_agent()[self._index(agent), :, :, FIELDS.index(what)]
        if role == "all":
            return counts.sum(axis=1)
        if role not in ROLES:
            raise ValueError(f"role {role!r} is not one of player, bank, all")
        return counts[:, ROLES.index(role)]

    def ev(self, agent: str | int, role: str = "all") -> Estimate:
        """Net chips per hand (units of ``min_bet``) with its 95 % interval."""
        return ratio_estimate(self.tables_of(agent, role, "chips"),
                              self.tables_of(agent, role, "hands"))

    def rate(self, agent: str | int, role: str, what: str) -> Estimate:
        """Share of the hands in ``role`` counted in ``what`` (wins, busts…), with interval."""
        return ratio_estimate(self.tables_of(agent, role, what),
                              self.tables_of(agent, role, "hands"))

    def bank_share(self, agent: str | int) -> Estimate:
        """Share of the agent's hands in which it held the bank."""
        return ratio_estimate(self.tables_of(agent, "bank", "hands"),
                              self.tables_of(agent, "all", "hands"))

    def difference(self, a: str | int, b: str | int, role: str = "all") -> Estimate:
        """EV of ``a`` minus EV of ``b`` in ``role``, paired by table (common random numbers)."""
        run = [(self.tables_of(x, role, "chips"), self.tables_of(x, role, "hands"))
               for x in (a, b)]
        if min(run[0][1].sum(), run[1][1].sum()) == 0:
            return Estimate(float("nan"), float("nan"), 0)
        return paired_difference(*run)

    def groups(self) -> dict[str, list[str]]:
        """Group name -> labels of its members, in order."""
        out: dict[str, list[str]] = {}
        for e in self.config.entrants:
            if e.group is not None:
                out.setdefault(e.group, []).append(e.label)
        return out

    def seed_aggregates(self, reps: int = 2000) -> dict[str, SeedAggregate]:
        """Per role and for both roles: IQM and probability of improvement of the groups.

        Each member's score is its EV per hand in the role; ``"both roles"``
        scores every member on two tasks (player and bank EV).
        """
        groups = self.groups()
        if not groups:
            return {}
        out = {}
        for role in ROLES:
            scores = {g: [[self.ev(m, role).mean] for m in members]
                      for g, members in groups.items()}
            if all(np.isfinite(v).all() for v in scores.values()):
                out[role] = aggregate_seeds(scores, reps=reps, seed=self.config.seed)
        if len(out) == len(ROLES):
            scores = {g: [[self.ev(m, role).mean for role in ROLES] for m in members]
                      for g, members in groups.items()}
            out["both roles"] = aggregate_seeds(scores, reps=reps, seed=self.config.seed)
        return out

    # ----------------------------------------------------------------- output
    def summary(self, reps: int = 2000) -> dict[str, Any]:
        """Everything as plain data (the ``--json`` output); deterministic for a given seed."""
        c = self.config
        agents: dict[str, dict[str, Any]] = {}
        for label in self.labels:
            roles: dict[str, Any] = {}
            for role in ("all",) + ROLES:
                ev = self.ev(label, role)
                entry: dict[str, Any] = {"hands": ev.hands, "ev": _est(ev)}
                for what in RATE_FIELDS:
                    entry[what] = _est(self.rate(label, role, what))
                entry["jackpot_hits_total"] = int(self.tables_of(label, role,
                                                                 "jackpot_hits").sum())
                entry["jackpot_chips_per_hand"] = _est(ratio_estimate(
                    self.tables_of(label, role, "jackpot_chips"),
                    self.tables_of(label, role, "hands")))
                roles[role] = entry
            roles["bank_share"] = _est(self.bank_share(label))
            agents[label] = roles
        pairs = {}
        for i, a in enumerate(self.labels):
            for b in self.labels[i + 1:]:
                pairs[f"{a} - {b}"] = {role: _est(self.difference(a, b, role))
                                       for role in ("all",) + ROLES}
        rules = c.resolved_rules()
        return {
            "rules": c.rules_name, "rules_values": rules.to_dict(), "seats": c.num_seats,
            "hands_per_arrangement": c.played_hands, "tables": c.tables,
            "table_hands": c.table_hands, "seed": c.seed, "fixed_bank": c.fixed_bank,
            "arrangements": [[self.labels[a] for a in lineup] for lineup in
                             arrangements(len(self.labels), c.num_seats)],
            "entrants": [{"label": e.label, "spec": e.spec, "group": e.group}
                         for e in c.entrants],
            "units": "chips per hand in units of min_bet; intervals are 95% [low, high]",
            "agents": agents, "differences": pairs,
            "seed_groups": {k: v.to_dict() for k, v in self.seed_aggregates(reps).items()},
        }

    def markdown(self, reps: int = 2000) -> str:
        """The result as Markdown tables: per agent and role, then paired differences."""
        c = self.config
        lines = [f"Tournament on `{c.rules_name}`, {c.num_seats} seats, "
                 f"{count_text(c.tables, 'table')} of {c.table_hands} hands per arrangement, "
                 f"{count_text(len(self.labels), 'arrangement')} "
                 f"(every agent in every seat), seed {c.seed}"
                 + (", bank fixed per table" if c.fixed_bank else "") + ".",
                 "EV: net chips per hand in units of `min_bet`, ± the 95% interval "
                 "half-width (the bank rows: the bank's profit per hand held); rates are "
                 "shares of the hands played in the role; bank share: hands holding the bank.",
                 "",
                 "| agent | role | hands | EV per hand | win | push | loss | bust | natural "
                 "| jackpot hits | bank share |",
                 "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
        for label in self.labels:
            share = self.bank_share(label)
            for role in ("all",) + ROLES:
                ev = self.ev(label, role)
                rates = [self.rate(label, role, w) for w in RATE_FIELDS]
                hits = int(self.tables_of(label, role, "jackpot_hits").sum())
                lines.append(
                    f"| {md_code(label)} | {role} | {ev.hands} | {estimate_text(ev)} | "
                    + " | ".join(_pct(r.mean) for r in rates[:5])
                    + f" | {hits} | {_pct(share.mean) if role == 'all' else ''} |")
        if len(self.labels) > 1:
            lines += ["", "Paired differences (row minus column agent, same deals), EV per "
                      "hand ± 95%:", "",
                      "| difference | all hands | as player | as bank |", "|---|---:|---:|---:|"]
            for i, a in enumerate(self.labels):
                for b in self.labels[i + 1:]:
                    cells = [estimate_text(self.difference(a, b, role))
                             for role in ("all",) + ROLES]
                    lines.append(f"| {md_code(a)} − {md_code(b)} | " + " | ".join(cells) + " |")
        aggregates = self.seed_aggregates(reps)
        if aggregates:
            lines += ["", "Training seeds (groups): interquartile mean of the members' EV per "
                      "hand and probability of improvement, stratified-bootstrap 95% "
                      "intervals:", "",
                      "| scores | group | seeds | IQM [95% CI] |", "|---|---|---:|---:|"]
            for task, agg in aggregates.items():
                for g, iv in agg.iqm.items():
                    lines.append(f"| {task} | {md_code(g)} | {agg.runs[g]} | {iv} |")
            pairs = [(task, a, b, iv) for task, agg in aggregates.items()
                     for (a, b), iv in agg.improvement.items()]
            if pairs:
                lines += ["", "| scores | P(row group > column group) [95% CI] |", "|---|---:|"]
                lines += [f"| {task} | P({md_code(a)} > {md_code(b)}) = {iv.value:.3f} "
                          f"[{iv.low:.3f}, {iv.high:.3f}] |" for task, a, b, iv in pairs]
        return "\n".join(lines)


def md_code(text: str) -> str:
    """``text`` as inline code for a Markdown table cell (a ``|`` escaped)."""
    return "`" + text.replace("|", "\\|") + "`"


def _est(e: Estimate) -> list[float | None]:
    """``[mean, low, high]`` with ``None`` for what is undefined (JSON has no NaN)."""
    return [_finite(e.mean), _finite(e.low), _finite(e.high)]


def _finite(x: float) -> float | None:
    return float(x) if math.isfinite(x) else None


def estimate_text(e: Estimate) -> str:
    """An estimate for a table cell: ``+0.1234 ± 0.0567``; ``—`` where no hand was played,
    and no half-width where one table was (the tables are the independent units: one
    gives no interval, which an infinite half-width would only pretend to)."""
    if not math.isfinite(e.mean):
        return "—"
    if not math.isfinite(e.half_width):
        return f"{e.mean:+.4f} ± n/a (one table)"
    return str(e)


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%" if math.isfinite(x) else "—"
