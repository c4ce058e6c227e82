"""The batch evaluator counts what the scalar evaluator counts, table for table, to the chip.

On the reference batch (:class:`envs.batch.reference.ScalarTables`, the scalar
engine behind the batch protocol) the tables are the scalar evaluator's, so
the tallies must be equal exactly — whatever the agents (batched kernels,
scalar ones asked row by row, seeded random play), the seats, the first
banks and how many tables play at once.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from agents import make_agent
from agents.learned import LearnedAgent
from envs.actions import ActionLayout
from envs.batch.api import UnsupportedRules
from envs.batch.engine import BatchEngine
from envs.batch.reference import ScalarTables
from envs.single_seat import fixed_bank_rules
from evaluate import batch_eval, ev
from evaluate.batch_eval import batch_seats, batch_tournament, play_tables
from evaluate.tournament import FIELDS, Entrant, TournamentConfig, build_agents, run_tournament


def _same(a: ev.Tally, b: ev.Tally) -> None:
    assert a.chips.shape == b.chips.shape
    np.testing.assert_array_equal(a.chips, b.chips)
    np.testing.assert_array_equal(a.hands, b.hands)
    assert a.seed == b.seed


CASES = [
    ("catalan", 2, ("threshold:5.5", "threshold:4")),
    ("catalan", 4, ("careful", "reader", "threshold:6", "careful|threshold:5")),
    ("pagat_italian", 3, ("careful|reader", "threshold", "careful")),
    ("spanish_full", 2, ("random", "careful|reader")),
    ("italian", 5, ("random", "threshold", "random", "reader:4", "careful")),
]


@pytest.mark.parametrize("rules,seats,specs", CASES, ids=[f"{r}-{n}" for r, n, _ in CASES])
def test_batch_tally_is_the_scalar_tally(rules: str, seats: int, specs: tuple[str, ...]) -> None:
    policies = [make_agent(spec, rules=rules) for spec in specs]
    hands, table_hands = 95, 10  # 10 tables, the last one played in full as in ev.play
    expected = ev.play(rules, seats, policies, hands, seed=3, table_hands=table_hands)
    for at_once in (4, 10):  # blocks of tables with a remainder, and all at once
        tables = ScalarTables(rules, seats, at_once, max_hands=table_hands)
        _same(play_tables(tables, policies, hands, seed=3), expected)
    assert expected.hands[:, :, 1].sum() == 100


def test_rotating_seats_and_first_banks_are_the_scalar_ones() -> None:
    """As :func:`evaluate.ev.compare` seats a candidate: a function of the table index."""
    rules = fixed_bank_rules("catalan")
    candidate, bank, player = (make_agent(s, rules=rules) for s in ("careful", "reader",
                                                                     "random"))

    def seating(t: int) -> list:
        out = [bank, player, player]
        out[1 + t % 2] = candidate
        return out

    def first_bank(t: int) -> int:
        return t % 3

    expected = ev.play(rules, 3, seating, 60, seed=11, table_hands=6, bank=first_bank)
    tables = ScalarTables(rules, 3, 4, max_hands=6)
    _same(play_tables(tables, seating, 60, seed=11, bank=first_bank), expected)
    assert (expected.hands[np.arange(10), np.arange(10) % 3, 1] == 6).all()  # fixed banks


def test_batch_seats_names_what_the_kernels_cover() -> None:
    assert batch_seats([make_agent(s) for s in ("threshold", "careful", "reader|threshold:6")])
    assert not batch_seats([make_agent("threshold"), make_agent("random")])
    assert not batch_seats([make_agent("careful|random")])


def test_bad_calls_are_named() -> None:
    tables = ScalarTables("catalan", 2, 2, max_hands=None)
    with pytest.raises(ValueError, match="max_hands"):
        play_tables(tables, [make_agent("threshold")] * 2, 10)
    tables = ScalarTables("catalan", 2, 2, max_hands=5)
    with pytest.raises(ValueError, match="3 policies for 2 seats"):
        play_tables(tables, [make_agent("threshold")] * 3, 10)
    with pytest.raises(ValueError, match="hands=0"):
        play_tables(tables, [make_agent("threshold")] * 2, 0)


# ---------------------------------------------------------------- the compiled engine
def test_compiled_engine_tallies_are_the_scalar_ones() -> None:
    """Observations, kernels and the row-read turn order on the compiled engine: ev.play's numbers."""
    for rules, seats, specs in [("catalan", 4, ("careful", "reader", "threshold:6", "random")),
                                ("pagat_italian", 3, ("careful|reader", "threshold", "reader:4"))]:
        policies = [make_agent(spec, rules=rules) for spec in specs]
        expected = ev.play(rules, seats, policies, 200, seed=5, engine="scalar")
        _same(play_tables(BatchEngine(rules, seats, 7, max_hands=10), policies, 200, seed=5),
              expected)


@pytest.mark.parametrize("rules,seats", [("catalan", 2), ("catalan", 4), ("catalan_house", 3),
                                         ("pagat", 2)])
def test_threshold_tables_in_the_fused_loop_count_what_the_scalar_evaluator_counts(
        rules: str, seats: int) -> None:
    policies = [make_agent(f"threshold:{4 + s}", rules=rules) for s in range(seats)]
    for bank in (None, 1):
        expected = ev.play(rules, seats, policies, 300, seed=2, bank=bank, engine="scalar")
        _same(ev.play(rules, seats, policies, 300, seed=2, bank=bank, engine="batch"), expected)
    split = [make_agent("threshold:4|threshold:6", rules=rules)] * seats
    _same(ev.play(rules, seats, split, 300, seed=2, engine="batch"),
          ev.play(rules, seats, split, 300, seed=2, engine="scalar"))


def test_compare_on_the_batch_engine_is_compare_on_the_scalar_one() -> None:
    candidates = {"t5": make_agent("threshold:5"), "careful": make_agent("careful")}
    opponents = {"bank": make_agent("reader"), "players": make_agent("threshold")}
    a = ev.compare(candidates, "player", opponents, "catalan", 3, 200, engine="batch")
    b = ev.compare(candidates, "player", opponents, "catalan", 3, 200, engine="scalar")
    for name in candidates:
        for x, y in zip(a.runs[name], b.runs[name]):
            np.testing.assert_array_equal(x, y)


@pytest.mark.parametrize("fixed_bank", [False, True])
def test_batch_tournament_is_the_scalar_tournament(fixed_bank: bool) -> None:
    config = TournamentConfig((Entrant("a", "threshold:5"), Entrant("b", "threshold:6|threshold:4"),
                               Entrant("c", "threshold")), "catalan", 4, 200, 7, 10, fixed_bank)
    batch = batch_tournament(config, "batch")
    np.testing.assert_array_equal(batch.data, run_tournament(config).data)


def test_unsupported_rules_are_refused_by_name_or_played_on_the_scalar_engine() -> None:
    policies = [make_agent("threshold")] * 2
    with pytest.raises(UnsupportedRules, match="side_bets=True"):
        ev.play("spanish_full", 2, policies, 20, engine="batch")
    _same(ev.play("spanish_full", 2, policies, 20, engine="auto"),
          ev.play("spanish_full", 2, policies, 20, engine="scalar"))
    with pytest.raises(ValueError, match="engine='gpu' is not one of auto, batch, scalar"):
        ev.play("catalan", 2, policies, 20, engine="gpu")
    config = TournamentConfig((Entrant("c", "careful"), Entrant("r", "random")), "catalan", 2, 20)
    notes: list[str] = []
    assert batch_tournament(config, "auto", note=notes.append) is None
    assert notes == ["catalan: r has no batched policy (agents.batch_policies) — playing the "
                     "scalar engine"]
    np.testing.assert_array_equal(batch_tournament(config, "batch").data,
                                  run_tournament(config).data)  # random asked row by row
    config = TournamentConfig((Entrant("c", "careful"),), "spanish_full", 2, 20)
    assert batch_tournament(config, "auto", note=notes.append) is None
    assert notes[1].startswith("spanish_full: side_bets=True (supported: False);")
    assert notes[1].endswith("not in the batch engine — playing the scalar engine")
    with pytest.raises(UnsupportedRules) as refusal:
        batch_tournament(config, "batch")
    assert "--engine scalar or auto" in str(refusal.value)
    assert "ScalarTables" not in str(refusal.value)
    assert batch_tournament(config, "scalar") is None


def test_auto_batches_only_where_every_seat_has_a_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    played: list[str] = []
    real = batch_eval.play_tables

    def spy(*args: Any, **kwargs: Any) -> ev.Tally:
        played.append("batch")
        return real(*args, **kwargs)

    monkeypatch.setattr(batch_eval, "play_tables", spy)
    ev.play("catalan", 2, [make_agent("careful"), make_agent("random")], 20)
    assert played == []
    ev.play("catalan", 2, [make_agent("careful"), make_agent("reader")], 20)
    assert played == ["batch"]


def test_a_model_of_the_information_state_is_given_the_information_state() -> None:
    from envs.engine import Engine
    from envs.information_state import InformationStateObserver
    from envs.observer import Observer

    engine = Engine("catalan", 2, max_hands=10)
    engine.reset(seed=0)
    size = len(InformationStateObserver(engine, Observer(engine)).observe(0))
    rng = np.random.default_rng(4)
    layers = [(rng.normal(size=(size, 16)), rng.normal(size=16), "tanh"),
              (rng.normal(size=(16, engine.layout.size)), rng.normal(size=engine.layout.size),
               None)]
    model = LearnedAgent(layers, size, "recall", observation_type="information_state")
    policies = [model, make_agent("threshold")]
    expected = ev.play("catalan", 2, policies, 60, seed=1, engine="scalar")
    _same(play_tables(ScalarTables("catalan", 2, 4, max_hands=10), policies, 60, seed=1),
          expected)
    _same(ev.play("catalan", 2, policies, 60, seed=1, engine="batch"), expected)


TOURNAMENTS = [
    ("catalan", 2, ("careful", "reader"), False),
    ("catalan_house", 4, ("careful|reader", "threshold:5"), False),
    ("catalan_house", 2, ("careful|reader",), True),
    ("pagat_italian", 4, ("careful|reader", "reader"), True),
    ("pagat_italian", 2, ("threshold:7.5|reader",), True),  # hits a 7: pairs of sevens
    ("spanish", 2, ("careful|reader", "threshold:4"), False),
]


@pytest.mark.parametrize("rules,seats,specs,fixed_bank", TOURNAMENTS,
                         ids=[f"{r}-{n}{'-fixed' * f}" for r, n, _, f in TOURNAMENTS])
def test_batch_tournament_counts_every_field_as_the_scalar_one(
        rules: str, seats: int, specs: tuple[str, ...], fixed_bank: bool) -> None:
    """Busts, naturals, jackpot hits and chips, wins, pushes and losses read from the event rows
    equal the scalar tournament's, table by table, arrangement, seat and role."""
    config = TournamentConfig(tuple(Entrant(f"a{i}", s) for i, s in enumerate(specs)), rules,
                              seats, 300, 3, 10, fixed_bank)
    scalar = run_tournament(config)
    batch = batch_tournament(config, "auto")
    assert batch is not None
    for name, k in zip(FIELDS, range(len(FIELDS))):
        np.testing.assert_array_equal(batch.data[..., k], scalar.data[..., k], err_msg=name)
    assert batch.markdown() == scalar.markdown()
    totals = dict(zip(FIELDS, scalar.data.sum(axis=(0, 1, 2, 3))))
    assert totals["busts"] > 0 and totals["naturals"] > 0  # the counts are exercised
    if rules == "catalan_house":
        assert totals["jackpot_hits"] > 0 and totals["pushes"] > 0


def test_batch_tournament_counts_the_actions_taken() -> None:
    """Every action of every seat, as the scalar tournament's agents would count them."""
    config = TournamentConfig((Entrant("a", "careful|reader"), Entrant("b", "threshold:5")),
                              "catalan_house", 3, 100, 1, 10)
    taken = np.zeros(ActionLayout(config.resolved_rules().bet_ladder).size, dtype=np.int64)
    batch_tournament(config, "batch", actions=taken)
    expected = np.zeros_like(taken)

    class Counting:
        def __init__(self, agent: Any) -> None:
            self.agent = agent

        def act(self, observation: np.ndarray, mask: np.ndarray) -> int:
            action = self.agent.act(observation, mask)
            expected[action] += 1
            return int(action)

    run_tournament(config, agents=[Counting(a) for a in build_agents(config)])
    np.testing.assert_array_equal(taken, expected)
    assert taken.sum() > 0


# ---------------------------------------------------------------- the commands
def test_sette_evaluate_on_the_batch_engine_prints_the_scalar_numbers(capsys) -> None:
    from train.cli import main

    args = ["evaluate", "careful", "reader", "threshold:5", "--rules", "catalan_house",
            "--seats", "3", "--hands", "60", "--json", "--no-progress"]
    assert main(args + ["--engine", "scalar"]) == 0
    scalar = capsys.readouterr().out
    assert main(args + ["--engine", "batch"]) == 0
    assert capsys.readouterr().out == scalar
    assert main(["evaluate", "careful", "--rules", "spanish_full", "--engine", "batch"]) == 2
    err = capsys.readouterr().err
    assert "use --engine scalar or auto" in err and "ScalarTables" not in err


def test_sette_report_on_the_batch_engine_is_the_scalar_report(tmp_path) -> None:
    """The report's tournament and variant table: the same data on either engine, and
    the fallback of a rule set the batch engine does not play said once."""
    import json

    from evaluate.report import ReportOptions, write_report

    run = tmp_path / "run-seed0"
    run.mkdir()
    (run / "config.toml").write_text('[table]\nrules = "catalan_house"\nnum_seats = 2\n'
                                     'table_hands = 10\n', encoding="utf-8")
    (run / "run.json").write_text(json.dumps({"command": "all", "seed": 0,
                                              "stage_seeds": [1, 2]}), encoding="utf-8")
    data = {}
    for engine in ("auto", "scalar"):
        logged: list[str] = []
        options = ReportOptions(hands=60, baselines=("careful", "reader"), variant_hands=40,
                                presets=("catalan", "spanish_full"),
                                variant_baselines=("careful|reader",), best_response=(),
                                engine=engine)
        report = write_report([run], tmp_path / engine, options, log=logged.append)
        data[engine] = json.loads((report.parent / "report.json").read_text(encoding="utf-8"))
        fallbacks = [line for line in logged if "playing the scalar engine" in line]
        assert len(fallbacks) == (engine == "auto")
    assert data["auto"]["tables"] == data["scalar"]["tables"]
    assert data["auto"]["variants"] == data["scalar"]["variants"]
    assert "--engine scalar" in data["scalar"]["command"]
