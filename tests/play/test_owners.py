"""Tables between processes: one owner by a lease, replicas elsewhere (webapp/play/lease.py).

Two hubs in this process stand for two servers: one database, one Redis for the leases,
one broker between them.  The first opens the table and owns it; the second holds a
replica for its own socket.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tests.play.conftest import Recorder
from webapp.channels import Channels, Subscriber
from webapp.play import emotes, forward
from webapp.play.hub import Hub, Refusal, TableSession, Timing, thread_scheduler
from webapp.play.lease import OneProcess, RedisLeases
from webapp.play.store import Seat
from webapp.redis_broker import RedisBroker, connect
from webapp.services import Lapau

LEASE = 1.2  # seconds: short, so a takeover test waits little

Pair = Callable[..., tuple[Hub, Hub]]


@pytest.fixture
def two_hubs(app: Lapau, redis_url: str) -> Iterator[Pair]:
    """Two hubs as two servers: one database, one Redis (its pub/sub between them, and
    the leases), each its own broker and process name; ``shared=False``: each believes
    it is alone (and so owns every table); ``tend=False``: nobody renews or takes over."""
    made: list[Hub] = []

    def pair(shared: bool = True, tend: bool = True) -> tuple[Hub, Hub]:
        base = app.services.hub
        for name in ("a", "b"):
            broker = RedisBroker(connect(redis_url))
            leases = RedisLeases(connect(redis_url), LEASE, name) if shared else OneProcess()
            hub = Hub(
                base.store,
                base.renderer,
                Timing(turn_seconds=3600.0),
                thread_scheduler,
                channels=Channels(broker),
                leases=leases,
            )
            emotes.listen(hub)  # as make_hub does
            assert broker.listening.wait(5)
            if tend:
                hub.tend()  # as a server does once it is ready
            made.append(hub)
        return made[-2], made[-1]

    before = set(threading.enumerate())
    yield pair
    for hub in made:
        hub.shutdown()
        hub.channels.broker.close()
    # Their timers, readers and requests end before the test's database is dropped.
    for thread in set(threading.enumerate()) - before:
        try:
            thread.join(timeout=5)
        except RuntimeError:  # still starting (a timer armed as the hubs stopped)
            time.sleep(0.1)
            thread.join(timeout=5)


def eventually(done: Callable[[], bool], seconds: float = 5.0) -> None:
    """Wait for what another process's message does (its reader runs beside the test)."""
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, "it never happened"
        time.sleep(0.01)


def two_people(hub: Hub) -> TableSession:
    seats = [Seat("human", player="g-a"), Seat("human", player="g-b")]
    return hub.create("koikoi", {"rounds": 3}, seats, owner="g-a", seed=3)


def watch(hub: Hub, table_id: str, seat: int) -> tuple[TableSession, Recorder]:
    session = hub.get(table_id)
    assert session is not None
    recorder = Recorder(session)
    session.join(Subscriber(recorder, seat, "en"))
    return session, recorder


def to_act(session: TableSession) -> tuple[int, str]:
    seat = session.game.to_act(session.state)
    assert seat is not None
    return seat, str(session.game.legal_actions(session.state)[0])


def test_a_move_at_a_replica_is_applied_once_by_the_owner(two_hubs: Pair) -> None:
    a, b = two_hubs()
    owned = two_people(a)
    replica, screen = watch(b, owned.id, 0)
    assert owned.owned and not replica.owned
    seat, action = to_act(replica)
    replica.submit(seat, action, replica.version)
    stored = a.store.load(owned.id)
    assert stored is not None and stored.log == (action,)
    # The owner's news and its answer travel apart (each kind has its own handler): the
    # replica follows the news soon after the answer, if not before.
    eventually(lambda: replica.version == 1 and screen.messages[-1][0] == 1)
    assert replica.version == owned.version == 1 and replica.state == owned.state
    assert screen.messages[-1][0] == 1  # its socket was sent the new table
    # The usual refusals are said by the replica; the owner's come back as their code.
    with pytest.raises(Refusal, match="stale"):
        replica.submit(seat, action, 0)
    with pytest.raises(Refusal, match="unknown-action"):
        b.forward(owned.id, {"k": "move", "seat": to_act(owned)[0], "a": "fly", "v": 1})
    assert a.store.load(owned.id).log == (action,)  # type: ignore[union-attr]


def test_a_request_nobody_answers_says_try_again(
    two_hubs: Pair, monkeypatch: pytest.MonkeyPatch
) -> None:
    a, b = two_hubs(tend=False)
    owned = two_people(a)
    replica, _screen = watch(b, owned.id, 0)
    owned.stop()  # its owner is gone: its clock too (else its timer outlives the test)
    a.forget(owned)  # and so is the lease, but nobody took it yet
    monkeypatch.setattr(forward, "ANSWER_SECONDS", 0.2)
    seat, action = to_act(replica)
    with pytest.raises(Refusal, match="try-again"):
        replica.submit(seat, action, replica.version)
    assert replica.version == 0


def test_a_replica_that_missed_a_message_reloads_the_log(two_hubs: Pair) -> None:
    a, b = two_hubs()
    owned = two_people(a)
    replica, screen = watch(b, owned.id, 0)
    del b.sessions[owned.id]  # deaf for two moves, as if the broker lost them
    for _ in range(2):
        owned.submit(*to_act(owned), owned.version)
    time.sleep(0.2)  # the two messages reached b and were dropped
    b.sessions[owned.id] = replica
    assert replica.version == 0
    owned.submit(*to_act(owned), owned.version)  # version 3 follows 0: a gap
    eventually(lambda: replica.version == 3)
    assert replica.state == owned.state
    eventually(lambda: screen.messages[-1][0] == 3)


def test_two_owners_racing_store_one_move_and_the_loser_reloads(two_hubs: Pair) -> None:
    a, b = two_hubs(shared=False)  # each believes it owns every table
    first = two_people(a)
    second = b.get(first.id)
    assert second is not None and second.owned
    seat, action = to_act(first)
    other = str(first.game.legal_actions(first.state)[-1])
    first.submit(seat, action, 0)
    with pytest.raises(Refusal, match="try-again"):
        second.submit(seat, other, 0)
    assert a.store.load(first.id).log == (action,)  # type: ignore[union-attr]
    assert second.version == 1 and second.state == first.state


def test_a_dead_owners_table_is_taken_over_where_it_is_watched(two_hubs: Pair) -> None:
    a, b = two_hubs()
    owned = two_people(a)
    replica, _screen = watch(b, owned.id, 0)
    owned.submit(*to_act(owned), 0)
    a.stopped = True  # dead: it renews nothing any more
    started = time.monotonic()
    while not replica.owned and time.monotonic() - started < LEASE * 4:
        time.sleep(0.05)
    assert replica.owned, "the lease never moved"
    eventually(lambda: replica.version == 1)  # reloaded, whichever came first
    seat, action = to_act(replica)
    replica.submit(seat, action, 1)
    # The old owner, alive after all, hears the new owner's news and steps down.
    eventually(lambda: not owned.owned and owned.version == 2)
    with pytest.raises(Refusal, match="stale"):
        owned.submit(*to_act(owned), 1)
    assert len(a.store.load(owned.id).log) == 2  # type: ignore[union-attr]


def test_more_time_a_reaction_and_a_sign_in_reach_the_other_process(two_hubs: Pair) -> None:
    a, b = two_hubs()
    owned = two_people(a)
    seat = to_act(owned)[0]
    _session, owners_screen = watch(a, owned.id, 1 - seat)
    replica, _screen = watch(b, owned.id, seat)
    eventually(lambda: replica.deadline is not None)  # the owner's news after b's join
    replica.more_time(seat)
    assert owned.extended
    eventually(lambda: replica.extended)
    emotes.react(replica, seat, "thanks")
    eventually(lambda: f'id="emote-{seat}"' in owners_screen.messages[-1][1])
    b.transfer("g-a", "u-1")  # the guest signed in on b
    eventually(lambda: owned.seats[0].player == "u-1")


def test_a_dead_owners_table_nobody_watches_is_swept_up(two_hubs: Pair) -> None:
    a, b = two_hubs()
    owned = two_people(a)
    a.stopped = True  # dead: it renews nothing any more
    eventually(lambda: owned.id in b.sessions and b.sessions[owned.id].owned, LEASE * 10)


def test_a_seat_held_by_a_dead_process_is_away_at_the_owner(two_hubs: Pair) -> None:
    a, b = two_hubs()
    owned = two_people(a)
    watch(b, owned.id, 0)
    eventually(lambda: owned.present() == {0})
    b.stopped = True  # dead: it no longer says its sockets are there
    eventually(lambda: owned.present() == set(), LEASE * 8)
    assert 0 in owned.away_since


def test_a_process_says_its_seats_on_every_table_in_one_message_a_round(
    two_hubs: Pair, monkeypatch: pytest.MonkeyPatch
) -> None:
    a, b = two_hubs()
    tables = [two_people(a) for _ in range(3)]
    replicas = [watch(b, owned.id, 0)[0] for owned in tables]
    eventually(lambda: all(owned.present() == {0} for owned in tables))
    # The owner's news of the seat names it (its first news to b), and b tells that new
    # owner its seats at once, a message a table: not a round's.
    eventually(lambda: all(replica.followed == "a" for replica in replicas))
    time.sleep(0.2)
    said: list[str] = []
    publish = b.channels.publish

    def noted(topic: str, message: object) -> None:
        said.append(topic)
        publish(topic, message)

    monkeypatch.setattr(b.channels, "publish", noted)
    # Past three lease times, the owner's patience: b's seats are still there, because
    # its rounds said so, each in one message for the three tables.
    time.sleep(LEASE * 4)
    assert all(owned.present() == {0} and 0 not in owned.away_since for owned in tables)
    rounds = said.count("held:b")
    assert rounds >= 1 and said == ["held:b"] * rounds


def test_ending_a_table_at_a_replica_ends_it_at_the_owner(two_hubs: Pair) -> None:
    a, b = two_hubs()
    owned = two_people(a)
    _session, owners_screen = watch(a, owned.id, 1)
    replica, screen = watch(b, owned.id, 0)
    replica.end()
    assert owned.finished and owned.timer is None and a.store.unfinished() == []
    assert owners_screen.closed == screen.closed == 1000


def test_a_table_being_opened_is_never_taken_by_another_process(
    two_hubs: Pair, monkeypatch: pytest.MonkeyPatch
) -> None:
    a, b = two_hubs(tend=False)
    create, restored = a.store.create, list[int]()

    def create_then_b_restores(*args: Any, **kwargs: Any) -> None:
        # b's tending sweeps up unfinished tables without an owner: it runs just as the
        # new table is stored, before a's create() has returned.
        create(*args, **kwargs)
        restored.append(b.restore())

    monkeypatch.setattr(a.store, "create", create_then_b_restores)
    owned = two_people(a)
    assert restored == [0] and owned.owned and owned.id not in b.sessions
