"""Figures a designer reads: every axis labelled, titles inside the figure, legends off the
data, learning-curve panels named in words, self-play on its role's step axis, and the
strategy map's "cannot happen" colour in its legend. Each figure is drawn as it is saved."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from agents import make_agent
from evaluate.report import _run_curves, read_run
from evaluate.strategy import strategy_map
from evaluate.tournament import TournamentConfig, parse_entrant, run_tournament
from test_plots_report import CONFIG_TOML, _write_events

pytest.importorskip("matplotlib")
from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: E402

from evaluate import plots  # noqa: E402


def _drawn(fig):
    """Lay the figure out and draw it, as savefig does; returns its renderer."""
    FigureCanvasAgg(fig)
    fig.canvas.draw()
    return fig.canvas.get_renderer()


def _check_readable(fig) -> None:
    """Labels on every axis that shows tick labels, titles inside the figure, legends off
    every panel."""
    renderer = _drawn(fig)
    frame = fig.bbox
    axes = [ax for ax in fig.axes if ax.axison]
    assert axes
    for ax in axes:
        if any(t.get_visible() and t.get_text() for t in ax.get_xticklabels()):
            assert ax.get_xlabel(), f"x axis of {ax.get_title()!r} has no label"
        if any(t.get_visible() and t.get_text() for t in ax.get_yticklabels()):
            assert ax.get_ylabel(), f"y axis of {ax.get_title()!r} has no label"
    titles = [ax.title for ax in axes] + ([fig._suptitle] if fig._suptitle else [])
    for title in titles:
        if title.get_text():
            box = title.get_window_extent(renderer)
            assert frame.x0 - 1 <= box.x0 and box.x1 <= frame.x1 + 1, \
                f"title {title.get_text()!r} is clipped: {box} outside {frame}"
            assert frame.y0 - 1 <= box.y0 and box.y1 <= frame.y1 + 1
    legends = list(fig.legends) + [ax.get_legend() for ax in axes if ax.get_legend()]
    for legend in legends:
        box = legend.get_window_extent(renderer)
        for ax in axes:
            assert not box.overlaps(ax.get_window_extent(renderer)), \
                f"the legend lies on the panel {ax.get_title()!r}"


def _legend_texts(fig) -> list[str]:
    return [t.get_text() for legend in fig.legends for t in legend.get_texts()]


def test_ev_figure_is_readable():
    config = TournamentConfig((parse_entrant("threshold:5"), parse_entrant("random")),
                              "pagat", 2, 20, 0)
    fig = plots.ev_figure(run_tournament(config))
    _check_readable(fig)
    assert fig.axes[0].get_ylabel() == "agent"
    assert all("units of min_bet" in ax.get_xlabel() for ax in fig.axes)


def test_strategy_map_explains_the_cells_that_cannot_happen():
    maps = [strategy_map(make_agent("threshold:5"), "player", "pagat", 2),
            strategy_map(make_agent("careful", rules="catalan_house"), "player",
                         "catalan_house", 2, "careful")]
    fig = plots.strategy_maps_figure(maps, columns=2)
    _check_readable(fig)
    assert "cannot happen under these rules" in _legend_texts(fig)
    assert all("points" in ax.get_ylabel() for ax in fig.axes if ax.axison)
    # A bank map has no impossible cell: no such entry then.
    bank = plots.strategy_maps_figure([strategy_map(make_agent("threshold:5"), "bank",
                                                    "pagat", 2)])
    _check_readable(bank)
    assert "cannot happen under these rules" not in _legend_texts(bank)


def test_best_response_figure_is_readable():
    from evaluate.solver.exact import BestResponseRow

    rows = [BestResponseRow("pagat_with_a_long_name", "player", "learned player",
                            "threshold:5.5", -0.17, -0.09)]
    fig = plots.best_response_figure(rows)
    _check_readable(fig)
    assert "units of min_bet" in fig.axes[0].get_ylabel()


def _stage_events(run: Path, stage: str, points: int) -> None:
    tag = "eval/ev_vs_reader" if stage.endswith("player") else "eval/ev_vs_careful"
    _write_events(run / stage / "tensorboard" / "a_1", "rollout/ep_rew_mean",
                  [-1.0 + 0.1 * k for k in range(points)])
    _write_events(run / stage / "tensorboard" / "a_2", tag,
                  [-0.3 + 0.01 * k for k in range(points)])


@pytest.fixture
def selfplay_run(tmp_path: Path) -> Path:
    """A run with a player and a bank stage and two self-play rounds, each round counting
    its steps from 1000 again, as a round that starts from the previous network does."""
    run = tmp_path / "run"
    run.mkdir()
    (run / "config.toml").write_text(CONFIG_TOML, encoding="utf-8")
    (run / "run.json").write_text(json.dumps({"seed": 0}), encoding="utf-8")
    for stage, points in (("player", 5), ("bank", 4), ("selfplay/round1-player", 3),
                          ("selfplay/round1-bank", 2), ("selfplay/round2-player", 3)):
        _stage_events(run, stage, points)
    return run


def test_selfplay_rounds_continue_their_roles_step_axis(selfplay_run):
    curves = _run_curves(read_run(selfplay_run))
    assert list(curves) == ["player stage", "bank stage", "self-play round 1, player",
                            "self-play round 1, bank", "self-play round 2, player"]
    steps = {name: scalars["rollout/ep_rew_mean"][0].tolist()
             for name, scalars in curves.items()}
    assert steps["player stage"] == [1000, 2000, 3000, 4000, 5000]
    assert steps["self-play round 1, player"] == [6000, 7000, 8000]
    assert steps["self-play round 2, player"] == [9000, 10000, 11000]
    assert steps["self-play round 1, bank"] == [5000, 6000]
    assert np.array_equal(curves["self-play round 1, player"]["eval/ev_vs_reader"][0],
                          [6000, 7000, 8000])


def test_learning_curves_are_named_in_words_with_units(selfplay_run):
    fig = plots.learning_curves_figure(_run_curves(read_run(selfplay_run)))
    _check_readable(fig)
    titles = sorted(ax.get_title() for ax in fig.axes if ax.axison)
    assert titles == ["Evaluation against careful", "Evaluation against reader",
                      "Training reward (mean of the last 100 hands)"]
    assert all("units of min_bet" in ax.get_ylabel() for ax in fig.axes if ax.axison)
    assert _legend_texts(fig) == ["player stage", "bank stage", "self-play round 1, player",
                                  "self-play round 1, bank", "self-play round 2, player"]
    assert plots.curve_panel("time/env_share") == ("time: env share", "value (as logged)")
