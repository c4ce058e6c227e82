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
from envs.engine import BANK, BET, PLAY, TRANSFER, Engine  # noqa: E402
from envs.render import transcript  # noqa: E402

# (preset, seats, seed, max_hands)
EPISODES: tuple[tuple[str, int, int, int], ...] = tuple(
    (preset, seats, seed, 3)
    for preset in ("catalan", "spanish", "pagat")
    for seats in (2, 4)
    for seed in (1, 2)
) + (
    # longer episodes: the bank rotates (max_bank_hands, transfers on 7½);
    # catalan seed 5 has a refused offer, a forced take and jackpots won
    ("catalan", 4, 5, 8),
    ("spanish", 5, 3, 8),
    ("pagat", 5, 3, 8),
)

# A player hits below its threshold (half points; 11 = 5½), one per seat.
PLAYER_THRESHOLDS = (11, 10, 12, 9, 11, 10, 12, 9)
BANK_THRESHOLD = 12  # the bank hits below 6


def golden_action(engine: Engine) -> int:
    """A fixed, deterministic choice for the seat to act.

    It reads only what that seat knows (its own cards) and always picks a
    legal action, so it exercises betting, raising, revealing, busting and
    accepting or refusing the bank.
    """
    legal = engine.legal_actions()
    seat = engine.actor
    layout = engine.layout
    if engine.phase == BET:
        want = layout.bet(2) if (seat + engine.hands_played) % 3 == 0 else layout.bet(1)
        return want if want in legal else legal[0]
    if engine.phase == PLAY:
        hand = engine.hands[seat][0]
        raise_1 = layout.raise_(1)
        if raise_1 in legal and len(hand.cards) == 1 and hand.total >= 10:
            return raise_1
        if hand.total < PLAYER_THRESHOLDS[seat]:
            if A.REVEAL_HIT in legal and hand.total <= 6:
                return A.REVEAL_HIT
            if A.HIT in legal:
                return A.HIT
        return A.STAND if A.STAND in legal else legal[0]
    if engine.phase == BANK:
        if engine.bank_hand.total < BANK_THRESHOLD and A.HIT in legal:
            return A.HIT
        return A.STAND if A.STAND in legal else A.HIT
    if engine.phase == TRANSFER:
        if seat % 2 == 0:
            return A.TAKE_BANK if A.TAKE_BANK in legal else A.CLAIM_BANK
        return A.REFUSE_BANK
    raise AssertionError(f"no decision in phase {engine.phase}")


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
