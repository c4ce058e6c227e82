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
    from evaluate.solver.exact import ExactUnavailable, best_response_row

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
def test_variants_cli_refuses_a_run_without_models(capsys, run_dir):
    assert main(["variants", "--rules", "pagat", "--run", str(run_dir)]) == 2
    assert "holds no finished player or bank model" in capsys.readouterr().err


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


def _learned_run(folder: Path, roles: tuple[str, ...]) -> Path:
    """A pagat 2-seat run folder as ``sette train`` leaves it, holding models of ``roles``:
    untrained MaskablePPO networks saved by :mod:`train.ppo` (with their description)."""
    pytest.importorskip("sb3_contrib")
    from train.config import TrainConfig
    from train.pipeline import new_run
    from train.ppo import make_vec_env, model_info, new_model, save_model

    config = TrainConfig()
    config.table.rules, config.table.num_seats = "pagat", 2
    config.run.n_envs, config.run.progress_bar = 1, False
    config.ppo.n_steps, config.ppo.batch_size, config.ppo.net_arch = 64, 64, [8]
    config.player.ppo, config.bank.ppo = {}, {}
    run = new_run("all", config, folder)
    for role in roles:
        opponents = ({"bank": make_agent("threshold:5.5")} if role == "player"
                     else {"players": make_agent("threshold:5.5")})
        env = make_vec_env(role, config, opponents, seed=1)
        model = new_model(env, config.stage_ppo(role), run / role, seed=1)
        save_model(model, run / role / "model.zip", model_info(model, role, config))
        env.close()
    return run


def test_report_with_learned_models(tmp_path):
    """Untrained models stand in for trained ones."""
    pytest.importorskip("matplotlib")
    run = _learned_run(tmp_path / "pair", ("player", "bank"))
    assert read_run(run).models == {
        "learned": f"model:{run / 'player' / 'model.zip'}|model:{run / 'bank' / 'model.zip'}"}
    # The solver asks the learned policy for its action state by state: seconds for a
    # player, minutes for a bank; the player's comparison is made here.
    options = ReportOptions(hands=20, variants=False)
    report = write_report([run], tmp_path / "r", options, log=lambda message: None)
    text = report.read_text(encoding="utf-8")
    assert "| `learned` | all |" in text and "--best-response player" in text
    assert "No learned models found" not in text and "stand-in" not in text
    assert "### Learned policies vs the exact best response" in text
    if "| player | learned player | `threshold:5.5` |" in text:  # the solver took the agent
        _image(tmp_path / "r" / "best-response.png")
    else:
        assert "Learned player vs exact best response: skipped" in text


@pytest.mark.parametrize("role, label, stand_in", [
    ("player", "learned player|reader", "the bank as `reader`"),
    ("bank", "careful|learned bank", "the player as `careful`")])
def test_report_compares_the_one_model_a_run_has(tmp_path, role, label, stand_in):
    """A run with only a player (or only a bank) model is compared, its other role played
    by a named stand-in, instead of "no learned models found"."""
    pytest.importorskip("matplotlib")
    run = _learned_run(tmp_path / f"only-{role}", (role,))
    info = read_run(run)
    assert info.learned == {"learned": (role,)} and info.label("learned") == label
    # A bank-only run says it has no learned player to hold to its best response (the
    # player's comparison takes the solver a minute here: test_report_with_learned_models).
    options = ReportOptions(hands=20, variants=False,
                            best_response=("player",) if role == "bank" else ())
    report = write_report([run], tmp_path / "r", options, log=lambda message: None)
    text = report.read_text(encoding="utf-8")
    assert "No learned models found" not in text
    assert f"| `{label}` | all |" in text.replace("\\|", "|")
    assert f"has a learned {role} (learned) but no learned" in text and stand_in in text
    skipped = "Learned player vs exact best response: skipped — only-bank has no learned player"
    assert (skipped in text) == (role == "bank")


def test_report_cli_errors(tmp_path, capsys):
    assert main(["report", str(tmp_path / "missing")]) == 2
    assert "does not exist" in capsys.readouterr().err
    assert main(["report", str(tmp_path)]) == 2
    assert "is not a sette training run" in capsys.readouterr().err
    (tmp_path / "README.md").write_text("x", encoding="utf-8")
    assert main(["variants", "--run", str(tmp_path / "README.md")]) == 2
    assert (f"'{tmp_path / 'README.md'}' is a file, not a run directory"
            in capsys.readouterr().err)


@pytest.mark.parametrize("argv, message", [
    (["--variant-baselines", "nope"], "unknown agent 'nope'"),
    (["--best-response", "bank", "--br-player", "threshold:99"],
     "--br-player threshold:99: threshold 99.0 is outside 0.5..7.5 points"),
    (["--br-bank", "nope"], "--br-bank nope: unknown agent 'nope'"),
    (["{run}/"], "run directory '{run}' is given twice: give each run once"),
])
def test_report_refuses_bad_input_before_the_first_hand(argv, message, run_dir, tmp_path,
                                                        monkeypatch, capsys):
    """A bad preset or line of play of the variant table, or a bad opponent of the best
    response, used to be found after minutes of tournaments (or to skip the comparison with
    exit 0); a run given twice was counted as two training seeds."""
    from evaluate import report, variants

    for module in (report, variants):
        monkeypatch.setattr(module, "batch_tournament", pytest.fail)
        monkeypatch.setattr(module, "run_tournament", pytest.fail)
    words = [w.format(run=run_dir) for w in argv]
    assert main(["report", str(run_dir), *words, "--hands", "10", "--variant-hands", "10",
                 "--out", str(tmp_path / "r")]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("sette report: error: ")
    assert message.format(run=run_dir) in err
    assert not (tmp_path / "r").exists()


def test_report_names_the_option_of_a_bad_rule_set(run_dir, tmp_path, capsys):
    """``--presets pagat nope`` used to say ``unknown preset 'nope'`` without the option, as
    the other options' errors name theirs."""
    with pytest.raises(SystemExit) as stop:
        main(["report", str(run_dir), "--presets", "pagat", "nope", "--out",
              str(tmp_path / "r")])
    assert stop.value.code == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert ("sette report: error: argument --presets: unknown preset 'nope'; presets are: "
            "catalan, " in err), err
    assert not (tmp_path / "r").exists()


@pytest.mark.parametrize("rules, presets, refused", [
    ("pagat", ["pagat", "spanish_full"], "spanish_full: side_bets=True (supported: False); "
                                         "fusilar=True"),
    ("spanish_full", ["pagat"], "spanish_full: side_bets=True (supported: False); "
                                "bank_sale=True (supported: False)"),
])
def test_report_refuses_the_batch_engine_for_rules_it_does_not_play_before_the_first_hand(
        rules, presets, refused, run_dir, tmp_path, monkeypatch, capsys):
    """``--engine batch`` with a rule set of the variant table, or a run's, that the batch
    engine does not play used to stop the report at that table, after the tournaments of
    the tables before it had played (the variant table comes last)."""
    from evaluate import report, variants

    for module in (report, variants):
        monkeypatch.setattr(module, "batch_tournament", pytest.fail)
        monkeypatch.setattr(module, "run_tournament", pytest.fail)
    other = tmp_path / "run-other"
    other.mkdir()
    (other / "config.toml").write_text(CONFIG_TOML.replace('"pagat"', f'"{rules}"'),
                                       encoding="utf-8")
    (other / "run.json").write_text((run_dir / "run.json").read_text(encoding="utf-8"),
                                    encoding="utf-8")
    assert main(["report", str(run_dir), str(other), "--presets", *presets, "--engine", "batch",
                 "--no-best-response", "--hands", "10", "--variant-hands", "10",
                 "--baselines", "threshold:5", "--variant-baselines", "threshold:5",
                 "--out", str(tmp_path / "r")]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith(f"sette report: error: --engine batch: {refused}"), err
    assert err.endswith("; use --engine scalar or auto for these rules\n"), err
    assert not (tmp_path / "r").exists()


def test_evaluate_cli_writes_figures(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    out = tmp_path / "ev"
    assert main(["evaluate", "threshold:5", "careful", "--rules", "pagat", "--seats", "2",
                 "--hands", "20", "--out", str(out)]) == 0
    for name in ("ev.png", "strategy-player.png", "strategy-bank.png"):
        _image(out / name)
    assert json.loads((out / "tournament.json").read_text())["seats"] == 2


def test_evaluate_skips_the_map_of_an_information_state_model_and_writes_the_rest(tmp_path,
                                                                                  capsys):
    """A bank trained on the information state plays the tournament (``--fixed-bank``) but
    its strategy map cannot be drawn: it is left out of the maps with a note on stderr, where
    the command used to fail with exit 2 after the tournament, printing nothing."""
    pytest.importorskip("matplotlib")
    from agents.learned import ModelInfo
    from envs.actions import ActionLayout
    from envs.information_state import information_state_size
    from envs.rules import Rules
    from envs.single_seat import fixed_bank_rules
    from tests.models import tiny_model

    pagat = Rules.resolve("pagat")
    bank = tmp_path / "bank-information-state"
    bank.mkdir()
    tiny_model(bank, ModelInfo(role="bank", rules="pagat", num_seats=2,
                               observation_size=information_state_size(
                                   fixed_bank_rules(pagat), 2),
                               action_names=tuple(ActionLayout(pagat.bet_ladder).names),
                               net_arch=(4,), activation="tanh", timesteps=0,
                               rules_values=pagat.to_dict(),
                               observation_type="information_state"))
    out = tmp_path / "ev"
    assert main(["evaluate", "careful", str(bank), "--rules", "pagat", "--fixed-bank",
                 "--hands", "10", "--engine", "scalar", "--out", str(out)]) == 0
    captured = capsys.readouterr()
    assert "| `careful` | all |" in captured.out
    for role in ("player", "bank"):
        assert (f"sette evaluate: strategy map of {bank.parent.name}/{bank.name} as the {role} skipped: it "
                f"reads the hand's history (the information state)") in captured.err
        _image(out / f"strategy-{role}.png")
    assert (out / "tournament.md").read_text(encoding="utf-8").strip() == captured.out.strip()
