"""``sette report`` on a tiny default run: the exact best-response gaps in the perfect-recall
game, for every learned policy of each role (the bank trained on the information state
beside the one trained on the observation) and the baselines of that role."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from evaluate import report
from evaluate.report import ReportOptions, read_run, write_report
from evaluate.solver import exact
from train.cli import main


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory: pytest.TempPathFactory, tiny_run_config: Callable) -> Path:
    """A default ``sette train`` run (catalan, 2 seats) on the tiny budget, without self-play."""
    folder = tmp_path_factory.mktemp("recall")
    run = folder / "run"
    assert main(["train", "--config", str(tiny_run_config(folder)), "--run-dir", str(run),
                 "--seed", "1", "--set", "selfplay.rounds=0"]) == 0
    return run


def test_the_report_gives_each_learned_policy_its_exact_gap(tiny_run: Path, tmp_path: Path,
                                                            monkeypatch) -> None:
    pytest.importorskip("matplotlib")
    assert read_run(tiny_run).learned["information-state"] == ("bank",)
    # the bank baseline beside the best threshold: a scripted one here (reader is asked
    # state by state, minutes)
    monkeypatch.setitem(report.STAND_INS, "bank", "threshold:5")
    # the information-state bank's exact EV on a full shoe takes minutes (the solver's
    # tests value it on small shoes): here it is out of reach, and the report says so
    monkeypatch.setattr(exact, "BANK_VIEW_BUDGET", 0)
    options = ReportOptions(hands=20, variants=False, best_response=("player", "bank"),
                            br_bank="threshold:5.5", br_player="threshold:5.5")
    logged: list[str] = []
    text = write_report([tiny_run], tmp_path / "r", options, log=logged.append).read_text(
        encoding="utf-8")
    assert "game with perfect recall (RULES.md §8.10" in text and "full shoe" in text
    rows = {line.split(" | ")[1]: line for line in text.splitlines()
            if line.startswith("| player | ") or line.startswith("| bank | ")}
    for label in ("learned player", "careful", "learned bank", "threshold:5"):
        assert label in rows, label
    assert any(label.endswith("(best threshold)") for label in rows)
    # the bank trained on the information state is reported beside the observation's bank,
    # in the gaps or with the reason it is out of reach, and not seated in the tournament
    assert "*Information-state bank vs exact best response: skipped — out of reach" in text
    assert "trained on the information state (information-state): held to the exact" in text
    assert "information-state bank`" not in text
    data = json.loads((tmp_path / "r" / "report.json").read_text(encoding="utf-8"))
    [table] = data["tables"]
    gaps = {(r["role"], r["label"]): r for r in table["best_response"]}
    for row in gaps.values():  # the best response is never worse than the policy
        own = row["ev"] if row["role"] == "player" else -row["ev"]
        best = row["best"] if row["role"] == "player" else -row["best"]
        assert best >= own - 1e-9
    assert {("player", "learned player"), ("bank", "learned bank")} <= set(gaps)
