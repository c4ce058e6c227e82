"""The rule switches of Sette e mezzo, the named presets, and rules files.

``Rules`` is a frozen dataclass: one field per switch of ``RULES.md``, under
the name the rule book gives it. Every field's docstring quotes its section.
Presets are ``Rules`` values (``Rules.preset("catalan")``); a variant is a
preset with overrides (``Rules.preset("catalan").replace(decks=2)``) or a
TOML rules file::

    preset = "catalan"      # required: the preset to start from
    jackpot_ante = 0        # then override any switch
    max_bank_hands = 0

A rules file or mapping must name its preset: the error lists them. Only
``Rules()``, ``Rules.resolve(None)`` and the environments' defaults stand
for ``catalan`` without saying so. :meth:`Rules.to_toml` writes a complete
rules file (``sette rules PRESET`` prints it).

Every value is validated: an unknown switch, a wrong type or an out-of-range
value raises ``RulesError`` naming the switch and the allowed values.

Table size (RULES.md §2): :data:`MIN_SEATS` to :data:`MAX_SEATS` seats, and
one 40-card deck seats at most :data:`SEATS_PER_DECK`, so a table above that
needs ``decks >= 2`` (ITA: "virtually unlimited" players with more decks).
:meth:`Rules.check_seats` is the one check every table goes through.

Design choices that the sources leave open (RULES.md asks for them to be
written down here):

* Coverage (§4.8) holds in every preset: chips are physical, so a bank pays
  at most what it holds, winners in turn order, after the losing stakes of
  the hand are collected (a bust stake is collected the moment it busts). A
  winner left unpaid keeps the stake. ``bank_min_cover`` is the switch that
  differs between presets: it passes the bank on *before* a hand.
* A seat sits a hand out when it cannot afford the smallest stake on offer
  plus the ``jackpot_ante`` (§8.9); a bank needs at least ``min_bet`` chips
  (and, with ``bank_min_cover``, enough to cover the table) or the bank
  passes on. So ``starting_chips`` must cover that much, or no seat could
  ever play: the validation rejects less.
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
  after it. The target is named by its place after the bettor, and the
  action layout names the next ``envs.actions.MAX_OFFSET`` places (7: every
  other seat of an 8-seat table). At a larger table a player may back any
  of the seven hands after it, not the ones further round: the layout stays
  the same for every table size, so a policy moves between table sizes and
  no action index is renumbered.
* Auction (§5): seats bid in seat order, each once, every bid above the last
  and no more than leaves the bidder able to hold the bank; the highest
  bidder pays the bid to every other seat. No bid: a random bank.
  ``bank_sale`` also lets the bank offer the bank to the next seat able to
  hold it after each hand but the last (``sell_bank``/``pass``), which takes
  or refuses it.

The decisions of RULES.md §8, each under its number:

* §8.1 A 7½ passes the bank (``offer``, ``mandatory``, ``right``,
  ``natural_only``) only when it won the hand: a natural beaten by the
  bank's pair of sevens or natural keeps no claim; a natural that beats a
  multi-card bank 7½ under ``natural_beats_bank_multicard`` has one.
* §8.2 ``max_bank_hands`` gives way to coverage: the bank goes to the next
  seat in turn order able to cover; when no other seat can, the holder keeps
  it and its streak goes on counting, as the observation shows. The episode
  ends only when nobody can cover.
* §8.3 A fusilar that turns out 7½ and wins counts as reaching 7½, at its
  place in turn order, once its card is shown: it can claim the bank.
* §8.4 A hand's special form is read from its cards, whatever route made
  it: a Mort or a fusilar of 7 + matta is a triplè, a secret three ending as
  two 7s is a pair of sevens. When two payouts apply the higher one is paid,
  and the bank passes when any rule that applies passes it.
* §8.5 Abrirse shows the opened card to the table.
* §8.6 Under ``player_choice`` a hit to a hand without a face-down card comes
  face down, so a hand holds at most one face-down card and may hold one.
* §8.7 Without ``declare_seven_and_half`` a hand reaching 7½ is, to everyone
  else, a stand: the same observation, information state, public events and
  transcript lines. Only the declaration switch shows it.
* §8.8 No decision that changes nothing is asked: no bank offer, claim or
  sale on an episode's last hand, and the bank is offered only to a seat
  that can cover it.
* §8.9 Stakes: a seat sits out when it cannot afford the smallest stake on
  offer (the ladder's first step, in chips); a split, an abrirse or a side
  bet is offered only while a legal stake exists for it; after a raise a
  split's second stake is at least the raised stake (PAG) and at most
  ``max_bet`` and the chips held. Here: ``starting_chips`` must pay that
  smallest stake and the ante.
* §8.10 Every seat has perfect recall of what it saw: the order face-up
  cards arrived in, when each bet and raise was made, each reveal. An agent
  gets the current summary (the observation) or its full information state,
  and the exact solutions (equilibrium, best response) are those of the
  perfect-recall game.
"""

from __future__ import annotations

import dataclasses
import json
import operator
import re
import sys
import textwrap
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

from envs.cards import card_name, is_figure, parse_card
from envs.text_files import read_text


class RulesError(ValueError):
    """A rule switch has an unknown name, a wrong type or an invalid value."""


MIN_SEATS = 2
"""Fewest seats at a table (RULES.md §2): a bank and one player."""

MAX_SEATS = 16
"""Most seats at a table (RULES.md §2; ITA: more players with more decks)."""

SEATS_PER_DECK = 8
"""Most seats one 40-card deck serves (RULES.md §2): more need ``decks >= 2``."""



def check_max_hands(max_hands: object) -> int | None:
    """A table's hand limit as a Python int (any integer, numpy's too, but not a bool), or
    None for no limit; ``ValueError`` naming the value otherwise. Every engine checks its
    ``max_hands`` here."""
    if max_hands is None:
        return None
    try:
        hands = 0 if isinstance(max_hands, bool) else operator.index(
            max_hands)  # type: ignore[arg-type]  # anything with __index__, or TypeError
    except TypeError:  # a float, a string: not a count
        hands = 0
    if hands < 1:
        raise ValueError(f"max_hands={max_hands!r} must be a positive integer or None")
    return hands


_LINE = 100
"""Longest line :meth:`Rules.to_toml` writes."""


def _switch(default: Any, doc: str, choices: tuple | None = None, low: int | None = None,
            high: int | None = None) -> Any:
    return field(default=default,
                 metadata={"doc": doc, "choices": choices, "low": low, "high": high})


@dataclass(frozen=True)
class Rules:
    """Every rule switch of RULES.md. Defaults are the ``catalan`` preset.

    A rule set is a preset, a preset with switches changed, or a rules file
    (a mapping or TOML file naming its preset); a bad value is refused by name:

    >>> from envs.rules import Rules
    >>> catalan = Rules.preset("catalan")
    >>> catalan.natural_pays, catalan.jackpot_ante
    (2, 1)
    >>> Rules.resolve({"preset": "catalan", "natural_pays": 1}) == catalan.replace(natural_pays=1)
    True
    >>> catalan.replace(natural_pays=9)
    Traceback (most recent call last):
    envs.rules.RulesError: natural_pays=9 is out of range; allowed: 1..4
    """

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
            value = _plain_value(f.name, getattr(self, f.name))
            object.__setattr__(self, f.name, value)  # frozen: set once, before any use
            _check_value(f, value)
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
        need = self.smallest_stake + self.jackpot_ante
        if self.starting_chips < need:
            raise RulesError(
                f"starting_chips={self.starting_chips} cannot pay the smallest stake "
                f"(bet_ladder[0]={self.bet_ladder[0]} x min_bet={self.min_bet}) plus "
                f"jackpot_ante={self.jackpot_ante}: it must be >= {need} (RULES.md §8.9)")

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
        return dataclasses.replace(self, **overrides)

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any], source: str = "rules") -> "Rules":
        """Rules from a mapping naming the ``preset`` to start from, then overrides.

        The preset is required: a mapping without one is an error that lists
        the presets, never a silent ``catalan``.
        """
        data = dict(data)
        if "preset" not in data:
            raise RulesError(f"{source}: no preset is named; start with preset = \"NAME\", "
                             f"NAME one of: {', '.join(PRESETS)}")
        preset = data.pop("preset")
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
            text = read_text(path, "rules file")
        except ValueError as exc:
            raise RulesError(str(exc)) from None
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise RulesError(f"rules file {str(path)!r} is not valid TOML: {exc}") from None
        return cls.from_mapping(data, source=f"rules file {str(path)!r}")

    @classmethod
    def resolve(cls, rules: "Rules | str | Path | Mapping[str, Any] | None") -> "Rules":
        """Accept a ``Rules``, a preset name, a TOML path or a mapping. A string is a rules
        file when it ends in ``.toml`` (any case) or names a path that is no preset."""
        if rules is None:
            return cls.preset("catalan")
        if isinstance(rules, Rules):
            return rules
        if isinstance(rules, Mapping):
            return cls.from_mapping(rules)
        if isinstance(rules, Path) or (isinstance(rules, str)
                                       and rules.lower().endswith(".toml")):
            return cls.from_toml(rules)
        if isinstance(rules, str):
            if rules not in PRESETS and Path(rules).exists():  # a rules file named otherwise
                return cls.from_toml(rules)
            return cls.preset(rules)
        raise RulesError(f"rules must be a preset name, a .toml path, a mapping or Rules, "
                         f"got {type(rules).__name__} {rules!r}")

    def to_dict(self) -> dict[str, Any]:
        """Every switch as plain TOML-friendly values."""
        out = dataclasses.asdict(self)
        out["bet_ladder"] = list(self.bet_ladder)
        return out

    def nearest_preset(self) -> str:
        """The preset differing from these rules in the fewest switches (first on a tie)."""
        mine = self.to_dict()

        def differences(name: str) -> int:
            theirs = PRESETS[name].to_dict()
            return sum(mine[k] != theirs[k] for k in mine)

        return min(PRESETS, key=differences)

    def to_toml(self, preset: str | None = None) -> str:
        """A complete rules file for these rules: ``preset = "..."``, then every switch.

        Each switch carries a comment with its RULES.md section and allowed
        values, and one saying so where it differs from the preset. The
        preset defaults to :meth:`nearest_preset`; loading the text back
        (:meth:`from_toml`) gives exactly these rules. No line is longer
        than 100 characters.
        """
        name = self.nearest_preset() if preset is None else preset
        base = Rules.preset(name)
        lines = ["# Sette e mezzo rules file (RULES.md): a preset, then every switch.",
                 *_comment(f"RULES.md §7 presets: {', '.join(PRESETS)}."),
                 f"preset = {_toml_value(name)}", ""]
        for key, f in _FIELDS.items():
            value = getattr(self, key)
            note = f"{_section(f)}; {_allowed(f)}"
            if value != getattr(base, key):
                note += f"; {name} has {_toml_value(getattr(base, key))}"
            lines.extend(_entry(key, _toml_value(value), note))
        return "\n".join(lines) + "\n"

    @property
    def smallest_stake(self) -> int:
        """Chips of the smallest stake on offer, the ladder's first step (RULES.md §8.9)."""
        return self.bet_ladder[0] * self.min_bet

    @property
    def max_seats(self) -> int:
        """Most seats these rules' shoe serves (RULES.md §2): ``SEATS_PER_DECK`` per deck."""
        return min(MAX_SEATS, SEATS_PER_DECK * self.decks)

    def check_seats(self, num_seats: object) -> int:
        """``num_seats`` as a Python int, if a table of that many seats can play these rules.

        An integer (Python or numpy, not a bool) is required. A ``ValueError``
        names the value and the range allowed with this many decks, and how
        many decks a larger table needs (RULES.md §2).
        """
        top = self.max_seats
        try:
            seats = -1 if isinstance(num_seats, bool) else operator.index(
                num_seats)  # type: ignore[arg-type]  # anything with __index__, or TypeError
        except TypeError:  # a float, a string: not a count
            seats = -1
        if not MIN_SEATS <= seats <= top:
            more = ""
            if top < MAX_SEATS:
                decks = -(-MAX_SEATS // SEATS_PER_DECK)
                more = (f"; a deck seats at most {SEATS_PER_DECK}, so up to {MAX_SEATS} "
                        f"seats need decks >= {decks} (RULES.md §2)")
            raise ValueError(f"num_seats={num_seats!r} is out of range; allowed: "
                             f"{MIN_SEATS}..{top} with decks={self.decks}{more}")
        return seats

    @property
    def max_payout_multiple(self) -> int:
        """Largest multiple of a stake the bank may have to pay (§5 bank_min_cover).

        The rule is :func:`envs.rulebook.largest_multiple` (imported here, not at
        the top: the rulebook imports this module).
        """
        from envs.rulebook import largest_multiple
        return largest_multiple(self.natural_pays, self.triple, self.pair_of_sevens, self.fusilar)


_FIELDS = {f.name: f for f in dataclasses.fields(Rules)}


def _check_names(data: Mapping[str, Any]) -> None:
    unknown = [k for k in data if k not in _FIELDS]
    if unknown:
        raise RulesError(f"unknown rule switch {unknown[0]!r}; switches are: "
                         f"{', '.join(_FIELDS)}")


def _toml_value(value: Any) -> str:
    """A switch's value as TOML: booleans, integers, strings and integer lists."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value)  # a JSON string is a valid TOML basic string
    return "[" + ", ".join(_toml_value(v) for v in value) + "]"


def _section(f: dataclasses.Field) -> str:
    """The RULES.md section a switch's documentation starts with (``§4.3``)."""
    match = re.match(r"§[\d.]*\d", f.metadata["doc"])
    assert match, f"the documentation of {f.name} does not start with its section"
    return match.group(0)


def _allowed(f: dataclasses.Field) -> str:
    """The values a switch takes, as a rules file writes them."""
    meta = f.metadata
    if meta["choices"]:
        names = [_toml_value(c) for c in meta["choices"]]
        return f"{', '.join(names[:-1])} or {names[-1]}"
    if f.name == "bet_ladder":
        return "increasing multiples of min_bet, the top one x min_bet <= max_bet"
    if f.name == "max_bet":
        return ">= min_bet"
    if f.name == "starting_chips":
        return ">= bet_ladder[0] x min_bet + jackpot_ante"
    if f.name == "wild_card":
        return '"none" or a figure such as "Ro"'
    if isinstance(f.default, bool):
        return "true or false"
    if meta["high"] is not None:
        return f"{meta['low']}..{meta['high']}"
    return f">= {meta['low']}"


def _comment(text: str) -> list[str]:
    """``text`` as TOML comment lines within the line limit."""
    return textwrap.wrap(text, width=_LINE, initial_indent="# ", subsequent_indent="# ")


def _entry(key: str, value: str, note: str) -> list[str]:
    """``key = value  # note`` on one line, or the note above it when that is too long."""
    line = f"{key} = {value}  # {note}"
    if len(line) <= _LINE:
        return [line]
    setting = f"{key} = {value}"
    if len(setting) > _LINE:  # a long ladder: one TOML array over several lines
        items = textwrap.wrap(value[1:-1], width=_LINE - 4)
        setting = "\n".join([f"{key} = ["] + [f"    {item}" for item in items] + ["]"])
    return [*_comment(note), setting]


def _plain_value(name: str, value: Any) -> Any:
    """``value`` as the rules keep it: a numpy scalar as the ``bool`` or ``int`` it holds (a
    sweep over ``np.arange`` gives them), the ladder as a tuple (a list or array of stakes),
    and the matta by its card name as :func:`envs.cards.card_name` writes it (``'ro'`` is
    ``'Ro'``), so that equal rules compare equal."""
    if name == "bet_ladder" and (isinstance(value, list) or getattr(value, "ndim", 0) == 1):
        return tuple(_plain_scalar(k) for k in value)
    if name == "wild_card" and isinstance(value, str) and value != "none":
        try:
            return card_name(parse_card(value))
        except ValueError:
            return value  # _check_value names it
    return _plain_scalar(value)


def _plain_scalar(value: Any) -> Any:
    """A numpy boolean or integer scalar as Python's ``bool`` or ``int``; anything else as is."""
    if getattr(value, "ndim", None) == 0:
        kind = value.dtype.kind
        if kind == "b":
            return bool(value)
        if kind in "iu":
            return int(value)
    return value


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
