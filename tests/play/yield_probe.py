"""Run as gunicorn's gevent worker runs the app: does a slow query stall the others?

``python -m tests.play.yield_probe DATABASE_URL`` patches the standard library with
gevent first (as the worker does before it loads the app), builds the app on that
database, and lets a table of fast bots play while one greenlet runs
``SELECT pg_sleep(1)`` through the app's engine and another ticks every 10 ms.  Prints
one JSON object: the sleep's length, the longest gap between ticks, and how many moves
the table stored while the query slept.
"""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
import time

TICK = 0.01


def main(url: str) -> dict[str, float]:
    # Imported only once gevent has patched the standard library (see the end): psycopg
    # chooses how it waits when it is first imported.  (pytest imports this module too.)
    import gevent
    from sqlalchemy import text

    from tests.databases import migrated
    from webapp import create_app
    from webapp.config import TestConfig
    from webapp.play.hub import Hub
    from webapp.play.store import Seat

    database = {"DATABASE_URL": migrated(url)}
    app = create_app(TestConfig(tempfile.mkdtemp(), database, BOT_DELAY=0.02))
    hub: Hub = app.services.hub
    bots = [Seat("bot", level="easy", name=f"Bot {n}") for n in range(4)]
    table = hub.create("koa", {"mode": "full"}, bots, owner="g-probe", seed=3)
    gaps: list[float] = []
    running = True

    def tick() -> None:
        last = time.monotonic()
        while running:
            gevent.sleep(TICK)
            now = time.monotonic()
            gaps.append(now - last)
            last = now

    def slow_query() -> float:
        began = time.monotonic()
        with app.services.database.connect() as connection:
            connection.execute(text("SELECT pg_sleep(1)"))
        return time.monotonic() - began

    ticker = gevent.spawn(tick)
    gevent.sleep(0.2)  # the table is under way
    before = table.version
    slept = gevent.spawn(slow_query).get()
    during = table.version - before
    running = False
    ticker.join()
    hub.shutdown()
    app.services.database.dispose()
    shutil.rmtree(app.instance_path)
    return {"slept": slept, "max_gap": max(gaps), "moves_during_sleep": during}


if __name__ == "__main__":
    from gevent import monkey

    monkey.patch_all()
    print(json.dumps(main(sys.argv[1])))
