"""Fixtures for the whole suite: an app on a temporary instance, and a real server.

``app``/``client``/``runner`` follow Flask's tutorial.  ``live_server`` starts the site
as production runs it (gunicorn with the gevent worker) in a subprocess on a free port,
with its own instance folder and database, for budget, WebSocket and browser tests.

Every test that starts a server is marked ``live`` (by the hook below when it uses
``live_server`` or is an ``e2e`` browser test, by hand otherwise), so ``make check`` can
leave them out; a ``LiveServer`` started by an unmarked test fails it, so the mark cannot
be forgotten.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Generator, Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner

from tests.databases import migrated_instance
from webapp import create_app

ROOT = Path(__file__).resolve().parent.parent

#: The test being set up, run or torn down, whose marks a starting ``LiveServer`` checks.
_current: list[pytest.Item] = []


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        browser = item.get_closest_marker("e2e") is not None  # always against a real server
        if browser or "live_server" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.live)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Generator[None, object, object]:
    _current[:] = [item]
    try:
        return (yield)
    finally:
        _current.clear()


@pytest.fixture
def app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Flask:
    monkeypatch.setenv("LAPAU_INSTANCE_PATH", str(migrated_instance(tmp_path / "instance")))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.delenv("SECRET_KEY", raising=False)
    # Unit tests post forms without the CSRF token; tests/auth checks it is required.
    return create_app({"TESTING": True, "WTF_CSRF_ENABLED": False})


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def runner(app: Flask) -> FlaskCliRunner:
    return app.test_cli_runner()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


#: Bots that move at once and deal the next round without a pause: browser games end fast.
QUICK_BOTS = {"LAPAU_BOT_DELAY": "0", "LAPAU_ROUND_PAUSE": "0", "LAPAU_TURN_SECONDS": "120"}
#: Bots and turn timers that never fire within a test: a table waits for the test's moves.
STILL_BOTS = {"LAPAU_BOT_DELAY": "600", "LAPAU_TURN_SECONDS": "600"}


class LiveServer:
    """A gunicorn + gevent process serving the app, as the Procfile runs it.

    ``with LiveServer(instance, env) as server:`` starts it and stops it afterwards.
    Its graceful timeout is short (5 s) unless a test needs the Procfile's (gunicorn's 30 s).
    """

    def __init__(
        self,
        instance: Path,
        extra_env: dict[str, str] | None = None,
        graceful_timeout: int = 5,
    ) -> None:
        self.instance = instance
        self.graceful_timeout = graceful_timeout
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = {
            **os.environ,
            "LAPAU_INSTANCE_PATH": str(instance),
            "PYTHONUNBUFFERED": "1",
            **(extra_env or {}),
        }
        self.env.pop("DATABASE_URL", None)
        self.process: subprocess.Popen[bytes] | None = None
        self.log = instance / "server.log"

    def start(self) -> None:
        test = _current[0] if _current else None
        if test is not None and test.get_closest_marker("live") is None:
            raise RuntimeError(f"{test.nodeid} starts a server: mark it @pytest.mark.live")
        # The release step's work: a database at the newest migration (kept on a restart).
        migrated_instance(self.instance)
        gunicorn = Path(sys.executable).with_name("gunicorn")
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                [
                    str(gunicorn),
                    "--worker-class",
                    "gevent",
                    "--workers",
                    "1",
                    "--worker-connections",
                    "2000",
                    "--graceful-timeout",
                    str(self.graceful_timeout),
                    "--bind",
                    f"127.0.0.1:{self.port}",
                    "webapp:create_app()",
                ],
                cwd=ROOT,
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited early:\n{self.log.read_text()}")
            try:
                with urllib.request.urlopen(f"{self.url}/id/", timeout=2):
                    return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError(f"server did not start:\n{self.log.read_text()}")

    def __enter__(self) -> LiveServer:
        self.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self.stop()

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with LiveServer(tmp_path_factory.mktemp("live") / "instance") as server:
        yield server


# Playwright drives Debian's Chromium; it downloads no browser of its own.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, object]) -> dict[str, object]:
    return {
        **browser_type_launch_args,
        "executable_path": "/usr/bin/chromium",
        "args": CHROMIUM_ARGS,
    }


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, object]) -> dict[str, object]:
    return {**browser_context_args, "viewport": {"width": 360, "height": 640}}
