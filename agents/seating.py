"""Seating policies at a table: one play loop and one seeding rule for every caller.

The evaluator (:func:`evaluate.ev.play`), the tournament
(:mod:`evaluate.tournament`) and ``sette play`` all play tables here, with
:class:`Table`: one engine and its observer, every seat driven by its
policy until the table is over, each finished hand handed back as a
:class:`FinishedHand` for the caller to count.

**The seeding rule.** Everything random in a run comes from one integer
``seed``:

* table ``t`` of a run of ``tables`` tables is dealt with
  ``table_seeds(seed, tables)[t]`` (a single table, as ``sette play`` deals,
  with ``seed`` itself);
* before a table dealt with seed ``T`` starts, the policy in seat ``s`` is
  seeded with ``stream_seed(T, s)``;
* a seat that plays each role with its own policy (``PLAYER|BANK``,
  :class:`RoleSplitAgent`) seeded with ``S`` seeds its player with
  ``stream_seed(S, 0)`` and its bank with ``stream_seed(S, 1)``.

``stream_seed(S, k)`` is the first word of ``numpy.random.SeedSequence([S, k])``:
every seat and every side draws from its own independent stream, the same
whatever else sits at the table, so two agents compared in one seat meet the
same cards and the same opponents' draws (*common random numbers*). One
object sitting in several seats is one policy with one stream, seeded once,
for the first seat it holds; :func:`seat_copies` gives each seat its own
copy (the tournament does). The single-seat views seed their opponents from
the view's own generator instead (:mod:`envs.single_seat`): a view is
seeded once, Gymnasium's way, and then runs on.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

from agents.base import Agent, ObservationReader
from envs.engine import Engine
from envs.information_state import INFORMATION_STATE, information_state_size
from envs.observer import Observer
from envs.policy import Policy
from envs.rules import Rules


def stream_seed(seed: int, k: int) -> int:
    """The seed of the ``k``-th independent stream drawn from ``seed`` (module docstring)."""
    return int(np.random.SeedSequence([seed, k]).generate_state(1)[0])


def table_seed_array(seed: int, tables: int) -> np.ndarray:
    """The seed of every table of a run as a ``uint32`` array: the same for the same ``seed``."""
    return np.random.SeedSequence(seed).generate_state(tables, dtype=np.uint32)


def table_seeds(seed: int, tables: int) -> list[int]:
    """The seed of every table of a run (:func:`table_seed_array` as Python ints)."""
    return [int(s) for s in table_seed_array(seed, tables).tolist()]


def seed_seats(policies: Sequence[Policy], table_seed: int) -> None:
    """Seed every seat's policy that has randomness for the table dealt with ``table_seed``.

    Seat ``s`` gets ``stream_seed(table_seed, s)``; an object in several seats is
    seeded once, for the first of them.
    """
    for s, policy in enumerate(policies):
        if hasattr(policy, "seed") and not any(p is policy for p in policies[:s]):
            policy.seed(stream_seed(table_seed, s))


def seat_copies(policies: Sequence[Policy]) -> list[Policy]:
    """One object per seat: each policy with randomness (``seed``) copied, so every seat
    draws its own stream; policies without it are shared (one loaded model)."""
    return [copy.deepcopy(p) if hasattr(p, "seed") else p for p in policies]


class RoleSplitAgent(Agent):
    """One seat, two policies: ``player`` while the seat plays, ``bank`` while it holds the bank.

    The spec ``PLAYER|BANK`` makes one (:func:`agents.make_agent`).
    """

    def __init__(self, player: Policy, bank: Policy) -> None:
        self.player = player
        self.bank = bank

    def seed(self, seed: int) -> None:
        """Seed each side that has randomness with its own stream (module docstring)."""
        for k, policy in enumerate((self.player, self.bank)):
            if hasattr(policy, "seed"):
                policy.seed(stream_seed(seed, k))

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        policy = self.bank if ObservationReader(observation).is_bank else self.player
        return policy.act(observation, action_mask)


def role_policy(agent: Policy, role: str) -> Policy:
    """The policy ``agent`` plays in ``role`` (``"player"`` or ``"bank"``): one side of a
    :class:`RoleSplitAgent`, else the agent itself."""
    if role not in ("player", "bank"):
        raise ValueError(f"role {role!r} is not one of player, bank")
    if isinstance(agent, RoleSplitAgent):
        return agent.player if role == "player" else agent.bank
    return agent


class FinishedHand:
    """One hand as it ended: the bank's seat, the players' seats in turn order, their
    hands, the bank's hand, the events its steps logged and every seat's net chips over
    those steps (units of ``min_bet``, the jackpot ante and prize included).

    The step that settles a hand also deals the next one, so ``events`` end with the
    next hand's ``hand`` and ``ante`` events and ``net`` holds that ante; the first
    hand's deal belongs to the table's reset.
    """

    __slots__ = ("bank", "order", "hands", "bank_hand", "events", "net")

    def __init__(self, bank: int, order: Sequence[int], hands: Sequence[Sequence[Any]],
                 bank_hand: Any, events: Sequence[tuple[Any, ...]], net: Sequence[float]
                 ) -> None:
        self.bank = bank
        self.order = order
        self.hands = hands
        self.bank_hand = bank_hand
        self.events = events
        self.net = net


def _reads_information_state(policy: Policy) -> bool:
    """Whether ``policy`` (either side of a ``PLAYER|BANK`` seat) was trained on the
    information state (its ``observation_type``, :mod:`agents.learned`)."""
    return any(getattr(role_policy(policy, role), "observation_type", "observation")
               == INFORMATION_STATE for role in ("player", "bank"))


class SeatVectors:
    """The vector a policy is given at a seat of ``engine``: its side's observation, or its
    information state (:mod:`envs.information_state`) when that side was trained on one.

    The side is the policy's player or bank half (:func:`role_policy`), by whether
    the seat holds the bank now.
    """

    def __init__(self, engine: Engine, observer: Observer) -> None:
        self.engine = engine
        self.observer = observer
        self._states: Any = None  # an InformationStateObserver, made when first needed

    def of(self, policy: Policy, seat: int) -> tuple[Policy, np.ndarray]:
        """The side of ``policy`` that acts at ``seat`` and the vector it is given."""
        side = role_policy(policy, "bank" if self.engine.bank == seat else "player")
        if getattr(side, "observation_type", "observation") == INFORMATION_STATE:
            if self._states is None:
                from envs.information_state import InformationStateObserver

                self._states = InformationStateObserver(self.engine, self.observer)
            return side, self._states.observe(seat)
        return side, self.observer.observe(seat)

    def check(self, policy: Policy) -> None:
        """Refuse ``policy`` before a card is dealt where either of its sides cannot play at
        this table: a trained model (``check_table``, :mod:`agents.learned`) seated at
        another table size, or on rules with another bet ladder, than it was trained on."""
        engine = self.engine
        for role in ("player", "bank"):
            side = role_policy(policy, role)
            check_table = getattr(side, "check_table", None)
            if check_table is None:
                continue
            if getattr(side, "observation_type", "observation") == INFORMATION_STATE:
                size = information_state_size(engine.rules, engine.num_seats)
            else:
                size = self.observer.size
            check_table(size, engine.layout.size)


class Table:
    """An engine and its observer on which whole tables are played, one policy per seat.

    The shoe, the jackpot and the chip stacks carry over inside a table of
    ``table_hands`` hands, as at a real one; every call deals a fresh table.
    A policy whose ``observation_type`` is ``"information_state"`` is given
    the seat's information state (:mod:`envs.information_state`), every
    other one its observation.
    """

    def __init__(self, rules: Rules, num_seats: int, table_hands: int) -> None:
        self.engine = Engine(rules, num_seats, max_hands=table_hands)
        self.observer = Observer(self.engine)
        self.vectors = SeatVectors(self.engine, self.observer)

    def _decide(self, policy: Policy, seat: int) -> int:
        """The action of ``policy`` in ``seat``, given the vector its side was trained on."""
        side, vector = self.vectors.of(policy, seat)
        return side.act(vector, self.engine.action_mask())

    def hands(self, policies: Sequence[Policy], seed: int, bank: int | None = None
              ) -> Iterator[FinishedHand]:
        """Seed the policies (:func:`seed_seats`), deal the table with ``seed`` (``bank``: the
        first bank's seat, ``None`` lets the rules choose) and play it to its end,
        yielding every hand as it finishes."""
        engine = self.engine
        n = engine.num_seats
        if len(policies) != n:
            raise ValueError(f"{len(policies)} policies for {n} seats")
        seed_seats(policies, seed)
        engine.reset(seed=seed, bank=bank)
        observe = self.observer.observe
        hand_no = engine.hands_played
        hands, bank_hand, bank_seat, order = engine.hands, engine.bank_hand, engine.bank, \
            engine.order
        first_event = len(engine.events)
        net = [0.0] * n
        recall = any(_reads_information_state(p) for p in policies)
        while not engine.over:
            seat = engine.actor
            if recall:
                engine.step(self._decide(policies[seat], seat))
            else:
                engine.step(policies[seat].act(observe(seat), engine.action_mask()))
            if engine.rewarded:
                net = [a + b for a, b in zip(net, engine.pending_rewards)]
            if engine.hands_played != hand_no:
                yield FinishedHand(bank_seat, order, hands, bank_hand,
                                   engine.events[first_event:], net)
                hand_no = engine.hands_played
                hands, bank_hand, bank_seat = engine.hands, engine.bank_hand, engine.bank
                order = engine.order
                first_event = len(engine.events)
                net = [0.0] * n

    def play(self, policies: Sequence[Policy], seed: int, bank: int | None = None) -> Engine:
        """Play one table to its end (as :meth:`hands`); the engine holds its events."""
        for _hand in self.hands(policies, seed, bank):
            pass
        return self.engine
