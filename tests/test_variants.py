"""The rule-variant table (``sette variants``): exact and simulated bank edges per line of play,
and the rules a line of play never chose."""

from __future__ import annotations

import copy

import numpy as np
import pytest

from agents import make_agent
from envs.rules import Rules
from evaluate import variants
from evaluate.variants import (CHOSEN_RULES, DEFAULT_BASELINES, _ActionCounter, simulate,
                               variant_data, variant_markdown, variant_table)
from train.cli import main


@pytest.fixture(scope="module")
def pagat_rows():
    """``pagat`` and ``pagat_spanish`` (its face-down choice and unlimited split) by default."""
    return variant_table(["pagat", "pagat_spanish"], seats=(2,), hands=400)


def test_the_default_lines_of_play_are_the_careful_pair_and_the_threshold():
    assert DEFAULT_BASELINES == ("careful|reader", "threshold:5.5")


def test_default_play_tells_pagat_spanish_from_pagat(pagat_rows):
    """The threshold seats never split nor choose a face-down card, so they play
    ``pagat_spanish`` exactly as ``pagat``; the careful player does both, and the
    bank's edge moves."""
    pagat, spanish = pagat_rows
    careful, threshold = ("careful|reader", 2), ("threshold:5.5", 2)
    assert spanish.simulated[threshold].edge == pagat.simulated[threshold].edge
    assert spanish.simulated[careful].edge.mean != pagat.simulated[careful].edge.mean
    assert spanish.simulated[careful].uses["split"] > 0
    assert spanish.simulated[careful].uses["face-down choice"] > 0
    assert spanish.unused() == {"careful|reader": [],
                                "threshold:5.5": ["face-down choice", "split"]}
    assert pagat.chosen_rules == [] and spanish.chosen_rules == ["face-down choice", "split"]


def test_markdown_marks_the_rows_a_line_of_play_never_chose(pagat_rows):
    text = variant_markdown(pagat_rows, 400, 0)
    lines = {line.split(" | ")[0]: line for line in text.splitlines() if line.startswith("| `")}
    assert lines["| `pagat`"].endswith("| none to choose |")
    assert lines["| `pagat_spanish`"].endswith("| `threshold:5.5`: face-down choice, split |")
    # The careful pair's bank is not scripted: no exact column for it, with the reason.
    assert "`threshold:5.5` exact heads-up" in text
    assert "`careful\\|reader` exact heads-up" not in text
    assert "`careful\\|reader` has no exact column: the bank `reader` is not a scripted" in text
    assert "| `pagat` | " in text and " | +0.2234 | " in lines["| `pagat`"]


def test_exact_edges_of_the_threshold_play():
    rows = variant_table(["pagat", "catalan", "italian"], "threshold:5.5", seats=(2,),
                         hands=20)
    pagat, catalan, italian = rows
    assert pagat.exact["threshold:5.5"] == pytest.approx(0.2234346, abs=1e-6)
    # The jackpot's ante and pot are the player's, not the bank's: the bank's edge is
    # the chips it wins, not minus the player's EV (which would be +0.2918 here).
    assert catalan.exact["threshold:5.5"] == pytest.approx(0.1946374, abs=1e-6)
    assert italian.exact == {} and "wild_card" in italian.notes["threshold:5.5"]
    text = variant_markdown(rows, 20, 0)
    assert "| `catalan` | +0.1946 |" in text and "| `italian` | n/a (1) |" in text


def test_every_house_action_of_random_play_is_counted():
    """Random seats at 4 seats try every chosen rule of ``spanish_full``; each use is an
    action of the rule's kind, so the counts add up to no more than the actions taken."""
    measured = simulate("random", "spanish_full", 4, 300)
    assert set(measured.uses) == {"raise", "stake after the first card", "face-down choice",
                                  "abrirse", "change a 4", "fusilar", "side bet"}
    assert all(count > 0 for count in measured.uses.values()), measured.uses
    house = Rules.resolve("catalan_house")
    assert [r.name for r in CHOSEN_RULES if r.is_on(house)] == ["double", "split", "Mort"]


def test_seat_copies_of_a_counted_agent_share_its_counts():
    counts = np.zeros(3, dtype=np.int64)
    agent = _ActionCounter(make_agent("random", seed=0), counts)
    twin = copy.deepcopy(agent)
    mask = np.array([0, 1, 1], dtype=np.int8)
    twin.act(np.zeros(4), mask)
    agent.act(np.zeros(4), mask)
    assert counts.sum() == 2 and twin.counts is counts and twin.agent is not agent.agent


def test_variant_data_is_plain(pagat_rows):
    data = variant_data(pagat_rows)
    spanish = data[1]
    assert spanish["never_used"]["threshold:5.5"] == ["face-down choice", "split"]
    assert spanish["simulated"]["careful|reader"]["2"]["uses"]["split"] > 0
    assert "reader" in spanish["exact_notes"]["careful|reader"]


def test_variants_cli(capsys):
    assert main(["variants", "--rules", "pagat", "pagat_spanish", "--seats", "2",
                 "--hands", "40"]) == 0
    out = capsys.readouterr().out
    assert "`careful\\|reader` 2 seats" in out and "| `pagat` | " in out
    assert "`threshold:5.5`: face-down choice, split" in out
    assert main(["variants", "--rules", "pagat", "--seats", "2", "--hands", "20",
                 "--baseline", "threshold:5.5"]) == 0
    out = capsys.readouterr().out
    assert "| `pagat` | +0.2234 |" in out and "careful" not in out
    assert main(["variants", "--rules", "pagat", "--seats", "99"]) == 2
    assert "--seats 99 is out of range" in capsys.readouterr().err


def test_the_table_is_the_same_on_the_batch_and_the_scalar_engine():
    """``engine="auto"`` plays the rules and lines of play the batch engine plays on it, the
    others on the scalar engine, saying why once per reason; every number is the scalar one."""
    rules, baselines = ["catalan_house", "spanish_full"], ("careful|reader", "random")
    notes: list[str] = []
    auto = variant_table(rules, baselines, seats=(2, 4), hands=200, note=notes.append)
    scalar = variant_table(rules, baselines, seats=(2, 4), hands=200, engine="scalar",
                           note=notes.append)
    assert variant_data(auto) == variant_data(scalar)
    assert auto[0].simulated["careful|reader", 4].uses["double"] > 0
    assert notes == [
        "catalan_house: baseline has no batched policy (agents.batch_policies) — playing the "
        "scalar engine",
        "spanish_full: side_bets=True (supported: False); fusilar=True (supported: False); "
        "split_rule='abrirse' (supported: 'none', 'two_figures_once', "
        "'two_figures_unlimited'); change_four='optional' (supported: 'off', 'forced') not in "
        "the batch engine — playing the scalar engine"]


def test_variants_cli_engine_switch(capsys):
    """``--engine batch`` refuses rules the batch engine does not play, naming the switch and
    the command line's way out; ``auto`` says on stderr which engine it fell back to."""
    assert main(["variants", "--rules", "spanish_full", "--seats", "2", "--hands", "20",
                 "--baseline", "threshold:5.5", "--engine", "batch"]) == 2
    err = capsys.readouterr().err
    assert "side_bets=True" in err and "use --engine scalar or auto" in err
    assert "ScalarTables" not in err
    assert main(["variants", "--rules", "pagat", "spanish_full", "--seats", "2", "4",
                 "--hands", "20", "--baseline", "threshold:5.5"]) == 0
    captured = capsys.readouterr()
    assert captured.err.count("sette variants: spanish_full: side_bets=True") == 1
    assert "pagat" not in captured.err and "| `spanish_full` |" in captured.out


def _two_seat_player(folder) -> str:
    """A pagat player model trained (so its description says) for 2 seats."""
    from agents.learned import ModelInfo
    from envs.actions import ActionLayout
    from envs.observation import observation_size
    from tests.models import tiny_model

    pagat = Rules.resolve("pagat")
    folder.mkdir()
    tiny_model(folder, ModelInfo(role="player", rules="pagat", num_seats=2,
                                 observation_size=observation_size(2),
                                 action_names=tuple(ActionLayout(pagat.bet_ladder).names),
                                 net_arch=(4,), activation="tanh", timesteps=0,
                                 rules_values=pagat.to_dict()))
    return str(folder)


@pytest.mark.parametrize("argv, message", [
    (["--rules", "pagat", "catalan", "--seats", "2", "4", "--baselines", "threshold:5",
      "{model}"], "was trained for 2 seats, not 4; seat it at a table of 2 (--seats 2)"),
    (["--rules", "pagat", "spanish_full", "--seats", "2", "4", "--baselines", "threshold:5",
      "--engine", "batch"],
     "--engine batch: spanish_full: side_bets=True (supported: False); fusilar=True "
     "(supported: False); split_rule='abrirse' (supported: 'none', 'two_figures_once', "
     "'two_figures_unlimited'); change_four='optional' (supported: 'off', 'forced') not in "
     "the batch engine; use --engine scalar or auto for these rules\n"),
])
def test_every_cell_is_checked_before_the_first_hand(argv, message, tmp_path, monkeypatch,
                                                     capsys):
    """A model seated at a table size it never learned, or ``--engine batch`` with rules the
    batch engine does not play, used to stop the table only after the rows before it had
    played."""
    model = _two_seat_player(tmp_path / "player")
    words = [w.format(model=model) for w in argv]
    monkeypatch.setattr(variants, "batch_tournament", pytest.fail)
    monkeypatch.setattr(variants, "run_tournament", pytest.fail)
    assert main(["variants", *words, "--hands", "10"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("sette variants: error: ") and message in err


@pytest.mark.parametrize("argv, message", [
    (["pagat", "nope", "catalan"], "unknown preset 'nope'; presets are: catalan, "),
    (["pagat", "{bad}"], "rules file '{bad}': decks must be an integer, got 'two'"),
])
def test_a_bad_rule_set_is_named_by_its_option(argv, message, tmp_path, capsys):
    """``--rules pagat nope`` used to say ``unknown preset 'nope'`` without the option, as
    the other options' errors name theirs; a rules file that cannot be read, likewise."""
    bad = tmp_path / "bad.toml"
    bad.write_text('preset = "catalan"\ndecks = "two"\n', encoding="utf-8")
    with pytest.raises(SystemExit) as stop:
        main(["variants", "--rules", *[w.format(bad=bad) for w in argv], "--hands", "10"])
    assert stop.value.code == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert (f"sette variants: error: argument --rules: {message.format(bad=bad)}"
            in err), err


def test_variants_says_the_hands_it_rounded_up_and_counts_those_played(capsys):
    assert main(["variants", "--rules", "pagat", "--seats", "2", "--hands", "15",
                 "--baseline", "threshold:5.5"]) == 0
    captured = capsys.readouterr()
    assert captured.err == ("sette variants: --hands 15 rounded up to whole tables: 2 tables "
                            "of 10 hands, 20 hands\n")
    assert "simulated: 20 hands per rule set and seat count" in captured.out
