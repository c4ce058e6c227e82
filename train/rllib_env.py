"""The full game as an RLlib ``MultiAgentEnv``: many tables at once, one agent per seat and hand.

One env steps ``num_tables`` tables of the whole game (RULES.md §2–§5: the
bank rotates, chips carry over, up to ``table_hands`` hands a table) through
:func:`envs.batch.make_tables` — the compiled batch engine where it plays the
rules, the scalar engine (one :class:`envs.engine.Engine` per table) elsewhere.
Every step acts at every table still in its hand at once.

**An episode is one round of hands**: every table plays its next hand, and
the episode ends when each has settled it (a table whose hand is over waits
for the others). The next reset goes on with each table's next hand — the
same shoe, chips and bank rotation — and deals a fresh table where one is
over. Short episodes keep RLlib's per-episode bookkeeping, which grows with
the number of agents in an episode, small.

**Agents follow the bank.** RLlib maps an agent id to a policy once per
episode and keeps it, so an id that changed role mid-episode would go on
training the wrong policy. An agent here is one seat's part in one hand
(an episode) in one role: ``player-t<table>-s<seat>`` or ``bank-t<table>-s<seat>``.
The ids come back every episode, so RLlib's per-agent metrics stay bounded
(``2 x tables x seats`` of them); the mapping is made afresh each episode
and, the role being in the id, is always the same. The role is the bank's
seat at that moment (``TableBatch.bank``), so the mapping
:func:`policy_for` — the id's first word — sends every player seat to the
shared ``player`` policy and whichever seat holds the bank to ``bank``, and
stays right as the bank moves (§5). A seat offered the bank between hands
(the ``transfer`` phase) decides as a player; one that takes it plays the
hand as the bank, a new agent. This is also what a hand is for the
single-seat views: one episode per hand per seat, whose return is the net
chips of the hand.

**Rewards.** What a step settles (``TableBatch.rewards``, net chips in units
of ``min_bet``) is summed per seat over the hand, and when the hand is over
(``hands_played`` moves on, or the table ends) each agent of that hand gets
its seat's sum; a seat with two agents in one hand (a player who took the
bank) gives the sum to the later one. ``terminated`` follows one step later,
when the next hand's agents already play: RLlib ends an episode whose every
known agent is done, so a table's last agents must not all end in the step
that brings on the next hand's (the env ends with ``__all__``). Every agent that
gets an observation also gets a reward entry (0 until its hand ends), as
RLlib's new API stack requires. A seat that never had to decide in a hand
has no agent in it: nothing it could have learned from.

**Observations** are RLlib's masking layout, ``{"observations": vector,
"action_mask": 0/1 floats}`` (:mod:`train.rllib_module`), where ``vector``
is the seat's observation (:mod:`envs.observer`; bit-identical to the scalar
engine's) or, with ``observation_type="information_state"``, its
information state (RULES.md §8.10).

**Seeds.** ``reset(seed=s)`` deals every table afresh, its seed drawn from
``numpy.random.default_rng(s)``; a fresh table on a reset without a seed
draws from that generator too (first made from ``config["seed"]``). The
same seed and the same actions give the same hands at every table.

**RLlib's env pre-check** samples actions from the action space without
the mask, which the engine rightly refuses; :func:`check_legal_play` plays
the env with legal random actions instead, and the trainer turns RLlib's
check off (``disable_env_checking``) and runs this one.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from ray.rllib.env.multi_agent_env import MultiAgentEnv

from envs.batch import make_tables
from envs.information_state import (INFORMATION_STATE, check_observation_type,
                                     information_state_bounds)
from envs.observer import observation_bounds
from envs.rules import Rules

ROLES = ("player", "bank")
"""The policies: every player seat shares ``player``; the seat holding the bank plays ``bank``."""
_SEED_RANGE = 2**31 - 1


def policy_for(agent_id: str, episode: Any = None, **kwargs: Any) -> str:
    """RLlib's ``policy_mapping_fn``: the policy of an agent is the role its id names."""
    role = str(agent_id).split("-", 1)[0]
    if role not in ROLES:
        raise ValueError(f"agent id {agent_id!r} names no role; ids start with "
                         f"{' or '.join(ROLES)}")
    return role


def agent_id(role: str, table: int, seat: int) -> str:
    """The id of ``seat``'s part in this episode's hand at ``table`` as ``role`` (module
    docstring)."""
    return f"{role}-t{table}-s{seat}"


def spaces(rules: Rules | str, num_seats: int, observation_type: str = "observation"
           ) -> tuple[gym.spaces.Dict, gym.spaces.Discrete]:
    """The observation space (RLlib's masking layout) and action space of every agent."""
    resolved = Rules.resolve(rules)
    if check_observation_type(observation_type) == INFORMATION_STATE:
        low, high = information_state_bounds(resolved, num_seats)
    else:
        low, high = observation_bounds(num_seats)
    actions = make_tables(resolved, num_seats, 1, max_hands=1, engine="reference").layout.size
    observation = gym.spaces.Dict({
        "observations": gym.spaces.Box(low=low, high=high, dtype=np.float32),
        "action_mask": gym.spaces.Box(0.0, 1.0, shape=(actions,), dtype=np.float32)})
    return observation, gym.spaces.Discrete(actions)


class SetteTablesEnv(MultiAgentEnv):
    """``num_tables`` tables of the whole game as one RLlib multi-agent env (module docstring).

    ``config`` (RLlib's ``env_config``): ``rules`` (preset or file, default
    ``catalan``), ``num_seats`` (4), ``num_tables`` (16), ``table_hands`` (10),
    ``observation_type`` (``observation``), ``engine`` (``auto``, as
    :func:`envs.batch.make_tables`) and ``seed`` (the generator's first seed).
    """

    def __init__(self, config: dict[str, Any] | None = None) -> None:
        super().__init__()
        c = dict(config or {})
        unknown = set(c) - {"rules", "num_seats", "num_tables", "table_hands",
                            "observation_type", "engine", "seed"}
        if unknown:
            raise ValueError(f"SetteTablesEnv: unknown env_config keys {sorted(unknown)}; "
                             f"known: rules, num_seats, num_tables, table_hands, "
                             f"observation_type, engine, seed")
        self.rules = Rules.resolve(c.get("rules", "catalan"))
        self.num_seats = int(c.get("num_seats", 4))
        self.num_tables = int(c.get("num_tables", 16))
        self.table_hands = int(c.get("table_hands", 10))
        if self.num_tables < 1 or self.table_hands < 1:
            raise ValueError(f"SetteTablesEnv: num_tables={self.num_tables} and table_hands="
                             f"{self.table_hands} must both be at least 1")
        self.observation_type = check_observation_type(c.get("observation_type",
                                                             "observation"))
        self.tables = make_tables(self.rules, self.num_seats, self.num_tables,
                                  max_hands=self.table_hands, engine=c.get("engine", "auto"),
                                  information_state=self.observation_type
                                  == INFORMATION_STATE)
        observation, action = spaces(self.rules, self.num_seats, self.observation_type)
        # One space for every id: RLlib asks for the ids' spaces through these.
        self.possible_agents = list(ROLES)
        self.agents: list[str] = []
        self.observation_spaces = {role: observation for role in ROLES}
        self.action_spaces = {role: action for role in ROLES}
        self._observation_space, self._action_space = observation, action
        self._rng = np.random.default_rng(c.get("seed"))
        b, s = self.num_tables, self.num_seats
        self._acting: list[str | None] = [None] * b
        self._live: list[dict[int, str]] = [{} for _ in range(b)]
        self._hand_rewards = np.zeros((b, s), dtype=np.float64)
        self._masks = np.zeros((b, self.tables.layout.size), dtype=np.int8)
        self._ended: list[str] = []
        self._closing: list[str] = []
        self._gone: set[str] = set()
        self._started = False
        self._playing = np.zeros(b, dtype=bool)

    def get_observation_space(self, agent_id: Any) -> gym.Space:
        return self._observation_space

    def get_action_space(self, agent_id: Any) -> gym.Space:
        return self._action_space

    # ------------------------------------------------------------ the env
    def reset(self, *, seed: int | None = None, options: dict | None = None
              ) -> tuple[dict[str, Any], dict[str, Any]]:
        """The next round of hands: every table's next hand; a table that is over, or every
        table on the first reset or one with ``seed``, is dealt afresh (module docstring)."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        fresh = np.arange(self.num_tables) if seed is not None or not self._started \
            else np.flatnonzero(self.tables.over)
        if len(fresh):
            seeds = self._rng.integers(0, _SEED_RANGE, size=len(fresh), dtype=np.int64)
            self.tables.reset(seeds, tables=fresh)
        self._started = True
        self._playing = ~self.tables.over
        self._live = [{} for _ in range(self.num_tables)]
        self._hand_rewards[:] = 0.0
        self._acting = [None] * self.num_tables
        self._ended, self._closing, self._gone = [], [], set()
        observations = self._observe()
        self.agents = list(observations)
        return observations, {}

    def step(self, action_dict: dict[str, Any]) -> tuple[dict, dict, dict, dict, dict]:
        rows = np.flatnonzero(self._playing)
        acting = [str(self._acting[t]) for t in rows]
        missing = [aid for aid in acting if aid not in action_dict]
        if missing:
            raise ValueError(f"SetteTablesEnv.step: no action for {missing[:4]}; every agent "
                             f"returned by the last reset/step acts")
        actions = np.array([int(action_dict[aid]) for aid in acting], dtype=np.int64)
        before = self.tables.hands_played.copy()
        self.tables.step(actions, tables=rows)
        self._hand_rewards += self.tables.rewards
        # Agents whose hand ended at the last step are done now (module docstring).
        rewards: dict[str, float] = {aid: 0.0 for aid in self._closing}
        terminateds: dict[str, bool] = {aid: True for aid in self._closing}
        self._closing = []
        ended = self._playing & ((self.tables.hands_played != before) | self.tables.over)
        for t in np.flatnonzero(ended):
            for seat, aid in self._live[t].items():
                rewards[aid] = float(self._hand_rewards[t, seat])
                self._closing.append(aid)
            self._live[t] = {}
        self._playing &= ~ended
        observations = self._observe()
        for aid in self._ended:
            rewards[aid] = 0.0
            self._closing.append(aid)
        self._ended = []
        for aid in observations:
            rewards.setdefault(aid, 0.0)
        over = not self._playing.any()
        if over:
            terminateds.update((aid, True) for aid in self._closing)
            self._closing = []
        self._gone.update(aid for aid, done in terminateds.items() if done)
        terminateds["__all__"] = over
        self.agents = list(observations)
        return observations, rewards, terminateds, {"__all__": False}, {}

    def _observe(self) -> dict[str, dict[str, np.ndarray]]:
        """The acting agent of every table still in its hand, with its observation and mask."""
        rows = np.flatnonzero(self._playing)
        if not len(rows):
            return {}
        seats = self.tables.actor[rows]
        if self.observation_type == INFORMATION_STATE:
            vectors = self.tables.information_state(seats, tables=rows)
        else:
            vectors = self.tables.observe(seats, tables=rows)
        masks = self.tables.masks(out=self._masks)[rows].astype(np.float32)
        out = {}
        for i, t in enumerate(rows):
            seat = int(seats[i])
            role = "bank" if seat == int(self.tables.bank[t]) else "player"
            previous = self._live[t].get(seat)
            aid = agent_id(role, int(t), seat)
            if previous is not None and previous.split("-", 1)[0] == role:
                aid = previous
            elif previous is not None:
                # The seat took (or gave up) the bank between hands: its part so far ends
                # unrewarded, and a new part in its new role begins.
                self._ended.append(previous)
            parts = 1
            while aid in self._gone or aid in self._ended:  # an id is never used twice
                parts += 1
                aid = f"{agent_id(role, int(t), seat)}-{parts}"
            self._live[t][seat] = aid
            self._acting[t] = aid
            out[aid] = {"observations": vectors[i].copy(), "action_mask": masks[i]}
        return out


def check_legal_play(env: SetteTablesEnv, seed: int = 0, steps: int = 200) -> int:
    """Play ``env`` with random legal actions for up to ``steps`` steps; return agent steps.

    What RLlib's pre-check does, with the mask honoured (module docstring):
    every observation lies in the agent's space and holds at least one legal
    action, every reward is a number, and an episode ends with ``__all__``.
    """
    rng = np.random.default_rng(seed)
    observations, _ = env.reset(seed=seed)
    acted = 0
    for _ in range(steps):
        for aid, obs in observations.items():
            if not env.get_observation_space(aid).contains(obs):
                raise ValueError(f"observation of {aid} is outside its space")
            if not obs["action_mask"].any():
                raise ValueError(f"{aid} has no legal action")
        actions = {aid: int(rng.choice(np.flatnonzero(obs["action_mask"])))
                   for aid, obs in observations.items()}
        acted += len(actions)
        observations, rewards, terminateds, _, _ = env.step(actions)
        if not all(np.isfinite(r) for r in rewards.values()):
            raise ValueError("a reward is not a finite number")
        if terminateds["__all__"]:
            observations, _ = env.reset()
    return acted
