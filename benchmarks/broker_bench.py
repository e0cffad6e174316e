"""The broker between processes: what one message costs and how long it takes to reach
another process's handler, through a real Redis server.

python benchmarks/broker_bench.py [--messages 5000] [--rate 1000]

Starts a throwaway ``redis-server`` (tests/redis.py) and two :class:`RedisBroker` in this
process (each with its own connections and reader thread, as two workers have); the first
publishes a table-sized message (``table:<id>`` and a version) MESSAGES times at about
RATE a second, the second's handler notes when each arrives.  Prints one JSON object:
publish-to-handler ms p50/p95/p99/max, and this process's CPU ms per message (publishing
and reading both: a worker pays one side for each message it sends and the other for
each it receives).
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks._timing import percentile  # noqa: E402
from tests.redis import RedisServer  # noqa: E402
from webapp.redis_broker import RedisBroker, connect  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=5000)
    parser.add_argument("--rate", type=float, default=1000.0)
    args = parser.parse_args()
    with RedisServer() as server:
        sender, receiver = RedisBroker(connect(server.url)), RedisBroker(connect(server.url))
        sent: dict[int, float] = {}
        took: list[float] = []
        done = threading.Event()

        def heard(_topic: str, version: object) -> None:
            assert isinstance(version, int)
            took.append((time.perf_counter() - sent[version]) * 1000)
            if len(took) == args.messages:
                done.set()

        receiver.subscribe("table", heard)
        assert receiver.listening.wait(5)
        cpu = time.process_time()
        for version in range(args.messages):
            sent[version] = time.perf_counter()
            sender.publish("table:AbCdEfGhIj", version)
            time.sleep(1 / args.rate)
        finished = done.wait(30)
        cpu = time.process_time() - cpu
        sender.close()
        receiver.close()
    print(
        json.dumps(
            {
                "messages": args.messages,
                "received": len(took),
                "all": finished,
                "ms_p50": round(percentile(took, 0.5), 3),
                "ms_p95": round(percentile(took, 0.95), 3),
                "ms_p99": round(percentile(took, 0.99), 3),
                "ms_max": round(max(took, default=0.0), 3),
                "cpu_ms_per_message": round(cpu * 1000 / args.messages, 3),
            }
        )
    )


if __name__ == "__main__":
    main()
