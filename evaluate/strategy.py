"""Strategy maps: what an agent does with each total against what it can see.

A map is read off the agent itself, by probing: for every cell the engine is
dealt a stacked deck that leads to that situation at the start of a fresh
table, the seats play up to it by a fixed script, and the agent is asked for
its action on its real observation (:mod:`envs.observer`) — no hand-made
vectors, so scripted and learned agents are probed alike.

* **Player map** — rows: the player's own total (½ … 7); columns: the total of
  its face-up cards, the part of its hand the bank will see (``—``: only the
  face-down first card). The face-down card is one card, so a cell exists
  only where own total minus visible total is a card's value. The probed
  player is the first to act; the other players (with more than two seats)
  hold one face-down card and have not played yet.
* **Bank map** — rows: the bank's total; columns: the face-up total of the
  probed player, who stood with a face-down figure under those cards
  (``—``: it stood on its face-down card alone). The other players stood on
  one face-down card.

Totals are made of canonical cards (a figure for a half point, then the
largest cards first; never the wild card); the player stakes the smallest
bet and declines the Mort; a raise (``bet_raise``) is made and the agent
asked again, so the map shows its hit/stand choice. A cell the rules make
impossible — a face-down 4 when a 4 is always changed, say — is left empty
(``""``). Agents that count cards see a fresh shoe less the cards of the probe.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from envs import actions as A
from envs.cards import NUM_RANKS, NUM_SUITS, SEVEN_AND_HALF, format_half_points
from envs.engine import BANK, BET, OVER, PLAY, SIDE_BET, Engine
from envs.observer import Observer
from envs.rules import Rules

ROWS = tuple(range(1, SEVEN_AND_HALF))
"""Own totals of a map, in half points: ½ … 7."""
COLUMNS = tuple(range(0, SEVEN_AND_HALF - 1))
"""Visible totals of a map, in half points: 0 (nothing face up), ½ … 6½."""
_FILLER_VALUES = (10, 12, 4, 2, 10, 12, 4)
"""First cards of the other players: 5, 6, 2, 1… (no 3, 4, 7 or figure: house rules use those)."""


@dataclass
class StrategyMap:
    """Actions of one agent in one role over (own total, visible total)."""

    role: str
    label: str
    rules: str
    num_seats: int
    actions: np.ndarray
    """``actions[row, column]``: the action's name, ``""`` where the cell cannot occur."""

    @property
    def row_labels(self) -> list[str]:
        return [format_half_points(t) for t in ROWS]

    @property
    def column_labels(self) -> list[str]:
        return ["—" if u == 0 else format_half_points(u) for u in COLUMNS]

    def share(self, action: str) -> float:
        """Share of the reachable cells where the agent takes ``action``."""
        reachable = self.actions != ""
        return float((self.actions[reachable] == action).mean()) if reachable.any() else 0.0

    def to_dict(self) -> dict[str, Any]:
        """Plain data (for JSON): labels and the action grid."""
        return {"role": self.role, "agent": self.label, "rules": self.rules,
                "seats": self.num_seats, "rows": self.row_labels,
                "columns": self.column_labels, "actions": self.actions.tolist()}


def split_total(total: int) -> list[int]:
    """Canonical cards (half points) making ``total``: a figure for a half, then 7s, 6s…"""
    cards = [1] if total % 2 else []
    rest = total - len(cards)
    while rest > 0:
        card = min(rest, 14)
        cards.append(card)
        rest -= card
    return cards


class _Deck:
    """Distinct card codes of the wanted values, avoiding the wild card."""

    def __init__(self, wild: int) -> None:
        self.used = {wild}

    def card(self, value: int) -> int:
        ranks = (7, 8, 9) if value == 1 else (value // 2 - 1,)
        for suit in range(NUM_SUITS):
            for rank in ranks:
                code = suit * NUM_RANKS + rank
                if code not in self.used:
                    self.used.add(code)
                    return code
        raise ValueError(f"no card of {format_half_points(value)} left for the probe")


def _probe(engine: Engine, observer: Observer, agent: Any, role: str, deck: list[int],
           player_ups: int, bank_cards: int, own: int) -> str:
    """Drive the stacked table to the probed decision and ask ``agent``; ``""`` if unreachable.

    ``own`` is the probed total (player's or bank's, half points): a house rule
    that changed a card shows up as another total, and the cell is unreachable.
    """
    n = engine.num_seats
    engine.reset(seed=0, deck=deck, bank=0)
    layout = engine.layout
    probed = 1
    for _step in range(200):
        if engine.phase == OVER:
            return ""
        seat, phase, legal = engine.actor, engine.phase, engine.legal_actions()
        if phase == BANK:
            if role == "bank" and len(engine.bank_hand.cards) >= bank_cards:
                if len(engine.bank_hand.cards) != bank_cards or engine.bank_hand.total != own:
                    return ""
                return layout.names[agent.act(observer.observe(0), engine.action_mask())]
            if A.HIT not in legal:
                return ""
            engine.step(A.HIT)
            continue
        if phase == BET:
            bets = [a for a in legal if a >= layout.bet_start]
            engine.step(bets[0])
            continue
        if phase == SIDE_BET:
            engine.step(A.PASS)
            continue
        if phase != PLAY:
            return ""
        if A.DECLINE in legal:
            engine.step(A.DECLINE)
            continue
        hand = engine.hands[seat][engine.hand_index]
        if seat != probed:
            engine.step(A.STAND)
            continue
        ups = sum(hand.face_up)
        if ups < player_ups:
            if A.HIT not in legal:
                return ""
            engine.step(A.HIT)
            continue
        if ups != player_ups or len(hand.cards) != player_ups + 1:
            return ""
        if role == "player":
            if hand.total != own:
                return ""
            action = agent.act(observer.observe(probed), engine.action_mask())
            if layout.raise_start <= action < layout.bid_start:
                engine.step(action)  # a raise keeps the turn: ask for hit or stand again
                continue
            return layout.names[action]
        engine.step(A.STAND)
    raise RuntimeError(f"the strategy probe did not reach its decision on {n} seats")


def strategy_map(agent: Any, role: str, rules: Rules | str = "catalan", num_seats: int = 2,
                 label: str | None = None) -> StrategyMap:
    """Probe ``agent`` in ``role`` (``"player"`` or ``"bank"``) over every cell of the map."""
    if role not in ("player", "bank"):
        raise ValueError(f"role {role!r} is not one of player, bank")
    resolved = Rules.resolve(rules)
    engine = Engine(resolved, num_seats, max_hands=1)
    observer = Observer(engine)
    actions = np.full((len(ROWS), len(COLUMNS)), "", dtype=object)
    fillers = list(_FILLER_VALUES[:num_seats - 2])
    for i, own in enumerate(ROWS):
        for j, visible in enumerate(COLUMNS):
            deck = _Deck(engine.wild)
            if role == "player":
                hidden = own - visible
                if hidden < 1 or (hidden > 1 and hidden % 2):
                    continue
                ups = split_total(visible) if visible else []
                first = [hidden] + fillers + [10]  # the bank's face-down card: a 5
                values = first + ups
                bank_cards = 1
            else:
                ups = split_total(visible) if visible else []
                bank = split_total(own)[::-1]  # the figure, if any, drawn last
                values = [1] + fillers + bank[:1] + ups + bank[1:]
                bank_cards = len(bank)
            try:
                codes = [deck.card(v) for v in values]
            except ValueError:
                continue
            actions[i, j] = _probe(engine, observer, agent, role, codes, len(ups), bank_cards,
                                   own)
    name = label if label is not None else getattr(agent, "spec", type(agent).__name__)
    rules_name = rules if isinstance(rules, str) else "custom rules"
    return StrategyMap(role, str(name), rules_name, num_seats, actions)


def map_agents(agents: Sequence[tuple[str, Any]], role: str, rules: Rules | str,
               num_seats: int) -> list[StrategyMap]:
    """Strategy maps of several ``(label, agent)`` pairs in one role."""
    return [strategy_map(agent, role, rules, num_seats, label) for label, agent in agents]
