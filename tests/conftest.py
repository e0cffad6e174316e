"""Fixtures for the whole suite: a fresh database, an app on a temporary instance, and a
real server.

``database_url`` is the URL of a fresh, empty database, on SQLite and then on a real
PostgreSQL server that the run starts itself (tests/postgres.py): every test that uses it
(the ``app`` fixture does) runs once on each, unless marked otherwise: a test marked
``databases("sqlite")`` touches nothing stored that could differ between them, and one
marked ``databases("postgresql")`` checks what only PostgreSQL does.
``app``/``client``/``runner`` follow Flask's tutorial.  ``live_server`` starts the site
as production runs it (gunicorn with the gevent worker) in a subprocess on a free port,
with its own instance folder and database, for budget, WebSocket and browser tests.

Every test that starts a server is marked ``live`` (by the hook below when it uses
``live_server`` or is an ``e2e`` browser test, by hand otherwise), so ``make check`` can
leave them out; a ``LiveServer`` started by an unmarked test fails it, so the mark cannot
be forgotten.

``redis_url`` is a real Redis server's (tests/redis.py), emptied for the test, for the
brokers and whatever else is shared between processes.

``make check`` and ``make test`` run the tests in pytest-xdist workers: every worker process
has its own PostgreSQL cluster, Redis server, temporary folders, servers on free ports and
browser (the session fixtures run once per worker), so nothing here is shared between
processes.
"""

from __future__ import annotations

import itertools
import os
import runpy
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient, FlaskCliRunner
from hypothesis import settings
from sqlalchemy import Engine, create_engine, text

from tests import costs
from tests.databases import migrated, migrated_instance
from tests.postgres import Cluster
from tests.redis import RedisServer
from tests.routing import share_url_builders
from webapp import create_app
from webapp.config import PASSWORD_HASH, TestConfig
from webapp.services import Lapau

ROOT = Path(__file__).resolve().parent.parent
#: The databases a run covers: both by default (make test); ``make check`` asks for SQLite
#: alone through ``LAPAU_TEST_DATABASES``, since it starts no server process.
BACKENDS = tuple(os.environ.get("LAPAU_TEST_DATABASES", "sqlite,postgresql").split(","))
MODULE_DATABASES = itertools.count()
share_url_builders()  # each test's app compiles no URL builder a former app has compiled

# Hypothesis keeps no example database (the suite leaves no files behind).  In CI every
# property test runs derandomized: the same examples every run, so a red run is red again
# (locally too, with HYPOTHESIS_PROFILE=ci); elsewhere each run explores new examples.
settings.register_profile("dev", database=None)
settings.register_profile("ci", database=None, derandomize=True, print_blob=True)
settings.load_profile(
    os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "dev")
)


def pytest_configure(config: pytest.Config) -> None:
    # The test processes render and play as much as the site's worker: they run with its
    # garbage collector and greenlet settings, which its config sets as it is read
    # (gunicorn.conf.py).  With Python's own, ``make check``'s workers used 191 and 210 s
    # of CPU; with these, 176 and 166 s (alternated runs, 3 December).
    runpy.run_path(str(ROOT / "gunicorn.conf.py"))
    config.addinivalue_line(
        "markers", "databases(*names): run on these backends only (sqlite, postgresql)"
    )


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    chosen = metafunc.definition.get_closest_marker("databases")
    backends = [name for name in (chosen.args if chosen else BACKENDS) if name in BACKENDS]
    if "database_url" in metafunc.fixturenames:
        metafunc.parametrize("database_url", backends, indirect=True)
    if "module_database_url" in metafunc.fixturenames:
        metafunc.parametrize("module_database_url", backends, indirect=True, scope="module")


@pytest.fixture(scope="session")
def postgres() -> Iterator[Cluster]:
    """The run's PostgreSQL server, started on first use and removed at the end."""
    with Cluster() as cluster:
        cluster.create_database("lapau")
        yield cluster


@pytest.fixture(scope="session")
def redis_server() -> Iterator[RedisServer]:
    """The run's Redis server (this worker's), started on first use and removed at the end."""
    with RedisServer() as server:
        yield server


@pytest.fixture
def redis_url(redis_server: RedisServer) -> str:
    """The URL of the run's Redis server, emptied for this test."""
    redis_server.flush()
    return redis_server.url


#: The test being set up, run or torn down, whose marks a starting ``LiveServer`` checks.
_current: list[pytest.Item] = []


@pytest.hookimpl(wrapper=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> Generator[None, None, None]:
    # Marked before ``-m`` deselects (the mark plugin's hook runs inside this wrapper).
    for item in items:
        browser = item.get_closest_marker("e2e") is not None  # always against a real server
        if browser or "live_server" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.live)
    yield
    # The costliest files first, each file's own order kept (for its shared servers): the
    # Makefile hands whole files to the workers in this order (tests/costs.py says why).
    recorded = costs.recorded()
    cost: dict[Path, float] = {}
    for item in items:
        cost[item.path] = cost.get(item.path, 0.0) + costs.estimated(item)
    for path in cost:
        cost[path] = recorded.get(path.relative_to(ROOT).as_posix(), cost[path])
    items.sort(key=lambda item: -cost[item.path])


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Generator[None, object, object]:
    _current[:] = [item]
    try:
        return (yield)
    finally:
        _current.clear()


@pytest.fixture
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh, empty database: SQLite in the instance folder the ``app`` fixture uses,
    or the PostgreSQL server's one test database, emptied (a new schema costs a tenth of
    a new database)."""
    if getattr(request, "param", "sqlite") == "sqlite":
        # Private, as the app makes its instance folder (tests check it).
        (tmp_path / "instance").mkdir(mode=0o700, exist_ok=True)
        return f"sqlite:///{tmp_path / 'instance' / 'lapau.sqlite'}"
    cluster: Cluster = request.getfixturevalue("postgres")
    cluster.empty("lapau")
    return cluster.url("lapau")


@pytest.fixture(scope="module")
def module_database_url(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> str:
    """A fresh, empty database for one module's tests to share (for apps that cost more
    to start than most of the tests that use them)."""
    if getattr(request, "param", "sqlite") == "sqlite":
        return f"sqlite:///{tmp_path_factory.mktemp('database') / 'lapau.sqlite'}"
    cluster: Cluster = request.getfixturevalue("postgres")
    return cluster.create_database(f"module_{next(MODULE_DATABASES)}")


@pytest.fixture
def app(tmp_path: Path, database_url: str) -> Iterator[Lapau]:
    app = app_with(tmp_path, database_url)
    yield app
    close_app(app)


def app_with(tmp_path: Path, database_url: str, **settings: Any) -> Lapau:
    """The ``app`` fixture's app on ``database_url`` (migrated here), ``settings`` over
    the tests' (webapp/config.py's ``TestConfig``)."""
    database = {"DATABASE_URL": migrated(database_url)}
    # Unit tests post forms without the CSRF token; tests/auth checks it is required.
    return create_app(
        TestConfig(tmp_path / "instance", database, WTF_CSRF_ENABLED=False, **settings)
    )


#: What production cannot start without (webapp/config.py), a test's secret included.
PRODUCTION = {
    "LAPAU_ENV": "production",
    "LAPAU_HOSTS": "lapau.example",
    "SECRET_KEY": "a-production-secret-of-enough-length",
}


def production_app(tmp_path: Path, **environ: str) -> Lapau:
    """The app as production configures it (``environ`` over :data:`PRODUCTION`), on a
    migrated SQLite file in its own instance folder, hashing passwords at full cost."""
    instance = migrated_instance(tmp_path / "instance")
    environ = {**PRODUCTION, **environ}
    return create_app(
        TestConfig(instance, environ, WTF_CSRF_ENABLED=False, PASSWORD_HASH=PASSWORD_HASH)
    )


def close_app(app: Lapau) -> None:
    """Stop the app's table timers (none may write into the next test's database) and
    close its database and Redis connections."""
    app.services.hub.shutdown()
    app.services.facts.close()
    app.services.channels.broker.close()
    app.services.database.dispose()


@pytest.fixture
def client(app: Lapau) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def runner(app: Lapau) -> FlaskCliRunner:
    return app.test_cli_runner()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


#: Bots that move at once and deal the next round without a pause: browser games end fast,
#: and the test's clicks, faster than any hand, stay within the sockets' message budget.
QUICK_BOTS = {
    "LAPAU_BOT_DELAY": "0",
    "LAPAU_ROUND_PAUSE": "0",
    "LAPAU_TURN_SECONDS": "120",
    "LAPAU_SOCKET_RATE": "100",
}
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
        database_url: str | None = None,
        graceful_timeout: int = 5,
    ) -> None:
        self.instance = instance
        self.graceful_timeout = graceful_timeout
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.database_url = database_url or f"sqlite:///{instance / 'lapau.sqlite'}"
        self.env = {
            **os.environ,
            "LAPAU_INSTANCE_PATH": str(instance),
            "DATABASE_URL": self.database_url,
            "PYTHONUNBUFFERED": "1",
            **(extra_env or {}),
        }
        self.process: subprocess.Popen[bytes] | None = None
        self.log = instance / "server.log"

    def start(self) -> None:
        test = _current[0] if _current else None
        if test is not None and test.get_closest_marker("live") is None:
            raise RuntimeError(f"{test.nodeid} starts a server: mark it @pytest.mark.live")
        self.instance.mkdir(mode=0o700, parents=True, exist_ok=True)
        # The release step's work: a database at the newest migration (kept on a restart).
        migrated(self.database_url)
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
        # A start (imports, the app, resuming the stored tables) took 29 s once in a full
        # run on a slow day, three test processes and their browsers on two cores.
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited early:\n{self.log.read_text()}")
            try:
                with urllib.request.urlopen(f"{self.url}/id/", timeout=2):
                    return
            except OSError:
                time.sleep(0.1)
        # Stopped here: left running, its Popen warns in whichever test collects it.
        self.stop()
        raise RuntimeError(f"server did not start:\n{self.log.read_text()}")

    def log_tail(self) -> str:
        """The end of the server's log, for a failing test's message."""
        return self.log.read_text()[-3000:]

    def query(self, statement: str, **params: object) -> list[tuple[Any, ...]]:
        """Run one statement on the server's database (SQLite or not), behind its back;
        returns the rows it reads."""
        engine: Engine = create_engine(self.database_url)
        try:
            with engine.begin() as connection:
                result = connection.execute(text(statement), params)
                return [tuple(row) for row in result] if result.returns_rows else []
        finally:
            engine.dispose()

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


# Playwright drives Debian's Chromium; it downloads no browser of its own. The headless
# shell is the same engine without the desktop browser around it: the end-to-end tests ran
# in 3:38 instead of 5:18 with it (3 workers, same hour), its processes using 40% less CPU.
CHROMIUM = "/usr/bin/chromium-headless-shell"
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
        "executable_path": CHROMIUM,
        "args": CHROMIUM_ARGS,
    }


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, object]) -> dict[str, object]:
    return {**browser_context_args, "viewport": {"width": 360, "height": 640}}
