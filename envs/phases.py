"""The phases of an episode: who the engine asks for what (RULES.md §4, §5).

The :class:`~envs.engine.Engine`'s module docstring holds the table of the
transitions between them; :mod:`envs.engine` re-exports every name here, and
the house-rule plug-ins (:mod:`envs.house_rules`) and the bank-holder logic
(:mod:`envs.bank_seat`) read them from this module so that neither imports
the engine at run time.
"""

from __future__ import annotations

from typing import Final

__all__ = ["BET", "PLAY", "BANK", "TRANSFER", "OVER", "AUCTION", "SIDE_BET", "SELL",
           "PHASE_NAMES"]

# Final: the compiled core (envs._native) reads the phases as C constants, not dict lookups.
BET: Final = 0
"""A player stakes: before the deal, on its turn, or the second stake of a split."""
PLAY: Final = 1
"""A player plays a hand: hit, stand and the house rules' actions."""
BANK: Final = 2
"""The bank plays its hand (RULES.md §4.6)."""
TRANSFER: Final = 3
"""A player is offered, may claim or is sold the bank (RULES.md §5)."""
OVER: Final = 4
"""The episode has ended."""
AUCTION: Final = 5
"""The seats bid for the first bank (RULES.md §5 ``bank_sale``)."""
SIDE_BET: Final = 6
"""The players stake on one another's hands (RULES.md §6 ``side_bets``)."""
SELL: Final = 7
"""The bank may offer the bank to the next seat (RULES.md §5 ``bank_sale``)."""
PHASE_NAMES = ("bet", "play", "bank", "transfer", "over", "auction", "side_bet", "sell")
