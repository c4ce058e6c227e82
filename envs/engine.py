"""The Sette e mezzo game engine: state, legal actions, transitions, settlement.

Pure Python (and numpy for the random generator only). One ``Engine`` plays a
whole episode: hand after hand, the bank rotating between the seats, until
``max_hands`` hands are played or fewer than two seats can play (RULES.md §2).

A hand, as RULES.md §4 describes it:

1. **Bets** (``bet_timing = "before_deal"``): each player, in turn order,
   stakes ``bet_<k>``. The jackpot ante (§4.9) is taken first, automatically.
2. **Deal**: one card face down to each player in turn order, then the bank.
   Turn order runs from the seat after the bank round to the bank (§2).
   House rules act on the initial card here: a forced ``change_four``
   replaces a 4, ``secret_three`` swaps a 3 for two secret cards (§6).
3. **Side bets** (§6 ``side_bets``): each player in turn order may stake on
   another player's hand (``side_bet_<offset>_<k>``) or ``pass``.
4. **Players' turns**: with ``bet_timing = "on_turn"`` a player first bets
   after looking at the card (and may first change a 4 or shoot on a 7).
   An initial 7 may offer the Mort (``mort``/``decline``). Then ``hit`` /
   ``stand`` (and ``reveal_hit``, ``raise_<k>``, ``double``, ``split``
   where the rules allow). Face-down cards follow ``hidden_cards`` (§4.3).
   Over 7½ the hand busts, is shown, and the stake goes to the bank at once
   (§4.4). Exactly 7½ ends the turn (§4.5): with
   ``declare_seven_and_half`` the hand is shown at once; without it the
   player is left only ``stand``, so it looks like any stand (§8.7). Split
   hands are played one after the other.
5. **Bank's turn** (§4.6): the bank turns its card up and hits or stands,
   seeing only face-up cards. It has no decision when every player busted.
   It may not stand below 7½ against a declared 7½ (with
   ``bank_must_chase_declared``) or a live fusilar.
6. **Settlement** (§4.7–4.9), then every hand is shown (showdown): losing
   stakes go to the bank, winners are paid in turn order while the bank has
   chips (coverage), side bets right after the hand they ride on, the first
   natural takes the jackpot.
7. **Bank transfer** (§5): ``offer``/``right`` ask the player concerned;
   ``mandatory``/``natural_only`` move the bank; with ``bank_sale`` the bank
   may offer it to the next seat (``sell_bank``/``pass``); then
   ``max_bank_hands`` and ``bank_min_cover`` may pass the bank on.

With ``first_bank = "auction"`` (§5 ``bank_sale``) an episode starts with
the seats bidding for the bank (``bid_<k>``/``pass``) in seat order.

The engine keeps this turn sequence. The rules it applies are elsewhere, one
place each: what wins and what is paid in the rulebook
(:mod:`envs.rulebook`), each §6 house rule in its plug-in
(:mod:`envs.house_rules`, built once per engine from the switches that are
on), who holds the bank in :mod:`envs.bank_seat` (§5).

Phases (:mod:`envs.phases`) — who is asked, and where play goes next:

==========  ======================  ==========================================
phase       entered                 left, after the actor's action
==========  ======================  ==========================================
AUCTION     ``reset``, with         next seat bids; after the last, the first
            ``first_bank =          hand begins (BET, or the deal)
            "auction"``
BET         a hand begins           ``round``: next bettor, then the deal
            (``before_deal``:       (SIDE_BET or the first turn); ``turn``:
            ``bet_purpose =         PLAY, or the next turn after a fusilar
            "round"``); a turn      (a house rule's action keeps BET);
            begins (``on_turn``:    ``split``: PLAY on the hand split
            ``"turn"``); a split
            asks a stake
            (``"split"``)
SIDE_BET    the deal, with          next player in turn order, then the
            ``side_bets`` and two   first turn
            players or more
PLAY        a turn or a split       the same hand, the seat's next split
            hand begins             hand, the next turn (BET or PLAY), or
                                    BANK after the last turn
BANK        every turn is over      settlement when the bank stands, busts or
                                    makes 7½ (at once if every player busted),
                                    then the bank transfer
TRANSFER    settlement (``offer``,  next candidate; SELL; the next hand
            ``right``); a sale      or OVER
SELL        no transfer, with       TRANSFER (the buyer answers) or the next
            ``bank_sale``           hand
OVER        ``max_hands`` played,   —
            or no seat can hold
            the bank
==========  ======================  ==========================================

Flags of the turn sequence, and what sets and clears them:

=================  ==========================================================
flag               set / cleared
=================  ==========================================================
``turn``           the index in ``order`` of the seat to bet or play; 0 at
                   the round of bets, the side bets and the first turn
``hand_index``     the seat's hand in play (split hands); 0 at each turn,
                   +1 to the next split hand, the new hand while its stake
                   is asked
``raised``         True after a raise; False after a hit, at each turn and
                   each split hand (one raise between cards, §2)
``mort_decided``   True after ``decline``; False at each turn (§6 mort)
``four_changes``   +1 per ``change_four``; 0 at each turn (§6 change_four)
``bet_purpose``    ``round`` / ``turn`` / ``split``: what the BET phase is for
``transfer_kind``  ``bank_transfer`` after settlement; ``sale`` on ``sell_bank``
``transfer_queue`` the seats still to ask: every candidate (``offer``), the
                   first (``right``), the buyer (sale); one popped per answer
``refused``        a seat's refusal of an offer (§5 ``offer``: next time it
                   must take it); cleared when it next holds the bank
``best_bid``       the highest bid of the auction and its seat
``bank_streak``    +1 each hand; 0 when the bank changes seat (§5
                   ``max_bank_hands``)
=================  ==========================================================

All randomness comes from one ``numpy.random.Generator`` made from the seed
given to :meth:`Engine.reset`; the seed is recorded in the event log, so any
episode can be replayed (:func:`replay`).

Cards are integer codes and totals are half points (see :mod:`envs.cards`);
a hand's scoring and its special forms live in :mod:`envs.hands`.
"""

from __future__ import annotations

import operator
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

import numpy as np

from envs import actions as A
from envs import bank_seat
from envs.actions import ActionLayout
from envs.cards import (DECK_SIZE, NUM_RANKS, SEVEN_AND_HALF, card_name, get_state, new_shoe,
                        parse_card, parse_cards, set_state)
from envs.events import ActionEvent, ResetEvent, typed
from envs.hands import (BUST, DECLARED, FUSILAR, NONE, PAIR_OF_SEVENS, PLAYING, STATUS_NAMES,
                        STOOD, TRIPLE, WAITING, Hand)
from envs.rulebook import (RuleSwitches, covered_pay, forces_chase, hand_form, hit_face_up,
                           is_pair_of_sevens, seat_need, split_floor, winning_multiple,
                           wins_jackpot)
from envs.house_rules import (AFTER_DEAL, AT_DEAL, LEGAL_PLAY, LEGAL_TURN_BET, SOLE_CHOICE,
                              HouseRule, SideBets, build)
from envs.phases import AUCTION, BANK, BET, OVER, PHASE_NAMES, PLAY, SELL, SIDE_BET, TRANSFER
from envs.rules import MAX_SEATS, MIN_SEATS, Rules, check_max_hands

__all__ = ["Engine", "Hand", "IllegalActionError", "RuleSwitches", "replay", "as_index",
           "checked_seed", "PHASE_NAMES", "STATUS_NAMES", "BET", "PLAY", "BANK", "TRANSFER",
           "OVER", "AUCTION", "SIDE_BET", "SELL", "WAITING", "PLAYING", "STOOD", "BUST",
           "DECLARED"]

_SEVEN_RANK: Final = 6


class IllegalActionError(ValueError):
    """An action that is not legal for the seat to act."""


class Engine:
    """Full state of a table of ``num_seats`` seats playing under ``rules``.

    A scripted hand, paid to the chip (``pagat``: bets before the deal, the
    bank wins ties, a plain win pays 1 to 1)::

        >>> from envs.engine import Engine
        >>> engine = Engine("pagat", num_seats=2, max_hands=1)
        >>> engine.reset(seed=0, bank=1, deck=["7o", "2c", "Rc"], chips=[500, 500])
        >>> engine.actor, engine.legal_actions()      # seat 0 bets first: the ladder's stakes
        (0, [14, 15, 16, 17])
        >>> engine.step(14); engine.step(1)           # the smallest stake, then hit: 7o + Rc = 7½
        >>> engine.step(0)                            # the bank stands on its 2
        >>> engine.chips, engine.over
        ([510, 490], True)
    """

    def __init__(self, rules: Rules | str | Path | Mapping[str, Any] | None = None,
                 num_seats: object = 4, max_hands: object = 10) -> None:
        """``rules``: anything :meth:`Rules.resolve` takes (a preset name, a rules
        file, a mapping of switches; None: the default rules); ``num_seats``: an
        int the rules' shoe seats (:meth:`Rules.check_seats`); ``max_hands``: a
        positive int or None.

        Parameters checked here are typed ``object``: the compiled core
        (:mod:`envs._native`) enforces annotations on entry, and a wrong
        value must reach the check that names it.
        """
        self.rules = resolved = Rules.resolve(rules)
        self._switches = RuleSwitches(resolved)
        seats: int = resolved.check_seats(num_seats)  # larger tables need more decks
        self.num_seats: int = seats
        self.max_hands: int | None = check_max_hands(max_hands)
        self.layout = ActionLayout(self._switches.bet_ladder)
        self._plug_in(self._switches)
        self.wild = -1 if self._switches.wild_card == "none" else parse_card(self._switches.wild_card)
        self.phase = OVER  # no game before reset: nobody acts, nothing is legal
        self.actor = -1
        self.events: list[tuple] = []
        self._legal: list[int] | None = []
        self._mask: np.ndarray | None = None  # the mask of _legal, built on demand
        self._mask_cache: dict[tuple[int, ...], np.ndarray] = {}
        self._seeds: np.random.Generator | None = None  # next episodes' seeds (reset)

    def _plug_in(self, r: RuleSwitches) -> None:
        """Build the §6 house rules switched on (:mod:`envs.house_rules`), once, by hook.

        Each hook's plug-ins are a tuple the turn sequence runs through; an
        inactive rule is in none of them. ``_action_rules[a]`` is the plug-in
        that applies action ``a``, or None for the engine's own actions.
        """
        plugins = build(r)
        self.house_rules: tuple[HouseRule, ...] = tuple(plugins)
        self._deal_rules = tuple([p for p in plugins if p.hooks & AT_DEAL])
        self._after_deal_rules = tuple([p for p in plugins if p.hooks & AFTER_DEAL])
        self._sole_choice_rules = tuple([p for p in plugins if p.hooks & SOLE_CHOICE])
        self._play_rules = tuple([p for p in plugins if p.hooks & LEGAL_PLAY])
        self._turn_bet_rules = tuple([p for p in plugins if p.hooks & LEGAL_TURN_BET])
        self._action_rules: list[HouseRule | None] = [None] * self.layout.size
        self._side_bets: SideBets | None = None
        for p in plugins:
            for a in p.actions:
                self._action_rules[a] = p
            if isinstance(p, SideBets):
                self._side_bets = p

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle as (class, constructor arguments, attributes): see envs.cards.get_state."""
        return (Engine, (self.rules, self.num_seats, self.max_hands), get_state(self))

    def __setstate__(self, state: dict[str, Any]) -> None:
        set_state(self, state)

    # ------------------------------------------------------------------ reset
    def reset(self, seed: object = None, deck: object = None, bank: object = None,
              chips: object = None) -> None:
        """Start an episode.

        ``deck`` puts those cards on top of the shoe in that draw order for the
        first hand (the rest follows, shuffled by the seed); ``bank`` fixes the
        first bank (no high card, draw or auction); ``chips`` sets the stacks.

        Every argument is checked before anything changes, a bad one raising a
        ``ValueError`` that names it: a seed is a non-negative integer, ``deck``
        card names or codes, ``bank`` a seat, ``chips`` one non-negative integer
        per seat (Python or numpy integers; never a bool or a float). They are
        typed ``object`` so that the compiled core (:mod:`envs._native`), which
        enforces annotations on entry, reaches the same checks.

        Seeding follows Gymnasium's convention: ``seed`` starts the episode's
        generator and a stream of seeds for later episodes; ``seed=None``
        takes the next seed of that stream, so a table seeded once repeats
        however often it is reset afterwards. Only an engine never seeded
        draws from the OS. Every episode's seed is in its event log (replay).
        """
        r = self._switches
        n = self.num_seats
        seed = checked_seed(seed)
        stacks = None if chips is None else _checked_chips(chips, n)
        given_bank = None if bank is None else _checked_bank(bank, n)
        stacked = self._parse_deck(deck)
        if seed is None:
            if self._seeds is None:
                self._seeds = np.random.default_rng()
            seed = int(self._seeds.integers(2**32))
            self.rng = np.random.default_rng(seed)
        else:
            self.rng = np.random.default_rng(seed)  # checks the seed first
            self._seeds = np.random.default_rng(np.random.SeedSequence(int(seed)).spawn(1)[0])
        self.seed = seed
        self.chips = [r.starting_chips] * n if stacks is None else stacks
        self.events = [("reset", seed, None if deck is None else [card_name(c) for c in stacked],
                        given_bank, None if stacks is None else list(stacks))]
        self.jackpot = 0
        self.hands_played = 0
        self.refused = [False] * n
        self.draw_pile = new_shoe(r.decks)
        self.discard: list[int] = []
        self.seen = [0] * NUM_RANKS
        self.hands: list[list[Hand]] = [[] for _ in range(n)]
        self.bank_hand = Hand(-1)
        self.current = [0] * n
        self.order: list[int] = []
        self.turn = 0
        self.hand_index = 0
        self.actor = -1
        self.raised = False
        self.bet_purpose = ""
        self.mort_decided = False
        self.four_changes = 0
        self.transfer_queue: list[int] = []
        self.transfer_kind = ""
        self.best_bid = (0, -1)
        self._zero_rewards = (0.0,) * n
        self.pending_rewards = self._zero_rewards
        self.rewarded = False
        self._legal = None
        self._mask = None
        self.hand_start_chips = list(self.chips)
        self._shuffle_all()
        self.bank = -1  # nobody holds the bank before the first one is chosen
        self.bank_streak = 0
        self._stacked = stacked
        if given_bank is not None:
            self._log("first_bank", given_bank, "given")
            self._open_first_hand(given_bank)
        elif r.first_bank == "auction":
            self.phase = AUCTION
            self.actor = 0
        else:
            self._open_first_hand(bank_seat.draw_first_bank(self))

    def _open_first_hand(self, bank: int) -> None:
        self.bank = bank
        self._stack(self._stacked)
        if not bank_seat.settle_bank_seat(self, self.bank, "first bank"):
            self._finish_episode()
            return
        self._start_hand()

    def _parse_deck(self, deck: object) -> list[int]:
        """The cards of ``reset``'s ``deck``: a string of names, or a list of names or codes."""
        if deck is None:
            return []
        if isinstance(deck, str):
            cards = parse_cards(deck)
        elif isinstance(deck, (list, tuple, np.ndarray)):
            items: list[object] = list(deck)
            cards = [as_index(c) if _is_integer(c) else parse_card(c) for c in items]
        else:
            raise ValueError(f"deck={deck!r} must be card names such as '7o Rc' or a list of "
                             f"names or codes 0..{DECK_SIZE - 1}")
        for c in cards:
            if not 0 <= c < DECK_SIZE:
                raise ValueError(f"deck card code {c!r} is not in 0..{DECK_SIZE - 1}")
            if cards.count(c) > self._switches.decks:
                raise ValueError(f"deck option names {card_name(c)} {cards.count(c)} times but "
                                 f"the shoe holds {self._switches.decks} deck(s)")
        return cards

    def _stack(self, cards: list[int]) -> None:
        """Put ``cards`` on top of the draw pile, first card drawn first."""
        for c in cards:
            self.draw_pile.remove(c)
        self.draw_pile.extend(reversed(cards))

    # ------------------------------------------------------------- public API
    @property
    def over(self) -> bool:
        """True once the episode has ended."""
        return self.phase == OVER

    @property
    def current_hand(self) -> Hand | None:
        """The hand being played or bet on, if a player or the bank is acting."""
        if self.phase in (BET, PLAY) and self.hands[self.actor]:
            return self.hands[self.actor][self.hand_index]
        if self.phase == BANK:
            return self.bank_hand
        return None

    def legal_actions(self) -> list[int]:
        """Indices of the actions the seat to act may take now (do not modify the list)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        return legal

    def action_mask(self) -> np.ndarray:
        """The legal actions as a new int8 mask over the action layout."""
        return self.legal_mask().copy()

    def legal_mask(self) -> np.ndarray:
        """The legal actions as an int8 mask shared with the engine: read it, never write it.

        One array per set of legal actions, kept for the engine's life, so a
        caller that only reads it (the single-seat views' built-in dealer)
        saves the copy :meth:`action_mask` makes.
        """
        mask = self._mask
        if mask is None:
            legal = self.legal_actions()
            key = tuple(legal)
            mask = self._mask_cache.get(key)
            if mask is None:
                mask = self._mask_cache[key] = np.zeros(self.layout.size, dtype=np.int8)
                mask[legal] = 1
            self._mask = mask
        return mask

    def step(self, action: object) -> None:
        """Apply the action of the seat to act, then play on to the next decision.

        ``action`` is an index of the layout, a Python or numpy integer. Anything
        else (a bool, a float) is refused like an illegal action, naming it;
        typed ``object`` so that the compiled core reaches the same check.
        """
        index = action if type(action) is int else as_index(action)
        legal = self.legal_actions()
        if index not in legal:
            if self.phase == OVER:  # no game: nothing is legal
                when = "is over" if self.events else "has not been dealt"
                raise IllegalActionError(f"action {action!r}: the game {when}; call reset() "
                                         f"to deal one")
            names = self.layout.names
            what = names[index] if 0 <= index < len(names) else "not an action index"
            raise IllegalActionError(
                f"action {action!r} ({what}) is not legal for seat {self.actor} in phase "
                f"{PHASE_NAMES[self.phase]}; legal: "
                + ", ".join(f"{a} ({names[a]})" for a in legal))
        action = index
        self.rewarded = False
        self.pending_rewards = self._zero_rewards
        self._log("action", self.actor, self.layout.names[action])
        phase = self.phase
        if phase == PLAY:
            self._player_action(action)
        elif phase == BANK:
            self._bank_action(action)
        elif phase == BET:
            self._bet_action(action)
        elif phase == TRANSFER:
            bank_seat.answer_transfer(self, action)
        elif phase == SIDE_BET:
            side_bets = self._side_bets
            assert side_bets is not None, "the SIDE_BET phase opens only with side_bets"
            side_bets.bet(self, action)
        elif phase == AUCTION:
            bank_seat.bid(self, action)
        else:
            bank_seat.answer_sale(self, action)
        self._legal = None
        self._mask = None

    # ---------------------------------------------------------- legal actions
    def _compute_legal(self) -> list[int]:
        phase = self.phase
        if phase == PLAY:
            return self._legal_play()
        if phase == BANK:
            legal = []
            if not (self._bank_must_chase() and self._can_draw()):
                legal.append(A.STAND)
            if self._can_draw():
                legal.append(A.HIT)
            return legal
        if phase == BET:
            return self._legal_bet()
        if phase == TRANSFER:
            return bank_seat.legal_answers(self)
        if phase == SIDE_BET:
            side_bets = self._side_bets
            assert side_bets is not None, "the SIDE_BET phase opens only with side_bets"
            return side_bets.legal(self)
        if phase == AUCTION:
            return bank_seat.legal_bids(self)
        if phase == SELL:
            return [A.PASS, A.SELL_BANK]
        return []

    def _stakes(self, start: int, low: int, high: int) -> list[int]:
        """The ladder's stakes of ``low`` to ``high`` chips, as actions counted from ``start``.

        RULES.md §8.9: the stakes on offer are the bet ladder's steps (in
        chips); every bet, raise, split stake and side bet is one of them, so
        a choice is offered only when this list is not empty.
        """
        r = self._switches
        return [start + i for i, k in enumerate(r.bet_ladder) if low <= k * r.min_bet <= high]

    def _legal_bet(self) -> list[int]:
        r = self._switches
        seat = self.actor
        low = r.smallest_stake
        if self.bet_purpose == "split":
            low = split_floor(r, self.hands[seat][self.hand_index - 1].bet)
        legal = self._stakes(self.layout.bet_start, low, min(r.max_bet, self.chips[seat]))
        if self.bet_purpose == "turn" and self._turn_bet_rules:
            hand = self.hands[self.actor][0]
            if len(hand.cards) == 1 and hand.special == NONE:
                rank = hand.cards[0] % NUM_RANKS
                for rule in self._turn_bet_rules:
                    rule.legal_turn_bet(self, rank, legal)
        return sorted(legal)

    def _legal_play(self) -> list[int]:
        r = self._switches
        seat = self.actor
        hand = self.hands[seat][self.hand_index]
        if hand.total == SEVEN_AND_HALF:
            return [A.STAND]  # RULES.md §4.5 the turn ends, undeclared: as a stand (§8.7)
        can_draw = self._can_draw()
        initial = self.hand_index == 0 and len(hand.cards) == 1 and hand.special == NONE
        initial_seven = initial and hand.cards[0] % NUM_RANKS == _SEVEN_RANK
        for rule in self._sole_choice_rules:
            choice = rule.sole_choice(self, hand, initial_seven, can_draw)
            if choice is not None:
                return choice
        legal = [A.STAND]
        if can_draw:
            legal.append(A.HIT)
            if r.hidden_cards == "player_choice" and hand.hidden_count:
                legal.append(A.REVEAL_HIT)
        for rule in self._play_rules:
            rule.legal_play(self, hand, legal, initial, initial_seven, can_draw)
        if r.bet_raise and not self.raised:
            room = min(r.max_bet - hand.bet, self.chips[seat])
            legal.extend(self._stakes(self.layout.raise_start, 1, room))
        return legal

    def _bank_must_chase(self) -> bool:
        """The bank may not stand below 7½ (RULES.md §4.6, §6 fusilar: :func:`forces_chase`)."""
        if self.bank_hand.total >= SEVEN_AND_HALF:
            return False
        chase_declared = self._switches.bank_must_chase_declared
        for s in self.order:
            for h in self.hands[s]:
                if not h.settled and forces_chase(h.special, h.status, chase_declared):
                    return True
        return False

    # ------------------------------------------------------------ hand flow
    def _start_hand(self) -> None:
        r = self._switches
        n = self.num_seats
        if r.reshuffle == "every_hand" and self.hands_played:
            self.draw_pile.extend(self.discard)
            self.discard.clear()
            self._shuffle_all()
        self.hand_start_chips = list(self.chips)
        self.refused[self.bank] = False  # a refusal counts until the seat next holds the bank
        need = seat_need(r.smallest_stake, r.jackpot_ante)
        self.order = [s for s in ((self.bank + i) % n for i in range(1, n)) if self.chips[s] >= need]
        self.bank_streak += 1
        self.current = [0] * n
        self._log("hand", self.hands_played + 1, self.bank, self.bank_streak, tuple(self.order))
        self.hands = [[] for _ in range(n)]
        for s in self.order:
            self.hands[s] = [Hand(s)]
        self.bank_hand = Hand(self.bank)
        if r.jackpot_ante:
            for s in self.order:
                self.chips[s] -= r.jackpot_ante
                self.jackpot += r.jackpot_ante
                self._log("ante", s, r.jackpot_ante)
        if r.bet_timing == "before_deal":
            self.turn = 0
            self.hand_index = 0
            self.bet_purpose = "round"
            self.phase = BET
            self.actor = self.order[0]
        else:
            self._deal()

    def _deal(self) -> None:
        """One card face down to each player in turn order, then the bank.

        House rules act on each initial card as it comes (a forced change of
        a 4, a secret three), and may take the table once every card is out
        (side bets); else the players' turns begin.
        """
        for s in self.order:
            hand = self.hands[s][0]
            self._give(hand, False)
            for rule in self._deal_rules:
                rule.at_deal(self, hand)
        self._give(self.bank_hand, False)
        for rule in self._after_deal_rules:
            if rule.after_deal(self):
                return
        self._begin_turn(0)

    def _discard_initial(self, hand: Hand, reason: str) -> None:
        """Take the initial card out of the hand, shown, onto the discard pile."""
        card, _up, _unseen = hand.remove_last(self.wild)
        self.discard.append(card)
        self.seen[card % NUM_RANKS] += 1
        self._log("discarded", hand.seat, card, reason)

    def _begin_turn(self, turn: int) -> None:
        self.turn = turn
        self.raised = False
        self.hand_index = 0
        self.mort_decided = False
        self.four_changes = 0
        if turn >= len(self.order):
            self._begin_bank_turn()
            return
        self.actor = self.order[turn]
        hand = self.hands[self.actor][0]
        self._set_status(hand, PLAYING)
        if self._switches.bet_timing == "on_turn":
            self.bet_purpose = "turn"
            self.phase = BET
        else:
            self.phase = PLAY

    def _next_hand(self) -> None:
        """The hand in play is done: play the seat's next split hand, or the next seat."""
        if self.hand_index + 1 < len(self.hands[self.actor]):
            self.hand_index += 1
            self.raised = False
            self._set_status(self.hands[self.actor][self.hand_index], PLAYING)
            self.phase = PLAY
        else:
            self._begin_turn(self.turn + 1)

    def _bet_action(self, action: int) -> None:
        r = self._switches
        seat = self.actor
        hand = self.hands[seat][self.hand_index]
        rule = self._action_rules[action]
        if rule is not None:  # a house rule's action before the bet (change_four, fusilar)
            rule.apply(self, hand, action)
            return
        amount = r.bet_ladder[action - self.layout.bet_start] * r.min_bet
        self.chips[seat] -= amount
        hand.bet = amount
        self._log("bet", seat, amount, self.hand_index)
        purpose = self.bet_purpose
        if purpose == "round":
            self.turn += 1
            if self.turn < len(self.order):
                self.actor = self.order[self.turn]
            else:
                self._deal()
        elif purpose == "split":
            self.hand_index -= 1  # back to the hand that was split
            self.phase = PLAY
        elif hand.special == FUSILAR:
            self._set_status(hand, STOOD)
            self._next_hand()
        else:
            self.phase = PLAY

    def _player_action(self, action: int) -> None:
        seat = self.actor
        hand = self.hands[seat][self.hand_index]
        if action == A.STAND:
            self._set_status(hand, STOOD)
            self._next_hand()
            return
        if action == A.HIT:
            self._give(hand, hit_face_up(self._switches.hidden_cards, hand.hidden_count))
        elif action == A.REVEAL_HIT:
            self._reveal(hand)
            self._give(hand, False)
        else:
            rule = self._action_rules[action]
            if rule is not None:  # a house rule's action: envs.house_rules
                rule.apply(self, hand, action)
                return
            # raise_<k>
            amount = self._switches.bet_ladder[action - self.layout.raise_start] * self._switches.min_bet
            self.chips[seat] -= amount
            hand.bet += amount
            self.raised = True
            self._log("raise", seat, amount, hand.bet, self.hand_index)
            return
        self.raised = False
        self._after_card(hand)

    def _after_card(self, hand: Hand) -> bool:
        """Bust, a declared 7½ and a pair of sevens end the hand in play (True if ended)."""
        if hand.special == NONE:
            form = self._form(hand)
            if form == PAIR_OF_SEVENS:
                hand.special = PAIR_OF_SEVENS  # RULES.md §4.8: shown once made
                self._reveal(hand)
                self._log("special", hand.seat, "pair_of_sevens", hand.index)
                self._set_status(hand, STOOD)
                self._next_hand()
                return True
            if form == TRIPLE:
                hand.special = TRIPLE  # RULES.md §4.8 (ITA triplè)
                self._log("special", hand.seat, "triple", hand.index)
        if hand.total > SEVEN_AND_HALF:
            self._bust(hand)
            self._next_hand()
            return True
        if hand.total == SEVEN_AND_HALF and self._switches.declare_seven_and_half:
            self._declare(hand)
            self._next_hand()
            return True
        return False

    def _bust(self, hand: Hand) -> None:
        """RULES.md §4.4: the hand is shown; its stake and side bets go to the bank at once."""
        self._set_status(hand, BUST)
        self._reveal(hand)
        lost = hand.bet + sum(stake for _bettor, stake in hand.side_bets)
        self.chips[self.bank] += lost
        hand.settled = True
        self._log("bust", hand.seat, hand.total, lost)

    def _declare(self, hand: Hand) -> None:
        """RULES.md §4.5: with ``declare_seven_and_half`` a 7½ is shown and ends the turn.

        Without the switch a 7½ ends the turn through the player's own
        ``stand``, the one action it is left (:meth:`_legal_play`), so that it
        looks exactly like any other stand to everyone else (RULES.md §8.7).
        """
        self._set_status(hand, DECLARED)
        self._reveal(hand)

    def _begin_bank_turn(self) -> None:
        """RULES.md §4.6: the bank turns its cards up; it plays if anyone is left."""
        self.phase = BANK
        self.actor = self.bank
        self.hand_index = 0
        self._reveal(self.bank_hand)
        if not any(not h.settled for s in self.order for h in self.hands[s]):
            self._set_status(self.bank_hand, STOOD)
            self._settle()
        else:
            self._set_status(self.bank_hand, PLAYING)

    def _bank_action(self, action: int) -> None:
        hand = self.bank_hand
        if action == A.STAND:
            self._set_status(hand, STOOD)
            self._settle()
            return
        self._give(hand, True)
        if self._switches.pair_of_sevens and is_pair_of_sevens(hand.cards):
            hand.special = PAIR_OF_SEVENS
            self._log("special", self.bank, "pair_of_sevens", 0)
            self._set_status(hand, STOOD)
            self._settle()
        elif hand.total > SEVEN_AND_HALF:
            self._set_status(hand, BUST)
            self._log("bust", self.bank, hand.total, 0)
            self._settle()
        elif hand.total == SEVEN_AND_HALF:
            self._set_status(hand, STOOD)
            self._settle()

    # ------------------------------------------------------------ settlement
    def _form(self, hand: Hand) -> int:
        """The special form of ``hand``'s cards (RULES.md §4.8, §8.4: :func:`hand_form`)."""
        r = self._switches
        return hand_form(hand.cards, self.wild, r.pair_of_sevens, r.triple)

    def _player_wins(self, hand: Hand) -> int:
        """0 if the bank wins, else the payout multiple (RULES.md §4.7, §4.8, §6: :func:`winning_multiple`)."""
        bank = self.bank_hand
        return winning_multiple(self._switches, hand.total, len(hand.cards), hand.special,
                                self._form(hand), bank.total, len(bank.cards),
                                bank.special == PAIR_OF_SEVENS)

    def _settle(self) -> None:
        """RULES.md §4.7–4.9: collect, pay in turn order within coverage, jackpot."""
        bank = self.bank
        chips = self.chips
        for s in self.order:  # secret, Mort and fusilar cards are seen only now
            for hand in self.hands[s]:
                if any(hand.unseen):
                    self._reveal(hand)
        winners = []
        for s in self.order:
            for hand in self.hands[s]:
                if hand.settled:
                    continue
                multiple = self._player_wins(hand)
                if multiple:
                    winners.append((hand, multiple))
                    continue
                lost = hand.bet + sum(stake for _bettor, stake in hand.side_bets)
                chips[bank] += lost
                hand.settled = True
                self._log("lose", s, hand.bet, hand.index)
                for bettor, stake in hand.side_bets:
                    self._log("side_lose", bettor, stake, s)
        for hand, multiple in winners:
            pay = covered_pay(multiple, hand.bet, chips[bank])
            chips[bank] -= pay
            chips[hand.seat] += hand.bet + pay
            hand.settled = True
            self._log("win", hand.seat, pay, multiple * hand.bet, hand.index)
            for bettor, stake in hand.side_bets:
                pay = covered_pay(multiple, stake, chips[bank])
                chips[bank] -= pay
                chips[bettor] += stake + pay
                self._log("side_win", bettor, pay, multiple * stake, hand.seat)
        bank_total = self.bank_hand.total
        if self.jackpot and bank_total != SEVEN_AND_HALF:
            for s in self.order:
                if any(wins_jackpot(h.total, len(h.cards), h.special, bank_total)
                       for h in self.hands[s]):
                    chips[s] += self.jackpot
                    self._log("jackpot", s, self.jackpot)
                    self.jackpot = 0
                    break
        for s in self.order:
            for hand in self.hands[s]:
                self._reveal(hand)
        scale = 1.0 / self._switches.min_bet
        self.pending_rewards = tuple([(c - c0) * scale
                                      for c, c0 in zip(chips, self.hand_start_chips)])
        self.rewarded = True
        self._log("chips", list(chips), self.jackpot)
        bank_seat.begin_transfer(self)

    # ---------------------------------------------------------- between hands
    def _end_hand(self, new_bank: int | None, reason: str = "") -> None:
        """Discard the cards, rotate the bank, start the next hand or end."""
        self.hands_played += 1
        for s in range(self.num_seats):
            for hand in self.hands[s]:
                self.discard.extend(hand.cards)
        self.discard.extend(self.bank_hand.cards)
        self.hands = [[] for _ in range(self.num_seats)]
        self.bank_hand = Hand(self.bank)
        self.order = []
        bank_seat.pass_on(self, new_bank, reason)
        if self.max_hands is not None and self.hands_played >= self.max_hands:
            self._finish_episode()
            return
        if not bank_seat.settle_bank_seat(self, self.bank, "cannot cover"):
            self._finish_episode()
            return
        self._start_hand()

    def _finish_episode(self) -> None:
        self.phase = OVER
        self.actor = -1
        self._log("over", self.hands_played)

    # ------------------------------------------------------------------ cards
    def _shuffle_all(self) -> None:
        self.rng.shuffle(self.draw_pile)
        self.seen = [0] * NUM_RANKS
        self._log("shuffle", len(self.draw_pile))

    def _can_draw(self) -> bool:
        return bool(self.draw_pile) or (self._switches.reshuffle == "when_empty" and bool(self.discard))

    def _draw(self) -> int:
        if not self.draw_pile:
            # RULES.md §3 when_empty: the discard pile (not cards in play) becomes the shoe.
            self.draw_pile, self.discard = self.discard, []
            self._shuffle_all()
            for s in self.order:
                for hand in self.hands[s]:
                    self._count_face_up(hand)
            self._count_face_up(self.bank_hand)
        return self.draw_pile.pop()

    def _count_face_up(self, hand: Hand) -> None:
        for card, up in zip(hand.cards, hand.face_up):
            if up:
                self.seen[card % NUM_RANKS] += 1

    def _give(self, hand: Hand, face_up: bool, unseen: bool = False) -> None:
        card = self._draw()
        hand.add(card, face_up, unseen, self.wild)
        if face_up:
            self.seen[card % NUM_RANKS] += 1
        self._log("card", hand.seat, card, face_up, hand.index, unseen)

    def _reveal(self, hand: Hand) -> None:
        face_up = hand.face_up
        for i, up in enumerate(face_up):
            if not up:
                face_up[i] = True
                card = hand.cards[i]
                self.seen[card % NUM_RANKS] += 1
                self._log("reveal", hand.seat, card, hand.index, hand.unseen[i])
                hand.unseen[i] = False

    def _set_status(self, hand: Hand, status: int) -> None:
        hand.status = status
        self.current[hand.seat] = hand.index
        self._log("status", hand.seat, status, hand.index)

    def _log(self, *event: Any) -> None:
        self.events.append(event)


def _is_integer(value: object) -> bool:
    """True for a Python or numpy integer that is not a bool."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool)


def as_index(value: object) -> int:
    """``value`` as a Python int if it is a non-negative integer, else -1.

    An integer is a Python int, a numpy integer or a 0-d integer array — never
    a bool (``True`` is no index) nor a float (``1.0`` is not rounded). The one
    reading of a client's index (an action, a seat, a card code, a seed) that
    the engine, the observer and the views share: each names the bad value
    in its own error.
    """
    if type(value) is int:
        return value if value >= 0 else -1
    if isinstance(value, (bool, np.bool_)):
        return -1
    if isinstance(value, np.ndarray) and (value.ndim != 0 or value.dtype.kind not in "iu"):
        return -1
    try:
        index = operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        return -1
    return index if index >= 0 else -1


def checked_seed(seed: object) -> int | None:
    """A seed as a Python int (None stays None): any integer, numpy's too, but not a bool or
    a float; a ``ValueError`` names a bad one. ``reset`` and everything else seeded checks
    its seed here."""
    if seed is None:
        return None
    value = as_index(seed)
    if value < 0:
        raise ValueError(f"seed={seed!r} must be a non-negative integer or None")
    return value


def _checked_chips(chips: object, n: int) -> list[int]:
    """``reset``'s stacks: exactly ``n`` non-negative integers, as Python ints."""
    items: list[object] = list(chips) if isinstance(chips, (list, tuple, np.ndarray)) else []
    stacks = [as_index(c) for c in items]
    if len(stacks) != n or min(stacks) < 0:
        raise ValueError(f"chips={chips!r} must be {n} non-negative integers, one per seat")
    return stacks


def _checked_bank(bank: object, n: int) -> int:
    """``reset``'s first bank: a seat ``0..n-1``, as a Python int."""
    seat = as_index(bank)
    if not 0 <= seat < n:
        raise ValueError(f"bank={bank!r} is not a seat; seats are 0..{n - 1}")
    return seat


def replay(rules: Rules | str, num_seats: int, max_hands: int | None,
           events: list[tuple]) -> Engine:
    """Replay an episode from its event log: same seed and options, same actions.

    Returns the new engine; its ``events`` equal the given log (checked).
    """
    first = events[0] if events else ()
    if not first or first[0] != "reset":
        raise ValueError(f"an event log starts with its ('reset', seed, deck, bank, chips) "
                         f"event, not {first or 'nothing'!r}")
    reset = typed(first)
    assert isinstance(reset, ResetEvent)
    engine = Engine(rules, num_seats, max_hands)
    engine.reset(seed=reset.seed, deck=reset.deck, bank=reset.bank, chips=reset.chips)
    for event in events[1:]:
        if event[0] == "action":
            action = typed(event)
            assert isinstance(action, ActionEvent)
            if action.seat != engine.actor:
                raise ValueError(f"log says seat {action.seat} acts, but seat {engine.actor} "
                                 f"is to act")
            engine.step(engine.layout.index(action.name))
    if engine.events != events:
        raise ValueError("replaying the log's actions gives different events: the log "
                         "does not come from these rules")
    return engine
