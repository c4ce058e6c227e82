"""The table as a picture: the ``rgb_array`` render of the AEC env and the views.

:func:`table_picture` lays out :func:`envs.table_view.table_view` — the same
"what to show" as the text render, so the two cannot disagree: one panel per
seat with its role (the bank marked), chips, stake, status and total, and its
cards; a card the viewer may not see is drawn as a card back. The seat to act
has a yellow frame, the viewer's own seat is labelled "you" and the
viewer's own face-down cards (seen by nobody else) have a blue edge. The frame size
depends only on the number of seats, so every frame of an episode has the
same shape (as video recorders need).

Pillow is imported when a picture is drawn, so the engine stays light.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from envs.engine import Engine
from envs.table_view import HandShown, SeatShown, TableShown, hands_text, table_view

WIDTH = 1000
HEADER = 56
PANEL_HEIGHT = 190
MARGIN = 12
CARD_W, CARD_H = 52, 78

_FELT = (20, 96, 52)
_PANEL = (14, 72, 38)
_BANK_PANEL = (92, 60, 18)
_TEXT = (240, 240, 228)
_DIM = (170, 196, 176)
_ACTING = (250, 214, 60)
_OWN_HIDDEN = (110, 180, 255)
_CARD_FACE = (250, 248, 240)
_CARD_BACK = (150, 30, 40)
_SUIT_COLOURS = {"o": (196, 140, 0), "c": (196, 30, 40), "e": (30, 70, 160), "b": (40, 120, 40)}
_SUIT_NAMES = {"o": "oros", "c": "copas", "e": "espadas", "b": "bastos"}


def _columns(num_seats: int) -> int:
    return 2 if num_seats <= 4 else 3 if num_seats <= 9 else 4


def picture_size(num_seats: int) -> tuple[int, int]:
    """``(height, width)`` of the picture of a table of ``num_seats`` seats."""
    rows = -(-num_seats // _columns(num_seats))
    return HEADER + rows * (PANEL_HEIGHT + MARGIN) + MARGIN, WIDTH


def _fonts(image_font: Any) -> tuple[Any, Any, Any, Any]:
    """Heading, text, card rank and suit name fonts (Pillow's own scalable font)."""
    return tuple(image_font.load_default(size=size) for size in (22, 17, 26, 12))


def _card(draw: Any, x: int, y: int, name: str | None, own_hidden: bool, fonts: Any) -> None:
    _, _, big, tiny = fonts
    box = (x, y, x + CARD_W, y + CARD_H)
    if name is None:
        draw.rounded_rectangle(box, radius=6, fill=_CARD_BACK, outline=_CARD_FACE, width=2)
        draw.rounded_rectangle((x + 7, y + 7, x + CARD_W - 7, y + CARD_H - 7), radius=4,
                               outline=(230, 190, 190), width=1)
        cx, cy = x + CARD_W // 2, y + CARD_H // 2
        draw.polygon([(cx, cy - 22), (cx + 14, cy), (cx, cy + 22), (cx - 14, cy)],
                     outline=(230, 190, 190), width=2)
        return
    rank, suit = name[0], name[1]
    colour = _SUIT_COLOURS[suit]
    draw.rounded_rectangle(box, radius=6, fill=_CARD_FACE,
                           outline=_OWN_HIDDEN if own_hidden else (90, 90, 90),
                           width=3 if own_hidden else 1)
    draw.text((x + CARD_W // 2, y + 28), rank, font=big, fill=colour, anchor="mm")
    draw.text((x + CARD_W // 2, y + 60), _SUIT_NAMES[suit], font=tiny, fill=colour,
              anchor="mm")


def _hand_line(seat: SeatShown, hand: HandShown) -> str:
    total = hand.total_text
    bet = "" if seat.is_bank else f"bet {hand.bet} · "
    return f"{bet}total {total} · {hand.status}"


def _panel(draw: Any, box: tuple[int, int, int, int], seat: SeatShown, fonts: Any) -> None:
    font, small = fonts[0], fonts[1]
    x0, y0, x1, y1 = box
    draw.rounded_rectangle(box, radius=10, fill=_BANK_PANEL if seat.is_bank else _PANEL,
                           outline=_ACTING if seat.acting else _DIM,
                           width=4 if seat.acting else 1)
    role = "BANK" if seat.is_bank else "player"
    you = " · you" if seat.is_viewer else ""
    draw.text((x0 + 12, y0 + 8), f"seat {seat.seat} · {role}{you}", font=font, fill=_TEXT)
    streak = f" · bank {seat.bank_streak} hand{'s' if seat.bank_streak > 1 else ''} in a row" \
        if seat.is_bank and seat.bank_streak else ""
    draw.text((x0 + 12, y0 + 36), f"chips {seat.chips}{streak}", font=small, fill=_TEXT)
    if seat.last_hand_net is not None:
        draw.text((x0 + 12, y0 + 64), f"last hand {seat.last_hand_net:+d}", font=font,
                  fill=_TEXT)
        return
    if seat.sitting_out:
        draw.text((x0 + 12, y0 + 64), "sitting out", font=font, fill=_DIM)
        return
    hands = seat.hands
    if not hands:
        return
    draw.text((x0 + 12, y0 + 58), "  |  ".join(_hand_line(seat, h) for h in hands),
              font=small, fill=_TEXT)
    count = sum(len(h.cards) for h in hands) + len(hands) - 1
    room = x1 - x0 - 24 - CARD_W
    step = CARD_W + 6 if count <= 1 else min(CARD_W + 6, room // (count - 1))
    x, y = x0 + 12, y1 - CARD_H - 14
    for i, hand in enumerate(hands):
        if i:
            x += step  # a gap between split hands
        for name, own_hidden in zip(hand.cards, hand.own_hidden):
            _card(draw, x, y, name, own_hidden, fonts)
            x += step


def draw_table(view: TableShown) -> np.ndarray:
    """The picture of ``view`` as an ``(height, width, 3)`` ``uint8`` array."""
    from PIL import Image, ImageDraw, ImageFont

    n = len(view.seats)
    height, width = picture_size(n)
    image = Image.new("RGB", (width, height), _FELT)
    draw = ImageDraw.Draw(image)
    fonts = _fonts(ImageFont)
    if view.over:
        head = f"episode over after {hands_text(view.hand)}"
    else:
        limit = f" of {view.max_hands}" if view.max_hands else ""
        head = f"hand {view.hand}{limit} · {view.phase}"
    draw.text((MARGIN, 14), f"{head} · jackpot {view.jackpot} · shoe {view.shoe} · "
                            f"discard {view.discard}", font=fonts[0], fill=_TEXT)
    columns = _columns(n)
    panel_w = (width - MARGIN * (columns + 1)) // columns
    for seat in view.seats:
        row, col = divmod(seat.seat, columns)
        x0 = MARGIN + col * (panel_w + MARGIN)
        y0 = HEADER + row * (PANEL_HEIGHT + MARGIN)
        _panel(draw, (x0, y0, x0 + panel_w, y0 + PANEL_HEIGHT), seat, fonts)
    return np.asarray(image, dtype=np.uint8).copy()


def table_picture(engine: Engine, viewer: int | None = None) -> np.ndarray:
    """The table as ``viewer`` may see it (``None``: a spectator), as an RGB array."""
    return draw_table(table_view(engine, viewer))
