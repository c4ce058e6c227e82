"""The heads-up hand as an OpenSpiel game, so OpenSpiel's own algorithms run on it.

Importing this module registers ``python_sette_e_mezzo`` with ``pyspiel``
(OpenSpiel's Python API, ``pip install open_spiel``; nothing else in the
solver needs it)::

    import pyspiel
    import evaluate.solver.openspiel_game  # registers the game

    game = pyspiel.load_game("python_sette_e_mezzo(rules=pagat,composition=1:1/2:1/7:1/S:1)")

The hand is the one of :class:`~evaluate.solver.game.HeadsUpGame`, played as
at the table (RULES.md §4): seat 0 is the player, seat 1 holds the bank.

1. With ``bet_timing = "before_deal"`` the player bets first. A chance node
   deals the player's face-down card, another the bank's face-down card;
   with ``"on_turn"`` the player bets now, having seen its card.
2. The player stands, hits, ``reveal_hit`` s or raises (every chance node
   of a hit deals one card from what is left of the shoe) until it stands,
   busts or reaches 7½ (with ``declare_seven_and_half`` the hand is shown
   and the turn ends, §4.5).
3. The bank turns its card up and hits (a chance node per card) or stands;
   the hand is settled (§4.7–4.9).

The rules live in one place: the legal actions are
:meth:`HeadsUpGame.player_actions` and :meth:`HeadsUpGame.bank_legal`, the
payoffs :meth:`HeadsUpGame.player_row` and :meth:`HeadsUpGame.payoff_row`.
This module only deals the cards in table order and keeps the history.

Actions and chance outcomes
---------------------------
Player and bank actions are the engine's action indices
(:class:`envs.actions.ActionLayout` of the rules' bet ladder: ``stand`` 0,
``hit`` 1, ``reveal_hit`` 2, ``bet_<k>``, ``raise_<k>``; the other indices
exist but are never legal here). A chance outcome is a card class of the
solver's game (``game.solver.class_names``: ranks 1..7 and ``F`` for the
three figures merged, or the ten ranks with ``merge_figures=false``), with
probability its count in what is left of the shoe over the cards left.

Payoffs
-------
In units of ``min_bet``, as the solver reports them. A bust loses the
stake; otherwise the player gets ``player_row`` less the ante (the chips it
wins from the bank, plus the pot when its natural takes the jackpot, §4.9)
and the bank ``-payoff_row`` (minus the chips the player wins). Without a
pot (``jackpot_ante = 0``) the game is zero-sum and says so
(``GameType.Utility.ZERO_SUM``); with a pot (``catalan``: even with
``jackpot=0`` the player's own ante is in it) it is general-sum
(``GENERAL_SUM``, ``utility_sum`` unset), the registered type.

Information
-----------
Every seat has perfect recall (RULES.md §8.10). The information state of
the player is its own face-down cards as they came and the public history:
the bet, each face-up card, each reveal, each raise, in order, then the
stand, the declaration or the bust, and the bank's cards once it plays. The
bank's is its own cards and the same public history; it never holds the
player's face-down card, unless a declaration shows it. The tensor layout is
:class:`SetteEMezzoObserver` (``observer.dict`` names the pieces).

Game parameters
---------------
``rules`` (a preset or a ``.toml`` rules file; the solver's supported rules,
:func:`~evaluate.solver.game.check_rules`), ``composition`` (the shoe as
:func:`~evaluate.solver.game.parse_composition` reads it, with ``/`` for
``,`` and ``:`` for ``=`` so that it fits in a game string; empty: the full
shoe), ``stakes`` (``free`` or ``fixed``), ``jackpot`` (chips in the pot
before this hand's ante) and ``merge_figures``.

Cross-checking the solver
-------------------------
:class:`SolverPolicyAdapter` plays solver policies (thresholds, random,
agents, the equilibrium's tables) as an OpenSpiel policy: each state is
mapped onto the solver's keys by :meth:`SetteEMezzoState.player_node` and
:meth:`SetteEMezzoState.bank_key`. OpenSpiel's
``exploitability.nash_conv`` and ``best_response`` then compute, by their
own tree walk with the cards dealt in table order, the numbers
:func:`evaluate.solver.values.exploitability` computes over multisets
(tests/test_openspiel_game.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python import policy as openspiel_policy

from envs import actions as A
from envs import rulebook
from envs.cards import SEVEN_AND_HALF
from envs.hands import BUST as BUSTED
from envs.hands import DECLARED, PLAYING, STOOD
from envs.rules import Rules, RulesError
from evaluate.solver.game import BANK_BUST, BUST, HeadsUpGame, SolverError, View
from evaluate.solver.policies import SolverPolicy, as_policy

PLAYER, BANK = 0, 1
"""The seats: seat 0 plays, seat 1 holds the bank."""

GAME_NAME = "python_sette_e_mezzo"

DEFAULT_PARAMS: dict[str, Any] = {
    "rules": "catalan",
    "composition": "",
    "stakes": "free",
    "jackpot": 0,
    "merge_figures": True,
}
"""The game parameters and their defaults (see the module docstring)."""

# What happens next in a hand.
_DEAL_PLAYER, _DEAL_BANK, _BET, _PLAY, _DRAW, _BANK_PLAY, _BANK_DRAW, _OVER = range(8)
_NODE_NAMES = ("the player's card", "the bank's card", "the player's bet", "the player's turn",
               "the player's draw", "the bank's turn", "the bank's draw", "the end of the hand")
"""What comes next at each of those nodes, as an illegal action's error names it."""

STATUSES = (PLAYING, STOOD, DECLARED, BUSTED)
"""The player hand's statuses (:mod:`envs.hands`), in the order of the tensors' one-hot."""
_STATUS_WORDS = {PLAYING: "playing", STOOD: "stood", DECLARED: "declared", BUSTED: "busted"}

EVENT_KINDS = ("bet", "hit", "reveal", "raise")
"""The kinds of public player events, in the order of the tensor's kind one-hot."""

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Sette e mezzo: one heads-up hand, player against the bank",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=DEFAULT_PARAMS)


def _game_type(zero_sum: bool) -> Any:
    """The registered type, with the utility of one instance (zero-sum without a pot)."""
    t = _GAME_TYPE
    return pyspiel.GameType(
        t.short_name, t.long_name, t.dynamics, t.chance_mode, t.information,
        pyspiel.GameType.Utility.ZERO_SUM if zero_sum else t.utility, t.reward_model,
        t.max_num_players, t.min_num_players, t.provides_information_state_string,
        t.provides_information_state_tensor, t.provides_observation_string,
        t.provides_observation_tensor, t.parameter_specification)


def solver_game(params: Mapping[str, Any] | None = None) -> HeadsUpGame:
    """The solver's game for OpenSpiel game parameters (perfect recall, RULES.md §8.10)."""
    p = {**DEFAULT_PARAMS, **(params or {})}
    unknown = sorted(set(p) - set(DEFAULT_PARAMS))
    if unknown:
        raise SolverError(f"unknown game parameter(s) {', '.join(unknown)}; the parameters "
                          f"are {', '.join(DEFAULT_PARAMS)}")
    try:
        rules = Rules.resolve(str(p["rules"]))
    except (RulesError, OSError) as exc:
        raise SolverError(f"rules={p['rules']!r}: {exc}") from None
    text = str(p["composition"]).replace("/", ",").replace(":", "=")
    return HeadsUpGame(rules, text or None, merge_figures=bool(p["merge_figures"]),
                       stakes=str(p["stakes"]), jackpot=int(p["jackpot"]), recall="perfect")


class _Shared:
    """The game's fixed data, shared by every state and its clones (never deep-copied)."""

    def __init__(self, game: HeadsUpGame) -> None:
        self.solver = game
        self.ms = game.ms
        self.before_deal = game.rules.bet_timing == "before_deal"
        self.declare = game.rules.declare_seven_and_half
        self.hidden_cards = game.rules.hidden_cards
        self.names = game.class_names
        self.actions = game.layout.names
        self._rows: dict[tuple[int, int], tuple[list[float], list[float]]] = {}

    def rows(self, hand: int, stake: int) -> tuple[list[float], list[float]]:
        """The player's own payoff row and the chips it wins, per bank result (cached)."""
        got = self._rows.get((hand, stake))
        if got is None:
            g = self.solver
            got = self._rows[(hand, stake)] = (g.player_row(hand, stake),
                                               g.payoff_row(hand, stake))
        return got

    def __deepcopy__(self, memo: dict[int, Any]) -> _Shared:
        return self


class SetteEMezzoGame(pyspiel.Game):
    """``python_sette_e_mezzo``: one heads-up hand of a solver-supported ``Rules`` value."""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        params = {**DEFAULT_PARAMS, **(params or {})}
        g = solver_game(params)
        self.solver = g
        """The solver's :class:`HeadsUpGame` of the same hand (perfect recall)."""
        self.shared = _Shared(g)
        self.max_cards = max(g.ms.size)
        """The most cards a hand can hold below 7½ (from the composition)."""
        self.max_events = 1 + 2 * self.max_cards
        """Slots for the player's public events: the bet, draws and raises."""
        self.max_bank_cards = self.max_cards + 1
        stake, ante, pot = self._max_stake(), g.ante, g.pot
        win = max(max(g.payoff_row(m, stake)) for m in range(len(g.ms.size)) if g.ms.size[m])
        zero_sum = not g.general_sum
        info = pyspiel.GameInfo(
            num_distinct_actions=g.layout.size,
            max_chance_outcomes=g.num_classes,
            num_players=2,
            min_utility=float(min(-stake - ante, -win)),
            max_utility=float(max(win - ante + pot, stake)),
            utility_sum=0.0 if zero_sum else None,
            # bet, two deals, draws (action and card), raises, stand; the bank's draws and stand
            max_game_length=5 + 5 * self.max_cards)
        super().__init__(_game_type(zero_sum), info, params)

    def _max_stake(self) -> int:
        """The largest stake in units that bets and raises can reach."""
        r = self.solver.rules
        return min(r.max_bet, self.solver.player_chips) // r.min_bet

    def new_initial_state(self) -> SetteEMezzoState:
        """A hand before the first card (or the first bet)."""
        return SetteEMezzoState(self)

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: Mapping[str, Any] | None = None) -> SetteEMezzoObserver:
        """The information-state observer (``perfect_recall=True``) or the observation one."""
        return SetteEMezzoObserver(
            self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)


class HandRecord:
    """Everything that changes in a hand: the cards dealt so far and the public history.

    A state holds one; cloning a state copies it (:meth:`__deepcopy__`, the
    lists one level deep: their items never change).
    """

    __slots__ = ("next", "shoe", "events", "hidden", "up", "stake", "status", "shown",
                 "bank_cards", "reveal", "log")

    def __init__(self, game: HeadsUpGame, before_deal: bool) -> None:
        self.next = _BET if before_deal else _DEAL_PLAYER
        """What happens next (a deal, a seat's decision, the end)."""
        self.shoe = list(game.counts)
        """Cards left per class."""
        self.events: list[tuple[str, int]] = []
        """The player's public events, the solver's ``hist``: ``("bet", k)``, ``("hit", c)``,
        ``("reveal", c)``, ``("raise", k)``."""
        self.hidden = -1
        """Class of the player's face-down card (``-1`` before the deal)."""
        self.up = game.ms.empty
        """Multiset of the player's face-up cards."""
        self.stake = 0
        """The player's stake in units of ``min_bet``."""
        self.status = PLAYING
        """The player hand's status (:data:`STATUSES`)."""
        self.shown = -1
        """The face-down card a declaration shows (``-1`` otherwise)."""
        self.bank_cards: list[int] = []
        """The bank's cards in the order dealt (its face-down card first)."""
        self.reveal = False
        """Whether the pending draw is a ``reveal_hit``'s."""
        self.log: list[tuple[str, int]] = []
        """Information-state tokens in order, each with the seats that see it (bit 1 the
        player, bit 2 the bank)."""

    def __deepcopy__(self, memo: dict[int, Any]) -> HandRecord:
        new = HandRecord.__new__(HandRecord)
        new.next, new.hidden, new.up, new.stake = self.next, self.hidden, self.up, self.stake
        new.status, new.shown, new.reveal = self.status, self.shown, self.reveal
        new.shoe, new.events, new.bank_cards = self.shoe[:], self.events[:], self.bank_cards[:]
        new.log = self.log[:]
        return new


_BOTH, _TO_PLAYER, _TO_BANK = 3, 1, 2


class SetteEMezzoState(pyspiel.State):
    """A heads-up hand in progress (its :class:`HandRecord` is ``record``)."""

    def __init__(self, game: SetteEMezzoGame) -> None:
        super().__init__(game)
        self._g = game.shared
        self.record = HandRecord(game.solver, self._g.before_deal)

    # ------------------------------------------------------------ OpenSpiel API
    def current_player(self) -> int:
        """Seat to act: 0 the player, 1 the bank, or chance / terminal."""
        n = self.record.next
        if n in (_BET, _PLAY):
            return PLAYER
        if n == _BANK_PLAY:
            return BANK
        if n == _OVER:
            return pyspiel.PlayerId.TERMINAL
        return pyspiel.PlayerId.CHANCE

    def _legal_actions(self, player: int) -> list[int]:
        g = self._g.solver
        if self.record.next == _BANK_PLAY:
            view, bank = self.bank_key()
            stand_ok, hit_ok = g.bank_legal(view, bank)
            return ([A.STAND] if stand_ok else []) + ([A.HIT] if hit_ok else [])
        return sorted(a for a, _o in g.player_actions(self.player_node()))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Every card class left in the shoe, with its probability."""
        shoe = self.record.shoe
        n = sum(shoe)
        return [(c, k / n) for c, k in enumerate(shoe) if k]

    def _apply_action(self, action: int) -> None:
        """Play ``action``: a card class the shoe holds at a chance node, else one of
        :meth:`legal_actions`; anything else is a ``ValueError`` naming it and the legal
        ones, before the hand changes (a state is never left half played)."""
        h = self.record
        player = self.current_player()
        if h.next == _OVER:
            legal: list[int] = []
        elif player == pyspiel.PlayerId.CHANCE:
            legal = [c for c, _p in self.chance_outcomes()]
        else:
            legal = self._legal_actions(player)
        if action not in legal:
            named = ", ".join(f"{a} ({self._action_to_string(player, a)})" for a in legal)
            raise ValueError(f"action {action!r} is not legal at {_NODE_NAMES[h.next]}; "
                             f"legal: {named or 'none, the hand is over'}")
        if h.next in (_DEAL_PLAYER, _DEAL_BANK, _DRAW, _BANK_DRAW):
            self._deal(int(action))
        elif h.next == _BANK_PLAY:
            if action == A.STAND:
                h.log.append(("bank_stand", _BOTH))
                h.next = _OVER
            else:
                h.next = _BANK_DRAW
        else:
            self._player_acts(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"card:{self._g.names[action]}"
        return str(self._g.actions[action])

    def is_terminal(self) -> bool:
        """Whether the hand is settled."""
        return bool(self.record.next == _OVER)

    def returns(self) -> list[float]:
        """Each seat's payoff in units of ``min_bet`` (0 before the end; see the module)."""
        h = self.record
        if h.next != _OVER:
            return [0.0, 0.0]
        g = self._g.solver
        if h.status == BUSTED:
            return [-h.stake - g.ante, float(h.stake)]
        bank = self._bank_multiset(g)
        res = BANK_BUST if bank == BUST else g.bank_result(bank)
        own, chips = self._g.rows(self.hand(), h.stake)
        return [float(own[res] - g.ante), float(-chips[res])]

    def __str__(self) -> str:
        return " ".join(token for token, _seen in self.record.log)

    # ------------------------------------------------------------ the hand
    def _player_acts(self, action: int) -> None:
        h = self.record
        layout = self._g.solver.layout
        if action == A.STAND:
            h.status = STOOD
            h.log.append(("stand", _BOTH))
            self._bank_turn()
        elif action in (A.HIT, A.REVEAL_HIT):
            h.reveal = action == A.REVEAL_HIT
            h.next = _DRAW
        elif action >= layout.raise_start:
            k = layout.ladder[action - layout.raise_start]
            h.stake += k
            self._public("raise", k)
        else:
            k = layout.ladder[action - layout.bet_start]
            h.stake = k
            self._public("bet", k)
            h.next = _DEAL_PLAYER if self._g.before_deal else _PLAY

    def _deal(self, c: int) -> None:
        h, g = self.record, self._g
        h.shoe[c] -= 1
        name = g.names[c]
        if h.next == _DEAL_PLAYER:
            h.hidden = c
            h.log.append((f"card:{name}", _TO_PLAYER))
            h.next = _DEAL_BANK
        elif h.next == _DEAL_BANK:
            h.bank_cards.append(c)
            h.log.append((f"bank:{name}", _TO_BANK))
            h.next = _PLAY if g.before_deal else _BET
        elif h.next == _BANK_DRAW:
            h.bank_cards.append(c)
            h.log.append((f"bank_hit:{name}", _BOTH))
            bank = self._bank_multiset(g.solver)
            done = bank == BUST or g.ms.total[bank] == SEVEN_AND_HALF  # the bank stops (§4.6)
            h.next = _OVER if done else _BANK_PLAY
        else:
            self._draw(c)

    def _draw(self, c: int) -> None:
        """The player's hit or reveal_hit brings class ``c``.

        Face up or down as the rulebook says (:func:`envs.rulebook.hit_face_up`,
        RULES.md §4.3, §8.6): a ``reveal_hit`` turns the face-down card up
        and the new card comes face down.
        """
        h, g = self.record, self._g
        ms = g.ms
        new_hand = ms.add[self.hand()][c]
        if h.reveal:
            self._public("reveal", h.hidden)
            h.up = ms.add[h.up][h.hidden]
        if rulebook.hit_face_up(g.hidden_cards, 0 if h.reveal else 1):
            self._public("hit", c)
            h.up = ms.add[h.up][c]
        else:
            h.hidden = c
            h.log.append((f"card:{g.names[c]}", _TO_PLAYER))
        if new_hand == BUST:
            h.status = BUSTED
            h.log.append(("bust", _BOTH))
            h.next = _OVER
        elif g.declare and ms.total[new_hand] == SEVEN_AND_HALF:
            h.status = DECLARED  # RULES.md §4.5: the hand is shown, the turn ends
            h.shown = h.hidden
            h.log.append((f"declare:{g.names[h.hidden]}", _BOTH))
            self._bank_turn()
        else:
            h.next = _PLAY

    def _public(self, kind: str, x: int) -> None:
        h = self.record
        h.events.append((kind, x))
        h.log.append((f"{kind}:{self._g.names[x] if kind in ('hit', 'reveal') else x}", _BOTH))

    def _bank_turn(self) -> None:
        """The bank turns its card up (RULES.md §4.6) and plays."""
        h = self.record
        h.log.append((f"bank_up:{self._g.names[h.bank_cards[0]]}", _TO_PLAYER))
        h.next = _BANK_PLAY

    # ------------------------------------------------------------ solver keys
    def hand(self) -> int:
        """Multiset id of the player's whole hand (``empty`` before the deal)."""
        h = self.record
        return h.up if h.hidden < 0 else self._g.ms.add[h.up][h.hidden]

    def _bank_multiset(self, game: HeadsUpGame) -> int:
        ms = game.ms
        b = ms.empty
        for c in self.record.bank_cards:
            b = ms.add[b][c]
            if b == BUST:
                break
        return b

    def player_node(self, game: HeadsUpGame | None = None) -> tuple:
        """The solver's player node of this state, in ``game`` (default: this game's own)."""
        h = self.record
        return (game or self._g.solver).player_node(h.hidden, h.events)

    def bank_key(self, game: HeadsUpGame | None = None) -> tuple[View, int]:
        """The solver's bank key ``(view, B)`` of this state, in ``game`` (default: own)."""
        g = game or self._g.solver
        h = self.record
        hidden, events = h.hidden, h.events
        if h.status == DECLARED and events[-1][0] == "reveal":
            # 7½ came face down: the solver follows the path to the reveal, then the shown card.
            hidden, events = events[-1][1], events + [("shown", h.shown)]
        return g.bank_view(hidden, events, h.status), self._bank_multiset(g)

    def information_tokens(self, player: int) -> list[str]:
        """What ``player`` has seen of the hand, in order (its information-state string)."""
        bit = 1 << player
        return [token for token, seen in self.record.log if seen & bit]


class SetteEMezzoObserver:
    """Information states (``perfect_recall=True``) or observations of a hand, per seat.

    Tensor pieces (``dict``), information state:

    * ``player`` (2): the observing seat, one-hot;
    * ``player_card`` (classes): the player's face-down card — the player's
      own, or for the bank the card a declaration shows;
    * ``events`` (``max_events`` x (4 + classes + ladder)): the player's
      public events in order, each a kind one-hot (:data:`EVENT_KINDS`), then
      the card's class (hit, reveal) or the ladder value (bet, raise);
    * ``player_status`` (4): :data:`STATUSES` one-hot;
    * ``bank_cards`` (``max_bank_cards`` x classes): the bank's cards in the
      order dealt — for the bank from its first card, for the player once
      the bank plays.

    The player's earlier face-down cards are the classes of its reveals, so
    the tensor holds its whole history. Observation (no history):
    ``player``, ``player_card``, ``player_up`` (face-up counts per class),
    ``stake`` (units), ``player_status`` and ``bank_cards`` as counts.
    """

    def __init__(self, game: SetteEMezzoGame, iig_obs_type: Any,
                 params: Mapping[str, Any] | None) -> None:
        if params:
            raise SolverError(f"observation parameters are not supported; got {dict(params)}")
        if iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER \
                or not iig_obs_type.public_info:
            raise SolverError("the observer shows one seat's own cards and the public "
                              "information (private_info=SINGLE_PLAYER, public_info=True)")
        g = game.solver
        self.recall = bool(iig_obs_type.perfect_recall)
        self._g = game.shared
        self._ladder = g.rules.bet_ladder
        c, width = g.num_classes, len(EVENT_KINDS) + g.num_classes + len(g.rules.bet_ladder)
        pieces: list[tuple[str, tuple[int, ...]]] = [("player", (2,)), ("player_card", (c,))]
        if self.recall:
            pieces += [("events", (game.max_events, width)), ("player_status", (len(STATUSES),)),
                       ("bank_cards", (game.max_bank_cards, c))]
        else:
            pieces += [("player_up", (c,)), ("stake", (1,)), ("player_status", (len(STATUSES),)),
                       ("bank_cards", (c,))]
        self.tensor = np.zeros(sum(int(np.prod(shape)) for _n, shape in pieces), np.float32)
        self.dict: dict[str, np.ndarray] = {}
        at = 0
        for name, shape in pieces:
            size = int(np.prod(shape))
            self.dict[name] = self.tensor[at:at + size].reshape(shape)
            at += size

    @staticmethod
    def _bank_cards_seen(h: HandRecord, player: int) -> list[int]:
        return h.bank_cards if player == BANK or h.next >= _BANK_PLAY else []

    def set_from(self, state: SetteEMezzoState, player: int) -> None:
        """Fill ``tensor`` (and ``dict``) with what ``player`` knows at ``state``."""
        h = state.record
        self.tensor.fill(0.0)
        d = self.dict
        d["player"][player] = 1.0
        card = h.hidden if player == PLAYER else h.shown
        if card >= 0:
            d["player_card"][card] = 1.0
        d["player_status"][STATUSES.index(h.status)] = 1.0
        bank = self._bank_cards_seen(h, player)
        if self.recall:
            events, kinds, classes = d["events"], len(EVENT_KINDS), len(self._g.names)
            for i, (kind, x) in enumerate(h.events):
                events[i, EVENT_KINDS.index(kind)] = 1.0
                if kind in ("hit", "reveal"):
                    events[i, kinds + x] = 1.0
                else:
                    events[i, kinds + classes + self._ladder.index(x)] = 1.0
            for i, c in enumerate(bank):
                d["bank_cards"][i, c] = 1.0
        else:
            d["player_up"][:] = self._g.ms.tuples[h.up]
            d["stake"][0] = h.stake
            for c in bank:
                d["bank_cards"][c] += 1.0

    def string_from(self, state: SetteEMezzoState, player: int) -> str:
        """``player``'s information state (or observation) as text: ``p0 card:5 bet:1 hit:3``."""
        if self.recall:
            return " ".join([f"p{player}"] + state.information_tokens(player))
        h, names = state.record, self._g.names
        parts = [f"p{player}"]
        card = h.hidden if player == PLAYER else h.shown
        if card >= 0:
            parts.append(f"card:{names[card]}")
        parts.append("up:" + ",".join(names[c] for c, n in enumerate(self._g.ms.tuples[h.up])
                                      for _ in range(n)))
        parts.append(f"stake:{h.stake}")
        parts.append(_STATUS_WORDS[h.status])
        bank = self._bank_cards_seen(h, player)
        if bank:
            parts.append("bank:" + ",".join(names[c] for c in bank))
        return " ".join(parts)


class SolverPolicyAdapter(openspiel_policy.Policy):
    """Solver policies played as an OpenSpiel policy, state by state.

    ``player`` and ``bank`` are anything :func:`~evaluate.solver.policies.as_policy`
    takes (``"threshold:5"``, ``"random"``, an agent, a ``SolverPolicy`` such
    as an equilibrium's :class:`~evaluate.solver.policies.TabularPolicy`).
    Each is asked in the solver game it reads: a table's own game (perfect
    recall or forgetful), else the OpenSpiel game's :attr:`SetteEMezzoGame.solver`.
    """

    def __init__(self, game: SetteEMezzoGame, player: Any, bank: Any) -> None:
        super().__init__(game, [PLAYER, BANK])
        rules = game.solver.rules
        self.policies = (as_policy(player, rules, "player"), as_policy(bank, rules, "bank"))
        self._games = tuple(self._game_of(game.solver, p) for p in self.policies)

    @staticmethod
    def _game_of(own: HeadsUpGame, policy: SolverPolicy) -> HeadsUpGame:
        theirs = getattr(policy, "game", None)
        if not isinstance(theirs, HeadsUpGame):
            return own
        if (theirs.rules, theirs.rank_counts, theirs.merge_figures) != (
                own.rules, own.rank_counts, own.merge_figures):
            raise SolverError(f"strategy {policy.name!r} was computed for another hand (rules, "
                              f"composition or card classes differ from the OpenSpiel game's)")
        return theirs

    def action_probabilities(self, state: SetteEMezzoState,
                             player_id: int | None = None) -> dict[int, float]:
        """``{action: probability}`` over the legal actions at ``state``."""
        seat = state.current_player()
        legal = state.legal_actions()
        g = self._games[seat]
        if seat == PLAYER:
            dist = self.policies[PLAYER].player(g, state.player_node(g), legal)
        else:
            view, b = state.bank_key(g)
            dist = self.policies[BANK].bank(g, view, b, legal)
        probs = dict.fromkeys(legal, 0.0)
        for a, p in dist:
            probs[a] += p
        return probs


pyspiel.register_game(_GAME_TYPE, SetteEMezzoGame)
