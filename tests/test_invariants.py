"""Invariants over many random hands of all eight presets (RULES.md §7).

Seeded random legal play (uniform over the legal actions), ``EPISODES``
episodes per preset and table size (2, 4 and 8 seats), plus a
hypothesis-driven search with ``derandomize=True`` (deterministic). At every
step:

* chips are conserved: chips behind + unsettled stakes on the table (each
  hand's bet plus the side bets riding on it) + the jackpot never change
  (RULES.md §2, §4.8, §4.9, §5 auction, §6 side bets, double, split);
* no stack is ever negative (§2: never bet more than held; §4.8: the bank
  never goes below zero);
* while the episode is not over the action mask is non-empty and equals
  ``legal_actions``; once over it is empty;
* at each settlement the bank pays winners in turn order, each
  ``min(owed, what the bank holds)`` — never past its coverage (§4.8);
* every card is in exactly one place: draw pile, discard pile or in play (§3);
* every hand starts with the seats that can afford the smallest stake on
  offer + ante (§8.9), a bank that can cover them (§5 bank_min_cover) and a
  bank streak within max_bank_hands — or beyond it only while no other seat
  could take the bank (§8.2);
* an episode that ends before ``max_hands`` ends because no seat can hold the
  bank against at least one player (§2, §5 bank_min_cover).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from envs.cards import new_shoe
from envs.engine import OVER, Engine
from envs.rules import PRESETS as RULE_PRESETS
from envs.rules import Rules

from scripted import table_total

PRESETS = tuple(RULE_PRESETS)
MAX_HANDS = 10
EPISODES = 120  # per preset and table size

# Events of the house rules (§5, §6) counted to show the random play reached them.
HOUSE_EVENTS = ("split", "double", "discarded", "four_back", "special", "side_bet", "bid",
                "sell", "decline_mort")


def _nobody_can_bank(e: Engine) -> bool:
    """RULES.md §2/§5: no seat can hold the bank against at least one player."""
    r = e.rules
    need = r.smallest_stake + r.jackpot_ante
    for seat in range(e.num_seats):
        players = sum(1 for s in range(e.num_seats) if s != seat and e.chips[s] >= need)
        cover = players * r.min_bet * r.max_payout_multiple if r.bank_min_cover else r.min_bet
        if players and e.chips[seat] >= cover:
            return False
    return True


def _check_settlement(new_events: list[tuple], order: list[int], bank: int) -> int:
    """Winners paid in turn order, each min(owed, bank chips); returns the number of wins.

    Events read: ``("win", seat, paid, owed, ...)`` and ``("chips", chips, jackpot)``; any
    ``side_win`` (a side bet riding on a hand) is paid from the same bank, in log order.
    """
    payments = [ev for ev in new_events if ev[0] in ("win", "side_win")]
    if not payments:
        return 0
    chips_event = next(ev for ev in new_events if ev[0] == "chips")
    bank_after = chips_event[1][bank]
    assert bank_after >= 0
    held = bank_after + sum(ev[2] for ev in payments)
    wins = [ev for ev in payments if ev[0] == "win"]
    positions = [order.index(ev[1]) for ev in wins]
    assert positions == sorted(positions), f"winners not paid in turn order: {wins}"
    for ev in payments:
        seat, pay, owed = ev[1], ev[2], ev[3]
        assert owed > 0 and 0 <= pay <= owed
        assert pay == min(owed, held), f"seat {seat} paid {pay} of {owed} with {held} held"
        held -= pay
    assert held == bank_after
    return len(wins)


def _check_hand_start(e: Engine) -> None:
    """RULES.md §2/§5 at the start of a hand: who plays, and a bank able to hold the bank."""
    r = e.rules
    need = r.smallest_stake + r.jackpot_ante
    assert e.order, "a hand started without players"
    assert e.bank not in e.order
    for s in range(e.num_seats):
        if s in e.order:
            assert e.chips[s] >= r.smallest_stake     # the ante is already taken
        elif s != e.bank:
            assert e.chips[s] < need, f"seat {s} can afford {need} but sits out"
    before = e.hand_start_chips  # the stacks the bank was settled on, before the antes
    assert before[e.bank] >= _cover(e.rules, before, e.bank), f"bank {e.bank} cannot cover"
    assert e.bank_streak >= 1
    if r.max_bank_hands and e.bank_streak > r.max_bank_hands:
        # §8.2: the holder keeps the bank past the limit only if no other seat can cover
        others = [s for s in range(e.num_seats) if s != e.bank]
        assert not any(before[s] >= _cover(r, before, s) and _players(r, before, s)
                       for s in others), \
            f"bank {e.bank} kept past max_bank_hands though another seat could take it"


def _players(r: Rules, chips: list[int], bank: int) -> int:
    """Players who could be dealt in against ``bank`` (RULES.md §8.9)."""
    need = r.smallest_stake + r.jackpot_ante
    return sum(1 for s, c in enumerate(chips) if s != bank and c >= need)


def _cover(r: Rules, chips: list[int], bank: int) -> int:
    """Chips ``bank`` needs to hold the bank (RULES.md §5 bank_min_cover)."""
    return _players(r, chips, bank) * r.min_bet * r.max_payout_multiple if r.bank_min_cover \
        else r.min_bet


def run_episode(rules: Rules | str, seats: int, seed: int, chips: list[int] | None = None,
                max_hands: int = MAX_HANDS) -> dict[str, int]:
    """Play one episode with uniformly random legal actions, checking every invariant."""
    rng = np.random.default_rng(seed + 1_000_003)
    e = Engine(rules, seats, max_hands)
    e.reset(seed=seed, chips=chips)
    shoe = sorted(new_shoe(e.rules.decks))
    start = (sum(chips) if chips is not None else seats * e.rules.starting_chips)
    assert table_total(e) == start
    if not e.over and any(ev[0] == "hand" for ev in e.events):  # not during an auction
        _check_hand_start(e)
    stats = {"steps": 0, "wins": 0, "partial": 0, "bank_moves": 0, "mid_hand_shuffles": 0}
    stats.update(dict.fromkeys(HOUSE_EVENTS, 0))
    steps = 0
    while not e.over:
        mask = e.action_mask()
        legal = e.legal_actions()
        assert legal, "no legal action while the episode is not over"
        assert np.flatnonzero(mask).tolist() == sorted(legal)
        mask[:] = 1  # a copy: the engine's shared mask is untouched
        assert np.flatnonzero(e.legal_mask()).tolist() == sorted(legal)
        assert 0 <= e.actor < seats
        order, bank, n_events = list(e.order), e.bank, len(e.events)
        e.step(int(legal[rng.integers(len(legal))]))
        steps += 1
        assert steps < 250 * max_hands * seats, "the episode does not end"
        assert table_total(e) == start, "chips + stakes + jackpot changed"
        assert min(e.chips) >= 0 and e.jackpot >= 0
        in_play = [c for hands in e.hands for h in hands for c in h.cards] + e.bank_hand.cards
        assert sorted(e.draw_pile + e.discard + in_play) == shoe, "a card was lost or doubled"
        for hand in [h for hands in e.hands for h in hands] + [e.bank_hand]:
            # a card nobody has seen (Mort, fusilar, secret three) is always face down
            assert not any(u and up for u, up in zip(hand.unseen, hand.face_up))
            assert len(hand.cards) == len(hand.face_up) == len(hand.unseen)
        new = e.events[n_events:]
        if not e.over and any(ev[0] == "hand" for ev in new):
            _check_hand_start(e)
        wins = _check_settlement(new, order, bank)
        stats["wins"] += wins
        stats["partial"] += sum(1 for ev in new if ev[0] == "win" and ev[2] < ev[3])
        stats["bank_moves"] += sum(1 for ev in new if ev[0] == "bank")
        if any(ev[0] == "shuffle" for ev in new) and not any(ev[0] == "hand" for ev in new):
            stats["mid_hand_shuffles"] += 1
        for ev in new:
            if ev[0] in stats and ev[0] in HOUSE_EVENTS:
                stats[ev[0]] += 1
    assert e.phase == OVER and e.legal_actions() == [] and not e.action_mask().any()
    assert sum(e.chips) + e.jackpot == start
    assert e.hands_played <= max_hands
    if e.hands_played < max_hands:
        assert _nobody_can_bank(e)
    stats["steps"] = steps
    stats["hands"] = e.hands_played
    return stats


# The house-rule events random play must reach in each preset (and no others).
EXPECTED_HOUSE_EVENTS = {
    "catalan": set(),
    "catalan_house": {"split", "double", "discarded", "special", "decline_mort"},
    "spanish": set(),
    "spanish_full": {"split", "four_back", "special", "side_bet", "bid", "sell"},
    "pagat": set(),
    "pagat_italian": {"special"},      # pairs of sevens
    "pagat_spanish": {"split"},
    "italian": {"special"},            # triplès
}


@pytest.mark.parametrize("seats", [2, 4, 8])
@pytest.mark.parametrize("preset", PRESETS)
def test_random_play_keeps_every_invariant(preset, seats):
    """Seeded episodes: half with full stacks, half with small random stacks so that seats
    go broke, banks fail to cover and coverage caps payouts."""
    totals = {"steps": 0, "wins": 0, "partial": 0, "bank_moves": 0, "mid_hand_shuffles": 0}
    totals.update(dict.fromkeys(HOUSE_EVENTS, 0))
    for i in range(EPISODES):
        chips = None
        if i % 2:
            high = 40 * seats + 40
            chips = [int(c) for c in np.random.default_rng(i).integers(0, high, seats)]
        stats = run_episode(preset, seats, seed=i, chips=chips)
        for k in totals:
            totals[k] += stats[k]
    # The random play really exercised settlement, the coverage cap and bank moves,
    # (when_empty) reshuffles in the middle of a hand, and the preset's house rules.
    assert totals["steps"] > 1500
    assert totals["wins"] > 150
    assert totals["partial"] > 0
    assert totals["bank_moves"] > 15
    if Rules.preset(preset).reshuffle == "every_hand":
        assert totals["mid_hand_shuffles"] == 0
    elif seats >= 4:
        assert totals["mid_hand_shuffles"] > 0
    seen = {k for k in HOUSE_EVENTS if totals[k]}
    assert seen <= EXPECTED_HOUSE_EVENTS[preset], totals
    if seats >= 4:  # the rarer hands (triplè, pair of sevens) need a few players
        assert seen == EXPECTED_HOUSE_EVENTS[preset], totals


@settings(derandomize=True, max_examples=120, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(preset=st.sampled_from(PRESETS), seats=st.integers(2, 8),
       seed=st.integers(0, 2**32 - 1),
       chips=st.one_of(st.none(), st.lists(st.integers(0, 400), min_size=8, max_size=8)),
       cover=st.booleans(), ante=st.integers(0, 3))
def test_invariants_hypothesis(preset, seats, seed, chips, cover, ante):
    """Hypothesis (derandomized): any preset, table size, stacks, ante and bank_min_cover."""
    rules = Rules.preset(preset).replace(bank_min_cover=cover, jackpot_ante=ante)
    run_episode(rules, seats, seed, chips=None if chips is None else chips[:seats])


def test_settlement_check_rejects_overpayment_and_wrong_order():
    """The coverage check above can fail: a bank holding 25 must pay 10 then 15 of 40, in
    turn order (RULES.md §4.8)."""
    good = [("win", 1, 10, 10), ("win", 3, 15, 40), ("chips", [0, 1010, 990, 1015], 0)]
    assert _check_settlement(good, order=[1, 2, 3], bank=0) == 2
    overpaid = [("win", 1, 10, 10), ("win", 3, 40, 40), ("chips", [-25, 1010, 990, 1040], 0)]
    with pytest.raises(AssertionError):
        _check_settlement(overpaid, order=[1, 2, 3], bank=0)
    reversed_order = [("win", 3, 15, 40), ("win", 1, 10, 10), ("chips", [0, 1010, 990, 1015], 0)]
    with pytest.raises(AssertionError):
        _check_settlement(reversed_order, order=[1, 2, 3], bank=0)
    underpaid = [("win", 1, 5, 10), ("win", 3, 15, 40), ("chips", [5, 1005, 990, 1015], 0)]
    with pytest.raises(AssertionError):
        _check_settlement(underpaid, order=[1, 2, 3], bank=0)
    # a side bet on seat 1's hand is paid right after it, from what the bank has left
    side = [("win", 1, 10, 10), ("side_win", 2, 10, 10, 1), ("win", 3, 5, 40),
            ("chips", [0, 1010, 1000, 1005], 0)]
    assert _check_settlement(side, order=[1, 2, 3], bank=0) == 2
    side_overpaid = [("win", 1, 10, 10), ("side_win", 2, 10, 10, 1), ("win", 3, 10, 40),
                     ("chips", [-5, 1010, 1000, 1010], 0)]
    with pytest.raises(AssertionError):
        _check_settlement(side_overpaid, order=[1, 2, 3], bank=0)
