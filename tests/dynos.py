"""Two servers of the site as two dynos run it: separate gunicorn processes on two ports,
over one PostgreSQL database and one Redis, sharing a secret key (a sign-in on one is
valid on the other) and trusting one proxy (each test client says its own address).

    with two_dynos(tmp_path, postgres, redis_server, "koa_room") as (a, b):
        ...  # a.url, b.url: LiveServers (tests/conftest.py); a.query(...) reads the database

Used by tests/test_two_servers.py; a test marked ``live`` may start its own pair with
other settings (``env``: quick bots, a table seed).
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

from tests.conftest import LiveServer
from tests.postgres import Cluster
from tests.redis import RedisServer


@contextmanager
def two_dynos(
    root: Path,
    cluster: Cluster,
    redis_server: RedisServer,
    database: str,
    env: dict[str, str] | None = None,
) -> Iterator[tuple[LiveServer, LiveServer]]:
    """Start dyno ``a`` and dyno ``b`` over a new database ``database`` of ``cluster``
    and an emptied ``redis_server``; stop both afterwards."""
    url = cluster.create_database(database)
    redis_server.flush()
    shared = {
        "REDIS_URL": redis_server.url,
        "SECRET_KEY": secrets.token_hex(32),
        "LAPAU_PROXIES": "1",
        **(env or {}),
    }
    with ExitStack() as stack:
        a, b = (
            stack.enter_context(LiveServer(root / name / "instance", shared, url))
            for name in ("a", "b")
        )
        yield a, b
