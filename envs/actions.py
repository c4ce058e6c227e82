"""The fixed action layout shared by the engine and every environment.

One ``Discrete`` space serves every seat and every phase; the action mask
says which indices are legal now. The layout depends only on the bet ladder
(``Rules.bet_ladder``), so every preset with the same ladder has the same
action space and a policy can move between rule variants:

=====  ==============  ====================================================
index  name            meaning
=====  ==============  ====================================================
0      ``stand``       stop drawing (player or bank)
1      ``hit``         ask for a card
2      ``reveal_hit``  ``player_choice`` (§4.3): turn the face-down card
                       up, then take the new card face down
3      ``take_bank``   accept the bank offered after a 7½ (§5 ``offer``)
4      ``refuse_bank`` refuse an offered bank or waive the right to claim it
5      ``claim_bank``  claim the bank by right after a 7½ (§5 ``right``)
6      ``double``      §6 double (house rules)
7      ``split``       §6 split / abrirse (house rules)
8      ``change_four`` §6 change an initial 4 (house rules)
9      ``mort``        §6 accept the Mort on an initial 7 (house rules)
10     ``decline``     §6 decline the Mort (house rules)
11     ``fusilar``     §6 shoot on an initial 7 (house rules)
12…    ``bet_<k>``     stake k x ``min_bet``, one per ladder entry
…      ``raise_<k>``   raise the stake by k x ``min_bet`` (§2 ``bet_raise``)
=====  ==============  ====================================================

Actions a preset does not use are always masked out.
"""

from __future__ import annotations

STAND, HIT, REVEAL_HIT, TAKE_BANK, REFUSE_BANK, CLAIM_BANK = range(6)
DOUBLE, SPLIT, CHANGE_FOUR, MORT, DECLINE, FUSILAR = range(6, 12)

CORE_ACTIONS = (
    "stand", "hit", "reveal_hit", "take_bank", "refuse_bank", "claim_bank",
    "double", "split", "change_four", "mort", "decline", "fusilar",
)


class ActionLayout:
    """Names and index ranges of the actions for one bet ladder."""

    __slots__ = ("ladder", "bet_start", "raise_start", "size", "names")

    def __init__(self, ladder: tuple[int, ...]) -> None:
        self.ladder = tuple(ladder)
        self.bet_start = len(CORE_ACTIONS)
        self.raise_start = self.bet_start + len(self.ladder)
        self.size = self.raise_start + len(self.ladder)
        self.names = (
            list(CORE_ACTIONS)
            + [f"bet_{k}" for k in self.ladder]
            + [f"raise_{k}" for k in self.ladder]
        )

    def bet(self, k: int) -> int:
        """Index of ``bet_<k>``."""
        return self.bet_start + self.ladder.index(k)

    def raise_(self, k: int) -> int:
        """Index of ``raise_<k>``."""
        return self.raise_start + self.ladder.index(k)

    def index(self, name: str) -> int:
        """Index of an action by name; ``ValueError`` lists the names if unknown."""
        try:
            return self.names.index(name)
        except ValueError:
            raise ValueError(f"unknown action {name!r}; actions are: "
                             f"{', '.join(self.names)}") from None
