"""The per-move write on a real database: refusals are clean on both, and PostgreSQL's
own faults (a lock held elsewhere, a server that dropped its connections) end as SQLite's
do: tried again or refused, never half-written, never an exception other than StoreError.
"""

from __future__ import annotations

import time

import pytest

from tests.postgres import Cluster
from webapp import db
from webapp.play.store import Seat, Store, StoreError
from webapp.services import Lapau

SEATS = [Seat("human", player="g-a"), Seat("bot", level="easy", name="Bot")]


def new_table(app: Lapau, table_id: str = "t1") -> Store:
    store = Store(app.services.database)
    store.create(table_id, "koikoi", 5, {"rounds": 3}, SEATS, "g-a")
    return store


def stored(store: Store, table_id: str = "t1") -> tuple[str, ...]:
    found = store.load(table_id)
    assert found is not None
    return found.log


def test_a_step_stored_twice_is_refused_and_the_first_kept(app: Lapau) -> None:
    store = new_table(app)
    store.append("t1", 0, "play a", 0)
    with pytest.raises(StoreError):
        store.append("t1", 0, "play b", 1)
    store.append("t1", 1, "play c", 1)
    assert stored(store) == ("play a", "play c")


@pytest.mark.databases("postgresql")
def test_a_lock_held_elsewhere_is_waited_for_then_refused(
    app: Lapau, postgres: Cluster, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(db, "LOCK_TIMEOUT_MS", 100)
    store = new_table(app)
    store.engine.dispose()  # new connections, with the shorter lock timeout
    with postgres.connect("lapau") as other:
        other.autocommit = False
        other.execute("SELECT * FROM play_table WHERE id = 't1' FOR UPDATE")
        began = time.monotonic()
        with pytest.raises(StoreError, match="lock timeout"):
            store.append("t1", 0, "play a", 0)
        # Three tries of 0.1 s each, with pauses of 0.05 and 0.2 s between them.
        assert time.monotonic() - began >= 0.5
        other.rollback()
    assert stored(store) == ()
    store.append("t1", 0, "play a", 0)
    assert stored(store) == ("play a",)


def dropped_after_a_move(app: Lapau, postgres: Cluster) -> Store:
    """A table with one move stored, whose pooled connection the server then dropped."""
    store = new_table(app)
    store.append("t1", 0, "play a", 0)
    postgres.disconnect("lapau")
    return store


@pytest.mark.databases("postgresql")
def test_connections_the_server_dropped_cost_no_move(app: Lapau, postgres: Cluster) -> None:
    store = dropped_after_a_move(app, postgres)
    store.append("t1", 1, "play b", 1)  # the pool finds its connection dead and reconnects
    assert stored(store) == ("play a", "play b")


@pytest.mark.databases("postgresql")
def test_a_connection_that_rested_is_tested_before_use(
    app: Lapau, postgres: Cluster, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = dropped_after_a_move(app, postgres)
    # Every connection counts as rested, and a failed write is not tried again: the
    # checkout's test alone must find the dropped connection and take a new one.
    monkeypatch.setattr(db, "PING_AFTER_REST", 0.0)
    monkeypatch.setattr("webapp.play.store.BUSY_RETRIES", ())
    store.append("t1", 1, "play b", 1)
    assert stored(store) == ("play a", "play b")


@pytest.mark.databases("postgresql")
def test_a_connection_in_steady_use_is_not_tested(
    app: Lapau, postgres: Cluster, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = dropped_after_a_move(app, postgres)
    # Without its second try the write fails on the dropped connection, which nothing
    # tested (it had just been used), and the pool is renewed for the next one.
    monkeypatch.setattr("webapp.play.store.BUSY_RETRIES", ())
    with pytest.raises(StoreError):
        store.append("t1", 1, "play b", 1)
    store.append("t1", 1, "play b", 1)
    assert stored(store) == ("play a", "play b")


class CutOff(BaseException):
    """What a killed greenlet raises inside the write (gevent's GreenletExit is one)."""


@pytest.mark.databases("postgresql")
def test_a_write_cut_off_mid_statement_gives_its_connection_to_nobody(
    app: Lapau, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = new_table(app)
    store.append("t1", 0, "play a", 0)
    used = store.engine.raw_connection()
    cut = used.driver_connection
    used.close()  # back to the pool: the next write takes it

    def cut_off(*_args: object, **_kwargs: object) -> None:
        raise CutOff

    assert cut is not None
    monkeypatch.setattr(type(cut), "execute", cut_off)
    with pytest.raises(CutOff):  # not turned into a refusal: the greenlet ends
        store.append("t1", 1, "play b", 1)
    monkeypatch.undo()
    assert cut.closed  # its state is unknown, so it is not given back to the pool
    store.append("t1", 1, "play b", 1)
    assert stored(store) == ("play a", "play b")
