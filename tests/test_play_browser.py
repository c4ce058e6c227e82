"""The browser table in a real browser: the system's Chromium driven by Playwright (issue 15).

A real server (uvicorn on a free loopback port, in a thread) and two browser
contexts — two people who share nothing but the links: one opens a private
table in the page, the other joins it by its link, and they play against an
agent with the Catalan app's timers running. One closes the tab and comes
back through their own seat link, in a fresh context (no cookie or storage
carries the seat: the link alone does). Each page shows its own face-down card
and never the other's — neither drawn nor anywhere on its socket — and the
table's hand history replays to the chips the pages show.

Playwright drives the browser the system installed (``/usr/bin/chromium``,
Debian's package); it never downloads one. Without that browser the test is
skipped, unless ``SETTE_REQUIRE_BROWSER=1`` (CI sets it): then it fails.
``SETTE_BROWSER_SCREENSHOT=FILE`` saves a screenshot of a hand in play.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = os.environ.get("SETTE_CHROMIUM", "/usr/bin/chromium")
REQUIRED = os.environ.get("SETTE_REQUIRE_BROWSER") == "1"


def _missing() -> str | None:
    """Why the browser test cannot run here, or None."""
    if not (Path(CHROMIUM).exists() or shutil.which(CHROMIUM)):
        return f"no Chromium at {CHROMIUM} (apt-get install chromium, or set SETTE_CHROMIUM)"
    for module in ("playwright", "uvicorn", "fastapi"):
        try:
            __import__(module)
        except ImportError:
            return f"{module} is not installed (the dev and play extras)"
    return None


MISSING = _missing()
if MISSING is not None:
    if REQUIRED:
        pytest.fail(f"SETTE_REQUIRE_BROWSER=1 but {MISSING}", pytrace=False)
    pytest.skip(MISSING, allow_module_level=True)

import uvicorn  # noqa: E402
from playwright.sync_api import Browser, Page, expect, sync_playwright  # noqa: E402

from envs.cards import card_name  # noqa: E402
from play.history import replay  # noqa: E402
from play.server import create_app  # noqa: E402
from play.tables import PrivateTable, TableRegistry  # noqa: E402

WAIT_MS = 20_000
"""How long a page may take to show a change (the machine may be loaded)."""


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[str, TableRegistry]]:
    """``sette serve``'s app under uvicorn in a thread: its address and its tables."""
    registry = TableRegistry(history_dir=tmp_path, seed=7)
    port = _free_port()
    config = uvicorn.Config(create_app(registry), host="127.0.0.1", port=port,
                            log_level="warning")
    uv = uvicorn.Server(config)
    thread = threading.Thread(target=uv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 15
    while not uv.started:
        assert thread.is_alive() and time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.02)
    yield f"http://127.0.0.1:{port}", registry
    uv.should_exit = True
    thread.join(timeout=10)


@pytest.fixture
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, headless=True)
        yield chromium
        chromium.close()


def _frames(page: Page) -> list[str]:
    """Every websocket message the page receives, collected as it arrives."""
    frames: list[str] = []

    def watch(ws: Any) -> None:
        ws.on("framereceived", lambda payload: frames.append(str(payload)))

    page.on("websocket", watch)
    return frames


def _wait(predicate: Any, what: str, seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while not predicate():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.02)


def _play_turn(table: PrivateTable, pages: dict[int, Page], prefer: str = "stand") -> None:
    """The seat to act clicks ``prefer`` if it is a button, else the first (smallest) one."""
    session = table.session
    assert session is not None
    seat, version = session.actor, session.version
    assert seat is not None
    page = pages[seat]
    shown(page, version)
    names = page.eval_on_selector_all("#actions button", "bs => bs.map(b => b.dataset.action)")
    page.click(f'#actions button[data-action="{prefer if prefer in names else names[0]}"]')
    # The server pushes a view once the action and the agents' replies are all played, so
    # when the page draws a later version the table is still until the next person acts.
    page.wait_for_function(f"Number(document.getElementById('seats').dataset.version) > "
                           f"{version}", timeout=WAIT_MS)


def shown(page: Page, version: int) -> None:
    """Wait until ``page`` draws the session's view of change ``version``."""
    page.wait_for_selector(f'#seats[data-version="{version}"]', state="attached",
                           timeout=WAIT_MS)


def _hidden_card(table: PrivateTable, seat: int) -> str | None:
    """The name of ``seat``'s face-down card now, read from the engine (never from a page)."""
    assert table.session is not None
    engine = table.session.engine
    for hand in [engine.bank_hand] if seat == engine.bank else engine.hands[seat]:
        for card, up in zip(hand.cards, hand.face_up):
            if not up:
                return card_name(card)
    return None


def test_two_people_play_a_private_table_in_chromium(server: tuple[str, TableRegistry],
                                                     browser: Browser) -> None:
    base, registry = server
    alice = browser.new_context().new_page()
    alice_frames = _frames(alice)
    alice.goto(base + "/")
    alice.wait_for_selector("#seat-list li >> nth=1")
    alice.select_option("#rules", "catalan")
    alice.fill("#hands", "2")
    alice.click("#add-seat")  # seat 2 ...
    alice.select_option("#seat-list li >> nth=1 >> select", "human")  # seat 1: a friend
    alice.fill("#seat-list li >> nth=2 >> input", "threshold:5.5")  # seat 2: an agent
    alice.click("#open-table")
    expect(alice.locator("#hand-line")).to_contain_text("waiting for players: free seats 1")
    invite = alice.input_value("#invite-link")
    (table,) = registry.tables.values()
    assert invite == f"{base}/table/{table.code}" and not table.started

    bob = browser.new_context().new_page()
    bob_frames = _frames(bob)
    bob.goto(invite)
    bob.click("#take-seat")
    bob.wait_for_selector("#table:not([hidden])", timeout=WAIT_MS)
    bob_link = bob.input_value("#seat-link")
    assert bob_link.startswith(invite + "#") and bob_link != alice.input_value("#seat-link")
    _wait(lambda: table.session is not None, "the table to deal")
    session = table.session
    assert session is not None
    pages = {0: alice, 1: bob}

    # hand 1: every player bets; then each sees its own face-down card and the other's back
    while session.phase_name() == "bet":
        _play_turn(table, pages)
    for seat, page in pages.items():
        shown(page, session.version)
        other = 1 - seat
        mine, theirs = _hidden_card(table, seat), _hidden_card(table, other)
        assert mine is not None and theirs is not None
        if seat != session.engine.bank:  # the bank does not see its own card before its turn
            own = f'.seat[data-seat="{seat}"] .card.own-hidden[data-card="{mine}"]'
            page.wait_for_selector(own, timeout=WAIT_MS)
        assert page.locator(f'.seat[data-seat="{other}"] .card').evaluate_all(
            "cs => cs.map(c => c.dataset.card)") == ["back"]
        assert theirs not in page.content()
        assert page.locator(f'.seat[data-seat="{seat}"] .badge.you').count() == 1
        assert re.fullmatch(r"(your turn|seat \d): \d+ s to act", page.inner_text("#timer"))
    assert not any(f'"{_hidden_card(table, 1)}"' in frame for frame in alice_frames)
    assert not any(f'"{_hidden_card(table, 0)}"' in frame for frame in bob_frames)

    # Bob closes his tab; Alice plays on; Bob comes back through his seat link alone
    bob.context.close()
    while session.actor == 0:
        _play_turn(table, pages)
    bob = browser.new_context().new_page()
    bob.goto(bob_link)
    bob.wait_for_selector('.seat[data-seat="1"] .badge.you', timeout=WAIT_MS)
    pages[1] = bob
    screenshot = os.environ.get("SETTE_BROWSER_SCREENSHOT")
    while not session.over:
        if screenshot and session.actor == 0 and session.phase_name() == "play" and (
                session.view(0)["last_settlement"]):
            shown(alice, session.version)  # a hand in play, the last one's lines below it
            alice.screenshot(path=screenshot, full_page=True)
            screenshot = None
        _play_turn(table, pages)
    for page in pages.values():
        shown(page, session.version)
        expect(page.locator("#actions")).to_contain_text("the session is over")
        assert page.locator(".settlement li").count() == 3  # a line per seat, saying why
    chips = [int(alice.inner_text(f'.seat[data-seat="{s}"] .chips').split()[1])
             for s in range(3)]
    assert replay(registry.history_dir / f"{table.code}.jsonl") == chips  # type: ignore[operator]


def test_the_join_form_takes_a_code_out_of_a_pasted_link(server: tuple[str, TableRegistry],
                                                         browser: Browser) -> None:
    """*Join a table* takes the code, a pasted invite link or a seat link; an empty or
    garbled one is a message on the page, never a trip to a raw 404. A table without
    timers offers no *Deal now* (nothing would play the free seat) and says why."""
    base, _registry = server
    page = browser.new_context().new_page()
    opened = page.request.post(base + "/api/tables", data={
        "seats": ["human", "human", "careful"], "timers": False}).json()
    page.goto(base + "/")
    page.wait_for_selector("#seat-list li >> nth=1")
    for typed, said in [("", "Type the table code, or paste the invite link, to join a table."),
                        ("http://example.org/", "“http://example.org/” is neither a table "
                                                "code nor an invite link: a code is the part "
                                                "of the invite link after /table/.")]:
        page.fill("#join-code", typed)
        page.click("#join-code-form button")
        expect(page.locator("#message")).to_have_text(said)
        assert page.url == base + "/"
    page.fill("#join-code", f"  {base}/table/{opened['code']}  ")
    page.click("#join-code-form button")
    expect(page.locator("#join-table-code")).to_have_text(opened["code"])
    assert page.url == f"{base}/table/{opened['code']}"
    expect(page.locator("#join-seats")).to_contain_text("seat 1: free")

    page.goto(base + "/")
    page.fill("#join-code", base + opened["seat_link"])  # a seat link rejoins its seat
    page.click("#join-code-form button")
    expect(page.locator("#hand-line")).to_contain_text("waiting for players: free seats 1")
    assert page.url == base + opened["seat_link"]
    expect(page.locator("#no-timers")).to_be_visible()
    expect(page.locator("#start")).to_be_hidden()
