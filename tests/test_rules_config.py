"""Rule switches, presets (RULES.md §7), rules files and card names (§1, §5)."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import numpy as np
import pytest

from envs import Engine, Rules, RulesError
from envs.engine import IllegalActionError
from envs import actions as A
from envs import sette_e_mezzo_v0
from envs.cards import (HALF_POINTS, RANK_CHARS, SEVEN_AND_HALF, card_name, format_cards,
                        format_half_points, high_card_key, parse_card, parse_cards)
from envs.rules import PRESETS, SWITCH_DOCS

ALL_SWITCHES = [f.name for f in dataclasses.fields(Rules)]
PRESETS_PAGE = Path(__file__).resolve().parent.parent / "docs" / "PRESETS.md"

# Every switch of every preset, written out from the RULES.md §7 table: what the row
# names is on, everything it does not name is off (or the §2 table defaults).
_TABLE = {"decks": 1, "starting_chips": 1000, "min_bet": 10, "max_bet": 100,
          "bet_ladder": [1, 2, 5, 10]}
_CATALAN = dict(
    _TABLE, wild_card="none",
    bet_timing="before_deal", bet_raise=False,            # before_deal bets
    reshuffle="when_empty",                               # reshuffle when_empty
    hidden_cards="alternate",                             # alternate face-down
    declare_seven_and_half=False, bank_must_chase_declared=False,
    natural_beats_bank_multicard="off",                   # bank 7½ beats all
    natural_pays=2, any_seven_and_half_pays=False,        # natural pays 2
    triple=False, pair_of_sevens=False,
    jackpot_ante=1,                                       # jackpot
    first_bank="high_card",                               # high-card first bank
    bank_transfer="offer", bank_sale=False,               # offer bank on 7½
    max_bank_hands=3, bank_min_cover=True,                # max 3 bank hands, min cover
    double=False, split_rule="none", change_four="off", secret_three=False, mort=False,
    fusilar=False, side_bets=False,
)
_SPANISH = dict(
    _TABLE, wild_card="none",
    bet_timing="on_turn", bet_raise=True,                 # on_turn bets with raise
    reshuffle="every_hand",                               # every_hand shuffle
    hidden_cards="player_choice",                         # player_choice face-down
    declare_seven_and_half=False, bank_must_chase_declared=False,
    natural_beats_bank_multicard="off",                   # bank 7½ beats all
    natural_pays=2, any_seven_and_half_pays=True,         # any 7½ pays 2
    triple=False, pair_of_sevens=False, jackpot_ante=0,
    first_bank="random",                                  # random first bank
    bank_transfer="right", bank_sale=False,               # `right` transfer
    max_bank_hands=0, bank_min_cover=False,
    double=False, split_rule="none", change_four="off", secret_three=False, mort=False,
    fusilar=False, side_bets=False,
)
_PAGAT = dict(
    _TABLE, wild_card="none",
    bet_timing="before_deal", bet_raise=False,            # before_deal bets
    reshuffle="every_hand",                               # every_hand shuffle
    hidden_cards="first_only",                            # first_only face-down
    declare_seven_and_half=True,                          # 7½ shown at once
    bank_must_chase_declared=False,
    natural_beats_bank_multicard="off",
    natural_pays=1, any_seven_and_half_pays=False,        # all wins 1:1
    triple=False, pair_of_sevens=False, jackpot_ante=0,
    first_bank="random",                                  # random first bank
    bank_transfer="mandatory", bank_sale=False,           # `mandatory` transfer on 7½
    max_bank_hands=0, bank_min_cover=False,
    double=False, split_rule="none", change_four="off", secret_three=False, mort=False,
    fusilar=False, side_bets=False,
)
EXPECTED_PRESETS = {
    "catalan": _CATALAN,
    # `catalan` + mort, change_four (forced), secret_three, double, split (two figures, once)
    "catalan_house": dict(_CATALAN, mort=True, change_four="forced", secret_three=True,
                          double=True, split_rule="two_figures_once"),
    "spanish": _SPANISH,
    # `spanish` + declare 7½ and bank_must_chase_declared, abrirse split, change_four
    # (optional), fusilar 4x, side_bets, bank_sale with the first bank bought at auction
    "spanish_full": dict(_SPANISH, declare_seven_and_half=True, bank_must_chase_declared=True,
                         split_rule="abrirse", change_four="optional", fusilar=True,
                         side_bets=True, bank_sale=True, first_bank="auction"),
    "pagat": _PAGAT,
    # `pagat` + natural pays 2 and beats a multi-card bank 7½ (`double`), a wild figure
    # (the king of coins: design choice), pair of sevens
    "pagat_italian": dict(_PAGAT, natural_pays=2, natural_beats_bank_multicard="double",
                          wild_card="Ro", pair_of_sevens=True),
    # `pagat` + player_choice face-down, split of two figures without limit
    "pagat_spanish": dict(_PAGAT, hidden_cards="player_choice",
                          split_rule="two_figures_unlimited"),
    # on_turn bets, first_only face-down, 7½ shown at once, matta = king of coins, natural
    # pays 2 (`single` against a multi-card bank 7½), triplè, `natural_only` transfer,
    # random first bank (one deck: "more decks above 8 seats" never applies, N <= 8)
    "italian": dict(_TABLE, wild_card="Ro",
                    bet_timing="on_turn", bet_raise=False,
                    reshuffle="every_hand", hidden_cards="first_only",
                    declare_seven_and_half=True, bank_must_chase_declared=False,
                    natural_beats_bank_multicard="single",
                    natural_pays=2, any_seven_and_half_pays=False,
                    triple=True, pair_of_sevens=False, jackpot_ante=0,
                    first_bank="random", bank_transfer="natural_only", bank_sale=False,
                    max_bank_hands=0, bank_min_cover=False,
                    double=False, split_rule="none", change_four="off", secret_three=False,
                    mort=False, fusilar=False, side_bets=False),
}

# The "`base` + ..." rows of the table: exactly these switches differ from the base.
PRESET_DELTAS = {
    ("catalan", "catalan_house"): {"mort", "change_four", "secret_three", "double",
                                   "split_rule"},
    ("spanish", "spanish_full"): {"declare_seven_and_half", "bank_must_chase_declared",
                                  "split_rule", "change_four", "fusilar", "side_bets",
                                  "bank_sale", "first_bank"},
    ("pagat", "pagat_italian"): {"natural_pays", "natural_beats_bank_multicard",
                                 "wild_card", "pair_of_sevens"},
    ("pagat", "pagat_spanish"): {"hidden_cards", "split_rule"},
}

MAX_PAYOUT = {"catalan": 2, "catalan_house": 2, "spanish": 2, "spanish_full": 4, "pagat": 1,
              "pagat_italian": 3, "pagat_spanish": 1, "italian": 3}

ALL_PRESETS = ("catalan", "catalan_house", "spanish", "spanish_full", "pagat",
               "pagat_italian", "pagat_spanish", "italian")


# ---------------------------------------------------------------- presets
def test_every_preset_of_rules_md_exists():
    assert tuple(PRESETS) == ALL_PRESETS  # RULES.md §7, in the table's order
    for name in ALL_PRESETS:
        assert Rules.preset(name) is PRESETS[name]
        assert isinstance(PRESETS[name], Rules)
        assert Rules.resolve(name) is PRESETS[name]


@pytest.mark.parametrize("name", ALL_PRESETS)
def test_preset_switches_match_the_rules_md_table(name):
    expected = EXPECTED_PRESETS[name]
    assert set(expected) == set(ALL_SWITCHES)  # every switch is written out above
    actual = Rules.preset(name).to_dict()
    wrong = {k: (actual[k], v) for k, v in expected.items() if actual[k] != v}
    assert wrong == {}, f"{name}: switch (actual, RULES.md) {wrong}"
    assert Rules.preset(name) == Rules.from_mapping(dict(expected, preset="catalan"))
    assert Rules.preset(name).max_payout_multiple == MAX_PAYOUT[name]


@pytest.mark.parametrize("base, preset", sorted(PRESET_DELTAS))
def test_plus_rows_change_exactly_the_named_switches(base, preset):
    a, b = Rules.preset(base), Rules.preset(preset)
    changed = {k for k in ALL_SWITCHES if getattr(a, k) != getattr(b, k)}
    assert changed == PRESET_DELTAS[(base, preset)]


def test_wild_cards_of_the_matta_presets_are_figures():
    # RULES.md §1: ITA's matta is the king of coins; PAG's wild card is "one designated
    # figure" (the king of coins here, a design choice).
    for name in ("pagat_italian", "italian"):
        card = parse_card(Rules.preset(name).wild_card)
        assert card == parse_card("Ro") and card_name(card) == "Ro"
        assert HALF_POINTS[card] == 1  # a figure


def test_the_presets_page_lists_all_eight_presets():
    text = PRESETS_PAGE.read_text(encoding="utf-8")
    section = text[text.index("# Rules and presets"):]
    table = section[section.index("| preset |"):section.index("\n\n", section.index("| preset |"))]
    names = re.findall(r"^\| `([a-z_]+)` \|", table, flags=re.M)
    assert names == list(ALL_PRESETS)


def test_default_rules_are_catalan_switches():
    assert Rules().replace(jackpot_ante=1) == Rules.preset("catalan")
    assert Rules.resolve(None) == Rules.preset("catalan")


def test_unknown_preset_names_it_and_the_presets():
    with pytest.raises(RulesError) as info:
        Rules.preset("klondike")
    msg = str(info.value)
    assert "'klondike'" in msg
    assert ("presets are: catalan, catalan_house, spanish, spanish_full, pagat, "
            "pagat_italian, pagat_spanish, italian") in msg


def test_every_switch_has_a_documented_section():
    assert list(SWITCH_DOCS) == ALL_SWITCHES
    assert len(ALL_SWITCHES) == 30
    for name, doc in SWITCH_DOCS.items():
        assert doc.startswith("§"), name


def test_rules_are_frozen():
    r = Rules.preset("pagat")
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.decks = 2  # type: ignore[misc]
    assert r.decks == 1


# ---------------------------------------------------------------- replace
def test_replace_overrides_and_keeps_the_rest():
    base = Rules.preset("spanish")
    r = base.replace(decks=2, max_bank_hands=5, reshuffle="when_empty")
    assert (r.decks, r.max_bank_hands, r.reshuffle) == (2, 5, "when_empty")
    assert base.decks == 1 and base.reshuffle == "every_hand"  # unchanged
    changed = {k for k in ALL_SWITCHES if getattr(r, k) != getattr(base, k)}
    assert changed == {"decks", "max_bank_hands", "reshuffle"}


def test_replace_turns_a_ladder_list_into_a_tuple():
    r = Rules.preset("catalan").replace(bet_ladder=[1, 3, 4])
    assert r.bet_ladder == (1, 3, 4)
    assert r.to_dict()["bet_ladder"] == [1, 3, 4]


def test_numpy_values_and_a_list_ladder_are_kept_as_python_values():
    """A sweep over ``np.arange`` or ``np.array`` gives numpy scalars: the rules take them
    as the ints and bools they hold (not as "must be an integer, got np.int64(5)"), and a
    ladder list the same whether given to ``Rules`` or to ``replace``."""
    catalan = Rules.preset("catalan")
    swept = catalan.replace(min_bet=np.int64(5), max_bet=np.int64(500), mort=np.bool_(True),
                            bet_ladder=np.array([1, 2, 4]))
    assert swept == catalan.replace(min_bet=5, max_bet=500, mort=True, bet_ladder=(1, 2, 4))
    assert [type(v) for v in (swept.min_bet, swept.mort, *swept.bet_ladder)] == \
        [int, bool, int, int, int]
    assert Rules(bet_ladder=[1, 2]).bet_ladder == (1, 2)
    assert hash(Rules(bet_ladder=[1, 2])) == hash(Rules(bet_ladder=(1, 2)))
    with pytest.raises(RulesError, match=re.escape("min_bet must be an integer, got True")):
        catalan.replace(min_bet=np.bool_(True))
    with pytest.raises(RulesError, match=re.escape("mort must be true or false, got 1")):
        catalan.replace(mort=np.int64(1))


def test_replace_rejects_an_unknown_switch_listing_the_switches():
    with pytest.raises(RulesError) as info:
        Rules.preset("catalan").replace(jackpot=1)
    msg = str(info.value)
    assert "unknown rule switch 'jackpot'" in msg
    assert "jackpot_ante" in msg and "bank_transfer" in msg


@pytest.mark.parametrize("name", ALL_PRESETS)
def test_to_dict_round_trips_through_a_mapping(name):
    r = Rules.preset(name)
    d = r.to_dict()
    assert set(d) == set(ALL_SWITCHES)
    assert Rules.from_mapping(dict(d, preset="catalan")) == r
    assert Rules.resolve(dict(d, preset=name)) == r


# ------------------------------------------------------------- rules files
def _toml_value(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(str(v) for v in value) + "]"
    return str(value)


def test_toml_starts_from_a_preset_and_overrides(tmp_path):
    path = tmp_path / "house.toml"
    path.write_text('preset = "pagat"\n# a comment\ndecks = 2\nmax_bank_hands = 4\n'
                    'bet_ladder = [1, 2]\nnatural_pays = 2\n', encoding="utf-8")
    r = Rules.from_toml(path)
    assert r == Rules.preset("pagat").replace(decks=2, max_bank_hands=4, bet_ladder=(1, 2),
                                              natural_pays=2)
    assert r.bank_transfer == "mandatory"  # from the preset
    # resolve accepts the path as str and as Path; the engine and env accept it too
    assert Rules.resolve(str(path)) == r
    assert Rules.resolve(path) == r
    assert Engine(str(path), 3).rules == r
    assert sette_e_mezzo_v0.raw_env(rules=str(path), num_seats=2).rules == r


@pytest.mark.parametrize("text", ["jackpot_ante = 0\n", "", "# only a comment\n"])
def test_toml_without_preset_is_an_error_listing_the_presets(tmp_path, text):
    """A rules file must say which preset it changes: no silent ``catalan``."""
    path = tmp_path / "plain.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(RulesError) as info:
        Rules.from_toml(path)
    msg = str(info.value)
    assert f"rules file {str(path)!r}: no preset is named" in msg
    assert 'preset = "NAME"' in msg
    assert ", ".join(ALL_PRESETS) in msg


def test_mapping_without_preset_is_an_error_listing_the_presets():
    for data in ({"jackpot_ante": 0}, {}):
        with pytest.raises(RulesError) as info:
            Rules.resolve(data)
        assert "no preset is named" in str(info.value)
        assert ", ".join(ALL_PRESETS) in str(info.value)
    with pytest.raises(RulesError, match="no preset is named"):
        sette_e_mezzo_v0.raw_env(rules={"decks": 2}, num_seats=2)
    # Python's own defaults stay: Rules() and Rules.resolve(None) are catalan's switches
    assert Rules.resolve(None) is Rules.preset("catalan")


@pytest.mark.parametrize("name", ALL_PRESETS)
def test_toml_written_from_to_dict_loads_back(tmp_path, name):
    r = Rules.preset(name)
    path = tmp_path / f"{name}.toml"
    path.write_text(f'preset = "{name}"\n'
                    + "".join(f"{k} = {_toml_value(v)}\n" for k, v in r.to_dict().items()),
                    encoding="utf-8")
    assert Rules.from_toml(path) == r


@pytest.mark.parametrize("name", ALL_PRESETS)
def test_sette_rules_prints_a_toml_rules_file_of_the_preset(capsys, name):
    """``sette rules PRESET`` prints a valid TOML rules file: the preset first, then every
    switch with its RULES.md section; read back it is the preset; no line over 100."""
    import tomllib

    from train.cli import main

    assert main(["rules", name]) == 0
    text = capsys.readouterr().out
    assert text == Rules.preset(name).to_toml()
    data = tomllib.loads(text)
    assert list(data) == ["preset", *ALL_SWITCHES]
    assert data["preset"] == name
    assert Rules.resolve(data) == Rules.preset(name)
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= 100
    assert [line for line in lines if not line.startswith("#")][0] == f'preset = "{name}"'
    for switch in ALL_SWITCHES:
        i = next(i for i, line in enumerate(lines) if line.startswith(f"{switch} = "))
        section = SWITCH_DOCS[switch].split()[0].rstrip(":")
        # the comment ends the line, or stands on the line above when the line would be long
        assert f"  # {section};" in lines[i] or lines[i - 1].startswith(f"# {section};"), switch


def test_sette_rules_of_a_file_prints_its_changes(tmp_path, capsys):
    """A rules file printed by ``sette rules FILE`` names the preset it is closest to and
    marks the switches that differ; the printed text loads back to the same rules, also
    with a bet ladder too long for one line."""
    import tomllib

    from train.cli import main

    path = _write(tmp_path, 'preset = "spanish"\ndecks = 2\nmax_bet = 400\n'
                            f"bet_ladder = {list(range(1, 41))}\n")
    assert main(["rules", str(path)]) == 0
    text = capsys.readouterr().out
    assert max(len(line) for line in text.splitlines()) <= 100
    assert "decks = 2  # §1; 1..8; spanish has 1" in text.splitlines()
    assert ("# §2; increasing multiples of min_bet, the top one x min_bet <= max_bet; spanish "
            "has [1, 2, 5, 10]") in text
    data = tomllib.loads(text)
    assert data["preset"] == "spanish"
    assert Rules.resolve(data) == Rules.from_toml(path)
    printed = _write(tmp_path, text)
    assert Rules.from_toml(printed) == Rules.from_toml(path)


def test_to_toml_names_the_preset_asked_for():
    r = Rules.preset("pagat").replace(natural_pays=2)
    assert r.nearest_preset() == "pagat"
    import tomllib

    data = tomllib.loads(r.to_toml("catalan"))
    assert data["preset"] == "catalan"
    assert Rules.resolve(data) == r
    with pytest.raises(RulesError, match="unknown preset 'nope'"):
        r.to_toml("nope")


@pytest.mark.parametrize("text, need", [
    ('preset = "catalan"\nstarting_chips = 10\n', 11),           # 1 x 10 + ante 1
    ('preset = "pagat"\nstarting_chips = 9\n', 10),              # 1 x 10, no ante
    ('preset = "pagat"\nbet_ladder = [2, 5]\nstarting_chips = 19\n', 20),   # 2 x 10
    ('preset = "catalan"\njackpot_ante = 50\nstarting_chips = 59\n', 60),
])
def test_starting_chips_below_the_smallest_stake_is_rejected(tmp_path, text, need):
    """RULES.md §8.9: a seat sits out when it cannot afford the smallest stake on offer
    (and the ante); starting with less, nobody could ever play a hand."""
    path = _write(tmp_path, text)
    with pytest.raises(RulesError) as info:
        Rules.from_toml(path)
    msg = str(info.value)
    assert f"it must be >= {need}" in msg and "starting_chips=" in msg
    assert str(path) in msg
    fixed = Rules.from_toml(_write(tmp_path, text.replace(f"= {need - 1}", f"= {need}")))
    assert fixed.starting_chips == need
    # exactly enough: the player is dealt in (a bank covering the table is §5's own matter)
    engine = Engine(fixed.replace(bank_min_cover=False), 2, max_hands=2)
    engine.reset(seed=0)
    assert engine.hands_played == 0 and not engine.over


def test_the_rules_module_documents_every_section_8_decision():
    """RULES.md §8: each decision is written down in envs.rules under its number."""
    import envs.rules

    doc = envs.rules.__doc__
    for number in range(1, 11):
        assert f"* §8.{number} " in doc, number


def _write(tmp_path, text):
    path = tmp_path / "rules.toml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("text, bad, allowed", [
    # unknown switch
    ("preset = 'pagat'\njackpot = 1\n", "unknown rule switch 'jackpot'", "jackpot_ante"),
    # wrong types
    ("decks = 'two'\n", "decks must be an integer, got 'two'", "integer"),
    ("decks = 2.0\n", "decks must be an integer, got 2.0", "integer"),
    ("bet_raise = 1\n", "bet_raise must be true or false, got 1", "true or false"),
    ("min_bet = true\n", "min_bet must be an integer, got True", "integer"),
    # out of range
    ("decks = 9\n", "decks=9 is out of range", "1..8"),
    ("decks = 0\n", "decks=0 is out of range", "1..8"),
    ("natural_pays = 5\n", "natural_pays=5 is out of range", "1..4"),
    ("max_bank_hands = -1\n", "max_bank_hands=-1 is out of range", ">= 0"),
    ("starting_chips = 0\n", "starting_chips=0 is out of range", ">= 1"),
    ("jackpot_ante = -2\n", "jackpot_ante=-2 is out of range", ">= 0"),
    # not one of the choices
    ("reshuffle = 'sometimes'\n", "reshuffle='sometimes' is not allowed",
     "'when_empty', 'every_hand'"),
    ("hidden_cards = 'all'\n", "hidden_cards='all' is not allowed",
     "'alternate', 'first_only', 'player_choice'"),
    ("bank_transfer = 'steal'\n", "bank_transfer='steal' is not allowed",
     "'offer', 'mandatory', 'right', 'natural_only', 'none'"),
    ("natural_beats_bank_multicard = 'triple'\n",
     "natural_beats_bank_multicard='triple' is not allowed", "'off', 'double', 'single'"),
    # bad ladders
    ("bet_ladder = [2, 1]\n", "bet_ladder must be a non-empty increasing list", "(2, 1)"),
    ("bet_ladder = []\n", "bet_ladder must be a non-empty increasing list", "()"),
    ("bet_ladder = [0, 1]\n", "bet_ladder must be a non-empty increasing list", "(0, 1)"),
    ("bet_ladder = [1, 1]\n", "bet_ladder must be a non-empty increasing list", "(1, 1)"),
    ("bet_ladder = ['1']\n", "bet_ladder must be a non-empty increasing list", "('1',)"),
    ("bet_ladder = [1, 20]\n", "bet_ladder=[1, 20]: stake 20 x min_bet=10 = 200",
     "exceeds max_bet=100"),
    ("max_bet = 5\n", "max_bet=5 is below min_bet=10", "must be >= min_bet"),
    # bad wild cards
    ("wild_card = 'Xo'\n", "wild_card='Xo'", "1, 2, 3, 4, 5, 6, 7, S, C, R"),
    ("wild_card = 'Rz'\n", "wild_card='Rz'", "o, c, e, b"),
    ("wild_card = 'king'\n", "wild_card='king'", "'none' or a card name"),
    # bad preset
    ("preset = 'klondike'\n", "unknown preset 'klondike'",
     "catalan, catalan_house, spanish, spanish_full, pagat, pagat_italian, pagat_spanish, "
     "italian"),
    ("preset = 3\n", "preset must be a string, got 3", "string"),
])
def test_toml_errors_name_the_bad_value_and_the_allowed_ones(tmp_path, text, bad, allowed):
    if not text.startswith("preset"):
        text = 'preset = "catalan"\n' + text
    path = _write(tmp_path, text)
    with pytest.raises(RulesError) as info:
        Rules.from_toml(path)
    msg = str(info.value)
    assert bad in msg
    assert allowed in msg
    assert str(path) in msg  # the file is named too


def test_missing_rules_file_is_named(tmp_path):
    path = tmp_path / "nope.toml"
    with pytest.raises(RulesError, match=re.escape(f"rules file {str(path)!r} does not exist")):
        Rules.from_toml(path)
    with pytest.raises(RulesError, match="does not exist"):
        Rules.resolve(str(path))


def test_a_rules_file_that_cannot_be_read_is_named(tmp_path):
    """A folder, or a file that is not UTF-8 text, is one ``RulesError`` naming the path (it
    was an ``IsADirectoryError`` traceback, or a codec error naming no file)."""
    for name in ("house.toml", "house"):  # a folder is no preset, whatever its name
        folder = tmp_path / name
        folder.mkdir()
        with pytest.raises(RulesError, match=re.escape(f"rules file {str(folder)!r} is a "
                                                       f"folder")):
            Rules.resolve(str(folder))
    latin = tmp_path / "latin.toml"
    latin.write_bytes(b'preset = "catalan"  # \xe9\n')
    with pytest.raises(RulesError, match=re.escape(f"rules file {str(latin)!r} is not UTF-8")):
        Rules.resolve(latin)


def test_a_rules_file_is_read_whatever_its_name_ends_in(tmp_path):
    """``sette rules catalan > house.txt`` writes a rules file: it reads back as one (it was
    looked up as a preset named 'house.txt'), as does ``HOUSE.TOML``; a preset's name still
    means the preset, and a name that is neither is refused listing the presets."""
    for name in ("house.txt", "HOUSE.TOML"):
        path = tmp_path / name
        path.write_text(Rules.preset("pagat").replace(decks=2).to_toml(), encoding="utf-8")
        assert Rules.resolve(str(path)) == Rules.preset("pagat").replace(decks=2)
    absent = str(tmp_path / "house.ini")
    with pytest.raises(RulesError, match=re.escape(f"unknown preset {absent!r}; presets are: ")):
        Rules.resolve(absent)


def test_invalid_toml_is_named(tmp_path):
    path = _write(tmp_path, "decks = = 2\n[unterminated\n")
    with pytest.raises(RulesError) as info:
        Rules.from_toml(path)
    assert f"rules file {str(path)!r} is not valid TOML" in str(info.value)


def test_resolve_rejects_other_types_naming_them():
    with pytest.raises(RulesError, match="got int 3"):
        Rules.resolve(3)
    with pytest.raises(RulesError, match=r"got list \['catalan'\]"):
        Rules.resolve(["catalan"])


@pytest.mark.parametrize("overrides, allowed", [
    ({"hidden_cards": 3}, "'alternate', 'first_only', 'player_choice'"),
    ({"bet_timing": True}, "'before_deal', 'on_turn'"),
])
def test_wrong_type_for_a_choice_switch_lists_the_choices(overrides, allowed):
    with pytest.raises(RulesError) as info:
        Rules.preset("catalan").replace(**overrides)
    assert allowed in str(info.value)


# ---------------------------------------------------------------- clashes
def test_chase_declared_needs_declare_seven_and_half():
    with pytest.raises(RulesError) as info:
        Rules.preset("catalan").replace(bank_must_chase_declared=True)
    msg = str(info.value)
    assert "bank_must_chase_declared=true" in msg and "declare_seven_and_half=false" in msg
    r = Rules.preset("pagat").replace(bank_must_chase_declared=True)  # pagat declares
    assert r.bank_must_chase_declared and r.declare_seven_and_half


def test_auction_needs_bank_sale():
    with pytest.raises(RulesError) as info:
        Rules.preset("spanish").replace(first_bank="auction")
    msg = str(info.value)
    assert "first_bank='auction'" in msg and "bank_sale=false" in msg
    r = Rules.preset("spanish").replace(first_bank="auction", bank_sale=True)
    assert r.first_bank == "auction" and r.bank_sale


def test_triple_needs_a_wild_card():
    with pytest.raises(RulesError, match="triple=true clashes with wild_card='none'"):
        Rules.preset("catalan").replace(triple=True)
    assert Rules.preset("catalan").replace(triple=True, wild_card="Ro").triple


def test_clash_in_a_rules_file_names_the_file(tmp_path):
    path = _write(tmp_path, 'preset = "spanish"\nbank_must_chase_declared = true\n')
    with pytest.raises(RulesError) as info:
        Rules.from_toml(path)
    assert str(path) in str(info.value)
    assert "declare_seven_and_half=false" in str(info.value)


def test_payout_multiple_follows_the_switches():
    c = Rules.preset("catalan")
    assert c.replace(natural_pays=3).max_payout_multiple == 3
    assert c.replace(pair_of_sevens=True).max_payout_multiple == 3
    assert c.replace(fusilar=True).max_payout_multiple == 4
    assert Rules.preset("pagat").replace(natural_pays=1).max_payout_multiple == 1


def test_wild_card_must_be_a_figure():
    """RULES.md §1: the matta is a figure (ITA: the king of coins; PAG: a figure)."""
    for card in ("7o", "1c", "4b"):
        with pytest.raises(RulesError) as info:
            Rules.preset("italian").replace(wild_card=card)
        msg = str(info.value)
        assert f"wild_card={card!r} is not a figure" in msg
        assert "'Ro'" in msg  # the message suggests a figure
    for card in ("So", "Cc", "Re", "Rb"):
        assert Rules.preset("italian").replace(wild_card=card).wild_card == card
    with pytest.raises(RulesError, match=re.escape("wild_card='7o' is not a figure")):
        Rules.from_mapping({"preset": "pagat_italian", "wild_card": "7o"})


def test_a_wild_card_is_kept_by_its_card_name():
    """``'ro'`` names the king of coins as ``'Ro'`` does (card names read either case), so
    the rules it makes are the ``italian`` preset's, not a variant of it."""
    italian = Rules.preset("italian")
    lower = italian.replace(wild_card="ro")
    assert lower.wild_card == "Ro" and lower == italian and lower.nearest_preset() == "italian"
    assert Rules.from_mapping({"preset": "italian", "wild_card": "rO"}) == italian


@pytest.mark.parametrize("overrides, first, second", [
    ({"preset": "catalan", "bank_must_chase_declared": True},
     "bank_must_chase_declared=true", "declare_seven_and_half=false"),
    ({"preset": "spanish_full", "declare_seven_and_half": False},
     "bank_must_chase_declared=true", "declare_seven_and_half=false"),
    ({"preset": "spanish", "first_bank": "auction"},
     "first_bank='auction'", "bank_sale=false"),
    ({"preset": "spanish_full", "bank_sale": False},
     "first_bank='auction'", "bank_sale=false"),
    ({"preset": "catalan", "triple": True}, "triple=true", "wild_card='none'"),
    ({"preset": "italian", "wild_card": "none"}, "triple=true", "wild_card='none'"),
])
def test_clashes_name_both_switches(overrides, first, second):
    """Switches that contradict each other are rejected, the message naming both — from a
    mapping, a preset's ``replace`` and the environment's constructor alike."""
    with pytest.raises(RulesError) as info:
        Rules.from_mapping(overrides)
    msg = str(info.value)
    assert first in msg and second in msg
    data = dict(overrides)
    preset = data.pop("preset")
    with pytest.raises(RulesError) as info:
        Rules.preset(preset).replace(**data)
    assert first in str(info.value) and second in str(info.value)
    with pytest.raises(RulesError) as info:
        sette_e_mezzo_v0.raw_env(rules=overrides, num_seats=4)
    assert first in str(info.value) and second in str(info.value)


# ------------------------------------- every switch plays (nothing refused)
EVERY_HOUSE_SWITCH = [
    {"double": True},
    {"split_rule": "two_figures_once"},
    {"split_rule": "two_figures_unlimited"},
    {"split_rule": "abrirse"},
    {"change_four": "forced"},
    {"change_four": "optional"},
    {"secret_three": True},
    {"mort": True},
    {"fusilar": True},
    {"mort": True, "fusilar": True},
    {"side_bets": True},
    {"pair_of_sevens": True},
    {"wild_card": "Ro"},
    {"wild_card": "Ro", "triple": True},
    {"bank_sale": True},
    {"bank_sale": True, "first_bank": "auction"},
    {"bank_transfer": "natural_only"},
    {"bank_transfer": "none"},
]


@pytest.mark.parametrize("overrides", EVERY_HOUSE_SWITCH,
                         ids=[",".join(f"{k}={v}" for k, v in o.items())
                              for o in EVERY_HOUSE_SWITCH])
def test_engine_plays_every_house_rule_switch(overrides):
    """The engine refuses no switch any more: each house rule, on top of ``catalan``,
    builds an engine and an environment and plays whole episodes."""
    rules = Rules.preset("catalan").replace(**overrides)
    for name, value in overrides.items():
        assert getattr(rules, name) == value
    engine = Engine(rules, 4, max_hands=4)
    assert engine.rules == rules
    raw = sette_e_mezzo_v0.raw_env(rules=rules, num_seats=4)
    assert raw.rules == rules
    for seed in range(3):
        engine.reset(seed=seed)
        steps = 0
        while not engine.over:
            legal = engine.legal_actions()
            assert legal
            engine.step(legal[(seed + steps) % len(legal)])
            steps += 1
        assert engine.hands_played == 4
        assert sum(engine.chips) + engine.jackpot == 4000


# ------------------------------------------------------------------ cards
@pytest.mark.parametrize("name, code", [
    ("1o", 0), ("7o", 6), ("So", 7), ("Co", 8), ("Ro", 9),
    ("1c", 10), ("Rc", 19), ("Se", 27), ("7e", 26), ("1b", 30), ("Rb", 39),
    ("rc", 19), ("RC", 19), ("sE", 27),
])
def test_parse_card(name, code):
    assert parse_card(name) == code


def test_card_names_round_trip_for_the_whole_deck():
    names = [card_name(c) for c in range(40)]
    assert len(set(names)) == 40
    assert names[:10] == ["1o", "2o", "3o", "4o", "5o", "6o", "7o", "So", "Co", "Ro"]
    assert [parse_card(n) for n in names] == list(range(40))
    assert parse_cards("7o, Rc Se") == [6, 19, 27]
    assert parse_cards(["1b", "Co"]) == [30, 8]
    assert format_cards([6, 19, 27]) == "7o Rc Se"


@pytest.mark.parametrize("bad, named", [
    ("8o", "rank '8'"), ("9c", "rank '9'"), ("Xo", "rank 'X'"), ("7x", "suit 'x'"),
    ("10o", "'10o'"), ("7", "'7'"), ("", "''"), (7, "7"), (None, "None"),
])
def test_parse_card_rejects_bad_names(bad, named):
    with pytest.raises(ValueError) as info:
        parse_card(bad)
    assert named in str(info.value)


def test_card_name_rejects_bad_codes():
    for code in (-1, 40, 100):
        with pytest.raises(ValueError, match=f"card code {code} is not in 0..39"):
            card_name(code)


def test_card_values_in_half_points():
    assert [HALF_POINTS[parse_card(r + "o")] for r in RANK_CHARS] == [
        2, 4, 6, 8, 10, 12, 14, 1, 1, 1]
    assert HALF_POINTS[parse_card("7b")] + HALF_POINTS[parse_card("Sc")] == SEVEN_AND_HALF
    assert [format_half_points(v) for v in (15, 1, 4, 0, 17)] == ["7½", "½", "2", "0", "8½"]


def test_high_card_order_rank_first_then_copas_oros_bastos_espadas():
    ordered = sorted(range(40), key=high_card_key)
    expected = [rank + suit for rank in "1234567SCR" for suit in "eboc"]
    assert [card_name(c) for c in ordered] == expected
    assert len({high_card_key(c) for c in range(40)}) == 40  # no ties in one deck
    key = lambda name: high_card_key(parse_card(name))  # noqa: E731
    assert key("Rc") > key("Ro") > key("Rb") > key("Re") > key("Cc")
    assert key("Se") > key("7c")  # figures rank above 7 here
    assert key("2e") > key("1c")


@pytest.mark.parametrize("name", list(PRESETS))
def test_the_engine_reads_exactly_the_rules_switches(name):
    """The engine reads the switches from a compiled copy (envs.engine.RuleSwitches):
    every switch it copies holds the rules' value, and it reads no other way."""
    from envs.cards import get_state
    from envs.engine import RuleSwitches

    rules = Rules.preset(name)
    copied = get_state(RuleSwitches(rules))
    assert copied.pop("rules") is rules and len(copied) > 25
    for field, value in copied.items():
        assert value == getattr(rules, field), field
    source = (Path(__file__).parents[1] / "envs" / "engine.py").read_text()
    assert "self.rules." not in source and "r = self.rules" not in source


# ------------------------------------------- engine inputs, compiled or not
# The compiled core (envs._native) enforces type annotations on entry, so a float where
# an int is annotated raised a bare TypeError there while pure Python named the value.
# These run on whichever build is in use: the same named ValueError either way.
@pytest.mark.parametrize("options, named", [
    ({"chips": [500.5, 10]}, "chips=[500.5, 10] must be 2 non-negative integers, one per seat"),
    ({"chips": [True, 10]}, "chips=[True, 10] must be 2"),
    ({"chips": [500, -1]}, "chips=[500, -1] must be 2"),
    ({"chips": [500, 10, 5]}, "chips=[500, 10, 5] must be 2"),
    ({"chips": 500}, "chips=500 must be 2"),
    ({"chips": "ab"}, "chips='ab' must be 2"),
    ({"chips": None, "bank": 1.0}, "bank=1.0 is not a seat; seats are 0..1"),
    ({"bank": True}, "bank=True is not a seat"),
    ({"bank": "1"}, "bank='1' is not a seat"),
    ({"bank": 2}, "bank=2 is not a seat"),
    ({"bank": -1}, "bank=-1 is not a seat"),
    ({"seed": 1.5}, "seed=1.5 must be a non-negative integer or None"),
    ({"seed": -3}, "seed=-3 must be a non-negative integer or None"),
    ({"seed": "7"}, "seed='7' must be a non-negative integer or None"),
    ({"seed": True}, "seed=True must be a non-negative integer or None"),
    ({"deck": 5}, "deck=5 must be card names such as '7o Rc'"),
    ({"deck": [1.5]}, "card 1.5 is not a two-character card name"),
    ({"deck": [40]}, "deck card code 40 is not in 0..39"),
])
def test_bad_reset_inputs_raise_the_same_named_error_compiled_or_not(options, named):
    engine = Engine("pagat", 2)
    engine.reset(seed=1)
    before = list(engine.events)
    kwargs = {"seed": 0, **options}
    with pytest.raises(ValueError) as info:
        engine.reset(**kwargs)
    assert type(info.value) is ValueError  # not a TypeError from an annotation
    assert named in str(info.value)
    assert engine.events == before  # nothing changed: every input is checked first
    if options.get("chips") == [500.5, 10]:  # a numpy array of floats alike
        with pytest.raises(ValueError, match=re.escape("must be 2 non-negative integers")):
            engine.reset(seed=0, chips=np.array(options["chips"]))


def test_numpy_integers_are_accepted_as_plain_ones():
    plain, numpy_ = Engine("pagat", 3), Engine("pagat", np.int64(3))
    assert type(numpy_.num_seats) is int and numpy_.num_seats == 3
    plain.reset(seed=5, bank=2, chips=[100, 200, 300], deck=["Ro", 10, "5e"])
    numpy_.reset(seed=np.int64(5), bank=np.int8(2), chips=np.array([100, 200, 300]),
                 deck=np.array([9, 10, 24]))
    assert numpy_.events == plain.events
    assert numpy_.events[0] == ("reset", 5, ["Ro", "1c", "5e"], 2, [100, 200, 300])
    assert all(type(c) is int for c in numpy_.chips) and type(numpy_.seed) is int
    while not plain.over:
        action = plain.legal_actions()[0]
        plain.step(action)
        numpy_.step(np.int64(action))
    assert numpy_.events == plain.events


@pytest.mark.parametrize("action", [1.0, True, np.float64(1.0), "1", None, 1.5])
def test_step_refuses_anything_but_an_integer_index_naming_it(action):
    engine = Engine("pagat", 2)
    engine.reset(seed=0, bank=1)
    engine.step(engine.layout.bet(1))
    assert A.HIT in engine.legal_actions()  # hit is legal, and 1.0 == True == hit's index
    before = list(engine.events)
    with pytest.raises(IllegalActionError) as info:
        engine.step(action)
    msg = str(info.value)
    assert f"action {action!r} (not an action index) is not legal" in msg
    assert "legal: 0 (stand), 1 (hit)" in msg
    assert engine.events == before


@pytest.mark.parametrize("args, named", [
    (("pagat", 4.0), "num_seats=4.0 is out of range"),
    (("pagat", True), "num_seats=True is out of range"),
    (("pagat", "4"), "num_seats='4' is out of range"),
    (("pagat", 4, 2.5), "max_hands=2.5 must be a positive integer or None"),
    (("pagat", 4, True), "max_hands=True must be a positive integer or None"),
    (("pagat", 4, 0), "max_hands=0 must be a positive integer or None"),
    (("pagat", 4, "3"), "max_hands='3' must be a positive integer or None"),
    ((3, 4), "rules must be a preset name, a .toml path, a mapping or Rules, got int 3"),
])
def test_engine_constructor_errors_are_named_compiled_or_not(args, named):
    with pytest.raises(ValueError) as info:
        Engine(*args)
    assert named in str(info.value)


def test_a_step_with_no_game_on_says_to_reset():
    """Before the first ``reset()`` nobody acts and nothing is legal, and a step says to deal
    (it was an internal "attribute 'actor' undefined"); after the last hand, the same."""
    engine = Engine("pagat", 2, max_hands=1)
    assert (engine.actor, engine.legal_actions(), engine.over) == (-1, [], True)
    with pytest.raises(IllegalActionError, match=re.escape(
            "action 14: the game has not been dealt; call reset() to deal one")):
        engine.step(14)
    engine.reset(seed=0)
    while not engine.over:
        engine.step(engine.legal_actions()[0])
    with pytest.raises(IllegalActionError, match=re.escape(
            "action 0: the game is over; call reset() to deal one")):
        engine.step(0)


def test_a_numpy_hand_limit_is_taken_as_the_int_it_holds():
    engine = Engine("pagat", 4, np.int64(3))
    assert engine.max_hands == 3 and type(engine.max_hands) is int
