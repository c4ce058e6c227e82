"""Single-seat Gymnasium views of the game: one learner, every other seat a given policy.

Three views, registered on ``import envs``::

    import envs, gymnasium
    env = gymnasium.make("sette/Player-v0", rules="catalan", num_seats=2, opponents=bank)
    env = gymnasium.make("sette/Bank-v0", rules="catalan", num_seats=4, opponents=player)
    env = gymnasium.make("sette/Seat-v0", rules="catalan", num_seats=4, opponents=someone)

(``gymnasium.make("envs:sette/Player-v0", ...)`` imports ``envs`` itself: Gymnasium
1.x dropped the plugin entry-point group, and the ``module:id`` form replaces it.)

=============  ==========================================================
view           what the learner plays
=============  ==========================================================
``Player-v0``  always a player seat; its seat is drawn every hand among
               the player seats (or fixed with ``seat=``), the bank seat
               is drawn for every table (or fixed with ``bank=``)
``Bank-v0``    the bank, every hand; its seat is drawn for every table
               (or fixed with ``seat=``)
``Seat-v0``    one seat of the full game with bank rotation: it plays
               whichever role that seat holds; ``is_bank`` in its own
               seat block of the observation says which
=============  ==========================================================

**Fixed roles.** The Player and Bank views keep the bank on one seat: they play
the given rules with ``bank_transfer = "none"``, ``max_bank_hands = 0``,
``bank_min_cover = False`` and ``bank_sale = False`` (:func:`fixed_bank_rules`).
Every other switch — payouts, face-down cards, bets, the shoe, the jackpot — is
the preset's. A table whose bank or learner runs out of chips is dealt afresh.

**Episodes and tables.** A *table* is one engine episode of up to ``table_hands``
hands with one continuing shoe, jackpot and chip stacks. In the Player and Bank
views an *episode is one hand* of the learner: ``reset()`` without a seed deals
the next hand of the same table (so card counting and the jackpot carry over,
as at a real table), ``reset(seed=...)`` starts a new table. Hands in which the
learner has no decision (a bank whose players all bust) are played out inside
the view and not returned: rewards settled before the learner's first
decision of an episode count for nobody. In the Seat view an episode is a whole table,
because taking or refusing the bank only pays off in later hands.

**Rendering.** ``render_mode="ansi"`` returns the table as text, ``"rgb_array"``
(what SB3's ``make_vec_env`` passes) a picture of it as an ``(H, W, 3)`` ``uint8``
array; both show it as the learner may see it (:mod:`envs.table_view`).

**Spaces and reward.** The observation is the seat's vector from
:mod:`envs.observer` — or, with ``observation_type="information_state"``, its
information state (:mod:`envs.information_state`: that vector followed by the
hand's history as the learner saw it; the other seats' policies still get
observations) — and the action space the PettingZoo env's ``Discrete``
layout (:mod:`envs.actions`); the legal actions come from ``env.action_masks()``
(the method sb3-contrib's ``MaskablePPO`` calls, also through ``SubprocVecEnv``)
and ``info["action_mask"]``. The reward is the learner's net chips of each hand
in units of ``min_bet``, given on the step in which the hand is settled. An
illegal action ends the episode with ``illegal_reward`` and a fresh table next.
A step after the episode ended and before ``reset()`` raises Gymnasium's ``ResetNeeded``.

**Opponents** are policies — anything with ``act(observation, action_mask) ->
action`` (:mod:`envs.policy`, :mod:`agents`) — a *pool* — anything with
``sample(rng) -> policy``, drawn anew every episode — a list (a uniform pool),
an agent spec in any form ``sette evaluate`` takes (``"threshold:5"``,
``"reader"``, a model path, ``"careful|reader"``: :mod:`agents.registry` makes
it; the first spec string imports :mod:`agents`, so
``gymnasium.make("envs:sette/Player-v0", opponents="reader")`` works in a fresh
interpreter), or a mapping ``{"bank": ..., "players": ...}`` giving each role
its own source. With
``opponents=None`` every other seat follows the :class:`DealerRule`, the way
Gymnasium's Blackjack has a built-in dealer. A policy with a ``seed(int)``
method is reseeded from the view's generator on ``reset(seed=...)``, so seeded
episodes repeat exactly.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.error import ResetNeeded

from envs.engine import Engine, as_index
from envs.information_state import (InformationStateObserver, check_observation_type,
                                    information_state_bounds)
from envs.observation import ObservationReader
from envs.observer import Observer, observation_bounds
from envs.picture import table_picture
from envs.policy import Policy, PolicySource
from envs.render import table_text
from envs.rules import Rules
from envs.seat_play import BANK_VIEW, PLAYER_VIEW, RANDOM, SEAT_VIEW, SeatPlay, dealer_action

ROLES = ("bank", "players")


def _resolve_spec(spec: str, rules: Rules) -> Policy:
    """The policy an agent spec names (every form :func:`agents.make_agent` takes).

    ``envs`` does not import ``agents`` at module level (imports point ``envs``
    <- ``agents``): the registry is imported here, by the first spec string.
    """
    from agents.registry import make_agent

    return make_agent(spec, rules=rules)


def fixed_bank_rules(rules: Rules | str) -> Rules:
    """The rules with the bank kept on one seat (for the Player and Bank views).

    Nothing passes the bank on: no transfer on 7½, no hand limit, no minimum
    cover, no sale. The first bank is then given by the view, so an auction
    (which needs ``bank_sale``) becomes a plain draw.
    """
    rules = Rules.resolve(rules)
    first_bank = "random" if rules.first_bank == "auction" else rules.first_bank
    return rules.replace(bank_transfer="none", max_bank_hands=0, bank_min_cover=False,
                         bank_sale=False, first_bank=first_bank)


class DealerRule:
    """The built-in opponent: stake the minimum, hit below ``threshold`` points, stand at
    or above it, take or claim the bank when offered, use no house-rule action —
    the fixed rule of a casino dealer (``agents.ThresholdAgent`` is this rule
    behind the agent protocol). The decision is
    :func:`envs.seat_play.dealer_action`, which the views call directly, from
    the seat's known total and mask, for a policy whose ``act`` is this one.
    """

    def __init__(self, threshold: float = 5.5) -> None:
        if not 0.5 <= threshold <= 7.5:
            raise ValueError(f"threshold {threshold!r} is outside 0.5..7.5 points")
        self.threshold = threshold

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        return dealer_action(self.threshold, ObservationReader(observation).own_total_half,
                             action_mask)


class _UniformPool:
    """A list of policies, one drawn uniformly per episode."""

    def __init__(self, members: Sequence[Policy]) -> None:
        if not members:
            raise ValueError("an opponent pool needs at least one policy")
        self.members = list(members)

    def sample(self, rng: np.random.Generator) -> Policy:
        return self.members[int(rng.integers(len(self.members)))]


def _source(value: Any, rules: Rules) -> Policy | PolicySource:
    """One role's opponent source: a policy, a pool, a list or a spec string."""
    if value is None:
        return DealerRule()
    if isinstance(value, str):
        return _resolve_spec(value, rules)
    if isinstance(value, (list, tuple)):
        return _UniformPool([_member(v, rules) for v in value])
    if isinstance(value, (PolicySource, Policy)):
        return value
    raise TypeError(f"opponent {value!r} is neither a policy (act(observation, action_mask)), "
                    f"a pool (sample(rng)), a list of them nor an agent spec string")


def _member(value: Any, rules: Rules) -> Policy:
    """One policy of a list of opponents: a policy or a spec string."""
    if isinstance(value, str):
        return _resolve_spec(value, rules)
    if isinstance(value, Policy):
        return value
    raise TypeError(f"opponent {value!r} in a list is neither a policy (act(observation, "
                    f"action_mask)) nor an agent spec string; a list is itself the pool")


def _sources(opponents: Any, rules: Rules) -> dict[str, Policy | PolicySource]:
    if isinstance(opponents, Mapping):
        unknown = [k for k in opponents if k not in ROLES]
        if unknown:
            raise ValueError(f"opponents: unknown role {unknown[0]!r}; roles are: "
                             f"{', '.join(ROLES)}")
        return {role: _source(opponents.get(role), rules) for role in ROLES}
    source = _source(opponents, rules)
    return {role: source for role in ROLES}


def checked_illegal_reward(value: object) -> float:
    """``illegal_reward`` as a float: a finite real number (a bool or text is refused)."""
    if not isinstance(value, (bool, np.bool_)) and isinstance(value, (int, float, np.integer,
                                                                       np.floating)):
        reward = float(value)
        if np.isfinite(reward):
            return reward
    raise ValueError(f"illegal_reward={value!r} must be a finite number: the reward for an "
                     f"illegal action (-1.0 by default)")


def _check_seat(name: str, value: int | str, num_seats: int) -> int:
    """A seat choice as :class:`SeatPlay` takes it: the seat, or ``RANDOM`` for "random"."""
    if value == "random":
        return RANDOM
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not (
            0 <= value < num_seats):
        raise ValueError(f"{name}={value!r} must be 'random' or a seat 0..{num_seats - 1}")
    return int(value)


class SingleSeatEnv(gym.Env):
    """Common machinery of the three views (see the module docstring).

    The table loop itself — dealing, drawing seats and opponents, playing the
    other seats — is :class:`envs.seat_play.SeatPlay`, compiled with the engine.
    """

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 1}
    role = "seat"
    view = SEAT_VIEW
    bank_choice: int | str = "random"  # the Player view's ``bank``; the others draw it

    def __init__(self, rules: Rules | str = "catalan", num_seats: int = 2,
                 opponents: Any = None, seat: int | str = "random",
                 table_hands: int = 10, illegal_reward: float = -1.0,
                 render_mode: str | None = None,
                 observation_type: str = "observation") -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode={render_mode!r} is not supported; choose one of "
                             f"{self.metadata['render_modes']} or None")
        self.render_mode = render_mode
        self.observation_type = check_observation_type(observation_type)
        self.rules = self._view_rules(Rules.resolve(rules))
        self.engine = Engine(self.rules, num_seats, max_hands=table_hands)
        self.num_seats = num_seats
        self.seat_choice = seat
        self.table_hands = table_hands
        self.illegal_reward = checked_illegal_reward(illegal_reward)
        self.observer = Observer(self.engine)
        self.sources = _sources(opponents, self.rules)
        self.information_state: InformationStateObserver | None = None
        """The learner's information state, with ``observation_type="information_state"``."""
        if observation_type == "information_state":
            self.information_state = InformationStateObserver(self.engine, self.observer)
            low, high = information_state_bounds(self.rules, num_seats)
        else:
            low, high = observation_bounds(num_seats)
        self.observation_space = spaces.Box(low=low, high=high, dtype=np.float32)
        self.action_space = spaces.Discrete(self.engine.layout.size)
        self._play = SeatPlay(self.engine, self.observer, self.view,
                              _check_seat("seat", seat, num_seats),
                              _check_seat("bank", self.bank_choice, num_seats),
                              self.sources["bank"], self.sources["players"],
                              self.illegal_reward, DealerRule.act)
        self._episode_over = True
        """The episode has ended (or none has begun): :meth:`step` waits for :meth:`reset`."""

    def _view_rules(self, rules: Rules) -> Rules:
        return rules

    @property
    def learner(self) -> int:
        """The learner's seat in the current episode."""
        return self._play.learner

    def _policy_of(self, seat: int) -> Policy:
        return self._play.policy_of(seat)

    # ------------------------------------------------------------- Gym API
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        play = self._play
        play.rng = self.np_random
        if seed is not None:
            play.need_table = True
            seeder = np.random.default_rng(seed)
            for source in {id(s): s for s in self.sources.values()}.values():
                members = getattr(source, "members", [source])
                for policy in members:
                    if hasattr(policy, "seed"):
                        policy.seed(int(seeder.integers(2**31 - 1)))
        play.start_episode()
        self._episode_over = False
        if self.information_state is not None:
            return self.information_state.observe(play.learner), play.info()
        return play.observation(), play.info()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """The learner's action. After the episode ends (``terminated``) the table has
        already moved on to the next hand, which :meth:`reset` hands out: a step before
        it raises ``ResetNeeded`` rather than playing a hand nobody was shown."""
        if self._episode_over:
            raise ResetNeeded(f"step({action!r}): the episode is over (or has not begun); "
                              f"call reset() for the next one")
        index = self._action_index(action)
        obs, reward, terminated, truncated, info = self._play.step(index)
        self._episode_over = terminated
        if self.information_state is None:
            return obs, reward, terminated, truncated, info
        return (self.information_state.observe(self._play.learner), reward, terminated,
                truncated, info)

    def _action_index(self, action: Any) -> int:
        """``action`` as an index, read as the engine reads it (:func:`envs.engine.as_index`):
        an int, a numpy integer or a 0-d integer array.

        A plain int off the layout is an illegal action like any other (it ends
        the episode); a float or a bool is refused by name rather than rounded,
        as the engine refuses them: ``1.5`` is no action.
        """
        index = action if type(action) is int else as_index(action)
        if index < 0 and type(action) is not int:
            raise ValueError(f"action {action!r} is not an action index; actions are the "
                             f"integers 0..{self.engine.layout.size - 1} "
                             f"(get_action_meanings() names them)")
        return index

    def action_masks(self) -> np.ndarray:
        """Legal actions of the learner now, as booleans (sb3-contrib's MaskablePPO)."""
        return self._play.mask.astype(bool)

    def get_action_meanings(self) -> list[str]:
        """The name of every action index (``stand``, ``hit``, ``bet_1``, …)."""
        return list(self.engine.layout.names)

    def render(self) -> str | np.ndarray | None:
        """The table as the learner sees it: text (``ansi``) or a picture (``rgb_array``)."""
        if self.render_mode is None:
            gym.logger.warn("render() called without a render_mode; pass render_mode= one of "
                            f"{self.metadata['render_modes']}")
            return None
        if self.render_mode == "rgb_array":
            return table_picture(self.engine, viewer=self.learner)
        return table_text(self.engine, viewer=self.learner)


class PlayerEnv(SingleSeatEnv):
    """``sette/Player-v0``: the learner always plays a player seat against a fixed bank.

    ``bank``: the bank's seat, ``"random"`` (drawn per table) or fixed;
    ``seat``: the learner's seat, ``"random"`` (drawn per hand among the players)
    or fixed (then it must differ from a fixed ``bank``).
    """

    role = "player"
    view = PLAYER_VIEW

    def __init__(self, rules: Rules | str = "catalan", num_seats: int = 2,
                 opponents: Any = None, seat: int | str = "random",
                 bank: int | str = "random", table_hands: int = 10,
                 illegal_reward: float = -1.0, render_mode: str | None = None,
                 observation_type: str = "observation") -> None:
        self.bank_choice = bank
        super().__init__(rules, num_seats, opponents, seat, table_hands, illegal_reward,
                         render_mode, observation_type)
        if bank != "random" and bank == seat:
            raise ValueError(f"seat={seat} and bank={bank}: the learner of the Player view "
                             f"never holds the bank; choose different seats")

    def _view_rules(self, rules: Rules) -> Rules:
        return fixed_bank_rules(rules)


class BankEnv(SingleSeatEnv):
    """``sette/Bank-v0``: the learner holds the bank every hand; the players are policies.

    ``seat``: the learner's (the bank's) seat, ``"random"`` (drawn per table) or fixed.
    """

    role = "bank"
    view = BANK_VIEW

    def _view_rules(self, rules: Rules) -> Rules:
        return fixed_bank_rules(rules)


class SeatEnv(SingleSeatEnv):
    """``sette/Seat-v0``: the learner is one seat of the full game, bank rotation included.

    ``seat``: the learner's seat, ``"random"`` (drawn per table) or fixed. An
    episode is a table of ``table_hands`` hands.
    """

    role = "seat"
    view = SEAT_VIEW
