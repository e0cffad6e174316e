"""The broker between processes, against a real Redis server: what one process publishes
reaches every other's handlers once, in order for each kind, a slow kind holds up no
other, and a reader that lost Redis reconnects and says it may have missed messages."""

from __future__ import annotations

import contextlib
import queue
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import close_app
from tests.databases import migrated_instance
from tests.redis import RedisServer
from webapp import create_app, redis_broker
from webapp.channels import Channels, LocalBroker
from webapp.config import TestConfig
from webapp.redis_broker import RedisBroker, connect

WAIT = 5.0


class Heard:
    """What a process's handlers were called with, to wait on."""

    def __init__(self) -> None:
        self.queue: queue.Queue[tuple[str, object]] = queue.Queue()

    def __call__(self, topic: str, message: object) -> None:
        self.queue.put((topic, message))

    def next(self) -> tuple[str, object]:
        return self.queue.get(timeout=WAIT)

    def nothing_more(self) -> bool:
        try:
            self.queue.get(timeout=0.2)
        except queue.Empty:
            return True
        return False


class Held(Heard):
    """A handler stuck (waiting for a database connection, say) until released."""

    def __init__(self) -> None:
        super().__init__()
        self.release = threading.Event()

    def __call__(self, topic: str, message: object) -> None:
        self.release.wait(WAIT)
        super().__call__(topic, message)


@pytest.fixture
def brokers(redis_url: str) -> Iterator[tuple[RedisBroker, RedisBroker]]:
    pair = RedisBroker(connect(redis_url)), RedisBroker(connect(redis_url))
    yield pair
    for broker in pair:
        broker.close()


def listening(*brokers: RedisBroker) -> None:
    """Wait for the brokers' readers (those that listen) to be subscribed."""
    for broker in brokers:
        assert broker.listening.wait(WAIT)


def test_two_processes_channels_hear_each_other_once_and_in_order(
    brokers: tuple[RedisBroker, RedisBroker],
) -> None:
    one, two = Channels(brokers[0]), Channels(brokers[1])
    heard_one, heard_two, rooms_two = Heard(), Heard(), Heard()
    one.listen("table", heard_one)
    two.listen("table", heard_two)
    two.listen("room", rooms_two)
    listening(*brokers)
    for version in (1, 2, 3):
        one.publish("table:abc", version)
    two.publish("room:ABC234", {"code": "ABC234"})
    # The publisher's own handlers at once (no round trip), the other's through Redis.
    assert [heard_one.next() for _ in range(3)] == [("table:abc", v) for v in (1, 2, 3)]
    assert [heard_two.next() for _ in range(3)] == [("table:abc", v) for v in (1, 2, 3)]
    assert rooms_two.next() == ("room:ABC234", {"code": "ABC234"})
    # Nobody hears a message twice, nor one of another kind.
    assert heard_one.nothing_more() and heard_two.nothing_more() and rooms_two.nothing_more()


def test_a_failing_handler_does_not_stop_the_reader(
    brokers: tuple[RedisBroker, RedisBroker],
) -> None:
    one, two = Channels(brokers[0]), Channels(brokers[1])
    heard = Heard()

    def failing(topic: str, message: object) -> None:
        raise RuntimeError("a broken render")

    two.listen("me", failing)
    two.listen("me", heard)
    listening(brokers[1])
    one.publish("me:u-1", "badge")
    one.publish("me:u-1", "list")
    assert [heard.next(), heard.next()] == [("me:u-1", "badge"), ("me:u-1", "list")]


def test_a_slow_kind_does_not_hold_up_the_others(
    brokers: tuple[RedisBroker, RedisBroker],
) -> None:
    """A room's handler waiting (for a database connection, say) leaves the tables' moves
    and the forwarded requests' answers to go on; its own messages wait, in order."""
    one, two = Channels(brokers[0]), Channels(brokers[1])
    tables, rooms = Heard(), Held()
    two.listen("room", rooms)
    two.listen("table", tables)
    listening(brokers[1])
    one.publish("room:ABC234", 1)
    one.publish("room:ABC234", 2)
    one.publish("table:abc", 7)
    assert tables.next() == ("table:abc", 7)
    assert rooms.nothing_more()  # still waiting
    rooms.release.set()
    assert [rooms.next(), rooms.next()] == [("room:ABC234", 1), ("room:ABC234", 2)]


def test_a_kind_far_behind_drops_its_backlog_and_resyncs(
    brokers: tuple[RedisBroker, RedisBroker], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Messages do not pile up without end behind a stuck handler: past the backlog they
    are dropped and the process resyncs, as after a lost connection."""
    monkeypatch.setattr(redis_broker, "BACKLOG", 3)
    one, two = Channels(brokers[0]), Channels(brokers[1])
    rooms, gaps = Held(), Heard()
    two.listen("room", rooms)
    two.on_gap.append(lambda: gaps("gap", None))
    listening(brokers[1])
    for n in range(6):
        one.publish("room:ABC234", n)
    assert gaps.next() == ("gap", None)
    rooms.release.set()
    heard = []
    with contextlib.suppress(queue.Empty):
        while True:
            heard.append(rooms.queue.get(timeout=0.5)[1])
    assert heard[-1] == 5 and len(heard) < 6  # the latest kept, those behind dropped


def test_after_a_redis_restart_the_reader_reconnects_and_announces_the_gap(
    redis_server: RedisServer, brokers: tuple[RedisBroker, RedisBroker]
) -> None:
    one, two = Channels(brokers[0]), Channels(brokers[1])
    heard, gaps = Heard(), Heard()
    two.listen("table", heard)
    two.on_gap.append(lambda: gaps("gap", None))
    listening(brokers[1])
    one.publish("table:abc", 1)
    assert heard.next() == ("table:abc", 1)

    redis_server.restart()
    # Whatever was published while the reader was away is lost: it hears of the gap.
    assert gaps.next() == ("gap", None)
    one.publish("table:abc", 5)
    assert heard.next() == ("table:abc", 5)


def test_a_publish_while_redis_is_away_still_reaches_its_own_process(
    redis_server: RedisServer, brokers: tuple[RedisBroker, RedisBroker]
) -> None:
    one = Channels(brokers[0])
    heard = Heard()
    one.listen("table", heard)
    redis_server.stop()
    try:
        one.publish("table:abc", 2)
        assert heard.next() == ("table:abc", 2)
    finally:
        redis_server.start()


def test_the_app_takes_redis_as_its_broker_when_redis_url_is_set(
    tmp_path: Path, redis_url: str
) -> None:
    instance = migrated_instance(tmp_path / "instance")
    shared = create_app(TestConfig(instance, {"REDIS_URL": redis_url}))
    alone = create_app(TestConfig(tmp_path / "alone"))
    try:
        assert isinstance(shared.services.channels.broker, RedisBroker)
        assert shared.services.redis is not None
        assert isinstance(alone.services.channels.broker, LocalBroker)
        assert alone.services.redis is None
    finally:
        close_app(shared)
        close_app(alone)
