"""Live-table figures: the fragment bytes each seat receives per move.

python benchmarks/table_bench.py bytes [--games N]
    Whole games of each kind in-process (the guest in seat 0 plays like a medium bot,
    bots fill the other seats), a listener on every seat and one spectator.  Prints
    the fragment HTML each seat receives per move on average, raw and as
    permessage-deflate would carry it (one zlib stream per socket).

python benchmarks/table_bench.py spectators [--watchers 300] [--moves 60]
    One Koa table, the guest in seat 0 playing against bots, first with one spectator
    socket, then with ``--watchers`` of them: the CPU time per move (rendering and
    sending to every listener), in-process.

python benchmarks/table_bench.py people [--game koa] [--moves 2000] [--deflate] [--profile N]
    Tables of four people (Kowah and Koi-Koi: as many as they seat), one socket each,
    playing random legal moves until ``--moves`` are applied, in-process: the CPU time
    per applied move with every seat listening (the store's write, rendering, diffing
    and sending), as benchmarks/load.py's worker spends it without the sockets' own
    work; ``--deflate`` adds permessage-deflate's, which browsers ask for and the load
    driver does not.  ``--profile N`` prints the N costliest functions (cProfile, cumulative).

Fan-out latency under load is measured by benchmarks/load.py.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

if TYPE_CHECKING:
    from webapp.play.hub import Hub

GAMES: dict[str, dict[str, Any]] = {
    "koa": {"mode": "quick"},
    "kowah": {"players": 3},
    "koikoi": {"rounds": 12},
}


class Socket:
    """Counts what one listener is sent, raw and (unless ``deflate`` is off) deflated with
    context takeover, as a browser's socket would carry it."""

    def __init__(self, deflate: bool = True) -> None:
        self.raw = 0
        self.wire = 0
        self.deflate = zlib.compressobj(6, zlib.DEFLATED, -15) if deflate else None

    def send(self, data: str) -> None:
        encoded = data.encode()
        self.raw += len(encoded)
        if self.deflate is not None:
            deflated = self.deflate.compress(encoded) + self.deflate.flush(zlib.Z_SYNC_FLUSH)
            self.wire += len(deflated)

    def close(self, reason: int = 1000, message: str | None = None) -> None:
        pass


def bench_hub() -> tuple[Hub, list[Callable[[], None]]]:
    """An in-process hub whose timers run only when the benchmark pops them: returns
    the hub and the queue of its pending timers."""
    from webapp import create_app, db, schema
    from webapp.config import TestConfig

    app = create_app(TestConfig(tempfile.mkdtemp()))
    with app.app_context():
        schema.upgrade(db.engine())
    hub: Hub = app.services.hub
    queue: list[Callable[[], None]] = []

    class Handle:
        def __init__(self, callback: Callable[[], None]) -> None:
            self.callback, self.live = callback, True

        def cancel(self) -> None:
            self.live = False

    def schedule(_delay: float, callback: Callable[[], None]) -> Handle:
        handle = Handle(callback)

        def run() -> None:
            if handle.live:
                handle.callback()

        queue.append(run)
        return handle

    hub.scheduler = schedule
    return hub, queue


def bytes_per_move(games: int) -> dict[str, Any]:
    from webapp.channels import Subscriber
    from webapp.play.store import Seat

    hub, queue = bench_hub()
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
            session.join(Subscriber(player, 0, "id"))
            session.join(Subscriber(spectator, None, "id"))
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


def cpu_per_move(watchers: int, moves: int) -> dict[str, Any]:
    """CPU milliseconds per move on one Koa table with 1 and with ``watchers`` spectators."""
    from webapp.channels import Subscriber
    from webapp.play.store import Seat

    hub, queue = bench_hub()
    report: dict[str, Any] = {}
    for count in (1, watchers):
        seats = [Seat("human", player="g-bench")] + [
            Seat("bot", level="medium", name=f"Bot {n}") for n in range(1, 4)
        ]
        session = hub.create("koa", {"mode": "quick"}, seats, owner="g-bench", seed=7)
        session.join(Subscriber(Socket(), 0, "id"))
        for _ in range(count):
            session.join(Subscriber(Socket(), None, "id"))
        rng = random.Random(7)
        guest = session.game.bots["medium"]
        started, played = time.process_time(), 0
        while not session.finished and played < moves:
            if session.game.to_act(session.state) == 0:
                action = guest(session.game.view(session.state, 0), rng)
                session.submit(0, str(action), session.version)
            else:
                queue.pop(0)()
            played += 1
        queue.clear()
        report[f"{count}_spectators_cpu_ms_per_move"] = round(
            (time.process_time() - started) * 1000 / played, 2
        )
    return report


#: Moves played before the timed ones (see people_cpu).
WARM_UP_MOVES = 300


def people_cpu(game: str, moves: int, deflate: bool) -> dict[str, Any]:
    """CPU milliseconds per applied move at tables where every seat is a listening person."""
    from webapp.channels import Subscriber
    from webapp.play.store import Seat

    hub, queue = bench_hub()
    count = {"koa": 4, "kowah": 4, "koikoi": 2}[game]
    options = {**GAMES[game], **({"players": 4} if game == "kowah" else {})}

    def play(moves: int, first_seed: int) -> tuple[int, int, float]:
        rng = random.Random(first_seed)
        played = tables = 0
        cpu = 0.0
        while played < moves:
            seats = [Seat("human", player=f"g-bench-{k}") for k in range(count)]
            session = hub.create(game, options, seats, owner="g-bench-0", seed=first_seed + tables)
            for listener in range(count):
                session.join(Subscriber(Socket(deflate), listener, "en"))
            tables += 1
            started = time.process_time()
            while not session.finished and played < moves:
                acting = session.game.to_act(session.state)
                assert acting is not None  # the match goes on
                legal = sorted(str(action) for action in session.view(acting).legal)
                session.submit(acting, rng.choice(legal), session.version)
                played += 1
            cpu += time.process_time() - started
            queue.clear()
        return played, tables, cpu

    # The first moves of a process import modules and compile templates (a second of
    # CPU): a running server has done that long before, so they are not counted.
    play(WARM_UP_MOVES, 1_000_000)
    played, tables, cpu = play(moves, 0)
    return {
        "game": game,
        "listeners": count,
        "deflate": deflate,
        "tables": tables,
        "moves": played,
        "cpu_ms_per_move": round(cpu * 1000 / played, 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="what", required=True)
    sizes = sub.add_parser("bytes")
    sizes.add_argument("--games", type=int, default=10)
    crowd = sub.add_parser("spectators")
    crowd.add_argument("--watchers", type=int, default=300)
    crowd.add_argument("--moves", type=int, default=60)
    people = sub.add_parser("people")
    people.add_argument("--game", default="koa", choices=tuple(GAMES))
    people.add_argument("--moves", type=int, default=2000)
    people.add_argument("--profile", type=int, default=0)
    people.add_argument("--deflate", action="store_true")
    args = parser.parse_args()
    if args.what == "bytes":
        print(json.dumps(bytes_per_move(args.games), indent=2))
    elif args.what == "people" and args.profile:
        import cProfile
        import pstats

        profile = cProfile.Profile()
        report = profile.runcall(people_cpu, args.game, args.moves, args.deflate)
        pstats.Stats(profile).sort_stats("cumulative").print_stats(args.profile)
        print(json.dumps(report, indent=2))
    elif args.what == "people":
        print(json.dumps(people_cpu(args.game, args.moves, args.deflate), indent=2))
    else:
        print(json.dumps(cpu_per_move(args.watchers, args.moves), indent=2))


if __name__ == "__main__":
    main()
