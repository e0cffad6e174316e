"""Database faults during a move: refused cleanly or retried, never half-applied.

Faults are raised where SQLite raises them, inside the driver's execute (a SQLAlchemy
``do_execute`` hook), so they travel the same path as a real locked, busy or full
database.  A real lock held by another connection checks SQLite's busy timeout too.
Every case ends with the fault cleared and the table going on.
"""

from __future__ import annotations

import errno
import re
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from flask import g
from sqlalchemy import create_engine, event, text

from tests.hostile.conftest import open_table, to_seat
from tests.play.conftest import ManualClock, Recorder
from webapp.channels import Subscriber
from webapp.events import Event
from webapp.play import sockets
from webapp.play.hub import Hub, Refusal, TableSession
from webapp.play.store import Seat, Store
from webapp.services import Lapau

# SQLite's own faults, raised where SQLite raises them; PostgreSQL's are real in
# tests/play/test_store_backends.py.
pytestmark = pytest.mark.databases("sqlite")

LOCKED = "database is locked"
FULL = "database or disk is full"


@contextmanager
def failing(
    hub: Hub, message: str, statement: str = "INSERT INTO play_action", times: int = 10**9
) -> Iterator[list[str]]:
    """Make the next ``times`` matching statements fail in the driver with ``message``.

    Yields the list of failed statements, so a test can count the tries.
    """
    failed: list[str] = []

    def fault(_cursor: Any, sql: str, _params: Any, _context: Any) -> None:
        if sql.startswith(statement) and len(failed) < times:
            failed.append(sql)
            raise sqlite3.OperationalError(message)

    event.listen(hub.store.engine, "do_execute", fault)
    try:
        yield failed
    finally:
        event.remove(hub.store.engine, "do_execute", fault)


def stored_log(hub: Hub, session: TableSession) -> tuple[str, ...]:
    stored = hub.store.load(session.id)
    assert stored is not None
    return stored.log


def snapshot(hub: Hub, session: TableSession) -> tuple[Any, list[str], tuple[str, ...]]:
    return session.state, list(session.log), stored_log(hub, session)


def my_move(session: TableSession) -> str:
    return str(session.game.legal_actions(session.state)[0])


def assert_continues(hub: Hub, clock: ManualClock, session: TableSession) -> None:
    """After the fault: the seat's move is stored, and the bots play on from it."""
    to_seat(clock, session)
    version = session.version
    session.submit(0, my_move(session), version)
    clock.run_until(lambda: session.version > version + 3 or session.finished)
    assert session.version > version + 1
    assert list(stored_log(hub, session)) == session.log


def test_sqlite_waits_for_a_lock_before_giving_up(app: Lapau) -> None:
    with app.services.database.connect() as connection:
        timeout = connection.execute(text("PRAGMA busy_timeout")).scalar()
    assert timeout is not None and timeout >= 1000


def test_a_briefly_locked_database_is_tried_again_and_the_move_applied_once(
    hub: Hub, clock: ManualClock
) -> None:
    session = open_table(hub, "koikoi")
    to_seat(clock, session)
    version, move = session.version, my_move(session)
    with failing(hub, LOCKED, times=2) as failed:
        session.submit(0, move, version)
    assert len(failed) == 2
    assert session.version == version + 1
    assert stored_log(hub, session)[version:] == (move,)


@pytest.mark.parametrize(
    ("message", "statement", "tries"),
    [
        (LOCKED, "INSERT INTO play_action", 3),
        (FULL, "INSERT INTO play_action", 1),
        ("disk I/O error", "INSERT INTO play_action", 1),
        # The log row was written but the table's row could not be: both roll back.
        (FULL, "UPDATE play_table", 1),
    ],
)
def test_a_write_that_keeps_failing_is_refused_and_changes_nothing(
    hub: Hub, clock: ManualClock, message: str, statement: str, tries: int
) -> None:
    session = open_table(hub, "kowah")
    to_seat(clock, session)
    before = snapshot(hub, session)
    version, move = session.version, my_move(session)
    with failing(hub, message, statement) as failed, pytest.raises(Refusal) as refused:
        session.submit(0, move, version)
    assert refused.value.code == "try-again"
    assert len(failed) == tries
    assert snapshot(hub, session) == before
    assert_continues(hub, clock, session)


def test_a_full_disk_raised_by_the_os_is_refused_and_changes_nothing(
    hub: Hub, clock: ManualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = open_table(hub, "koa")
    to_seat(clock, session)
    before = snapshot(hub, session)
    engine = hub.store.engine

    def no_space(*_args: Any, **_kwargs: Any) -> Any:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(engine, "begin", no_space)
    with pytest.raises(Refusal) as refused:
        session.submit(0, my_move(session), session.version)
    assert refused.value.code == "try-again"
    monkeypatch.undo()
    assert snapshot(hub, session) == before
    assert_continues(hub, clock, session)


def test_a_lock_held_by_another_connection_refuses_then_lets_the_move_through(
    hub: Hub, clock: ManualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A real lock: another process's write transaction on the same file."""
    url = hub.store.engine.url
    monkeypatch.setattr(hub, "store", Store(create_engine(url, connect_args={"timeout": 0.05})))
    session = open_table(hub, "koikoi")
    to_seat(clock, session)
    before = snapshot(hub, session)
    version, move = session.version, my_move(session)
    other = sqlite3.connect(str(url.database), isolation_level=None, check_same_thread=False)
    try:
        other.execute("BEGIN IMMEDIATE")
        with pytest.raises(Refusal) as refused:
            session.submit(0, move, version)
        assert refused.value.code == "try-again"
        assert (session.state, session.log) == before[:2]
        # Released while the store waits between its tries: the move goes through.
        threading.Timer(0.1, lambda: other.execute("COMMIT")).start()
        session.submit(0, move, version)
    finally:
        time.sleep(0.15)
        other.close()
    assert stored_log(hub, session)[version:] == (move,)
    assert_continues(hub, clock, session)


def test_a_slow_write_still_applies_a_double_click_once(
    hub: Hub, clock: ManualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = open_table(hub, "koikoi")
    to_seat(clock, session)
    version, move = session.version, my_move(session)
    real = hub.store.append

    def slow(*args: Any) -> None:
        time.sleep(0.3)
        real(*args)

    monkeypatch.setattr(hub.store, "append", slow)
    outcomes: list[str] = []

    def click() -> None:
        try:
            session.submit(0, move, version)
            outcomes.append("applied")
        except Refusal as refusal:
            outcomes.append(refusal.code)

    clicks = [threading.Thread(target=click) for _ in range(3)]
    for thread in clicks:
        thread.start()
    for thread in clicks:
        thread.join()
    assert sorted(outcomes) == ["applied", "stale", "stale"]
    assert stored_log(hub, session)[version:] == (move,)


def fire_until(clock: ManualClock, done: Callable[[], bool], limit: int = 50) -> None:
    for _ in range(limit):
        if done():
            return
        assert clock.fire(), "no timer is armed: the table has stalled"


def test_a_bot_whose_write_fails_tries_again_once_the_database_is_back(
    hub: Hub, clock: ManualClock
) -> None:
    session = open_table(hub, "kowah")
    to_seat(clock, session, 1)
    before = snapshot(hub, session)
    with failing(hub, FULL) as failed:
        for _ in range(3):
            assert clock.fire()
    assert len(failed) == 3
    assert snapshot(hub, session) == before
    fire_until(clock, lambda: session.version > len(before[1]))
    assert session.log[len(before[1])] != "timeout"
    assert list(stored_log(hub, session)) == session.log


def test_an_absent_players_timer_whose_write_fails_fires_again_later(
    hub: Hub, clock: ManualClock
) -> None:
    session = open_table(hub, "koa")
    to_seat(clock, session)
    before = snapshot(hub, session)
    with failing(hub, LOCKED):
        assert clock.fire()  # the turn timer: its "timeout" cannot be stored
    assert snapshot(hub, session) == before
    fire_until(clock, lambda: session.version > len(before[1]))
    assert session.log[len(before[1])] == "timeout"


def test_a_failed_finished_flag_leaves_the_last_move_whole(
    hub: Hub, clock: ManualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    ended: list[str] = []
    finishing = Event[[TableSession]]("table finished")
    finishing.append(lambda finished: ended.append(finished.id))
    monkeypatch.setattr(hub, "on_finish", finishing)
    seats = [Seat("bot", level="easy", name=f"Bot {n}") for n in range(2)]
    session = hub.create("koikoi", {"rounds": 3}, seats, owner="g-test", seed=5)
    recorder = Recorder(session)
    session.join(Subscriber(recorder, None, "en"))
    with failing(hub, FULL, "UPDATE play_table SET finished") as failed:
        clock.run_until(lambda: session.finished)
    assert len(failed) == 1
    assert session.finished and ended == [session.id]
    assert list(stored_log(hub, session)) == session.log
    assert recorder.messages[-1][0] == session.version
    # The flag only saves work: the next start replays the log and finds the match over.
    assert session.id in hub.store.unfinished()
    restored = Hub(hub.store, hub.renderer, hub.timing, clock).get(session.id)
    assert restored is not None and restored.finished


@pytest.mark.parametrize("lang", ["en", "id", "nl"])
def test_a_move_posted_while_the_database_is_full_gets_a_clear_notice(
    app: Lapau, hub: Hub, clock: ManualClock, lang: str
) -> None:
    client = app.test_client()
    with client.session_transaction() as cookie:
        cookie["player"] = "g-poster"
    session = open_table(hub, "koikoi", player="g-poster")
    to_seat(clock, session)
    before = snapshot(hub, session)
    with failing(hub, FULL):
        response = client.post(
            f"/{lang}/table/{session.id}/act",
            data={"a": my_move(session), "v": str(session.version)},
        )
    assert response.status_code == 303
    assert response.location.endswith("notice=try-again")
    assert snapshot(hub, session) == before
    page = client.get(response.location).get_data(as_text=True)
    with app.test_request_context(f"/{lang}/"):
        g.lang_code = lang
        expected = sockets.notice("try-again")
    assert re.search(r'role="alert">[^<]+</div>', expected)
    assert expected in page


def test_a_socket_move_while_the_database_is_locked_gets_a_clear_notice(
    app: Lapau, hub: Hub, clock: ManualClock
) -> None:
    session = open_table(hub, "koikoi")
    to_seat(clock, session)
    before = snapshot(hub, session)
    recorder = Recorder(session)
    messages = iter([f'{{"a": "{my_move(session)}", "v": {session.version}}}', None])

    class Socket:
        def receive(self) -> str | None:
            return next(messages)

    with failing(hub, LOCKED), app.test_request_context("/en/"):
        g.lang_code = "en"
        sockets.serve(Socket(), session, Subscriber(recorder, 0, "en"))
    assert "Your move could not be saved. Please try again." in recorder.messages[-1][1]
    assert snapshot(hub, session) == before
    assert_continues(hub, clock, session)
