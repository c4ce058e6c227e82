"""The heads-up hand the exact solver works on: one player against the bank.

This module turns a ``Rules`` value and a shoe composition into an explicit
finite game with chance moves. :mod:`evaluate.solver.values` evaluates it,
best-responds in it and solves it; this module only says what the states, the
legal actions, the chance probabilities and the payoffs are.

The hand (RULES.md §4, two seats, the bank fixed)
-------------------------------------------------
1. With ``bet_timing = "before_deal"`` the player stakes ``bet_<k>``; then the
   player gets one face-down card and the bank one face-down card. With
   ``"on_turn"`` the cards come first and the player bets after looking at
   its card.
2. The player stands, hits, ``reveal_hit`` s (``player_choice``) or raises
   (``bet_raise``), as the engine allows, until it stands, busts (loses the
   stake at once) or reaches 7½ (the turn ends; with
   ``declare_seven_and_half`` the hand is shown).
3. The bank turns its card up and hits or stands (auto-stopping at 7½ or on
   a bust), then the hand is settled (§4.7–4.8).

Exchangeability
---------------
The shoe is uniformly shuffled, so any fixed set of draw positions holds a
uniformly random sample of the shoe. Hence the bank's face-down card, dealt
before the player's hits but unseen by the player, may be drawn *after* the
player's last card without changing any probability, provided the player
may hit only while at least two cards are left (one of them is the bank's).
And the probability of drawing a given multiset of cards in a given order
does not depend on the order (a product of falling factorials, see
:meth:`HeadsUpGame.draw_weight`).

What each seat remembers (RULES.md §8.10)
----------------------------------------
With ``recall="perfect"`` (the default, the real game) every seat has
perfect recall of what it saw: each player node and each bank view carries
``hist``, the hand's public events in order — the stake when placed (after
the first card with ``on_turn``), each raise, each face-up card as it
arrived, each reveal. Two hands with the same cards but another order of
play are other information sets: the bank may read the timing of a raise.
The tree then grows with every order of the cards; :mod:`evaluate.solver.recall`
says how the equilibrium is found without writing all of it down, and every
exact pass refuses (:meth:`HeadsUpGame.too_large`) rather than run past
:data:`MAX_NODES` player decisions.

With ``recall="forgetful"`` (an older, smaller model kept under that name)
``hist`` is ``None``: the player decides by its state and the bank sees
only the finished hand's :class:`View` — the face-up cards as a multiset,
the face-down count, the status and the final stake. Histories that lead
to the same state are then merged and the game is a directed acyclic graph;
by exchangeability every path to a node carries the same chance weight,
which is what makes the DAG "sequence form" of :mod:`evaluate.solver.lp`
exact for it. A ``memory`` (a prefix-closed set of histories) keeps the
histories in it and merges the rest: the partial-recall games of
:mod:`evaluate.solver.recall`. In every case the cards themselves are
multisets (their order never changes a probability or a payoff), and the
bank's own cards are a multiset ``B``: it moves last, so its best choice
does not depend on the order in which its own cards came.

Card classes
------------
Cards are grouped in *classes* of equal value: ranks 1..7 and the figures.
With ``merge_figures=True`` sota, caballo and rey form one class of ½-point
cards (no matta in the supported rules, so they are interchangeable and
merging is exact for any policy that does not tell them apart: the solver's
own strategies, threshold and random play). A policy queried through its
observation may tell them apart, so such policies are solved with the ten
ranks as classes.

Information
-----------
* Player node ``(phase, h, U, s, raised, hist)``: own face-down card class ``h``
  (``-1`` before the deal), own face-up multiset ``U`` (an id of
  :class:`Multisets`), stake ``s`` in units of ``min_bet`` and whether the
  last action was a raise that masks a further raise (false when no raise
  would fit anyway, so nodes match what the seat sees one to one) and the
  public history ``hist`` (``None`` where it is not remembered). The
  player sees nothing else of value: the bank's card is face down until the
  bank's turn, which comes after the player's.
* Bank node ``(view, B)``: the player's public view — face-up multiset,
  number of face-down cards, status (stood or declared), stake and, with
  perfect recall, the whole public history — and the bank's own multiset
  ``B``. Never the player's face-down card: the bank
  averages over it with the weight the player's play gives it.

Stakes and money
----------------
Payoffs are in units of the stake unit ``min_bet``, from the player's point
of view (the bank gets the negative). A bust loses ``s``; a win pays
``multiple * s``, capped by the bank's chips (coverage, §4.8: the bank holds
``starting_chips`` at settlement in a heads-up hand, so the cap is exact, not
an assumption). Bets and raises are bounded by ``max_bet`` and by the
player's ``starting_chips`` exactly as in the engine.

With ``stakes="fixed"`` the player's stake is not a decision: the smallest
legal ladder bet, no raises. The solver uses it to solve the game "per unit
stake"; it is reported wherever it is used.

The jackpot (RULES.md §4.9, ``jackpot_ante`` > 0)
-------------------------------------------------
Before the bets the player pays ``jackpot_ante`` chips into a table pot
(the bank pays none); a natural takes the whole pot — also when the bank
busts — unless the bank's hand totals 7½ (with any number of cards), as in
``Engine._settle``. The pot before this hand's ante depends on earlier
hands, so it is a parameter: ``jackpot`` chips (default 0), and the pot a
natural can take is ``pot = jackpot + jackpot_ante``. The ante also comes
out of the player's chips before it bets (``player_chips``), as in the
engine. Payoffs, in units of ``min_bet``:

* the bank's: minus the chips the player wins from it (``payoff_row``,
  ``Z``) — the bank never pays into nor wins the pot;
* the player's: ``Z - ante + pot · [natural and the bank's total ≠ 7½]``
  (``player_row`` adds the pot term; the ante is a constant).

With a pot the hand is a general-sum game (the bank is indifferent to the
pot); :mod:`evaluate.solver.values` reports both parties' values and checks
equilibria on each party's own payoff. With ``jackpot_ante = 0`` there is
no pot and ``player_row`` is ``payoff_row``.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from envs import actions as A
from envs import rulebook
from envs.actions import ActionLayout
from envs.cards import FIGURE_RANKS, HALF_POINTS, NUM_RANKS, RANK_CHARS, SEVEN_AND_HALF
from envs.hands import DECLARED, NONE, STOOD
from envs.rules import Rules, RulesError

BUST = -1
"""``Multisets.add`` result for a hand that goes over 7½."""
NO_CARD = -2
"""``Multisets.add`` result when the shoe holds no further card of that class."""

# Player node phases.
BET, PLAY = 0, 1

MAX_NODES = 3_000_000
"""The most player decisions an exact pass over a perfect-recall tree may visit."""

RECALLS = ("perfect", "forgetful")
"""What the bank remembers at its turn: the player's whole public history (``perfect``,
RULES.md §8.10, the real game) or only the :class:`View` of the finished hand
(``forgetful``, an older, smaller model kept under that name)."""
# The public status of a finished player hand is the engine's: envs.hands STOOD or DECLARED.

# Bank results in an outcome vector: index t (1..15) = stood / stopped on t,
# SEVEN_MULTI = 7½ with three or more cards, BANK_BUST = over 7½.
SEVEN_MULTI = 16
BANK_BUST = 17
NUM_RESULTS = 18

_BANK_HANDS: tuple[tuple[int, int], ...] = tuple(
    (SEVEN_AND_HALF, 3) if res == SEVEN_MULTI else (SEVEN_AND_HALF + 1, 3) if res == BANK_BUST
    else (res, 2) for res in range(NUM_RESULTS))
"""A bank hand ``(total, cards)`` that ends in each result, as the rulebook reads it.

The rulebook looks at the bank's number of cards only at 7½ (§4.7
``natural_beats_bank_multicard``): a stop below 7½ is given as two cards."""

RANK_VALUES = HALF_POINTS[:NUM_RANKS]
"""Half-point value of each rank 1..7, S, C, R (the card codes of the first suit)."""


class SolverError(ValueError):
    """The solver cannot solve what was asked; the message says which switch or input."""


# Switches whose play the solver does not model, with the value it needs and why.
_UNSUPPORTED: dict[str, tuple[Any, str]] = {
    "wild_card": ("none", "the matta (§1) is not modelled"),
    "triple": (False, "the triplè (§4.8) needs the matta"),
    "pair_of_sevens": (False, "the pair of sevens (§4.8) is not modelled"),
    "double": (False, "doubling (§6) is not modelled"),
    "split_rule": ("none", "splitting (§6) is not modelled"),
    "change_four": ("off", "changing a four (§6) is not modelled"),
    "secret_three": (False, "the secret three (§6) is not modelled"),
    "mort": (False, "the Mort (§6) is not modelled"),
    "fusilar": (False, "fusilar (§6) is not modelled"),
    "side_bets": (False, "side bets (§6) need more than two seats"),
    "bank_sale": (False, "selling the bank (§5) happens between hands"),
}

IRRELEVANT_SWITCHES: dict[str, str] = {
    "first_bank": "the roles are fixed: seat 0 plays, seat 1 holds the bank",
    "bank_transfer": "who holds the bank next hand does not change this hand's payoffs",
    "max_bank_hands": "acts between hands",
    "reshuffle": "one hand from the given composition with an empty discard pile",
}
"""Switches that cannot change one heads-up hand, and why (reported, not ignored)."""


MODELLED_SWITCHES = frozenset({
    "decks", "starting_chips", "min_bet", "max_bet", "bet_ladder", "bet_timing", "bet_raise",
    "hidden_cards", "declare_seven_and_half", "bank_must_chase_declared",
    "natural_beats_bank_multicard", "natural_pays", "any_seven_and_half_pays", "bank_min_cover",
    "jackpot_ante",
})
"""Switches the solver plays exactly (``bank_min_cover`` only decides whether a hand is played)."""


def check_rules(rules: Rules | str) -> Rules:
    """The rules resolved, or ``SolverError`` naming the first switch the solver refuses.

    A switch the solver does not know (added to ``Rules`` after it was
    written) is refused too unless it keeps its default value.
    """
    try:
        rules = Rules.resolve(rules)
    except RulesError as exc:
        raise SolverError(str(exc)) from None
    known = MODELLED_SWITCHES | set(_UNSUPPORTED) | set(IRRELEVANT_SWITCHES)
    for f in dataclasses.fields(Rules):
        if f.name not in known and getattr(rules, f.name) != f.default:
            raise SolverError(f"the exact solver does not know the rule switch {f.name} "
                              f"(={getattr(rules, f.name)!r}); solve it at its default "
                              f"{f.default!r}")
    refused = [(name, getattr(rules, name), needed, why)
               for name, (needed, why) in _UNSUPPORTED.items() if getattr(rules, name) != needed]
    if refused:
        what = "; ".join(f"{name}={value!r} ({why})" for name, value, _n, why in refused)
        fix = ", ".join(f"{name}={needed!r}" for name, _v, needed, _w in refused)
        cli = " ".join(f"--set {name}={_toml(needed)}" for name, _v, needed, _w in refused)
        raise SolverError(f"the exact solver does not support {what}. Solve the rules with "
                          f"{fix} instead (Rules.replace({fix}), or {cli} on the command line)")
    # Rules validation already holds starting_chips to the smallest stake and ante (§8.9).
    cover = rulebook.bank_cover(rulebook.RuleSwitches(rules), 1)
    if rules.bank_min_cover and rules.starting_chips < cover:
        raise SolverError(
            f"bank_min_cover=true with starting_chips={rules.starting_chips}: the bank "
            f"cannot cover one player (needs {cover}), so no heads-up hand is played")
    return rules


def check_jackpot(rules: Rules, jackpot: int | None) -> int:
    """The chips in the jackpot before this hand's ante, checked (``None`` = 0)."""
    if jackpot is None:
        return 0
    if isinstance(jackpot, bool) or not isinstance(jackpot, (int, np.integer)) or jackpot < 0:
        raise SolverError(f"jackpot={jackpot!r} must be a non-negative whole number of chips "
                          f"(the pot before this hand's ante)")
    if jackpot and not rules.jackpot_ante:
        raise SolverError(f"jackpot={jackpot} but jackpot_ante=0: these rules have no "
                          f"jackpot (RULES.md §4.9), so no pot can be in play")
    return int(jackpot)


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    return f"'{value}'" if isinstance(value, str) else str(value)


def parse_composition(spec: Sequence[int] | Mapping[str, int] | str | None,
                      decks: int) -> tuple[int, ...]:
    """Counts per rank 1..7, S, C, R of the shoe the hand is dealt from.

    ``None`` is the full shoe (``4 * decks`` of each rank). A string is ten
    comma-separated counts in rank order (``"4,4,4,4,4,4,4,4,4,4"``) or
    ``rank=count`` pairs over a full shoe (``"7=2,S=0"``); a mapping uses rank
    characters (``1``..``7``, ``S``, ``C``, ``R``) as keys. Each count is at
    most ``4 * decks`` (the cards must exist in the shoe).
    """
    full = 4 * decks
    if spec is None:
        return (full,) * NUM_RANKS
    given: Sequence[Any] | Mapping[Any, Any] = spec if not isinstance(spec, str) else []
    if isinstance(spec, str):
        text = spec.replace(" ", "")
        if "=" in text:
            pairs: dict[str, str] = {}
            for item in filter(None, text.split(",")):
                key, _, val = item.partition("=")
                pairs[key] = val
            given = pairs
        else:
            given = [x for x in text.split(",") if x]
    if isinstance(given, Mapping):
        counts = [full] * NUM_RANKS
        for key, val in given.items():
            char = str(key).upper()
            if len(char) != 1 or char not in RANK_CHARS:
                raise SolverError(f"composition: {key!r} is not a rank; ranks are "
                                  f"{', '.join(RANK_CHARS)}")
            counts[RANK_CHARS.index(char)] = _count(val, str(key))
    else:
        if len(given) != NUM_RANKS:
            raise SolverError(f"composition needs {NUM_RANKS} counts (ranks "
                              f"{', '.join(RANK_CHARS)}), got {len(given)}")
        counts = [_count(v, RANK_CHARS[i]) for i, v in enumerate(given)]
    for i, c in enumerate(counts):
        if c > full:
            raise SolverError(f"composition: {c} cards of rank {RANK_CHARS[i]} but a shoe of "
                              f"{decks} deck(s) holds {full}")
    if sum(counts) < 2:
        raise SolverError(f"composition holds {sum(counts)} card(s); a hand needs at least "
                          f"2 (one for the player, one for the bank)")
    return tuple(counts)


def _count(value: Any, rank: str) -> int:
    try:
        count = int(value)
    except (TypeError, ValueError):
        raise SolverError(f"composition: count {value!r} for rank {rank} is not an "
                          f"integer") from None
    if count < 0 or count != float(value):
        raise SolverError(f"composition: count {value!r} for rank {rank} must be a "
                          f"non-negative integer")
    return count


class Multisets:
    """Every multiset of card classes with total ≤ 7½ that the shoe can hold.

    Multisets are numbered; ``tuples[m]`` is the count per class, ``total[m]``
    the half-point total, ``size[m]`` the number of cards and ``add[m][c]``
    the multiset with one more card of class ``c`` (``BUST`` if over 7½,
    ``NO_CARD`` if the shoe has no further card of that class).
    """

    def __init__(self, values: Sequence[int], counts: Sequence[int]) -> None:
        k = len(values)
        found: list[tuple[int, ...]] = []

        def walk(c: int, prefix: list[int], total: int) -> None:
            if c == k:
                found.append(tuple(prefix))
                return
            n = 0
            while n <= counts[c] and total + n * values[c] <= SEVEN_AND_HALF:
                prefix.append(n)
                walk(c + 1, prefix, total + n * values[c])
                prefix.pop()
                n += 1

        walk(0, [], 0)
        found.sort(key=lambda t: (sum(t), t))
        self.tuples = found
        self.index = {t: i for i, t in enumerate(found)}
        self.total = [sum(n * v for n, v in zip(t, values)) for t in found]
        self.size = [sum(t) for t in found]
        self.add: list[list[int]] = []
        for t in found:
            row: list[int] = []
            for c in range(k):
                if t[c] >= counts[c]:
                    row.append(NO_CARD)
                    continue
                bigger = t[:c] + (t[c] + 1,) + t[c + 1:]
                row.append(self.index.get(bigger, BUST))
            self.add.append(row)
        self.empty = self.index[(0,) * k]


@dataclass(frozen=True)
class View:
    """What the bank sees of the player's finished hand (RULES.md §4.6)."""

    up: int
    """Face-up multiset id (the whole hand when shown)."""
    hidden: int
    """Number of face-down cards (0 when the hand was declared)."""
    status: int
    """``STOOD`` or ``DECLARED``."""
    stake: int
    """The player's stake in units of ``min_bet``."""
    hist: tuple | None = None
    """The player's whole public history (perfect recall, RULES.md §8.10), or ``None`` where
    the bank does not remember it (the forgetful model)."""


@dataclass(frozen=True)
class ToNode:
    """A chance branch of a player action that leads to another player decision."""

    prob: float
    node: tuple


@dataclass(frozen=True)
class ToBank:
    """A chance branch that finishes the player's hand: the bank plays next."""

    prob: float
    view: View
    """What the bank sees of the finished hand."""
    hand: int
    """Multiset id of the player's whole hand."""


@dataclass(frozen=True)
class Busts:
    """A chance branch in which the player busts (and loses its stake at once)."""

    prob: float


Outcome = ToNode | ToBank | Busts
"""One chance branch of a player action."""


class HeadsUpGame:
    """The heads-up hand of ``rules`` dealt from ``composition`` (see the module docstring).

    ``merge_figures`` groups sota, caballo and rey in one class; ``stakes`` is
    ``"free"`` (bets and raises are decisions, as in the engine) or
    ``"fixed"`` (the smallest ladder bet, no raises).
    """

    def __init__(self, rules: Rules | str, composition: Sequence[int] | Mapping[str, int]
                 | str | None = None, merge_figures: bool = True, stakes: str = "free",
                 jackpot: int | None = None, recall: str = "perfect",
                 memory: frozenset[tuple] | None = None) -> None:
        self.rules = check_rules(rules)
        r = self.rules
        if stakes not in ("free", "fixed"):
            raise SolverError(f"stakes={stakes!r}; choose 'free' or 'fixed'")
        if recall not in RECALLS:
            raise SolverError(f"recall={recall!r}; choose one of {', '.join(map(repr, RECALLS))}")
        if memory is not None and recall != "perfect":
            raise SolverError("a memory (the histories a bank remembers) needs recall='perfect'")
        self.stakes = stakes
        self.recall = recall
        """``"perfect"`` (RULES.md §8.10: every seat remembers the public history) or
        ``"forgetful"`` (the bank sees only the :class:`View` of the finished hand)."""
        self.memory = memory
        """With perfect recall, the player histories that are kept (``None``: all). A node
        whose history is not in it has ``hist=None``: the bank is forgetful below it (the
        partial-recall games of :mod:`evaluate.solver.recall`)."""
        self._root_hist: tuple | None = () if recall == "perfect" else None
        self.jackpot = check_jackpot(r, jackpot)
        """Chips in the jackpot before this hand's ante (0 without a jackpot)."""
        self.pot_chips = self.jackpot + r.jackpot_ante if r.jackpot_ante else 0
        """The pot a natural takes (chips): ``jackpot + jackpot_ante`` (one player antes)."""
        self.pot = self.pot_chips / r.min_bet
        """The same in units of ``min_bet``."""
        self.ante = r.jackpot_ante / r.min_bet
        """The player's ante in units (a constant part of its payoff)."""
        self.general_sum = self.pot > 0.0
        """True when the player's payoff is not minus the bank's (a pot to win)."""
        self.player_chips = r.starting_chips - r.jackpot_ante
        """The player's chips once the ante is paid: what its bets and raises must fit in."""
        self.rank_counts = parse_composition(composition, r.decks)
        self.merge_figures = merge_figures
        if merge_figures:
            self.class_ranks: tuple[tuple[int, ...], ...] = tuple(
                (i,) for i in range(NUM_RANKS) if i not in FIGURE_RANKS) + (FIGURE_RANKS,)
            self.class_names = tuple(RANK_CHARS[:7]) + ("F",)
        else:
            self.class_ranks = tuple((i,) for i in range(NUM_RANKS))
            self.class_names = tuple(RANK_CHARS)
        self.values = tuple(RANK_VALUES[rs[0]] for rs in self.class_ranks)
        self.counts = tuple(sum(self.rank_counts[i] for i in rs) for rs in self.class_ranks)
        self.num_classes = len(self.values)
        self.num_cards = sum(self.counts)
        self.ms = Multisets(self.values, self.counts)
        self.layout = ActionLayout(r.bet_ladder)
        self.switches = rulebook.RuleSwitches(r)
        """The rules as the rulebook's functions read them."""
        self._children: dict[tuple, list[tuple[int, list[Outcome]]]] = {}
        self._twins: dict[tuple, HeadsUpGame] = {}
        self._left: dict[int, tuple[tuple[int, ...], int]] = {}
        self._weights: dict[tuple[int, int], float] = {}

    # ------------------------------------------------------------ recall
    def twin(self, recall: str, memory: frozenset[tuple] | None = None) -> HeadsUpGame:
        """The same hand with another recall or memory (cached; ``self`` when they match)."""
        if recall == self.recall and memory == self.memory:
            return self
        key = (recall, memory)
        got = self._twins.get(key)
        if got is None:
            got = self._twins[key] = HeadsUpGame(self.rules, self.rank_counts,
                                                 self.merge_figures, self.stakes,
                                                 self.jackpot, recall, memory)
        return got

    def remembered(self, hist: tuple | None) -> tuple | None:
        """``hist`` as this game keys it: itself where it is remembered, else ``None``."""
        if hist is None or self.recall == "forgetful":
            return None
        if self.memory is None or hist in self.memory or not hist:
            return hist
        return None

    def project_node(self, node: tuple) -> tuple:
        """A player node of a twin game (other recall or memory) as this game keys it."""
        hist = node[5]
        mine = self.remembered(hist)
        return node if mine is hist else node[:5] + (mine,)

    def project_view(self, view: View) -> View:
        """A bank view of a twin game as this game keys it."""
        mine = self.remembered(view.hist)
        return view if mine is view.hist else dataclasses.replace(view, hist=mine)

    # ------------------------------------------------------------ naming
    def describe(self, m: int) -> str:
        """Cards of multiset ``m`` by class, high first (``"7 F F"``; ``"-"`` if empty)."""
        t = self.ms.tuples[m]
        parts = [self.class_names[c] for c in reversed(range(self.num_classes))
                 for _ in range(t[c])]
        figs = [p for p in parts if p in ("F", "S", "C", "R")]
        return " ".join([p for p in parts if p not in figs] + figs) or "-"

    def describe_history(self, hist: Sequence[tuple]) -> list[str]:
        """A public history in words: ``["bet 1", "hit 5", "raise 2", "reveal F"]``."""
        out = []
        for kind, x in hist:
            out.append(f"{kind} {self.class_names[x] if kind in ('hit', 'reveal', 'shown') else x}")
        return out

    def class_of_rank(self, rank: int) -> int:
        """Class index of an engine rank 0..9."""
        return next(c for c, rs in enumerate(self.class_ranks) if rank in rs)

    # ------------------------------------------------------------ chance
    def remaining(self, hand: int) -> tuple[tuple[int, ...], int]:
        """Cards left per class, and in all, once the multiset ``hand`` is dealt."""
        got = self._left.get(hand)
        if got is None:
            left = tuple(k - n for k, n in zip(self.counts, self.ms.tuples[hand]))
            got = self._left[hand] = (left, sum(left))
        return got

    def draw_weight(self, bank: int, player_hand: int) -> float:
        """Probability that the bank draws the cards of ``bank`` in one given order.

        Drawn from the shoe less the player's hand:
        ``prod_c (n_c)_(b_c) / (N)_(|b|)`` with falling factorials ``(n)_k``;
        the same for every order (exchangeability). Zero where the shoe less the
        player's hand does not hold ``bank`` (some ``b_c > n_c``: a factor of the
        product is zero; on a small shoe ``|b| > N`` too, and the quotient is 0/0).
        """
        key = (bank, player_hand)
        weight = self._weights.get(key)
        if weight is None:
            left, n = self.remaining(player_hand)
            weight = 1.0
            for c, k in enumerate(self.ms.tuples[bank]):
                for i in range(k):
                    weight *= left[c] - i
            if weight:
                weight /= math.perm(n, self.ms.size[bank])
            self._weights[key] = weight
        return weight

    # ------------------------------------------------------------ player
    def root_nodes(self) -> list[tuple[float, tuple]]:
        """The player's first decision nodes with their chance probabilities."""
        root = self._root_hist
        if self.rules.bet_timing == "before_deal":
            return [(1.0, (BET, -1, self.ms.empty, 0, False, root))]
        n = self.num_cards
        return [(k / n, (BET, c, self.ms.empty, 0, False, root))
                for c, k in enumerate(self.counts) if k]

    def _extend(self, hist: tuple | None, event: tuple) -> tuple | None:
        """``hist`` with one more public event, or ``None`` where it is not remembered."""
        if hist is None:
            return None
        longer = hist + (event,)
        if self.memory is not None and longer not in self.memory:
            return None
        return longer

    def player_hand(self, node: tuple) -> int:
        """Multiset id of the player's whole hand at ``node`` (``empty`` before the deal)."""
        h, up = node[1], node[2]
        return up if h < 0 else self.ms.add[up][h]

    def player_actions(self, node: tuple) -> list[tuple[int, list[Outcome]]]:
        """Legal actions at a player node (engine action indices) and their outcomes."""
        cached = self._children.get(node)
        if cached is None:
            cached = self._player_actions(node)
            self._children[node] = cached
        return cached

    def _player_actions(self, node: tuple) -> list[tuple[int, list[Outcome]]]:
        r = self.rules
        phase, h, up, s, raised, hist = node
        ladder = r.bet_ladder
        out: list[tuple[int, list[Outcome]]] = []
        if phase == BET:
            cap = min(r.max_bet, self.player_chips)
            ks = [k for k in ladder if k * r.min_bet <= cap]
            if self.stakes == "fixed":
                ks = ks[:1]
            for k in ks:
                after = self._extend(hist, ("bet", k))
                branches: list[Outcome]
                if h < 0:
                    n = self.num_cards
                    branches = [ToNode(cnt / n, (PLAY, c, self.ms.empty, k, False, after))
                                for c, cnt in enumerate(self.counts) if cnt]
                else:
                    branches = [ToNode(1.0, (PLAY, h, up, k, False, after))]
                out.append((self.layout.bet(k), branches))
            return out
        hand = self.ms.add[up][h]
        out.append((A.STAND, [ToBank(1.0, View(up, 1, STOOD, s, hist), hand)]))
        if self.ms.total[hand] == SEVEN_AND_HALF:
            return out  # an undeclared 7½ is left only stand (RULES.md §4.5, §8.7)
        left, n = self.remaining(hand)
        if n >= 2:  # one card stays for the bank's face-down card
            out.append((A.HIT, self._draws(node, hand, left, n, reveal=False)))
            if r.hidden_cards == "player_choice":
                out.append((A.REVEAL_HIT, self._draws(node, hand, left, n, reveal=True)))
        if r.bet_raise and not raised and self.stakes == "free":
            room = min(r.max_bet - s * r.min_bet, self.player_chips - s * r.min_bet)
            for k in ladder:
                if k * r.min_bet <= room:
                    # ``raised`` only matters while a further raise would fit.
                    more = ladder[0] * r.min_bet <= room - k * r.min_bet
                    after = self._extend(hist, ("raise", k))
                    out.append((self.layout.raise_(k),
                                [ToNode(1.0, (PLAY, h, up, s + k, more, after))]))
        return out

    def _draws(self, node: tuple, hand: int, left: Sequence[int], n: int,
               reveal: bool) -> list[Outcome]:
        """Chance branches of ``hit`` or ``reveal_hit`` (the face-down card turned up first).

        The new card's face is the rulebook's (:func:`envs.rulebook.hit_face_up`,
        §4.3, §8.6): face up next to the face-down card, face down once it
        is turned up. The public history records the face-up card, or the
        turned-up card (``("reveal", h)``; the new one is private).
        """
        _phase, h, up, s, _raised, hist = node
        add = self.ms.add
        declare = self.rules.declare_seven_and_half
        face_up = rulebook.hit_face_up(self.rules.hidden_cards, 0 if reveal else 1)
        revealed = None if face_up else self._extend(hist, ("reveal", h))
        out: list[Outcome] = []
        for c, cnt in enumerate(left):
            if not cnt:
                continue
            p = cnt / n
            new_hand = add[hand][c]
            if new_hand == BUST:
                out.append(Busts(p))
                continue
            if face_up:
                new_h, new_up, after = h, add[up][c], self._extend(hist, ("hit", c))
            else:
                new_h, new_up, after = c, add[up][h], revealed
            if declare and self.ms.total[new_hand] == SEVEN_AND_HALF:
                # RULES.md §4.5: the turn ends and the declared hand is shown.
                shown = after if face_up else self._extend(revealed, ("shown", c))
                out.append(ToBank(p, View(new_hand, 0, DECLARED, s, shown), new_hand))
            else:
                out.append(ToNode(p, (PLAY, new_h, new_up, s, False, after)))
        return out

    def player_node(self, hidden: int, events: Sequence[tuple]) -> tuple:
        """The player node after the public ``events`` of a hand, holding ``hidden`` face down.

        ``hidden`` is the class of the face-down card (``-1`` before the deal
        with ``before_deal`` bets); ``events`` are the public events in order
        (``("bet", k)``, ``("hit", c)``, ``("reveal", c)``, ``("raise", k)``, as
        in the nodes' ``hist``). Raises ``SolverError`` for a sequence the rules
        do not allow.
        """
        # The face-down card's class after the deal and after each reveal, in order.
        faces = [e[1] for e in events if e[0] == "reveal"] + [hidden]
        first = faces[0]
        roots = [node for _p, node in self.root_nodes()
                 if node[1] == first or self.rules.bet_timing == "before_deal"]
        if not roots:
            raise SolverError(f"no hand starts with a face-down card of class {first}")
        node = roots[0]
        turned = 0
        for event in events:
            if event[0] == "reveal":
                turned += 1
            node = self._follow(node, event, faces[turned] if event[0] == "reveal" else first)
        if node[1] != hidden:
            raise SolverError(f"the face-down card after {list(events)} is class {node[1]}, "
                              f"not {hidden}")
        return node

    def bank_view(self, hidden: int, events: Sequence[tuple], status: int = STOOD) -> View:
        """The bank's :class:`View` once the player stood (or declared) after ``events``.

        ``hidden`` is the class of the player's face-down card (it selects the
        path; the bank's view does not contain it). With ``status=DECLARED``
        the last event is the card that made 7½ (``("hit", c)``, or the
        ``("reveal", h)`` that brought it face down: then ``("shown", c)``).
        """
        if status == STOOD:
            node = self.player_node(hidden, events)
            for a, outs in self.player_actions(node):
                if a == A.STAND:
                    view = outs[0]
                    assert isinstance(view, ToBank)
                    return view.view
        *before, last = events
        if last[0] == "shown":
            *before, last = before
            drawn = events[-1][1]
        else:
            drawn = last[1]
        node = self.player_node(hidden, before)
        action = A.REVEAL_HIT if last[0] == "reveal" else A.HIT
        for a, outs in self.player_actions(node):
            if a != action:
                continue
            for o in outs:
                if isinstance(o, ToBank) and self.ms.tuples[o.hand] == self.ms.tuples[
                        self.ms.add[self.player_hand(node)][drawn]]:
                    return o.view
        raise SolverError(f"no declared 7½ follows {list(events)}")

    def _follow(self, node: tuple, event: tuple, hidden: int) -> tuple:
        """The child of ``node`` after ``event``; ``hidden`` is the face-down card it deals
        (the first card after a bet before the deal, the new card after a reveal)."""
        kind = event[0]
        for a, outs in self.player_actions(node):
            if kind == "bet" and a == self.layout.bet(event[1]) or (
                    kind == "raise" and a == self.layout.raise_(event[1])):
                child = outs[0] if node[1] >= 0 else next(
                    (o for o in outs if isinstance(o, ToNode) and o.node[1] == hidden), None)
                if isinstance(child, ToNode):
                    return child.node
            if (kind == "hit" and a == A.HIT) or (kind == "reveal" and a == A.REVEAL_HIT):
                for o in outs:
                    if not isinstance(o, ToNode):
                        continue
                    got = o.node
                    if kind == "hit" and got[2] == self.ms.add[node[2]][event[1]]:
                        return got
                    if kind == "reveal" and node[1] == event[1] and got[1] == hidden:
                        return got
        raise SolverError(f"the event {event!r} is not legal at the player node {node!r}")

    def all_player_nodes(self) -> list[tuple]:
        """Every player node reachable under some play, parents before children."""
        seen: set[tuple] = set()
        order: list[tuple] = []
        stack = [node for _p, node in self.root_nodes()]
        for node in stack:
            seen.add(node)
        while stack:
            node = stack.pop()
            order.append(node)
            for _a, outcomes in self.player_actions(node):
                for o in outcomes:
                    if isinstance(o, ToNode) and o.node not in seen:
                        seen.add(o.node)
                        stack.append(o.node)
            if len(seen) > MAX_NODES:
                raise self.too_large("every play of the player")
        order.sort(key=self.node_order)
        return order

    def too_large(self, what: str) -> SolverError:
        """The error for a perfect-recall tree beyond :data:`MAX_NODES` player decisions."""
        return SolverError(
            f"{what} reaches more than {MAX_NODES:,} player decisions in the perfect-recall "
            f"game (every order of the cards, every "
            f"moment of a bet or raise is its own history): out of reach of an exact answer. "
            f"Use a deterministic policy, a smaller shoe (composition), stakes='fixed', or "
            f"recall='forgetful' (the bank that sees only the finished hand)")

    def node_order(self, node: tuple) -> tuple:
        """A topological sort key of player nodes (cards, then phase, stake, raised, history)."""
        phase, h, up, s, raised, hist = node
        return (self.ms.size[up] + (h >= 0), phase, s, raised, h, up, hist is not None,
                hist or ())

    # ------------------------------------------------------------ bank
    def bank_legal(self, view: View, bank: int) -> tuple[bool, bool]:
        """Whether the bank may stand and may hit at ``(view, bank)`` (total below 7½).

        It may not stand while it can draw and the player's hand forces it to
        chase (:func:`envs.rulebook.forces_chase`, §4.6: a declared 7½ with
        ``bank_must_chase_declared``).
        """
        cards_out = self.ms.size[view.up] + view.hidden + self.ms.size[bank]
        can_draw = self.num_cards - cards_out > 0
        must_chase = can_draw and rulebook.forces_chase(
            NONE, view.status, self.switches.bank_must_chase_declared)
        return (not must_chase, can_draw)

    def bank_result(self, bank: int) -> int:
        """Outcome index of a bank hand that stops (total, or ``SEVEN_MULTI``)."""
        total = self.ms.total[bank]
        if total == SEVEN_AND_HALF and self.ms.size[bank] >= 3:
            return SEVEN_MULTI
        return total

    def payoff_row(self, hand: int, stake: int) -> list[float]:
        """Player's payoff (units) for each bank result against its ``hand`` at ``stake``.

        The rulebook decides: who wins and the multiple paid
        (:func:`envs.rulebook.winning_multiple`: §4.7 the bank wins ties and
        its 7½ beats everything unless ``natural_beats_bank_multicard``; §4.8
        ``natural_pays``, ``any_seven_and_half_pays``), and what the bank can
        pay (:func:`envs.rulebook.covered_pay`: coverage, at most the
        ``starting_chips`` it holds). A loss costs the stake.
        """
        sw = self.switches
        total, cards = self.ms.total[hand], self.ms.size[hand]
        row = [0.0] * NUM_RESULTS
        for res in range(1, NUM_RESULTS):
            bank_total, bank_cards = _BANK_HANDS[res]
            multiple = rulebook.winning_multiple(sw, total, cards, NONE, NONE, bank_total,
                                                 bank_cards, False)
            row[res] = (rulebook.covered_pay(multiple, stake * sw.min_bet, sw.starting_chips)
                        / sw.min_bet if multiple else -stake)
        return row

    def is_natural(self, hand: int) -> bool:
        """Whether the multiset ``hand`` is a natural (:func:`envs.rulebook.is_natural`)."""
        return rulebook.is_natural(self.ms.total[hand], self.ms.size[hand])

    def jackpot_row(self, hand: int) -> list[float]:
        """The pot (units) the player takes with ``hand`` for each bank result.

        ``pot`` where :func:`envs.rulebook.wins_jackpot` says so (§4.9: a
        natural, unless the bank's hand totals 7½; a bank bust included), 0
        otherwise and whenever there is no pot.
        """
        row = [0.0] * NUM_RESULTS
        if self.pot:
            total, cards = self.ms.total[hand], self.ms.size[hand]
            for res in range(1, NUM_RESULTS):
                if rulebook.wins_jackpot(total, cards, NONE, _BANK_HANDS[res][0]):
                    row[res] = self.pot
        return row

    def player_row(self, hand: int, stake: int) -> list[float]:
        """The player's own payoff per bank result, less the ante: ``payoff_row + jackpot_row``."""
        row = self.payoff_row(hand, stake)
        if self.pot and self.is_natural(hand):
            row = [z + j for z, j in zip(row, self.jackpot_row(hand))]
        return row


def view_hands(game: HeadsUpGame, view: View) -> list[tuple[int, float]]:
    """Every hand that can show ``view``, weighted by the chance of its cards alone.

    The prior a best-responding bank uses at a view the player's policy never
    shows (there any action is a best response; this one is sequentially
    rational against a player who might have got there).
    """
    if view.status == DECLARED:
        return [(view.up, 1.0)]
    left, _n = game.remaining(view.up)
    out = []
    for h, cnt in enumerate(left):
        if not cnt:
            continue
        hand = game.ms.add[view.up][h]
        if hand == BUST or (game.ms.total[hand] == SEVEN_AND_HALF
                            and game.rules.declare_seven_and_half):
            continue
        out.append((hand, game.draw_weight(hand, game.ms.empty)))
    return out
