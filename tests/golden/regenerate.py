"""Rewrite the golden playthroughs in this folder.

    python tests/golden/regenerate.py

Each ``<preset>_<seats>seats_seed<k>.txt`` is the transcript
(``envs.render.transcript``) of one seeded episode played by the
deterministic seats of :func:`golden_action`, followed by the final chips.
``tests/test_golden.py`` replays every episode and compares it with the
stored file, line by line.

Only regenerate after checking that a difference is an intended change of the
rules or of the transcript format: the files are the record of how the engine
played, checked by hand against RULES.md when they were first written.
"""

from __future__ import annotations

import sys
from pathlib import Path

GOLDEN_DIR = Path(__file__).resolve().parent
ROOT = GOLDEN_DIR.parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from envs import actions as A  # noqa: E402
from envs.engine import (AUCTION, BANK, BET, PLAY, SELL, SIDE_BET, TRANSFER,  # noqa: E402
                         Engine)
from envs.render import transcript  # noqa: E402

BASE_PRESETS = ("catalan", "spanish", "pagat")
HOUSE_PRESETS = ("catalan_house", "spanish_full", "pagat_italian", "pagat_spanish", "italian")

# Seeds of the three-hand episodes at 2 and 4 seats; a few were picked so that a rare
# hand comes up: pagat_italian 4 seats seed 9 has a pair of sevens, italian 4 seats
# seed 21 a triplè (7 + matta), and seed 158 at 2 seats a player's natural against a
# bank 7½ of three cards (natural_beats_bank_multicard "double" and "single").
SEEDS = {("pagat_italian", 2): (1, 158), ("pagat_italian", 4): (1, 9),
         ("italian", 2): (1, 158), ("italian", 4): (1, 21)}

# (preset, seats, seed, max_hands)
EPISODES: tuple[tuple[str, int, int, int], ...] = tuple(
    (preset, seats, seed, 3)
    for preset in BASE_PRESETS + HOUSE_PRESETS
    for seats in (2, 4)
    for seed in SEEDS.get((preset, seats), (1, 2))
) + (
    # longer episodes: the bank rotates (max_bank_hands, transfers on 7½);
    # catalan seed 5 has a refused offer, a forced take and jackpots won
    ("catalan", 4, 5, 8),
    ("spanish", 5, 3, 8),
    ("pagat", 5, 3, 8),
    # five seats so that the house rules come up: catalan_house plays the Mort (taken
    # and declined), forced changes of a 4, secret threes, doubles and a split;
    # spanish_full an auction, side bets, fusilar, a change of a 4, abrirse and sales
    # of the bank; italian the matta and a triplè
    ("catalan_house", 5, 15, 8),
    ("spanish_full", 5, 4, 8),
    ("italian", 5, 10, 8),
)

# A player hits below its threshold (half points; 11 = 5½), one per seat.
PLAYER_THRESHOLDS = (11, 10, 12, 9, 11, 10, 12, 9)
BANK_THRESHOLD = 12  # the bank hits below 6
MAX_SPLIT_HANDS = 3  # a seat splits while it holds fewer hands than this


def golden_action(engine: Engine) -> int:
    """A fixed, deterministic choice for the seat to act.

    It reads only what that seat knows (its own cards, the table) and always
    picks a legal action, so it exercises betting, raising, revealing,
    busting and accepting or refusing the bank, and — where the preset has
    them — every house action (RULES.md §5, §6), each chosen by the seat
    number so that both answers occur:

    * auction: odd seats bid the smallest bid they may, even seats pass;
    * side bets: every other seat (by seat + hand number) stakes the smallest
      stake on the next seat it may bet on, the others pass;
    * change_four (optional): even seats change a 4, odd seats keep it;
    * fusilar: odd seats shoot on a 7; Mort: even seats take it, odd seats
      decline;
    * double: with one card worth 3 to 5 points, when the seat holds the chips;
    * a lone matta always takes a card (it cannot bust: §1), and with
      ``pair_of_sevens`` even seats take a card on a lone 7 (§4.8);
    * split: whenever legal, up to ``MAX_SPLIT_HANDS`` hands;
    * selling the bank: a bank that has held it two hands or more sells it.
    """
    legal = engine.legal_actions()
    seat = engine.actor
    layout = engine.layout
    phase = engine.phase
    if phase == BET:
        if A.CHANGE_FOUR in legal and seat % 2 == 0:
            return A.CHANGE_FOUR
        if A.FUSILAR in legal and seat % 2 == 1:
            return A.FUSILAR
        want = layout.bet(2) if (seat + engine.hands_played) % 3 == 0 else layout.bet(1)
        return want if want in legal else legal[0]
    if phase == PLAY:
        hand = engine.hands[seat][engine.hand_index]
        if A.MORT in legal:
            return A.MORT if seat % 2 == 0 else A.DECLINE
        if A.FUSILAR in legal and seat % 2 == 1:
            return A.FUSILAR
        if A.CHANGE_FOUR in legal and seat % 2 == 0:
            return A.CHANGE_FOUR
        if A.SPLIT in legal and len(engine.hands[seat]) < MAX_SPLIT_HANDS:
            return A.SPLIT
        if A.DOUBLE in legal and 6 <= hand.total <= 10:
            return A.DOUBLE
        if len(hand.cards) == 1 and A.HIT in legal and (
                hand.wilds or (engine.rules.pair_of_sevens and hand.total == 14
                               and seat % 2 == 0)):
            return A.HIT
        raise_1 = layout.raise_(1)
        if raise_1 in legal and len(hand.cards) == 1 and hand.total >= 10:
            return raise_1
        if hand.total < PLAYER_THRESHOLDS[seat]:
            if A.REVEAL_HIT in legal and hand.total <= 6:
                return A.REVEAL_HIT
            if A.HIT in legal:
                return A.HIT
        return A.STAND if A.STAND in legal else legal[0]
    if phase == BANK:
        if engine.bank_hand.total < BANK_THRESHOLD and A.HIT in legal:
            return A.HIT
        return A.STAND if A.STAND in legal else A.HIT
    if phase == TRANSFER:
        if seat % 2 == 0:
            return A.TAKE_BANK if A.TAKE_BANK in legal else A.CLAIM_BANK
        return A.REFUSE_BANK
    if phase == AUCTION:
        bids = [a for a in legal if a != A.PASS]
        return bids[0] if bids and seat % 2 == 1 else A.PASS
    if phase == SIDE_BET:
        stakes = [a for a in legal if a != A.PASS]
        return stakes[0] if stakes and (seat + engine.hands_played) % 2 == 0 else A.PASS
    if phase == SELL:
        return A.SELL_BANK if engine.bank_streak >= 2 else A.PASS
    raise AssertionError(f"no decision in phase {phase}")


def play_episode(preset: str, seats: int, seed: int, max_hands: int) -> Engine:
    """Play one golden episode to its end and return the engine."""
    engine = Engine(preset, seats, max_hands=max_hands)
    engine.reset(seed=seed)
    steps = 0
    while not engine.over:
        engine.step(golden_action(engine))
        steps += 1
        if steps > 10_000:
            raise AssertionError("a golden episode did not end")
    return engine


def file_name(preset: str, seats: int, seed: int) -> str:
    return f"{preset}_{seats}seats_seed{seed}.txt"


def golden_text(preset: str, seats: int, seed: int, max_hands: int) -> str:
    """The text stored for one episode."""
    engine = play_episode(preset, seats, seed, max_hands)
    header = (f"# golden playthrough: rules={preset} seats={seats} seed={seed} "
              f"max_hands={max_hands}\n"
              f"# seats play tests/golden/regenerate.py:golden_action\n")
    footer = (f"final chips: {engine.chips} jackpot: {engine.jackpot} "
              f"hands: {engine.hands_played}\n")
    return header + transcript(engine.events) + footer


def main() -> int:
    for preset, seats, seed, max_hands in EPISODES:
        path = GOLDEN_DIR / file_name(preset, seats, seed)
        path.write_text(golden_text(preset, seats, seed, max_hands), encoding="utf-8")
        print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
