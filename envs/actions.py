"""The fixed action layout shared by the engine and every environment.

One ``Discrete`` space serves every seat and every phase; the action mask
says which indices are legal now. The layout depends only on the bet ladder
(``Rules.bet_ladder``, L entries), so every preset with the same ladder —
and every table size — has the same action space and a policy can move
between rule variants:

===========  ======================  ==============================================
index        name                    meaning
===========  ======================  ==============================================
0            ``stand``               stop drawing (player or bank)
1            ``hit``                 ask for a card
2            ``reveal_hit``          ``player_choice`` (§4.3): turn the face-down
                                     card up, then take the new card face down
3            ``take_bank``           accept the bank: offered after a 7½ (§5
                                     ``offer``) or by a bank selling it
4            ``refuse_bank``         refuse the bank, or waive the right to claim it
5            ``claim_bank``          claim the bank by right after a 7½ (§5 ``right``)
6            ``double``              §6 double: one more card, stake doubled
7            ``split``               §6 split / abrirse: the last card starts a hand
8            ``change_four``         §6 change_four (optional): the 4 goes back
9            ``mort``                §6 accept the Mort on an initial 7
10           ``decline``             §6 decline the Mort and play on
11           ``fusilar``             §6 shoot on an initial 7
12           ``pass``                no bid, no side bet, or keep the bank
13           ``sell_bank``           §5 bank_sale: offer the bank to the next seat
14…          ``bet_<k>``             stake k x ``min_bet``, one per ladder entry
…            ``raise_<k>``           raise the stake by k x ``min_bet`` (§2)
…            ``bid_<k>``             bid k x ``min_bet`` to each seat for the first
                                     bank (§5 ``first_bank = "auction"``)
…            ``side_bet_<o>_<k>``    §6 side bet of k x ``min_bet`` on the hand of
                                     the seat ``o`` places after the bettor
                                     (o = 1..``MAX_OFFSET``; offsets past the
                                     table are masked)
===========  ======================  ==============================================

Actions a preset does not use are always masked out.
"""

from __future__ import annotations

from typing import Any, Final

from envs.cards import get_state, set_state

# Final: the compiled core (envs._native) reads these as C constants, not dict lookups.
STAND: Final = 0
HIT: Final = 1
REVEAL_HIT: Final = 2
TAKE_BANK: Final = 3
REFUSE_BANK: Final = 4
CLAIM_BANK: Final = 5
DOUBLE: Final = 6
SPLIT: Final = 7
CHANGE_FOUR: Final = 8
MORT: Final = 9
DECLINE: Final = 10
FUSILAR: Final = 11
PASS: Final = 12
SELL_BANK: Final = 13

CORE_ACTIONS = (
    "stand", "hit", "reveal_hit", "take_bank", "refuse_bank", "claim_bank",
    "double", "split", "change_four", "mort", "decline", "fusilar", "pass", "sell_bank",
)

MAX_OFFSET: Final = 7
"""Side bets name the target by its place after the bettor, 1..7: every other seat of a
table of up to 8. At a larger table (``envs.rules.MAX_SEATS``) a player backs one of the 7
hands after its own, never one further round: the layout is the same for every table size,
so a policy moves between sizes and no index is renumbered (``envs.rules``, side bets)."""


class ActionLayout:
    """Names and index ranges of the actions for one bet ladder."""

    __slots__ = ("ladder", "bet_start", "raise_start", "bid_start", "side_bet_start", "size",
                 "names")

    def __init__(self, ladder: tuple[int, ...]) -> None:
        self.ladder = tuple(ladder)
        width = len(self.ladder)
        self.bet_start = len(CORE_ACTIONS)
        self.raise_start = self.bet_start + width
        self.bid_start = self.raise_start + width
        self.side_bet_start = self.bid_start + width
        self.size = self.side_bet_start + MAX_OFFSET * width
        self.names = (
            list(CORE_ACTIONS)
            + [f"bet_{k}" for k in self.ladder]
            + [f"raise_{k}" for k in self.ladder]
            + [f"bid_{k}" for k in self.ladder]
            + [f"side_bet_{o}_{k}" for o in range(1, MAX_OFFSET + 1) for k in self.ladder]
        )

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle as (class, constructor arguments, attributes): see envs.cards.get_state."""
        return (ActionLayout, (self.ladder,), get_state(self))

    def __setstate__(self, state: dict[str, Any]) -> None:
        set_state(self, state)

    def bet(self, k: int) -> int:
        """Index of ``bet_<k>``."""
        return self.bet_start + self.ladder.index(k)

    def raise_(self, k: int) -> int:
        """Index of ``raise_<k>``."""
        return self.raise_start + self.ladder.index(k)

    def side_bet(self, offset: int, k: int) -> int:
        """Index of ``side_bet_<offset>_<k>``."""
        return self.side_bet_start + (offset - 1) * len(self.ladder) + self.ladder.index(k)

    def side_bet_of(self, action: int) -> tuple[int, int]:
        """The (offset, k) of a ``side_bet_<offset>_<k>`` index."""
        offset, i = divmod(action - self.side_bet_start, len(self.ladder))
        return offset + 1, self.ladder[i]

    def index(self, name: str) -> int:
        """Index of an action by name; ``ValueError`` lists the names if unknown."""
        try:
            return self.names.index(name)
        except ValueError:
            raise ValueError(f"unknown action {name!r}; actions are: "
                             f"{', '.join(self.names)}") from None
