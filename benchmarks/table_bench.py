"""Live-table figures: the fragment bytes each seat receives per move.

python benchmarks/table_bench.py bytes [--games N]
    Whole games of each kind in-process (the guest in seat 0 plays like a medium bot,
    bots fill the other seats), a listener on every seat and one spectator.  Prints
    the fragment HTML each seat receives per move on average, raw and as
    permessage-deflate would carry it (one zlib stream per socket).

Fan-out latency under load is measured by benchmarks/load.py.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

GAMES = {"koa": {"mode": "quick"}, "kowah": {"players": 3}, "koikoi": {"rounds": 12}}


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
    from webapp import create_app, db, schema
    from webapp.play.hub import Hub, Listener
    from webapp.play.store import Seat

    app = create_app({"TESTING": True})
    with app.app_context():
        schema.upgrade(db.engine())
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="what", required=True)
    sizes = sub.add_parser("bytes")
    sizes.add_argument("--games", type=int, default=10)
    args = parser.parse_args()
    print(json.dumps(bytes_per_move(args.games), indent=2))


if __name__ == "__main__":
    main()
