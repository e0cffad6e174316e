"""Live-table figures: fragment bytes per move, and fan-out latency under load.

python benchmarks/table_bench.py bytes [--games N]
    Whole games of each kind in-process (the guest in seat 0 plays like a medium bot,
    bots fill the other seats), a listener on every seat and one spectator.  Prints
    the fragment HTML each seat receives per move on average, raw and as
    permessage-deflate would carry it (one zlib stream per socket).

python benchmarks/table_bench.py load [--tables 100] [--seconds 60]
    Starts the site under gunicorn + gevent (one worker), opens TABLES tables of each
    game in turn, a WebSocket client per table playing the guest's seat, bots in the
    other seats, and reports the server's time from an action arriving to every
    seat's fragments sent (p50/p95/p99), the clients' time from sending a move to
    seeing it applied, and moves per second.  Loopback only, bounded in time.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

GAMES = {"koa": {"mode": "quick"}, "kowah": {"players": 3}, "koikoi": {"rounds": 12}}


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


class Socket:
    """Counts what one listener is sent, raw and deflated with context takeover."""

    def __init__(self) -> None:
        self.raw = 0
        self.wire = 0
        self.deflate = zlib.compressobj(6, zlib.DEFLATED, -15)

    def send(self, data: str) -> None:
        encoded = data.encode()
        self.raw += len(encoded)
        self.wire += len(self.deflate.compress(encoded) + self.deflate.flush(zlib.Z_SYNC_FLUSH))

    def close(self, reason: int = 1000, message: str | None = None) -> None:
        pass


def bytes_per_move(games: int) -> dict[str, Any]:
    os.environ.setdefault("LAPAU_INSTANCE_PATH", tempfile.mkdtemp())
    from webapp import create_app
    from webapp.play.hub import Hub, Listener
    from webapp.play.store import Seat

    app = create_app({"TESTING": True})
    hub: Hub = app.extensions["lapau.hub"]
    queue: list[Callable[[], None]] = []

    class Handle:
        def __init__(self, callback: Callable[[], None]) -> None:
            self.callback, self.live = callback, True

        def cancel(self) -> None:
            self.live = False

    def schedule(_delay: float, callback: Callable[[], None]) -> Handle:
        handle = Handle(callback)
        queue.append(lambda: handle.live and handle.callback())  # type: ignore[func-returns-value]
        return handle

    hub.scheduler = schedule  # type: ignore[assignment]
    report: dict[str, Any] = {}
    for name, options in GAMES.items():
        seats_count = {"koa": 4, "kowah": options.get("players", 3), "koikoi": 2}[name]
        player_raw = player_wire = spectator_raw = moves = 0
        for seed in range(games):
            seats = [Seat("human", player="g-bench")] + [
                Seat("bot", level="medium", name=f"Bot {n}") for n in range(1, seats_count)
            ]
            session = hub.create(name, options, seats, owner="g-bench", seed=seed)
            player, spectator = Socket(), Socket()
            session.join(Listener(player, 0, "id"))
            session.join(Listener(spectator, None, "id"))
            player.raw = player.wire = spectator.raw = 0  # count moves, not the first snapshot
            rng = random.Random(seed)
            guest = session.game.bots["medium"]
            while not session.finished:
                if session.game.to_act(session.state) == 0:
                    action = guest(session.game.view(session.state, 0), rng)
                    session.submit(0, str(action), session.version)
                else:
                    queue.pop(0)()
            queue.clear()
            moves += session.version
            player_raw += player.raw
            player_wire += player.wire
            spectator_raw += spectator.raw
        report[name] = {
            "games": games,
            "moves": moves,
            "player_bytes_per_move": round(player_raw / moves),
            "player_deflated_bytes_per_move": round(player_wire / moves),
            "spectator_bytes_per_move": round(spectator_raw / moves),
        }
    return report


def load(tables: int, seconds: float) -> dict[str, Any]:
    import http.cookiejar
    import urllib.parse
    import urllib.request

    import websocket

    instance = Path(tempfile.mkdtemp())
    timings = instance / "timings.txt"
    port = 18000 + os.getpid() % 1000
    env = {
        **os.environ,
        "LAPAU_INSTANCE_PATH": str(instance),
        "LAPAU_BOT_DELAY": "0.3",
        "LAPAU_TURN_SECONDS": "30",
        "LAPAU_TIMINGS": str(timings),
        # Each client says who it is in X-Forwarded-For, as players behind a proxy would,
        # so the per-address limit on opening tables counts each player on their own.
        "LAPAU_PROXIES": "1",
    }
    gunicorn = Path(sys.executable).with_name("gunicorn")
    server = subprocess.Popen(
        [str(gunicorn), "--worker-class", "gevent", "--workers", "1"]
        + ["--worker-connections", "2000", "--bind", f"127.0.0.1:{port}", "webapp:create_app()"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    for _ in range(100):
        try:
            urllib.request.urlopen(base + "/id/", timeout=1).close()
            break
        except OSError:
            time.sleep(0.1)
    stop = time.monotonic() + seconds
    client_latency: list[float] = []
    moves = [0]
    lock = threading.Lock()

    def player(index: int) -> None:
        name = list(GAMES)[index % len(GAMES)]
        option, value = next(iter(GAMES[name].items()))
        jar = http.cookiejar.CookieJar()
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
        opener.addheaders = [("X-Forwarded-For", f"198.51.100.{index % 250 + 1}")]
        with opener.open(f"{base}/id/play/{name}") as response:
            page = response.read().decode()
        token = re.search(r'name="csrf_token" value="([^"]+)"', page)
        fields = {option: value, "level": "easy", "csrf_token": token.group(1) if token else ""}
        with opener.open(
            f"{base}/id/play/{name}", data=urllib.parse.urlencode(fields).encode()
        ) as response:
            table_id = response.url.rsplit("/", 1)[1]
        ws = websocket.create_connection(
            f"ws://127.0.0.1:{port}/ws/table/{table_id}?lang=id",
            origin=base,
            cookie="; ".join(f"{c.name}={c.value}" for c in jar),
            timeout=10,
        )
        rng = random.Random(index)
        version, mine, buttons = -1, False, []
        sent_at: float | None = None
        while time.monotonic() < stop:
            try:
                message = ws.recv()
            except websocket.WebSocketTimeoutException:
                continue
            if found := re.search(r'id="version" name="v" value="(\d+)"', message):
                new_version = int(found.group(1))
                if sent_at is not None and new_version > version:
                    with lock:
                        client_latency.append((time.perf_counter() - sent_at) * 1000)
                        moves[0] += 1
                    sent_at = None
                version = new_version
                mine = 'data-turn="1"' in message
            if 'id="hand"' in message or 'id="prompt"' in message:
                buttons = re.findall(r'name="a" value="([^"]+)"', message)
            if "Game over" in message or 'class="match-over"' in message:
                break
            if mine and buttons and sent_at is None:
                sent_at = time.perf_counter()
                ws.send(json.dumps({"a": rng.choice(buttons), "v": str(version)}))
            elif 'role="alert">' in message and not message.endswith('role="alert"></div>'):
                sent_at = None  # refused: try another button on the next message
                if mine and buttons:
                    sent_at = time.perf_counter()
                    ws.send(json.dumps({"a": rng.choice(buttons), "v": str(version)}))
        ws.close()

    threads = [threading.Thread(target=player, args=(i,), daemon=True) for i in range(tables)]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=seconds + 30)
    elapsed = time.monotonic() - started
    server.terminate()
    server.wait(timeout=30)
    server_ms = [float(line) for line in timings.read_text().split()] if timings.exists() else []
    return {
        "tables": tables,
        "seconds": round(elapsed, 1),
        "actions_applied": len(server_ms),
        "actions_per_second": round(len(server_ms) / elapsed, 1),
        "fanout_ms": {
            "p50": round(percentile(server_ms, 0.50), 2),
            "p95": round(percentile(server_ms, 0.95), 2),
            "p99": round(percentile(server_ms, 0.99), 2),
            "mean": round(statistics.fmean(server_ms), 2) if server_ms else 0,
        },
        "client_move_ms": {
            "moves": moves[0],
            "p50": round(percentile(client_latency, 0.50), 1),
            "p95": round(percentile(client_latency, 0.95), 1),
            "p99": round(percentile(client_latency, 0.99), 1),
        },
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="what", required=True)
    sizes = sub.add_parser("bytes")
    sizes.add_argument("--games", type=int, default=10)
    loaded = sub.add_parser("load")
    loaded.add_argument("--tables", type=int, default=100)
    loaded.add_argument("--seconds", type=float, default=60)
    args = parser.parse_args()
    if args.what == "bytes":
        print(json.dumps(bytes_per_move(args.games), indent=2))
    else:
        print(json.dumps(load(args.tables, args.seconds), indent=2))


if __name__ == "__main__":
    main()
