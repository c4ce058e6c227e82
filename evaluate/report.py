"""``sette report RUN_DIR…``: a folder with a Markdown report of training runs.

For the runs given (folders made by ``sette train``) the report holds:

* a **tournament** per table (rules, seats) of the runs' learned players and
  banks (each run's pair as one seat: ``PLAYER|BANK``) against the
  baselines, every agent in every seat on the same deals. A run that holds
  only one of the two (``sette train player``, or a run stopped after its
  player stage) still has its model compared: the other role of its seat is
  played by a stand-in (:data:`STAND_INS`), and the label says so
  (``learned player|reader``)
  (:mod:`evaluate.tournament`), with EV per hand and role, rates and paired
  differences; several runs of one table are training seeds of one method
  and are also summarised by IQM and probability of improvement;
* **figures**: EV with intervals, strategy maps of the learned and baseline
  policies (:mod:`evaluate.strategy`), learning curves read from the runs'
  TensorBoard files;
* heads-up, where the solver models the rules and the policies, the **exact
  best-response gaps** in the game with perfect recall (RULES.md §8.10, one
  hand from a full shoe): for each learned policy of a role (the bank trained
  on the information state beside the one trained on the observation) and
  for the baselines of that role (the best threshold against the same
  opponent, ``careful`` or ``reader``), its exact EV against the chosen
  opponent and how much the exact best response in its seat gains over it;
* the **rule-variant table** of the bank's edge per preset under baseline
  play and under the runs' learned play (:mod:`evaluate.variants`);
* the exact rules, every setting and seed, package versions and the command
  that writes the same report again.

Everything that cannot be made (no matplotlib, no TensorBoard files, rules
the solver does not model…) is skipped with a sentence saying why. The
report is deterministic for the same runs and options: no dates, no timings.
"""

from __future__ import annotations

import filecmp
import json
import platform
import re
import shlex
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

from agents.registry import make_agent, resolve_spec
from agents.rllib_policy import TRAINER as RLLIB_BACKEND
from agents.rllib_policy import is_export
from agents.seating import role_policy
from envs.information_state import INFORMATION_STATE
from envs.rules import PRESETS, Rules
from evaluate import plots, strategy
from evaluate.solver.exact import (BestResponseRow, ExactUnavailable, best_response_rows,
                                   best_threshold)
from evaluate.tournament import (ROLES, Entrant, TournamentConfig, TournamentResult,
                                 build_agents, md_code, rounded_hands_note, run_tournament,
                                 workers_note)
from evaluate.variants import DEFAULT_BASELINES as DEFAULT_VARIANT_BASELINES
from evaluate.batch_eval import batch_tournament, say_once
from evaluate.variants import (LearnedPlay, check_batch_tables, plan_variants, play_variants,
                               variant_data, variant_markdown)

RUN_FILE, CONFIG_FILE, MODEL_FILE = "run.json", "config.toml", "model.zip"
MODEL_STAGES = {"learned": ("player", "bank"),
                "information-state": ("player-information-state", "bank-information-state"),
                "self-play": ("selfplay/player", "selfplay/bank")}
"""Learned seats a run may hold: name -> (player stage, bank stage) folders."""
OFF_TOURNAMENT = ("information-state",)
"""Learned seats left out of the tournament: trained on the information state of the
single-seat views, whose bank stays on one seat, they read one that the tournament's
table, whose bank rotates, does not give (a longer history); they meet their opponents in
the exact best-response comparison instead (and in ``sette train``'s closing table)."""
STAND_INS = {"player": "careful", "bank": "reader"}
"""Who plays the role a run has no model for, beside the model it has."""
RLLIB_CURVE_TAGS = ("rollout/return_mean", "train/policy_loss", "train/entropy")
"""What an RLlib run logs per policy and iteration that its curves show (train.rllib_train)."""
DEFAULT_BASELINES = ("threshold:5.5", "careful")
BR_THRESHOLDS = (3.5, 4.0, 4.5, 5.0, 5.5, 6.0, 6.5, 7.0)
"""Thresholds among which the best one against the opponent is a baseline of the exact
best-response gaps (those of ``sette train``'s closing table)."""
PACKAGES = ("sette-e-mezzo", "numpy", "gymnasium", "pettingzoo", "matplotlib", "tensorboard",
            "torch", "stable-baselines3", "sb3-contrib", "scipy")


@dataclass
class RunInfo:
    """What the report needs from one training run folder."""

    path: Path
    config: dict[str, Any]
    record: dict[str, Any]
    models: dict[str, str] = field(default_factory=dict)
    """Learned seat name -> ``PLAYER|BANK`` spec: its models, a stand-in for a missing one."""
    learned: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Learned seat name -> the roles it has a model for (``("player", "bank")`` or one)."""

    def label(self, name: str) -> str:
        """The table label of a learned seat: ``learned``, or ``learned player|reader``
        when a stand-in plays the role it has no model for."""
        roles = self.learned[name]
        if len(roles) == 2:
            return name
        if roles == ("player",):
            return f"{name} player|{STAND_INS['bank']}"
        return f"{STAND_INS['player']}|{name} bank"

    @property
    def name(self) -> str:
        return self.path.name

    def _table(self, key: str, default: Any) -> Any:
        return self.config.get("table", {}).get(key, default)

    @property
    def rules(self) -> str:
        return str(self._table("rules", "catalan"))

    @property
    def num_seats(self) -> int:
        return int(self._table("num_seats", 2))

    @property
    def table_hands(self) -> int:
        return int(self._table("table_hands", 10))

    def setting(self, section: str, key: str, default: Any) -> Any:
        """A value of the run's ``config.toml``."""
        return self.config.get(section, {}).get(key, default)


def read_run(path: str | Path) -> RunInfo:
    """Read a run folder; anything that is not one is refused with what it lacks."""
    path = Path(path)
    if path.is_file():
        raise ValueError(f"{str(path)!r} is a file, not a run directory (a run directory is "
                         f"made by sette train)")
    if not path.is_dir():
        raise ValueError(f"run directory {str(path)!r} does not exist")
    if (path / RUN_FILE).is_file() and not (path / CONFIG_FILE).is_file():
        record = _read_json(path / RUN_FILE)
        if record.get("backend") == RLLIB_BACKEND:
            return _read_rllib_run(path, record)
    missing = [name for name in (RUN_FILE, CONFIG_FILE) if not (path / name).is_file()]
    if missing:
        raise ValueError(f"{str(path)!r} is not a sette training run: it has no "
                         f"{' and no '.join(missing)} (a run directory is made by sette train)")
    try:
        config = tomllib.loads((path / CONFIG_FILE).read_text(encoding="utf-8"))
        record = json.loads((path / RUN_FILE).read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, json.JSONDecodeError) as exc:
        raise ValueError(f"{str(path)!r}: cannot read its {CONFIG_FILE} or {RUN_FILE}: "
                         f"{exc}") from None
    info = RunInfo(path, config, record)
    found: list[list[Path | None]] = []
    for name, stages in MODEL_STAGES.items():
        files = [path / stage / MODEL_FILE for stage in stages]
        present: list[Path | None] = [f if f.is_file() else None for f in files]
        if not any(present):
            continue
        # Self-play of 0 rounds copies the stage models: the same seat twice, shown once.
        if any(_same_models(present, other) for other in found):
            continue
        found.append(present)
        info.learned[name] = tuple(role for role, f in zip(ROLES, present) if f)
        info.models[name] = "|".join(f"model:{f}" if f else STAND_INS[role]
                                     for role, f in zip(ROLES, present))
    return info


def _read_json(file: Path) -> dict[str, Any]:
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise ValueError(f"{str(file)!r} is not valid JSON: {exc}") from None
    if not isinstance(data, dict):
        raise ValueError(f"{str(file)!r} is not a run record (a JSON object)")
    return data


def _read_rllib_run(path: Path, record: dict[str, Any]) -> RunInfo:
    """A run of ``sette train --backend rllib``: its settings are in ``run.json`` (no
    ``config.toml``), its policies exported in ``player/`` and ``bank/``
    (:mod:`agents.rllib_policy`), loaded as ``rllib:`` specs. Trained on the whole table,
    whose bank rotates, its policies are seated in the tournament whatever they read."""
    settings = record.get("settings", {})
    table = {key: settings[key] for key in ("rules", "num_seats", "table_hands")
             if key in settings}
    info = RunInfo(path, {"table": table, RLLIB_BACKEND: settings}, record)
    present = [is_export(path / role) for role in ROLES]
    if any(present):
        info.learned["learned"] = tuple(role for role, ok in zip(ROLES, present) if ok)
        info.models["learned"] = "|".join(f"rllib:{path / role}" if ok else STAND_INS[role]
                                          for role, ok in zip(ROLES, present))
    return info


def _same_models(a: Sequence[Path | None], b: Sequence[Path | None]) -> bool:
    """Whether two stages' model files (``None``: absent) are the same, role by role."""
    return all(x is None and y is None or x is not None and y is not None
               and filecmp.cmp(x, y, shallow=False) for x, y in zip(a, b))


def package_versions(packages: Sequence[str] = PACKAGES) -> dict[str, str]:
    """Python and the versions of ``packages`` (those an evaluation depends on)."""
    versions = {"python": platform.python_version()}
    for name in packages:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = "not installed"
    return versions


@dataclass
class ReportOptions:
    """Every option of a report (the reproducing command is made from these)."""

    hands: int = 2000
    seed: int = 0
    baselines: tuple[str, ...] = DEFAULT_BASELINES
    variants: bool = True
    variant_hands: int = 4000
    presets: tuple[str, ...] = tuple(PRESETS)
    variant_baselines: tuple[str, ...] = DEFAULT_VARIANT_BASELINES
    workers: int = 1
    best_response: tuple[str, ...] = ("player",)
    """Roles whose learned policies and baselines are held to the exact best response
    (heads-up runs, the perfect-recall game). The solver asks a bank agent for its action
    at every bank decision it meets (``reader``, the bank baseline, one engine replay per
    view; a bank on the information state behind every history of the player's play, out
    of reach beyond :data:`evaluate.solver.exact.BANK_VIEW_BUDGET` views): the bank is left
    out unless asked for."""
    br_bank: str = "threshold:5.5"
    """The bank the learned player and its best response meet (a scripted spec is
    solved directly; an agent such as ``reader`` is queried state by state: slower)."""
    br_player: str = "threshold:5.5"
    """The player the learned bank and its best response meet (the training opponent,
    ``careful``, makes the best response of the bank remember every history of its play:
    minutes)."""
    engine: str = "auto"
    """The engine of the tournaments and the variant table (``auto``, ``batch``, ``scalar``:
    :func:`evaluate.batch_eval.batch_tournament`, the same numbers on either)."""

    def command(self, runs: Sequence[str | Path], out: str | Path) -> str:
        """The ``sette report`` command line that writes this report again."""
        argv = ["sette", "report", *map(str, runs), "--out", str(out),
                "--hands", str(self.hands), "--seed", str(self.seed),
                "--baselines", *self.baselines]
        if self.best_response:
            argv += ["--best-response", *self.best_response, "--br-bank", self.br_bank,
                     "--br-player", self.br_player]
        else:
            argv.append("--no-best-response")
        if self.variants:
            argv += ["--variant-hands", str(self.variant_hands),
                     "--variant-baselines", *self.variant_baselines,
                     "--presets", *self.presets]
        else:
            argv.append("--no-variants")
        if self.engine != "auto":
            argv += ["--engine", self.engine]
        return shlex.join(argv)


class _Writer:
    """Collects the Markdown sections and the JSON data of the report."""

    def __init__(self, out: Path, log: Callable[[str], None]) -> None:
        self.out = out
        self.lines: list[str] = []
        self.data: dict[str, Any] = {}
        self.log = log

    def add(self, *lines: str) -> None:
        self.lines.extend(lines)

    def figure(self, name: str, title: str, draw: Callable[[Path], Any]) -> None:
        """Draw a PNG with ``draw(path)`` and embed it, or say why it was skipped."""
        try:
            draw(self.out / name)
        except (ImportError, ValueError, ExactUnavailable) as exc:
            self.add(f"*{title}: skipped — {exc}*", "")
            self.log(f"report: {title} skipped: {exc}")
            return
        self.add(f"![{title}]({name})", "")


def _setups(runs: Sequence[RunInfo]) -> dict[tuple[str, int, int], list[RunInfo]]:
    out: dict[tuple[str, int, int], list[RunInfo]] = {}
    for run in runs:
        out.setdefault((run.rules, run.num_seats, run.table_hands), []).append(run)
    return out


def _entrants(runs: Sequence[RunInfo], baselines: Sequence[str]) -> list[Entrant]:
    """Baselines, then each learned seat: a group of seeds when several runs have it."""
    entrants = [Entrant(spec, resolve_spec(spec)) for spec in baselines]
    for name in MODEL_STAGES:
        if name in OFF_TOURNAMENT:
            continue
        having: dict[str, list[RunInfo]] = {}
        for run in runs:
            if name in run.models:
                having.setdefault(run.label(name), []).append(run)
        for label, group in having.items():
            if len(group) == 1:
                entrants.append(Entrant(label, group[0].models[name]))
            else:
                entrants += [Entrant(f"{label}[{i}]", run.models[name], label)
                             for i, run in enumerate(group)]
    return entrants


def _best_response_rows(run: RunInfo, rules: str, options: ReportOptions, writer: _Writer
                        ) -> list[BestResponseRow]:
    """Every learned policy of ``run`` in each role of ``options.best_response``, and that
    role's baselines, against the chosen opponent, next to the exact best response."""
    rows: list[BestResponseRow] = []
    resolved = Rules.resolve(rules)
    opponents = {"player": options.br_bank, "bank": options.br_player}
    for role in options.best_response:
        learned = [(f"{name} {role}", make_agent(spec, rules=resolved))
                   for name, seat in run.models.items() if role in run.learned[name]
                   for spec in [dict(zip(ROLES, seat.split("|")))[role]]]
        if not learned:
            writer.add(f"*Learned {role} vs exact best response: skipped — {run.name} has "
                       f"no learned {role}.*", "")
            continue
        opponent = opponents[role]
        try:
            # the opponent goes as its spec: the solver plays scripted specs directly
            threshold = best_threshold(rules, role, opponent, BR_THRESHOLDS)
            candidates = [(f"{threshold} (best threshold)", threshold),
                          (STAND_INS[role], STAND_INS[role]), *learned]
            found = best_response_rows(rules, role, candidates, opponent, opponent)
        except ExactUnavailable as exc:
            writer.add(f"*Learned {role} vs exact best response: skipped — {exc}*", "")
            writer.log(f"report: best response of the {role} skipped: {exc}")
            continue
        for (label, _policy), row in zip(candidates, found):
            if isinstance(row, ExactUnavailable):
                writer.add(f"*{label.capitalize()} vs exact best response: skipped — "
                           f"{row}*", "")
                writer.log(f"report: {label} vs the best response skipped: {row}")
            else:
                rows.append(row)
    return rows


def write_report(run_dirs: Sequence[str | Path], out: str | Path,
                 options: ReportOptions = ReportOptions(),
                 progress: Callable[[str, int], Callable[[int], None] | None] | None = None,
                 log: Callable[[str], None] = print) -> Path:
    """Write ``report.md``, ``report.json`` and the figures into ``out``; returns the report.

    ``progress(label, tables)`` may return a progress callback for each tournament;
    ``log`` hears each reason for playing the scalar engine once (``options.engine``).
    """
    note = say_once(log)
    if not run_dirs:
        raise ValueError("sette report needs at least one run directory (made by sette train)")
    _refuse_repeated_runs(run_dirs)
    runs = [read_run(p) for p in run_dirs]
    setups = _setups(runs)
    _check_opponents(setups, options)
    check_batch_tables(options.engine, [(rules, Rules.resolve(rules), seats)
                                        for rules, seats, _ in setups])
    learned_play = [play for group in setups.values()
                    for play in [_variant_play(group[0])] if play is not None]
    plan = None
    if options.variants:  # every rule set and line of play checked before the first hand
        plan = plan_variants(options.presets, options.variant_baselines, (2, 4),
                             options.variant_hands, options.seed, learned=learned_play,
                             engine=options.engine)
        rounded = rounded_hands_note("--variant-hands", options.variant_hands,
                                     plan.table_hands)
        if rounded is not None:
            log(f"report: {rounded}")
    for _rules, _seats, table_hands in setups:
        rounded = rounded_hands_note("--hands", options.hands, table_hands)
        if rounded is not None:
            note(f"report: {rounded} (the runs' tables)")
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    w = _Writer(out, log)
    command = options.command(run_dirs, out)
    w.add("# Evaluation report", "",
          f"Runs: {', '.join(md_code(str(r.path)) for r in runs)}. Reproduce with:", "",
          "```", command, "```", "")
    w.data.update({"command": command, "runs": [str(r.path) for r in runs],
                   "options": {k: list(v) if isinstance(v, tuple) else v
                               for k, v in vars(options).items()},
                   "tables": []})
    for k, ((rules, seats, table_hands), group) in enumerate(setups.items()):
        suffix = f"-{k + 1}" if len(setups) > 1 else ""
        w.add(f"## {md_code(rules)}, {seats} seats", "")
        entrants = _entrants(group, options.baselines)
        if not any(run.models for run in group):
            w.add("*No learned models found in these runs (a run holds player/model.zip "
                  "once its player stage is done, bank/model.zip once its bank stage is); "
                  "only the baselines are compared.*", "")
        for run in group:
            for name, roles in run.learned.items():
                if name in OFF_TOURNAMENT:
                    w.add(f"*{run.name} has a {' and a '.join(roles)} trained on the "
                          f"information state ({name}): held to the exact best response "
                          f"below, not seated in the tournament, whose bank rotates (it "
                          f"read the information state of a table whose bank stays).*", "")
                elif len(roles) == 1:
                    other = "bank" if roles == ("player",) else "player"
                    w.add(f"*{run.name} has a learned {roles[0]} ({name}) but no learned "
                          f"{other}: its seat plays the {other} as {md_code(STAND_INS[other])}"
                          f".*", "")
        w.add("| agent | spec |", "|---|---|")
        w.add(*(f"| {md_code(e.label)} | {md_code(e.spec)} |" for e in entrants))
        w.add("")
        config = TournamentConfig(tuple(entrants), rules, seats, options.hands, options.seed,
                                  table_hands)
        agents = build_agents(config)  # loaded once for the tournament and the maps
        bar = progress(f"{rules}, {seats} seats", config.tables) if progress else None
        result = batch_tournament(config, options.engine, bar, agents=agents, note=note)
        if result is None:
            result = run_tournament(config, workers=options.workers, progress=bar,
                                    agents=agents if options.workers == 1 else None)
        elif options.workers > 1:
            note(f"report: {workers_note(options.workers)}")
        w.add("### Tournament", "", result.markdown(), "")
        w.figure(f"ev{suffix}.png", "EV per hand with 95% intervals",
                 lambda p: plots.plot_ev(result, p))
        table_data: dict[str, Any] = {"rules": rules, "seats": seats,
                                      "rules_values": Rules.resolve(rules).to_dict(),
                                      "tournament": result.summary()}
        w.add("### Strategy maps", "",
              "Action by own total against what is visible, probed on fresh tables "
              "(`evaluate/strategy.py`); empty cells cannot occur under these rules.", "")
        _strategy_section(w, result, agents, rules, seats, suffix)
        w.add("### Learning curves", "")
        for run in group:
            tags = (RLLIB_CURVE_TAGS if run.record.get("backend") == RLLIB_BACKEND
                    else plots.DEFAULT_CURVE_TAGS)
            w.figure(f"curves-{run.name}.png", f"Learning curves of {run.name}",
                     lambda p: plots.plot_learning_curves(_run_curves(run), p, tags))
        if seats == 2 and options.best_response:
            w.add("### Learned policies vs the exact best response", "",
                  "Exact numbers of one hand from a full shoe in the game with perfect recall "
                  "(RULES.md §8.10: a best response remembers the order and timing of the "
                  "other seat's play; `evaluate/solver/`): each policy's EV against the "
                  "opponent, the EV of the exact best response in its seat against the same "
                  "opponent, and the gap between them — what a perfect player of that seat "
                  "would gain over it. EV for the policy's side, units of min_bet; roles: "
                  f"{', '.join(options.best_response)}; players against "
                  f"{md_code(options.br_bank)}, banks against {md_code(options.br_player)}.",
                  "")
            rows = _best_response_rows(group[0], rules, options, w)
            table_data["best_response"] = [vars(r) for r in rows]
            if rows:
                w.add("| role | policy | opponent | policy EV | best response EV | gap |",
                      "|---|---|---|---:|---:|---:|")
                w.add(*(f"| {r.role} | {r.label} | {md_code(r.opponent)} | {r.own_ev:+.4f} | "
                        f"{r.own_best:+.4f} | {r.gap:.4f} |" for r in rows))
                w.add("")
                w.figure(f"best-response{suffix}.png", "Learned vs exact best response",
                         lambda p: plots.plot_best_response(rows, p))
        if _rllib_information_state(group[0]):
            w.add(f"*{group[0].name}: its RLlib policies read the information state of the "
                  f"table whose bank rotates; the rule-variant table keeps the bank on one "
                  f"seat, so they are left out of it.*", "")
        w.data["tables"].append(table_data)
    if plan is not None:
        w.add("## Rule variants: the bank's edge", "")
        variant_rows = play_variants(plan, progress=progress, note=note)
        w.add(variant_markdown(variant_rows, plan.hands, options.seed), "")
        w.data["variants"] = variant_data(variant_rows)
    _settings_section(w, runs)
    (out / "report.json").write_text(json.dumps(w.data, indent=1, sort_keys=True) + "\n",
                                     encoding="utf-8")
    report = out / "report.md"
    report.write_text("\n".join(w.lines).rstrip() + "\n", encoding="utf-8")
    return report


def _refuse_repeated_runs(run_dirs: Sequence[str | Path]) -> None:
    """Refuse a run folder given twice (``RUN`` and ``RUN/``, or through another path to
    it): its models would be counted as two training seeds of one method."""
    seen: dict[Path, str | Path] = {}
    for given in run_dirs:
        where = Path(given).resolve()
        if where in seen:
            also = "" if str(seen[where]) == str(given) else f" (also as {str(seen[where])!r})"
            raise ValueError(f"run directory {str(given)!r} is given twice{also}: give each "
                             f"run once")
        seen[where] = given


def _check_opponents(setups: dict[tuple[str, int, int], list[RunInfo]],
                     options: ReportOptions) -> None:
    """Build ``--br-bank`` and ``--br-player`` on the rules of every heads-up table whose
    best response is asked for: a spec that names no agent, or one out of its range, is a
    usage error before the first hand, not a comparison skipped at the end. (A rule set
    the solver does not model still skips the comparison, saying why.)"""
    opponents = {"player": ("--br-bank", options.br_bank, "bank"),
                 "bank": ("--br-player", options.br_player, "player")}
    for rules, seats, _table_hands in setups:
        if seats != 2:
            continue
        resolved = Rules.resolve(rules)
        for role in options.best_response:
            option, spec, plays = opponents[role]
            try:
                agent = make_agent(spec, rules=resolved)
                check_role = getattr(role_policy(agent, plays), "check_role", None)
                if check_role is not None:
                    check_role(plays)
            except ValueError as exc:
                raise ValueError(f"{option} {spec}: {exc}") from None


def _rllib_information_state(run: RunInfo) -> bool:
    """Whether ``run``'s RLlib policies read the information state of a table whose bank
    rotates (left out of the rule-variant table, whose bank stays on one seat)."""
    return bool(run.setting(RLLIB_BACKEND, "observation_type", "") == INFORMATION_STATE)


def _variant_play(run: RunInfo) -> LearnedPlay | None:
    """The learned play of a table's first run in the rule-variant table, if it has one."""
    if _rllib_information_state(run) or "learned" not in run.models:
        return None
    return LearnedPlay(f"{run.label('learned')} {run.name}", run.models["learned"], run.rules,
                       run.num_seats)


def _strategy_section(w: _Writer, result: TournamentResult, agents: Sequence[Any], rules: str,
                      seats: int, suffix: str) -> None:
    """Player and bank maps of the baselines and of the first member of each group."""
    shown = [(e.label, agent) for e, agent in zip(result.config.entrants, agents)
             if e.group is None or e.label.endswith("[0]")]
    for role in ("player", "bank"):
        policies = [(label, role_policy(agent, role)) for label, agent in shown]
        histories = [label for label, policy in policies if getattr(
            policy, "observation_type", "observation") == INFORMATION_STATE]
        if histories:  # an RLlib policy on the information state (an SB3 one is not seated)
            w.add(f"*Strategy maps, {role}: {', '.join(md_code(h) for h in histories)} left "
                  f"out — it reads the hand's history (the information state), which the "
                  f"maps' one-position probes do not give.*", "")
        maps = [strategy.strategy_map(policy, role, rules, seats, label)
                for label, policy in policies if label not in histories]
        w.figure(f"strategy-{role}{suffix}.png", f"Strategy maps, {role}",
                 lambda p: plots.plot_strategy_maps(maps, p, columns=3))


def _run_curves(run: RunInfo) -> dict[str, Any]:
    """Scalars of every stage of a run (``STAGE/tensorboard/…`` files), keyed by the stage in
    words, in training order, each self-play round on its role's step axis.

    A self-play round goes on from the network of the stage before it (the
    player stage, then round 1's player…) but counts its steps from 0; its
    curves are moved to start where that network's previous stage ended, so a
    role's stages read as one run of training.
    """
    folders: dict[Path, Path] = {}
    for file in sorted(run.path.rglob("events.out.tfevents.*")):
        inside = [p for p in file.parents if run.path in p.parents]
        board = next((p for p in inside if p.name == "tensorboard"), file.parent)
        folders[board] = board.parent if board.name == "tensorboard" else board
    if not folders:
        raise ValueError(f"no TensorBoard event files in {str(run.path)!r}")
    stages = sorted(((str(stage.relative_to(run.path)), board)
                     for board, stage in folders.items()), key=lambda sb: _stage_order(sb[0]))
    ended: dict[str, float] = {}
    out: dict[str, Any] = {}
    for stage, board in stages:
        scalars = plots.read_scalars(board)
        role = _stage_role(stage)
        first = min((steps[0] for steps, _ in scalars.values() if len(steps)), default=0)
        shift = ended.get(role, 0.0) if role and first <= ended.get(role, -1.0) else 0.0
        if shift:
            scalars = {tag: (steps + shift, values) for tag, (steps, values) in scalars.items()}
        if role:
            ended[role] = max((steps[-1] for steps, _ in scalars.values() if len(steps)),
                              default=ended.get(role, 0.0))
        out[_stage_words(stage)] = scalars
    return out


_ROUND = re.compile(r"^selfplay/round(\d+)-(player|bank)$")


def _stage_role(stage: str) -> str | None:
    """``player`` or ``bank`` for a stage of ``sette train`` (``None`` for another folder)."""
    match = _ROUND.match(stage)
    return match.group(2) if match else stage if stage in ROLES else None


def _stage_order(stage: str) -> tuple[int, int, str]:
    """Training order: the player and bank stages, then the self-play rounds."""
    match = _ROUND.match(stage)
    if match:
        return int(match.group(1)), ROLES.index(match.group(2)), stage
    return 0, ROLES.index(stage) if stage in ROLES else len(ROLES), stage


def _stage_words(stage: str) -> str:
    match = _ROUND.match(stage)
    if match:
        return f"self-play round {match.group(1)}, {match.group(2)}"
    return f"{stage} stage" if stage in ROLES else stage


def _settings_section(w: _Writer, runs: Sequence[RunInfo]) -> None:
    """Rules, run settings and seeds, package versions."""
    w.add("## Rules, settings, seeds", "")
    for rules in dict.fromkeys(r.rules for r in runs):
        values = Rules.resolve(rules).to_dict()
        w.add(f"Rules {md_code(rules)}:", "", "| switch | value |", "|---|---|")
        w.add(*(f"| `{k}` | `{v!r}` |" for k, v in values.items()))
        w.add("")
    for run in runs:
        if run.record.get("backend") == RLLIB_BACKEND:
            w.add(f"Run {md_code(str(run.path))}: trained on Ray RLlib, seed "
                  f"{run.record.get('seed', '?')}; the settings of its `{RUN_FILE}`:", "",
                  "```json", json.dumps(run.config[RLLIB_BACKEND], indent=1, sort_keys=True),
                  "```", "")
            if run.record.get("versions"):
                w.add(f"Trained with: {_versions(run.record['versions'])}.", "")
            continue
        w.add(f"Run {md_code(str(run.path))}: command `{run.record.get('command', '?')}`, "
              f"seed {run.record.get('seed', '?')}, stage seeds "
              f"{run.record.get('stage_seeds', '?')}; its `{CONFIG_FILE}`:", "",
              "```toml", (run.path / CONFIG_FILE).read_text(encoding="utf-8").strip(), "```",
              "")
        if run.record.get("versions"):
            w.add(f"Trained with: {_versions(run.record['versions'])}.", "")
    versions = package_versions()
    w.add(f"Evaluated with: {_versions(versions)}.")
    w.data["versions"] = versions


def _versions(versions: dict[str, str]) -> str:
    return ", ".join(f"{k} {v}" for k, v in versions.items())
