"""The Sette e mezzo game engine: state, legal actions, transitions, settlement.

Pure Python (and numpy for the random generator only). One ``Engine`` plays a
whole episode: hand after hand, the bank rotating between the seats, until
``max_hands`` hands are played or fewer than two seats can play (RULES.md §2).

A hand, as RULES.md §4 describes it:

1. **Bets** (``bet_timing = "before_deal"``): each player, in turn order,
   stakes ``bet_<k>``. The jackpot ante (§4.9) is taken first, automatically.
2. **Deal**: one card face down to each player in turn order, then the bank.
   Turn order runs from the seat after the bank round to the bank (§2).
3. **Players' turns**: with ``bet_timing = "on_turn"`` a player first bets
   after looking at the card. Then ``hit``/``stand`` (and ``reveal_hit``,
   ``raise_<k>`` where the rules allow). Face-down cards follow
   ``hidden_cards`` (§4.3). Over 7½ the hand busts, is shown, and the stake
   goes to the bank at once (§4.4). Exactly 7½ ends the turn (§4.5) and, with
   ``declare_seven_and_half``, shows the hand.
4. **Bank's turn** (§4.6): the bank turns its card up and hits or stands,
   seeing only face-up cards. It has no decision when every player busted.
5. **Settlement** (§4.7–4.9), then every hand is shown (showdown): losing
   stakes go to the bank, winners are paid in turn order while the bank has
   chips (coverage), the first natural takes the jackpot.
6. **Bank transfer** (§5): ``offer``/``right`` ask the player concerned
   (``take_bank``/``refuse_bank`` or ``claim_bank``/``refuse_bank``);
   then ``max_bank_hands`` and ``bank_min_cover`` may pass the bank on.

All randomness comes from one ``numpy.random.Generator`` made from the seed
given to :meth:`Engine.reset`; the seed is recorded in the event log, so any
episode can be replayed (:func:`replay`).

Cards are integer codes and totals are half points (see :mod:`envs.cards`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from envs import actions as A
from envs.actions import ActionLayout
from envs.cards import (DECK_SIZE, HALF_POINTS, NUM_RANKS, SEVEN_AND_HALF, card_name,
                        high_card_key, new_shoe, parse_cards)
from envs.rules import Rules

# Phases: who is asked for what.
BET, PLAY, BANK, TRANSFER, OVER = range(5)
PHASE_NAMES = ("bet", "play", "bank", "transfer", "over")

# Public status of a hand (what every seat can see).
WAITING, PLAYING, STOOD, BUST, DECLARED = range(5)
STATUS_NAMES = ("waiting", "playing", "stood", "bust", "declared")

MIN_SEATS, MAX_SEATS = 2, 8

# Switches of RULES.md §1/§6 whose play arrives with the house-rules work.
_NOT_YET = {
    "wild_card": "none", "triple": False, "pair_of_sevens": False, "double": False,
    "split_rule": "none", "change_four": "off", "secret_three": False, "mort": False,
    "fusilar": False, "side_bets": False, "bank_sale": False,
}


class IllegalActionError(ValueError):
    """An action that is not legal for the seat to act."""


class Hand:
    """One hand on the table: cards with their face, stake and public status."""

    __slots__ = ("seat", "cards", "face_up", "total", "status", "bet", "settled")

    def __init__(self, seat: int, bet: int = 0) -> None:
        self.seat = seat
        self.cards: list[int] = []
        self.face_up: list[bool] = []
        self.total = 0
        self.status = WAITING
        self.bet = bet
        self.settled = False

    @property
    def hidden_count(self) -> int:
        """Number of face-down cards."""
        return self.face_up.count(False)

    @property
    def is_natural(self) -> bool:
        """Exactly two cards totalling 7½ (RULES.md §1)."""
        return self.total == SEVEN_AND_HALF and len(self.cards) == 2


class Engine:
    """Full state of a table of ``num_seats`` seats playing under ``rules``."""

    def __init__(self, rules: Rules | str | None = None, num_seats: int = 4,
                 max_hands: int | None = 10) -> None:
        self.rules = Rules.resolve(rules)
        if isinstance(num_seats, bool) or not isinstance(num_seats, int) or not (
                MIN_SEATS <= num_seats <= MAX_SEATS):
            raise ValueError(f"num_seats={num_seats!r} is out of range; allowed: "
                             f"{MIN_SEATS}..{MAX_SEATS}")
        if max_hands is not None and (isinstance(max_hands, bool)
                                      or not isinstance(max_hands, int) or max_hands < 1):
            raise ValueError(f"max_hands={max_hands!r} must be a positive integer or None")
        pending = [k for k, off in _NOT_YET.items() if getattr(self.rules, k) != off]
        if pending:
            raise NotImplementedError(
                f"rule switch {pending[0]}={getattr(self.rules, pending[0])!r} is defined but "
                f"not playable yet (RULES.md §6 house rules); switch it off")
        if self.rules.bank_transfer == "natural_only":
            raise NotImplementedError("bank_transfer='natural_only' is defined but not "
                                      "playable yet (RULES.md §5, ITA)")
        if self.rules.first_bank == "auction":
            raise NotImplementedError("first_bank='auction' is defined but not playable yet "
                                      "(RULES.md §5 bank_sale)")
        self.num_seats = num_seats
        self.max_hands = max_hands
        self.layout = ActionLayout(self.rules.bet_ladder)
        self.phase = OVER
        self.events: list[tuple] = []
        self._legal: list[int] | None = None
        self._mask_cache: dict[tuple[int, ...], np.ndarray] = {}

    # ------------------------------------------------------------------ reset
    def reset(self, seed: int | None = None, deck: Sequence[str] | Sequence[int] | None = None,
              bank: int | None = None, chips: Sequence[int] | None = None) -> None:
        """Start an episode.

        ``deck`` puts those cards on top of the shoe in that draw order for the
        first hand (the rest follows, shuffled by the seed); ``bank`` fixes the
        first bank; ``chips`` sets the starting stacks.
        """
        r = self.rules
        if seed is None:
            seed = int(np.random.SeedSequence().generate_state(1)[0])
        self.seed = seed
        self.rng = np.random.default_rng(seed)
        n = self.num_seats
        if chips is None:
            self.chips = [r.starting_chips] * n
        else:
            chips = list(chips)
            if len(chips) != n or any(isinstance(c, bool) or not isinstance(c, (int, np.integer))
                                      or c < 0 for c in chips):
                raise ValueError(f"chips={chips!r} must be {n} non-negative integers, "
                                 f"one per seat")
            self.chips = [int(c) for c in chips]
        if bank is not None and (isinstance(bank, bool) or not isinstance(bank, (int, np.integer))
                                 or not 0 <= bank < n):
            raise ValueError(f"bank={bank!r} is not a seat; seats are 0..{n - 1}")
        stacked = self._parse_deck(deck)
        self.events = [("reset", seed, None if deck is None else [card_name(c) for c in stacked],
                        bank, None if chips is None else list(self.chips))]
        self.jackpot = 0
        self.hands_played = 0
        self.refused = [False] * n
        self.draw_pile = new_shoe(r.decks)
        self.discard: list[int] = []
        self.seen = [0] * NUM_RANKS
        self.hands: list[list[Hand]] = [[] for _ in range(n)]
        self.bank_hand = Hand(-1)
        self.order: list[int] = []
        self.turn = 0
        self.actor = -1
        self.raised = False
        self.transfer_queue: list[int] = []
        self.transfer_kind = ""
        self._zero_rewards = (0.0,) * n
        self.pending_rewards = self._zero_rewards
        self.rewarded = False
        self._legal = None
        self.hand_start_chips = list(self.chips)
        self._shuffle_all()
        if bank is None:
            bank = self._draw_first_bank()
        else:
            self._log("first_bank", int(bank), "given")
        self.bank = int(bank)
        self.bank_streak = 0
        self._stack(stacked)
        if not self._settle_bank_seat(self.bank, "first bank"):
            self._finish_episode()
            return
        self._start_hand()

    def _parse_deck(self, deck: Sequence[str] | Sequence[int] | None) -> list[int]:
        if deck is None:
            return []
        if isinstance(deck, str):
            cards = parse_cards(deck)
        else:
            cards = [c if isinstance(c, (int, np.integer)) and not isinstance(c, bool)
                     else parse_cards([c])[0] for c in deck]
        cards = [int(c) for c in cards]
        for c in cards:
            if not 0 <= c < DECK_SIZE:
                raise ValueError(f"deck card code {c!r} is not in 0..{DECK_SIZE - 1}")
            if cards.count(c) > self.rules.decks:
                raise ValueError(f"deck option names {card_name(c)} {cards.count(c)} times but "
                                 f"the shoe holds {self.rules.decks} deck(s)")
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
        """The hand being played or bet on, if a player is acting."""
        if self.phase in (BET, PLAY):
            return self.hands[self.actor][0]
        if self.phase == BANK:
            return self.bank_hand
        return None

    def players_in_hand(self) -> list[int]:
        """Player seats taking part in the current hand, in turn order."""
        return self.order

    def legal_actions(self) -> list[int]:
        """Indices of the actions the seat to act may take now (do not modify the list)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        return legal

    def _compute_legal(self) -> list[int]:
        phase = self.phase
        r = self.rules
        if phase == PLAY:
            hand = self.hands[self.actor][0]
            legal = [A.STAND]
            can_draw = self._can_draw()
            if can_draw:
                legal.append(A.HIT)
                if r.hidden_cards == "player_choice" and hand.hidden_count:
                    legal.append(A.REVEAL_HIT)
            if r.bet_raise and not self.raised:
                room = min(r.max_bet - hand.bet, self.chips[self.actor])
                start = self.layout.raise_start
                legal.extend(start + i for i, k in enumerate(r.bet_ladder)
                             if k * r.min_bet <= room)
            return legal
        if phase == BANK:
            hand = self.bank_hand
            legal = []
            if not (r.bank_must_chase_declared and hand.total < SEVEN_AND_HALF
                    and self._any_declared() and self._can_draw()):
                legal.append(A.STAND)
            if self._can_draw():
                legal.append(A.HIT)
            return legal
        if phase == BET:
            cap = min(r.max_bet, self.chips[self.actor])
            start = self.layout.bet_start
            return [start + i for i, k in enumerate(r.bet_ladder) if k * r.min_bet <= cap]
        if phase == TRANSFER:
            if self.transfer_kind == "right":
                return [A.REFUSE_BANK, A.CLAIM_BANK]
            return [A.TAKE_BANK, A.REFUSE_BANK]
        return []

    def action_mask(self) -> np.ndarray:
        """The legal actions as a new int8 mask over the action layout."""
        legal = self.legal_actions()
        key = tuple(legal)
        mask = self._mask_cache.get(key)
        if mask is None:
            mask = self._mask_cache[key] = np.zeros(self.layout.size, dtype=np.int8)
            mask[legal] = 1
        return mask.copy()

    def step(self, action: int) -> None:
        """Apply the action of the seat to act, then play on to the next decision."""
        legal = self.legal_actions()
        if action not in legal:
            names = self.layout.names
            what = names[action] if isinstance(action, (int, np.integer)) and \
                0 <= action < len(names) else repr(action)
            raise IllegalActionError(
                f"action {action!r} ({what}) is not legal for seat {self.actor} in phase "
                f"{PHASE_NAMES[self.phase]}; legal: "
                + ", ".join(f"{a} ({names[a]})" for a in legal))
        action = int(action)
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
        else:
            self._transfer_action(action)
        self._legal = None

    # ------------------------------------------------------------ hand flow
    def _start_hand(self) -> None:
        r = self.rules
        n = self.num_seats
        if r.reshuffle == "every_hand" and self.hands_played:
            self.draw_pile.extend(self.discard)
            self.discard.clear()
            self._shuffle_all()
        self.hand_start_chips = list(self.chips)
        self.refused[self.bank] = False  # a refusal counts until the seat next holds the bank
        need = r.min_bet + r.jackpot_ante
        self.order = [s for s in ((self.bank + i) % n for i in range(1, n)) if self.chips[s] >= need]
        self.bank_streak += 1
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
            self.phase = BET
            self.actor = self.order[0]
        else:
            self._deal()
            self._begin_turn(0)

    def _deal(self) -> None:
        for s in self.order:
            self._give(self.hands[s][0], False)
        self._give(self.bank_hand, False)

    def _begin_turn(self, turn: int) -> None:
        self.turn = turn
        self.raised = False
        if turn >= len(self.order):
            self._begin_bank_turn()
            return
        self.actor = self.order[turn]
        self._set_status(self.hands[self.actor][0], PLAYING)
        self.phase = BET if self.rules.bet_timing == "on_turn" else PLAY

    def _bet_action(self, action: int) -> None:
        r = self.rules
        seat = self.actor
        amount = r.bet_ladder[action - self.layout.bet_start] * r.min_bet
        self.chips[seat] -= amount
        self.hands[seat][0].bet = amount
        self._log("bet", seat, amount)
        if r.bet_timing == "on_turn":
            self.phase = PLAY
            return
        self.turn += 1
        if self.turn < len(self.order):
            self.actor = self.order[self.turn]
        else:
            self._deal()
            self._begin_turn(0)

    def _player_action(self, action: int) -> None:
        seat = self.actor
        hand = self.hands[seat][0]
        if action == A.STAND:
            self._set_status(hand, STOOD)
            self._begin_turn(self.turn + 1)
            return
        if action == A.HIT:
            self._give(hand, self._hit_face_up(hand))
        elif action == A.REVEAL_HIT:
            self._reveal(hand)
            self._give(hand, False)
        else:  # raise_<k>
            amount = self.rules.bet_ladder[action - self.layout.raise_start] * self.rules.min_bet
            self.chips[seat] -= amount
            hand.bet += amount
            self.raised = True
            self._log("raise", seat, amount, hand.bet)
            return
        self.raised = False
        if hand.total > SEVEN_AND_HALF:
            self._bust(hand)
            self._begin_turn(self.turn + 1)
        elif hand.total == SEVEN_AND_HALF:
            self._seven_and_half(hand)
            self._begin_turn(self.turn + 1)

    def _hit_face_up(self, hand: Hand) -> bool:
        """Face of a card drawn by ``hit`` (RULES.md §4.3 ``hidden_cards``)."""
        if self.rules.hidden_cards == "alternate":
            return hand.hidden_count > 0
        return True

    def _bust(self, hand: Hand) -> None:
        """RULES.md §4.4: the hand is shown and the stake goes to the bank at once."""
        self._set_status(hand, BUST)
        self._reveal(hand)
        self.chips[self.bank] += hand.bet
        hand.settled = True
        self._log("bust", hand.seat, hand.total, hand.bet)

    def _seven_and_half(self, hand: Hand) -> None:
        """RULES.md §4.5: 7½ ends the turn; with declare_seven_and_half it is shown."""
        if self.rules.declare_seven_and_half:
            self._set_status(hand, DECLARED)
            self._reveal(hand)
        else:
            self._set_status(hand, STOOD)

    def _any_declared(self) -> bool:
        return any(h.status == DECLARED for s in self.order for h in self.hands[s])

    def _begin_bank_turn(self) -> None:
        """RULES.md §4.6: the bank turns its cards up; it plays if anyone is left."""
        self.phase = BANK
        self.actor = self.bank
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
        if hand.total > SEVEN_AND_HALF:
            self._set_status(hand, BUST)
            self._log("bust", self.bank, hand.total, 0)
            self._settle()
        elif hand.total == SEVEN_AND_HALF:
            self._set_status(hand, STOOD)
            self._settle()

    # ------------------------------------------------------------ settlement
    def _payout_multiple(self, hand: Hand) -> int:
        """Multiple of the stake paid to a winning hand (RULES.md §4.8)."""
        r = self.rules
        if hand.total == SEVEN_AND_HALF and (hand.is_natural or r.any_seven_and_half_pays):
            return r.natural_pays
        return 1

    def _player_wins(self, hand: Hand, bank_total: int) -> int:
        """0 if the bank wins, else the payout multiple (RULES.md §4.7)."""
        if bank_total > SEVEN_AND_HALF:
            return self._payout_multiple(hand)
        if bank_total == SEVEN_AND_HALF:
            rule = self.rules.natural_beats_bank_multicard
            if rule != "off" and hand.is_natural and len(self.bank_hand.cards) >= 3:
                return self._payout_multiple(hand) if rule == "double" else 1
            return 0
        return self._payout_multiple(hand) if hand.total > bank_total else 0

    def _settle(self) -> None:
        """RULES.md §4.7–4.9: collect, pay in turn order within coverage, jackpot."""
        bank = self.bank
        bank_total = self.bank_hand.total
        chips = self.chips
        winners = []
        for s in self.order:
            for hand in self.hands[s]:
                if hand.settled:
                    continue
                multiple = self._player_wins(hand, bank_total)
                if multiple:
                    winners.append((hand, multiple))
                else:
                    chips[bank] += hand.bet
                    hand.settled = True
                    self._log("lose", s, hand.bet)
        for hand, multiple in winners:
            pay = min(multiple * hand.bet, chips[bank])
            chips[bank] -= pay
            chips[hand.seat] += hand.bet + pay
            hand.settled = True
            self._log("win", hand.seat, pay, multiple * hand.bet)
        if self.jackpot and bank_total != SEVEN_AND_HALF:
            for s in self.order:
                if any(h.is_natural for h in self.hands[s]):
                    chips[s] += self.jackpot
                    self._log("jackpot", s, self.jackpot)
                    self.jackpot = 0
                    break
        for s in self.order:
            for hand in self.hands[s]:
                self._reveal(hand)
        scale = 1.0 / self.rules.min_bet
        self.pending_rewards = [(c - c0) * scale for c, c0 in zip(chips, self.hand_start_chips)]
        self.rewarded = True
        self._log("chips", list(chips), self.jackpot)
        self._begin_transfer()

    # ---------------------------------------------------------- bank transfer
    def _begin_transfer(self) -> None:
        """RULES.md §5: who may or must take the bank after this hand."""
        kind = self.rules.bank_transfer
        candidates = []
        if self.bank_hand.total != SEVEN_AND_HALF and kind != "none":
            candidates = [s for s in self.order
                          if any(h.total == SEVEN_AND_HALF for h in self.hands[s])]
        self.transfer_kind = kind
        if not candidates:
            self._end_hand(None)
        elif kind == "mandatory":
            self._end_hand(candidates[0])
        elif kind == "right":
            self.transfer_queue = candidates[:1]
            self._ask_transfer()
        else:  # offer
            self.transfer_queue = candidates
            self._ask_transfer()

    def _ask_transfer(self) -> None:
        while self.transfer_queue:
            seat = self.transfer_queue[0]
            if self.transfer_kind == "offer" and self.refused[seat]:
                self._log("forced_take", seat)
                self._end_hand(seat)
                return
            self.phase = TRANSFER
            self.actor = seat
            return
        self._end_hand(None)

    def _transfer_action(self, action: int) -> None:
        seat = self.transfer_queue.pop(0)
        if action in (A.TAKE_BANK, A.CLAIM_BANK):
            self._end_hand(seat)
            return
        if self.transfer_kind == "offer":
            self.refused[seat] = True
        self._ask_transfer()

    def _end_hand(self, new_bank: int | None) -> None:
        """Discard the cards, rotate the bank, start the next hand or end."""
        self.hands_played += 1
        for s in range(self.num_seats):
            for hand in self.hands[s]:
                self.discard.extend(hand.cards)
        self.discard.extend(self.bank_hand.cards)
        self.hands = [[] for _ in range(self.num_seats)]
        self.bank_hand = Hand(self.bank)
        self.order = []
        if new_bank is not None:
            self._log("bank", new_bank, "seven_and_half")
            self.bank = new_bank
            self.bank_streak = 0
        elif self.rules.max_bank_hands and self.bank_streak >= self.rules.max_bank_hands:
            self.bank = (self.bank + 1) % self.num_seats
            self.bank_streak = 0
            self._log("bank", self.bank, "max_bank_hands")
        if self.max_hands is not None and self.hands_played >= self.max_hands:
            self._finish_episode()
            return
        if not self._settle_bank_seat(self.bank, "cannot cover"):
            self._finish_episode()
            return
        self._start_hand()

    def _can_bank(self, seat: int) -> bool:
        """Whether ``seat`` may hold the bank for the next hand (RULES.md §5)."""
        r = self.rules
        need = r.min_bet + r.jackpot_ante
        players = sum(1 for s in range(self.num_seats) if s != seat and self.chips[s] >= need)
        if players == 0:
            return False
        if r.bank_min_cover:
            return self.chips[seat] >= players * r.min_bet * r.max_payout_multiple
        return self.chips[seat] >= r.min_bet

    def _settle_bank_seat(self, seat: int, reason: str) -> bool:
        """Pass the bank from ``seat`` on in turn order to the first seat able to hold it."""
        n = self.num_seats
        for i in range(n):
            s = (seat + i) % n
            if self._can_bank(s):
                if s != self.bank:
                    self._log("bank", s, reason)
                    self.bank_streak = 0
                self.bank = s
                return True
        return False

    def _finish_episode(self) -> None:
        self.phase = OVER
        self.actor = -1
        self._log("over", self.hands_played)

    # ------------------------------------------------------------ first bank
    def _draw_first_bank(self) -> int:
        """RULES.md §5 first_bank: high card (ties re-dealt) or at random."""
        n = self.num_seats
        if self.rules.first_bank == "random":
            seat = int(self.rng.integers(n))
            self._log("first_bank", seat, "random")
            return seat
        contenders = list(range(n))
        while True:
            dealt = {}
            for s in contenders:
                card = self.draw_pile.pop()
                dealt[s] = card
                self._log("high_card", s, card)
            best = max(high_card_key(c) for c in dealt.values())
            self.draw_pile.extend(dealt.values())
            self._shuffle_all()
            contenders = [s for s in contenders if high_card_key(dealt[s]) == best]
            if len(contenders) == 1:
                self._log("first_bank", contenders[0], "high_card")
                return contenders[0]

    # ------------------------------------------------------------------ cards
    def _shuffle_all(self) -> None:
        self.rng.shuffle(self.draw_pile)
        self.seen = [0] * NUM_RANKS
        self._log("shuffle", len(self.draw_pile))

    def _can_draw(self) -> bool:
        return bool(self.draw_pile) or (self.rules.reshuffle == "when_empty" and bool(self.discard))

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

    def _give(self, hand: Hand, face_up: bool) -> None:
        card = self._draw()
        hand.cards.append(card)
        hand.face_up.append(face_up)
        hand.total += HALF_POINTS[card]
        if face_up:
            self.seen[card % NUM_RANKS] += 1
        self._log("card", hand.seat, card, face_up)

    def _reveal(self, hand: Hand) -> None:
        face_up = hand.face_up
        for i, up in enumerate(face_up):
            if not up:
                face_up[i] = True
                card = hand.cards[i]
                self.seen[card % NUM_RANKS] += 1
                self._log("reveal", hand.seat, card)

    def _set_status(self, hand: Hand, status: int) -> None:
        hand.status = status
        self._log("status", hand.seat, status)

    def _log(self, *event: Any) -> None:
        self.events.append(event)


def replay(rules: Rules | str, num_seats: int, max_hands: int | None,
           events: list[tuple]) -> Engine:
    """Replay an episode from its event log: same seed and options, same actions.

    Returns the new engine; its ``events`` equal the given log (checked).
    """
    if not events or events[0][0] != "reset" or len(events[0]) != 5:
        first = events[0] if events else "nothing"
        raise ValueError(f"an event log starts with its ('reset', seed, deck, bank, chips) "
                         f"event, not {first!r}")
    _, seed, deck, bank, chips = events[0]
    engine = Engine(rules, num_seats, max_hands)
    engine.reset(seed=seed, deck=deck, bank=bank, chips=chips)
    for event in events[1:]:
        if event[0] == "action":
            if event[1] != engine.actor:
                raise ValueError(f"log says seat {event[1]} acts, but seat {engine.actor} "
                                 f"is to act")
            engine.step(engine.layout.index(event[2]))
    if engine.events != events:
        raise ValueError("replaying the log's actions gives different events: the log "
                         "does not come from these rules")
    return engine
