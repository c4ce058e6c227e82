"""
# Sette e mezzo

| Import             | `from envs import sette_e_mezzo_v0`                   |
|--------------------|-------------------------------------------------------|
| Registry id        | `pettingzoo.make("aec", "sette/sette_e_mezzo-v0")`    |
| Actions            | Discrete                                              |
| Parallel API       | No                                                    |
| Manual control     | No                                                    |
| Agents             | `agents= ['player_0', ..., 'player_{n-1}']`           |
| Agents             | 2–16 (more than 8 need `decks` >= 2)                  |
| Action shape       | (1,)                                                  |
| Action values      | Discrete(14 + 10 x len(bet_ladder)) (54 by default)   |
| Observation shape  | (32 + 29 x num_seats,) (default `observation_type`)   |

The Spanish / Italian banking card game played with a 40-card deck: draw
towards 7½ without going over, against a bank that rotates between the
seats. Every rule follows `RULES.md`; the rule switches and presets are in
`envs.rules`.

## Agents and roles
Agents are the seats `player_0 … player_{n-1}`. The **bank** is a role that
moves between the seats (RULES.md §5); which seat holds it, and for how many
hands in a row, is part of every observation. An episode is `max_hands`
hands (or fewer, when fewer than two seats can still play).

## Action space
One `Discrete` space for every seat and phase, with a fixed layout
(`env.unwrapped.get_action_meanings()` names each index):

| index | name | when |
|-------|------|------|
| 0 | `stand` | player's or bank's turn |
| 1 | `hit` | player's or bank's turn, while a card can be drawn |
| 2 | `reveal_hit` | `hidden_cards = "player_choice"`, holding a face-down card |
| 3 | `take_bank` | offered the bank after a 7½ (`offer`) or by a bank selling it |
| 4 | `refuse_bank` | refusing the bank, or waiving the right to claim it |
| 5 | `claim_bank` | entitled to the bank after a 7½ (`bank_transfer = "right"`) |
| 6 | `double` | §6 double: one card only, stake doubled |
| 7 | `split` | §6 split / abrirse |
| 8 | `change_four` | §6 optional change of an initial 4 |
| 9 | `mort` | §6 accept the Mort on an initial 7 |
| 10 | `decline` | §6 decline the Mort |
| 11 | `fusilar` | §6 shoot on an initial 7 |
| 12 | `pass` | no bid, no side bet, keep the bank |
| 13 | `sell_bank` | §5 bank_sale: offer the bank to the next seat |
| 14… | `bet_<k>` | stake k x `min_bet` (`bet_ladder`) |
| … | `raise_<k>` | raise by k x `min_bet` (`bet_raise`) |
| … | `bid_<k>` | auction bid for the first bank (`first_bank = "auction"`) |
| … | `side_bet_<o>_<k>` | §6 side bet on the hand of the seat o places on |

`observation["action_mask"]` marks the legal actions exactly; every other
seat's mask is all zeros.

## Observation space
A dict with `"observation"`: `Box(float32)` and `"action_mask"`: `Box(int8)`.
The vector holds exactly what the seat may see (RULES.md §4): its own cards
(face-down ones too, but never a Mort, fusilar or secret card before the bank
has finished), every other hand's face-up cards and its number of face-down
cards, statuses (declared 7½ included), split hands, bets and stacks, who
holds the bank, the jackpot, the matta's value once shown, the cards seen
since the last shuffle by rank and how many are left in the shoe. Seats are ordered relative to the observer. `envs.observer` documents
every slice; `env.unwrapped.observation_slices` maps name → slice.

With `observation_type="information_state"` the vector is the seat's
information state instead (RULES.md §8.10): that observation followed by the
current hand's history in order as the seat saw it — bets and raises when
made, each card as it came, reveals, stands, busts, splits, bank transfers —
in fixed-size one-hot slots (`envs.information_state`,
docs/INFORMATION_STATE.md). The mask is the same either way.

## Rewards
When a hand is settled every seat, bank included, receives its net chips won
or lost in that hand divided by `min_bet`; when a bank is bought at auction
(`first_bank = "auction"`) the price moves at that step and is rewarded there. The jackpot ante paid that hand
counts as a loss and a jackpot won as a gain; chips left in the pot when the
episode ends belong to nobody. Bank-transfer decisions after settlement give
no reward.

## Starting state and options
`reset(seed, options)` deals a new episode. Options:
`"deck"`: card names put on top of the shoe in draw order (dealing is one
card to each player in turn order, then the bank); `"bank"`: the first bank's
seat; `"chips"`: the starting stacks. Unknown option keys are warned about.

A copy (`copy.deepcopy`, `pickle`) holds the game as it stands, the shoe's
unseen cards included, and plays on as the original would: what a search
client copies at every node.

## Arguments
`rules` (preset name, `.toml` path, mapping or `Rules`; default `"catalan"`),
`num_seats` (2–16, default 4; more than 8 need `decks` >= 2), `max_hands`
(default 10; `None` for no limit), `observation_type` (`"observation"`, the
default, or `"information_state"`), `render_mode`: `"ansi"` (`render()` returns
the table as text), `"human"` (prints it after every step) or `"rgb_array"`
(`render()` returns a picture of the table, an `(H, W, 3)` `uint8` array drawn
with Pillow). Both show the table to a spectator: face-down cards are card
backs (`##`); text and picture come from one description of the table
(`envs.table_view`).

## Example

    >>> from envs import sette_e_mezzo_v0
    >>> env = sette_e_mezzo_v0.env(rules="pagat", num_seats=2)
    >>> env.reset(seed=0)
    >>> env.agents, env.agent_selection
    (['player_0', 'player_1'], 'player_0')
    >>> env.unwrapped.get_action_meanings()[:3]
    ['stand', 'hit', 'reveal_hit']

## Version history
* v0: first release.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils.env_logger import EnvLogger

from envs.engine import Engine, IllegalActionError
from envs.information_state import (InformationStateObserver, check_observation_type,
                                    information_state_bounds, information_state_slices)
from envs.observer import Observer, observation_bounds, observation_slices
from envs import wrappers
from envs.picture import table_picture
from envs.render import table_text
from envs.rules import Rules

RESET_OPTIONS = ("deck", "bank", "chips")


def env(**kwargs: Any) -> AECEnv:
    """The environment wrapped as PettingZoo's classic games are.

    An illegal action ends the game with a reward of -1 for the offender.
    The wrappers are PettingZoo's own, with faster attribute forwarding
    (:mod:`envs.wrappers`).
    """
    environment = raw_env(**kwargs)
    environment = wrappers.TerminateIllegalWrapper(environment, illegal_reward=-1)
    environment = wrappers.AssertOutOfBoundsWrapper(environment)
    environment = wrappers.OrderEnforcingWrapper(environment)
    return environment


class raw_env(AECEnv):
    """Sette e mezzo as an AEC environment (see the module docstring)."""

    metadata: dict[str, Any] = {
        "render_modes": ["ansi", "human", "rgb_array"],
        "name": "sette_e_mezzo_v0",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(self, rules: Rules | str | Path | Mapping[str, Any] = "catalan",
                 num_seats: int = 4, max_hands: int | None = 10,
                 render_mode: str | None = None,
                 observation_type: str = "observation") -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode={render_mode!r} is not supported; choose one of "
                             f"{self.metadata['render_modes']} or None")
        self.observation_type = check_observation_type(observation_type)
        self.engine = Engine(rules, num_seats, max_hands)
        self.rules = self.engine.rules
        self.observer = Observer(self.engine)
        self._encoder: Observer | InformationStateObserver = self.observer
        """What writes the seat's vector: the observation, or the information state (held as
        the object, not its bound ``observe``: a compiled class's bound method is copied by
        ``copy.deepcopy`` as it is, still bound to the original's observer)."""
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(num_seats)]
        self.agents = self.possible_agents[:]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        if observation_type == "information_state":
            self.information_state = InformationStateObserver(self.engine, self.observer)
            self._encoder = self.information_state
            self.observation_slices = information_state_slices(self.rules, num_seats)
            low, high = information_state_bounds(self.rules, num_seats)
        else:
            self.observation_slices = observation_slices(num_seats)
            low, high = observation_bounds(num_seats)
        n_actions = self.engine.layout.size
        obs_space = spaces.Dict({
            "observation": spaces.Box(low=low, high=high, dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(n_actions,), dtype=np.int8),
        })
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(n_actions) for a in self.possible_agents}
        self._zero_mask = np.zeros(n_actions, dtype=np.int8)
        self._dealt = False
        """A game has been dealt: before :meth:`reset`, ``observe``, ``step`` and ``render``
        raise PettingZoo's own "reset() needs to be called before …" errors."""

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def get_action_meanings(self) -> list[str]:
        """The name of every action index (``stand``, ``hit``, ``bet_1``, …)."""
        return list(self.engine.layout.names)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        if not self._dealt:
            EnvLogger.error_observe_before_reset()
        try:
            seat = self.agent_name_mapping[agent]
        except (KeyError, TypeError):
            raise KeyError(f"unknown agent {agent!r}; the agents are "
                           f"{', '.join(self.possible_agents)}") from None
        engine = self.engine
        mask = engine.action_mask() if seat == engine.actor else self._zero_mask.copy()
        return {"observation": self._encoder.observe(seat), "action_mask": mask}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        options = dict(options or {})
        unknown = sorted(k for k in options if k not in RESET_OPTIONS)
        if unknown:
            warnings.warn(f"reset options {unknown} are not used; known options: "
                          f"{', '.join(RESET_OPTIONS)}", stacklevel=2)
        self.engine.reset(seed=seed, deck=options.get("deck"), bank=options.get("bank"),
                          chips=options.get("chips"))
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._stale_rewards = False
        self._dealt = True
        self._after_engine_step()
        if self.render_mode == "human":
            self.render()

    def step(self, action: int) -> None:
        if not self._dealt:
            EnvLogger.error_step_before_reset()
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        try:
            self.engine.step(action)
        except IllegalActionError as exc:
            raise ValueError(str(exc)) from None
        self._cumulative_rewards[agent] = 0.0
        self._after_engine_step()
        if self.render_mode == "human":
            self.render()

    def _after_engine_step(self) -> None:
        engine = self.engine
        if engine.rewarded:
            self.rewards = dict(zip(self.possible_agents, engine.pending_rewards))
            self._accumulate_rewards()
            self._stale_rewards = True
        elif self._stale_rewards:
            self.rewards = dict.fromkeys(self.possible_agents, 0.0)
            self._stale_rewards = False
        if engine.over:
            for agent in self.agents:
                self.terminations[agent] = True
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = self.possible_agents[engine.actor]

    def render(self) -> str | np.ndarray | None:
        """The table as a spectator sees it: text (``ansi``, ``human``) or a picture."""
        if not self._dealt:
            EnvLogger.error_render_before_reset()
        if self.render_mode is None:
            warnings.warn("render() called without a render_mode; pass render_mode= one of "
                          f"{self.metadata['render_modes']} to the environment", stacklevel=2)
            return None
        if self.render_mode == "rgb_array":
            return table_picture(self.engine)
        text = table_text(self.engine)
        if self.render_mode == "human":
            print(text + "\n")
            return None
        return text

    def close(self) -> None:
        pass
