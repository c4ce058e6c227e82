"""A first evaluator: EV per hand per role, with 95% confidence intervals.

``play`` deals ``hands`` hands at tables of ``table_hands`` hands each — the
shoe, the jackpot and the chip stacks carry over inside a table as at a real
one — straight on the engine, every seat driven by its policy
(:class:`agents.seating.Table`). Tables and policies are seeded by the rule of
:mod:`agents.seating`: table ``k`` always gets the same seed for the same
``seed`` argument, so two agents compared in the same seat see the same deals
(*common random numbers*): their difference is measured with far less noise
than either EV alone (:func:`paired_difference`).

Hands within a table are not independent (same shoe, jackpot, stacks), so the
tables are the independent units: the EV is the ratio estimator
``sum(chips) / sum(hands)`` over tables, with its variance from the per-table
residuals (the delta method; a cluster-robust interval). Rewards are net chips
per hand in units of ``min_bet``, as in the environments.

The ``Player`` and ``Bank`` comparisons of ``sette train`` use
:func:`envs.single_seat.fixed_bank_rules` and a fixed bank seat, the same table
the single-seat views train on (:func:`compare`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from agents.seating import Table, table_seeds
from envs.policy import Policy
from envs.rules import Rules
from envs.single_seat import fixed_bank_rules

ROLE_NAMES = ("player", "bank")
ENGINES = ("auto", "batch", "scalar")
"""The choices of :func:`play`'s ``engine``."""
_Z95 = 1.959963984540054


@dataclass(frozen=True)
class Estimate:
    """A mean per hand with the half-width of its 95% confidence interval."""

    mean: float
    half_width: float
    hands: int

    @property
    def low(self) -> float:
        return self.mean - self.half_width

    @property
    def high(self) -> float:
        return self.mean + self.half_width

    def __str__(self) -> str:
        return f"{self.mean:+.4f} ± {self.half_width:.4f}"


@dataclass
class Tally:
    """Per-table sums: ``chips[t, seat, role]`` and ``hands[t, seat, role]`` (role 0 player,
    1 bank), for ``table_hands`` hands per table under one seed."""

    chips: np.ndarray
    hands: np.ndarray
    seed: int

    def ev(self, seat: int, role: str) -> Estimate:
        """EV per hand of ``seat`` in ``role`` (``"player"`` or ``"bank"``)."""
        k = _role_index(role)
        return ratio_estimate(self.chips[:, seat, k], self.hands[:, seat, k])


def _role_index(role: str) -> int:
    if role not in ROLE_NAMES:
        raise ValueError(f"role {role!r} is not one of {', '.join(ROLE_NAMES)}")
    return ROLE_NAMES.index(role)


def ratio_estimate(chips: np.ndarray, hands: np.ndarray) -> Estimate:
    """``sum(chips) / sum(hands)`` over tables with its 95% interval (delta method)."""
    chips = np.asarray(chips, dtype=np.float64)
    hands = np.asarray(hands, dtype=np.float64)
    total = hands.sum()
    if total == 0:
        return Estimate(float("nan"), float("nan"), 0)
    mean = chips.sum() / total
    n = len(chips)
    if n < 2:
        return Estimate(float(mean), float("inf"), int(total))
    residual = (chips - mean * hands) / hands.mean()
    half = _Z95 * math.sqrt(float(residual.var(ddof=1)) / n)
    return Estimate(float(mean), half, int(total))


def paired_difference(a: tuple[np.ndarray, np.ndarray], b: tuple[np.ndarray, np.ndarray]
                      ) -> Estimate:
    """EV of ``a`` minus EV of ``b`` when both played the same tables (same seed).

    ``a`` and ``b`` are ``(chips, hands)`` per table; the interval uses the
    per-table difference of the residuals, which common random numbers make small.
    """
    (ca, ha), (cb, hb) = [(np.asarray(c, float), np.asarray(h, float)) for c, h in (a, b)]
    if len(ca) != len(cb):
        raise ValueError(f"paired runs must have played the same tables: {len(ca)} vs {len(cb)}")
    ma, mb = ca.sum() / ha.sum(), cb.sum() / hb.sum()
    d = (ca - ma * ha) / ha.mean() - (cb - mb * hb) / hb.mean()
    half = _Z95 * math.sqrt(float(d.var(ddof=1)) / len(d)) if len(d) > 1 else float("inf")
    return Estimate(float(ma - mb), half, int(ha.sum()))


def play(rules: Rules | str, num_seats: int,
         seats: Sequence[Policy] | Callable[[int], Sequence[Policy]],
         hands: int, seed: int = 0, table_hands: int = 10,
         bank: int | Callable[[int], int] | None = None, engine: str = "auto") -> Tally:
    """Play at least ``hands`` hands, table after table (see the module docstring).

    ``seats``: one policy per seat, or a function of the table index giving
    them (to rotate a candidate through the seats). ``bank``: the first bank's
    seat (or a function of the table index); ``None`` lets the rules choose.
    ``engine`` (:data:`ENGINES`): ``"batch"`` plays many tables at once on the
    compiled batch engine (:mod:`evaluate.batch_eval`; rules it does not play
    raise :class:`envs.batch.api.UnsupportedRules` naming why), ``"scalar"``
    one table after another here, ``"auto"`` the batch engine where it plays
    the rules and every seat has a batched kernel. The numbers are the same.
    """
    table_rules = Rules.resolve(rules)
    if hands < 1:
        raise ValueError(f"hands={hands!r} must be at least 1")
    if engine not in ENGINES:
        raise ValueError(f"engine={engine!r} is not one of {', '.join(ENGINES)}")
    if engine != "scalar":
        from evaluate.batch_eval import play_batched

        tally = play_batched(table_rules, num_seats, seats, hands, seed, table_hands, bank,
                             engine == "batch")
        if tally is not None:
            return tally
    tables = math.ceil(hands / table_hands)
    table = Table(table_rules, num_seats, table_hands)
    chips = np.zeros((tables, num_seats, 2))
    counts = np.zeros((tables, num_seats, 2))
    for t, table_seed in enumerate(table_seeds(seed, tables)):
        policies = list(seats(t) if callable(seats) else seats)
        first_bank = bank(t) if callable(bank) else bank
        for hand in table.hands(policies, table_seed, first_bank):
            for s, r in enumerate(hand.net):
                if r:
                    chips[t, s, 1 if s == hand.bank else 0] += r
            counts[t, hand.bank, 1] += 1
            for s in hand.order:
                counts[t, s, 0] += 1
    return Tally(chips, counts, seed)


@dataclass
class Comparison:
    """EV of each candidate in one role at one table, and its paired difference to a reference."""

    role: str
    ev: dict[str, Estimate]
    runs: dict[str, tuple[np.ndarray, np.ndarray]]

    def versus(self, name: str, reference: str) -> Estimate:
        """``name``'s EV minus ``reference``'s, on the same deals."""
        return paired_difference(self.runs[name], self.runs[reference])

    def best(self, names: Sequence[str]) -> str:
        """The name with the highest EV among ``names``."""
        return max(names, key=lambda n: self.ev[n].mean)


def compare(candidates: Mapping[str, Policy], role: str, opponents: Mapping[str, Policy],
            rules: Rules | str, num_seats: int, hands: int, seed: int = 0,
            table_hands: int = 10, engine: str = "auto") -> Comparison:
    """Seat each candidate in ``role`` at the same tables and measure its EV per hand.

    The table keeps the bank on seat 0 (:func:`fixed_bank_rules`). As the bank a
    candidate faces ``opponents["players"]`` in every other seat; as a player it
    faces ``opponents["bank"]`` and, with more than two seats,
    ``opponents["players"]`` in the other player seats, its own seat rotating
    through the player seats table by table so no seat's position favours it.
    ``engine``: :func:`play`'s.
    """
    role_index = _role_index(role)
    rules = fixed_bank_rules(rules)
    ev: dict[str, Estimate] = {}
    runs: dict[str, tuple[np.ndarray, np.ndarray]] = {}
    for name, candidate in candidates.items():
        def seating(t: int, candidate: Policy = candidate) -> list[Policy]:
            if role == "bank":
                return [candidate] + [opponents["players"]] * (num_seats - 1)
            seats = [opponents["bank"]] + [opponents["players"]] * (num_seats - 1)
            seats[_player_seat(t, num_seats)] = candidate
            return seats

        tally = play(rules, num_seats, seating, hands, seed, table_hands, bank=0,
                     engine=engine)
        rows = np.arange(len(tally.chips))
        cols = np.zeros(len(rows), dtype=int) if role == "bank" else np.array(
            [_player_seat(int(t), num_seats) for t in rows])
        run = (tally.chips[rows, cols, role_index], tally.hands[rows, cols, role_index])
        runs[name] = run
        ev[name] = ratio_estimate(*run)
    return Comparison(role, ev, runs)


def _player_seat(table: int, num_seats: int) -> int:
    return 1 + table % (num_seats - 1)
