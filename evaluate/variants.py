"""The bank's edge per rule variant: what a designer changes by picking a preset.

For every rule set the table gives the bank's profit per player hand (units
of ``min_bet``; positive: the bank wins), all seats following one policy:

* **exact heads-up** — one hand between one player and the bank from a full
  shoe, by the solver (:mod:`evaluate.exact`), where it models the rules;
  otherwise the solver's reason is given in a note;
* **simulated** — tournaments (:mod:`evaluate.tournament`) at 2 and 4 seats
  (or any given), with 95 % intervals. The bank stays on its first seat for a
  whole table (``fixed_bank``) so the number is the edge of the *hand*, the
  same quantity as the exact one; chips, coverage, the shoe and the jackpot
  run as at a real table. The jackpot's ante and prize are the players' and
  not the bank's, so the bank's edge does not include them.
* **learned** — the same simulation with a trained player and bank
  (``PLAYER|BANK`` spec) on the rules and seat count they were trained for.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from envs.rules import PRESETS
from evaluate.ev import Estimate, ratio_estimate
from evaluate.exact import ExactUnavailable, exact_bank_edge
from evaluate.tournament import (Entrant, TournamentConfig, TournamentResult, md_code,
                                 resolve_spec, run_tournament)


@dataclass(frozen=True)
class LearnedPlay:
    """Trained policies to measure on their own table: a label, a spec, rules and seats."""

    label: str
    spec: str
    rules: str
    num_seats: int


@dataclass
class VariantRow:
    """The bank's edge under one rule set."""

    rules: str
    exact: float | None
    note: str
    simulated: dict[int, Estimate]
    learned: dict[str, Estimate] = field(default_factory=dict)


def bank_edge(result: TournamentResult, agent: int | str = 0) -> Estimate:
    """The bank's net chips per player hand for ``agent`` holding the bank, with its interval."""
    chips = result.tables_of(agent, "bank", "chips")
    player_hands = sum(result.tables_of(a, "player", "hands")
                       for a in range(len(result.config.entrants)))
    return ratio_estimate(chips, player_hands)


def simulate_edge(spec: str, rules: str, num_seats: int, hands: int, seed: int = 0,
                  table_hands: int = 10, progress: Callable[[int], None] | None = None
                  ) -> Estimate:
    """Bank's edge per player hand with every seat playing ``spec``, bank fixed per table."""
    config = TournamentConfig((Entrant("baseline", resolve_spec(spec)),), rules, num_seats,
                              hands, seed, table_hands, fixed_bank=True)
    return bank_edge(run_tournament(config, progress=progress))


def variant_table(rules: Sequence[str] = tuple(PRESETS), baseline: str = "threshold:5.5",
                  seats: Sequence[int] = (2, 4), hands: int = 20_000, seed: int = 0,
                  table_hands: int = 10, learned: Sequence[LearnedPlay] = (),
                  progress: Callable[[str, int], Callable[[int], None] | None] | None = None
                  ) -> list[VariantRow]:
    """One row per rule set (presets by default, plus any a learned run was trained on).

    ``baseline`` is a spec (or ``PLAYER|BANK``) every seat follows.
    ``progress(label, tables)`` may give a progress callback for each tournament.
    """
    baseline = resolve_spec(baseline)
    player, _, bank = baseline.partition("|")
    tables = math.ceil(hands / table_hands)

    def bar(label: str) -> Callable[[int], None] | None:
        return progress(label, tables) if progress else None

    names = list(dict.fromkeys(list(rules) + [p.rules for p in learned]))
    out = []
    for name in names:
        try:
            exact, note = exact_bank_edge(name, player, bank or player), ""
        except ExactUnavailable as exc:
            exact, note = None, str(exc)
        simulated = {
            n: simulate_edge(baseline, name, n, hands, seed, table_hands,
                             bar(f"{name}, {n} seats"))
            for n in seats}
        row = VariantRow(name, exact, note, simulated)
        for play in learned:
            if play.rules == name:
                row.learned[f"{play.label}, {play.num_seats} seats"] = simulate_edge(
                    play.spec, name, play.num_seats, hands, seed, table_hands,
                    bar(f"{name}, {play.label}"))
        out.append(row)
    return out


def variant_markdown(rows: Sequence[VariantRow], baseline: str, hands: int, seed: int) -> str:
    """The table as Markdown, with the solver's reasons as numbered notes."""
    seats = sorted({n for r in rows for n in r.simulated})
    learned = list(dict.fromkeys(k for r in rows for k in r.learned))
    head = (["rules", "exact heads-up"] + [f"simulated, {n} seats" for n in seats]
            + [k for k in learned])
    lines = [f"Bank's edge per player hand (units of `min_bet`, positive: the bank wins), "
             f"every seat playing {md_code(baseline)}; simulated: {hands} hands per rule set "
             f"and seat count, bank fixed per table, seed {seed}, ± 95% interval.", "",
             "| " + " | ".join(head) + " |", "|---|" + "---:|" * (len(head) - 1)]
    notes: list[str] = []
    for r in rows:
        if r.exact is not None:
            exact = f"{r.exact:+.4f}"
        else:
            if r.note not in notes:
                notes.append(r.note)
            exact = f"n/a ({notes.index(r.note) + 1})"
        cells = [md_code(r.rules), exact] + [_fmt(r.simulated.get(n)) for n in seats] + \
                [_fmt(r.learned.get(k)) for k in learned]
        lines.append("| " + " | ".join(cells) + " |")
    if notes:
        lines += [""] + [f"({i + 1}) {note}" for i, note in enumerate(notes)]
    return "\n".join(lines)


def variant_data(rows: Sequence[VariantRow]) -> list[dict[str, Any]]:
    """The rows as plain data (for JSON): ``[mean, low, high]`` per estimate."""
    def est(e: Estimate) -> list[float | None]:
        return [v if math.isfinite(v) else None for v in (e.mean, e.low, e.high)]

    return [{"rules": r.rules, "exact_heads_up": r.exact, "exact_note": r.note or None,
             "simulated": {str(n): est(e) for n, e in r.simulated.items()},
             "learned": {k: est(e) for k, e in r.learned.items()}} for r in rows]


def _fmt(e: Estimate | None) -> str:
    if e is None or not math.isfinite(e.mean):
        return "—"
    return str(e)
