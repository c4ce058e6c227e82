"""Careful rule-based play: the heuristic player and the bank that reads the table.

Both live in one agent, :class:`CarefulAgent`, because a careful person plays
whichever role the seat holds; the registry names it ``careful`` (for its play
as a player) and ``reader`` (for its play as the bank). Everything it decides
comes from its own observation: its cards, the face-up cards, statuses and
stakes on the table, and the cards seen since the shuffle — never from a card
it may not see.

**Counting.** The cards it has not seen (the shoe holds ``4 x decks`` of each
rank, minus every face-up or shown card since the shuffle, minus its own
face-down cards) are the odds of the next card and of any face-down card on
the table. With the Catalan ``when_empty`` shoe this is real card counting.

**As a player** it values a hand against a *modelled* bank. A bank sees the
player's face-up cards and, as ties go to the bank, draws until it reaches
the visible total — or, when a card is face down, until it reaches
``bank_model`` points or what the face-up cards plus an average hidden card
(3 points) make, whichever is more. From this model it precomputes, once per
rule set, the bank's final total for every stopping point and the value of
every player hand under the best stand/hit play (a small dynamic program over
total, face-up total, face-down card and "first card only"). At the table it
then looks one card ahead with the *live* odds:

* **hit or stand** — hit when the average value after one more card (then
  playing on as the table says) beats standing now; with ``player_choice``
  face-down cards it also weighs turning its card up before hitting;
* **stake** — the minimum, raised one rung of the ladder for each of
  ``STAKE_GAINS`` that the coming hand's value beats a fresh shoe's hand by:
  a shoe rich in sevens and figures makes naturals, which pay double, and
  with bets on the turn a strong first card does too. The gain, not the
  model's absolute value, decides: the model bank is weaker than a real one,
  and the player's disadvantage (it busts first, ties go to the bank) must be
  overcome before a larger stake pays. With ``bet_raise`` it raises when it
  stands on a hand worth at least ``RAISE_EDGE``;
* **house actions** where they pay: *double* when twice the value of "one
  more card, then stand" beats playing on; *Mort* when the chance of a figure
  times the natural's payout beats playing the 7 on; *fusilar* when the 4x payout on a
  figure, less the bank's chance to make 7½ when it must chase, beats playing
  the 7 on; *split* two figures when two hands from ½ beat one hand on 1;
  *change a 4* when a fresh first card is worth more than the 4;
* **the bank** — take, claim or keep it (rather than sell it) when its chips
  cover every other seat losing a top stake at the top payout: the bank wins
  ties and collects busts before it plays, but only a bank that survives the
  swings enjoys that edge. It never bids for the first bank nor places side
  bets: it keeps its money on decisions it makes itself.

**As the bank** it reads the table. For every player still standing it forms
the odds of that player's total: the face-up cards are known; a face-down card
follows the unseen cards, must keep the hand at 7½ or less (a bust is shown),
and — the player stood on it — is ``STOOD_LIKELIHOOD`` times less likely to
leave a total below ``assume_stand`` points. A declared 7½ is known. Stakes
weight each player. It then compares, by a dynamic program over its own total
and card count, the chips it expects when standing now with those when
drawing (and standing or drawing on as best), counting natural payouts, the
``natural_beats_bank_multicard`` rule and a bust paying every standing player;
it stands when standing already wins at least as much.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import numpy as np

from agents.base import Agent
from envs import actions as A
from envs.cards import HALF_POINTS, NUM_RANKS, SEVEN_AND_HALF
from envs.engine import AUCTION, BANK, BET, DECLARED, SELL, SIDE_BET, STOOD, TRANSFER
from envs.hands import NONE
from envs.observation import ObservationReader
from envs.rulebook import (FUSILAR_PAYS, RuleSwitches, forces_chase, payout_multiple,
                           player_beats_bank, route_multiple)
from envs.rules import Rules

BUST = SEVEN_AND_HALF + 1
HIDDEN_CARD_MEAN = 6
"""An average face-down card, in half points (3 points), for the player's bank model."""
STAKE_GAINS = (0.3, 0.5, 0.7)
"""Gain per unit over a fresh shoe's hand at which the stake goes up one rung each."""
RAISE_EDGE = 0.3
"""Value of standing above which a player raises (``bet_raise``)."""
STOOD_LIKELIHOOD = 0.25
"""Relative odds that a player stood on less than ``assume_stand`` points."""
_VALUES = list(HALF_POINTS[:NUM_RANKS])
"""Half points of one card of each rank index (1..7, sota, caballo, rey)."""
_NATURAL_CARDS = 2
"""A natural is two cards making 7½ (RULES.md §1)."""
_MORE_CARDS = 3
"""Any card count that is not a natural's, for the rulebook's payouts."""
_BANK_BEATS_UP_TO = np.array([max((p for p in range(BUST) if not player_beats_bank(p, t)),
                                  default=-1) for t in range(BUST)])
"""The highest player total a bank standing on ``t`` beats, -1 if none: ``t`` itself
(RULES.md §4.7, :func:`envs.rulebook.player_beats_bank`: the bank wins ties)."""


def _fresh_odds() -> tuple[float, ...]:
    return tuple([1.0 / NUM_RANKS] * NUM_RANKS)


def _by_value(odds: Sequence[float]) -> list[tuple[int, float]]:
    """Odds per rank folded into odds per card value (the three figures are all ½)."""
    folded: dict[int, float] = {}
    for rank, p in enumerate(odds):
        if p > 0:
            folded[_VALUES[rank]] = folded.get(_VALUES[rank], 0.0) + float(p)
    return sorted(folded.items())


@lru_cache(maxsize=64)
def _bank_finals(odds: tuple[float, ...]) -> np.ndarray:
    """``finals[s]``: distribution of a bank's final total (index ``BUST`` = bust) when it
    draws from ``odds`` until it reaches ``s`` half points or more."""
    values = _by_value(odds)
    finals = np.zeros((BUST, BUST + 1))
    for stop in range(1, BUST):
        current = np.zeros(BUST + 1)
        for v, p in values:
            current[v] += p
        for total in range(1, BUST):
            mass = current[total]
            if not mass:
                continue
            if total >= stop:
                finals[stop, total] += mass
                continue
            for v, p in values:
                current[min(total + v, BUST)] += mass * p
        finals[stop, BUST] += current[BUST]
    return finals


def _hand(view: ObservationReader, i: int) -> tuple[int, int, int]:
    """Seat block ``i``: face-up total (half points), face-down cards, number of cards."""
    return view.up_total_half(i), view.hidden(i), view.cards(i)


def _odds(view: ObservationReader) -> list[float]:
    """Chance of each rank for a card the observer cannot see (the unseen cards).

    What the observer has not seen is the draw pile plus the other seats'
    face-down cards (:meth:`~envs.observation.ObservationReader.unseen_counts`).
    """
    unseen = view.unseen_counts()
    total = float(unseen.sum())
    if total <= 0:
        return list(_fresh_odds())
    return (unseen / total).tolist()


class _PlayerModel:
    """Values of player hands against the modelled bank, for one rule set (see module doc)."""

    def __init__(self, rules: Rules, bank_model: float) -> None:
        self.rules = rules
        self.switches = RuleSwitches(rules)
        self.bank_stop = int(round(bank_model * 2))
        finals = _bank_finals(_fresh_odds()).tolist()
        self.bust = [row[BUST] for row in finals]
        # below[s][t]: chance that a bank stopping at s ends, without busting, on a total
        # the player's t beats (RULES.md §4.7: below t, as the bank wins ties).
        self.below = [[sum((row[b] for b in range(BUST) if player_beats_bank(t, b)), 0.0)
                       for t in range(BUST + 1)] for row in finals]
        self.chase_seven_and_half = finals[SEVEN_AND_HALF][SEVEN_AND_HALF]
        self.alternate = rules.hidden_cards == "alternate"
        self.fresh = _by_value(_fresh_odds())
        self._play: dict[tuple[int, int, int, bool], float] = {}
        self.fresh_hand = sum(p * self.play(v, 0, 1, True) for v, p in self.fresh)
        """Value of a hand dealt from a fresh shoe, first card face down."""

    def stand(self, total: int, up: int, hidden: int, natural: bool = False) -> float:
        """Value per unit of standing on ``total`` when the bank sees ``up``.

        The modelled bank stops at the visible total when nothing is face down,
        else at ``bank_model`` points or the face-up total plus an average card.
        """
        stop = min(SEVEN_AND_HALF, max(self.bank_stop, up + HIDDEN_CARD_MEAN)) if hidden \
            else max(up, 1)
        win = self.bust[stop] + self.below[stop][total]
        pays = payout_multiple(self.switches, total, _NATURAL_CARDS if natural else _MORE_CARDS)
        return 2.0 * win - 1.0 if pays == 1 else win * pays - (1.0 - win)

    def hit_face_up(self, hidden: int) -> bool:
        """Face of a card drawn by ``hit`` in the model (RULES.md §4.3).

        With ``player_choice`` the model draws face up, where the game
        (:func:`envs.rulebook.hit_face_up`, RULES.md §8.6) deals face down to a
        hand holding no face-down card: a simplification of the model, kept
        as it is part of the careful player's play.
        """
        return hidden > 0 if self.alternate else True

    def after_cards(self, odds: list[tuple[int, float]], total: int, up: int, hidden: int,
                    first: bool, face_up: bool, then_stand: bool = False) -> float:
        """Average value after one more card (then playing on, or standing)."""
        value = 0.0
        for v, p in odds:
            new_total = total + v
            if new_total > SEVEN_AND_HALF:
                value -= p
                continue
            new_up, new_hidden = (up + v, hidden) if face_up else (up, hidden + 1)
            if new_total == SEVEN_AND_HALF or then_stand:
                value += p * self.stand(new_total, new_up, new_hidden,
                                        first and new_total == SEVEN_AND_HALF)
            else:
                value += p * self.play(new_total, new_up, new_hidden, False)
        return value

    def play(self, total: int, up: int, hidden: int, first: bool) -> float:
        """Value of a hand played on as well as the model allows (fresh odds)."""
        key = (total, up, hidden, first)
        value = self._play.get(key)
        if value is None:
            fresh = self.fresh
            value = max(self.stand(total, up, hidden),
                        self.after_cards(fresh, total, up, hidden, first,
                                         self.hit_face_up(hidden)))
            if self.rules.hidden_cards == "player_choice" and hidden:
                value = max(value, self.after_cards(fresh, total, total, 0, first, False))
            self._play[key] = value
        return value


@lru_cache(maxsize=32)
def _player_model(rules: Rules, bank_model: float) -> _PlayerModel:
    return _PlayerModel(rules, bank_model)


class CarefulAgent(Agent):
    """The careful heuristic player and table-reading bank (see the module docstring).

    ``rules``: the table's rules (payouts, face-down cards, decks); the
    ``catalan`` preset when not given. ``bank_model``: points the player's model
    of the bank draws to. ``assume_stand``: points the bank assumes a standing
    player holds.
    """

    def __init__(self, rules: Rules | str | None = None, bank_model: float = 5.0,
                 assume_stand: float = 5.0) -> None:
        for name, value in (("bank_model", bank_model), ("assume_stand", assume_stand)):
            if not 0.5 <= value <= 7.5:
                raise ValueError(f"{name}={value!r} is outside 0.5..7.5 points")
        self.rules = Rules.resolve(rules)
        self.bank_model = float(bank_model)
        self.assume_stand = int(round(assume_stand * 2))
        self.model = _player_model(self.rules, self.bank_model)
        switches = self.model.switches
        self.natural_pays = payout_multiple(switches, SEVEN_AND_HALF, _NATURAL_CARDS)
        """What a natural is paid (RULES.md §4.8)."""
        self.other_pays = payout_multiple(switches, SEVEN_AND_HALF, _MORE_CARDS)
        """What a 7½ of three or more cards is paid (RULES.md §4.8)."""
        self.natural_beats_multicard = route_multiple(
            switches, SEVEN_AND_HALF, _NATURAL_CARDS, NONE, SEVEN_AND_HALF, _MORE_CARDS, False)
        """What a natural wins against a bank 7½ of three or more cards, 0: the bank wins
        (RULES.md §4.7 ``natural_beats_bank_multicard``)."""
        self.layout = A.ActionLayout(self.rules.bet_ladder)

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        if len(action_mask) != self.layout.size:
            raise ValueError(f"the action mask has {len(action_mask)} entries, but these rules "
                             f"have {self.layout.size} actions (their bet ladder "
                             f"{list(self.layout.ladder)}): give careful the table's rules")
        legal = np.flatnonzero(action_mask)
        if legal.size == 0:
            raise ValueError("the action mask allows no action")
        if legal.size == 1:
            return int(legal[0])
        view = ObservationReader(observation, self.rules)
        phase = view.phase
        if phase in (TRANSFER, SELL):
            return self._transfer(view, action_mask)
        if phase in (AUCTION, SIDE_BET):
            return A.PASS if action_mask[A.PASS] else int(legal[0])
        if phase == BANK:
            return self._bank(view, action_mask)
        odds = _by_value(_odds(view))
        if phase == BET:
            return self._bet_phase(view, action_mask, odds)
        return self._play(view, action_mask, odds)

    # ----------------------------------------------------------- as a player
    def _expected_hand(self, view: ObservationReader, odds: list[tuple[int, float]]) -> float:
        """Value per unit of the hand about to be played (for the stake)."""
        up, hidden, cards = _hand(view, 0)
        if cards:
            return self.model.play(view.own_total_half, up, hidden, cards == 1)
        return sum(p * self.model.play(v, 0, 1, True) for v, p in odds)

    def _bet_phase(self, view: ObservationReader, mask: np.ndarray,
                   odds: list[tuple[int, float]]) -> int:
        if mask[A.CHANGE_FOUR] and self._worth_changing_four(view, odds):
            return A.CHANGE_FOUR
        start = self.layout.bet_start
        bets = [int(a) for a in np.flatnonzero(mask[start:start + len(self.layout.ladder)])]
        bets = [start + a for a in bets]
        if not bets:
            return self._play(view, mask, odds)
        gain = self._expected_hand(view, odds) - self.model.fresh_hand
        rung = sum(gain > level for level in STAKE_GAINS)
        return bets[min(rung, len(bets) - 1)]

    def _worth_changing_four(self, view: ObservationReader, odds: list[tuple[int, float]]) -> bool:
        up, hidden, _cards = _hand(view, 0)
        fresh = sum(p * self.model.play(v, up, hidden, True) for v, p in odds)
        return fresh > self.model.play(view.own_total_half, up, hidden, True)

    def _play(self, view: ObservationReader, mask: np.ndarray,
              odds: list[tuple[int, float]]) -> int:
        model = self.model
        total = view.own_total_half
        up, hidden, cards = _hand(view, 0)
        first = cards == 1
        options: dict[int, float] = {}
        if mask[A.STAND]:
            options[A.STAND] = model.stand(total, up, hidden)
        if mask[A.HIT]:
            options[A.HIT] = model.after_cards(odds, total, up, hidden, first,
                                               model.hit_face_up(hidden))
        if mask[A.REVEAL_HIT]:
            options[A.REVEAL_HIT] = model.after_cards(odds, total, total, 0, first, False)
        play_on = max(options.values()) if options else -1.0
        figure = sum(p for v, p in odds if v == 1)
        if mask[A.DOUBLE]:
            options[A.DOUBLE] = 2.0 * model.after_cards(odds, total, up, hidden, first,
                                                        model.hit_face_up(hidden), True)
        if mask[A.MORT]:
            # RULES.md §6 Mort: a figure makes a natural, anything else loses.
            options[A.MORT] = figure * self.natural_pays - (1.0 - figure)
        if mask[A.DECLINE]:
            options[A.DECLINE] = play_on
        if mask[A.FUSILAR]:
            chase = model.chase_seven_and_half
            options[A.FUSILAR] = figure * (1 - chase) * FUSILAR_PAYS - (1 - figure) \
                - figure * chase
        if mask[A.SPLIT]:
            options[A.SPLIT] = 2.0 * model.after_cards(odds, 1, 0, 1, True, True)
        if mask[A.CHANGE_FOUR] and self._worth_changing_four(view, odds):
            return A.CHANGE_FOUR
        if not options:
            return int(np.flatnonzero(mask)[0])
        best = max(options, key=options.__getitem__)
        raise_start = self.layout.raise_start
        raises = np.flatnonzero(mask[raise_start:raise_start + len(self.layout.ladder)])
        if best == A.STAND and raises.size and options[A.STAND] > RAISE_EDGE:
            return raise_start + int(raises[0])
        return int(best)

    def _transfer(self, view: ObservationReader, mask: np.ndarray) -> int:
        """Take, claim or keep the bank when the chips cover the table, else refuse or sell."""
        r = self.rules
        chips = view.value("chips", 0)  # unrounded: the stored float times starting_chips
        cover = chips >= (view.num_seats - 1) * r.max_bet * r.max_payout_multiple
        wanted = (A.TAKE_BANK, A.CLAIM_BANK, A.PASS) if cover else (A.REFUSE_BANK, A.SELL_BANK)
        for action in wanted:
            if mask[action]:
                return action
        return int(np.flatnonzero(mask)[0])

    # ------------------------------------------------------------ as the bank
    def _player_odds(self, view: ObservationReader, i: int, odds: list[tuple[int, float]]
                     ) -> tuple[np.ndarray, float, float] | None:
        """Odds of seat block ``i``'s total, its chance of a natural, its stake — or None."""
        bet = view.stake_share(i)
        stood = view.has_status(i, STOOD)
        if view.sitting_out(i) or bet <= 0 or not (stood or view.has_status(i, DECLARED)):
            return None
        up, hidden, cards = _hand(view, i)
        dist = np.zeros(BUST)
        dist[min(up, SEVEN_AND_HALF)] = 1.0
        for _ in range(hidden):
            nxt = np.zeros(BUST)
            for v, p in odds:
                nxt[v:] += p * dist[:BUST - v]
            dist = nxt
        if hidden and stood:
            dist[:self.assume_stand] *= STOOD_LIKELIHOOD
        mass = dist.sum()
        if mass <= 0:
            return None
        dist /= mass
        natural = float(dist[SEVEN_AND_HALF]) if cards == 2 else 0.0
        return dist, natural, bet

    def _bank(self, view: ObservationReader, mask: np.ndarray) -> int:
        if not (mask[A.HIT] and mask[A.STAND]):
            return A.HIT if mask[A.HIT] else A.STAND if mask[A.STAND] else \
                int(np.flatnonzero(mask)[0])
        r = self.rules
        odds = _by_value(_odds(view))
        total = view.own_total_half
        cards = _hand(view, 0)[2]
        stand = np.zeros(BUST)          # chips per stake unit when standing on t
        stand_multi = 0.0               # standing on 7½ made with three cards or more
        bust = 0.0
        for i in range(1, view.num_seats):
            found = self._player_odds(view, i, odds)
            if found is None:
                continue
            dist, natural, bet = found
            # RULES.md §4.8: what each player total is paid when it wins; a 7½ is a
            # natural with the chance ``natural`` of all its 7½s.
            mult = np.ones(BUST)
            if self.natural_pays == self.other_pays:
                mult[SEVEN_AND_HALF] = self.natural_pays
            elif dist[SEVEN_AND_HALF] > 0:
                share = natural / dist[SEVEN_AND_HALF]
                mult[SEVEN_AND_HALF] = self.other_pays \
                    + share * (self.natural_pays - self.other_pays)
            # Standing on t the bank collects from the totals it beats and pays the rest.
            beaten = np.concatenate(([0.0], np.cumsum(dist)))[_BANK_BEATS_UP_TO + 1]
            paid_above = np.cumsum((dist * mult)[::-1])[::-1]
            stand += bet * (beaten - np.append(paid_above, 0.0)[_BANK_BEATS_UP_TO + 1])
            bust -= bet * float(paid_above[0])
            # RULES.md §4.7: a bank 7½ of three or more cards may lose to a natural.
            pays = self.natural_beats_multicard
            if not pays:
                stand_multi += bet
            else:
                stand_multi += bet * (1.0 - natural * (1 + pays))
        if not stand.any() and not bust:
            return A.STAND
        stand_list = stand.tolist()
        # RULES.md §4.6: a live declared 7½ may keep the bank drawing (a fusilar keeps
        # it by the mask: it may not stand at all).
        chase = any(forces_chase(NONE, view.status(i), r.bank_must_chase_declared)
                    for i in range(1, view.num_seats))
        # best[t]: best chips per unit from total t with three cards or more, filled
        # from 7½ down (a card only ever raises the total); the bank's next card
        # then leads to best[total + value].
        best = [0.0] * BUST
        best[SEVEN_AND_HALF] = stand_multi
        for t in range(SEVEN_AND_HALF - 1, total, -1):
            hit = 0.0
            for v, p in odds:
                u = t + v
                hit += p * (bust if u > SEVEN_AND_HALF else best[u])
            best[t] = hit if chase else max(stand_list[t], hit)
        if cards + 1 < 3:  # after this card a 7½ has two cards: no multi-card 7½
            best[SEVEN_AND_HALF] = stand_list[SEVEN_AND_HALF]
        stay = stand_multi if (total == SEVEN_AND_HALF and cards >= 3) else stand_list[total]
        hit = 0.0
        for v, p in odds:
            u = total + v
            hit += p * (bust if u > SEVEN_AND_HALF else best[u])
        return A.STAND if stay >= hit else A.HIT
