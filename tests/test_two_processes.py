"""Two processes of the site over one database and one Redis, as two apps in this test's
process (each with its own broker, facts and limiter, as two workers have): what changes
on one reaches the other's sockets, presence and invites are the same from both, rate
limits count once for both, and a Redis restart is survived.  The two-server test with
real gunicorn processes is tests/test_two_servers.py."""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import close_app
from tests.databases import migrated
from tests.redis import RedisServer
from webapp import create_app
from webapp.channels import Subscriber
from webapp.config import TestConfig
from webapp.facts import RedisFacts
from webapp.locks import RedisLocks
from webapp.redis_broker import RedisBroker, connect
from webapp.services import Lapau
from webapp.social.presence import Place
from webapp.social.sockets import Mailbox

WAIT = 5.0


class Page:
    """A socket that keeps what it is sent, to wait on."""

    def __init__(self) -> None:
        self.queue: queue.Queue[str] = queue.Queue()

    def send(self, data: str) -> None:
        self.queue.put(data)

    def close(self, reason: int = 1000, message: str | None = None) -> None:
        pass

    def until(self, text: str) -> str:
        deadline = time.monotonic() + WAIT
        while True:
            data = self.queue.get(timeout=max(0.01, deadline - time.monotonic()))
            if text in data:
                return data


def eventually(check: object, seconds: float = WAIT) -> None:
    assert callable(check)
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "not within the wait"
        time.sleep(0.01)


@pytest.fixture(autouse=True)
def nothing_failed(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    """No handler of another process's message, nor of a gap, failed (a failing one is
    logged and skipped, so the test would not see it otherwise)."""
    yield
    records = caplog.get_records("setup") + caplog.get_records("call")
    failed = [r.getMessage() for r in records if r.levelno >= logging.ERROR]
    assert failed == []


@pytest.fixture
def two(tmp_path: Path, database_url: str, redis_url: str) -> Iterator[tuple[Lapau, Lapau]]:
    environ = {"DATABASE_URL": migrated(database_url), "REDIS_URL": redis_url}
    apps = tuple(
        create_app(TestConfig(tmp_path / name, environ, WTF_CSRF_ENABLED=False))
        for name in ("a", "b")
    )
    for app in apps:
        broker = app.services.channels.broker
        assert isinstance(broker, RedisBroker) and broker.listening.wait(WAIT)
    yield apps[0], apps[1]
    for app in apps:
        close_app(app)


def test_a_room_changed_on_one_reaches_the_watchers_on_the_other(
    two: tuple[Lapau, Lapau],
) -> None:
    a, b = two
    code = a.services.rooms.create("koa", "g-host", "Hosta").code
    host_page, guest_page = Page(), Page()
    a.services.rooms.watch(code, Subscriber(host_page, language="en", person="g-host"))
    b.services.rooms.join(code, "g-two", "Tamu")
    b.services.rooms.watch(code, Subscriber(guest_page, language="en", person="g-two"))
    # Both people, on both processes, each seen as here by the other.
    assert "Tamu" in host_page.until("Tamu")
    assert "Hosta" in guest_page.until("Hosta")
    for app in two:
        assert app.services.rooms.online(code) == {"g-host", "g-two"}


def test_presence_on_one_is_seen_from_the_other(two: tuple[Lapau, Lapau]) -> None:
    a, b = two
    assert a.services.social.status("u-7").state == "offline"
    with b.app_context():  # as a socket's request has (status changes read friends)
        page = b.services.social.presence.open("u-7")
    assert a.services.social.status("u-7").state == "online"
    # A waiting room's seat, changed on A, is where B's socket's person plays, for both.
    room = Place("room", "room:ABC234", "koa", "/id/room/ABC234", joinable=True)
    a.services.channels.publish("place:room:ABC234", {"place": room.__dict__, "seated": ["u-7"]})
    eventually(lambda: a.services.social.status("u-7").place == room)
    with b.app_context():
        b.services.social.presence.close(page)
    assert a.services.social.status("u-7").state == "offline"


def test_an_invite_sent_on_one_reaches_the_friend_on_the_other(
    two: tuple[Lapau, Lapau],
) -> None:
    a, b = two
    mailbox = Mailbox()
    with a.app_context():
        a.services.channels.join("me:u-2", Subscriber(mailbox, person="u-2"))
    made = b.services.social.invites.add("u-1", "ana", "u-2", "koa", "/en/room/ABC234")
    b.services.social.tell("u-2", "invites")
    assert mailbox.drain() == ["invites"]
    assert a.services.social.invites.of("u-2") == [made]
    # Answered on A, it is gone for B; answered once only.
    assert a.services.social.invites.take("u-2", made.id) == made
    assert b.services.social.invites.take("u-2", made.id) is None
    again = b.services.social.invites.add("u-1", "ana", "u-2", "koa", "/id/room/ABC234")
    assert a.services.social.invites.expire("/nl/room/ABC234") == {"u-2"}
    assert b.services.social.invites.of("u-2") == [] and again.id


def test_rate_limits_count_once_for_every_process(two: tuple[Lapau, Lapau]) -> None:
    # Guessing room codes: 12 a minute per address, whichever process answers.
    clients = [app.test_client() for app in two]
    statuses = [
        clients[n % 2].post("/en/room/join", data={"code": f"YYY9{n:02d}"}).status_code
        for n in range(14)
    ]
    assert statuses[:12] == [404] * 12
    assert statuses[12:] == [429, 429]


def test_after_a_redis_restart_pages_resync_and_presence_is_stated_again(
    redis_server: RedisServer, two: tuple[Lapau, Lapau]
) -> None:
    a, b = two
    mailbox = Mailbox()
    with a.app_context():
        a.services.channels.join("me:u-3", Subscriber(mailbox, person="u-3"))
        page = a.services.social.presence.open("u-3")
    assert b.services.social.status("u-3").state == "online"

    redis_server.restart()  # empty: every process's facts gone, messages maybe missed
    # Each page renders all it shows again; the statuses are back.
    assert mailbox.queue.get(timeout=WAIT) in {"invites", "badge", "list", "offer"}
    eventually(lambda: b.services.social.status("u-3").state == "online")
    with a.app_context():
        a.services.social.presence.close(page)


def test_a_process_that_stops_stating_its_facts_is_forgotten(redis_url: str) -> None:
    alive, dead = RedisFacts(connect(redis_url)), RedisFacts(connect(redis_url), 0.2, 0.05)
    try:
        alive.put("here:ABC234", ["u-1"])
        dead.put("here:ABC234", ["u-2"])
        assert sorted(map(str, alive.gather("here:ABC234"))) == ["['u-1']", "['u-2']"]
        dead.close()  # as kill -9: nothing dropped, nothing restated any more
        eventually(lambda: alive.gather("here:ABC234") == [["u-1"]], seconds=2)
    finally:
        alive.close()


def test_many_keys_are_gathered_at_once_as_each_alone(redis_url: str) -> None:
    """A friends list reads every friend's status at once (one pipelined round trip): the
    same values as reading each, and a lapsed process's facts dropped there too."""
    client = connect(redis_url)
    one, two = RedisFacts(client), RedisFacts(connect(redis_url), 0.2, 60)
    try:
        one.put("presence:u-1", "online")
        two.put("presence:u-1", "playing")
        two.put("presence:u-2", "online")
        keys = ["presence:u-1", "presence:u-2", "presence:u-3"]
        assert one.gather_many(keys) == [one.gather(key) for key in keys]
        assert sorted(map(str, one.gather_many(keys)[0])) == ["online", "playing"]
        time.sleep(0.25)  # ``two`` lapses (not restated within its 0.2 s)
        assert one.gather_many(keys) == [["online"], [], []]
        assert client.hgetall("lapau:facts:presence:u-2") == {}  # its lapsed facts cleared
    finally:
        one.close()
        two.close()


class Closing:
    def __init__(self) -> None:
        self.closed: queue.Queue[int] = queue.Queue()

    def close(self, reason: int = 1000, message: str | None = None) -> None:
        self.closed.put(reason)


def test_a_sign_in_ended_on_one_closes_its_sockets_on_the_other(
    two: tuple[Lapau, Lapau],
) -> None:
    a, b = two
    mine, other = Closing(), Closing()
    with (
        a.services.signed_in.hold(12, "key-1", mine),
        a.services.signed_in.hold(12, "key-2", other),
    ):
        b.services.signed_in.end(12, "key-1")
        assert mine.closed.get(timeout=WAIT) == 1000
        assert other.closed.empty()
        b.services.signed_in.end(12)
        assert other.closed.get(timeout=WAIT) == 1000


def test_two_processes_changing_one_room_at_once_lose_no_change(
    two: tuple[Lapau, Lapau],
) -> None:
    """Three people join at once, through both processes, each reading the room, adding
    themselves and writing it back: under the room's lock in Redis all three are seated.
    (Without it, one join in two rounds is lost here; the rounds make that certain.)"""
    a, b = two
    for _ in range(4):
        code = a.services.rooms.create("koa", "g-host", "Host").code  # three free seats
        threads = [
            threading.Thread(target=app.services.rooms.join, args=(code, f"g-{n}", f"P{n}"))
            for n, app in enumerate((a, b, a))
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        room = b.services.rooms.get(code)
        assert room is not None
        assert sorted(room.humans()) == ["g-0", "g-1", "g-2", "g-host"]


def test_a_rematch_asked_on_both_is_one_room(redis_url: str) -> None:
    one, other = RedisLocks(connect(redis_url)), RedisLocks(connect(redis_url))
    with one.hold("rematch:t1"), one.hold("rematch:t1"):  # reentrant
        one.note("rematch:t1", "ABC234")
        waiting = threading.Thread(target=lambda: other.hold("rematch:t1").__enter__())
        waiting.start()
        waiting.join(0.2)
        assert waiting.is_alive()  # the other process waits for the lock
    waiting.join(WAIT)
    assert other.noted("rematch:t1") == "ABC234"
