"""Hand histories: one JSON line per hand, and their replay to the same chips.

Every line is whole on its own: the ``table`` it was played at (the rules'
every switch, the seats, the hand limit, and what ``Engine.reset`` was given:
seed, stacked deck, first bank, stacks — the seed decides every shuffle,
RULES.md §3), then the hand's number, every action in order as
``[seat, name, how]`` (``how``: ``"human"``, ``"agent"`` or ``"timeout"``,
the default a timer played), the stacks at its settlement, the jackpot and
its settlement lines (:mod:`play.settlement`). A session cut short (Ctrl-C,
a closed table) writes the hand in play with ``"finished": false``.

:func:`replay` deals the table again from the first line and steps the
engine through every line's actions: the engine is deterministic given its
seed, so each hand must settle to the stacks its line holds, or the replay
names the first hand that does not.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any, Final

from envs.engine import Engine, IllegalActionError
from envs.rules import Rules

FORMAT: Final = "sette-hand/1"
"""The ``format`` every line carries; a reader refuses any other."""


class HistoryError(ValueError):
    """A history file that cannot be read or does not replay to its own chips."""


def table_record(rules: Rules, num_seats: int, max_hands: int | None, seed: int,
                 deck: Sequence[str] | None, bank: int | None, chips: Sequence[int] | None,
                 players: Sequence[str]) -> dict[str, Any]:
    """The ``table`` of every line: what it takes to deal the table again."""
    return {"rules": {"preset": rules.nearest_preset(), **rules.to_dict()},
            "seats": num_seats, "max_hands": max_hands,
            "seed": seed, "deck": None if deck is None else list(deck),
            "bank": bank, "chips": None if chips is None else list(chips),
            "players": list(players)}


class HistoryWriter:
    """Appends hand lines to a file, flushed line by line (a crash loses no whole hand)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        try:
            self._file: IO[str] | None = self.path.open("w", encoding="utf-8")
        except OSError as exc:
            raise HistoryError(f"cannot write the hand history {str(self.path)!r}: "
                               f"{exc.strerror}") from None

    def write(self, record: dict[str, Any]) -> None:
        """Write one hand's line."""
        if self._file is None:
            raise HistoryError(f"hand history {str(self.path)!r} is closed")
        self._file.write(json.dumps(record, separators=(",", ":")) + "\n")
        self._file.flush()

    def close(self) -> None:
        """Close the file; later writes are refused."""
        if self._file is not None:
            self._file.close()
            self._file = None


def read_history(path: str | Path) -> list[dict[str, Any]]:
    """The lines of a history file, checked for their format and one common table."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise HistoryError(f"cannot read the hand history {str(path)!r}: "
                           f"{exc.strerror}") from None
    records: list[dict[str, Any]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise HistoryError(f"{path}:{number}: not a JSON line ({exc.msg})") from None
        if not isinstance(record, dict) or record.get("format") != FORMAT:
            raise HistoryError(f"{path}:{number}: not a hand line of format {FORMAT!r}")
        if records and record["table"] != records[0]["table"]:
            raise HistoryError(f"{path}:{number}: the hand was played at another table than "
                               f"the file's first line")
        records.append(record)
    if not records:
        raise HistoryError(f"hand history {str(path)!r} holds no hand")
    return records


def replay(path: str | Path) -> list[int]:
    """Replay a history file; the stacks it ends with, each hand checked on the way.

    Raises :class:`HistoryError` naming the first hand whose actions are not
    legal at the replayed table or whose settlement gives other stacks.
    """
    records = read_history(path)
    table = records[0]["table"]
    engine = Engine(Rules.from_mapping(table["rules"], source=str(path)), table["seats"],
                    table["max_hands"])
    engine.reset(seed=table["seed"], deck=table["deck"], bank=table["bank"],
                 chips=table["chips"])
    for record in records:
        first = len(engine.events)
        for seat, name, _how in record["actions"]:
            if engine.actor != seat:
                raise HistoryError(f"hand {record['hand']}: the history has seat {seat} "
                                   f"play {name}, but seat {engine.actor} is to act")
            try:
                engine.step(engine.layout.index(name))
            except (IllegalActionError, ValueError) as exc:
                raise HistoryError(f"hand {record['hand']}: {exc}") from None
        if record["finished"]:
            settled = [e for e in engine.events[first:] if e[0] == "chips"]
            chips = list(settled[-1][1]) if settled else None
        else:
            chips = list(engine.chips)
        if chips != record["chips"]:
            raise HistoryError(f"hand {record['hand']}: the replay settles to {chips}, the "
                               f"history says {record['chips']}")
    return list(engine.chips)
