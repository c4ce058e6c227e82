"""The house-rule actions of RULES.md §6, each a plug-in of the engine.

Each house rule is one small class: the switch that turns it on
(:meth:`HouseRule.active`), the actions it owns, and the hooks by which it
joins the turn sequence the :class:`~envs.engine.Engine` keeps:

============================  =================================================
hook                          when the engine calls it
============================  =================================================
``at_deal(e, hand)``          a player's first card has just been dealt
``after_deal(e)``             the bank's card is dealt; True if the rule takes
                              the table (side bets open a phase of their own)
``sole_choice(e, hand, …)``   before a play decision: a list of actions that
                              replaces every other choice, or None
``legal_play(e, hand, …)``    a play decision: append the rule's actions
``legal_turn_bet(e, rank, …)``  a bet on the turn (``bet_timing = "on_turn"``)
                              with the first card untouched: append actions
``apply(e, hand, action)``    the seat to act chose one of the rule's actions
============================  =================================================

:func:`build` makes the plug-ins of one engine ONCE, from its switches, in
the order of :data:`HOUSE_RULES`; a rule whose switch is off is not built,
and costs a step nothing. That order is the order the rules' actions appear
in the legal list (double, fusilar, split, change of a 4) and the order their
deal hooks run (the change of a 4 before the secret three).

A new house-rule action touches: its switch (:mod:`envs.rules`), its plug-in
here (a class and its line in :data:`HOUSE_RULES`), its tests and its
documentation; its action's name is appended to :mod:`envs.actions`. A
plug-in reads its own switches from the ``Rules`` (``r.rules``) once, in
``active`` and ``__init__``, and keeps what its hooks need as attributes of
its own: :class:`~envs.rulebook.RuleSwitches` copies only the switches the
engine's turn sequence and the rulebook read, so a new switch needs no line
there.

Compiled with the engine's core (:mod:`envs._native`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from envs import actions as A
from envs.cards import NUM_RANKS
from envs.hands import FUSILAR, MORT, PLAYING, SECRET, STOOD, WAITING, Hand
from envs.phases import BET, PLAY, SIDE_BET
from envs.rulebook import RuleSwitches, hit_face_up, may_split

if TYPE_CHECKING:
    from envs.engine import Engine

__all__ = ["HouseRule", "SecretThree", "ChangeFour", "Mort", "Double", "Fusilar", "Split",
           "SideBets", "HOUSE_RULES", "build", "AT_DEAL", "AFTER_DEAL", "SOLE_CHOICE",
           "LEGAL_PLAY", "LEGAL_TURN_BET", "MAX_FOUR_CHANGES"]

# Hooks a plug-in takes part in (bit flags of HouseRule.hooks).
AT_DEAL: Final = 1
AFTER_DEAL: Final = 2
SOLE_CHOICE: Final = 4
LEGAL_PLAY: Final = 8
LEGAL_TURN_BET: Final = 16

MAX_FOUR_CHANGES: Final = 4
"""RULES.md §6 change_four (ESP ``optional``): a 4 may be changed "up to four times"."""

_THREE_RANK: Final = 2
_FOUR_RANK: Final = 3
_SEVEN_RANK: Final = 6


class HouseRule:
    """One §6 house rule: its name (the switch), its actions and its hooks.

    A plug-in's ``__init__`` names its ``actions`` (indices of
    :mod:`envs.actions`) and its ``hooks`` (bit flags: :data:`AT_DEAL`, …),
    and overrides those hooks; the engine calls only the hooks named. Every
    hook does nothing here.
    """

    @staticmethod
    def active(r: RuleSwitches) -> bool:
        """Whether the rules ``r`` switch this house rule on."""
        return False

    def __init__(self, r: RuleSwitches) -> None:
        self.switches = r
        self.name = ""
        self.actions: tuple[int, ...] = ()
        self.hooks = 0

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle as (class, switches): a plug-in holds nothing but what its switches say."""
        return (type(self), (self.switches,))

    def at_deal(self, e: Engine, hand: Hand) -> None:
        """A player's first card has just been dealt to ``hand``."""

    def after_deal(self, e: Engine) -> bool:
        """Every first card is out; True if this rule now takes the table."""
        return False

    def sole_choice(self, e: Engine, hand: Hand, initial_seven: bool,
                    can_draw: bool) -> list[int] | None:
        """The only actions ``hand`` may take now, or None to let play go on."""
        return None

    def legal_play(self, e: Engine, hand: Hand, legal: list[int], initial: bool,
                   initial_seven: bool, can_draw: bool) -> None:
        """Append this rule's legal actions of a play decision to ``legal``."""

    def legal_turn_bet(self, e: Engine, rank: int, legal: list[int]) -> None:
        """Append this rule's actions of a bet on the turn, the first card of ``rank`` untouched."""

    def apply(self, e: Engine, hand: Hand, action: int) -> None:
        """The seat to act chose ``action``, one of this rule's, for ``hand``."""


class SecretThree(HouseRule):
    """RULES.md §6 secret_three (CAT): an initial 3 is swapped for two secret cards.

    Nobody, not even the owner, sees them until the bank has finished, and
    the hand can only stand.
    """

    @staticmethod
    def active(r: RuleSwitches) -> bool:
        return r.rules.secret_three

    def __init__(self, r: RuleSwitches) -> None:
        super().__init__(r)
        self.name = "secret_three"
        self.hooks = AT_DEAL | SOLE_CHOICE

    def at_deal(self, e: Engine, hand: Hand) -> None:
        if hand.cards[0] % NUM_RANKS == _THREE_RANK and e._can_draw():
            e._discard_initial(hand, "secret_three")
            hand.special = SECRET
            e._give(hand, False, unseen=True)
            if e._can_draw():
                e._give(hand, False, unseen=True)

    def sole_choice(self, e: Engine, hand: Hand, initial_seven: bool,
                    can_draw: bool) -> list[int] | None:
        return [A.STAND] if hand.special == SECRET else None


class ChangeFour(HouseRule):
    """RULES.md §6 change_four: a player's first card, if a 4, is exchanged.

    ``forced`` (CAT): the 4 is thrown out and another card dealt, at the deal.
    ``optional`` (ESP's "el cuatro"): the player may send it back into the
    middle of the pile and take the next card, up to :data:`MAX_FOUR_CHANGES`
    times — before the bet with bets on the turn, else on the first decision.
    """

    @staticmethod
    def active(r: RuleSwitches) -> bool:
        return r.rules.change_four != "off"

    def __init__(self, r: RuleSwitches) -> None:
        super().__init__(r)
        self.name = "change_four"
        if r.rules.change_four == "forced":
            self.hooks = AT_DEAL
        else:
            self.actions = (A.CHANGE_FOUR,)
            self.hooks = LEGAL_TURN_BET if r.bet_timing == "on_turn" else LEGAL_PLAY

    def at_deal(self, e: Engine, hand: Hand) -> None:
        while hand.cards[0] % NUM_RANKS == _FOUR_RANK and e._can_draw():
            e._discard_initial(hand, "change_four")
            e._give(hand, False)

    def legal_play(self, e: Engine, hand: Hand, legal: list[int], initial: bool,
                   initial_seven: bool, can_draw: bool) -> None:
        if initial and hand.cards[0] % NUM_RANKS == _FOUR_RANK and \
                e.four_changes < MAX_FOUR_CHANGES and e.draw_pile:
            legal.append(A.CHANGE_FOUR)

    def legal_turn_bet(self, e: Engine, rank: int, legal: list[int]) -> None:
        if rank == _FOUR_RANK and e.four_changes < MAX_FOUR_CHANGES and e.draw_pile:
            legal.append(A.CHANGE_FOUR)

    def apply(self, e: Engine, hand: Hand, action: int) -> None:
        """The 4 goes back into the middle of the pile; the next card replaces it."""
        card, _up, _unseen = hand.remove_last(e.wild)
        pile = e.draw_pile
        pile.insert(len(pile) // 2, card)
        e.four_changes += 1
        e._log("four_back", e.actor, card)
        e._give(hand, False)


class Mort(HouseRule):
    """RULES.md §6 mort (CAT): on an initial 7 the player chooses first: the Mort or not.

    ``mort``: the 7 is shown and one more card comes face down, seen by
    nobody; the hand stands, and loses unless it is exactly 7½. ``decline``:
    play on. With ``fusilar`` the player may shoot instead.
    """

    @staticmethod
    def active(r: RuleSwitches) -> bool:
        return r.rules.mort

    def __init__(self, r: RuleSwitches) -> None:
        super().__init__(r)
        self.name = "mort"
        self.actions = (A.MORT, A.DECLINE)
        self.hooks = SOLE_CHOICE
        self.fusilar = r.rules.fusilar

    def sole_choice(self, e: Engine, hand: Hand, initial_seven: bool,
                    can_draw: bool) -> list[int] | None:
        if not (initial_seven and not e.mort_decided and can_draw):
            return None
        legal = [A.MORT, A.DECLINE]
        if self.fusilar:
            legal.append(A.FUSILAR)
        return legal

    def apply(self, e: Engine, hand: Hand, action: int) -> None:
        if action == A.DECLINE:
            e.mort_decided = True
            e._log("decline_mort", e.actor)
            return
        hand.special = MORT
        e._reveal(hand)
        e._log("special", hand.seat, "mort", hand.index)
        e._give(hand, False, unseen=True)
        e._set_status(hand, STOOD)
        e._next_hand()


class Double(HouseRule):
    """RULES.md §6 double (CAT): with only the first card and chips enough, double the stake.

    The player is dealt exactly one more card and stands (unless it busts or
    makes a hand that ends the turn).
    """

    @staticmethod
    def active(r: RuleSwitches) -> bool:
        return r.rules.double

    def __init__(self, r: RuleSwitches) -> None:
        super().__init__(r)
        self.name = "double"
        self.actions = (A.DOUBLE,)
        self.hooks = LEGAL_PLAY
        self.hidden_cards = r.hidden_cards

    def legal_play(self, e: Engine, hand: Hand, legal: list[int], initial: bool,
                   initial_seven: bool, can_draw: bool) -> None:
        if can_draw and len(hand.cards) == 1 and not hand.doubled and \
                e.chips[e.actor] >= hand.bet:
            legal.append(A.DOUBLE)

    def apply(self, e: Engine, hand: Hand, action: int) -> None:
        seat = e.actor
        e.chips[seat] -= hand.bet
        hand.bet *= 2
        hand.doubled = True
        e._log("double", seat, hand.bet, e.hand_index)
        e._give(hand, hit_face_up(self.hidden_cards, hand.hidden_count))
        if not e._after_card(hand):
            e._set_status(hand, STOOD)
            e._next_hand()


class Fusilar(HouseRule):
    """RULES.md §6 fusilar (ESP): on an initial 7 the player may shoot.

    The 7 is shown and a card comes face down under it, seen by nobody: 7½
    pays 4 unless the bank makes 7½ (:func:`envs.rulebook.route_multiple`),
    anything else loses, and the bank must chase it (§4.6). With bets on the
    turn the shot comes before the bet, and the hand stands once staked.
    """

    @staticmethod
    def active(r: RuleSwitches) -> bool:
        return r.rules.fusilar

    def __init__(self, r: RuleSwitches) -> None:
        super().__init__(r)
        self.name = "fusilar"
        self.actions = (A.FUSILAR,)
        self.hooks = LEGAL_TURN_BET if r.bet_timing == "on_turn" else LEGAL_PLAY

    def legal_play(self, e: Engine, hand: Hand, legal: list[int], initial: bool,
                   initial_seven: bool, can_draw: bool) -> None:
        if can_draw and initial_seven:
            legal.append(A.FUSILAR)

    def legal_turn_bet(self, e: Engine, rank: int, legal: list[int]) -> None:
        if rank == _SEVEN_RANK and e._can_draw():
            legal.append(A.FUSILAR)

    def apply(self, e: Engine, hand: Hand, action: int) -> None:
        hand.special = FUSILAR
        e._reveal(hand)
        e._log("special", hand.seat, "fusilar", hand.index)
        e._give(hand, False, unseen=True)
        if e.phase == PLAY:  # the stake is already down (bets before the deal)
            e._set_status(hand, STOOD)
            e._next_hand()


class Split(HouseRule):
    """RULES.md §6 split, by ``split_rule``: the hand becomes two, each with its own stake.

    Which hands may split is :func:`envs.rulebook.may_split`. The last card
    starts the new hand; ``two_figures_once`` stakes it at once, equal to the
    first, the other rules ask for its stake (a bet, ``bet_purpose = "split"``).
    With ``abrirse`` the opened cards are shown (RULES.md §8.5).
    """

    @staticmethod
    def active(r: RuleSwitches) -> bool:
        return r.split_rule != "none"

    def __init__(self, r: RuleSwitches) -> None:
        super().__init__(r)
        self.name = "split"
        self.actions = (A.SPLIT,)
        self.hooks = LEGAL_PLAY

    def legal_play(self, e: Engine, hand: Hand, legal: list[int], initial: bool,
                   initial_seven: bool, can_draw: bool) -> None:
        seat = e.actor
        opened = 0
        for h in e.hands[seat]:
            opened += h.splits
        if may_split(self.switches, hand.cards, hand.special, hand.doubled, opened, len(e.order),
                     e.chips[seat], hand.bet):
            legal.append(A.SPLIT)

    def apply(self, e: Engine, hand: Hand, action: int) -> None:
        rule = self.switches.split_rule
        seat = e.actor
        if rule == "abrirse":
            e._reveal(hand)  # RULES.md §8.5: the opened cards are exposed (ESP)
        card, up, unseen = hand.remove_last(e.wild)
        hand.splits += 1
        new = Hand(seat, index=e.hand_index + 1)
        new.add(card, up, unseen, e.wild)
        hands = e.hands[seat]
        hands.insert(e.hand_index + 1, new)
        for i, h in enumerate(hands):
            h.index = i
        e._log("split", seat, card, e.hand_index, e.hand_index + 1, up, unseen)
        e._set_status(new, WAITING)
        e._set_status(hand, PLAYING)
        if rule == "two_figures_once":
            e.chips[seat] -= hand.bet  # CAT: "una segona aposta igual"
            new.bet = hand.bet
            e._log("bet", seat, new.bet, new.index)
        else:
            e.hand_index += 1
            e.bet_purpose = "split"
            e.phase = BET


class SideBets(HouseRule):
    """RULES.md §6 side_bets (ESP): after the deal each player may stake on another's hand.

    A phase of its own (``SIDE_BET``): each player in turn order stakes
    ``side_bet_<offset>_<k>`` on the player ``offset`` seats on, or passes;
    a side bet rides on that hand — lost when it busts or loses, paid at its
    multiple right after it (RULES.md §4.8 coverage).
    """

    @staticmethod
    def active(r: RuleSwitches) -> bool:
        return r.rules.side_bets

    def __init__(self, r: RuleSwitches) -> None:
        super().__init__(r)
        self.name = "side_bets"
        self.hooks = AFTER_DEAL

    def after_deal(self, e: Engine) -> bool:
        if len(e.order) < 2:
            return False
        e.turn = 0
        e.phase = SIDE_BET
        e.actor = e.order[0]
        return True

    def legal(self, e: Engine) -> list[int]:
        """The side bets the seat to act may place, and ``pass`` (RULES.md §8.9)."""
        r = self.switches
        seat = e.actor
        # RULES.md §8.9: with bets on the turn the bettor keeps the smallest stake for its
        # own hand, which it has yet to bet on.
        own_stake_to_come = r.smallest_stake if r.bet_timing == "on_turn" else 0
        cap = min(r.max_bet, e.chips[seat] - own_stake_to_come)
        legal = [A.PASS]
        for target in e.order:
            if target == seat:
                continue
            offset = (target - seat) % e.num_seats
            if offset > A.MAX_OFFSET:
                continue  # the layout names the nearest seats only (envs.rules, side bets)
            legal.extend(e.layout.side_bet(offset, k) for k in r.bet_ladder
                         if k * r.min_bet <= cap)
        return sorted(legal)

    def bet(self, e: Engine, action: int) -> None:
        """The seat to act places the side bet ``action`` or passes; then the next seat."""
        seat = e.actor
        if action != A.PASS:
            offset, k = e.layout.side_bet_of(action)
            target = (seat + offset) % e.num_seats
            stake = k * self.switches.min_bet
            e.chips[seat] -= stake
            e.hands[target][0].side_bets.append((seat, stake))
            e._log("side_bet", seat, target, stake)
        e.turn += 1
        if e.turn < len(e.order):
            e.actor = e.order[e.turn]
        else:
            e._begin_turn(0)


HOUSE_RULES: Final[tuple[type[HouseRule], ...]] = (Double, Fusilar, Split, ChangeFour, SecretThree, Mort, SideBets)
"""Every §6 plug-in, in the order its actions join the legal list and its deal hooks run."""


def build(r: RuleSwitches) -> list[HouseRule]:
    """The plug-ins of the rules whose switches are on, in :data:`HOUSE_RULES` order."""
    rules: list[HouseRule] = []
    for plugin in HOUSE_RULES:
        if plugin.active(r):
            rules.append(plugin(r))
    return rules
