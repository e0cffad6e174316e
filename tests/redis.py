"""A throwaway Redis server for the tests and benchmarks: Debian's ``redis-server``, on a
free port of 127.0.0.1, keeping nothing on disk, removed at the end.

Each pytest-xdist worker starts its own (a session fixture in tests/conftest.py), as it
does its PostgreSQL cluster.  ``make test-setup`` installs the package when the binary is
missing.  ``restart()`` stops the server and starts it again on the same port, empty, as a
crash or a failover would leave it: the brokers' reconnection is tested with it.

    with RedisServer() as server:
        url = server.url  # redis://127.0.0.1:<port>/0
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import redis

from tests.postgres import free_port

BINARY = "redis-server"


def binary() -> str:
    found = shutil.which(BINARY) or shutil.which(BINARY, path="/usr/bin:/usr/sbin")
    if found is None:
        raise RuntimeError(
            "Redis is not installed: run 'make test-setup' as root once, or "
            "'sudo apt-get install redis-server'."
        )
    return found


class RedisServer:
    """One ``redis-server`` for one run: no snapshots, no append-only file, no password."""

    def __init__(self) -> None:
        self.binary = binary()
        self.port = free_port()
        self.root = Path(tempfile.mkdtemp(prefix="lapau-redis-"))
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        command = [
            self.binary,
            "--port", str(self.port),
            "--bind", "127.0.0.1",
            "--dir", str(self.root),
            "--save", "",
            "--appendonly", "no",
            "--daemonize", "no",
            "--logfile", str(self.root / "server.log"),
        ]  # fmt: skip
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL)
        client = redis.Redis.from_url(self.url, socket_connect_timeout=0.5)
        deadline = time.monotonic() + 10
        try:
            while True:
                if self.process.poll() is not None:
                    raise RuntimeError(f"redis-server exited early:\n{self.log()}")
                try:
                    client.ping()
                    return
                except redis.ConnectionError:
                    if time.monotonic() > deadline:
                        raise
                    time.sleep(0.01)
        finally:
            client.close()

    def log(self) -> str:
        path = self.root / "server.log"
        return path.read_text() if path.exists() else ""

    def stop(self) -> None:
        """Stop at once (SIGKILL: nothing is kept anyway)."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self.process = None

    def restart(self) -> None:
        """Down and up again on the same port, empty: every connection to it is cut."""
        self.stop()
        self.start()

    def client(self) -> redis.Redis:
        return redis.Redis.from_url(self.url, decode_responses=True)

    def flush(self) -> None:
        """Empty it (between tests that share it)."""
        with self.client() as client:
            client.flushall()

    def __enter__(self) -> RedisServer:
        self.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self.stop()
        shutil.rmtree(self.root, ignore_errors=True)
