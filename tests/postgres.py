"""A throwaway PostgreSQL server for the tests and benchmarks: Debian's ``postgresql``
binaries, a cluster made by ``initdb`` in a temporary directory, on a free port.

PostgreSQL refuses to run as root, so as root the cluster belongs to the ``postgres``
system user that Debian's package creates (and every command runs as that user); as
anyone else it belongs to whoever runs the tests.  ``make test-setup`` installs the
package when the binaries are missing.

    with Cluster() as cluster:
        url = cluster.create_database("one")  # postgresql+psycopg://...
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import psycopg
from psycopg import sql

#: Settings for a cluster whose data may be lost: tests never survive a power cut, so
#: they spare every flush to disk (the app's process may still be killed: the server
#: keeps everything it acknowledged in memory and in the OS's cache).
THROWAWAY = ("fsync=off", "synchronous_commit=off", "full_page_writes=off")


def binaries() -> Path:
    """The newest installed PostgreSQL's ``bin`` directory."""
    found = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/initdb"),
        key=lambda path: int(Path(path).parent.parent.name),
    )
    if not found:
        raise RuntimeError(
            "PostgreSQL is not installed: run 'make test-setup' as root once, or "
            "'sudo apt-get install postgresql'."
        )
    return Path(found[-1]).parent


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class Cluster:
    """One PostgreSQL server on 127.0.0.1 with trust authentication, for one run.

    ``durable=False`` (the tests) turns off every flush to disk; ``durable=True`` (the
    benchmarks) keeps PostgreSQL's defaults, as a production server runs.
    """

    def __init__(self, durable: bool = False) -> None:
        self.bin = binaries()
        self.durable = durable
        self.port = free_port()
        self.root = Path(tempfile.mkdtemp(prefix="lapau-pg-"))
        self.data = self.root / "data"
        self.user = "lapau"
        self.as_postgres = os.geteuid() == 0
        if self.as_postgres:
            account = pwd.getpwnam("postgres")
            os.chown(self.root, account.pw_uid, account.pw_gid)

    def run(self, program: str, *args: str) -> None:
        command = [str(self.bin / program), *args]
        if self.as_postgres:
            command = ["runuser", "-u", "postgres", "--", *command]
        subprocess.run(command, check=True, capture_output=True, cwd=self.root)

    def start(self) -> None:
        self.run("initdb", "-D", str(self.data), "-U", self.user, "-A", "trust", "-E", "UTF8")
        settings = [
            f"port={self.port}",
            "listen_addresses=127.0.0.1",
            f"unix_socket_directories={self.root}",
            # Room for the suite's apps and servers, each with its own pool.
            "max_connections=200",
            *([] if self.durable else THROWAWAY),
        ]
        options = " ".join(f"-c {setting}" for setting in settings)
        log = str(self.root / "server.log")
        self.run("pg_ctl", "-D", str(self.data), "-l", log, "-o", options, "-w", "start")

    def stop(self) -> None:
        """Stop at once (SIGQUIT: PostgreSQL's immediate shutdown) and remove everything;
        ``pg_ctl stop`` would poll for a second or more."""
        pid_file = self.data / "postmaster.pid"
        try:
            os.kill(int(pid_file.read_text().split()[0]), signal.SIGQUIT)
            # The server removes its pid file last thing before it exits.
            deadline = time.monotonic() + 10
            while pid_file.exists() and time.monotonic() < deadline:
                time.sleep(0.01)
        finally:
            shutil.rmtree(self.root, ignore_errors=True)

    def __enter__(self) -> Cluster:
        self.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self.stop()

    def url(self, database: str) -> str:
        """The SQLAlchemy URL of one of the cluster's databases (psycopg 3)."""
        return f"postgresql+psycopg://{self.user}@127.0.0.1:{self.port}/{database}"

    def connect(self, database: str = "postgres") -> psycopg.Connection[tuple[object, ...]]:
        """A connection outside transactions (CREATE/DROP DATABASE need that)."""
        return psycopg.connect(
            host="127.0.0.1", port=self.port, user=self.user, dbname=database, autocommit=True
        )

    def create_database(self, name: str) -> str:
        """A new empty database; returns its URL."""
        with self.connect() as connection:
            connection.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
        return self.url(name)

    def disconnect(self, database: str) -> None:
        """Close every connection to ``database`` from the server's side, as a restart of
        the server or a failover would."""
        with self.connect(database) as connection:
            connection.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )

    def empty(self, database: str) -> None:
        """Make ``database`` empty again: whatever a test left connected is closed, and
        the public schema is made anew."""
        self.disconnect(database)
        with self.connect(database) as connection:
            connection.execute("DROP SCHEMA public CASCADE")
            connection.execute("CREATE SCHEMA public")
