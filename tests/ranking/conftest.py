"""Fixtures for the ranking: accounts, a hub on a hand-driven clock, and a way to play
an all-human table to its end through the hub, as people would."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from webapp.auth import accounts
from webapp.auth.models import User
from webapp.play.hub import Hub, TableSession
from webapp.play.store import Seat
from webapp.services import Lapau


class Clock:
    """A scheduler that never fires by itself: the tests move every seat by hand."""

    def __init__(self) -> None:
        self.pending: list[Callable[[], None]] = []

    def __call__(self, delay: float, callback: Callable[[], None]) -> Any:
        pending = self.pending

        class Handle:
            def cancel(self) -> None:
                if callback in pending:
                    pending.remove(callback)

        pending.append(callback)
        return Handle()


@pytest.fixture
def hub(app: Lapau) -> Hub:
    found: Hub = app.services.hub
    found.scheduler = Clock()
    return found


@pytest.fixture
def users(app: Lapau) -> Callable[..., list[User]]:
    """Make accounts by name (inside the app's context)."""

    def make(*names: str) -> list[User]:
        with app.app_context():
            made = [accounts.create_user(name, "tea at the lapau") for name in names]
        assert all(user is not None for user in made)
        return [user for user in made if user is not None]

    return make


def human_seats(people: list[User]) -> list[Seat]:
    return [Seat("human", player=user.player, name=user.username) for user in people]


def play_out(session: TableSession, seed: int = 1, limit: int = 20000) -> None:
    """Play every seat's turn with the easy bot's choice, submitted as a person would."""
    rng = random.Random(seed)
    for _ in range(limit):
        if session.finished:
            return
        seat = session.game.to_act(session.state)
        assert seat is not None
        action = session.game.bots["easy"](session.game.view(session.state, seat), rng)
        session.submit(seat, str(action), session.version)
    raise AssertionError("the match did not end")


@pytest.fixture
def finished_table(hub: Hub, users: Callable[..., list[User]]) -> Callable[..., TableSession]:
    """Open a table for the named accounts (made on first use), play it to its end."""
    made: dict[str, User] = {}

    def run(game: str, names: list[str], seed: int = 3, **options: Any) -> TableSession:
        for name in names:
            if name not in made:
                made[name] = users(name)[0]
        people = [made[name] for name in names]
        session = hub.create(game, options, human_seats(people), owner=people[0].player, seed=seed)
        play_out(session, seed)
        return session

    return run
