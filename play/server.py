"""``sette serve``'s ASGI app: private tables in the browser (issue 15, "Browser").

HTTP opens and joins tables; one websocket per seat plays them:

=====================================  ===================================================
``GET /``, ``GET /table/{code}``       the page (``play/web``): open a table, or join one
``GET /api/options``                   the presets, built-in agents, offered models and seat
                                       limits (a preset's one deck seats up to 8, RULES.md §2)
``POST /api/tables``                   open a table: ``{rules, seats, hands, timers}`` -> its code,
                                       the opener's seat, seat token and links (400: a bad
                                       table; 503: the server holds ``--max-tables`` already)
``GET /api/tables/{code}``             who sits where (no cards)
``POST /api/tables/{code}/seats``      take a free human seat: its seat and token
``WS /ws/{code}``                      first message ``{"type": "hello", "token": T}``,
                                       within :data:`HELLO_S` seconds (else an error, and
                                       the socket is closed with code 4408)
=====================================  ===================================================

On the socket a client sends ``{"type": "act", "action": NAME_OR_ID}``,
``{"type": "start"}`` or ``{"type": "ping"}``; the server sends
``{"type": "view", ...}`` with **that seat's view only** (the session's view
for the seat: RULES.md §4, §8.7 hold on the wire) after every change, and
``{"type": "error", "message": ...}`` for anything it refuses — a malformed
message (a binary frame included), an unknown type, an action out of turn or
not legal, a ``seat`` that is not the connection's own, a wrong code or
token, ``start`` at a table without timers while a seat is free. A refused
message changes nothing. The seat token travels in the first message, not
the URL, so it stays out of access logs; the page keeps it in the link's
fragment (``/table/CODE#TOKEN``), which browsers never send to the server.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import FastAPI, HTTPException, WebSocket, WebSocketDisconnect
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field

from envs.rules import MIN_SEATS, PRESETS, SEATS_PER_DECK
from play.tables import (BUILT_IN, HUMAN, Full, NotFound, PrivateTable, SeatTaken, TableError,
                         TableOptions, TableRegistry)

MAX_MESSAGE = 4096
"""The longest socket message accepted, in characters."""
MESSAGE_TYPES = ("act", "start", "ping")
"""What a seated connection may send after its hello."""
HELLO = '{"type": "hello", "token": YOUR_SEAT_TOKEN}'
"""The first message a socket sends, as an error that asks for it shows it."""
HELLO_S = 20.0
"""Seconds a new socket has to send its hello: one that stays silent is told so and closed
(code 4408), so a public server holds no connection that never says which seat it is."""

WEB = Path(str(resources.files("play") / "web"))


class OpenTable(BaseModel):
    """The body of ``POST /api/tables``."""

    rules: str = "catalan"
    seats: list[str] = Field(default_factory=lambda: [HUMAN, "threshold:5.5"])
    hands: int = 10
    timers: bool = True
    """The Catalan app's timers (18 s to bet, 22 s to act), or none."""


def _seat_reply(request_base: str, table: PrivateTable, seat: int, token: str) -> dict[str, Any]:
    link = f"{request_base}table/{table.code}"
    return {"code": table.code, "seat": seat, "token": token, "link": link,
            "seat_link": f"{link}#{token}"}


def create_app(registry: TableRegistry | None = None) -> FastAPI:
    """The app; ``registry`` holds its tables (a fresh one by default)."""
    tables = registry or TableRegistry()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        yield
        await tables.close_all()

    app = FastAPI(title="sette-e-mezzo tables", lifespan=lifespan)
    app.state.tables = tables
    app.mount("/static", StaticFiles(directory=WEB), name="static")

    def page() -> HTMLResponse:
        return HTMLResponse((WEB / "index.html").read_text(encoding="utf-8"))

    @app.get("/", response_class=HTMLResponse)
    async def home() -> HTMLResponse:
        return page()

    @app.get("/table/{code}", response_class=HTMLResponse)
    async def table_page(code: str) -> HTMLResponse:
        return page()

    @app.get("/api/options")
    async def options() -> dict[str, Any]:
        return {"presets": list(PRESETS), "agents": list(BUILT_IN),
                "models": list(tables.models),
                "examples": ["random", "threshold:5.5", "careful", "reader:4", *tables.models],
                "min_seats": MIN_SEATS, "max_seats": SEATS_PER_DECK}

    @app.post("/api/tables")
    async def open_table(body: OpenTable) -> dict[str, Any]:
        timers = {} if body.timers else {"bet_timeout": None, "act_timeout": None}
        options = TableOptions(rules=body.rules, seats=tuple(s.strip() for s in body.seats),
                               hands=body.hands, **timers)
        try:
            table, seat, token = tables.open(options)
        except Full as exc:  # the request was fine: the server is busy
            raise HTTPException(status_code=503, detail=str(exc)) from None
        except (TableError, ValueError) as exc:
            raise HTTPException(status_code=400, detail=str(exc)) from None
        table.launch()
        return _seat_reply("/", table, seat, token)

    @app.get("/api/tables/{code}")
    async def table_info(code: str) -> dict[str, Any]:
        try:
            return tables.get(code).public()
        except NotFound as exc:
            raise HTTPException(status_code=404, detail=str(exc)) from None

    @app.post("/api/tables/{code}/seats")
    async def take_seat(code: str) -> dict[str, Any]:
        try:
            table = tables.get(code)
            seat, token = table.claim_seat()
        except NotFound as exc:
            raise HTTPException(status_code=404, detail=str(exc)) from None
        except SeatTaken as exc:
            raise HTTPException(status_code=409, detail=str(exc)) from None
        return _seat_reply("/", table, seat, token)

    @app.websocket("/ws/{code}")
    async def seat_socket(websocket: WebSocket, code: str) -> None:
        await websocket.accept()
        try:
            await _serve_seat(websocket, tables, code)
        except WebSocketDisconnect:
            pass

    return app


async def _error(websocket: WebSocket, message: str) -> None:
    await websocket.send_json({"type": "error", "message": message})


async def _read(websocket: WebSocket) -> dict[str, Any] | str:
    """The next message as a dict, or the reason it is not a valid one.

    The protocol is JSON text: a binary frame is refused like any other
    malformed message, unread.
    """
    frame = await websocket.receive()
    if frame["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(frame.get("code", 1000), frame.get("reason"))
    text = frame.get("text")
    if not isinstance(text, str):
        return (f"malformed message: a binary frame of {len(frame.get('bytes') or b'')} bytes; "
                "send text, a JSON object such as {\"type\": \"ping\"}")
    if len(text) > MAX_MESSAGE:
        return f"message of {len(text)} characters: at most {MAX_MESSAGE}"
    try:
        message = json.loads(text)
    except json.JSONDecodeError as exc:
        return f"malformed message: not JSON ({exc.msg} at character {exc.pos})"
    if not isinstance(message, dict):
        return "malformed message: send a JSON object such as {\"type\": \"ping\"}"
    return message


async def _serve_seat(websocket: WebSocket, tables: TableRegistry, code: str) -> None:
    try:
        table = tables.get(code)
    except NotFound as exc:
        await _error(websocket, str(exc))
        await websocket.close(code=4404)
        return
    try:
        hello = await asyncio.wait_for(_read(websocket), HELLO_S)
    except asyncio.TimeoutError:
        await _error(websocket, f"no hello within {HELLO_S:g} seconds: the first message is "
                                f"{HELLO}")
        await websocket.close(code=4408)
        return
    if isinstance(hello, str) or hello.get("type") != "hello":
        await _error(websocket, hello if isinstance(hello, str) else (
            f"first message of type {hello.get('type')!r}: the first message is {HELLO}"))
        await websocket.close(code=4400)
        return
    try:
        seat = table.seat_of(hello.get("token"))
    except TableError as exc:
        await _error(websocket, str(exc))
        await websocket.close(code=4403)
        return
    sub = table.subscribe(seat)
    sender = asyncio.create_task(_send_views(websocket, sub.queue))
    try:
        while True:
            message = await _read(websocket)
            if sender.done():
                return
            reason: str | None = (message if isinstance(message, str)
                                  else _handle(table, seat, message))
            if reason is not None:  # through the sender, so one task writes the socket
                sub.queue.put_nowait({"type": "error", "message": reason})
    finally:
        table.unsubscribe(sub)
        sender.cancel()


async def _send_views(websocket: WebSocket, queue: asyncio.Queue[dict[str, Any]]) -> None:
    """Write the connection's messages: every error, and of the views waiting only the newest."""
    while True:
        waiting = [await queue.get()]
        while not queue.empty():
            waiting.append(queue.get_nowait())
        views = [m for m in waiting if m["type"] == "view"]
        for message in waiting:
            if message["type"] != "view" or message is views[-1]:
                await websocket.send_json(message)


def _handle(table: PrivateTable, seat: int, message: dict[str, Any]) -> str | None:
    """Play one message of seat ``seat``; the reason it is refused, or ``None``."""
    kind = message.get("type")
    if "seat" in message and message["seat"] != seat:
        return (f"this connection plays seat {seat} only, not seat {message['seat']!r}: "
                "a seat is played through its own seat link")
    if kind == "ping":
        table.publish()
        return None
    if kind == "start":
        try:
            table.start()
        except TableError as exc:
            return str(exc)
        return None
    if kind == "act":
        if "action" not in message:
            return "an act message names its action: {\"type\": \"act\", \"action\": \"stand\"}"
        try:
            table.act(seat, message["action"])
        except (TableError, ValueError) as exc:
            return str(exc)
        return None
    return f"unknown message type {kind!r}: send one of {', '.join(MESSAGE_TYPES)}"
