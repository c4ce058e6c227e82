"""Figures of an evaluation, as PNG files (matplotlib, no display needed).

* :func:`plot_ev` — EV per hand with 95 % intervals, per agent and role;
* :func:`plot_strategy_maps` — hit / stand (and house actions) by own total
  against what is visible (:mod:`evaluate.strategy`);
* :func:`read_scalars` and :func:`plot_learning_curves` — curves read from the
  TensorBoard event files that ``sette train`` writes;
* :func:`plot_best_response` — learned policies against the exact best
  response (:mod:`evaluate.solver.exact`).

Each ``plot_*`` saves the figure its ``*_figure`` twin draws. Figures are
drawn on ``matplotlib.figure.Figure`` objects (never ``pyplot``), so no
window opens and nothing global is changed. They are meant to be read by a
designer without the code beside them: every axis is labelled with its unit,
panels are named in words, legends sit outside the data (below the panels)
and titles fit the figure. matplotlib and tensorboard come with the
``train`` extra (``pip install -e '.[train]'``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:  # pragma: no cover - typing only
    from evaluate.solver.exact import BestResponseRow
    from evaluate.strategy import StrategyMap
    from evaluate.tournament import TournamentResult

ACTION_COLOURS = {"stand": "#4c72b0", "hit": "#dd8452", "double": "#55a868",
                  "split": "#8172b3", "reveal_hit": "#ccb974", "other": "#8c8c8c"}
"""Colour of each action in a strategy map (``other``: any further action)."""
_ACTION_LETTERS = {"stand": "S", "hit": "H", "double": "D", "split": "P", "reveal_hit": "R",
                   "other": "?"}
_ROLE_COLOURS = {"all": "#333333", "player": "#4c72b0", "bank": "#c44e52"}
IMPOSSIBLE_COLOUR = "white"
"""Colour of a strategy-map cell the rules make impossible (explained in its legend)."""
EV_UNIT = "EV per hand (units of min_bet)"


def _figure(width: float, height: float) -> Any:
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise ImportError("plots need matplotlib: pip install -e '.[train]' (or pip install "
                          "matplotlib)") from None
    return Figure(figsize=(width, height), dpi=110, layout="constrained")


def _save(fig: Any, path: str | Path) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    # A fixed date-free PNG: the same figure gives the same file.
    fig.savefig(path, format="png", metadata={"Software": None})
    return path


def plot_ev(result: "TournamentResult", path: str | Path) -> Path:
    """Save :func:`ev_figure` as a PNG."""
    return _save(ev_figure(result), path)


def ev_figure(result: "TournamentResult") -> Any:
    """EV per hand with 95 % intervals, one panel per role, one row per agent."""
    from matplotlib.ticker import MaxNLocator

    labels = result.labels
    roles = ("player", "bank", "all")
    fig = _figure(4.0 * len(roles), 0.9 + 0.45 * len(labels))
    axes = fig.subplots(1, len(roles), sharey=True)
    y = np.arange(len(labels))[::-1]
    for ax, role in zip(axes, roles):
        estimates = [result.ev(label, role) for label in labels]
        means = np.array([e.mean for e in estimates])
        half = np.array([e.half_width if math.isfinite(e.half_width) else 0.0
                         for e in estimates])
        ax.errorbar(means, y, xerr=half, fmt="o", color=_ROLE_COLOURS[role], capsize=4)
        ax.axvline(0.0, color="#999999", linewidth=0.8)
        ax.set_title({"all": "all hands", "player": "as player", "bank": "as bank"}[role])
        ax.set_xlabel(EV_UNIT)
        ax.xaxis.set_major_locator(MaxNLocator(nbins=5))
        ax.grid(axis="x", alpha=0.3)
    axes[0].set_yticks(y, labels)
    axes[0].set_ylabel("agent")
    c = result.config
    fig.suptitle(f"{c.rules_name}, {c.num_seats} seats, {c.tables * c.table_hands} hands "
                 f"per arrangement, 95% intervals")
    return fig


def _category(action: str) -> str:
    if not action:
        return ""
    return action if action in ACTION_COLOURS else "other"


def plot_strategy_maps(maps: Sequence["StrategyMap"], path: str | Path,
                       columns: int = 2) -> Path:
    """Save :func:`strategy_maps_figure` as a PNG."""
    return _save(strategy_maps_figure(maps, columns), path)


def strategy_maps_figure(maps: Sequence["StrategyMap"], columns: int = 2) -> Any:
    """Every map as a grid of coloured cells (letters: S stand, H hit, D double, P split…);
    white cells cannot happen under the rules, and the legend says so."""
    from matplotlib.colors import ListedColormap
    from matplotlib.patches import Patch

    if not maps:
        raise ValueError("plot_strategy_maps needs at least one strategy map")
    names = list(ACTION_COLOURS)
    cmap = ListedColormap([ACTION_COLOURS[n] for n in names]).with_extremes(
        bad=IMPOSSIBLE_COLOUR)
    columns = min(columns, len(maps))
    rows = math.ceil(len(maps) / columns)
    fig = _figure(5.2 * columns, 4.6 * rows + 0.5)
    axes = np.atleast_1d(fig.subplots(rows, columns, squeeze=False)).ravel()
    used: set[str] = set()
    for ax, m in zip(axes, maps):
        cats = np.vectorize(_category, otypes=[object])(m.actions)
        codes = np.ma.masked_array(
            [[names.index(c) if c else 0 for c in row] for row in cats],
            mask=[[not c for c in row] for row in cats])
        ax.pcolormesh(np.arange(codes.shape[1] + 1) - 0.5, np.arange(codes.shape[0] + 1) - 0.5,
                      codes, cmap=cmap, vmin=-0.5, vmax=len(names) - 0.5)
        for name in names:  # one letter marker per action: far cheaper than a text per cell
            rows_, cols_ = np.nonzero(cats == name)
            if rows_.size:
                used.add(name)
                ax.scatter(cols_, rows_, marker=f"$\\mathrm{{{_ACTION_LETTERS[name]}}}$", s=28,
                           color="white", linewidths=0)
        ax.set_xticks(range(len(m.column_labels)), m.column_labels, fontsize=7)
        ax.set_yticks(range(len(m.row_labels)), m.row_labels, fontsize=7)
        if m.role == "player":
            ax.set_xlabel("own face-up total, points (what the bank sees; — none)")
            ax.set_ylabel("own total (points)")
        else:
            ax.set_xlabel("player's face-up total, points (— only a face-down card)")
            ax.set_ylabel("bank's total (points)")
        ax.set_title(f"{m.label} as {m.role}\n{m.rules}, {m.num_seats} seats", fontsize=9)
    for ax in axes[len(maps):]:
        ax.set_axis_off()
    handles = [Patch(color=ACTION_COLOURS[n], label=f"{_ACTION_LETTERS[n]} {n}")
               for n in names if n in used]
    if any((m.actions == "").any() for m in maps):
        handles.append(Patch(facecolor=IMPOSSIBLE_COLOUR, edgecolor="#555555",
                             label="cannot happen under these rules"))
    fig.legend(handles=handles, loc="outside lower center", ncols=len(handles), fontsize=8)
    return fig


# --------------------------------------------------------------------- learning curves
Curve = tuple[np.ndarray, np.ndarray]
"""Steps and values of one scalar."""


def read_scalars(directory: str | Path) -> dict[str, Curve]:
    """Every scalar in the TensorBoard event files under ``directory`` (searched recursively).

    Event files of one tag from several folders (a resumed run) are merged
    and sorted by step; a step logged twice keeps its last value.
    """
    try:
        from tensorboard.backend.event_processing.event_accumulator import EventAccumulator
    except ImportError:
        raise ImportError("reading learning curves needs tensorboard: pip install -e "
                          "'.[train]' (or pip install tensorboard)") from None
    directory = Path(directory)
    folders = sorted({p.parent for p in directory.rglob("events.out.tfevents.*")})
    if not folders:
        raise ValueError(f"no TensorBoard event files (events.out.tfevents.*) under "
                         f"{str(directory)!r}")
    merged: dict[str, dict[int, float]] = {}
    for folder in folders:
        acc = EventAccumulator(str(folder), size_guidance={"scalars": 0})
        acc.Reload()
        for tag in acc.Tags().get("scalars", []):
            points = merged.setdefault(tag, {})
            for event in acc.Scalars(tag):
                points[int(event.step)] = float(event.value)
    return {tag: (np.array(sorted(points)), np.array([points[s] for s in sorted(points)]))
            for tag, points in sorted(merged.items())}


DEFAULT_CURVE_TAGS = ("rollout/ep_rew_mean", "eval/")
"""Tags (or tag prefixes ending in ``/``) drawn by default: training reward and evaluations."""


def curve_panel(tag: str) -> tuple[str, str]:
    """A panel's title and y-axis label, in words, for a TensorBoard tag of ``sette train``.

    An episode of the training views is one hand and its reward the chips won
    in units of ``min_bet``; SB3's ``rollout/ep_rew_mean`` averages the last
    100 episodes. ``eval/ev_vs_SPEC`` is the periodic evaluation against a
    baseline (:class:`train.ppo.StageCallback`).
    """
    if tag == "rollout/ep_rew_mean":
        return ("Training reward (mean of the last 100 hands)",
                "reward per hand (units of min_bet)")
    if tag.startswith("eval/ev_vs_"):
        return f"Evaluation against {tag[len('eval/ev_vs_'):]}", EV_UNIT
    return tag.replace("/", ": ").replace("_", " "), "value (as logged)"


def plot_learning_curves(curves: Mapping[str, Mapping[str, Curve]], path: str | Path,
                         tags: Sequence[str] = DEFAULT_CURVE_TAGS) -> Path:
    """Save :func:`learning_curves_figure` as a PNG."""
    return _save(learning_curves_figure(curves, tags), path)


def learning_curves_figure(curves: Mapping[str, Mapping[str, Curve]],
                           tags: Sequence[str] = DEFAULT_CURVE_TAGS) -> Any:
    """One panel per tag, one line per source (a stage of a run): ``curves[source][tag]``.

    ``tags`` selects tags by name, or by prefix when the entry ends in ``/``.
    One colour per source in every panel, named in one legend below the panels.
    """
    from matplotlib.ticker import FuncFormatter

    def wanted(tag: str) -> bool:
        return any(tag.startswith(t) if t.endswith("/") else tag == t for t in tags)

    panels = sorted({tag for scalars in curves.values() for tag in scalars if wanted(tag)})
    if not panels:
        found = sorted({tag for scalars in curves.values() for tag in scalars})
        raise ValueError(f"none of the tags {list(tags)} was logged; tags found: "
                         f"{', '.join(found) or 'none'}")
    columns = min(3, len(panels))
    rows = math.ceil(len(panels) / columns)
    fig = _figure(4.6 * columns, 3.2 * rows + 0.5)
    axes = np.atleast_1d(fig.subplots(rows, columns, squeeze=False)).ravel()
    steps_format = FuncFormatter(lambda v, _pos: f"{v / 1000:g}k" if v else "0")
    lines: dict[str, Any] = {}
    for ax, tag in zip(axes, panels):
        for k, (source, scalars) in enumerate(curves.items()):
            if tag in scalars:
                steps, values = scalars[tag]
                (line,) = ax.plot(steps, values, marker="." if len(steps) < 30 else None,
                                  label=source, color=f"C{k % 10}")
                lines.setdefault(source, line)
        title, unit = curve_panel(tag)
        ax.set_title(title, fontsize=9)
        ax.set_xlabel("environment steps of the role's network")
        ax.set_ylabel(unit, fontsize=8)
        ax.xaxis.set_major_formatter(steps_format)
        ax.grid(alpha=0.3)
    for ax in axes[len(panels):]:
        ax.set_axis_off()
    fig.legend(handles=[lines[s] for s in curves if s in lines], loc="outside lower center",
               ncols=min(len(lines), 4), fontsize=8)
    return fig


def plot_best_response(rows: Sequence["BestResponseRow"], path: str | Path) -> Path:
    """Save :func:`best_response_figure` as a PNG."""
    return _save(best_response_figure(rows), path)


def best_response_figure(rows: Sequence["BestResponseRow"]) -> Any:
    """Each policy's exact EV next to the exact best response to the same opponent."""
    if not rows:
        raise ValueError("plot_best_response needs at least one row")
    fig = _figure(max(4.6, 1.8 + 1.6 * len(rows)), 4.4)
    ax = fig.subplots()
    x = np.arange(len(rows))
    own = [r.own_ev for r in rows]
    best = [r.own_best for r in rows]
    ax.bar(x - 0.2, own, width=0.4, label="policy (exact EV)", color="#4c72b0")
    ax.bar(x + 0.2, best, width=0.4, label="exact best response", color="#55a868")
    ax.axhline(0.0, color="#999999", linewidth=0.8)
    ax.set_xticks(x, [f"{r.label}\nas {r.role}\nvs {r.opponent}" for r in rows], fontsize=8)
    ax.set_xlabel("policy, its role and the opponent it meets")
    ax.set_ylabel("EV per hand for the role\n(units of min_bet)")
    ax.set_title(f"Heads-up, one hand, {rows[0].rules}:\npolicy vs exact best response",
                 fontsize=10)
    ax.grid(axis="y", alpha=0.3)
    fig.legend(loc="outside lower center", ncols=2, fontsize=8)
    return fig
