"""Databases for the tests, with their schema from the migrations, as the release step makes it.

Running every migration costs about 27 ms of CPU and 160 ms of wall time (SQLite syncs
the file at each step) and the suite makes some 190 apps, so the migrations run once per
test run into a template file and every test database is a copy of it (under a
millisecond).  On PostgreSQL the migrations cost the server a second of wall time per
test on a busy machine; they run once per server into a template database, and an empty
test database is replaced by a copy of it (``CREATE DATABASE ... TEMPLATE``, a quarter of
that).  tests/db checks the migrations themselves on fresh databases.
"""

from __future__ import annotations

import atexit
import functools
import shutil
import tempfile
from pathlib import Path

from sqlalchemy import Connection, create_engine, text
from sqlalchemy.engine import make_url

from webapp import schema
from webapp.db import make_engine, sqlite_file

#: The database each PostgreSQL server keeps at the newest migration, for copies.
TEMPLATE = "lapau_migrated"


@functools.cache
def template() -> Path:
    """A SQLite database at the newest migration, built on first use."""
    folder = Path(tempfile.mkdtemp(prefix="lapau-schema-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    path = folder / "template.sqlite"
    engine = make_engine(f"sqlite:///{path}")
    schema.upgrade(engine)
    # Closing the last connection folds the write-ahead log into the file itself.
    engine.dispose()
    return path


def migrated(url: str) -> str:
    """Bring the empty database at ``url`` to the newest migration; returns the URL.
    A SQLite file becomes a copy of the template; another database runs the migrations."""
    path = sqlite_file(url)
    if path is None:
        if not copied_from_template(url):
            upgrade(url)
    elif not path.exists() or path.stat().st_size == 0:  # the app may have made it empty
        # Private, as the app makes its instance folder and database (tests check it).
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        shutil.copyfile(template(), path)
        path.chmod(0o600)
    return url


def migrated_instance(instance: Path) -> Path:
    """An instance folder whose default SQLite database is at the newest migration."""
    migrated(f"sqlite:///{instance / 'lapau.sqlite'}")
    return instance


def upgrade(url: str) -> None:
    engine = make_engine(url)
    try:
        schema.upgrade(engine)
    finally:
        engine.dispose()


def copied_from_template(url: str) -> bool:
    """Replace the PostgreSQL database at ``url``, if it is empty, with a copy of the
    server's migrated template (made on first use); whether it did.  A database with
    tables (a server restarted on its own data) is left as it is."""
    target = make_url(url)
    if not target.drivername.startswith("postgresql") or target.database is None:
        return False
    probe = create_engine(target)
    try:
        with probe.connect() as connection:
            if connection.scalar(
                text("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'")
            ):
                return False
    finally:
        probe.dispose()
    server = create_engine(target.set(database="postgres"), isolation_level="AUTOCOMMIT")
    try:
        with server.connect() as connection:
            if not exists(connection, TEMPLATE):
                connection.execute(text(f'CREATE DATABASE "{TEMPLATE}"'))
                upgrade(target.set(database=TEMPLATE).render_as_string(hide_password=False))
            connection.execute(text(f'DROP DATABASE "{target.database}" WITH (FORCE)'))
            connection.execute(text(f'CREATE DATABASE "{target.database}" TEMPLATE "{TEMPLATE}"'))
    finally:
        server.dispose()
    return True


def exists(connection: Connection, database: str) -> bool:
    found = text("SELECT 1 FROM pg_database WHERE datname = :name")
    return connection.scalar(found, {"name": database}) is not None
