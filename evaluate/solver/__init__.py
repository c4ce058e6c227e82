"""The exact heads-up solver: one player against the bank, one hand, no sampling.

Where to read, in order:

* :mod:`~evaluate.solver.game` — the hand as a finite game: states (multisets
  of cards), legal actions, chance, payoff rows (the rules of RULES.md §4
  come from :mod:`envs.rulebook`), and which rule switches are supported;
* :mod:`~evaluate.solver.policies` — policies as the solver sees them, from
  agent specs, agents (queried through real observations) or tables;
* :mod:`~evaluate.solver.values` — the maths: exact EV, best responses,
  exploitability, equilibrium, and what is supported;
* :mod:`~evaluate.solver.lp` — the equilibrium's sequence-form LP (HiGHS);
* :mod:`~evaluate.solver.tables` — strategy tables and JSON for people;
* :mod:`~evaluate.solver.exact` — the numbers the reports print, with the
  solver's refusals as :class:`~evaluate.solver.exact.ExactUnavailable`;
* :mod:`~evaluate.solver.cli` — ``sette solve``.

The public API is importable from here (``from evaluate.solver import
evaluate``). Importing this package loads nothing else: each name loads its
module (NumPy, SciPy, the engine) on first use, so a report that may print
an exact number does not pay for the solver until it asks for one.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from evaluate.solver.exact import (BestResponseRow, ExactUnavailable, best_response_row,
                                       exact_bank_edge)
    from evaluate.solver.game import (IRRELEVANT_SWITCHES, MODELLED_SWITCHES, HeadsUpGame,
                                      SolverError, View, check_rules, parse_composition)
    from evaluate.solver.policies import (AgentPolicy, SolverPolicy, StrategyAgent,
                                          TabularPolicy, as_policy)
    from evaluate.solver.values import (NASH_TOLERANCE, BankOutcomes, BestResponse,
                                        Equilibrium, Evaluation, Exploitability,
                                        bank_best_response, best_response, equilibrium,
                                        evaluate, evaluate_policies, exploitability,
                                        exploitability_of, make_game, player_best_response)

_HOME: Final[dict[str, str]] = {
    **dict.fromkeys(("BestResponseRow", "ExactUnavailable", "best_response_row",
                     "exact_bank_edge"), "exact"),
    **dict.fromkeys(("IRRELEVANT_SWITCHES", "MODELLED_SWITCHES", "HeadsUpGame", "SolverError",
                     "View", "check_rules", "parse_composition"), "game"),
    **dict.fromkeys(("AgentPolicy", "SolverPolicy", "StrategyAgent", "TabularPolicy",
                     "as_policy"), "policies"),
    **dict.fromkeys(("NASH_TOLERANCE", "BankOutcomes", "BestResponse", "Equilibrium",
                     "Evaluation", "Exploitability", "bank_best_response", "best_response",
                     "equilibrium", "evaluate", "evaluate_policies", "exploitability",
                     "exploitability_of", "make_game", "player_best_response"), "values"),
}
"""Each public name and the module of this package that defines it."""

__all__ = sorted(_HOME)


def __getattr__(name: str) -> Any:
    """Load a public name from its module on first use (PEP 562)."""
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}; its public "
                             f"names are: {', '.join(__all__)}")
    value = getattr(importlib.import_module(f"{__name__}.{home}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
