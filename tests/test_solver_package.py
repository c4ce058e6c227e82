"""The solver as a package (evaluate.solver) and the payoffs it takes from the rulebook.

* importing ``evaluate.solver`` is light and every public name resolves to
  its module's object;
* the payoff of a finished player hand against each bank result, to the
  unit, one row per rule a player would check (RULES.md §4.7 ties and 7½,
  §4.8 payouts and coverage, §4.9 the jackpot).
"""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

import evaluate.solver as solver
from envs.rules import Rules
from evaluate.solver.game import BANK_BUST, SEVEN_AND_HALF, SEVEN_MULTI, HeadsUpGame


def test_importing_the_package_loads_no_numerics() -> None:
    code = ("import sys, evaluate.solver; "
            "print(sorted(m for m in ('numpy', 'scipy', 'envs.engine', 'agents') "
            "if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"


def test_every_public_name_is_its_modules_own() -> None:
    for name in solver.__all__:
        home = importlib.import_module(f"evaluate.solver.{solver._HOME[name]}")
        assert getattr(solver, name) is getattr(home, name), name


def test_an_unknown_name_lists_the_public_ones() -> None:
    with pytest.raises(AttributeError, match="public names are: .*best_response"):
        solver.best_respons  # noqa: B018 - the attribute access is the test


def _hand(game: HeadsUpGame, cards: str) -> int:
    """The multiset of ``cards`` (class names: ``1``..``7``, ``F`` for a figure)."""
    counts = [0] * game.num_classes
    for card in cards:
        counts[game.class_names.index(card)] += 1
    return game.ms.index[tuple(counts)]


PAGAT = Rules.preset("pagat")  # natural_pays 1, a bank 7½ beats everything
# (rules, player's cards, stake, bank result, the player's payoff in units of min_bet)
PAYOFFS = [
    # §4.7 the higher total wins and the bank wins ties
    ("tie: 6 against a bank 6", PAGAT, "6", 2, 12, -2),
    ("6½ against a bank 6", PAGAT, "6F", 2, 12, 2),
    ("5 against a bank 6", PAGAT, "5", 1, 12, -1),
    # §4.7 a bank 7½ wins, unless natural_beats_bank_multicard
    ("natural against a bank natural", PAGAT, "7F", 1, SEVEN_AND_HALF, -1),
    ("natural against a 3-card bank 7½, off", PAGAT, "7F", 1, SEVEN_MULTI, -1),
    ("natural against a 3-card bank 7½, double",
     PAGAT.replace(natural_beats_bank_multicard="double", natural_pays=2), "7F", 1,
     SEVEN_MULTI, 2),
    ("natural against a 3-card bank 7½, single",
     PAGAT.replace(natural_beats_bank_multicard="single", natural_pays=2), "7F", 1,
     SEVEN_MULTI, 1),
    ("3-card 7½ against a 3-card bank 7½, double",
     PAGAT.replace(natural_beats_bank_multicard="double", natural_pays=2), "34F", 1,
     SEVEN_MULTI, -1),
    # §4.8 what a win pays: natural_pays for a natural, any_seven_and_half_pays
    ("natural against a bank bust", Rules.preset("catalan"), "7F", 2, BANK_BUST, 4),
    ("3-card 7½ against a bank bust", Rules.preset("catalan"), "34F", 2, BANK_BUST, 2),
    ("3-card 7½, any_seven_and_half_pays", Rules.preset("spanish"), "34F", 2, BANK_BUST, 4),
    # §4.8 coverage: the bank pays at most the chips it holds (25 chips = 2.5 units)
    ("natural paid 3 by a bank of 25 chips", PAGAT.replace(natural_pays=3, starting_chips=25),
     "7F", 1, BANK_BUST, 2.5),
    ("a loss is the stake, whatever the bank holds",
     PAGAT.replace(natural_pays=3, starting_chips=25), "5", 2, 12, -2),
]


@pytest.mark.parametrize("rules,cards,stake,result,payoff",
                         [case[1:] for case in PAYOFFS], ids=[case[0] for case in PAYOFFS])
def test_payoff_rows_to_the_unit(rules: Rules, cards: str, stake: int, result: int,
                                 payoff: float) -> None:
    game = HeadsUpGame(rules, recall="forgetful")
    assert game.payoff_row(_hand(game, cards), stake)[result] == payoff


@pytest.mark.parametrize("cards,result,pot", [
    ("7F", BANK_BUST, 2.1),        # a natural takes the pot, also when the bank busts
    ("7F", 12, 2.1),
    ("7F", SEVEN_AND_HALF, 0.0),   # unless the bank makes 7½, with two cards or more
    ("7F", SEVEN_MULTI, 0.0),
    ("34F", BANK_BUST, 0.0),       # only a natural
])
def test_the_jackpot_goes_to_a_natural_unless_the_bank_makes_seven_and_half(
        cards: str, result: int, pot: float) -> None:
    game = HeadsUpGame("catalan", jackpot=20, recall="forgetful")  # 20 chips + this hand's 1-chip ante
    assert game.jackpot_row(_hand(game, cards))[result] == pytest.approx(pot)
