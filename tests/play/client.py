"""A small browser stand-in for socket tests: a guest's cookies, the table's WebSocket."""

from __future__ import annotations

import http.client
import http.cookiejar
import json
import re
import time
import urllib.parse
import urllib.request
from typing import Any

import websocket

from webapp.game import registry
from webapp.game.registry import AnyGame
from webapp.game.replay import replay
from webapp.play.hub import ASK, HINT, MORE_TIME

CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')
VERSION = re.compile(r'id="version" name="v" value="(\d+)"')
#: The moves a page offers: "Hint" asks the table for advice and is no move (it gives no
#: new version, so a client that sent it as one would wait for nothing); "More time" is a
#: request in a field of its own.
MOVES = re.compile(rf'name="a" value="(?!{HINT}")([^"]+)"')
FORWARDED = "X-Forwarded-For"
#: Seconds a page may take to come (a restarted server under a full test run once took
#: more than 10 s to answer).
PAGE_SECONDS = 60


def csrf_token(html: str) -> str:
    """The CSRF token of a page's forms (every form post needs it)."""
    found = CSRF.search(html)
    assert found, "the page has no CSRF token"
    return found.group(1)


def foreign_origins(server: Any) -> list[str | None]:
    """Origins a socket handshake must refuse: other hosts, this host under another
    scheme (a page over plain http), and none at all."""
    other_scheme = server.url.replace("http://", "https://")
    return ["https://evil.example", f"http://evil.example:{server.port}", other_scheme, None]


class Guest:
    """One browser: its own cookie jar, so its own guest identity."""

    def __init__(self, server: Any) -> None:
        self.server = server
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def open(self, path: str, data: bytes | None = None) -> Any:
        """The server's response to a GET of ``path`` (a POST of ``data``), with this
        browser's cookies.  Bounded: a server that accepted the connection and never
        answers fails the test that asked, instead of hanging it."""
        return self.opener.open(f"{self.server.url}{path}", data=data, timeout=PAGE_SECONDS)

    def open_table(self, game: str, **form: str) -> str:
        token = csrf_token(self.page(f"/en/play/{game}"))
        data = urllib.parse.urlencode({"level": "easy", "csrf_token": token, **form}).encode()
        with self.open(f"/en/play/{game}", data) as response:
            return str(response.url.rsplit("/", 1)[1])

    def post_form(self, path: str, page: str | None = None, **form: str) -> str:
        """Post a form to ``path`` with the CSRF token of the page it is on (``page``, by
        default ``path`` itself); the page it leads to."""
        token = csrf_token(self.page(page or path))
        data = urllib.parse.urlencode({"csrf_token": token, **form}).encode()
        with self.open(path, data) as response:
            return str(response.read().decode())

    def page(self, path: str) -> str:
        with self.open(path) as response:
            return str(response.read().decode())

    def cookie_header(self) -> str:
        return "; ".join(f"{c.name}={c.value}" for c in self.jar)

    def socket_headers(self) -> list[str]:
        """The headers this browser's sockets carry besides their cookie: the address it
        says its pages come from (``X-Forwarded-For``, where a subclass sets one), since
        a browser's sockets come from where its pages do."""
        return [f"{name}: {value}" for name, value in self.opener.addheaders if name == FORWARDED]

    def handshake(self, path: str, origin: str | None) -> int:
        """The HTTP status a WebSocket handshake on ``path`` gets (a refused one never
        upgrades)."""
        connection = http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=10)
        headers = {
            "Upgrade": "websocket",
            "Connection": "Upgrade",
            "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
            "Sec-WebSocket-Version": "13",
            "Cookie": self.cookie_header(),
        }
        if origin:
            headers["Origin"] = origin
        try:
            connection.request("GET", path, headers=headers)
            return connection.getresponse().status
        finally:
            connection.close()

    def handshake_status(self, table_id: str, origin: str | None) -> int:
        return self.handshake(f"/ws/table/{table_id}?lang=en", origin)

    def connect(self, table_id: str, origin: str | None = "same", lang: str = "en") -> Table:
        if origin == "same":
            origin = self.server.url
        ws = websocket.create_connection(
            f"ws://127.0.0.1:{self.server.port}/ws/table/{table_id}?lang={lang}",
            origin=origin,
            cookie=self.cookie_header(),
            header=self.socket_headers(),
            timeout=10,
            suppress_origin=origin is None,
        )
        return Table(ws, table_id)


def close_socket(ws: websocket.WebSocket) -> None:
    """Close ``ws``, its TCP socket included.  Once the server's own close frame has been
    read, websocket-client has answered it and ``close()`` returns at once, leaving the
    socket open for the garbage collector (a ResourceWarning in whichever test runs then)."""
    ws.close()
    ws.shutdown()


class Socket:
    """One open WebSocket and what it has received."""

    def __init__(self, ws: websocket.WebSocket) -> None:
        self.ws = ws
        self.received: list[str] = []
        self.receive()

    def receive(self, timeout: float = 10) -> str:
        self.ws.settimeout(timeout)
        message = str(self.ws.recv())
        self.received.append(message)
        return message

    def receive_until(self, text: str, timeout: float = 10) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            message = self.receive(max(0.1, deadline - time.monotonic()))
            if text in message:
                return message
        raise AssertionError(f"never received {text!r}")

    def send(self, payload: Any) -> None:
        self.ws.send(payload if isinstance(payload, str) else json.dumps(payload))

    def close(self) -> None:
        close_socket(self.ws)


class Table(Socket):
    """One open table socket: the version and the moves its page last showed."""

    def __init__(self, ws: websocket.WebSocket, table_id: str) -> None:
        self.id = table_id
        self.version = -1
        self.moves: list[str] = []
        super().__init__(ws)

    def receive(self, timeout: float = 10) -> str:
        message = super().receive(timeout)
        if found := VERSION.search(message):
            self.version = int(found.group(1))
        if 'id="hand"' in message or 'id="prompt"' in message:
            self.moves = MOVES.findall(message)
        return message

    def move(self, action: str, version: int | None = None) -> None:
        self.send({"a": action, "v": str(self.version if version is None else version)})

    def ask_more_time(self) -> None:
        """What the "More time" button sends (the form's version comes along)."""
        self.send({ASK: MORE_TIME, "v": str(self.version)})


#: A refusal's notice has words; the notice cleared by the next move has none.
REFUSED = re.compile(r'id="notice"[^>]*>(?!</div>)')
MINE = 'class="status mine"'


class Player:
    """The seated person of one table: plays the engine's first legal move whenever it is
    their turn, and remembers which moves were refused and which were not."""

    def __init__(self, server: Any, table: Table) -> None:
        self.server = server
        self.table = table
        # Whether the status line says it is their turn: the table's first message says
        # already (the bot may have moved up to their turn before the socket joined, and
        # then nothing changes until they move).
        self.mine = MINE in table.received[0]
        self.waiting: tuple[int, str] | None = None  # a move sent, not yet answered
        self.acknowledged: list[tuple[int, str]] = []

    def step(self) -> None:
        try:
            message = self.table.receive(0.05)
        except websocket.WebSocketTimeoutException:
            message = ""
        if 'id="status"' in message:
            self.mine = MINE in message
        if self.waiting is not None:
            version, action = self.waiting
            if REFUSED.search(message):
                self.waiting = None  # refused ("try again" while the owner was away)
            elif self.table.version > version:
                self.acknowledged.append(self.waiting)
                self.waiting = None
        if self.waiting is None and self.mine:
            game, state, version = stored_state(self.server, self.table.id)
            if version == self.table.version and game.to_act(state) == 0:
                self.waiting = (version, str(game.legal_actions(state)[0]))
                self.table.move(self.waiting[1], version)

    def seen(self) -> dict[str, object]:
        """Where this player stands, for a failure's message: what its page showed, the
        move it waits on, and who is to act in the stored log."""
        game, state, version = stored_state(self.server, self.table.id)
        return {
            "table": self.table.id,
            "shown": self.table.version,
            "mine": self.mine,
            "waiting": self.waiting,
            "stored": version,
            "to act": game.to_act(state),
            "last": self.table.received[-3:],
        }


def stored_moves(server: Any, table_id: str) -> list[str]:
    """The table's action log as the server stored it."""
    rows = server.query(
        "SELECT text FROM play_action WHERE table_id = :table ORDER BY seq", table=table_id
    )
    return [text for (text,) in rows]


def stored_state(server: Any, table_id: str) -> tuple[AnyGame, Any, int]:
    """The table's game, its state after the stored log (the engine's replay), and its
    version: a test's player finds its legal moves there, as the page's buttons would."""
    [(game, seed, options)] = server.query(
        "SELECT game, seed, options FROM play_table WHERE id = :table", table=table_id
    )
    log = stored_moves(server, table_id)
    found = registry.get(game)
    return found, replay(found, seed, json.loads(options), log), len(log)


def break_log(server: Any, table_id: str) -> None:
    """Append an action the rules refuse to a stopped server's table log (the next
    round's deal in the middle of a round), as a rules change could leave it."""
    [(seq,)] = server.query(
        "SELECT COUNT(*) FROM play_action WHERE table_id = :table", table=table_id
    )
    server.query(
        "INSERT INTO play_action (table_id, seq, text, at)"
        " VALUES (:table, :seq, 'next', CURRENT_TIMESTAMP)",
        table=table_id,
        seq=seq,
    )
