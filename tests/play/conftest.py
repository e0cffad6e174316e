"""Fixtures for the live tables: a hub whose clock the test drives by hand."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest

from webapp.play.hub import Hub, TableSession
from webapp.play.store import Seat
from webapp.services import Lapau


@dataclass
class Pending:
    delay: float
    callback: Callable[[], None]
    cancelled: bool = False

    def cancel(self) -> None:
        self.cancelled = True


@dataclass
class ManualClock:
    """A scheduler that runs nothing until the test says so, and a wall clock that stands
    still (so a turn timer always shows its full time)."""

    pending: list[Pending] = field(default_factory=list)
    time: float = 1_000_000.0

    def now(self) -> float:
        return self.time

    def hold(self, hub: Hub) -> ManualClock:
        """Drive ``hub``'s timers and its wall clock from this clock; returns it."""
        hub.scheduler = self
        hub.clock = self.now
        return self

    def __call__(self, delay: float, callback: Callable[[], None]) -> Pending:
        item = Pending(delay, callback)
        self.pending.append(item)
        return item

    def fire(self) -> bool:
        """Run the oldest live timer; False when none is left."""
        while self.pending:
            item = self.pending.pop(0)
            if not item.cancelled:
                item.callback()
                return True
        return False

    def run_until(self, done: Callable[[], bool], limit: int = 20000) -> None:
        for _ in range(limit):
            if done() or not self.fire():
                return


@dataclass
class Recorder:
    """A socket that keeps what it was sent, with the table's version at that moment."""

    session: TableSession | None = None
    messages: list[tuple[int, str]] = field(default_factory=list)
    closed: int | None = None

    def send(self, data: str) -> None:
        assert self.session is not None
        self.messages.append((self.session.version, data))

    def close(self, reason: int = 1000, message: str | None = None) -> None:
        self.closed = reason


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def hub(app: Lapau, clock: ManualClock) -> Hub:
    found: Hub = app.services.hub
    clock.hold(found)
    return found


Practice = Callable[..., TableSession]


@pytest.fixture
def practice(hub: Hub) -> Practice:
    """Open a table with a guest in seat 0 (or nobody: ``human=False``) and easy bots."""

    def open_table(game: str, seed: int = 7, human: bool = True, **options: Any) -> TableSession:
        count = {"koa": 4, "kowah": options.get("players", 3), "koikoi": 2}[game]
        first = Seat("human", player="g-test") if human else Seat("bot", level="easy", name="B")
        seats = [first] + [Seat("bot", level="easy", name=f"Bot {n}") for n in range(1, count)]
        return hub.create(game, options, seats, owner="g-test", seed=seed)

    return open_table
