"""Who holds the bank: RULES.md §5, for the engine.

The first bank (``first_bank``: high card, at random, or bought at an
auction with ``bank_sale``), passing the bank on after a hand
(``bank_transfer``: ``offer``, ``right``, ``mandatory``, ``natural_only``),
selling it between hands (``bank_sale``), the chips a bank needs
(``bank_min_cover``) and the longest streak (``max_bank_hands``).

Each function takes the :class:`~envs.engine.Engine` whose table it acts on
and reads or moves its bank-holder state (``bank``, ``bank_streak``,
``refused``, ``transfer_queue``, ``transfer_kind``, ``best_bid``; the
transitions are the table of the engine's module docstring). The rules
themselves — which hand earns the bank, the chips to cover — are the
rulebook's (:func:`~envs.rulebook.qualifies_for_bank`,
:func:`~envs.rulebook.bank_cover`).

Compiled with the engine's core (:mod:`envs._native`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from envs import actions as A
from envs.cards import high_card_key
from envs.hands import PAIR_OF_SEVENS, TRIPLE
from envs.phases import SELL, TRANSFER
from envs.rulebook import bank_cover, qualifies_for_bank, seat_need

if TYPE_CHECKING:
    from envs.engine import Engine

__all__ = ["draw_first_bank", "legal_bids", "bid", "can_hold_bank", "next_bank_seat",
           "settle_bank_seat", "transfer_candidates", "begin_transfer", "legal_answers",
           "answer_transfer", "answer_sale", "pass_on"]


# ------------------------------------------------------------ the first bank
def draw_first_bank(e: Engine) -> int:
    """RULES.md §5 first_bank: high card (ties re-dealt) or at random."""
    n = e.num_seats
    if e._switches.first_bank != "high_card":
        seat = int(e.rng.integers(n))
        e._log("first_bank", seat, "random")
        return seat
    contenders = list(range(n))
    while True:
        dealt = {}
        for s in contenders:
            card = e.draw_pile.pop()
            dealt[s] = card
            e._log("high_card", s, card)
        best = max(high_card_key(c) for c in dealt.values())
        e.draw_pile.extend(dealt.values())
        e._shuffle_all()
        contenders = [s for s in contenders if high_card_key(dealt[s]) == best]
        if len(contenders) == 1:
            e._log("first_bank", contenders[0], "high_card")
            return contenders[0]


def legal_bids(e: Engine) -> list[int]:
    """RULES.md §5 bank_sale: ``pass`` and the bids above the best one the bidder can pay.

    The buyer must still be able to hold the bank once it has paid every seat.
    """
    r = e._switches
    best = e.best_bid[0]
    others = e.num_seats - 1
    cap = (e.chips[e.actor] - bank_cover(r, others)) // others
    start = e.layout.bid_start
    return [A.PASS] + [start + i for i, k in enumerate(r.bet_ladder)
                       if best < k * r.min_bet <= cap]


def bid(e: Engine, action: int) -> None:
    """RULES.md §5 bank_sale: seats bid in seat order; the highest bid buys the bank.

    The buyer pays its bid to every other seat at once (that step's reward);
    with no bid at all the first bank is drawn at random.
    """
    seat = e.actor
    if action != A.PASS:
        amount = e._switches.bet_ladder[action - e.layout.bid_start] * e._switches.min_bet
        e.best_bid = (amount, seat)
        e._log("bid", seat, amount)
    if seat + 1 < e.num_seats:
        e.actor = seat + 1
        return
    amount, buyer = e.best_bid
    if buyer < 0:
        bank = int(e.rng.integers(e.num_seats))
        e._log("first_bank", bank, "random (no bids)")
    else:
        bank = buyer
        before = list(e.chips)
        for s in range(e.num_seats):
            if s != buyer:
                e.chips[buyer] -= amount
                e.chips[s] += amount
        e._log("first_bank", bank, f"bought for {amount} to each seat")
        # The price is paid now: every seat's reward for this step (units of min_bet).
        scale = 1.0 / e._switches.min_bet
        e.pending_rewards = tuple([(c - c0) * scale for c, c0 in zip(e.chips, before)])
        e.rewarded = True
    e._open_first_hand(bank)


# ------------------------------------------------------------ coverage
def can_hold_bank(e: Engine, seat: int) -> bool:
    """Whether ``seat`` may hold the bank for the next hand (RULES.md §5).

    Someone must be able to play against it, and it must hold
    :func:`~envs.rulebook.bank_cover` chips against the players who can.
    """
    r = e._switches
    need = seat_need(r.smallest_stake, r.jackpot_ante)
    players = sum(1 for s in range(e.num_seats) if s != seat and e.chips[s] >= need)
    if players == 0:
        return False
    return e.chips[seat] >= bank_cover(r, players)


def next_bank_seat(e: Engine, start: int) -> int | None:
    """The first seat from ``start`` on, in turn order, able to hold the bank."""
    n = e.num_seats
    for i in range(n):
        s = (start + i) % n
        if can_hold_bank(e, s):
            return s
    return None


def settle_bank_seat(e: Engine, seat: int, reason: str) -> bool:
    """RULES.md §5 bank_min_cover: the bank goes from ``seat`` on to the first seat able to hold it.

    False if no seat can: the episode ends.
    """
    s = next_bank_seat(e, seat)
    if s is None:
        return False
    if s != e.bank:
        e._log("bank", s, reason)
        e.bank_streak = 0
    e.bank = s
    return True


# ------------------------------------------------------------ after a hand
def transfer_candidates(e: Engine) -> list[int]:
    """Players who may or must take the bank after this hand, in turn order (RULES.md §5).

    Each hand's qualification is :func:`~envs.rulebook.qualifies_for_bank`
    (§4.8, §8.4 a pair of sevens or a triplè; §8.1 a 7½ that won, a natural
    with ``natural_only``; §8.3 a winning fusilar of 7½, at its place in turn
    order); §8.8: a seat that could not hold the bank next hand is passed over.
    """
    kind = e._switches.bank_transfer
    if kind == "none":
        return []
    out = []
    for s in e.order:
        if not can_hold_bank(e, s):
            continue
        for h in e.hands[s]:
            if qualifies_for_bank(kind, e._form(h), e._player_wins(h), h.total, len(h.cards)):
                out.append(s)
                break
    return out


def _last_hand(e: Engine) -> bool:
    """Whether the hand being finished is the episode's last (``max_hands``)."""
    return e.max_hands is not None and e.hands_played + 1 >= e.max_hands


def _transfer_reason(e: Engine, seat: int) -> str:
    """Why ``seat`` takes the bank after this hand, for the event log."""
    for hand in e.hands[seat]:
        form = e._form(hand)
        if form == PAIR_OF_SEVENS:
            return "pair_of_sevens"
        if form == TRIPLE:
            return "triple"
    return "natural" if e._switches.bank_transfer == "natural_only" else "seven_and_half"


def begin_transfer(e: Engine) -> None:
    """After settlement: move the bank, ask the player concerned, or go on (RULES.md §5).

    ``mandatory``/``natural_only`` move it to the first candidate; ``right``
    asks the first, ``offer`` each in turn order (one who refused before must
    take it); §8.8: no offer or claim on the episode's last hand.
    """
    kind = e._switches.bank_transfer
    candidates = transfer_candidates(e)
    e.transfer_kind = kind
    if not candidates:
        _after_transfer(e, None)
    elif kind in ("mandatory", "natural_only"):
        _after_transfer(e, candidates[0])
    elif _last_hand(e):
        _after_transfer(e, None)  # RULES.md §8.8: no offer or claim on the last hand
    elif kind == "right":
        e.transfer_queue = candidates[:1]
        _ask_transfer(e)
    else:  # offer
        e.transfer_queue = candidates
        _ask_transfer(e)


def _ask_transfer(e: Engine) -> None:
    if e.transfer_queue:
        seat = e.transfer_queue[0]
        if e.transfer_kind == "offer" and e.refused[seat]:
            e._log("forced_take", seat)
            _after_transfer(e, seat)
            return
        e.phase = TRANSFER
        e.actor = seat
        return
    _after_transfer(e, None)


def legal_answers(e: Engine) -> list[int]:
    """The answers to an offer, a right or a sale of the bank (phase ``TRANSFER``)."""
    if e.transfer_kind == "right":
        return [A.REFUSE_BANK, A.CLAIM_BANK]
    return [A.TAKE_BANK, A.REFUSE_BANK]


def answer_transfer(e: Engine, action: int) -> None:
    """The asked seat takes (or claims) the bank, or refuses it: then the next is asked."""
    seat = e.transfer_queue.pop(0)
    if action in (A.TAKE_BANK, A.CLAIM_BANK):
        e._end_hand(seat, "sale" if e.transfer_kind == "sale" else _transfer_reason(e, seat))
        return
    if e.transfer_kind == "offer":
        e.refused[seat] = True
    if e.transfer_kind == "sale":
        e._end_hand(None)
        return
    _ask_transfer(e)


def _after_transfer(e: Engine, new_bank: int | None) -> None:
    """With ``bank_sale`` the bank may offer the bank on before the next hand."""
    if new_bank is None and e._switches.bank_sale and not _last_hand(e) and \
            next_bank_seat(e, e.bank + 1) not in (None, e.bank):
        e.phase = SELL
        e.actor = e.bank
        return
    e._end_hand(new_bank, "" if new_bank is None else _transfer_reason(e, new_bank))


def answer_sale(e: Engine, action: int) -> None:
    """RULES.md §5 bank_sale: the bank keeps it (``pass``) or offers it to the next seat able to hold it."""
    if action == A.PASS:
        e._end_hand(None)
        return
    buyer = next_bank_seat(e, e.bank + 1)
    assert buyer is not None, "sell_bank is legal only when a seat can buy the bank"
    e._log("sell", e.bank, buyer)
    e.transfer_kind = "sale"
    e.transfer_queue = [buyer]
    e.phase = TRANSFER
    e.actor = buyer


def pass_on(e: Engine, new_bank: int | None, reason: str) -> None:
    """Between hands: the bank goes to ``new_bank``, or on after ``max_bank_hands`` in a row.

    RULES.md §8.2: the next seat in turn order able to cover takes the bank;
    if no other seat can, the holder keeps it and its streak goes on counting.
    """
    if new_bank is not None:
        e._log("bank", new_bank, reason)
        e.bank = new_bank
        e.bank_streak = 0
    elif e._switches.max_bank_hands and e.bank_streak >= e._switches.max_bank_hands:
        successor = next_bank_seat(e, e.bank + 1)
        if successor is not None and successor != e.bank:
            e.bank = successor
            e.bank_streak = 0
            e._log("bank", successor, "max_bank_hands")
