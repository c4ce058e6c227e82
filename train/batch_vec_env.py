"""``BatchSeatVecEnv``: the single-seat views as one SB3 ``VecEnv`` over a batch of tables.

Each sub-environment is one table of a :class:`envs.batch.api.TableBatch`
with one learner seat, played by the rules of the scalar views
(:mod:`envs.single_seat`, :mod:`envs.seat_play`), which are the spec:

* **Player** view: the bank seat is drawn for every table (or fixed with
  ``bank=``), the learner's seat every hand among the hand's players (or
  fixed with ``seat=``); an episode is one hand.
* **Bank** view: the learner holds the bank; its seat is drawn for every
  table (or fixed); an episode is one hand.
* **Seat** view: the learner is one seat of the full game, bank rotation
  included; its seat and the opponents are drawn for every table; an
  episode is the whole table.

The Player and Bank views play :func:`envs.single_seat.fixed_bank_rules`. A
table is an engine episode of up to ``table_hands`` hands; in the Player and
Bank views the next episode is the table's next hand, and a table that is
over, whose bank moved away (RULES.md §5, a bank that cannot cover) or whose
hand has no place for the learner is dealt afresh. With ``one_hand_tables``
(Player and Bank views) that share of the tables, the first of them by index,
is dealt afresh after every hand: every hand there starts from a full shoe and
fresh stacks, as the hand the exact solver values does, and its observation is
that of the first hand of a longer table, while the other tables play their
``table_hands`` down the shoe. A hand in which the learner has no decision is
played out and not returned; rewards settled before the learner's first
decision of an episode count for nobody. The
reward is the learner's net chips of each settled hand in units of
``min_bet``; an illegal action ends the episode with ``illegal_reward`` and a
fresh table next.

**Opponents** are given as to the views (a policy, a pool with
``sample(rng)``, a list, an agent spec, a ``{"bank": ..., "players": ...}``
mapping, or None for the built-in dealer) and act batched: every table whose
actor is not the learner is observed in one call, and each policy decides
for all of its rows with ``act_batch`` (:class:`envs.policy.BatchPolicy`;
the baselines through :func:`agents.batch_policies.batch_policy`); a policy
without one is asked ``act`` row by row. This repeats until every table waits
for its learner. When every opponent is a baseline with a kernel (threshold,
careful, reader, or a ``PLAYER|BANK`` pair of them) and the observations are
not information states, the learner's move and all those turns are one
compiled call instead (:mod:`agents.batch_turns`: the same play, move for
move; ``compiled_turns=False`` keeps the Python loop). A pool is drawn for
every episode (Player, Bank) or table (Seat) at every table and seat, as the
views draw it; a list or an :class:`agents.PolicyPool` is drawn uniformly for
all those tables at once.

**Seeding.** All draws — seats, the tables' seeds, pool members — come from
one generator, seeded by :meth:`seed` (SB3 calls it) at the next
:meth:`reset`, in a fixed order over the tables; policies with ``seed(int)``
are reseeded from the seed as the views reseed them. The same seed and the
same learner actions give the same observations, rewards and opponents'
actions. The draws are not the scalar views' (one generator per view), so
a batch run and a scalar run agree in distribution, not hand for hand.

``action_masks()`` (also through ``env_method``, as sb3-contrib's
``MaskablePPO`` asks) gives the learners' legal actions; an episode's last
observation is ``infos[i]["terminal_observation"]`` and every info holds the
learner's ``action_mask``: a read-only array, one per pattern of legal actions,
which ``env_method`` hands out too (:class:`_MaskRows`). Every step's infos
are new dicts that nothing else holds (``fresh_infos``): a wrapper may add to
them (:class:`train.vec_env.EndedVecMonitor` does).

**Memory.** Constructing one tunes glibc's malloc for the process
(:func:`train.heap.keep_freed_memory`): the arrays a step returns, and those
its client allocates, reuse the blocks freed the step before instead of new
pages from the kernel. Settings of the user's own (``MALLOC_*_`` variables,
``GLIBC_TUNABLES``) are left alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.error import ResetNeeded
from stable_baselines3.common.vec_env import VecEnv
from stable_baselines3.common.vec_env.base_vec_env import VecEnvIndices, VecEnvStepReturn

from agents import PolicyPool
from agents.batch_policies import batch_policy
from agents.batch_turns import TableTurns, TurnPolicies, turn_policies
from agents.scripted import ThresholdAgent
from envs.batch import make_tables
from envs.batch.engine import BatchEngine
from envs.engine import checked_seed
from envs.information_state import (INFORMATION_STATE, check_observation_type,
                                     information_state_bounds)
from envs.observer import observation_bounds
from envs.rules import Rules
from envs.single_seat import (DealerRule, _sources, _UniformPool, checked_illegal_reward,
                               fixed_bank_rules)
from train.heap import keep_freed_memory

__all__ = ["VIEWS", "BatchSeatVecEnv"]

VIEWS = ("player", "bank", "seat")
"""The views :class:`BatchSeatVecEnv` plays (``sette/Player-v0``, ``Bank-v0``, ``Seat-v0``)."""
_RANDOM = -1
_MAX_TABLES = 1000
"""Fresh tables in a row without a learner decision before the env gives up (as the views)."""
_UNIFORM_POOLS = (PolicyPool, _UniformPool)
"""Pools whose ``sample`` is a uniform draw of ``members``: drawn for many tables at once."""


class BatchSeatVecEnv(VecEnv):
    """``num_envs`` tables of one view (module docstring) as a Stable-Baselines3 ``VecEnv``.

    ``view``: ``"player"``, ``"bank"`` or ``"seat"``; ``rules``, ``num_seats``,
    ``opponents``, ``seat``, ``bank`` (Player view only), ``table_hands``,
    ``illegal_reward`` and ``observation_type`` as the scalar views take them;
    ``one_hand_tables``: the share of tables dealt afresh after every hand (Player and
    Bank views; module docstring); ``engine``: :func:`envs.batch.make_tables`'s
    (``"auto"``: compiled where the rules are supported); ``seed``: what :meth:`seed`
    would set; ``compiled_turns``: play the baselines' turns in one compiled call where
    they can be (module docstring; False: always the Python loop, the reference it is
    tested against).
    """

    fresh_infos = True
    """Every step's infos are new dicts, held by nothing here (module docstring)."""

    def __init__(self, view: str, rules: Rules | str = "catalan", num_seats: int = 2,
                 num_envs: int = 256, opponents: Any = None, seed: int | None = None,
                 table_hands: int = 10, observation_type: str = "observation",
                 engine: str = "auto", seat: int | str = "random", bank: int | str = "random",
                 illegal_reward: float = -1.0, one_hand_tables: float = 0.0,
                 compiled_turns: bool = True) -> None:
        if view not in VIEWS:
            raise ValueError(f"view={view!r} is not one of {', '.join(VIEWS)}")
        if isinstance(one_hand_tables, bool) or not isinstance(one_hand_tables, (int, float)) \
                or not 0 <= one_hand_tables <= 1:
            raise ValueError(f"one_hand_tables={one_hand_tables!r} must be a share 0..1")
        if view == "seat" and one_hand_tables:
            raise ValueError(f"one_hand_tables={one_hand_tables!r}: an episode of the seat "
                             f"view is the whole table; only the player and bank views "
                             f"end tables after one hand")
        if view != "player" and bank != "random":
            raise ValueError(f"bank={bank!r}: only the Player view fixes the bank seat; the "
                             f"{view} view draws it")
        resolved = Rules.resolve(rules)
        keep_freed_memory()
        self.view = view
        self.render_mode = None
        self.rules = resolved if view == "seat" else fixed_bank_rules(resolved)
        self.num_seats = num_seats
        self.table_hands = table_hands
        self.illegal_reward = checked_illegal_reward(illegal_reward)
        self.observation_type = check_observation_type(observation_type)
        self.seat_choice = _seat(seat, "seat", num_seats)
        self.bank_choice = _seat(bank, "bank", num_seats)
        if view == "player" and self.seat_choice != _RANDOM \
                and self.seat_choice == self.bank_choice:
            raise ValueError(f"seat={seat} and bank={bank}: the learner of the Player view "
                             f"never holds the bank; choose different seats")
        self.tables = make_tables(self.rules, num_seats, num_envs, max_hands=table_hands,
                                  engine=engine,
                                  information_state=observation_type == INFORMATION_STATE)
        if observation_type == INFORMATION_STATE:
            low, high = information_state_bounds(self.rules, num_seats)
        else:
            low, high = observation_bounds(num_seats)
        super().__init__(num_envs, spaces.Box(low=low, high=high, dtype=np.float32),
                         spaces.Discrete(self.tables.layout.size))
        self._opponents = _Opponents(_sources(opponents, self.rules), num_envs, num_seats)
        self._turns = TableTurns(self.tables) if compiled_turns and observation_type == \
            "observation" and isinstance(self.tables, BatchEngine) else None
        """The compiled opponents' turns (:meth:`_play`), where they can be played."""
        b = num_envs
        self.learner = np.zeros(b, dtype=np.int64)
        """The learner's seat at every table in the current episode."""
        self.table_bank = np.full(b, -1, dtype=np.int64)
        self._hand = np.full(b, -1, dtype=np.int64)
        self._need_table = np.ones(b, dtype=bool)
        self._one_hand = np.arange(b) < round(one_hand_tables * b)
        """The tables dealt afresh after every hand (``one_hand_tables``)."""
        self._masks = np.zeros((b, self.tables.layout.size), dtype=bool)
        self._patterns = _MaskRows()
        self._mask_rows = self._patterns.rows(self._masks)
        """The rows of ``_masks``: the step's infos and ``env_method`` hand them out."""
        self._actions = np.zeros(b, dtype=np.int64)
        self._rows = np.arange(b)
        self._rng = np.random.default_rng()
        self._next_seed = checked_seed(seed)
        self._dealt = False
        """Whether :meth:`reset` has dealt the tables (a step before it has no table to play)."""

    # -------------------------------------------------------------- VecEnv
    def seed(self, seed: int | None = None) -> Sequence[int | None]:
        """Seed the next :meth:`reset` (fresh tables, every draw repeatable; module docstring)."""
        if seed is None:
            seed = int(np.random.SeedSequence().generate_state(1)[0])
        self._next_seed = checked_seed(seed)
        return [self._next_seed] * self.num_envs

    def reset(self) -> np.ndarray:
        """The learners' observations at the first decision of a new episode at every table."""
        if self._next_seed is not None:
            self._rng = np.random.default_rng(self._next_seed)
            self._opponents.reseed(self._next_seed)
            self._need_table[:] = True
            self._next_seed = None
        self._start(self._rows)
        self._refresh_masks()
        self._dealt = True
        return self._observe()

    def step_async(self, actions: np.ndarray) -> None:
        if not self._dealt:
            raise ResetNeeded("step() before reset(): call reset() first, which deals the "
                              "tables")
        acts = np.asarray(actions)
        if acts.shape != (self.num_envs,) or acts.dtype.kind not in "iu":
            raise ValueError(f"actions must be {self.num_envs} action indices (integers "
                             f"0..{self.tables.layout.size - 1}), got {acts.dtype} of shape "
                             f"{acts.shape}")
        self._actions = acts.astype(np.int64)

    def step_wait(self) -> VecEnvStepReturn:
        acts = self._actions
        legal = (acts >= 0) & (acts < self._masks.shape[1])
        legal[legal] = self._masks[legal, acts[legal]]
        moved = np.flatnonzero(legal)
        rewards = np.zeros(self.num_envs)  # summed in float64 as the views sum them
        self._play(moved, acts[moved], rewards)
        illegal = ~legal
        rewards[illegal] = self.illegal_reward
        self._need_table |= illegal
        dones = illegal | self._episode_over()
        ended = np.flatnonzero(dones)
        if ended.size:
            terminal = self._observe(ended)
            terminal_masks = self._patterns.rows(self._learner_masks(ended))
            self._start(ended)
        obs = self._observe()
        self._refresh_masks()
        # one fresh dict per table (SB3's contract: a VecMonitor adds to them) holding its
        # row of this step's masks; an ended table's, the episode's last observation and mask
        infos: list[dict[str, Any]] = [{"action_mask": mask} for mask in self._mask_rows]
        if ended.size:
            for t, last, mask in zip(ended.tolist(), terminal, terminal_masks):
                infos[t] = {"action_mask": mask, "terminal_observation": last}
        for t in np.flatnonzero(illegal).tolist():
            infos[t]["illegal_action"] = int(acts[t])
        return obs, rewards.astype(np.float32), dones, infos

    def action_masks(self) -> np.ndarray:
        """``(num_envs, A)`` bool: every learner's legal actions now (MaskablePPO)."""
        return self._masks.copy()

    def get_action_meanings(self) -> list[str]:
        """The name of every action index (``stand``, ``hit``, ``bet_1``, …)."""
        return list(self.tables.layout.names)

    def close(self) -> None:
        """Nothing to release: the tables are arrays of this process."""

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        """``learner`` per table; any other attribute is the view's, the same at every table."""
        rows = self._get_indices(indices)
        if attr_name == "learner":
            return [int(self.learner[i]) for i in rows]
        return [getattr(self, attr_name)] * len(list(rows))

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        """Set a setting of the view (``illegal_reward``); it is one for every table."""
        if attr_name != "illegal_reward" or len(list(self._get_indices(indices))) \
                != self.num_envs:
            raise AttributeError(f"set_attr({attr_name!r}): only 'illegal_reward' can be set, "
                                 f"and for every table at once")
        self.illegal_reward = checked_illegal_reward(value)

    def env_method(self, method_name: str, *method_args: Any, indices: VecEnvIndices = None,
                   **method_kwargs: Any) -> list[Any]:
        """``action_masks`` (one row per table, MaskablePPO) or ``get_action_meanings``."""
        rows = self._get_indices(indices)
        if method_name == "action_masks":
            return list(self._mask_rows) if indices is None \
                else [self._mask_rows[i] for i in rows]
        if method_name == "get_action_meanings":
            return [self.get_action_meanings() for _ in rows]
        raise AttributeError(f"env_method({method_name!r}): the tables offer 'action_masks' "
                             f"and 'get_action_meanings'")

    def env_is_wrapped(self, wrapper_class: type, indices: VecEnvIndices = None) -> list[bool]:
        return [False for _ in self._get_indices(indices)]

    # --------------------------------------------------------------- tables
    def _observe(self, rows: np.ndarray | None = None) -> np.ndarray:
        """The learners' vectors (observation or information state) at ``rows`` (every table
        when None)."""
        seats = self.learner if rows is None else self.learner[rows]
        if self.observation_type == INFORMATION_STATE:
            return self.tables.information_state(seats, tables=rows)
        return self.tables.observe(seats, tables=rows)

    def _learner_masks(self, rows: np.ndarray) -> np.ndarray:
        """``(k, A)`` bool: the learner's legal actions at ``rows`` where it is to act, else
        none (the views' ``info["action_mask"]``, also at the end of an episode)."""
        tables = self.tables
        acts = (tables.actor[rows] == self.learner[rows]) & ~tables.over[rows]
        return (tables.masks()[rows] != 0) & acts[:, None]

    def _refresh_masks(self) -> None:
        """After :meth:`_start`, every table's actor is its learner: its mask is the learner's
        (also as :class:`_MaskRows`' shared rows, for the infos and ``env_method``)."""
        self._masks = self.tables.masks() != 0
        self._mask_rows = self._patterns.rows(self._masks)

    def _episode_over(self) -> np.ndarray:
        """A hand (Player, Bank) or the table (Seat) has ended, at every table."""
        tables = self.tables
        if self.view == "seat":
            return tables.over.copy()
        return tables.over | (tables.hands_played != self._hand)

    def _draw_seats(self, choice: int, among: np.ndarray) -> np.ndarray:
        """One index per row of ``among`` (``(k, S)`` bool, each row some True): ``choice``
        when fixed, else uniformly drawn among the row's True entries, counted in order."""
        if choice != _RANDOM:
            return np.full(len(among), choice, dtype=np.int64)
        counts = among.sum(axis=1)
        picks = self._rng.integers(counts)
        if among.all():  # every seat a choice: the pick is the seat
            return picks.astype(np.int64)
        ranks = np.cumsum(among, axis=1) - 1
        return np.argmax(among & (ranks == picks[:, None]), axis=1).astype(np.int64)

    def _new_tables(self, rows: np.ndarray) -> None:
        """Deal fresh tables at ``rows`` and fix their seats (bank, learner, opponents)."""
        k, n = len(rows), self.num_seats
        if self.view == "player":
            others = np.ones((k, n), dtype=bool)
            if self.seat_choice != _RANDOM:
                others[:, self.seat_choice] = False
            self.table_bank[rows] = self._draw_seats(self.bank_choice, others)
            seeds = self._rng.integers(2**31 - 1, size=k)
            self.tables.reset(seeds, tables=rows, banks=self.table_bank[rows])
            return
        self.learner[rows] = self._draw_seats(self.seat_choice, np.ones((k, n), dtype=bool))
        seeds = self._rng.integers(2**31 - 1, size=k)
        if self.view == "bank":
            self.tables.reset(seeds, tables=rows, banks=self.learner[rows])
        else:
            self.tables.reset(seeds, tables=rows)
            self._opponents.draw(self._rng, rows, self.learner)

    def _players(self, rows: np.ndarray) -> np.ndarray:
        """``(k, S)`` bool: the hand's players at ``rows`` in turn order (``Engine.order``):
        entry ``i`` is seat ``bank + i`` (mod S), so entry 0, the bank, is no player."""
        n = self.num_seats
        seats = (self.tables.bank[rows, None] + np.arange(n)) % n
        return np.take_along_axis(self.tables.in_hand[rows], seats, axis=1)

    def _playable(self, rows: np.ndarray) -> np.ndarray:
        """Whether the learner can play the current hand at ``rows`` in its role.

        A live hand always has a player (RULES.md §5: a bank needs someone to play
        against), so only a fixed learner seat needs the hand's players.
        """
        tables = self.tables
        live = ~tables.over[rows]
        if self.view == "player":
            ok = live & (tables.bank[rows] == self.table_bank[rows])
            if self.seat_choice != _RANDOM:
                ok &= tables.in_hand[rows, self.seat_choice]
            return ok
        if self.view == "bank":
            return live & (tables.bank[rows] == self.learner[rows])
        return np.ones(len(rows), dtype=bool)

    def _start(self, rows: np.ndarray) -> None:
        """Play on at ``rows`` to the learner's first decision of the next episode."""
        if self.view == "seat":
            self._need_table[rows] = True
        tables = self.tables
        pending = rows
        for _attempt in range(_MAX_TABLES):
            fresh = pending[self._need_table[pending] | tables.over[pending]
                            | (self._one_hand[pending] & (tables.hands_played[pending] > 0))]
            if fresh.size:
                self._new_tables(fresh)
                self._need_table[fresh] = False
            self._hand[pending] = tables.hands_played[pending]
            playable = self._playable(pending)
            self._need_table[pending[~playable]] = True
            ready = pending[playable]
            if self.view == "player" and ready.size:
                if self.num_seats == 2 and self.seat_choice == _RANDOM:  # the one player
                    self.learner[ready] = 1 - self.table_bank[ready]
                elif self.seat_choice == _RANDOM:
                    turn = self._draw_seats(_RANDOM, self._players(ready))
                    self.learner[ready] = (tables.bank[ready] + turn) % self.num_seats
                else:
                    self.learner[ready] = self.seat_choice
            if self.view != "seat" and ready.size:
                self._opponents.draw(self._rng, ready, self.learner)
            self._play(ready[tables.actor[ready] != self.learner[ready]], None, None)
            waiting = (tables.actor[pending] == self.learner[pending]) \
                & ~self._episode_over()[pending] & playable
            pending = pending[~waiting]
            if not pending.size:
                return
        raise RuntimeError(f"{_MAX_TABLES} tables in a row gave the learner no decision; "
                           f"check the rules and the number of seats")

    def _play(self, rows: np.ndarray, actions: np.ndarray | None,
              rewards: np.ndarray | None) -> None:
        """The learners' ``actions`` at ``rows`` (None: none), then the other seats until each
        table waits for its learner or its episode ends; the learner's rewards meanwhile
        go to ``rewards`` (None: nowhere). In one compiled call where every opponent is a
        baseline with a kernel (:mod:`agents.batch_turns`), with the Python loop taking
        over any table it leaves; else by the Python loop."""
        if not rows.size:
            return
        tables = self.tables
        turns = self._turns
        policies = None if turns is None else self._opponents.turn_policies(self.num_seats)
        if turns is not None and policies is not None:
            opponents = self._opponents
            gained, left = turns.play(
                rows, np.full(len(rows), -1) if actions is None else actions, self.learner,
                None if self.view == "seat" else self._hand, opponents.seat,
                opponents.bank if opponents.split_roles else None, policies)
            if rewards is not None:
                rewards[rows] = gained
            if left.any():
                self._play_opponents(rows[left], rewards)
            return
        if actions is not None:
            tables.step(actions, tables=rows)
            if rewards is not None:
                rewards[rows] = tables.rewards[rows, self.learner[rows]]
        self._play_opponents(rows, rewards)

    def _play_opponents(self, rows: np.ndarray, rewards: np.ndarray | None) -> None:
        """Let the other seats act at ``rows`` until each waits for its learner or its
        episode ends, deciding in Python for every round of turns; add the learner's
        rewards meanwhile to ``rewards``."""
        tables = self.tables
        active = np.zeros(self.num_envs, dtype=bool)
        active[rows] = True
        while True:
            active &= ~tables.over & (tables.actor != self.learner) & ~self._episode_over()
            acting = np.flatnonzero(active)
            if not acting.size:
                return
            seats = tables.actor[acting]
            actions = self._opponents.act(acting, seats, tables.bank[acting],
                                          tables.observe(seats, tables=acting),
                                          tables.masks()[acting])
            tables.step(actions, tables=acting)
            if rewards is not None:
                rewards[acting] += tables.rewards[acting, self.learner[acting]]


class _MaskRows:
    """Rows of masks as shared read-only arrays, one per pattern of legal actions.

    A step hands out a mask per table, in its info and through
    ``env_method("action_masks")``. Thousands of tables show a handful of
    patterns, so each pattern is one read-only array, made the first time it is
    seen and handed to every table that shows it, at every step: no array object
    is made or freed per table (which, with its info, was most of the Python
    side of a step).
    """

    def __init__(self) -> None:
        self._known = np.zeros(0, dtype=np.uint64)
        """The patterns met so far, each as its key (:func:`_pattern_keys`), sorted."""
        self._shared = np.zeros(0, dtype=object)
        """The read-only array of each of ``_known``."""

    def rows(self, masks: np.ndarray) -> list[np.ndarray]:
        """``masks`` (``(k, A)`` bool) as ``k`` read-only arrays, equal rows the same object."""
        keys = _pattern_keys(masks)
        known = self._known
        at = np.searchsorted(known, keys)
        if not len(known) or (known[np.minimum(at, len(known) - 1)] != keys).any():
            self._meet(masks, keys)
            at = np.searchsorted(self._known, keys)
        return self._shared[at].tolist()

    def _meet(self, masks: np.ndarray, keys: np.ndarray) -> None:
        """Add the patterns of ``masks`` not met before (all afresh past :data:`_MAX_PATTERNS`)."""
        arrays = {} if len(self._known) >= _MAX_PATTERNS or self._known.dtype != keys.dtype \
            else dict(zip(self._known.tolist(), self._shared.tolist()))
        new, first = np.unique(keys, return_index=True)
        for key, row in zip(new.tolist(), first.tolist()):
            if key not in arrays:
                array = arrays[key] = masks[row].copy()
                array.flags.writeable = False
        known = np.array(list(arrays), dtype=keys.dtype)
        order = np.argsort(known, kind="stable")
        self._known = known[order]
        shared = np.empty(len(arrays), dtype=object)
        for j, array in enumerate(arrays.values()):  # one by one: no broadcast of their rows
            shared[j] = array
        self._shared = shared[order]


def _pattern_keys(masks: np.ndarray) -> np.ndarray:
    """One sortable key a row of ``masks`` (``(k, A)`` bool), equal only for equal rows: its
    bits, padded to whole 64-bit words, as a number (up to 64 actions) or as bytes."""
    k, size = masks.shape
    words = -(-size // 64)
    wide = np.zeros((k, 64 * words), dtype=bool)
    wide[:, :size] = masks
    bits = np.packbits(wide.reshape(-1))  # one pass over the whole block: rows stay whole bytes
    return bits.view(np.uint64 if words == 1 else np.dtype((np.void, 8 * words)))


_MAX_PATTERNS = 4096
"""Patterns :class:`_MaskRows` keeps before starting afresh (the rules make far fewer)."""


class _Opponents:
    """Who plays every other seat at every table, and their batched decisions.

    ``sources`` maps ``"bank"`` and ``"players"`` to a policy or a pool (as
    :func:`envs.single_seat._sources` resolves the views' ``opponents``). When
    they are different objects, whoever holds the bank plays the bank's;
    otherwise each seat keeps its policy in every role (:class:`envs.seat_play.SeatPlay`).
    Policies are numbered as first met; ``seat[t, s]`` and ``bank[t]`` are numbers.
    """

    def __init__(self, sources: dict[str, Any], num_tables: int, num_seats: int) -> None:
        self.bank_source, self.player_source = sources["bank"], sources["players"]
        self.split_roles = self.bank_source is not self.player_source
        self.pooled = any(hasattr(s, "sample") for s in (self.bank_source, self.player_source))
        self.policies: list[Any] = []
        self.batched: list[Any] = []
        self._numbers: dict[int, int] = {}
        self._described: tuple[int, TurnPolicies | None] = (-1, None)
        """How many policies :meth:`turn_policies` last described, and what it gave."""
        self.seat = np.full((num_tables, num_seats), self._number(self.player_source),
                            dtype=np.int64)
        self.bank = np.full(num_tables, self._number(self.bank_source), dtype=np.int64)

    def _number(self, policy: Any) -> int:
        """The number of ``policy`` (a pool's number is never used: it is drawn first)."""
        key = id(policy)
        if key not in self._numbers:
            self._numbers[key] = len(self.policies)
            self.policies.append(policy)
            if type(policy) is DealerRule:  # the built-in dealer is the threshold agent's rule
                policy = ThresholdAgent(policy.threshold)
            self.batched.append(batch_policy(policy) if hasattr(policy, "act") else None)
        return self._numbers[key]

    def turn_policies(self, num_seats: int) -> TurnPolicies | None:
        """The policies met so far as the compiled turns read them (:func:`agents.batch_turns.
        turn_policies`), or None when one has no kernel there."""
        if self._described[0] != len(self.policies):
            pools = [hasattr(p, "sample") for p in self.policies]
            self._described = (len(self.policies),
                               turn_policies(self.batched, num_seats, pools))
        return self._described[1]

    def reseed(self, seed: int) -> None:
        """Reseed every policy with ``seed(int)`` from ``seed``, as the views do."""
        seeder = np.random.default_rng(seed)
        sources = {id(s): s for s in (self.bank_source, self.player_source)}
        for source in sources.values():
            for policy in getattr(source, "members", [source]):
                if hasattr(policy, "seed"):
                    policy.seed(int(seeder.integers(2**31 - 1)))

    def _draw(self, rng: np.random.Generator, source: Any, count: int) -> np.ndarray:
        """``count`` policy numbers drawn from ``source`` (a policy: itself)."""
        if type(source) in _UNIFORM_POOLS:
            members = np.array([self._number(m) for m in source.members], dtype=np.int64)
            return members[rng.integers(len(members), size=count)]
        if hasattr(source, "sample"):
            return np.array([self._number(source.sample(rng)) for _ in range(count)],
                            dtype=np.int64)
        return np.full(count, self._number(source), dtype=np.int64)

    def draw(self, rng: np.random.Generator, rows: np.ndarray, learner: np.ndarray) -> None:
        """The policies of the episode at ``rows``: one per seat but the learner's, then one
        for the bank role (split roles), every table's in turn, seat by seat."""
        if not self.pooled:
            return
        seats = self.seat.shape[1]
        others = np.arange(seats)[None, :] != learner[rows, None]
        drawn = self._draw(rng, self.player_source, int(others.sum()))
        block = self.seat[rows]
        block[others] = drawn
        self.seat[rows] = block
        if self.split_roles:
            self.bank[rows] = self._draw(rng, self.bank_source, len(rows))

    def act(self, rows: np.ndarray, seats: np.ndarray, banks: np.ndarray,
            observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """The actions of ``seats`` at the tables ``rows``, each policy asked once for its rows."""
        numbers = self.seat[rows, seats]
        if self.split_roles:
            numbers = np.where(seats == banks, self.bank[rows], numbers)
        if len(numbers) and (numbers == numbers[0]).all():  # one policy: no rows to pick
            actions = self._decide(int(numbers[0]), observations, masks)
        else:
            actions = np.empty(len(rows), dtype=np.int64)
            for number in np.unique(numbers).tolist():
                pick = numbers == number
                actions[pick] = self._decide(number, observations[pick], masks[pick])
        legal = (actions >= 0) & (actions < masks.shape[1])
        legal[legal] = masks[legal, actions[legal]] != 0
        if not legal.all():
            i = int(np.flatnonzero(~legal)[0])
            raise ValueError(f"opponent {self.policies[int(numbers[i])]!r} at table "
                             f"{int(rows[i])}, seat {int(seats[i])} chose illegal action "
                             f"{int(actions[i])}; legal: {np.flatnonzero(masks[i]).tolist()}")
        return actions

    def _decide(self, number: int, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """Policy ``number``'s actions on these rows: batched, or ``act`` row by row."""
        batched = self.batched[number]
        if batched is not None:
            return np.asarray(batched.act_batch(observations, masks), dtype=np.int64)
        policy = self.policies[number]
        return np.array([policy.act(o, m) for o, m in zip(observations, masks)],
                        dtype=np.int64)


def _seat(value: int | str, name: str, num_seats: int) -> int:
    """A ``seat``/``bank`` choice: a seat, or ``_RANDOM`` for ``"random"``."""
    if value == "random":
        return _RANDOM
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) \
            or not 0 <= value < num_seats:
        raise ValueError(f"{name}={value!r} must be 'random' or a seat 0..{num_seats - 1}")
    return int(value)
