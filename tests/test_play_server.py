"""The browser table's server over its socket (play/server.py, play/tables.py; issue 15).

Driven with Starlette's TestClient (no network, no browser): a private table
is opened and joined by its code, each seat plays through its own token, and
every bad input — a malformed message, an unknown type, an action out of
turn, another seat's action, a wrong code or token — gets a clear error and
changes nothing. A seat's wire view never holds another seat's face-down card
(RULES.md §4.1): two deals that differ only in that card send it the same
bytes, while the control, the card's owner, is sent different ones.
"""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
with warnings.catch_warnings():  # Starlette's note that it prefers httpx2 to httpx
    warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient`")
    from fastapi.testclient import TestClient  # noqa: E402

from play import server  # noqa: E402
from play.history import read_history, replay  # noqa: E402
from play.server import create_app  # noqa: E402
from play.tables import PrivateTable, TableOptions, TableRegistry  # noqa: E402

DECK = "7o 4c Rb 3e 2e 5b 6b 1o".split()
"""Seat 0 gets 7o, seat 1 the face-down 4c, the bank (seat 2) Rb; seat 1's hit draws 3e."""


class Clock:
    """Time moved by hand: the tables' timers read it."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def client(tmp_path: Path, clock: Clock) -> Iterator[TestClient]:
    app = create_app(TableRegistry(history_dir=tmp_path, clock=clock))
    with TestClient(app) as test_client:
        yield test_client


def open_table(client: TestClient, **options: Any) -> tuple[PrivateTable, str]:
    """A table opened in the app's own loop, as ``POST /api/tables`` does; its opener's token."""
    tables: TableRegistry = client.app.state.tables  # type: ignore[attr-defined]

    async def go() -> tuple[PrivateTable, str]:
        table, _seat, token = tables.open(TableOptions(**options))
        table.launch()
        return table, token

    assert client.portal is not None
    return client.portal.call(go)


def timer_fired(client: TestClient, table: PrivateTable) -> bool:
    """Wake the table's task at the clock's time; True if its timer played a default."""
    assert client.portal is not None
    return client.portal.call(_timer_fired, table)


async def _timer_fired(table: PrivateTable) -> bool:
    assert table.session is not None
    before = table.session.version
    table.wake()
    for _ in range(40):
        await asyncio.sleep(0.005)
        if table.session.version != before:
            return True
    return False


def scripted(client: TestClient, deck: list[str] = DECK) -> tuple[PrivateTable, str, str]:
    """Two people and a threshold bank on a stacked deck, no timers: the table and both tokens."""
    table, token0 = open_table(client, seats=("human", "human", "threshold:5.5"), hands=2,
                               seed=3, deck=tuple(deck), bank=2, bet_timeout=None,
                               act_timeout=None)
    assert client.portal is not None
    _seat, token1 = client.portal.call(_claim, table)  # in the app's loop, as a request is
    return table, token0, token1


async def _claim(table: PrivateTable) -> tuple[int, str]:
    return table.claim_seat()


class Seat:
    """One seat's socket. The server pushes a view after every change (and may send one
    view twice), so a reply is read up to the message it answers, by the session's version."""

    def __init__(self, ws: Any, table: PrivateTable) -> None:
        self.ws = ws
        self.table = table
        self.views: dict[int, str] = {}
        """Every view this socket was sent, by the session's version, as JSON text."""

    def _version(self) -> int:
        return -1 if self.table.session is None else self.table.session.version

    def _until(self, done: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        while True:
            message = self.ws.receive_json()
            if message["type"] == "view" and message["view"] is not None:
                text = json.dumps(message["view"], sort_keys=True)
                assert self.views.setdefault(message["view"]["version"], text) == text
            if done(message):
                return message

    def hello(self, token: str) -> dict[str, Any]:
        self.ws.send_json({"type": "hello", "token": token})
        message = self._until(lambda m: True)
        assert message["type"] == "view", message
        return message

    def send(self, message: dict[str, Any] | str) -> dict[str, Any]:
        """Send ``message``; the error it got, or the view of the change it made."""
        before = self._version()
        self.ws.send_text(message if isinstance(message, str) else json.dumps(message))
        return self._until(lambda m: m["type"] == "error" or (
            m["view"] is not None and m["view"]["version"] > before))

    def act(self, action: str) -> dict[str, Any]:
        return self.send({"type": "act", "action": action})

    def refused(self, message: dict[str, Any] | str | bytes) -> str:
        """Send ``message``, which the server must refuse: its error text."""
        if isinstance(message, bytes):
            self.ws.send_bytes(message)
        else:
            self.ws.send_text(message if isinstance(message, str) else json.dumps(message))
        return str(self._until(lambda m: m["type"] == "error")["message"])

    def view(self) -> dict[str, Any]:
        """The seat's view now."""
        self.ws.send_json({"type": "ping"})
        now = self._version()
        message = self._until(lambda m: m["type"] == "view" and (
            m["view"] is None or m["view"]["version"] == now))
        return message


def connect(client: TestClient, table: PrivateTable) -> Any:
    return client.websocket_connect(f"/ws/{table.code}")


# -- opening and joining ---------------------------------------------------------------------
def test_open_a_table_and_join_it_by_its_code(client: TestClient) -> None:
    opened = client.post("/api/tables", json={"rules": "catalan", "hands": 3,
                                              "seats": ["human", "human", "careful"]}).json()
    other = client.post("/api/tables", json={"seats": ["human", "random"]}).json()
    assert opened["seat"] == 0 and len(opened["code"]) >= 22 and opened["code"] != other["code"]
    assert opened["link"] == f"/table/{opened['code']}"
    assert opened["seat_link"] == f"/table/{opened['code']}#{opened['token']}"
    info = client.get(f"/api/tables/{opened['code']}").json()
    assert info["free_seats"] == [1] and not info["started"]
    assert info["seats"][2] == {"seat": 2, "kind": "agent", "agent": "careful", "held": True}
    joined = client.post(f"/api/tables/{opened['code']}/seats").json()
    assert joined["seat"] == 1 and joined["token"] != opened["token"]
    assert client.get(f"/api/tables/{opened['code']}").json()["started"]  # every seat held
    full = client.post(f"/api/tables/{opened['code']}/seats")
    assert full.status_code == 409 and full.json()["detail"] == (
        f"table {opened['code']}: every human seat is taken (seats 0 and 1); a player "
        "rejoins through their own seat link")
    assert client.get("/").status_code == 200 and "table.js" in client.get("/").text
    assert client.get("/static/table.js").status_code == 200


@pytest.mark.parametrize("body, words", [
    ({"rules": "poker"}, "not a preset; choose one of catalan"),
    ({"seats": ["human"]}, "1 seat: a catalan table has 2 to 8 seats"),
    ({"seats": ["human"] + ["random"] * 8}, "9 seats"),
    ({"seats": ["random", "careful"]}, "no human seat"),
    ({"seats": ["human", "bogus:1"]}, "seat 1:"),
    ({"hands": 0}, "hands 0"),
])
def test_a_bad_table_is_refused_by_name(client: TestClient, body: dict[str, Any],
                                        words: str) -> None:
    reply = client.post("/api/tables", json=body)
    assert reply.status_code == 400 and words in reply.json()["detail"]
    assert client.app.state.tables.tables == {}  # type: ignore[attr-defined]


CHOOSE = ("choose random, threshold:T, careful[:B], reader[:S], or a PLAYER|BANK pair of "
          "them (e.g. careful|threshold:6); this server offers no trained models")
"""What a refused agent is told to choose instead, at a server that offers no model."""


@pytest.mark.parametrize("spec", ["model:/etc/passwd", "/etc/passwd", "rllib:/etc",
                                  "careful|model:/etc/passwd"])
def test_a_page_never_makes_the_server_read_a_file_it_does_not_offer(
        client: TestClient, spec: str) -> None:
    reply = client.post("/api/tables", json={"seats": ["human", spec]})
    assert reply.status_code == 400 and reply.json()["detail"] == (
        f"seat 1: {spec!r} reads a file, and this server reads only the models it offers; "
        f"{CHOOSE}")
    assert client.app.state.tables.tables == {}  # type: ignore[attr-defined]
    offered = TableOptions(seats=("human", spec))
    with pytest.raises(ValueError) as loaded:  # offered: past the gate, then loaded (not a model)
        offered.checked(models=(spec,))
    assert "reads a file" not in str(loaded.value) and "seat 1" in str(loaded.value)
    assert client.post("/api/tables", json={"seats": ["human", "careful|threshold:6"]}
                       ).status_code == 200


@pytest.mark.parametrize("spec, refusal", [
    ("bogus", "unknown agent 'bogus'"),
    ("", "no agent named"),
    ("careful|", "unknown agent 'careful|'"),
    ("b" * 150, f"unknown agent {'b' * 40 + '…'!r} (150 characters)"),
    ("threshold:" + "5" * 200_000, "an agent of 200010 characters: at most 200"),
])
def test_an_unknown_agent_is_refused_by_name_with_the_agents_a_page_may_seat(
        client: TestClient, spec: str, refusal: str) -> None:
    reply = client.post("/api/tables", json={"seats": ["human", spec]})
    assert reply.status_code == 400
    assert reply.json()["detail"] == f"seat 1: {refusal}; {CHOOSE}"
    assert client.app.state.tables.tables == {}  # type: ignore[attr-defined]


def test_the_options_name_what_a_page_may_seat(tmp_path: Path) -> None:
    app = create_app(TableRegistry(history_dir=tmp_path, models=("runs/r/player",)))
    with TestClient(app) as client:
        options = client.get("/api/options").json()
        assert options["agents"] == ["random", "threshold", "careful", "reader"]
        assert options["models"] == ["runs/r/player"]
        refused = client.post("/api/tables", json={"seats": ["human", "bogus"]}).json()
        assert refused["detail"].endswith(
            "(e.g. careful|threshold:6); or a trained model this server offers: runs/r/player")


def test_a_wrong_table_code_gets_a_clear_error(client: TestClient) -> None:
    assert "no table has the code 'nope'" in client.get("/api/tables/nope").json()["detail"]
    assert client.post("/api/tables/nope/seats").status_code == 404
    with client.websocket_connect("/ws/nope") as ws:
        assert "no table has the code 'nope'" in ws.receive_json()["message"]


def test_a_seat_token_opens_its_own_seat_only(client: TestClient) -> None:
    table, token0, token1 = scripted(client)
    other, other_token = open_table(client, seats=("human", "random"), bet_timeout=None,
                                    act_timeout=None)
    for code, token in [(table.code, "guess"), (table.code, other_token), (table.code, None),
                        (other.code, token0)]:
        with client.websocket_connect(f"/ws/{code}") as ws:
            ws.send_json({"type": "hello", "token": token})
            assert "this seat token opens no seat" in ws.receive_json()["message"]
    with connect(client, table) as ws:
        ws.send_json({"type": "act", "action": "bet_1"})  # no hello first
        assert "the first message is" in ws.receive_json()["message"]
    with connect(client, table) as ws:
        ws.send_bytes(b"\x00\x01")  # a binary hello
        assert ws.receive_json() == {"type": "error", "message": BINARY}
    with connect(client, table) as ws0, connect(client, table) as ws1:
        assert Seat(ws0, table).hello(token0)["view"]["seat"] == 0
        assert Seat(ws1, table).hello(token1)["view"]["seat"] == 1


def received_within(ws: Any, seconds: float) -> dict[str, Any]:
    """The socket's next ASGI message, or a failure if none comes within ``seconds``: a
    server that holds the socket open fails the test, not hangs it."""
    got: list[dict[str, Any]] = []
    reader = threading.Thread(target=lambda: got.append(ws.receive()), daemon=True)
    reader.start()
    reader.join(seconds)
    if not got:
        pytest.fail(f"nothing from the server within {seconds} s: the socket is held open")
    return got[0]


def test_a_socket_that_never_says_hello_is_told_so_and_closed(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """A socket that opens and stays silent is not held open for good: after ``HELLO_S``
    seconds (shortened here) it gets an error saying what the first message is, and is
    closed with code 4408; the table holds no connection of it."""
    monkeypatch.setattr(server, "HELLO_S", 0.05)
    table, _token = open_table(client, seats=("human", "random"))
    with connect(client, table) as ws:
        error = received_within(ws, 10)
        assert json.loads(error["text"]) == {"type": "error", "message": (
            'no hello within 0.05 seconds: the first message is {"type": "hello", '
            '"token": YOUR_SEAT_TOKEN}')}
        closed = received_within(ws, 10)
        assert closed["type"] == "websocket.close" and closed["code"] == 4408
    assert table.subscribers == []


# -- bad input changes nothing ---------------------------------------------------------------
BINARY = ("malformed message: a binary frame of 2 bytes; send text, a JSON object such as "
          '{"type": "ping"}')
BAD_MESSAGES: list[tuple[str | bytes, str]] = [
    ("{not json", "malformed message: not JSON"),
    (b"\x00\x01", BINARY),
    ("[1, 2]", "send a JSON object"),
    ('{"type": "fold"}', "unknown message type 'fold': send one of act, start, ping"),
    ('{"type": "act"}', "an act message names its action"),
    ('{"type": "act", "action": "bet_3"}', "'bet_3' is not an action; choose one of"),
    ('{"type": "act", "action": "stand"}', "stand is not legal now; choose one of"),
    ('{"type": "act", "action": [1]}', "action [1]: name an action"),
    ('{"type": "act", "action": "5000"}', "a stake of 5000 is above your"),
    ('{"type": "act", "action": "bet_1", "seat": 1}', "this connection plays seat 0 only"),
    ('{"type": "ping", "seat": 1}', "this connection plays seat 0 only"),
    ('{"type": "act", "action": "' + "x" * 5000 + '"}', "at most 4096"),
]


def test_bad_input_gets_a_clear_error_and_changes_nothing(client: TestClient) -> None:
    table, token0, token1 = scripted(client)
    assert table.session is not None
    with connect(client, table) as ws0, connect(client, table) as ws1:
        seat0, seat1 = Seat(ws0, table), Seat(ws1, table)
        before = seat0.hello(token0)["view"]
        seat1.hello(token1)
        assert before["your_turn"] and before["phase"] == "bet"
        for text, words in BAD_MESSAGES:
            assert words in seat0.refused(text), text
        # out of turn, and another seat's action, from seat 1's own socket
        assert "it is seat 0's turn" in seat1.refused({"type": "act", "action": "bet_1"})
        assert "this connection plays seat 1 only" in seat1.refused(
            {"type": "act", "action": "bet_1", "seat": 0})
        assert seat0.view()["view"] == before
        assert table.session.decisions == [] and table.session.version == before["version"]
        after = seat0.act("bet_1")  # and the seat's legal action is taken
        assert after["type"] == "view" and after["view"]["actions"] == [
            {"seat": 0, "name": "bet_1", "how": "human"}]


def test_a_table_waits_for_its_players_or_for_start(client: TestClient) -> None:
    table, token = open_table(client, seats=("human", "human", "random"), seed=2, bank=2)
    with connect(client, table) as ws:
        seat = Seat(ws, table)
        first = seat.hello(token)
        assert first["view"] is None and first["table"]["free_seats"] == [1]
        assert first["table"]["timers"]
        assert "has not started" in seat.refused({"type": "act", "action": "bet_1"})
        started = seat.send({"type": "start"})
        assert started["table"]["started"] and started["view"]["your_turn"]
        assert started["table"]["free_seats"] == [1]  # the free seat plays by its timer


def test_a_table_without_timers_deals_only_once_every_seat_is_held(
        client: TestClient) -> None:
    """Nothing would play a free seat without timers: ``start`` is refused, not a table
    stuck for good at the free seat's first turn."""
    opened = client.post("/api/tables", json={"seats": ["human", "human", "careful"],
                                              "timers": False}).json()
    table = client.app.state.tables.get(opened["code"])  # type: ignore[attr-defined]
    with connect(client, table) as ws:
        seat = Seat(ws, table)
        assert not seat.hello(opened["token"])["table"]["timers"]
        assert seat.send({"type": "start"}) == {"type": "error", "message": (
            "this table has no timers, so nobody would play seat 1: it deals once every "
            "friend has taken a seat through the invite link")}
        assert not table.started
        client.post(f"/api/tables/{opened['code']}/seats")  # the friend sits down: it deals
        assert seat.view()["table"]["started"]


# -- what the wire carries -------------------------------------------------------------------
def _wire(client: TestClient, deck: list[str]) -> tuple[dict[int, str], dict[int, str]]:
    """Every view each seat's socket was sent while seat 1 still holds its face-down card."""
    table, token0, token1 = scripted(client, deck)
    with connect(client, table) as ws0, connect(client, table) as ws1:
        seats = (Seat(ws0, table), Seat(ws1, table))
        seats[0].hello(token0)
        seats[1].hello(token1)
        for seat, action in [(0, "bet_1"), (1, "bet_2"), (0, "stand"), (1, "hit")]:
            assert seats[seat].act(action)["type"] == "view"
            for other in seats:
                other.view()
    return seats[0].views, seats[1].views


def test_a_wire_view_never_holds_another_seats_face_down_card(client: TestClient) -> None:
    seat0_a, seat1_a = _wire(client, DECK)
    changed = ["1c" if card == "4c" else card for card in DECK]
    seat0_b, seat1_b = _wire(client, changed)  # only seat 1's face-down card differs
    assert len(seat0_a) >= 5 and seat0_a == seat0_b  # seat 0 is sent the same views
    assert seat1_a != seat1_b  # the control: the card's owner sees it
    assert all('"4c"' not in view for view in seat0_a.values())
    assert any('"4c"' in view for view in seat1_a.values())
    assert not any('"Rb"' in view for view in [*seat0_a.values(), *seat1_a.values()])
    # the bank's face-down card, before the bank's turn


def test_a_closed_tab_plays_by_the_timer_and_rejoins_by_its_seat_link(
        client: TestClient, clock: Clock, tmp_path: Path) -> None:
    table, token = open_table(client, seats=("human", "threshold:5.5"), hands=2, seed=5,
                              deck=("4o", "Rb", "3c", "2c", "5e", "6e"), bank=1,
                              bet_timeout=18.0, act_timeout=22.0)
    with connect(client, table) as ws:
        first = Seat(ws, table).hello(token)
        assert first["view"]["your_turn"] and first["seconds_left"] == 18.0
    clock.now += 17.5  # the tab is closed; not yet
    assert not timer_fired(client, table)
    clock.now += 1.0  # the bet timer runs out: the smallest stake
    assert timer_fired(client, table)
    clock.now += 22.5  # and the act timer: stand
    assert timer_fired(client, table)
    with connect(client, table) as ws:
        back = Seat(ws, table).hello(token)  # the seat link brings the player back
        assert back["seat"] == 0 and back["view"]["hand"] == 2 and back["view"]["your_turn"]
    first_hand = read_history(tmp_path / f"{table.code}.jsonl")[0]
    assert [a for a in first_hand["actions"] if a[0] == 0] == [[0, "bet_1", "timeout"],
                                                              [0, "stand", "timeout"]]


def test_a_session_played_over_the_socket_replays_to_the_same_chips(
        client: TestClient, tmp_path: Path) -> None:
    table, token = open_table(client, seats=("human", "careful", "random"), hands=3, seed=11,
                              bet_timeout=None, act_timeout=None)
    with connect(client, table) as ws:
        seat = Seat(ws, table)
        message = seat.hello(token)
        while not message["view"]["over"]:
            legal = [a["name"] for a in message["view"]["legal"]]
            assert legal, message["view"]
            message = seat.act("stand" if "stand" in legal else legal[0])
            assert message["type"] == "view", message
        chips = [s["chips"] for s in message["view"]["seats"]]
    assert replay(tmp_path / f"{table.code}.jsonl") == chips
    assert len(read_history(tmp_path / f"{table.code}.jsonl")) == 3


def test_a_table_left_alone_for_an_hour_is_closed(client: TestClient, clock: Clock) -> None:
    idle = client.post("/api/tables", json={"seats": ["human", "random"]}).json()
    with client.websocket_connect(f"/ws/{idle['code']}") as ws:
        ws.send_json({"type": "hello", "token": idle["token"]})
        ws.receive_json()
        clock.now += 3601  # someone is still connected: it stays
        kept = client.post("/api/tables", json={"seats": ["human", "random"]}).json()
        assert client.get(f"/api/tables/{idle['code']}").status_code == 200
    clock.now += 3601  # nobody connected for an hour: both close when the next table opens
    client.post("/api/tables", json={"seats": ["human", "random"]})
    for code in (idle["code"], kept["code"]):
        assert client.get(f"/api/tables/{code}").status_code == 404


def _play_to_the_end(client: TestClient, opened: dict[str, Any]) -> None:
    """The opener plays their table, a person beside agents, until it is over."""
    table = client.app.state.tables.get(opened["code"])  # type: ignore[attr-defined]
    with connect(client, table) as ws:
        seat = Seat(ws, table)
        message = seat.hello(opened["token"])
        while not message["view"]["over"]:
            message = seat.act(message["view"]["legal"][0]["name"])


def test_a_finished_table_gives_its_place_back(tmp_path: Path, clock: Clock) -> None:
    """At ``--max-tables 2`` two tables in play fill the server (503, try later); once
    both are over and their pages closed, new tables open at once, not an hour later.
    The first two have ``careful`` as their bank, so the person must bet before their hand
    can end (with a drawn bank, the person's table could end before they act)."""
    app = create_app(TableRegistry(history_dir=tmp_path, clock=clock, max_tables=2))
    table = {"seats": ["human", "careful"], "hands": 1, "timers": False}
    with TestClient(app) as client:
        first, second = ({"code": opened.code, "token": token} for opened, token in (
            open_table(client, seats=("human", "careful"), hands=1, bet_timeout=None,
                       act_timeout=None, bank=1) for _ in range(2)))
        full = client.post("/api/tables", json=table)
        assert full.status_code == 503
        assert full.json() == {"detail": "this server holds 2 tables already; try again later"}
        for opened in (first, second):
            _play_to_the_end(client, opened)
        assert client.get(f"/api/tables/{first['code']}").json()["over"]
        assert client.post("/api/tables", json=table).status_code == 200
        assert client.post("/api/tables", json=table).status_code == 200
        for opened in (first, second):  # closed, their histories kept
            assert client.get(f"/api/tables/{opened['code']}").status_code == 404
            assert len(read_history(tmp_path / f"{opened['code']}.jsonl")) == 1


def test_sette_serve_refuses_a_bad_port_by_name(capsys: pytest.CaptureFixture[str],
                                                tmp_path: Path) -> None:
    from train.cli import main

    assert main(["serve", "--port", "70000", "--history-dir", str(tmp_path / "h")]) == 2
    assert "sette serve: error: --port 70000: choose 0..65535" in capsys.readouterr().err


def test_sette_serve_names_a_port_in_use_before_it_prints_an_address(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from train.cli import main

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["serve", "--port", str(port), "--history-dir", str(tmp_path / "h")]) == 2
    out, err = capsys.readouterr()
    assert out == ""  # no "open http://..." for a server that never listened
    assert err.splitlines()[-1] == (
        f"sette serve: error: --port {port}: another program listens on 127.0.0.1:{port}; "
        "choose another port, or --port 0 for a free one")


def test_sette_serve_prints_the_port_it_listens_on(capsys: pytest.CaptureFixture[str],
                                                   tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """``--port 0`` takes a free port: the address printed is the one the socket has."""
    import uvicorn

    from train.cli import main

    served: list[int] = []

    def run(server: uvicorn.Server, sockets: list[socket.socket]) -> None:
        (sock,) = sockets  # uvicorn is handed the listening socket: no second bind
        served.append(sock.getsockname()[1])

    monkeypatch.setattr(uvicorn.Server, "run", run)
    # uvicorn's logging setup (logging.config.dictConfig) closes every logging handler the
    # process has, pytest's own among them: the stub server logs nothing, so it is skipped
    monkeypatch.setattr(uvicorn.Config, "configure_logging", lambda self: None)
    assert main(["serve", "--port", "0", "--history-dir", str(tmp_path / "h")]) == 0
    (port,) = served
    assert port != 0 and capsys.readouterr().out.startswith(
        f"sette serve: open http://127.0.0.1:{port}/ to open a private table")


def test_an_offered_model_is_refused_at_a_table_it_was_not_trained_for(
        tmp_path: Path, clock: Clock, tiny_run_config: Callable[..., Path],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The operator offers a 2-seat model (``sette serve --model``): a page that seats it at
    3 seats is told so when it opens the table (400, no table made), not when the
    table is dealt after friends have joined, and in the page's words (a 2-seat table,
    not the command line's ``--seats 2``); at 2 seats it is seated."""
    from agents.learned import TRUST_ENV
    from train.cli import main

    monkeypatch.setenv(TRUST_ENV, "")
    assert main(["train", "player", "--config", str(tiny_run_config(tmp_path)),
                 "--run-dir", str(tmp_path / "run")]) == 0
    model = str(tmp_path / "run" / "player")
    app = create_app(TableRegistry(history_dir=tmp_path, clock=clock, models=(model,)))
    with TestClient(app) as client:
        reply = client.post("/api/tables", json={"seats": ["human", model, "careful"]})
        assert reply.status_code == 400
        assert reply.json()["detail"] == (f"seat 1: model {model} was trained for 2 seats, "
                                          f"not 3; choose a 2-seat table")  # no --seats
        assert client.app.state.tables.tables == {}  # type: ignore[attr-defined]
        assert client.post("/api/tables", json={"seats": ["human", model]}).status_code == 200
