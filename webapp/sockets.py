"""What the site's three WebSockets share, whatever they carry (a table, a room, a player's
own page socket): the one flask-sock instance, the handshake's checks, the receive loop,
pings, the probe of a waking page, a record of each socket ending in one log line, and
closing every one of them when the server stops.

- **Handshake.** Every ``/ws/`` request must come from a page of this site (403), be one a
  browser sends (400) and names its language (``?lang=xx``); each area checks its target
  (a table, a room, a signed-in player) in a hook of its own, run after this one.
- **Receive loop.** :func:`serve_messages` reads each message, parses it with the one
  closed parser (webapp/messages.py) and hands it to the socket kind's handler, which
  answers with a refusal's code or nothing.

- **Pings.** A socket whose page has sent nothing for ``PING_INTERVAL`` seconds
  (``LAPAU_PING_INTERVAL``, 25 by default: PaaS routers close a socket after 55 s of
  silence; 0: never) is pinged, and closed with 1008 if nothing at all comes back by the
  next interval: a phone gone away is dropped within two intervals.  One greenlet per
  process does this for every socket (:class:`Pinger`), not the socket library.
- **Probes.** A page that becomes visible again or comes back online sends :data:`PROBE`
  and expects it back within seconds (webapp/static/js/live.js); without an answer the
  socket is dead (mobile Safari keeps such sockets for minutes), the page drops it and
  reconnects, and the server sends the whole state again.
- **A message budget** (webapp/flood.py): a burst, then a notice, then a close with 1008.
- **Caps.** One player (a browser's guest id or an account) holds at most
  :data:`PLAYER_SOCKETS` sockets, and one table or room at most :data:`TABLE_WATCHERS`
  watchers (spectators, room visitors: a seated player is never turned away from their
  own table); one address's are counted with its requests at the edge (webapp/edge.py).
  A socket past a cap is told why in its page's notice and closed with :data:`BUSY`; the
  page opens it again by itself a little later (webapp/static/js/live.js).
- **Whole sends, bounded.** Every frame goes out whole or the socket is given up: a peer
  that takes nothing for :data:`SEND_SECONDS` (a phone whose radio sleeps, a client that
  never reads) is dropped, and its kernel send buffer is :data:`SEND_BUFFER` at most
  (:class:`WholeSends`).
- **One log line per socket** when it ends (the event ``socket``, webapp/logs.py): kind,
  table id (a room's code is never logged: it is the key to the room), seat or role,
  language, duration, messages in and out, who closed it with which code.  Never a
  cookie, a player or a session id.
- **Shutdown.** Every open socket is in :class:`Sockets`; on SIGTERM (gunicorn.conf.py)
  :func:`shutdown` stops the tables' clocks and closes every socket with 1012, which the
  page answers by reconnecting to the restarted server.
"""

from __future__ import annotations

import base64
import binascii
import logging
import re
import socket
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Literal, Protocol
from urllib.parse import urlsplit

import gevent
from flask import Flask, abort, current_app, g, request
from flask_babel import lazy_gettext as _l
from flask_sock import Sock
from gevent import Timeout
from simple_websocket import ConnectionClosed
from wsproto.events import Ping

from webapp import edge, flood, logs
from webapp.locale import DEFAULT_LANGUAGE, LANGUAGES
from webapp.messages import MAX_MESSAGE, Message, Unexpected, parse
from webapp.services import services

log = logging.getLogger(__name__)

#: The one flask-sock instance: every area routes its socket through it (on its blueprint).
sock = Sock()

#: What a waking page sends, and gets back at once from a live socket.
PROBE = "probe"

Kind = Literal["table", "room", "me"]

#: A compression offer's window size (RFC 7692): the name alone, or a number after it.
WINDOW_BITS = re.compile(r"(?:client|server)_max_window_bits(?:=[0-9]{1,2})?")


def well_formed(headers: Mapping[str, str]) -> bool:
    """Whether a handshake carries what RFC 6455 asks of it (a 16-byte key, version 13)
    and compression offers whose window sizes are numbers (RFC 7692).  simple-websocket's
    protocol library raises on anything else, which would end in a server error.

    >>> key = base64.b64encode(b"sixteen byte key").decode()
    >>> well_formed({"Sec-Websocket-Key": key, "Sec-Websocket-Version": "13"})
    True
    >>> well_formed({"Sec-WebSocket-Key": key, "Sec-WebSocket-Version": "8"})
    False
    >>> offer = "permessage-deflate; client_max_window_bits=abc"
    >>> well_formed({"Sec-WebSocket-Key": key, "Sec-WebSocket-Version": "13",
    ...              "Sec-WebSocket-Extensions": offer})
    False
    """
    named = {name.lower(): value for name, value in headers.items()}  # any capitals
    try:
        nonce = base64.b64decode(named.get("sec-websocket-key", ""), validate=True)
    except (binascii.Error, ValueError):
        return False
    if len(nonce) != 16 or named.get("sec-websocket-version") != "13":
        return False
    offers = named.get("sec-websocket-extensions", "")
    parameters = [part.strip() for offer in offers.split(",") for part in offer.split(";")]
    return all(
        WINDOW_BITS.fullmatch(part)
        for part in parameters
        if part.startswith(("client_max_window_bits", "server_max_window_bits"))
    )


#: Sockets one player may hold at once.  A page holds one or two (its table's or room's,
#: and a signed-in player's own), and a phone that changes networks leaves a dead one
#: open for up to two ping intervals: 30 is a dozen tabs with room to spare, while a
#: browser opening two hundred (to one table, or to two hundred) is refused past it.
PLAYER_SOCKETS = 30
#: Seconds a send may wait for a peer that takes nothing before its socket is given up.  A
#: page asleep is dropped by its pings within two intervals anyway; this bounds what one
#: such page costs a table's fan-out meanwhile, once its buffer is full (:class:`WholeSends`).
#: A slow mobile link still takes a whole table (a few KB compressed) in well under it.
SEND_SECONDS = 10.0
#: Seconds a closing socket reads what its client still sends, until the client closes
#: too (:meth:`WholeSends.close`): a browser answers a close frame at once.
LINGER_SECONDS = 2.0
#: Bytes of the kernel's send buffer per socket: a table's move is about 1.3 KB to each
#: listener (benchmarks/README.md), so this holds two hundred moves for a page that has
#: stopped reading; 2,000 sockets hold at most 1 GB (the kernel doubles the figure).
SEND_BUFFER = 256 * 1024
#: Watchers one table or room may have at once.  A match among friends draws a handful,
#: one shown to a class a few dozen; a move reaches 300 watchers in tens of milliseconds
#: (tests/hostile/test_floods.py), so 400 stays cheap for everyone else.
TABLE_WATCHERS = 400
#: Seconds a player whose socket was closed for flooding waits before opening another: a
#: page reopens at once otherwise, and each reopening costs a handshake, a whole render
#: and a fresh budget, so the flood went on through reconnections (benchmarks/hostile.py:
#: one client's table flood raised a bystander's p95 from 8 to 402 ms, 1,421 closes in 20
#: s).  A person never floods; a page that did by mistake is back after this pause.
FLOOD_PAUSE = 15.0
#: Players paused at most at once (each entry is a few dozen bytes); past it the oldest go.
MAX_PAUSED = 10_000
#: Sockets one player may open at once, then a second: a page opens one or two as it
#: loads, so this is thirty quick reloads; a script opening and closing sockets in a loop
#: (each a handshake, a join and a whole render: 5,876 in 20 s doubled a bystander's p95
#: in benchmarks/hostile.py) is refused past it, as a flooding page is.
OPEN_BURST = 60
OPEN_RATE = 2.0
#: The close code of a socket past a cap: 1013 (try again later) in the application's
#: range, since the htmx extension would reconnect after a 1013 within a second, forever.
BUSY = 4013
#: Why a socket was refused, in words its page shows (tables and rooms add them to theirs).
REFUSALS: dict[str, Any] = {
    "busy": _l(
        "Too many connections come from your network right now. "
        "This page tries again by itself in a moment."
    ),
    "too-many-pages": _l(
        "Lapau is open in too many tabs or windows here. "
        "Close a few; this page tries again by itself in a moment."
    ),
    "crowded": _l(
        "So many people are watching that no one more fits right now. "
        "This page tries again by itself in a moment."
    ),
    "flooded": _l(
        "This page sent too many messages and was paused. It tries again by itself in a moment."
    ),
    "reopened": _l(
        "This page reconnected too often and was paused. It tries again by itself in a moment."
    ),
}


@dataclass(frozen=True)
class Ending:
    """How a socket closed: the code, its reason, and which side (or the network) ended it."""

    code: int
    reason: str
    by: Literal["server", "client", "network"]


class WholeSends:
    """A connection's socket as simple-websocket uses it, with sends that are whole and bounded.

    The library sends each frame with one ``sock.send`` and ignores how much went.  Under
    gevent a send into a full buffer waits, then sends what fits: the rest of the frame was
    lost and the page got a frame it could not decode (reproduced with a 50 KB message to a
    client that read two seconds late).  Here a send is ``sendall``, one at a time (the
    library's pongs come from its own greenlet, the pings from the pinger's, and neither may
    land inside a frame),
    and a peer that takes nothing for ``seconds`` is given up: the socket is shut down, which
    ends the library's reader, and the send raises, so a fan-out drops that subscriber and
    goes on.  The kernel's send buffer is fixed at ``buffer`` bytes (autotuning grows it to
    4 MB a socket), which bounds what a client that stops reading holds of the server.
    """

    def __init__(self, sock: socket.socket, seconds: float, buffer: int) -> None:
        # ``sock`` is gevent's (the Procfile's gevent worker): its send takes a timeout.
        self.sock = sock
        self.seconds = seconds
        self.lock = threading.Lock()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, buffer)

    def send(self, data: bytes) -> int:
        with self.lock:
            # What fits goes at once (gevent's send, told not to wait); only a rest waits,
            # under a timer that costs a few microseconds more than the send itself.
            try:
                sent: int = self.sock.send(data, 0, timeout=0.0)  # type: ignore[call-arg]
            except BlockingIOError:
                sent = 0
            if sent < len(data):
                try:
                    with Timeout(self.seconds, TimeoutError):
                        self.sock.sendall(memoryview(data)[sent:])
                except TimeoutError:
                    try:
                        self.sock.shutdown(socket.SHUT_RDWR)
                    except OSError:
                        pass  # the client went meanwhile: given up all the same
                    raise TimeoutError(f"the peer took nothing for {self.seconds:g} s") from None
        return len(data)

    def close(self) -> None:
        """Close after a linger: read what the client still sends, for ``LINGER_SECONDS``
        at most, until it closes its side (simple-websocket's reader calls this when the
        connection ends).  A socket closed with unread bytes makes the kernel reset the
        connection and drop what it had not sent yet, the close frame too: a page that sent
        while the server closed it (a flood's 1008, a restart's 1012) got a reset instead
        (reproduced: a client that sent 20 more messages after its flood close got
        ConnectionResetError 5 times in 5)."""
        try:
            self.sock.shutdown(socket.SHUT_WR)  # what is queued goes out, then the end
            with Timeout(LINGER_SECONDS, False):
                while self.sock.recv(65536):
                    pass
        except OSError:
            pass  # the client has gone already
        self.sock.close()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.sock, name)


class LiveSocket:
    """One open WebSocket: messages in and out are counted, probes answered, sends serialised.

    It wraps simple-websocket's connection and offers the same ``send``/``receive``/``close``.
    """

    def __init__(
        self,
        ws: Any,
        kind: Kind,
        target: str | None,
        language: str,
        seat: int | None = None,
        role: str = "player",
        player: str | None = None,
        crowd: str | None = None,
        notice: Callable[[str], str] | None = None,
    ) -> None:
        config = current_app.config
        # The library's reader starts reading as the socket opens, before this: a page
        # that closed at once has had its socket closed already, and has nothing to wrap.
        if ws.connected:
            ws.sock = WholeSends(
                ws.sock, config["SOCKET_SEND_SECONDS"], config["SOCKET_SEND_BUFFER"]
            )
        self.ws = ws
        self.kind = kind
        self.target = target
        self.language = language
        self.seat = seat
        self.role = role
        #: Whose socket it is, and the table or room whose watchers it joins (for the caps;
        #: neither is ever logged).
        self.player = player
        self.crowd = crowd
        #: The page's notice for a refusal code, as this kind of socket shows it (the
        #: player's page socket has no notice to show).
        self.notice = notice
        self.opened = time.monotonic()
        self.received = 0
        self.sent = 0
        self.closed: Ending | None = None
        self.budget = flood.Budget(rate=config["SOCKET_RATE"])
        #: Tells the page it sends too fast (each kind sets its own notice; the player's
        #: page socket has none to show, and is only closed).
        self.slow_down: Callable[[], None] = lambda: None
        #: Told when the socket is closed for flooding (the open sockets pause its player).
        self.flooded: Callable[[], None] = lambda: None
        self.lock = threading.Lock()
        #: For the pinger (:meth:`keep_alive`): when it last looked at this socket, how many
        #: messages the page had sent then, and whether it sent a ping then.
        self.looked = self.opened
        self.received_then = 0
        self.pinged = False
        # Every close goes through the library's ``close``, flask-sock's after a handler
        # returns too: caught on the instance, so each records its code and wakes a reader.
        library_close = ws.close

        def close(reason: int | None = None, message: str | None = None) -> None:
            if ws.connected:
                if self.closed is None:
                    self.closed = Ending(reason or 1000, message or "", "server")
                library_close(reason, message)
            # Wake a receive() waiting in another greenlet: the library wakes it only for
            # what the peer sends, and a phone asleep sends nothing, not even the close's
            # answer.  Closing what is closed already is quiet, as the library's is not.
            ws.event.set()

        ws.close = close

    def send(self, data: str) -> None:
        # Tables, rooms and friends send from other greenlets than the socket's own.
        with self.lock:
            try:
                self.ws.send(data)
            except TimeoutError:
                self.given_up()
                raise
            self.sent += 1

    def given_up(self) -> None:
        if self.closed is None:  # a send given up (WholeSends): the log line says why
            self.closed = Ending(1006, "stopped reading", "server")

    def keep_alive(self, now: float, interval: float) -> Callable[[], None] | None:
        """What the pinger does for this socket at ``now``: nothing, a ping, or the close of
        a silent one.  Looked at every ``interval`` seconds from its opening: a page that
        sent a message meanwhile needs no ping (its socket was not silent); one that did
        not gets a ping; one pinged then that has answered nothing since, neither a pong
        (the library notes it) nor a message, is gone."""
        if now - self.looked < interval:
            return None
        self.looked = now
        spoke, self.received_then = self.received != self.received_then, self.received
        if self.pinged and not spoke and not self.ws.pong_received:
            return self.drop_silent
        self.pinged = not spoke
        if spoke:
            return None
        self.ws.pong_received = False
        return self.ping

    def ping(self) -> None:
        with self.lock:  # one frame at a time, and wsproto's state touched by one sender
            if not self.ws.connected:
                return
            try:
                self.ws.sock.send(self.ws.ws.send(Ping()))
            except TimeoutError:
                self.given_up()  # and its reader ends, as after any send given up
            except OSError:
                pass  # the peer has gone: its reader ends the socket

    def drop_silent(self) -> None:
        """Close a socket whose peer answered nothing since its ping (a phone gone away),
        and end its reader's wait for bytes that will not come."""
        try:
            self.close(1008, "Ping/Pong timeout")
        except Exception:  # noqa: BLE001 - closed meanwhile, by either side
            pass
        try:
            self.ws.sock.shutdown(socket.SHUT_RD)
        except OSError:
            pass  # closed already

    def receive(self) -> Any:
        """The next message from the browser within its budget (None once closed, by the
        browser or here for flooding); probes are answered here and count as messages."""
        while True:
            raw = self.ws.receive()
            if raw is None:
                return None
            self.received += 1
            verdict = self.budget.take()
            if verdict == "warn":
                self.slow_down()
            elif verdict == "close":
                self.flooded()
                try:
                    self.close(1008, flood.REASON)
                except Exception:  # noqa: BLE001 - the browser may have gone already
                    pass
                return None  # what it queued meanwhile is never read
            if verdict != "admit":
                continue
            if raw != PROBE:
                return raw
            self.send(PROBE)

    def close(self, reason: int = 1000, message: str | None = None) -> None:
        self.ws.close(reason, message)

    def linger(self) -> None:
        """Wait for the library's reader to finish with the socket (its linger included:
        :meth:`WholeSends.close`), a little longer than a linger at most: once the handler
        returns, gunicorn closes the socket at once, unread bytes or not."""
        self.ws.thread.join(LINGER_SECONDS + 1)

    def refuse(self, refusal: str) -> None:
        """Tell the page why it may not have this socket now, then close it."""
        try:
            if self.notice is not None:
                self.send(self.notice(refusal))
            self.close(BUSY, refusal)
        except Exception:  # noqa: BLE001 - the browser may have gone already
            pass

    def ending(self) -> Ending:
        if self.closed is not None:
            return self.closed
        if self.ws.connected:
            return Ending(1000, "", "server")  # the handler returned; flask-sock closes it
        if self.ws.ws.state.name == "OPEN":  # the protocol state (wsproto's) saw no close
            return Ending(1006, "", "network")
        return Ending(int(self.ws.close_reason), self.ws.close_message or "", "client")

    def record(self) -> dict[str, Any]:
        """The socket's log line: what it was and how it went, nothing that identifies anyone."""
        ending = self.ending()
        return {
            "kind": self.kind,
            "id": self.target,
            "seat": self.seat,
            "role": self.role,
            "lang": self.language,
            "seconds": round(time.monotonic() - self.opened, 3),
            "in": self.received,
            "out": self.sent,
            "code": ending.code,
            "reason": ending.reason[:64],
            "by": ending.by,
        }


class Pinger:
    """Keeps the open sockets alive, from one greenlet for the whole process: each socket
    is looked at every ping interval from its opening (:meth:`LiveSocket.keep_alive`), and
    its ping or close runs in a greenlet of its own, since a send may wait on its peer.

    simple-websocket can ping by itself, but then each socket's reader waits for every
    frame through a selector, for the ping's timeout (py-spy under the issue's load: the
    readers took 5.3% of the worker, their selectors 2.2%), and it pings sockets whose page
    has just sent a move."""

    def __init__(self, interval: float) -> None:
        self.interval = interval
        #: Seconds between looks: a ping may come this much after it falls due.
        self.tick = min(1.0, interval / 10)
        self.greenlet: gevent.Greenlet[[], None] | None = None

    def start(self, sockets: Sockets) -> None:
        """Begin pinging, once (in the worker process, at its first socket)."""
        if self.greenlet is None and self.interval > 0:
            self.greenlet = gevent.spawn(self.run, sockets)

    def run(self, sockets: Sockets) -> None:
        while True:
            gevent.sleep(self.tick)
            try:
                now = time.monotonic()
                with sockets.lock:
                    found = list(sockets.open)
                for live in found:
                    action = live.keep_alive(now, self.interval)
                    if action is not None:
                        gevent.spawn(action)
            except Exception:  # a bug here must not end every socket's pings
                log.exception("the pinger failed")


class Sockets:
    """Every open socket of this process, counted by player and by table or room."""

    def __init__(
        self,
        per_player: int = PLAYER_SOCKETS,
        per_table: int = TABLE_WATCHERS,
        ping_interval: float = 25.0,
    ) -> None:
        self.lock = threading.Lock()
        self.open: set[LiveSocket] = set()
        self.pinger = Pinger(ping_interval)
        self.per_player, self.per_table = per_player, per_table
        self.players: Counter[str] = Counter()
        self.crowds: Counter[str] = Counter()
        #: Players whose socket was closed for flooding, with when they may open again.
        self.paused: dict[str, float] = {}
        #: Each player's budget of sockets to open (see :data:`OPEN_BURST`).
        self.openings = flood.Budgets(rate=OPEN_RATE, burst=OPEN_BURST, keys=MAX_PAUSED)

    def pause(self, player: str, seconds: float = FLOOD_PAUSE) -> None:
        """``player`` flooded a socket: no new socket of theirs for ``seconds``."""
        now = time.monotonic()
        with self.lock:
            if len(self.paused) >= MAX_PAUSED:
                self.paused = {key: until for key, until in self.paused.items() if until > now}
                while len(self.paused) >= MAX_PAUSED:  # insertion order: the oldest first
                    del self.paused[next(iter(self.paused))]
            self.paused[player] = now + seconds

    def is_paused(self, player: str | None) -> bool:
        """Whether ``player`` is paused for flooding now (called under the lock)."""
        until = self.paused.get(player) if player is not None else None
        if until is None or player is None:
            return False
        if until > time.monotonic():
            return True
        del self.paused[player]
        return False

    def refusal(self, live: LiveSocket) -> str | None:
        """Why ``live`` may not open now (a key of :data:`REFUSALS`), or None."""
        if request.environ.get(edge.REFUSED):
            return "busy"
        if self.is_paused(live.player):
            return "flooded"
        if live.player is not None and not self.openings.admits(live.player):
            return "reopened"
        if live.player is not None and self.players[live.player] >= self.per_player:
            return "too-many-pages"
        if live.crowd is not None and self.crowds[live.crowd] >= self.per_table:
            return "crowded"
        return None

    @contextmanager
    def session(self, live: LiveSocket) -> Iterator[LiveSocket]:
        """The socket, registered while the block runs and logged when it ends.

        One past a cap is told why, closed and logged instead, and the block never runs:
        ConnectionClosed ends the socket's handler quietly (flask-sock catches it)."""
        with self.lock:
            refusal = self.refusal(live)
            if refusal is None:
                self.count(live, +1)
        if refusal is not None:
            live.refuse(refusal)
            logs.event("socket", **live.record())
            live.linger()
            raise ConnectionClosed(BUSY, refusal)
        if live.player is not None:
            player = live.player
            live.flooded = lambda: self.pause(player)
        self.pinger.start(self)
        try:
            yield live
        finally:
            with self.lock:
                self.count(live, -1)
            logs.event("socket", **live.record())
            live.linger()

    def count(self, live: LiveSocket, step: int) -> None:
        """Add ``live`` to the open sockets and its counts (step +1), or take it out (-1)."""
        if step > 0:
            self.open.add(live)
        else:
            self.open.discard(live)
        for counter, key in ((self.players, live.player), (self.crowds, live.crowd)):
            if key is not None:
                counter[key] += step
                if not counter[key]:
                    del counter[key]

    def close_all(self, code: int = 1012, reason: str = "restarting") -> int:
        """Close every open socket with ``code``; how many there were."""
        with self.lock:
            found = list(self.open)
        for live in found:
            try:
                live.close(code, reason)
            except Exception:  # noqa: BLE001 - closing what is already gone
                pass
        return len(found)


class Receiver(Protocol):
    def receive(self) -> Any: ...


#: What a socket does with one message: None, or the code of a refusal its page shows.
Handler = Callable[[Message | Unexpected], str | None]


def serve_messages(
    live: Receiver, handle: Handler, tell: Callable[[str], None], where: str
) -> None:
    """The receive loop of every socket: each message parsed (webapp/messages.py), handled,
    and a refusal told to this socket only, until the socket closes.  A handler that
    fails is logged and its page asked to try again: it must not drop the socket."""
    if isinstance(live, LiveSocket):
        live.slow_down = lambda: tell("slow-down")
    while (raw := live.receive()) is not None:
        try:
            refusal = handle(parse(raw))
        except Exception:  # a failed write must not drop the player
            current_app.logger.exception("a message failed on %s", where)
            refusal = "try-again"
        if refusal is not None:
            tell(refusal)


def same_origin() -> bool:
    """Whether the handshake comes from a page of this site: same scheme and host (a page
    served over plain http is another origin than the https site)."""
    origin = request.headers.get("Origin")
    if not origin:
        return False
    parts = urlsplit(origin)
    return (parts.scheme, parts.netloc) == (request.scheme, request.host)


def check_handshake() -> None:
    """Every socket's handshake: from a page of this site (else 403), one a browser sends
    (else 400), in the page's language (``?lang=xx``).  Each area then checks its target
    (a table, a room, a signed-in player) in a hook of its own, run after this one."""
    if not request.path.startswith("/ws/"):
        return
    if not same_origin():
        abort(403)
    rule = request.url_rule
    if rule is not None and rule.websocket and not well_formed(dict(request.headers)):
        abort(400)  # a handshake no browser sends (the socket library would fail on it)
    lang = request.args.get("lang", "")
    g.lang_code = lang if lang in LANGUAGES else DEFAULT_LANGUAGE


def sockets(app: Flask | None = None) -> Sockets:
    return services(app).sockets


def shutdown(app: Flask) -> None:
    """Stop every table's clock, then close every socket with 1012 (service restart).

    Moves are stored before they are acknowledged, so nothing is left to save; the pages
    reconnect by themselves and get the whole state from the restarted server.
    """
    services(app).hub.shutdown()
    sockets(app).close_all(1012, "restarting")


def init_app(app: Flask) -> None:
    """The socket routes' library and the handshake check, before any area's own checks."""
    sock.init_app(app)
    app.before_request(check_handshake)
    app.config.setdefault(
        "SOCK_SERVER_OPTIONS",
        {
            "max_message_size": MAX_MESSAGE,
            "ping_interval": None,  # the Pinger's work, for every socket at once
        },
    )
