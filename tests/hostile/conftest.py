"""Fixtures for the fault and hostile-input tests.

The suite runs them small: ``LAPAU_FUZZ_EXAMPLES`` (default 25, 10 in ``make check``) sets
how many examples each Hypothesis test tries, and the kill -9 soak's size grows with it.
Run them big by hand: ``LAPAU_FUZZ_EXAMPLES=500 .venv/bin/pytest tests/hostile``.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from tests.conftest import STILL_BOTS, LiveServer, close_app
from tests.databases import migrated
from tests.play.conftest import ManualClock
from tests.tiers import scaled
from webapp import create_app
from webapp.config import TestConfig
from webapp.play.hub import Hub, TableSession
from webapp.play.store import Seat
from webapp.services import Lapau

EXAMPLES = int(os.environ.get("LAPAU_FUZZ_EXAMPLES") or scaled(25, 10))


def fuzz(examples: int = EXAMPLES) -> settings:
    """Hypothesis settings for these tests: no deadline (a real server answers), and
    fixtures shared across examples on purpose (every example must leave the table as it
    found it).  The rest comes from the loaded profile (tests/conftest.py): derandomized
    in CI."""
    return settings(
        max_examples=examples,
        deadline=None,
        suppress_health_check=[
            HealthCheck.function_scoped_fixture,
            HealthCheck.too_slow,
            HealthCheck.data_too_large,
        ],
    )


def make_app(instance: Path, database_url: str, **config: Any) -> Lapau:
    """An app on its own instance folder and database."""
    database = {"DATABASE_URL": migrated(database_url)}
    return create_app(TestConfig(instance, database, **config))


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory, module_database_url: str) -> Iterator[Lapau]:
    """One app per module: starting one costs more than most of these tests.  Tests
    open tables of their own, and undo what they change in the app (faults, hooks)."""
    instance = tmp_path_factory.mktemp("app") / "instance"
    app = make_app(instance, module_database_url, WTF_CSRF_ENABLED=False)
    yield app
    close_app(app)


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def hub(app: Lapau, clock: ManualClock) -> Hub:
    found: Hub = app.services.hub
    clock.hold(found)
    return found


def open_table(hub: Hub, game: str, seed: int = 7, player: str = "g-test") -> TableSession:
    """A table with ``player`` in seat 0 and easy bots in the others."""
    presets: dict[str, dict[str, Any]] = {"koa": {"mode": "quick"}, "kowah": {"players": 3}}
    options = presets.get(game, {"rounds": 3})
    count = {"koa": 4, "kowah": 3, "koikoi": 2}[game]
    seats = [Seat("human", player=player)] + [
        Seat("bot", level="easy", name=f"Bot {n}") for n in range(1, count)
    ]
    return hub.create(game, options, seats, owner=player, seed=seed)


def to_seat(clock: ManualClock, session: TableSession, seat: int = 0) -> None:
    """Let the bots play until it is ``seat``'s turn."""
    clock.run_until(lambda: session.game.to_act(session.state) == seat)
    assert session.game.to_act(session.state) == seat


@pytest.fixture(scope="session")
def frozen(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A real server whose bots and turn timers never fire during a test: a table holds
    still, so anything a hostile message changed would show."""
    instance = tmp_path_factory.mktemp("hostile") / "instance"
    with LiveServer(instance, {**STILL_BOTS, "LAPAU_TABLE_SEED": "11"}) as server:
        yield server
    log = server.log.read_text()
    assert "Traceback" not in log, log[-4000:]
