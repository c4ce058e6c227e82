"""Many tables at once: the batch-of-tables protocol, its slow reference and the compiled engine.

* :mod:`envs.batch.api` — :class:`TableBatch`, the protocol (arrays, one row per table);
* :mod:`envs.batch.event_rows` — the engine's events as integer rows;
* :mod:`envs.batch.reference` — :class:`ScalarTables`, one scalar engine per table;
* :mod:`envs.batch.engine` — :class:`BatchEngine`, the compiled engine (numba);
* :func:`make_tables` — either, by the rules.

Importing this package loads no compiler; the compiled engine's modules import numba.
"""

from envs.batch import threads
from envs.batch.api import TableBatch, UnsupportedRules
from envs.batch.reference import ScalarTables

threads.configure()

__all__ = ["ENGINES", "ScalarTables", "TableBatch", "UnsupportedRules", "make_tables"]


def make_tables(rules: object, num_seats: int, num_tables: int, max_hands: int | None = 10,
                engine: str = "auto", information_state: bool = False) -> TableBatch:
    """``num_tables`` tables as a :class:`TableBatch`: the compiled engine or the reference.

    ``engine``: ``"compiled"`` (:class:`envs.batch.engine.BatchEngine`; rules it does not
    play raise :class:`UnsupportedRules` naming why), ``"reference"``
    (:class:`ScalarTables`) or ``"auto"`` (compiled where the rules are supported).
    ``information_state``: the tables will be asked for information states (the
    compiled engine keeps each hand's history only when told so from the reset on).
    """
    if engine not in ENGINES:
        raise ValueError(f"engine={engine!r} is not one of {', '.join(ENGINES)}")
    if engine == "reference":
        return ScalarTables(rules, num_seats, num_tables, max_hands)  # type: ignore[arg-type]
    from envs.batch.engine import BatchEngine, check_supported
    from envs.rules import Rules

    resolved = Rules.resolve(rules)  # type: ignore[arg-type]
    if engine == "auto":
        try:
            check_supported(resolved)
        except UnsupportedRules:
            return ScalarTables(resolved, num_seats, num_tables, max_hands)
    return BatchEngine(resolved, num_seats, num_tables, max_hands,
                       information_state=information_state)


ENGINES = ("auto", "compiled", "reference")
"""The choices of :func:`make_tables`'s ``engine``."""
