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

**The layout is frozen and versioned: indices are append-only.** Saved models
(``agents.learned``) record :data:`ACTION_LAYOUT_VERSION` and the action names
they were trained on, and refuse to load under another version, so no action
may ever move. :data:`LAYOUT` lists the blocks in index order, each with the
version that added it; version 1 is the table above, bit for bit. To add an
action (a new house-rule plug-in, say):

1. append one row to :data:`LAYOUT`, *after the last block*, with the next
   version number, and set :data:`ACTION_LAYOUT_VERSION` to it. Never insert a
   row before another, reorder, rename or remove one: every later index would
   shift (a new core action placed before ``bet_<k>`` would move every bet);
2. a plug-in names its actions in a ``FIXED`` block named after its rule
   switch, e.g. ``(2, "surrender", FIXED, ("surrender",))``: names are
   lower-case ``snake_case``, unique across the layout. The block follows the
   ladder-sized ones, so its index depends on the ladder's length: the plug-in
   looks it up once, when the engine is built, with
   ``layout.index("surrender")`` (never a hard-coded number);
3. add the row to the table above and the new names to the pinned table in
   ``tests/test_action_layout.py`` (its version-1 rows never change).
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

CORE_ACTIONS: Final = (
    "stand", "hit", "reveal_hit", "take_bank", "refuse_bank", "claim_bank",
    "double", "split", "change_four", "mort", "decline", "fusilar", "pass", "sell_bank",
)

MAX_OFFSET: Final = 7
"""Side bets name the target by its place after the bettor, 1..7: every other seat of a
table of up to 8. At a larger table (``envs.rules.MAX_SEATS``) a player backs one of the 7
hands after its own, never one further round: the layout is the same for every table size,
so a policy moves between sizes and no index is renumbered (``envs.rules``, side bets)."""

# How many indices a block of LAYOUT holds.
FIXED: Final = 0
"""One index per name the block lists."""
PER_STAKE: Final = 1
"""One index per ladder entry k, named ``<block>_<k>``."""
PER_TARGET_STAKE: Final = 2
"""One index per target offset o = 1..MAX_OFFSET and ladder entry k, ``<block>_<o>_<k>``."""

ACTION_LAYOUT_VERSION: Final = 1
"""The version of :data:`LAYOUT`: the highest version among its rows (module docstring)."""

LAYOUT: Final[tuple[tuple[int, str, int, tuple[str, ...]], ...]] = (
    # (version that added it, block, kind, names of a FIXED block). Append-only.
    (1, "core", FIXED, CORE_ACTIONS),
    (1, "bet", PER_STAKE, ()),
    (1, "raise", PER_STAKE, ()),
    (1, "bid", PER_STAKE, ()),
    (1, "side_bet", PER_TARGET_STAKE, ()),
)
"""The blocks of the action layout in index order (module docstring: how to add one)."""


def block_names(block: str, kind: int, names: tuple[str, ...],
                ladder: tuple[int, ...]) -> list[str]:
    """The action names of one :data:`LAYOUT` block for a bet ladder, in index order."""
    if kind == FIXED:
        return list(names)
    if kind == PER_STAKE:
        return [f"{block}_{k}" for k in ladder]
    return [f"{block}_{o}_{k}" for o in range(1, MAX_OFFSET + 1) for k in ladder]


class ActionLayout:
    """Names and index ranges of the actions for one bet ladder (:data:`LAYOUT`)."""

    __slots__ = ("ladder", "bet_start", "raise_start", "bid_start", "side_bet_start", "size",
                 "names")

    def __init__(self, ladder: tuple[int, ...]) -> None:
        self.ladder = tuple(ladder)
        names: list[str] = []
        starts: dict[str, int] = {}
        for _version, block, kind, fixed in LAYOUT:
            starts[block] = len(names)
            names.extend(block_names(block, kind, fixed, self.ladder))
        self.bet_start = starts["bet"]
        self.raise_start = starts["raise"]
        self.bid_start = starts["bid"]
        self.side_bet_start = starts["side_bet"]
        self.size = len(names)
        self.names = names

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
