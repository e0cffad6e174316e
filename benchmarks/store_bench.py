"""The per-move write on SQLite and on PostgreSQL, in the same run.

python benchmarks/store_bench.py [--tables 20] [--moves 200] [--throwaway] [--gevent]

Times :meth:`Store.append` (what every move of every table waits for before the table
adopts it) through the app's own engine settings (``webapp.db.make_engine``): TABLES
tables, MOVES moves each, appended in turn as tables interleave on a live server.
SQLite is a file in a temporary folder (WAL, ``synchronous=NORMAL``, as the app sets
it); PostgreSQL is a throwaway server on loopback started by tests/postgres.py, with
PostgreSQL's defaults (every commit flushed to disk) unless ``--throwaway`` turns the
flushes off as the tests do.  On PostgreSQL a move is one statement (an insert in a WITH
and the table's update, committed by itself); the run also times the same write as two
statements in a transaction, as SQLite takes it, for comparison.  ``--gevent`` runs it
monkey-patched, as the gevent worker does: there every round trip to the server is a
switch to gevent's hub and back.  Prints one JSON object per database and way: wall-clock
ms per write p50/p99/max and the benchmark process's own CPU ms per write.
"""

from __future__ import annotations

import sys

if "--gevent" in sys.argv:
    from gevent import monkey

    monkey.patch_all()

import argparse
import json
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks._timing import percentile  # noqa: E402
from tests.postgres import Cluster  # noqa: E402
from webapp import schema  # noqa: E402
from webapp.db import make_engine  # noqa: E402
from webapp.play.store import Seat, Store  # noqa: E402


def measure(
    url: str, tables: int, moves: int, one_statement: bool = True, run: int = 0
) -> dict[str, Any]:
    engine = make_engine(url)
    schema.upgrade(engine)
    store = Store(engine)
    store.one_statement &= one_statement
    seats = [Seat("human", player=f"g-{n}") for n in range(4)]
    ids = [f"bench{run}-{n:04d}" for n in range(tables)]
    for table_id in ids:
        store.create(table_id, "koa", 1, {"mode": "quick"}, seats, "g-0")
    times: list[float] = []
    cpu_began = time.process_time()
    for seq in range(moves):
        for table_id in ids:
            began = time.perf_counter()
            store.append(table_id, seq, "play oros-5", seq % 4)
            times.append((time.perf_counter() - began) * 1000)
    cpu = (time.process_time() - cpu_began) * 1000 / len(times)
    engine.dispose()
    return {
        "database": url.split(":", 1)[0],
        "statements": 1 if store.one_statement else 2,
        "writes": len(times),
        "ms_p50": round(percentile(times, 0.50), 3),
        "ms_p99": round(percentile(times, 0.99), 3),
        "ms_max": round(max(times), 3),
        "client_cpu_ms_per_write": round(cpu, 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--moves", type=int, default=200)
    parser.add_argument("--throwaway", action="store_true", help="PostgreSQL without fsync")
    parser.add_argument("--gevent", action="store_true", help="monkey-patched, as the worker")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        print(json.dumps(measure(f"sqlite:///{folder}/bench.sqlite", args.tables, args.moves)))
    with Cluster(durable=not args.throwaway) as cluster:
        url = cluster.create_database("bench")
        for run, one_statement in enumerate((True, False, True, False)):  # interleaved
            postgresql = measure(url, args.tables, args.moves, one_statement, run)
            print(json.dumps({**postgresql, "durable": not args.throwaway}))


if __name__ == "__main__":
    main()
