"""The table loop of the single-seat views, compiled with the engine (:mod:`envs._native`).

:mod:`envs.single_seat` keeps the Gymnasium side of a view (spaces, seeding,
argument checks, rendering); :class:`SeatPlay` does the work of every step:
it deals tables, draws the learner's seat and the opponents, lets the other
seats act until the learner must, and builds what ``step`` returns. Its rules
are those of the module docstring of :mod:`envs.single_seat`:

* **Player** view: the bank seat is drawn for every table among the seats
  other than a fixed learner seat, the learner's seat every hand among the
  hand's players; an episode is one hand.
* **Bank** view: the learner's seat, which holds the bank, is drawn for every
  table; an episode is one hand.
* **Seat** view: the learner's seat is drawn for every table and the
  opponents with it; an episode is a whole table, bank rotation included.

Random draws come from the view's generator (``rng``, Gymnasium's
``np_random``) in a fixed order — the learner's or bank's seat, the engine's
seed, then one policy per pool and seat — so a seeded view repeats exactly.
A draw among a single seat takes nothing from the generator (numpy returns
the only value without drawing).
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np

from envs import actions as A
from envs.cards import get_state, set_state
from envs.engine import Engine
from envs.observer import Observer

PLAYER_VIEW: Final = 0
BANK_VIEW: Final = 1
SEAT_VIEW: Final = 2
RANDOM: Final = -1
"""``seat``/``bank`` choice meaning "drawn" rather than fixed."""

_MAX_TABLES: Final = 1000


def dealer_action(threshold: float, total: int, action_mask: Any) -> int:
    """The decision of the built-in dealer (``envs.single_seat.DealerRule``).

    ``total`` is the best total of the cards the seat knows in its current
    hand, in half points. Take or claim the bank when offered (RULES.md §5);
    hit below ``threshold`` points and stand at or above it; bid nothing, place
    no side bet, keep the bank, decline the Mort (§5, §6); stake the smallest bet.
    """
    if action_mask[A.TAKE_BANK]:
        return A.TAKE_BANK
    if action_mask[A.CLAIM_BANK]:
        return A.CLAIM_BANK
    if action_mask[A.HIT] or action_mask[A.STAND]:
        want = A.HIT if total / 2 < threshold - 1e-6 else A.STAND
        if action_mask[want]:
            return want
        return A.STAND if action_mask[A.STAND] else A.HIT
    legal = np.flatnonzero(action_mask)
    if legal.size == 0:
        raise ValueError("the action mask allows no action")
    for action in (A.PASS, A.DECLINE):
        if action_mask[action]:
            return action
    bets = legal[legal >= len(A.CORE_ACTIONS)]
    return int(bets[0]) if bets.size else int(legal[0])


class SeatPlay:
    """One view's table: the engine, its observer, the learner and the other seats' policies.

    ``bank_source`` and ``player_source`` are policies (``act(observation,
    action_mask)``) or pools (``sample(rng)``); when they are different
    objects whoever holds the bank plays the bank's, otherwise each seat keeps
    its own policy in every role. A policy whose ``act`` is ``dealer_act``
    (the built-in dealer's, not overridden) is asked here, from the seat's
    known total and the legal actions, without building its observation: the
    same decision, :func:`dealer_action`, without the vector.
    """

    def __init__(self, engine: Engine, observer: Observer, view: int, seat_choice: int,
                 bank_choice: int, bank_source: object, player_source: object,
                 illegal_reward: float, dealer_act: object = None) -> None:
        self.engine = engine
        self.observer = observer
        self.view = view
        self.seat_choice = seat_choice
        self.bank_choice = bank_choice
        self.bank_source = bank_source
        self.player_source = player_source
        self.split_roles = bank_source is not player_source
        self.pooled = hasattr(bank_source, "sample") or hasattr(player_source, "sample")
        self.illegal_reward = illegal_reward
        self.dealer_act = dealer_act
        self.rng: Any = None
        self.learner = 0
        self.table_bank = -1
        n = engine.num_seats
        self.policies: list[Any] = [player_source] * n
        self.bank_policy: Any = bank_source
        self.mask: np.ndarray = np.zeros(engine.layout.size, dtype=np.int8)
        self.no_actions: np.ndarray = np.zeros(engine.layout.size, dtype=np.int8)
        self.need_table = True
        self.hand = -1

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle as (class, constructor arguments, attributes): see envs.cards.get_state."""
        return (SeatPlay, (self.engine, self.observer, self.view, self.seat_choice,
                           self.bank_choice, self.bank_source, self.player_source,
                           self.illegal_reward, self.dealer_act), get_state(self))

    def __setstate__(self, state: dict[str, Any]) -> None:
        set_state(self, state)

    # ------------------------------------------------------------- drawing
    def _draw_seat(self, choice: int, among: list[int]) -> int:
        if choice != RANDOM:
            return choice
        if len(among) == 1:
            return among[0]
        return among[int(self.rng.integers(len(among)))]

    def _draw(self, source: Any) -> Any:
        return source.sample(self.rng) if hasattr(source, "sample") else source

    def _draw_opponents(self) -> None:
        """This episode's policies: one per other seat, plus one for the bank role."""
        if not self.pooled:
            return
        n = self.engine.num_seats
        for seat in range(n):
            if seat != self.learner:
                self.policies[seat] = self._draw(self.player_source)
        if self.split_roles:
            self.bank_policy = self._draw(self.bank_source)

    def policy_of(self, seat: int) -> Any:
        """The policy that acts for ``seat`` now."""
        if self.split_roles and seat == self.engine.bank:
            return self.bank_policy
        return self.policies[seat]

    # -------------------------------------------------------------- tables
    def _new_table(self) -> None:
        """Deal a fresh table (engine episode) and fix the seats for it."""
        e = self.engine
        n = e.num_seats
        if self.view == PLAYER_VIEW:
            others = [s for s in range(n) if s != self.seat_choice]
            self.table_bank = self._draw_seat(self.bank_choice, others)
            seed = int(self.rng.integers(2**31 - 1))
            e.reset(seed=seed, bank=self.table_bank)
            return
        self.learner = self._draw_seat(self.seat_choice, list(range(n)))
        seed = int(self.rng.integers(2**31 - 1))
        if self.view == BANK_VIEW:
            e.reset(seed=seed, bank=self.learner)
        else:
            e.reset(seed=seed)
            self._draw_opponents()

    def _hand_is_playable(self) -> bool:
        """Whether the learner can play the current hand in its role."""
        e = self.engine
        if self.view == PLAYER_VIEW:
            if e.bank != self.table_bank:
                return False
            if self.seat_choice == RANDOM:
                return len(e.order) > 0
            return self.seat_choice in e.order
        if self.view == BANK_VIEW:
            return e.bank == self.learner and len(e.order) > 0
        return True

    def episode_over(self) -> bool:
        """A hand (Player, Bank) or the table (Seat) has ended."""
        e = self.engine
        if self.view == SEAT_VIEW:
            return e.over
        return e.over or e.hands_played != self.hand

    # ------------------------------------------------------------- playing
    def _play_opponents(self) -> float:
        """Let the other seats act until the learner must act or the episode ends.

        Returns the learner's reward collected meanwhile.
        """
        e = self.engine
        observer = self.observer
        learner = self.learner
        reward = 0.0
        while not e.over and e.actor != learner and not self.episode_over():
            seat = e.actor
            policy = self.policy_of(seat)
            if type(policy).act is self.dealer_act:
                mask = e.legal_mask()
                action = dealer_action(policy.threshold, observer.own_total(seat), mask)
            else:
                mask = e.action_mask()
                action = policy.act(observer.observe(seat), mask)
            if not (0 <= action < len(mask)) or not mask[action]:
                raise ValueError(f"opponent {policy!r} at seat {seat} chose illegal action "
                                 f"{action!r}; legal: {np.flatnonzero(mask).tolist()}")
            e.step(int(action))
            reward += e.pending_rewards[learner]
        return reward

    def start_episode(self) -> None:
        """Play on to the learner's first decision of the next episode."""
        if self.view == SEAT_VIEW:
            self.need_table = True
        e = self.engine
        for _attempt in range(_MAX_TABLES):
            if self.need_table or e.over:
                self._new_table()
                self.need_table = False
            self.hand = e.hands_played
            if not self._hand_is_playable():
                self.need_table = True
                continue
            if self.view == PLAYER_VIEW:
                self.learner = self._draw_seat(self.seat_choice, e.order)
                self._draw_opponents()
            elif self.view == BANK_VIEW:
                self._draw_opponents()
            self._play_opponents()  # rewards before the learner's first decision: module doc
            if e.actor == self.learner and not self.episode_over():
                return
        raise RuntimeError(f"{_MAX_TABLES} tables in a row gave the learner no decision; "
                           f"check the rules and the number of seats")

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """The learner's action: Gymnasium's ``(obs, reward, terminated, truncated, info)``."""
        e = self.engine
        mask = self.mask
        if not 0 <= action < len(mask) or not mask[action]:
            self.need_table = True
            info = self.info()
            info["illegal_action"] = action
            return self.observation(), self.illegal_reward, True, False, info
        e.step(action)
        reward = e.pending_rewards[self.learner] + self._play_opponents()
        terminated = self.episode_over()
        return self.observation(), reward, terminated, False, self.info()

    def observation(self) -> np.ndarray:
        """The learner's observation vector now."""
        return self.observer.observe(self.learner)

    def info(self) -> dict[str, Any]:
        """The step's info; also stores the learner's mask (``SingleSeatEnv.action_masks``)."""
        e = self.engine
        learner = self.learner
        if e.actor == learner and not e.over:
            mask = e.action_mask()
        else:
            mask = self.no_actions.copy()
        self.mask = mask
        return {"action_mask": mask, "seat": learner,
                "role": "bank" if learner == e.bank else "player", "hand": e.hands_played}
