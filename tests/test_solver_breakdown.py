"""A bank's gap to the best response, split by the views of the player's finished hand.

``evaluate.solver.breakdown.bank_gain_by_view`` and ``sette solve best-response
--by-view``: the rows add up to the bank's gain, a bank that is the best
response loses nothing anywhere, and a bank that departs from it behind one
view loses exactly there.
"""

from __future__ import annotations

import json

import pytest

from envs import actions as A
from envs.rules import Rules
from evaluate.solver.breakdown import bank_gain_by_view
from evaluate.solver.game import HeadsUpGame, SolverError, View
from evaluate.solver.policies import Dist, SolverPolicy, as_policy
from evaluate.solver.values import best_response, evaluate
from train.cli import main

SHOE = "3,3,3,3,3,3,3,3,3,3"
"""A 30-card shoe: the perfect-recall game stays small enough to solve in a test."""
PLAYER = "threshold:5"
BANK = "threshold:5.5"


def _split(recall: str, bank: object = BANK) -> tuple[object, HeadsUpGame, list]:
    rules = Rules.preset("catalan")
    player = as_policy(PLAYER, rules)
    best: dict[View, float] = {}
    br = best_response(rules, "bank", player, composition=SHOE, baseline=bank, recall=recall,
                       by_view=best)
    twin, rows = bank_gain_by_view(br.game, player, as_policy(bank, rules), best)
    return br, twin, rows


@pytest.mark.parametrize("recall", ["forgetful", "perfect"])
def test_rows_add_up_to_the_gain_and_cover_every_shown_hand(recall: str) -> None:
    br, _twin, rows = _split(recall)
    assert br.gain is not None and br.gain > 0.01
    assert sum(row.gain for row in rows) == pytest.approx(br.gain, abs=1e-12)
    assert min(row.gain for row in rows) > -1e-12
    assert [row.gain for row in rows] == sorted((row.gain for row in rows), reverse=True)
    # Every hand the player does not bust reaches the bank behind one view.
    bust = evaluate("catalan", PLAYER, BANK, composition=SHOE, recall=recall).player_bust
    assert sum(row.reach for row in rows) == pytest.approx(1 - bust, abs=1e-12)


class _StandsBehind(SolverPolicy):
    """The best response, except that behind one view it stands wherever standing is legal."""

    name = "best response but one view"
    figure_symmetric = True
    forgets = True

    def __init__(self, best: SolverPolicy, view: View) -> None:
        self.best = best
        self.view = view

    def player(self, game: HeadsUpGame, node: tuple, legal: list[int]) -> Dist:
        raise AssertionError("a bank policy")

    def bank(self, game: HeadsUpGame, view: View, bank: int, legal: list[int]) -> Dist:
        if view == self.view and A.STAND in legal:
            return [(A.STAND, 1.0)]
        return self.best.bank(game, view, bank, legal)


def test_a_bank_loses_only_behind_the_view_where_it_leaves_the_best_response() -> None:
    br, twin, rows = _split("forgetful")
    # The best response itself gives nothing away, behind any view.
    _br, _twin, own = _split("forgetful", br.strategy)
    assert max(abs(row.gain) for row in own) < 1e-12
    # Standing at once behind the view where the threshold bank loses most: all of the
    # new bank's gap is there, and it is more than the threshold bank's there (which
    # draws to 5½ at least).
    worst = rows[0].view
    _br2, _twin2, changed = _split("forgetful", _StandsBehind(br.strategy, worst))
    assert changed[0].view == worst
    assert changed[0].gain > rows[0].gain
    assert sum(row.gain for row in changed[1:]) == pytest.approx(0.0, abs=1e-12)
    assert changed[0].describe(twin).endswith("stood, stake 1")


def test_only_a_bank_best_response_is_split() -> None:
    with pytest.raises(SolverError, match="role 'bank' only"):
        best_response("catalan", "player", "threshold:5.5", composition=SHOE, by_view={})


def test_cli_prints_the_views_that_add_up_to_the_gain(
        capsys: pytest.CaptureFixture[str]) -> None:
    args = ["solve", "best-response", "--preset", "catalan", "--shoe", SHOE, "--recall",
            "forgetful", "--role", "bank", "--player", PLAYER, "--bank", BANK, "--by-view", "3"]
    assert main(args) == 0
    text = capsys.readouterr().out
    br, twin, rows = _split("forgetful")
    assert f"where {BANK} gives most away: 3 of the {len(rows)} views" in text
    for row in rows[:3]:
        assert f"{row.gain:9.6f}" in text and row.describe(twin) in text
    assert main(args + ["--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [r["gain"] for r in data["by_view"]] == pytest.approx([r.gain for r in rows[:3]])
    assert data["gain"] == pytest.approx(sum(r.gain for r in rows), abs=1e-12)


@pytest.mark.parametrize("extra, message", [
    (["--role", "player", "--bank", BANK, "--player", PLAYER, "--by-view", "3"],
     "needs --role bank, not --role player"),
    (["--role", "bank", "--player", PLAYER, "--by-view", "3"], "--by-view needs --bank"),
    (["--role", "bank", "--player", PLAYER, "--bank", BANK, "--by-view", "-1"],
     "--by-view -1: give a number of views"),
])
def test_cli_refuses_a_split_it_cannot_make(extra: list[str], message: str,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "best-response", "--preset", "catalan", "--shoe", SHOE,
                 "--recall", "forgetful", *extra]) == 2
    assert message in capsys.readouterr().err
