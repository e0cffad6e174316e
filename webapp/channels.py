"""The live layer: channels of subscribers, one delivery path, and the broker behind them.

Every live page holds one socket on one *channel*, named by a topic: a table
(``table:<id>``), a room (``room:<code>``) or a player's own pages (``me:<player>``).
Some topics carry moments to another's sockets: a table's reactions (``reaction:<id>``,
to the table's), a place's change for presence (``place:<key>``), an account's ended
sign-in (``account:<id>``, closing its sockets).  A
socket on a channel is a :class:`Subscriber`: its connection, whose it is, the seat it
sees from, its language and card style.

- **Publishing.**  An area that changed something publishes to the topic
  (:meth:`Channels.publish`); the area's handler, subscribed for the topic's kind
  (:meth:`Channels.listen`), renders for this process's subscribers and delivers.  The
  publish goes through a :class:`Broker`: in-process (:class:`LocalBroker`, which calls
  the handlers at once) unless ``REDIS_URL`` is set; then Redis pub/sub carries the same
  messages to every process as well (webapp/redis_broker.py), without tables, rooms or
  friends knowing.  Messages are small and plain, as JSON carries them (a version, a
  code, a name of what changed), never rendered pages: each process renders for its own
  sockets.
- **Gaps.**  A broker between processes may lose messages (its connection broke): its
  ``on_gap`` then tells whoever keeps state from messages to resync from the whole
  state (:attr:`Channels.on_gap`).
- **Delivering.**  :meth:`Channels.deliver` is the one path to a socket: a send that
  fails drops the subscriber from its channel, so a dead socket never stops a fan-out.
- **Rendering outside a request.**  A move or a timer reaches everyone from another
  socket's request, or none: :func:`rendering` gives the templates a subscriber's
  language and card style.
- **Events.**  Joining and leaving a channel are events (webapp/events.py): presence
  listens to them instead of being called by the sockets.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, Protocol
from weakref import WeakKeyDictionary

from flask import Flask, g
from flask.ctx import RequestContext
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface
from flask.testing import EnvironBuilder

from webapp.events import Event
from webapp.locale import DEFAULT_LANGUAGE


class Connection(Protocol):
    """What a channel needs of a socket (webapp/sockets.py's LiveSocket, or a test's)."""

    def send(self, data: str) -> None: ...

    def close(self, reason: int = 1000, message: str | None = None) -> None: ...


@dataclass(frozen=True)
class Place:
    """Where a subscriber plays: a running table (watchable) or a waiting room (maybe
    joinable); presence shows it to their friends."""

    kind: str
    key: str
    game: str
    #: A path on this site, in any language (each reader gets it in theirs).
    link: str
    joinable: bool = False


@dataclass(eq=False)
class Subscriber:
    """One open socket on a channel."""

    connection: Connection
    #: The seat it sees the table from (None: a spectator, or not a table).
    seat: int | None = None
    language: str = DEFAULT_LANGUAGE
    #: Text cards instead of pictures (the display setting).
    lite: bool = False
    #: The players' reactions shown at a table (the display setting).
    reactions: bool = True
    #: Whose socket it is (None: a browser with no identity yet).
    person: str | None = None
    #: Where its person plays while it is open (a seat at a running table), for presence.
    place: Place | None = None
    #: Fragments this socket shows that the others on its channel were not sent (a
    #: refusal's notice, a fresher render when it joined), by element id: its channel's
    #: next message handles those on its own.
    own: dict[str, str] = field(default_factory=dict)

    @property
    def audience(self) -> tuple[int | None, str, bool]:
        """What a render for it depends on: subscribers with the same see the same bytes."""
        return (self.seat, self.language, self.lite)


#: Handles what was published to a topic of its kind: (topic, message).
Handler = Callable[[str, object], None]


class Broker(Protocol):
    """Carries published messages to the handlers of a topic's kind, in every process."""

    #: Messages from other processes may have been lost (emitted once it carries them again).
    on_gap: Event[[]]

    def publish(self, topic: str, message: object) -> None: ...

    def subscribe(self, kind: str, handler: Handler) -> None: ...

    def close(self) -> None: ...


def kind_of(topic: str) -> str:
    """
    >>> kind_of("table:abc")
    'table'
    """
    return topic.partition(":")[0]


class LocalBroker:
    """The broker of one process: a publish calls the kind's handlers at once, in the
    publisher's greenlet (under its lock, as the fan-out always ran)."""

    def __init__(self) -> None:
        self.handlers: dict[str, list[Handler]] = {}
        #: Never emitted: nothing is lost within a process.
        self.on_gap = Event[[]]("broker gap")

    def publish(self, topic: str, message: object) -> None:
        for handler in list(self.handlers.get(kind_of(topic), ())):
            handler(topic, message)

    def subscribe(self, kind: str, handler: Handler) -> None:
        self.handlers.setdefault(kind, []).append(handler)

    def close(self) -> None:
        pass


class Channels:
    """Every channel's subscribers in this process, and the broker between processes."""

    def __init__(self, broker: Broker | None = None) -> None:
        self.broker: Broker = broker or LocalBroker()
        self.lock = threading.RLock()
        self.topics: dict[str, list[Subscriber]] = {}
        #: A subscriber joined a topic (after it is on it), and left it.
        self.on_join = Event[[str, Subscriber]]("subscribed")
        self.on_leave = Event[[str, Subscriber]]("unsubscribed")
        #: Messages from other processes may have been lost: resync from the whole state.
        self.on_gap = self.broker.on_gap

    def subscribers(self, topic: str) -> list[Subscriber]:
        with self.lock:
            return list(self.topics.get(topic, ()))

    def topics_of(self, kind: str) -> list[str]:
        """The topics of ``kind`` that have subscribers in this process."""
        with self.lock:
            return [topic for topic in self.topics if kind_of(topic) == kind]

    def join(self, topic: str, subscriber: Subscriber) -> None:
        with self.lock:
            self.topics.setdefault(topic, []).append(subscriber)
        self.on_join.emit(topic, subscriber)

    def leave(self, topic: str, subscriber: Subscriber) -> bool:
        """Take ``subscriber`` off ``topic``; whether it was on it (a dead socket may have
        been dropped by a failed send already, and leaves once)."""
        with self.lock:
            found = self.topics.get(topic, [])
            if subscriber not in found:
                return False
            found.remove(subscriber)
            if not found:
                del self.topics[topic]
        self.on_leave.emit(topic, subscriber)
        return True

    @contextmanager
    def joined(self, topic: str, subscriber: Subscriber) -> Iterator[Subscriber]:
        """On ``topic`` while the block runs."""
        self.join(topic, subscriber)
        try:
            yield subscriber
        finally:
            self.leave(topic, subscriber)

    def deliver(self, topic: str, subscriber: Subscriber, data: str) -> bool:
        """Send ``data`` to one subscriber; one whose socket is dead leaves ``topic``."""
        try:
            subscriber.connection.send(data)
        except Exception:  # noqa: BLE001 - a dead socket must not stop the fan-out
            self.leave(topic, subscriber)
            return False
        return True

    def publish(self, topic: str, message: object) -> None:
        """Tell every process's handlers of the topic's kind what changed."""
        self.broker.publish(topic, message)

    def listen(self, kind: str, handler: Handler) -> None:
        """Call ``handler`` with what is published to every topic of ``kind``."""
        self.broker.subscribe(kind, handler)


class Rendering(RequestContext):
    """A request context for rendering outside any request, made once and pushed again
    for each render: its URL is matched once (the request, its URL adapter and its empty
    session are made once too), where a new request context cost a hundred microseconds
    a render, matching and binding URLs, on every move of every table."""

    matched: tuple[Any, Any] | None = None

    def match_request(self) -> None:
        if self.matched is None:
            super().match_request()
            self.matched = (self.request.url_rule, self.request.view_args)
        else:
            self.request.url_rule, self.request.view_args = self.matched


#: Each app's rendering contexts not in use, per language, for :func:`rendering`.
_READY: WeakKeyDictionary[Flask, dict[str, Rendering]] = WeakKeyDictionary()


def _rendering_context(app: Flask, language: str) -> Rendering:
    """A request for ``/<language>/`` without cookies, whose session is the empty one such
    a request opens (made without a signing serializer to find that out)."""
    builder = EnvironBuilder(app, f"/{language}/")
    try:
        environ = builder.get_environ()
    finally:
        builder.close()
    cookieless = app.secret_key and isinstance(app.session_interface, SecureCookieSessionInterface)
    session = SecureCookieSession() if cookieless else None  # None: opened as usual
    return Rendering(app, environ, session=session)


#: The language of the render in progress outside requests (:func:`rendering`), None
#: elsewhere: webapp/play/once.py reads it instead of asking Flask-Babel, which took 5 µs
#: each time, about twenty times a Koa move.
RENDER_LANGUAGE: ContextVar[str | None] = ContextVar("render_language", default=None)


@contextmanager
def rendering(app: Flask, language: str, lite: bool = False) -> Iterator[None]:
    """Templates rendered in the block are in ``language`` and card style, outside any
    request: a fresh app context, so a fresh ``g``, since the change being sent usually
    arrives in another person's request, whose language Flask-Babel settled on its own.

    Every move renders in one (per language), so its request context is made once per
    language and taken while in use: two renders at once (one waiting inside its block)
    each have their own.
    """
    ready = _READY.setdefault(app, {})
    context = ready.pop(language, None) or _rendering_context(app, language)
    said_in = RENDER_LANGUAGE.set(language)
    try:
        with app.app_context(), context:
            g.lang_code = language
            g.lite_cards = lite
            yield
    finally:
        RENDER_LANGUAGE.reset(said_in)
        ready[language] = context
