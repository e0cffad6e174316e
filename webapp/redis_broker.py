"""The broker between processes: Redis pub/sub carries what one process publishes to every
other (webapp/channels.py's :class:`~webapp.channels.Broker`, chosen by ``REDIS_URL``).

- **Publishing** calls this process's handlers at once, as :class:`LocalBroker` does (so a
  process alone behaves exactly as without Redis, and its own sockets wait for no round
  trip), then PUBLISHes the message as JSON on the topic kind's Redis channel
  (``lapau:table``, ``lapau:room``, ``lapau:me``), marked with this process's id.
- **Listening**: one thread per process (a greenlet under gevent's monkey patch, where
  redis-py's socket reads wait cooperatively) reads every ``lapau:*`` message and calls
  the kind's handlers, skipping its own.  One reader keeps the order Redis received them
  in, and a failing handler is logged and skipped.
- **Gaps**: pub/sub keeps nothing for an absent reader.  When the connection breaks (a
  Redis restart, a network cut; a ping every ``HEALTH_CHECK`` seconds finds a silent one)
  the reader reconnects, with a growing pause, and then emits ``on_gap``: whoever keeps
  state from messages (tables, rooms, players' pages, presence) resyncs from the database
  or the whole state, since anything may have been missed in between.

Messages are small and plain (a version, a code, a name of what changed): anything
``json.dumps`` takes.
"""

from __future__ import annotations

import json
import logging
import secrets
import threading
import time
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


class RedisBroker:
    """Carries published messages to the handlers of every process through Redis."""

    def __init__(self, client: redis.Redis) -> None:
        self.client = client
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
            pubsub = PubSub(self.client.connection_pool, ignore_subscribe_messages=True)
            try:
                pubsub.psubscribe(PREFIX + "*")
                self.listening.set()
                if broken:
                    log.warning("reconnected to Redis: resyncing")
                    broken, pause = False, RETRY_FIRST
                    self.on_gap.emit()
                while not self.closed:
                    message = pubsub.get_message(timeout=POLL)
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
        for handler in list(self.local.handlers.get(kind_of(topic), ())):
            try:
                handler(topic, data.get("message"))
            except Exception:  # the next message must still be read
                log.exception("a handler of %s failed", topic)

    def close(self) -> None:
        """Close the connections: the reader's read fails at once and it stops, after
        the message it is handling (which may still use the database)."""
        self.closed = True
        self.client.close()
        if self.reader is not None and self.reader is not threading.current_thread():
            self.reader.join(POLL + 1)
