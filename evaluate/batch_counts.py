"""The tournament's per-hand counts, read from the event rows of the compiled batch engine.

:func:`evaluate.tournament._count_hand` counts a finished hand from its
scalar events and its :class:`envs.hands.Hand` objects: busts, naturals,
jackpot hits and chips, and wins / pushes / losses from the net chips less
the jackpot's ante and prize. The batch engine keeps no hand objects for the
evaluator; it writes every event as a row (:mod:`envs.batch.event_rows`),
the rows of one call in ``row_buffer[t, :row_count[t]]``. :class:`HandRows`
reads those rows after every reset and step, as the scalar counts read the
events:

* **cards** — each seat's hands (``hand_index``; the bank's is its seat's
  hand 0) follow the ``card`` rows, a ``split`` moves a card to the new
  hand, a ``discarded`` (a forced change of a 4, the secret three,
  RULES.md §6) or ``four_back`` takes the initial card out again; the total
  is the rulebook's (:func:`envs.batch.kernels_rulebook.best_total`, the
  matta of §1). A *natural* is a hand of exactly two cards making 7½
  (:attr:`envs.hands.Hand.is_natural`);
* **bust** — a hand over 7½ (:attr:`envs.hands.Hand.busted`: a ``bust`` row
  is not enough, a Mort's face-down card can take it over at settlement,
  §6), but for a pair of sevens (a ``special`` row, §4.8);
* **jackpot** — ``jackpot`` rows are the prize (§4.9); the ``ante`` rows
  logged by the step that ends a hand belong to that hand's events (the
  step that settles a hand deals the next one,
  :class:`agents.seating.FinishedHand`).

A hand is closed by the next ``hand`` row or the ``over`` row; its counts
wait in the ``settled_*`` arrays for the step that raises ``hands_played``.
``tests/test_batch_eval.py`` holds every count to the scalar tournament's.

The reader is compiled once per process and not cached on disk: numba checks
a cached function against its own file only, and this one inlines the
rulebook's twins and the row layout (:mod:`envs.batch.jit_cache` keeps the
engine's own kernels in step, not this module's); compiling it takes about
a second.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from envs.batch import event_rows as ev_rows
from envs.batch import kernels_rulebook as rb
from envs.cards import SEVEN_AND_HALF

__all__ = ["HandRows"]

_K_CARD, _K_SPLIT, _K_DISCARDED, _K_FOUR_BACK = (ev_rows.K_CARD, ev_rows.K_SPLIT,
                                                 ev_rows.K_DISCARDED, ev_rows.K_FOUR_BACK)
_K_SPECIAL, _K_JACKPOT, _K_ANTE = ev_rows.K_SPECIAL, ev_rows.K_JACKPOT, ev_rows.K_ANTE
_PAIR_OF_SEVENS = ev_rows.SPECIAL_ID["pair_of_sevens"]
_K_HAND, _K_OVER = ev_rows.K_HAND, ev_rows.K_OVER


@njit(cache=False)
def _card(cards, base, wilds, t, seat, hand, card, wild, sign):  # type: ignore[no-untyped-def]
    """Put ``card`` into (``sign`` 1) or take it out of (-1) ``seat``'s hand ``hand``."""
    cards[t, seat, hand] += sign
    if card == wild:
        wilds[t, seat, hand] += sign
    else:
        base[t, seat, hand] += sign * rb.card_points(card)


@njit(cache=False)
def _read(rows, row_count, live, wild, cards, base, wilds, sevens, prize, hits,
          settled_natural, settled_busted, settled_prize, settled_hits, settled_ante
          ):  # type: ignore[no-untyped-def]
    """Read the rows of the last call at tables ``live`` (see the module docstring)."""
    seats = cards.shape[1]
    for t in live:
        settled_ante[t, :] = 0
        for j in range(row_count[t]):
            row = rows[t, j]
            kind = row[0]
            if kind == _K_CARD:  # seat, card, face_up, hand_index, unseen
                _card(cards, base, wilds, t, row[1], row[4], row[2], wild, 1)
            elif kind == _K_SPLIT:  # seat, card, hand_index, new_hand_index, ...
                _card(cards, base, wilds, t, row[1], row[3], row[2], wild, -1)
                _card(cards, base, wilds, t, row[1], row[4], row[2], wild, 1)
            elif kind == _K_DISCARDED or kind == _K_FOUR_BACK:  # seat, card, ...
                _card(cards, base, wilds, t, row[1], 0, row[2], wild, -1)
            elif kind == _K_SPECIAL:  # seat, name, hand_index
                if row[2] == _PAIR_OF_SEVENS:
                    sevens[t, row[1], row[3]] = True
            elif kind == _K_JACKPOT:  # seat, amount
                prize[t, row[1]] += row[2]
                hits[t, row[1]] += 1
            elif kind == _K_ANTE:  # seat, amount
                settled_ante[t, row[1]] += row[2]
            elif kind == _K_HAND or kind == _K_OVER:
                for s in range(seats):
                    natural = False
                    bust = False
                    for h in range(cards.shape[2]):
                        total = rb.best_total(base[t, s, h], wilds[t, s, h])
                        if cards[t, s, h] == 2 and total == SEVEN_AND_HALF:
                            natural = True
                        if total > SEVEN_AND_HALF and not sevens[t, s, h]:
                            bust = True
                    settled_natural[t, s] = natural
                    settled_busted[t, s] = bust
                    settled_prize[t, s] = prize[t, s]
                    settled_hits[t, s] = hits[t, s]
                cards[t] = 0
                base[t] = 0
                wilds[t] = 0
                sevens[t] = False
                prize[t] = 0
                hits[t] = 0


class HandRows:
    """What the rows of ``tables`` (a :class:`envs.batch.engine.BatchEngine`) say of each hand.

    Call :meth:`read` after every reset and step with the tables that moved;
    after the step that ends a table's hand, the ``settled_*`` arrays hold
    that hand's counts per seat: a natural, a bust, the jackpot prize and
    hits (chips), and the antes the step logged (chips).
    """

    def __init__(self, tables: Any) -> None:
        if not hasattr(tables, "row_buffer"):
            raise ValueError(f"counting busts, naturals and the jackpot needs the rows of the "
                             f"compiled engine (envs.batch.engine.BatchEngine), not "
                             f"{type(tables).__name__}")
        self.tables = tables
        rules = tables.rules
        self.wild = int(rb.pack_rules(rules)[rb.R_WILD])
        b, s = tables.num_tables, tables.num_seats
        hands = {"none": 1, "two_figures_once": 2}.get(rules.split_rule,
                                                       12 * rules.decks)  # one per figure (§6)
        self.cards = np.zeros((b, s, hands), dtype=np.int64)
        self.base = np.zeros((b, s, hands), dtype=np.int64)
        self.wilds = np.zeros((b, s, hands), dtype=np.int64)
        self.sevens = np.zeros((b, s, hands), dtype=np.bool_)
        self.prize = np.zeros((b, s), dtype=np.int64)
        self.hits = np.zeros((b, s), dtype=np.int64)
        self.settled_natural = np.zeros((b, s), dtype=np.bool_)
        self.settled_busted = np.zeros((b, s), dtype=np.bool_)
        self.settled_prize = np.zeros((b, s), dtype=np.int64)
        self.settled_hits = np.zeros((b, s), dtype=np.int64)
        self.settled_ante = np.zeros((b, s), dtype=np.int64)

    def read(self, live: np.ndarray) -> None:
        """Read the rows the last call wrote at tables ``live``."""
        t = self.tables
        _read(t.row_buffer, t.row_count, np.asarray(live, dtype=np.int64), self.wild,
              self.cards, self.base, self.wilds, self.sevens, self.prize, self.hits,
              self.settled_natural, self.settled_busted, self.settled_prize,
              self.settled_hits, self.settled_ante)
