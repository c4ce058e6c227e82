"""The bank's edge per rule variant: what a designer changes by picking a preset.

For every rule set the table gives the bank's profit per player hand (units
of ``min_bet``; positive: the bank wins) under each *baseline*, a line of
play every seat follows (a spec, or ``PLAYER|BANK``: the seat plays the
first spec as a player and the second as the bank):

* **exact heads-up** — one hand between one player and the bank from a full
  shoe, by the solver (:mod:`evaluate.solver.exact`), where it models the rules and
  can solve the baseline's bank directly (the scripted ``threshold`` and
  ``random`` banks); otherwise a note says why it is left out;
* **simulated** — tournaments (:mod:`evaluate.tournament`) at 2 and 4 seats
  (or any given), with 95 % intervals. The bank stays on its first seat for a
  whole table (``fixed_bank``) so the number is the edge of the *hand*, the
  same quantity as the exact one; chips, coverage, the shoe and the jackpot
  run as at a real table. The jackpot's ante and prize are the players' and
  not the bank's, so the bank's edge does not include them.
* **learned** — the same simulation with a trained player and bank
  (``PLAYER|BANK`` spec) on the rules and seat count they were trained for.

The default baselines are the careful player against the table-reading bank
(``careful|reader``), which use the house actions where they pay, and the
threshold player and bank (``threshold:5.5``), which never do.

**Rules a line of play never used.** Many of a preset's extra rules act
only when a seat chooses them (:data:`CHOSEN_RULES`: a raise, a stake chosen
after the first card, the face-down choice, double, split or abrirse, an
optional change of a 4, Mort, fusilar, side bets). Every action a measured
agent takes is counted, and a row lists, per line of play, the rules that
are on and were never chosen: that column measured the preset as if those
rules were off. Rules that act by themselves (payouts, the matta, special
hands, the jackpot, a forced change of a 4, the secret three, the
declaration) need no choice and are never listed. The rules that pass the
bank on (transfer, sale, the auction) are off at a fixed bank
(:func:`envs.single_seat.fixed_bank_rules`), so they are not listed either.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from agents import Agent
from agents.registry import resolve_spec
from agents.seating import Table
from envs.actions import ActionLayout
from envs.policy import Policy
from envs.rules import PRESETS, Rules
from envs.batch.api import UnsupportedRules
from evaluate.batch_eval import batch_refusal, batch_tournament, say_once
from evaluate.ev import Estimate, ratio_estimate
from evaluate.solver.exact import ExactUnavailable, exact_bank_edge
from evaluate.tournament import (Entrant, TournamentConfig, TournamentResult, build_agents,
                                 estimate_text, md_code, run_tournament, whole_tables)

DEFAULT_BASELINES = ("careful|reader", "threshold:5.5")
"""Lines of play of the table by default: one that uses the house actions, one that does not."""


@dataclass(frozen=True)
class ChosenRule:
    """A rule that acts only when a seat chooses it: when it is on, and the actions that use it."""

    name: str
    is_on: Callable[[Rules], bool]
    uses: Callable[[str, Rules], bool]
    """``uses(action_name, rules)``: taking this action is a use of the rule."""


def _bet_above_minimum(action: str, rules: Rules) -> bool:
    head, _, stake = action.partition("_")
    return head == "bet" and int(stake) > rules.bet_ladder[0]


CHOSEN_RULES = (
    ChosenRule("raise", lambda r: r.bet_raise, lambda a, r: a.startswith("raise_")),
    ChosenRule("stake after the first card", lambda r: r.bet_timing == "on_turn",
               _bet_above_minimum),
    ChosenRule("face-down choice", lambda r: r.hidden_cards == "player_choice",
               lambda a, r: a == "reveal_hit"),
    ChosenRule("double", lambda r: r.double, lambda a, r: a == "double"),
    ChosenRule("split", lambda r: r.split_rule.startswith("two_figures"),
               lambda a, r: a == "split"),
    ChosenRule("abrirse", lambda r: r.split_rule == "abrirse", lambda a, r: a == "split"),
    ChosenRule("change a 4", lambda r: r.change_four == "optional",
               lambda a, r: a == "change_four"),
    ChosenRule("Mort", lambda r: r.mort, lambda a, r: a == "mort"),
    ChosenRule("fusilar", lambda r: r.fusilar, lambda a, r: a == "fusilar"),
    ChosenRule("side bet", lambda r: r.side_bets, lambda a, r: a.startswith("side_bet_")),
)
"""The rules a seat must choose to use (RULES.md §2, §4.3, §6), in the order rows list them."""


@dataclass(frozen=True)
class LearnedPlay:
    """Trained policies to measure on their own table: a label, a spec, rules and seats."""

    label: str
    spec: str
    rules: str
    num_seats: int


@dataclass
class Measured:
    """One simulated cell: the bank's edge, and how often each chosen rule that is on was used."""

    edge: Estimate
    uses: dict[str, int]
    """Rule name (:data:`CHOSEN_RULES`) -> actions taken that used it; rules that are on only."""


@dataclass
class VariantRow:
    """The bank's edge under one rule set, per line of play."""

    rules: str
    exact: dict[str, float]
    """Baseline -> the exact heads-up edge, where the solver gives it."""
    notes: dict[str, str]
    """Baseline -> why its exact edge is left out."""
    simulated: dict[tuple[str, int], Measured]
    """(baseline, seats) -> the simulated edge."""
    learned: dict[str, Measured] = field(default_factory=dict)

    def unused(self) -> dict[str, list[str]]:
        """Per line of play (baseline or learned label): the chosen rules it never used."""
        cells = [(b, m) for (b, _), m in self.simulated.items()] + list(self.learned.items())
        out: dict[str, list[str]] = {who: [] for who, _ in cells}
        for who, names in out.items():
            for rule in CHOSEN_RULES:
                counts = [m.uses[rule.name] for w, m in cells if w == who and rule.name in m.uses]
                if counts and not any(counts):
                    names.append(rule.name)
        return out

    @property
    def chosen_rules(self) -> list[str]:
        """The chosen rules that are on in this rule set."""
        names = {k for m in self.simulated.values() for k in m.uses}
        return [r.name for r in CHOSEN_RULES if r.name in names]


class _ActionCounter(Agent):
    """An agent that counts the actions it takes into an array its seat copies share."""

    def __init__(self, agent: Any, counts: np.ndarray) -> None:
        self.agent = agent
        self.counts = counts

    def seed(self, seed: int) -> None:
        if hasattr(self.agent, "seed"):
            self.agent.seed(seed)

    def __deepcopy__(self, memo: dict[int, Any]) -> "_ActionCounter":
        # The tournament gives each seat a copy of a seeded agent: the counts stay shared.
        return _ActionCounter(copy.deepcopy(self.agent, memo), self.counts)

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        action = self.agent.act(observation, action_mask)
        self.counts[action] += 1
        return action


def bank_edge(result: TournamentResult, agent: int | str = 0) -> Estimate:
    """The bank's net chips per player hand for ``agent`` holding the bank, with its interval."""
    chips = result.tables_of(agent, "bank", "chips")
    player_hands = np.asarray(sum(result.tables_of(a, "player", "hands")
                                  for a in range(len(result.config.entrants))))
    return ratio_estimate(chips, player_hands)


def simulate(spec: str, rules: str, num_seats: int, hands: int, seed: int = 0,
             table_hands: int = 10, progress: Callable[[int], None] | None = None,
             engine: str = "auto", note: Callable[[str], None] | None = None) -> Measured:
    """Bank's edge per player hand with every seat playing ``spec``, bank fixed per table,
    and the uses of every chosen rule that is on (see the module docstring).

    ``engine`` (``auto``, ``batch``, ``scalar``): the tournament's engine
    (:func:`evaluate.batch_eval.batch_tournament`: the same numbers on either;
    ``auto`` plays the scalar engine where the batch one does not play the rules
    or the agent, telling ``note`` why)."""
    return _measure(_seat(spec, rules, num_seats, hands, seed, table_hands), progress, engine,
                    note)


@dataclass(frozen=True)
class _Seated:
    """One simulated cell ready to play: its tournament and its agents, built and checked."""

    config: TournamentConfig
    agents: list[Policy]


def _seat(spec: str, rules: str, num_seats: int, hands: int, seed: int, table_hands: int
          ) -> _Seated:
    """The tournament of one cell (every seat plays ``spec``, the bank fixed per table) with
    its agents built and held to its table: a rules file that cannot be read, a spec that
    names no agent, a table its shoe cannot serve, or a trained model seated at another table
    size or bet ladder than it learned fails here, in the command line's words."""
    config = TournamentConfig((Entrant("baseline", resolve_spec(spec)),), rules, num_seats,
                              hands, seed, table_hands, fixed_bank=True)
    agents = build_agents(config)
    vectors = Table(config.resolved_rules(), num_seats, table_hands).vectors
    for agent in agents:
        vectors.check(agent)
    return _Seated(config, agents)


def _measure(seated: _Seated, progress: Callable[[int], None] | None, engine: str,
             note: Callable[[str], None] | None) -> Measured:
    """Play one cell (:func:`simulate`)."""
    config, built = seated.config, seated.agents
    played = config.resolved_rules()
    names = ActionLayout(played.bet_ladder).names
    counts = np.zeros(len(names), dtype=np.int64)
    result = batch_tournament(config, engine, progress, agents=built, actions=counts,
                              note=note)
    if result is None:
        agents = [_ActionCounter(agent, counts) for agent in built]
        result = run_tournament(config, progress=progress, agents=agents)
    edge = bank_edge(result)
    uses = {rule.name: int(sum(counts[i] for i, name in enumerate(names)
                               if rule.uses(name, played)))
            for rule in CHOSEN_RULES if rule.is_on(played)}
    return Measured(edge, uses)


def _quick_exact(bank: str, rules: str) -> bool:
    """Whether the solver plays this bank directly (a scripted spec) rather than asking it
    at every bank state, which takes minutes per preset."""
    from evaluate.solver.policies import AgentPolicy, as_policy

    try:
        return not isinstance(as_policy(bank, Rules.resolve(rules)), AgentPolicy)
    except ValueError:
        return False


def _exact(name: str, baseline: str) -> tuple[float | None, str]:
    """The exact heads-up edge of one baseline, or ``None`` and the reason."""
    player, _, bank = baseline.partition("|")
    bank = bank or player
    if not _quick_exact(bank, name):
        return None, (f"the bank {md_code(bank)} is not a scripted policy: the solver would "
                      f"ask it at every bank state, minutes per rule set (`sette solve ev "
                      f"--preset PRESET --player {player} --bank {bank}` computes it)")
    try:
        return exact_bank_edge(name, player, bank), ""
    except ExactUnavailable as exc:
        return None, str(exc)


def check_batch_tables(engine: str, tables: Iterable[tuple[str, Rules, int]]) -> None:
    """With ``engine="batch"``, refuse before the first hand every table the compiled engine
    does not play: ``tables`` gives each one's rules as typed, the rules it plays and its
    seats. The error names each refused rule set with what the engine does not play in it
    (:func:`evaluate.batch_eval.batch_refusal`) and the engines that play it; checked one
    table at a time, such a table stopped the command after the tables before it had played.
    """
    if engine != "batch":
        return
    refused: dict[str, dict[str, None]] = {}
    for name, rules, seats in tables:
        reason = batch_refusal(rules, seats)
        if reason is not None:
            refused.setdefault(name, {})[reason] = None  # each reason once, in order
    if refused:
        parts = [f"{name}: {'; '.join(reasons)}" for name, reasons in refused.items()]
        raise UnsupportedRules(f"--engine batch: {'; '.join(parts)}; use --engine scalar or "
                               f"auto for {'these rules' if len(parts) == 1 else 'them'}")


@dataclass(frozen=True)
class VariantPlan:
    """Every cell of a variant table, resolved, built and checked before its first hand
    (:func:`plan_variants`): a rules entry, a line of play or a learned run that cannot
    play, or a rule set the engine asked for does not play, is refused before minutes of
    play of the rows before it, not after."""

    rows: list[tuple[str, list[tuple[str, str, dict[int, _Seated]]],
                     list[tuple[LearnedPlay, _Seated]]]]
    """Per rule set: its name, per baseline (as given, resolved) its cell per seat count,
    and each learned play on these rules with its cell."""
    tables: int
    """Tables per cell: the hands asked for, rounded up to whole tables."""
    table_hands: int
    engine: str
    """The engine that plays every cell (:func:`simulate`'s ``engine``)."""

    @property
    def hands(self) -> int:
        """Hands dealt per cell."""
        return self.tables * self.table_hands


def plan_variants(rules: Sequence[str] = tuple(PRESETS),
                  baselines: Sequence[str] = DEFAULT_BASELINES,
                  seats: Sequence[int] = (2, 4), hands: int = 20_000, seed: int = 0,
                  table_hands: int = 10, learned: Sequence[LearnedPlay] = (),
                  engine: str = "auto") -> VariantPlan:
    """The cells of :func:`variant_table`, every one checked (see :class:`VariantPlan`),
    on ``engine`` (:func:`check_batch_tables`)."""
    if isinstance(baselines, str):
        baselines = (baselines,)
    if not baselines:
        raise ValueError("the variant table needs at least one baseline, e.g. careful|reader")
    resolved = [resolve_spec(b) for b in baselines]
    names = list(dict.fromkeys(list(rules) + [p.rules for p in learned]))
    rows = []
    for name in names:
        lines = [(given, spec, {n: _seat(spec, name, n, hands, seed, table_hands)
                                for n in seats})
                 for given, spec in zip(baselines, resolved)]
        own = [(play, _seat(play.spec, name, play.num_seats, hands, seed, table_hands))
               for play in learned if play.rules == name]
        rows.append((name, lines, own))
    cells = [s for _, lines, _ in rows for _, _, by_seats in lines for s in by_seats.values()]
    cells += [s for _, _, own in rows for _, s in own]
    check_batch_tables(engine, [(s.config.rules_name, s.config.resolved_rules(),
                                 s.config.num_seats) for s in cells])
    return VariantPlan(rows, whole_tables(hands, table_hands), table_hands, engine)


def variant_table(rules: Sequence[str] = tuple(PRESETS),
                  baselines: Sequence[str] = DEFAULT_BASELINES,
                  seats: Sequence[int] = (2, 4), hands: int = 20_000, seed: int = 0,
                  table_hands: int = 10, learned: Sequence[LearnedPlay] = (),
                  progress: Callable[[str, int], Callable[[int], None] | None] | None = None,
                  engine: str = "auto", note: Callable[[str], None] | None = None
                  ) -> list[VariantRow]:
    """One row per rule set (presets by default, plus any a learned run was trained on).

    ``baselines`` are specs (or ``PLAYER|BANK``), each a line of play every seat
    follows. ``progress(label, tables)`` may give a progress callback for each
    tournament. ``engine`` and ``note``: :func:`simulate`'s (``note`` hears each
    reason for the scalar engine once). Every cell is checked before the first is
    played (:func:`plan_variants`).
    """
    plan = plan_variants(rules, baselines, seats, hands, seed, table_hands, learned, engine)
    return play_variants(plan, progress, note)


def play_variants(plan: VariantPlan,
                  progress: Callable[[str, int], Callable[[int], None] | None] | None = None,
                  note: Callable[[str], None] | None = None) -> list[VariantRow]:
    """Play the cells of ``plan`` (:func:`variant_table`) on its engine, with the exact
    edges."""
    said = say_once(note) if note is not None else None

    def bar(label: str) -> Callable[[int], None] | None:
        return progress(label, plan.tables) if progress else None

    out = []
    for name, lines, own in plan.rows:
        row = VariantRow(name, {}, {}, {})
        for given, spec, cells in lines:
            exact, why = _exact(name, spec)
            if exact is None:
                row.notes[given] = why
            else:
                row.exact[given] = exact
            for n, seated in cells.items():
                row.simulated[given, n] = _measure(seated, bar(f"{name}, {given}, {n} seats"),
                                                   plan.engine, said)
        for play, seated in own:
            row.learned[f"{play.label}, {play.num_seats} seats"] = _measure(
                seated, bar(f"{name}, {play.label}"), plan.engine, said)
        out.append(row)
    return out


def variant_markdown(rows: Sequence[VariantRow], hands: int, seed: int) -> str:
    """The table as Markdown: the exact and simulated edge of each baseline, the learned
    play, and the chosen rules each line of play never used; the solver's reasons as notes.
    ``hands``: the hands each cell dealt (:attr:`VariantPlan.hands`, whole tables)."""
    baselines = list(dict.fromkeys(b for r in rows for b, _ in r.simulated))
    seats = sorted({n for r in rows for _, n in r.simulated})
    learned = list(dict.fromkeys(k for r in rows for k in r.learned))
    with_exact = [b for b in baselines if any(b in r.exact for r in rows)]
    head = ["rules"]
    for b in baselines:
        head += [f"{md_code(b)} exact heads-up"] * (b in with_exact)
        head += [f"{md_code(b)} {n} seats" for n in seats]
    head += learned + ["chosen rules never used"]
    lines = [f"Bank's edge per player hand (units of `min_bet`, positive: the bank wins); "
             f"every seat plays the column's line of play (`PLAYER|BANK`: the first as a "
             f"player, the second as the bank); simulated: {hands} hands per rule set and "
             f"seat count, bank fixed per table, seed {seed}, ± 95% interval. The last column "
             f"names, per line of play, the rules of the row that act only when a seat "
             f"chooses them and that it never chose: there it measured the rules as if "
             f"those were off."]
    for b in baselines:
        if b not in with_exact:
            reasons = dict.fromkeys(r.notes[b] for r in rows if b in r.notes)
            lines[0] += f" {md_code(b)} has no exact column: {'; '.join(reasons)}."
    lines += ["", "| " + " | ".join(head) + " |", "|---|" + "---:|" * (len(head) - 2) + "---|"]
    notes: list[str] = []
    for r in rows:
        cells = [md_code(r.rules)]
        for b in baselines:
            if b in r.exact:
                cells.append(f"{r.exact[b]:+.4f}")
            elif b in with_exact:
                if r.notes[b] not in notes:
                    notes.append(r.notes[b])
                cells.append(f"n/a ({notes.index(r.notes[b]) + 1})")
            cells += [_fmt(r.simulated.get((b, n))) for n in seats]
        cells += [_fmt(r.learned.get(k)) for k in learned]
        cells.append(_unused_cell(r))
        lines.append("| " + " | ".join(cells) + " |")
    if notes:
        lines += [""] + [f"({i + 1}) {note}" for i, note in enumerate(notes)]
    return "\n".join(lines)


def _unused_cell(row: VariantRow) -> str:
    if not row.chosen_rules:
        return "none to choose"
    parts = [f"{md_code(who)}: {', '.join(rules)}" for who, rules in row.unused().items()
             if rules]
    return "; ".join(parts) if parts else "all used"


def variant_data(rows: Sequence[VariantRow]) -> list[dict[str, Any]]:
    """The rows as plain data (for JSON): ``[mean, low, high]`` per estimate, rule uses."""
    def est(e: Estimate) -> list[float | None]:
        return [v if math.isfinite(v) else None for v in (e.mean, e.low, e.high)]

    def cell(m: Measured) -> dict[str, Any]:
        return {"edge": est(m.edge), "uses": m.uses}

    return [{"rules": r.rules, "exact_heads_up": r.exact, "exact_notes": r.notes,
             "simulated": {b: {str(n): cell(m) for (b2, n), m in r.simulated.items() if b2 == b}
                           for b in dict.fromkeys(b for b, _ in r.simulated)},
             "learned": {k: cell(m) for k, m in r.learned.items()},
             "chosen_rules": r.chosen_rules, "never_used": r.unused()} for r in rows]


def _fmt(m: Measured | None) -> str:
    return "—" if m is None else estimate_text(m.edge)
