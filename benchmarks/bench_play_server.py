"""Load on ``sette serve``: many private tables at once over loopback (issue 15).

    python benchmarks/bench_play_server.py [--tables 50] [--seconds 30] [--hands 10]
                                           [--seats human,threshold:5.5,random]

Starts ``sette serve`` in a process of its own (``python -m train.cli serve``,
hand histories in a temporary folder), then runs ``--tables`` simulated
players at once, each in its own private table beside agents: it opens the
table over HTTP, plays its seat over the websocket (``stand`` when legal, else
the smallest stake or the first legal action) until the table's hands are
played, and opens the next table, until ``--seconds`` have passed; tables in
play then finish their hands. The Catalan timers run but never fire: each
simulated player answers at once.

Prints hands per second (every seat's hand at every table counted once per
table), the latency of an action (from sending it to receiving the view of
its change, agents' replies included) at p50/p95/p99, and **lost hands**:
every table's hand history is replayed (:func:`play.history.replay`) and must
hold every hand its player saw settled and end on the chips its last view
showed; a hand missing, a replay that differs or a table that stalls counts
as lost. The figures depend on the machine and its load: this prints them,
it asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import numpy as np
from websockets.asyncio.client import connect

from evaluate.arguments import positive_float, positive_int
from play.history import HistoryError, read_history, replay

STALL_S = 15.0
"""A table whose next view takes longer than this is stalled: its hands count as lost."""


@dataclass
class Played:
    """What the simulated players saw."""

    tables: list[tuple[str, int, list[int]]] = field(default_factory=list)
    """Every finished table: its code, the hands its player saw settled, its last chips."""
    stalled: int = 0
    latencies: list[float] = field(default_factory=list)


def _choose(legal: list[dict[str, object]]) -> str:
    names = [str(a["name"]) for a in legal]
    return "stand" if "stand" in names else names[0]


async def _play_table(http: httpx.AsyncClient, ws_base: str, seats: list[str], hands: int,
                      played: Played) -> None:
    reply = await http.post("/api/tables", json={"rules": "catalan", "seats": seats,
                                                 "hands": hands})
    reply.raise_for_status()
    table = reply.json()
    async with connect(f"{ws_base}/ws/{table['code']}", max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "hello", "token": table["token"]}))
        sent_at: float | None = None
        version = -1
        while True:
            message = json.loads(await asyncio.wait_for(ws.recv(), STALL_S))
            if message["type"] == "error":
                raise RuntimeError(f"table {table['code']}: {message['message']}")
            view = message["view"]
            if view is None or view["version"] <= version:
                continue  # the same view again
            version = view["version"]
            if sent_at is not None:
                played.latencies.append(time.perf_counter() - sent_at)
                sent_at = None
            if view["over"]:
                played.tables.append((table["code"], view["hand"],
                                      [s["chips"] for s in view["seats"]]))
                return
            if view["legal"]:
                sent_at = time.perf_counter()
                await ws.send(json.dumps({"type": "act", "action": _choose(view["legal"])}))


async def _player(http: httpx.AsyncClient, ws_base: str, seats: list[str], hands: int,
                  until: float, played: Played) -> None:
    while time.perf_counter() < until:
        try:
            await _play_table(http, ws_base, seats, hands, played)
        except (asyncio.TimeoutError, TimeoutError):
            played.stalled += 1


async def _load(base: str, tables: int, seconds: float, seats: list[str], hands: int
                ) -> tuple[Played, float]:
    played = Played()
    limits = httpx.Limits(max_connections=tables + 10)
    async with httpx.AsyncClient(base_url=base, limits=limits, timeout=STALL_S) as http:
        start = time.perf_counter()
        await asyncio.gather(*(_player(http, "ws" + base[4:], seats, hands, start + seconds,
                                       played) for _ in range(tables)))
        return played, time.perf_counter() - start


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _wait_ready(base: str, server: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"sette serve exited with status {server.returncode}")
        try:
            if httpx.get(base + "/api/options", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    raise SystemExit("sette serve did not answer within 60 s")


def _lost_hands(played: Played, history_dir: Path) -> int:
    """Hands the players saw settled that the histories do not replay to the same chips."""
    lost = 0
    for code, hands, chips in played.tables:
        path = history_dir / f"{code}.jsonl"
        try:
            finished = sum(1 for line in read_history(path) if line["finished"])
            ok = replay(path) == chips
        except HistoryError:
            finished, ok = 0, False
        lost += hands if not ok else max(0, hands - finished)
    return lost


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=positive_int, default=50, help="tables in play at once")
    parser.add_argument("--seconds", type=positive_float, default=30.0,
                        help="open new tables for this long")
    parser.add_argument("--hands", type=positive_int, default=10, help="hands per table")
    parser.add_argument("--seats", default="human,threshold:5.5,random",
                        help="one table's seats: 'human' is the simulated player (the first)")
    args = parser.parse_args(argv)
    seats = [s.strip() for s in args.seats.split(",")]
    if seats.count("human") != 1:
        parser.error(f"--seats {args.seats!r}: exactly one seat 'human' (the simulated player)")
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as folder:
        history_dir = Path(folder)
        server = subprocess.Popen(
            [sys.executable, "-m", "train.cli", "serve", "--port", str(port),
             "--history-dir", folder, "--max-tables", str(100_000)],
            stdout=subprocess.DEVNULL, env={**os.environ, "PYTHONWARNINGS": "ignore"})
        try:
            _wait_ready(base, server)
            played, wall = asyncio.run(_load(base, args.tables, args.seconds, seats,
                                             args.hands))
        finally:
            server.terminate()
            server.wait(timeout=30)
        lost = _lost_hands(played, history_dir)
    hands = sum(h for _code, h, _chips in played.tables)
    latency = np.asarray(played.latencies) * 1000.0
    p50, p95, p99 = np.percentile(latency, [50, 95, 99]) if latency.size else (0.0, 0.0, 0.0)
    print(f"sette serve on loopback: {args.tables} tables at once for {args.seconds:g} s, "
          f"seats {','.join(seats)}, {args.hands} hands a table")
    print(f"  {len(played.tables)} tables played, {hands} hands in {wall:.1f} s: "
          f"{hands / wall:,.0f} hands/s, {len(latency) / wall:,.0f} actions/s")
    print(f"  action latency: p50 {p50:.1f} ms, p95 {p95:.1f} ms, p99 {p99:.1f} ms "
          f"({len(latency)} actions)")
    print(f"  lost hands: {lost}  (stalled tables: {played.stalled})")
    return 1 if lost or played.stalled else 0


if __name__ == "__main__":
    sys.exit(main())
