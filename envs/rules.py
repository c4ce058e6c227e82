"""The rule switches of Sette e mezzo, the named presets, and rules files.

``Rules`` is a frozen dataclass: one field per switch of ``RULES.md``, under
the name the rule book gives it. Every field's docstring quotes its section.
Presets are ``Rules`` values (``Rules.preset("catalan")``); a variant is a
preset with overrides (``Rules.preset("catalan").replace(decks=2)``) or a
TOML rules file::

    preset = "catalan"      # optional: start from a preset
    jackpot_ante = 0        # then override any switch
    max_bank_hands = 0

Every value is validated: an unknown switch, a wrong type or an out-of-range
value raises ``RulesError`` naming the switch and the allowed values.

Design choices that the sources leave open (RULES.md asks for them to be
written down here):

* Coverage (§4.8) holds in every preset: chips are physical, so a bank pays
  at most what it holds, winners in turn order, after the losing stakes of
  the hand are collected (a bust stake is collected the moment it busts). A
  winner left unpaid keeps the stake. ``bank_min_cover`` is the switch that
  differs between presets: it passes the bank on *before* a hand.
* A seat sits a hand out when it cannot afford ``min_bet`` plus the
  ``jackpot_ante``; a bank needs at least ``min_bet`` chips (and, with
  ``bank_min_cover``, enough to cover the table) or the bank passes on.
* The bank's natural never collects double (§4.8, PAG): the bank only ever
  collects the stake, in every preset.
* The jackpot (§4.9) is won by players only; the bank's natural does not
  take it. Chips left in the pot when an episode ends stay in the pot.
* A hit is legal only while a card can be drawn (draw pile or, with
  ``reshuffle = "when_empty"``, a discard pile to shuffle in).
* With ``bank_transfer = "offer"`` a refusal is remembered until that seat
  next holds the bank; the forced second take needs no action.
* House rules (§6): ``change_four = "forced"`` and ``secret_three`` act on a
  player's initial card at the deal; the discarded 4 or 3 is shown. An
  optional change puts the 4, shown, back into the middle of the draw pile
  (it is not counted as seen: it is back in the shoe). Accepting the Mort or
  shooting (fusilar) announces the 7, which is turned face up; the extra
  card, like the secret pair, is seen by nobody until the bank has finished.
  Fusilar is chosen before betting when bets are placed on the turn, and at
  the start of the turn when they were placed before the deal.
* Split: the last card starts a new hand right after the one split, played
  next. ``two_figures_once`` stakes an equal bet automatically;
  ``two_figures_unlimited`` (at least the first stake) and ``abrirse`` (any
  stake) ask for the new stake at once. A split hand of two cards making 7½
  is a natural. A split hand holding only its first card may double. Abrirse's limit counts the players in the hand, the bank
  not included.
* A pair of sevens is shown once made and ends the hand; the bank holding
  one stands on it. A triplè or a pair of sevens takes the bank under every
  ``bank_transfer`` but ``none``.
* Side bets (§6): after the deal, each player in turn order may stake once
  on another player's hand (``side_bet_<offset>_<k>``) or ``pass``. A side
  bet rides on the target's first hand and is paid, within coverage, right
  after it.
* Auction (§5): seats bid in seat order, each once, every bid above the last
  and no more than leaves the bidder able to hold the bank; the highest
  bidder pays the bid to every other seat. No bid: a random bank.
  ``bank_sale`` also lets the bank offer the bank to the next seat able to
  hold it after each hand but the last (``sell_bank``/``pass``), which takes
  or refuses it.
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

from envs.cards import is_figure, parse_card


class RulesError(ValueError):
    """A rule switch has an unknown name, a wrong type or an invalid value."""


def _switch(default: Any, doc: str, choices: tuple | None = None, low: int | None = None,
            high: int | None = None) -> Any:
    return field(default=default,
                 metadata={"doc": doc, "choices": choices, "low": low, "high": high})


@dataclass(frozen=True)
class Rules:
    """Every rule switch of RULES.md. Defaults are the ``catalan`` preset."""

    # §1 Cards
    decks: int = _switch(1, "§1: number of 40-card decks in the shoe.", low=1, high=8)
    wild_card: str = _switch(
        "none",
        "§1 Matta: 'none' or the card that is wild (ITA: 'Ro', the king of coins; "
        "PAG: one designated figure). Scored at its best value.",
    )
    # §2 Table, chips, bets
    starting_chips: int = _switch(1000, "§2: chips each seat starts with.", low=1)
    min_bet: int = _switch(10, "§2: smallest stake; rewards are in units of it.", low=1)
    max_bet: int = _switch(100, "§2: largest stake a hand may carry.", low=1)
    bet_ladder: tuple = _switch(
        (1, 2, 5, 10),
        "§2: stakes offered as actions, in multiples of min_bet (action bet_<k>); "
        "with bet_raise also the raise sizes (raise_<k>).",
    )
    bet_timing: str = _switch(
        "before_deal",
        "§2: 'before_deal' (CAT: everyone bets, then the deal) or 'on_turn' "
        "(ESP, ITA: each player bets on their turn after seeing the first card).",
        choices=("before_deal", "on_turn"),
    )
    bet_raise: bool = _switch(
        False, "§2 (ESP): when hitting or standing a player may raise the bet, never above "
        "max_bet and not after reaching 7½.")
    # §3 Shoe
    reshuffle: str = _switch(
        "when_empty",
        "§3: 'when_empty' (CAT: the discard pile, not cards in play, is shuffled in when "
        "the draw pile runs out) or 'every_hand' (ESP, PAG).",
        choices=("when_empty", "every_hand"),
    )
    # §4 One hand
    hidden_cards: str = _switch(
        "alternate",
        "§4.3: 'alternate' (CAT: at most one face-down card; a hit while one is face down "
        "comes face up, else face down), 'first_only' (PAG, ITA: only the first card is "
        "face down) or 'player_choice' (ESP: turn the face-down card up before a hit to "
        "get the new card face down).",
        choices=("alternate", "first_only", "player_choice"),
    )
    declare_seven_and_half: bool = _switch(
        False, "§4.5 (ITA, PAG, ESP 'calling'): a hand reaching 7½ is shown to the table at once.")
    bank_must_chase_declared: bool = _switch(
        False, "§4.6 (ESP supplementary): the bank may not stand below 7½ once a player "
        "has declared 7½.")
    natural_beats_bank_multicard: str = _switch(
        "off",
        "§4.7: 'off' (CAT, ESP: a bank 7½ beats everything), 'double' (PAG Italian: a "
        "player's natural beats a bank 7½ of three or more cards and is paid natural_pays) "
        "or 'single' (ITA: it wins but is paid 1:1).",
        choices=("off", "double", "single"),
    )
    natural_pays: int = _switch(
        2, "§4.8: payout multiple of a natural (two cards making 7½); 1 = even money (PAG "
        "base). Paid also against a busted bank (CAT).", low=1, high=4)
    any_seven_and_half_pays: bool = _switch(
        False, "§4.8 (ESP): every 7½, not only a natural, is paid natural_pays.")
    triple: bool = _switch(
        False, "§4.8 (ITA 'triplè'): 7 + matta as two cards beats every bank hand, pays 3 "
        "and takes the bank.")
    pair_of_sevens: bool = _switch(
        False, "§4.8 (PAG Italian): exactly two 7s beat every other hand, pay 3; a bank "
        "holding it collects only 1x; its holder takes the bank.")
    jackpot_ante: int = _switch(
        0, "§4.9 (CAT): chips each player puts in the jackpot each hand (0 = no jackpot). "
        "The first natural in turn order takes the pot unless the bank made 7½.", low=0)
    # §5 Who holds the bank
    first_bank: str = _switch(
        "high_card",
        "§5: 'high_card' (CAT: a card to each seat, highest wins, ties by suit copas > oros "
        "> bastos > espadas), 'random' (PAG, ITA) or 'auction' (ESP with bank_sale).",
        choices=("high_card", "random", "auction"),
    )
    bank_transfer: str = _switch(
        "offer",
        "§5: 'offer' (CAT: a player making 7½ when the bank did not may take the bank; "
        "after a refusal the next 7½ forces it), 'mandatory' (PAG), 'right' (ESP: the first "
        "such player may claim it), 'natural_only' (ITA) or 'none' (the bank stays).",
        choices=("offer", "mandatory", "right", "natural_only", "none"),
    )
    bank_sale: bool = _switch(
        False, "§5 (ESP): the first bank is bought at auction and the bank may be passed "
        "to the next seat between hands.")
    max_bank_hands: int = _switch(
        3, "§5 (CAT: 3): most hands one seat holds the bank in a row; 0 = no limit.", low=0)
    bank_min_cover: bool = _switch(
        True, "§5 (CAT): before a hand, a bank holding fewer chips than players x min_bet x "
        "the largest payout multiple passes the bank to the next seat that can cover.")
    # §6 House-rule actions
    double: bool = _switch(
        False, "§6 (CAT): with only the first card a player may double the stake and gets "
        "exactly one more card, then stands.")
    split_rule: str = _switch(
        "none",
        "§6: 'none', 'two_figures_once' (CAT), 'two_figures_unlimited' (PAG Spanish: the "
        "new stake at least the first) or 'abrirse' (ESP: two or three cards of one value).",
        choices=("none", "two_figures_once", "two_figures_unlimited", "abrirse"),
    )
    change_four: str = _switch(
        "off",
        "§6: 'off', 'forced' (CAT: an initial 4 is discarded and replaced) or 'optional' "
        "(ESP: up to four times, before betting, the four back into the middle of the pile).",
        choices=("off", "forced", "optional"),
    )
    secret_three: bool = _switch(
        False, "§6 (CAT): an initial 3 is discarded for two secret cards nobody sees until "
        "the bank has finished; that hand can only stand.")
    mort: bool = _switch(
        False, "§6 (CAT): an initial 7 offers the Mort: one face-down card, lost unless "
        "exactly 7½, which counts as a natural.")
    fusilar: bool = _switch(
        False, "§6 (ESP): an initial 7 may shoot: a card face down under it, seen by nobody; "
        "the bank plays as if it were 7½; pays 4x if it is 7½ and the bank is not.")
    side_bets: bool = _switch(
        False, "§6 (ESP): players may stake on other players' hands; the owner decides.")

    # ------------------------------------------------------------------ API
    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            _check_value(f, getattr(self, f.name))
        if self.max_bet < self.min_bet:
            raise RulesError(
                f"max_bet={self.max_bet} is below min_bet={self.min_bet}; it must be >= min_bet")
        top = max(self.bet_ladder)
        if top * self.min_bet > self.max_bet:
            raise RulesError(
                f"bet_ladder={list(self.bet_ladder)}: stake {top} x min_bet={self.min_bet} = "
                f"{top * self.min_bet} exceeds max_bet={self.max_bet}")
        if self.first_bank == "auction" and not self.bank_sale:
            raise RulesError("first_bank='auction' clashes with bank_sale=false: an auction "
                             "sells the bank, so it needs bank_sale=true")
        if self.bank_must_chase_declared and not self.declare_seven_and_half:
            raise RulesError("bank_must_chase_declared=true clashes with "
                             "declare_seven_and_half=false: the bank can only chase a "
                             "declared 7½")
        if self.triple and self.wild_card == "none":
            raise RulesError("triple=true clashes with wild_card='none': the triplè is "
                             "7 + matta, so it needs a wild card")

    @classmethod
    def preset(cls, name: str) -> "Rules":
        """The named preset of RULES.md §7 (``catalan``, ``spanish``, ``pagat``, …)."""
        try:
            return PRESETS[name]
        except KeyError:
            raise RulesError(
                f"unknown preset {name!r}; presets are: {', '.join(PRESETS)}") from None

    def replace(self, **overrides: Any) -> "Rules":
        """A copy with some switches changed; unknown names are rejected."""
        _check_names(overrides)
        return dataclasses.replace(self, **_coerce(overrides))

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any], source: str = "rules") -> "Rules":
        """Rules from a mapping that may name a ``preset`` to start from."""
        data = dict(data)
        preset = data.pop("preset", "catalan")
        if not isinstance(preset, str):
            raise RulesError(f"{source}: preset must be a string, got {preset!r}")
        try:
            return cls.preset(preset).replace(**data)
        except RulesError as exc:
            raise RulesError(f"{source}: {exc}") from None

    @classmethod
    def from_toml(cls, path: str | Path) -> "Rules":
        """Rules from a TOML file (``preset = "..."`` then overrides)."""
        path = Path(path)
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise RulesError(f"rules file {str(path)!r} does not exist") from None
        except tomllib.TOMLDecodeError as exc:
            raise RulesError(f"rules file {str(path)!r} is not valid TOML: {exc}") from None
        return cls.from_mapping(data, source=f"rules file {str(path)!r}")

    @classmethod
    def resolve(cls, rules: "Rules | str | Path | Mapping[str, Any] | None") -> "Rules":
        """Accept a ``Rules``, a preset name, a TOML path or a mapping."""
        if rules is None:
            return cls.preset("catalan")
        if isinstance(rules, Rules):
            return rules
        if isinstance(rules, Mapping):
            return cls.from_mapping(rules)
        if isinstance(rules, Path) or (isinstance(rules, str) and rules.endswith(".toml")):
            return cls.from_toml(rules)
        if isinstance(rules, str):
            return cls.preset(rules)
        raise RulesError(f"rules must be a preset name, a .toml path, a mapping or Rules, "
                         f"got {type(rules).__name__} {rules!r}")

    def to_dict(self) -> dict[str, Any]:
        """Every switch as plain TOML-friendly values."""
        out = dataclasses.asdict(self)
        out["bet_ladder"] = list(self.bet_ladder)
        return out

    @property
    def max_payout_multiple(self) -> int:
        """Largest multiple of a stake the bank may have to pay (§5 bank_min_cover)."""
        multiple = max(1, self.natural_pays)
        if self.triple or self.pair_of_sevens:
            multiple = max(multiple, 3)
        if self.fusilar:
            multiple = max(multiple, 4)
        return multiple


_FIELDS = {f.name: f for f in dataclasses.fields(Rules)}


def _check_names(data: Mapping[str, Any]) -> None:
    unknown = [k for k in data if k not in _FIELDS]
    if unknown:
        raise RulesError(f"unknown rule switch {unknown[0]!r}; switches are: "
                         f"{', '.join(_FIELDS)}")


def _coerce(data: Mapping[str, Any]) -> dict[str, Any]:
    """Lists (from TOML) become tuples for the ladder; everything else is kept."""
    out = dict(data)
    if isinstance(out.get("bet_ladder"), list):
        out["bet_ladder"] = tuple(out["bet_ladder"])
    return out


def _check_value(f: dataclasses.Field, value: Any) -> None:
    name, meta = f.name, f.metadata
    expected = type(f.default)
    if expected is int and (isinstance(value, bool) or not isinstance(value, int)):
        raise RulesError(f"{name} must be an integer, got {value!r}")
    if expected is bool and not isinstance(value, bool):
        raise RulesError(f"{name} must be true or false, got {value!r}")
    if expected is str and not isinstance(value, str):
        allowed = (f"; choose one of {', '.join(repr(c) for c in meta['choices'])}"
                   if meta["choices"] else "")
        raise RulesError(f"{name} must be a string, got {value!r}{allowed}")
    if meta["choices"] is not None and value not in meta["choices"]:
        raise RulesError(f"{name}={value!r} is not allowed; choose one of "
                         f"{', '.join(repr(c) for c in meta['choices'])}")
    low, high = meta["low"], meta["high"]
    if low is not None and value < low:
        bound = f"{low}..{high}" if high is not None else f">= {low}"
        raise RulesError(f"{name}={value!r} is out of range; allowed: {bound}")
    if high is not None and value > high:
        raise RulesError(f"{name}={value!r} is out of range; allowed: {low}..{high}")
    if name == "bet_ladder":
        if (not isinstance(value, tuple) or not value
                or any(isinstance(k, bool) or not isinstance(k, int) or k < 1 for k in value)
                or list(value) != sorted(set(value))):
            raise RulesError(f"bet_ladder must be a non-empty increasing list of positive "
                             f"integers (multiples of min_bet), got {value!r}")
    if name == "wild_card" and value != "none":
        try:
            card = parse_card(value)
        except ValueError as exc:
            raise RulesError(f"wild_card={value!r}: {exc}; use 'none' or a card name") from None
        if not is_figure(card):
            raise RulesError(f"wild_card={value!r} is not a figure; the matta is a figure "
                             f"(RULES.md §1): a sota, caballo or rey such as 'Ro'")


CATALAN = Rules(jackpot_ante=1)
"""RULES.md §7 ``catalan``: CAT traditional."""

CATALAN_HOUSE = CATALAN.replace(mort=True, change_four="forced", secret_three=True, double=True,
                                split_rule="two_figures_once")
"""RULES.md §7 ``catalan_house``: CAT house rules."""

SPANISH = Rules(
    bet_timing="on_turn", bet_raise=True, hidden_cards="player_choice",
    natural_pays=2, any_seven_and_half_pays=True, bank_transfer="right",
    first_bank="random", reshuffle="every_hand", max_bank_hands=0, bank_min_cover=False,
)
"""RULES.md §7 ``spanish``: ESP basic."""

SPANISH_FULL = SPANISH.replace(
    declare_seven_and_half=True, bank_must_chase_declared=True, split_rule="abrirse",
    change_four="optional", fusilar=True, side_bets=True, bank_sale=True, first_bank="auction",
)
"""RULES.md §7 ``spanish_full``: ESP with its supplementary rules."""

PAGAT = Rules(
    hidden_cards="first_only", declare_seven_and_half=True, natural_pays=1,
    bank_transfer="mandatory", first_bank="random", reshuffle="every_hand",
    max_bank_hands=0, bank_min_cover=False,
)
"""RULES.md §7 ``pagat``: PAG base game."""

PAGAT_ITALIAN = PAGAT.replace(natural_pays=2, natural_beats_bank_multicard="double",
                              wild_card="Ro", pair_of_sevens=True)
"""RULES.md §7 ``pagat_italian``: PAG "Italian rules". The designated wild
figure is the king of coins (design choice, as in ITA)."""

PAGAT_SPANISH = PAGAT.replace(hidden_cards="player_choice", split_rule="two_figures_unlimited")
"""RULES.md §7 ``pagat_spanish``: PAG "Spanish rules"."""

ITALIAN = Rules(
    bet_timing="on_turn", hidden_cards="first_only", declare_seven_and_half=True,
    wild_card="Ro", natural_pays=2, natural_beats_bank_multicard="single", triple=True,
    bank_transfer="natural_only", first_bank="random", reshuffle="every_hand",
    max_bank_hands=0, bank_min_cover=False,
)
"""RULES.md §7 ``italian``: ITA family rules with the matta (king of coins).
The shoe is reshuffled every hand (design choice; ITA is silent). For tables
beyond a single deck's comfort raise ``decks``."""

PRESETS: dict[str, Rules] = {
    "catalan": CATALAN,
    "catalan_house": CATALAN_HOUSE,
    "spanish": SPANISH,
    "spanish_full": SPANISH_FULL,
    "pagat": PAGAT,
    "pagat_italian": PAGAT_ITALIAN,
    "pagat_spanish": PAGAT_SPANISH,
    "italian": ITALIAN,
}
"""The named presets of RULES.md §7."""

SWITCH_DOCS: dict[str, str] = {name: f.metadata["doc"] for name, f in _FIELDS.items()}
"""One line per switch: its RULES.md section and meaning."""
