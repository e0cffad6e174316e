"""Every kind of socket (table, room, a player's page) against the real server (gunicorn +
gevent): pinged while idle, kept open while it answers, closed when its peer stops
answering, a probe answered, and one log line when it ends, with nothing secret in it.

A peer that "stops answering" is a client that stops reading its socket, as a frozen phone
does: pings pile up unanswered in its receive buffer, which the test only peeks at.
"""

from __future__ import annotations

import itertools
import json
import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import websocket

from tests.conftest import STILL_BOTS, LiveServer
from tests.play.client import Guest
from tests.rooms.client import Friend
from tests.social.member import PASSWORD, Member
from webapp.sockets import PROBE

#: Every test here starts a real server.
pytestmark = pytest.mark.live

INTERVAL = 1.0
CLOSE, PING = 8, 9
names = (f"pinged{n}" for n in itertools.count())


@pytest.fixture(scope="module")
def quick(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    instance = tmp_path_factory.mktemp("pings") / "instance"
    env = {**STILL_BOTS, "LAPAU_PROXIES": "1", "LAPAU_PING_INTERVAL": str(INTERVAL)}
    with LiveServer(instance, env) as server:
        yield server


def table_socket(server: LiveServer) -> tuple[websocket.WebSocket, str, Guest]:
    guest = Guest(server)
    table_id = guest.open_table("koikoi", rounds="3")
    return guest.connect(table_id).ws, table_id, guest


def room_socket(server: LiveServer) -> tuple[websocket.WebSocket, str, Guest]:
    friend = Friend(server)
    code = friend.create_room()
    return friend.room(code).ws, code, friend


def me_socket(server: LiveServer) -> tuple[websocket.WebSocket, str, Guest]:
    member = Member(server, next(names))
    return member.me_socket().ws, "", member


OPENERS: dict[str, Callable[[LiveServer], tuple[websocket.WebSocket, str, Guest]]] = {
    "table": table_socket,
    "room": room_socket,
    "me": me_socket,
}


def connection_of(ws: websocket.WebSocket) -> socket.socket:
    """The TCP connection under an open client socket."""
    assert ws.sock is not None
    return ws.sock


def waiting_frames(ws: websocket.WebSocket) -> list[tuple[int, bytes]]:
    """The frames in the socket's receive buffer, peeked at: nothing is read, so no ping is
    answered.  The server's frames are unmasked and uncompressed (no extension was asked)."""
    raw = connection_of(ws)
    raw.setblocking(False)  # a socket with a timeout would wait out the timeout
    try:
        data = raw.recv(1 << 20, socket.MSG_PEEK)
    except BlockingIOError:
        return []
    frames = []
    while len(data) >= 2:
        opcode, size, start = data[0] & 0x0F, data[1] & 0x7F, 2
        if size == 126:
            size, start = int.from_bytes(data[2:4], "big"), 4
        elif size == 127:
            size, start = int.from_bytes(data[2:10], "big"), 10
        if len(data) < start + size:
            break
        frames.append((opcode, data[start : start + size]))
        data = data[start + size :]
    return frames


def closed_by_server(ws: websocket.WebSocket, timeout: float) -> tuple[float, int, int]:
    """Without reading: seconds until the server's close frame arrives, its code, and how
    many pings came before it."""
    began = time.monotonic()
    while time.monotonic() - began < timeout:
        frames = waiting_frames(ws)
        closes = [payload for opcode, payload in frames if opcode == CLOSE]
        if closes:
            pings = sum(opcode == PING for opcode, _ in frames)
            return time.monotonic() - began, int.from_bytes(closes[0][:2], "big"), pings
        time.sleep(0.05)
    raise AssertionError(f"the server did not close a silent socket within {timeout} s")


def answer_pings(ws: websocket.WebSocket, seconds: float) -> int:
    """Read (websocket-client answers every ping) for ``seconds``; how many pings came."""
    pings = 0
    deadline = time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0:
        ws.settimeout(left)
        try:
            opcode, _ = ws.recv_data_frame(True)
        except websocket.WebSocketTimeoutException:
            break
        assert opcode != CLOSE, "the server closed a socket that answers its pings"
        pings += opcode == PING
    return pings


def probe(ws: websocket.WebSocket) -> None:
    """Send the waking page's probe and see it answered (what the page counts as alive)."""
    ws.send(PROBE)
    ws.settimeout(5)
    while (message := ws.recv()) != PROBE:
        assert message, "the socket closed instead of answering the probe"


def socket_lines(server: LiveServer, expected: int, **fields: object) -> list[dict[str, object]]:
    """The server log's socket lines with ``fields``, once there are at least ``expected``
    of them (a shared server's log holds earlier tests' lines too)."""
    deadline = time.monotonic() + 10
    while True:
        lines = [
            line
            for text in server.log.read_text().splitlines()
            if text.startswith("{")
            and (line := json.loads(text)).get("event") == "socket"
            and all(line.get(key) == value for key, value in fields.items())
        ]
        if len(lines) >= expected or time.monotonic() > deadline:
            return lines
        time.sleep(0.05)


@pytest.mark.parametrize("kind", list(OPENERS))
def test_a_socket_that_answers_is_pinged_and_stays_open(quick: LiveServer, kind: str) -> None:
    ws, _, _ = OPENERS[kind](quick)
    assert answer_pings(ws, 3.5 * INTERVAL) >= 3
    probe(ws)
    ws.close()


@pytest.mark.parametrize("kind", list(OPENERS))
def test_a_socket_whose_page_speaks_is_not_pinged(quick: LiveServer, kind: str) -> None:
    """A page that sent a message within the interval was not silent: no ping for it (a
    table's players send moves all the time, and each ping costs a send and its pong)."""
    ws, _, _ = OPENERS[kind](quick)
    pings = 0
    deadline = time.monotonic() + 4 * INTERVAL
    while time.monotonic() < deadline:
        ws.send(PROBE)
        ws.settimeout(5)
        while True:  # up to the probe's answer: what the server sent before it, pings too
            opcode, frame = ws.recv_data_frame(True)
            assert opcode != CLOSE, "the server closed a socket whose page speaks"
            pings += opcode == PING
            if frame.data == PROBE.encode():
                break
        time.sleep(0.5 * INTERVAL)
    assert pings == 0
    ws.close()


@pytest.mark.parametrize("kind", list(OPENERS))
def test_a_socket_whose_peer_stops_answering_is_closed_by_the_server(
    quick: LiveServer, kind: str
) -> None:
    ws, target, _ = OPENERS[kind](quick)
    seconds, code, pings = closed_by_server(ws, timeout=6 * INTERVAL)
    # One ping unanswered by the next: closed after two intervals, with 1008.
    assert INTERVAL <= seconds < 3.5 * INTERVAL
    assert (code, pings) == (1008, 1)
    ws.shutdown()
    # A room's code is never logged (it is the key to the room); a table's id is.
    logged = target if kind == "table" else None
    assert socket_lines(quick, 1, code=1008, kind=kind, id=logged)


def test_sockets_closed_by_a_sign_out_end_even_if_their_phone_stays_silent(
    quick: LiveServer,
) -> None:
    """Signing out closes the browser's sockets from another request; a phone asleep
    answers neither that close nor the ping before it.  Each socket's handler must still
    end (it waited for a message forever, and the socket library's thread raised
    ConnectionClosed when the next ping fell due: a traceback per socket)."""
    member = Member(quick, next(names))
    page = member.me_socket()
    page.receive_until('id="friends-badge"')
    table = member.connect(member.open_table("koikoi", rounds="3"))
    time.sleep(1.2 * INTERVAL)  # a ping came, unanswered: nothing here reads
    before = quick.log.read_text().count("Traceback")
    ended = len(socket_lines(quick, 0))
    member.post("/en/sign-out", {}, page="/en/")
    lines = socket_lines(quick, ended + 2)
    time.sleep(2 * INTERVAL)  # the next ping falls due
    log = quick.log.read_text()
    page.ws.shutdown()
    table.ws.shutdown()
    mine = [line for line in lines[ended:] if line["reason"] == "signed out"]
    assert sorted(str(line["kind"]) for line in mine) == ["me", "table"], lines[ended:]
    assert log.count("Traceback") == before, log[-3000:]


def test_each_socket_ends_in_one_log_line_without_secrets(tmp_path: Path) -> None:
    with LiveServer(tmp_path / "instance", {**STILL_BOTS, "LAPAU_PROXIES": "1"}) as server:
        guest = Guest(server)
        table_id = guest.open_table("koikoi", rounds="3")
        seated, watching = guest.connect(table_id), Guest(server).connect(table_id)
        seated.send({"a": "nonsense", "v": "0"})
        seated.receive_until('id="notice"')
        probe(seated.ws)
        seated.ws.close(status=1000, reason=b"bye")
        watching.close()
        room_ws, code, friend = room_socket(server)
        room_ws.close(status=1001)
        me_ws, _, member = me_socket(server)
        connection_of(me_ws).shutdown(socket.SHUT_RDWR)  # gone without a close frame
        connection_of(me_ws).close()
        lines = socket_lines(server, 4)
        log = server.log.read_text()
    assert len(lines) == 4
    by_role = {(line["kind"], line["role"]): line for line in lines}
    table = by_role["table", "player"]
    assert table["id"] == table_id and table["seat"] == 0 and table["lang"] == "en"
    # In: the refused move and the probe.  Out: the table, the notice, the probe's answer.
    assert (table["in"], table["out"]) == (2, 3)
    assert (table["code"], table["reason"], table["by"]) == (1000, "bye", "client")
    assert 0 < float(str(table["seconds"])) < 30
    spectator = by_role["table", "spectator"]
    assert spectator["seat"] is None and spectator["id"] == table_id
    room = by_role["room", "player"]
    assert room["id"] is None and room["code"] == 1001 and code not in log
    me = by_role["me", "player"]
    assert me["id"] is None and (me["code"], me["by"]) == (1006, "network")
    # The session cookies (who each browser is), the password, the account's name.
    assert isinstance(member, Member)
    cookies = [c.value for person in (guest, friend, member) for c in person.jar if c.value]
    secrets = [value for value in cookies if len(value) > 16] + [PASSWORD, member.username]
    assert secrets and not [secret for secret in secrets if secret in log]


@pytest.mark.slow
def test_with_the_real_interval_an_idle_socket_lives_and_a_silent_one_is_dropped(
    tmp_path: Path,
) -> None:
    """The acceptance test, with the default 25 s: a socket idle for 70 s is pinged and
    still open; one whose peer stops answering is closed by the server within 60 s."""
    with LiveServer(tmp_path / "instance", STILL_BOTS) as server:
        idle, _, _ = table_socket(server)
        silent, _, _ = table_socket(server)
        pinged: list[int] = []
        reader = threading.Thread(target=lambda: pinged.append(answer_pings(idle, 70)))
        reader.start()
        seconds, code, _ = closed_by_server(silent, timeout=65)
        reader.join()
        silent.shutdown()
        probe(idle)
        idle.close()
    print(
        f"\nidle 70 s: {pinged[0]} pings, open; silent: closed by the server after {seconds:.1f} s"
    )
    assert pinged[0] >= 2
    assert code == 1008 and seconds < 60, seconds
