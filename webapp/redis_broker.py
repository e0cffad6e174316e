"""The broker between processes: Redis pub/sub carries what one process publishes to every
other (webapp/channels.py's :class:`~webapp.channels.Broker`, chosen by ``REDIS_URL``).

- **Publishing** calls this process's handlers at once, as :class:`LocalBroker` does (so a
  process alone behaves exactly as without Redis, and its own sockets wait for no round
  trip), then PUBLISHes the message as JSON on the topic kind's Redis channel
  (``lapau:table``, ``lapau:room``, ``lapau:me``), marked with this process's id.
- **Listening**: one thread per process (a greenlet under gevent's monkey patch, where
  redis-py's socket reads wait cooperatively) reads every ``lapau:*`` message, skips its
  own, and queues it for its kind's handlers, which run in a thread of their own per kind,
  in the order Redis received that kind's messages; a failing handler is logged and
  skipped.  A slow kind does not hold up the others: a room's handler reads the database
  and may wait for a connection behind a burst of requests, while a table's move, a
  forwarded request and its answer must not (two servers behind one load balancer had
  moves wait seconds behind 250 rooms opening at once).
- **Gaps**: pub/sub keeps nothing for an absent reader.  When the connection breaks (a
  Redis restart, a network cut; a ping every ``HEALTH_CHECK`` seconds finds a silent one)
  the reader reconnects, with a growing pause (or redis-py does, on its own, which the
  :class:`Subscription` notices), and then emits ``on_gap``: whoever keeps
  state from messages (tables, rooms, players' pages, presence) resyncs from the database
  or the whole state, since anything may have been missed in between.

Messages are small and plain (a version, a code, a name of what changed): anything
``json.dumps`` takes.
"""

from __future__ import annotations

import json
import logging
import queue
import secrets
import threading
import time
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from typing import Any

import redis
from redis.client import PubSub

from webapp.channels import Handler, LocalBroker, kind_of
from webapp.events import Event

log = logging.getLogger(__name__)

#: The Redis channels' prefix: one channel per topic kind.
PREFIX = "lapau:"
#: Seconds between the reader's pings while no message arrives: a connection that died
#: without a word (no reset from the other side) is found within about this long.
HEALTH_CHECK = 5
#: Seconds a read waits before the reader looks at whether it is closed.
POLL = 1.0
#: Messages of one kind waiting for its handlers beyond which they are dropped for a resync.
BACKLOG = 10_000
#: The reader's pauses between attempts to reconnect: doubled each time, up to the last.
RETRY_FIRST, RETRY_MOST = 0.05, 2.0


def connect(url: str) -> redis.Redis:
    """A client for ``url`` that gives up quickly on a Redis that is away (the callers
    hold locks: a publish must not hang) and answers ``str``."""
    return redis.Redis.from_url(
        url,
        decode_responses=True,
        socket_connect_timeout=2,
        socket_timeout=5,
        health_check_interval=HEALTH_CHECK,
    )


class Subscription(PubSub):
    """A pub/sub connection that notes when it was connected again: redis-py reconnects
    and resubscribes on its own (its retries, its health check) without a word, and
    whatever was published in between is lost."""

    def __init__(self, pool: redis.ConnectionPool) -> None:
        super().__init__(pool, ignore_subscribe_messages=True)
        self.reconnected = False

    def on_connect(self, connection: Any) -> None:
        # Called on every connection after the first (the first is made before the
        # callback is registered).
        self.reconnected = True
        super().on_connect(connection)


class RedisBroker:
    """Carries published messages to the handlers of every process through Redis."""

    def __init__(
        self,
        client: redis.Redis,
        context: Callable[[], AbstractContextManager[Any]] = nullcontext,
    ) -> None:
        self.client = client
        #: What the handlers of another process's message, and of a gap, run in (the
        #: app's context: they read the database and render, as in a request).
        self.context = context
        self.local = LocalBroker()
        #: Marks this process's messages, which its reader skips (already handled).
        self.origin = secrets.token_hex(8)
        #: The reader reconnected: messages may have been missed since it was last
        #: connected.  Called in the reader's thread, before it reads on.
        self.on_gap = Event[[]]("broker gap")
        #: Set while the reader is subscribed (tests wait for it).
        self.listening = threading.Event()
        self.closed = False
        self.reader: threading.Thread | None = None
        #: Each topic kind's messages waiting for its handlers (None stops its thread).
        self.queues: dict[str, queue.SimpleQueue[tuple[str, object] | None]] = {}
        self.handlers: list[threading.Thread] = []

    def subscribe(self, kind: str, handler: Handler) -> None:
        self.local.subscribe(kind, handler)
        if self.reader is None:
            self.reader = threading.Thread(target=self.read, name="redis-broker", daemon=True)
            self.reader.start()

    def publish(self, topic: str, message: object) -> None:
        self.local.publish(topic, message)
        data = json.dumps({"origin": self.origin, "topic": topic, "message": message})
        try:
            self.client.publish(PREFIX + kind_of(topic), data)
        except redis.RedisError:
            # The other processes' readers lost Redis too: they resync once it is back.
            log.warning("not published to other processes (Redis away): %s", topic)

    def read(self) -> None:
        """The reader's loop: subscribe, read and dispatch; on a broken connection,
        reconnect and announce the gap."""
        pause, broken = RETRY_FIRST, False
        while not self.closed:
            pubsub = Subscription(self.client.connection_pool)
            try:
                pubsub.psubscribe(PREFIX + "*")
                self.listening.set()
                if broken:
                    broken, pause = False, RETRY_FIRST
                    self.gap()
                while not self.closed:
                    message = pubsub.get_message(timeout=POLL)
                    if pubsub.reconnected:
                        pubsub.reconnected = False
                        self.gap()
                    if message is not None:
                        self.dispatch(message)
            except Exception as error:  # logged below; the reader must go on
                self.listening.clear()
                if self.closed:
                    return  # closed under it (its connection with the client's)
                if not isinstance(error, redis.ConnectionError | redis.TimeoutError | OSError):
                    log.exception("the broker's reader failed: reconnecting")
                elif not broken:
                    log.warning("lost Redis: reconnecting")
                broken = True
                time.sleep(pause)
                pause = min(pause * 2, RETRY_MOST)
            finally:
                pubsub.close()

    def gap(self) -> None:
        log.warning("reconnected to Redis: resyncing")
        with self.context():
            self.on_gap.emit()

    def dispatch(self, message: dict[str, Any]) -> None:
        try:
            data = json.loads(message["data"])
        except (TypeError, ValueError):
            log.warning("an unreadable message on %s", message.get("channel"))
            return
        if not isinstance(data, dict) or data.get("origin") == self.origin:
            return
        topic = data.get("topic")
        if not isinstance(topic, str):
            return
        kind = kind_of(topic)
        waiting = self.queues.get(kind)
        if self.closed:
            return
        if waiting is not None and waiting.qsize() >= BACKLOG:
            # Far behind: what waits is stale by now, and memory is not endless. Dropped,
            # as Redis drops a subscriber that reads too slowly, and resynced from truth.
            log.warning("%d %s messages behind: dropped, resyncing", waiting.qsize(), kind)
            while not waiting.empty():
                waiting.get_nowait()
            self.gap()
        if waiting is None:
            waiting = self.queues[kind] = queue.SimpleQueue()
            thread = threading.Thread(
                target=self.handle, args=(kind, waiting), name=f"redis-{kind}", daemon=True
            )
            self.handlers.append(thread)
            thread.start()
        waiting.put((topic, data.get("message")))

    def handle(self, kind: str, waiting: queue.SimpleQueue[tuple[str, object] | None]) -> None:
        """One kind's handlers, for its messages in turn, until the broker closes."""
        while (item := waiting.get()) is not None:
            topic, message = item
            with self.context():
                for handler in list(self.local.handlers.get(kind, ())):
                    try:
                        handler(topic, message)
                    except Exception:  # the next message must still be handled
                        log.exception("a handler of %s failed", topic)

    def close(self) -> None:
        """Close the connections: the reader's read fails at once and it stops; each
        kind's handlers stop after the message they are handling (which may still use
        the database), the messages queued behind it dropped."""
        self.closed = True
        for waiting in list(self.queues.values()):
            while not waiting.empty():
                waiting.get_nowait()
            waiting.put(None)
        self.client.close()
        for thread in [self.reader, *self.handlers]:
            if thread is not None and thread is not threading.current_thread():
                thread.join(POLL + 1)
