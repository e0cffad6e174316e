"""The database: one SQLModel engine per app, SQLite by default, PostgreSQL (psycopg 3)
by URL.

The tables come from the migrations (see schema.py), never from ``create_all``.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, event, make_url
from sqlalchemy.exc import DisconnectionError
from sqlmodel import create_engine

from webapp.services import services

#: A SQLite database's own files: SQLite gives its log and index the database's mode.
SQLITE_FILES = ("", "-wal", "-shm")


def sqlite_file(url: str) -> Path | None:
    """The file a SQLite URL names (None for other databases and in-memory ones).

    >>> sqlite_file("sqlite:////srv/lapau.sqlite"), sqlite_file("sqlite://")
    (PosixPath('/srv/lapau.sqlite'), None)
    """
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:"):
        return None
    return Path(parsed.database)


def keep_private(database: Path) -> None:
    """Make the database file readable and writable by its owner only, before SQLite
    creates it with the process's umask (usually world-readable): it holds password
    hashes and every session's token."""
    os.close(os.open(database, os.O_WRONLY | os.O_CREAT, 0o600))
    for suffix in SQLITE_FILES:
        companion = database.with_name(database.name + suffix)
        if companion.exists():
            os.chmod(companion, 0o600)


#: Seconds a request waits for a free PostgreSQL connection before it gives up (a move
#: is then refused, changing nothing): far longer than any of the app's transactions, and
#: long enough for a burst (1,000 people opening their tables at once waited past 5 s in
#: benchmarks/load.py and got 500s), yet under a PaaS router's 30 s request deadline.
POOL_TIMEOUT = 20
#: Seconds to open a connection: a database that does not answer is reported at once
#: (/healthz answers 503) instead of holding a request.
CONNECT_TIMEOUT = 5
#: Milliseconds a PostgreSQL statement waits for a lock another connection holds, as
#: SQLite's busy timeout below: the table store then tries twice more, then refuses.
LOCK_TIMEOUT_MS = 2000
#: Seconds after which a PostgreSQL connection is replaced: below the idle limits of the
#: proxies and poolers that PaaS databases sit behind.
POOL_RECYCLE = 1800
#: Seconds a pooled connection may rest before a checkout tests it (a round trip).  One in
#: steady use is not tested: testing every checkout cost a round trip on every move (a
#: tenth of a move's CPU under load).  A connection the server dropped within that time
#: fails its statement instead; the pool then renews every connection, and the table
#: store tries the move again (Store.append).
PING_AFTER_REST = 10.0


def make_engine(url: str, pool: int = 5) -> Engine:
    """An engine suited to the URL's database.

    On PostgreSQL one gevent worker keeps ``pool`` connections and opens as many again
    for a burst.  Its transactions are short (a move is one insert and one update, about
    a millisecond or two on the server), so even hundreds of tables rarely have more
    than a few in flight at once, and a greenlet that finds the pool empty waits for the
    next free connection without blocking the others.  Ten at most leaves room on a
    small PaaS plan (often 20 connections) for the release step, a console and the
    next dyno, which overlaps the old one during a restart.
    """
    options: dict[str, Any] = {}
    database = sqlite_file(url)
    if database is not None:
        keep_private(database)
    if url.startswith("postgresql"):
        options.update(
            pool_size=pool,
            max_overflow=pool,
            pool_timeout=POOL_TIMEOUT,
            pool_recycle=POOL_RECYCLE,
            connect_args={"connect_timeout": CONNECT_TIMEOUT, "application_name": "lapau"},
        )
    if url.startswith("sqlite"):
        # The gevent worker serves many greenlets on one thread; SQLite's own
        # same-thread check would refuse them.  A write waits at most 2 s for another
        # process's lock (a CLI command): the wait blocks every greenlet, and the table
        # store tries twice more before refusing the move.
        options["connect_args"] = {"check_same_thread": False, "timeout": 2}
    engine = create_engine(url, **options)
    _ping_after_rest(engine)
    if url.startswith("sqlite"):
        event.listen(engine, "connect", _sqlite_pragmas)
    if url.startswith("postgresql"):
        event.listen(engine, "connect", _postgresql_session)
    return engine


def _ping_after_rest(engine: Engine) -> None:
    """Test a pooled connection on checkout when it has rested ``PING_AFTER_REST`` seconds
    (a dead one is replaced: the pool tries again with a new connection)."""

    @event.listens_for(engine, "checkin")
    def rested(_connection: Any, record: Any) -> None:
        record.info["rested_at"] = time.monotonic()

    @event.listens_for(engine, "checkout")
    def test_if_rested(connection: Any, record: Any, _proxy: Any) -> None:
        rested_at = record.info.pop("rested_at", None)  # None: new since its last use
        if rested_at is None or time.monotonic() - rested_at < PING_AFTER_REST:
            return
        try:
            engine.dialect.do_ping(connection)
        except engine.dialect.loaded_dbapi.Error as error:
            raise DisconnectionError(str(error)) from error


def _postgresql_session(connection: Any, _record: Any) -> None:
    with connection.cursor() as cursor:
        # Times come back in the session's zone; a managed server's default need not be
        # UTC, and a date printed from a stored time (a rating's day) must not depend on it.
        cursor.execute("SET TIME ZONE 'UTC'")
        # A lock held elsewhere (a console, a migration) must not hold a move forever.
        cursor.execute(f"SET lock_timeout = {int(LOCK_TIMEOUT_MS)}")
    connection.commit()


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    # WAL lets readers go on while a table's log is being appended.
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    # In WAL mode NORMAL survives a crashed or killed server (only a power cut can cost
    # the last moves), and spares an fsync on every move.
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def engine() -> Engine:
    """The current app's engine."""
    return services().database
