"""Strategy maps, figures (opened as images), the rule-variant table and ``sette report``."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from agents import make_agent
from evaluate.report import ReportOptions, read_run, write_report
from evaluate.strategy import COLUMNS, ROWS, split_total, strategy_map
from evaluate.tournament import TournamentConfig, parse_entrant, run_tournament
from evaluate.variants import variant_markdown, variant_table
from train.cli import main

CONFIG_TOML = """[table]
rules = "pagat"
num_seats = 2
table_hands = 10

[evaluate]
bank_for_players = "threshold:5.5"
player_for_banks = "threshold:5"
"""


def _image(path: Path) -> np.ndarray:
    """Open a PNG as an image (fails on anything that is not one)."""
    image = pytest.importorskip("matplotlib.image").imread(path)
    assert image.ndim == 3 and image.shape[0] > 100 and image.shape[1] > 100
    return image


def _write_events(folder: Path, tag: str, values: list[float]) -> None:
    """A TensorBoard event file with one scalar, as SB3 writes it."""
    writer_module = pytest.importorskip("tensorboard.summary.writer.event_file_writer")
    from tensorboard.compat.proto.event_pb2 import Event
    from tensorboard.compat.proto.summary_pb2 import Summary

    folder.mkdir(parents=True, exist_ok=True)
    writer = writer_module.EventFileWriter(str(folder))
    for k, value in enumerate(values):
        summary = Summary(value=[Summary.Value(tag=tag, simple_value=value)])
        writer.add_event(Event(step=1000 * (k + 1), wall_time=float(k), summary=summary))
    writer.close()


@pytest.fixture
def run_dir(tmp_path: Path) -> Path:
    """A run folder as ``sette train`` leaves it, without models (no torch needed)."""
    run = tmp_path / "run-seed0"
    run.mkdir()
    (run / "config.toml").write_text(CONFIG_TOML, encoding="utf-8")
    (run / "run.json").write_text(json.dumps({"command": "all", "seed": 0,
                                              "stage_seeds": [1, 2]}), encoding="utf-8")
    return run


# ------------------------------------------------------------------ strategy maps
def test_split_total_makes_canonical_cards():
    assert split_total(1) == [1] and split_total(14) == [14]
    assert split_total(9) == [1, 8] and sum(split_total(13)) == 13


def test_threshold_player_map_hits_below_its_threshold():
    m = strategy_map(make_agent("threshold:5"), "player", "pagat", 2)
    for i, own in enumerate(ROWS):
        for j, visible in enumerate(COLUMNS):
            hidden = own - visible
            reachable = hidden == 1 or (hidden >= 2 and hidden % 2 == 0)
            assert (m.actions[i, j] != "") == reachable
            if reachable:
                assert m.actions[i, j] == ("hit" if own < 10 else "stand")


def test_threshold_bank_map_hits_below_its_threshold_on_four_seats():
    m = strategy_map(make_agent("threshold:5.5"), "bank", "catalan", 4)
    assert (m.actions[np.array(ROWS) < 11] == "hit").all()
    assert (m.actions[np.array(ROWS) >= 11] == "stand").all()
    assert m.share("stand") == pytest.approx(4 / 14)


def test_house_rules_leave_impossible_cells_empty():
    # catalan_house always changes an initial 4 and swaps an initial 3: a face-down
    # 4 or 3 alone cannot occur.
    m = strategy_map(make_agent("careful", rules="catalan_house"), "player", "catalan_house", 2)
    assert m.actions[ROWS.index(8), 0] == "" and m.actions[ROWS.index(6), 0] == ""
    assert m.actions[ROWS.index(10), 0] != ""


# ------------------------------------------------------------------ figures
def test_ev_and_strategy_plots_are_images(tmp_path):
    pytest.importorskip("matplotlib")
    from evaluate import plots

    config = TournamentConfig((parse_entrant("threshold:5"), parse_entrant("random")),
                              "pagat", 2, 20, 0)
    ev_png = plots.plot_ev(run_tournament(config), tmp_path / "ev.png")
    _image(ev_png)
    maps = [strategy_map(make_agent("threshold:5"), "player", "pagat", 2),
            strategy_map(make_agent("random", seed=1), "bank", "pagat", 2)]
    _image(plots.plot_strategy_maps(maps, tmp_path / "maps.png"))


def test_learning_curves_are_read_from_event_files(tmp_path):
    pytest.importorskip("matplotlib")
    from evaluate import plots

    _write_events(tmp_path / "player" / "tensorboard" / "player_1", "rollout/ep_rew_mean",
                  [-1.0, -0.5, -0.25])
    _write_events(tmp_path / "player" / "tensorboard" / "player_2", "eval/ev_vs_reader",
                  [-0.4, -0.3])
    scalars = plots.read_scalars(tmp_path / "player")
    steps, values = scalars["rollout/ep_rew_mean"]
    assert steps.tolist() == [1000, 2000, 3000] and values.tolist() == [-1.0, -0.5, -0.25]
    assert "eval/ev_vs_reader" in scalars
    _image(plots.plot_learning_curves({"player": scalars}, tmp_path / "curves.png"))
    with pytest.raises(ValueError, match="tags found: eval/ev_vs_reader"):
        plots.plot_learning_curves({"p": {"eval/ev_vs_reader": scalars["eval/ev_vs_reader"]}},
                                   tmp_path / "none.png", tags=("train/loss",))
    with pytest.raises(ValueError, match="no TensorBoard event files"):
        plots.read_scalars(tmp_path / "nothing-here")


def test_best_response_plot_from_the_solver(tmp_path):
    pytest.importorskip("matplotlib")
    from evaluate import plots
    from evaluate.exact import ExactUnavailable, best_response_row

    try:
        rows = [best_response_row("pagat", "player", "threshold:5", "threshold:5",
                                  "threshold:5.5", "threshold:5.5"),
                best_response_row("pagat", "bank", "threshold:6", "threshold:6",
                                  "threshold:5", "threshold:5")]
    except ExactUnavailable as exc:
        pytest.skip(f"solver unavailable: {exc}")
    assert all(r.gap >= -1e-12 for r in rows)
    _image(plots.plot_best_response(rows, tmp_path / "br.png"))


# ------------------------------------------------------------------ variants, report
def test_variant_table_exact_and_simulated():
    rows = variant_table(["pagat", "catalan"], "threshold:5.5", seats=(2,), hands=200)
    pagat, catalan = rows
    assert pagat.exact == pytest.approx(0.2234346, abs=1e-6)
    # The jackpot's ante and pot are the player's, not the bank's: the bank's edge is
    # the chips it wins, not minus the player's EV (which would be +0.2918 here).
    assert catalan.exact == pytest.approx(0.1946374, abs=1e-6) and catalan.note == ""
    assert set(pagat.simulated) == {2}
    text = variant_markdown(rows, "threshold:5.5", 200, 0)
    assert "| `pagat` | +0.2234 |" in text and "| `catalan` | +0.1946 |" in text
    italian = variant_table(["italian"], "threshold:5.5", seats=(2,), hands=20)[0]
    assert italian.exact is None and "wild_card" in italian.note
    assert "n/a (1)" in variant_markdown([italian], "threshold:5.5", 20, 0)


def test_variants_cli(capsys, run_dir):
    assert main(["variants", "--rules", "pagat", "--seats", "2", "--hands", "20"]) == 0
    assert "| `pagat` | +0.2234 |" in capsys.readouterr().out
    assert main(["variants", "--rules", "pagat", "--seats", "9"]) == 2
    assert "--seats 9 is out of range" in capsys.readouterr().err
    assert main(["variants", "--rules", "pagat", "--run", str(run_dir)]) == 2
    assert "holds no finished player and bank models" in capsys.readouterr().err


def test_report_writes_markdown_json_and_images(run_dir, tmp_path):
    pytest.importorskip("matplotlib")
    _write_events(run_dir / "player" / "tensorboard" / "player_1", "rollout/ep_rew_mean",
                  [-1.0, -0.6, -0.4])
    out = tmp_path / "report"
    options = ReportOptions(hands=20, presets=("pagat",), variant_hands=20)
    logged: list[str] = []
    report = write_report([run_dir], out, options, log=logged.append)
    text = report.read_text(encoding="utf-8")
    for heading in ("## `pagat`, 2 seats", "### Tournament", "### Strategy maps",
                    "### Learning curves", "## Rule variants: the bank's edge",
                    "## Rules, settings, seeds"):
        assert heading in text
    assert options.command([run_dir], out) in text
    assert "No learned models found" in text
    for name in ("ev.png", "strategy-player.png", "strategy-bank.png",
                 f"curves-{run_dir.name}.png"):
        assert f"]({name})" in text
        _image(out / name)
    data = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert data["tables"][0]["rules_values"]["bank_transfer"] == "mandatory"
    assert data["variants"][0]["rules"] == "pagat"
    assert "numpy" in data["versions"]


def test_report_is_deterministic_and_says_what_it_skipped(run_dir, tmp_path):
    pytest.importorskip("matplotlib")
    logged: list[str] = []
    options = ReportOptions(hands=10, variants=False, baselines=("threshold:5", "random"))
    first = write_report([run_dir], tmp_path / "a", options, log=logged.append)
    text = first.read_text(encoding="utf-8")
    assert "Learning curves of run-seed0: skipped — no TensorBoard event files" in text
    assert any("skipped" in line for line in logged)
    again = write_report([run_dir], tmp_path / "b", options, log=logged.append)
    assert again.read_text(encoding="utf-8").replace(str(tmp_path / "b"),
                                                     str(tmp_path / "a")) == text


def test_report_with_learned_models(run_dir, tmp_path):
    """Untrained MaskablePPO models stand in for trained ones."""
    pytest.importorskip("sb3_contrib")
    pytest.importorskip("matplotlib")
    from sb3_contrib import MaskablePPO

    from envs.single_seat import BankEnv, PlayerEnv

    for role, view in (("player", PlayerEnv), ("bank", BankEnv)):
        model = MaskablePPO("MlpPolicy", view(rules="pagat", num_seats=2), n_steps=64,
                            batch_size=64, seed=0, device="cpu")
        (run_dir / role).mkdir()
        model.save(run_dir / role / "model.zip")
    assert set(read_run(run_dir).models) == {"learned"}
    # The solver asks the learned policy for its action state by state: seconds for a
    # player, minutes for a bank; the player's comparison is made here.
    options = ReportOptions(hands=20, variants=False)
    report = write_report([run_dir], tmp_path / "r", options, log=lambda message: None)
    text = report.read_text(encoding="utf-8")
    assert "| `learned` | all |" in text and "--best-response player" in text
    assert "### Learned policies vs the exact best response" in text
    if "| learned player | `threshold:5.5` |" in text:  # the solver took the learned agent
        _image(tmp_path / "r" / "best-response.png")
    else:
        assert "Learned player vs exact best response: skipped" in text


def test_report_cli_errors(tmp_path, capsys):
    assert main(["report", str(tmp_path / "missing")]) == 2
    assert "does not exist" in capsys.readouterr().err
    assert main(["report", str(tmp_path)]) == 2
    assert "is not a sette training run" in capsys.readouterr().err


def test_evaluate_cli_writes_figures(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    out = tmp_path / "ev"
    assert main(["evaluate", "threshold:5", "careful", "--rules", "pagat", "--seats", "2",
                 "--hands", "20", "--out", str(out)]) == 0
    for name in ("ev.png", "strategy-player.png", "strategy-bank.png"):
        _image(out / name)
    assert json.loads((out / "tournament.json").read_text())["seats"] == 2
