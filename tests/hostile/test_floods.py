"""Many sockets and fast sockets against the real server (gunicorn + gevent): spectators
share one render per move, and a socket that floods is told to slow down, then closed.
"""

from __future__ import annotations

import os
import socket
import statistics
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import websocket

from tests.conftest import QUICK_BOTS, STILL_BOTS, LiveServer
from tests.play.client import Guest, Table, stored_moves
from tests.rooms.client import Friend
from webapp.flood import BURST, GRACE
from webapp.sockets import BUSY, MAX_PAUSED, OPEN_BURST, Sockets

SLOW_DOWN = "Slow down: you are sending too many messages."
PAUSED = "This page sent too many messages and was paused."
REOPENED = "This page reconnected too often and was paused."
pytestmark = pytest.mark.live


@pytest.fixture(scope="module")
def still(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    env = {**STILL_BOTS, "LAPAU_PROXIES": "1"}
    with LiveServer(tmp_path_factory.mktemp("floods") / "instance", env) as server:
        yield server


def drain(socket: websocket.WebSocket) -> tuple[list[str], int | None]:
    """Every message until the server closes the socket, and the close code."""
    socket.settimeout(10)
    received: list[str] = []
    while True:
        # Frame by frame: the close is not answered (the server has already hung up).
        frame = socket.recv_frame()
        if frame.opcode == websocket.ABNF.OPCODE_CLOSE:
            data = frame.data
            socket.shutdown()
            return received, int.from_bytes(data[:2], "big") if len(data) >= 2 else None
        if frame.opcode == websocket.ABNF.OPCODE_TEXT:
            received.append(frame.data.decode())


def test_a_room_flood_is_told_to_slow_down_then_closed_with_few_writes(still: LiveServer) -> None:
    host = Friend(still)
    code = host.create_room()
    room = host.room(code, "en")
    for index in range(400):
        room.act("bot 2" if index % 2 == 0 else "unbot 2")
    received, closed = drain(room.ws)
    assert closed == 1008
    notices = [message for message in received if SLOW_DOWN in message]
    # Each applied action is one write and one new render of the room; the flood's
    # 400 got no more than the burst and what the budget refilled meanwhile.
    renders = [message for message in received if SLOW_DOWN not in message]
    print(f"{len(renders)} of 400 room actions applied, {len(notices)} notices")
    assert 0 < len(renders) <= BURST + 10
    # One notice per overrun: another comes only after the budget refilled enough to
    # admit an action in between (a busy server reads the flood slowly, and at two a
    # second half a second of reading is one more action). The burst comes first.
    assert 1 <= len(notices) <= 1 + max(0, len(renders) - BURST)
    # Nothing of the flood is read after the close: the room still answers others.
    other = Friend(still)
    other.join_room(code)
    budi = other.room(code, "en")
    assert 'id="room"' in budi.received[0] and "Ready" in budi.received[0]
    budi.close()
    # The flooder's next socket is told it is paused and closed, not served afresh.
    paused = host.room(code, "en")
    received, closed = drain(paused.ws)
    assert closed == BUSY
    assert any(PAUSED in message for message in paused.received + received)


def test_a_flooder_is_paused_while_the_others_are_served(still: LiveServer) -> None:
    """Closing a flood is not enough when the page opens a new socket at once with a new
    budget: its player opens none for a while, and the others are not affected."""
    flooder, bystander = Guest(still), Guest(still)
    table_id = flooder.open_table("koa", mode="quick")
    table = flooder.connect(table_id)
    for _ in range(BURST + GRACE + 5):
        table.move("cabut", version=999)
    assert drain(table.ws)[1] == 1008
    paused = flooder.connect(table_id)
    received, closed = drain(paused.ws)
    assert closed == BUSY
    assert any(PAUSED in message for message in paused.received + received)
    watching = bystander.connect(table_id)  # a spectator: served as before
    assert 'id="status"' in watching.received[0]
    watching.ws.close()


def test_a_player_opening_sockets_in_a_loop_is_paused_while_the_others_are_served(
    still: LiveServer,
) -> None:
    """Each socket opened costs a handshake, a join and a whole render, even when it is
    closed at once: past a burst no reload reaches, the player is refused for a while."""
    looper, bystander = Guest(still), Guest(still)
    table_id = looper.open_table("koa", mode="quick")
    # The burst is always served; the budget refills meanwhile, so a few more may be.
    served = 0
    while served < 3 * OPEN_BURST:
        socket = looper.connect(table_id)
        if any(REOPENED in message for message in socket.received):
            break
        socket.ws.close()
        served += 1
    assert OPEN_BURST <= served < 3 * OPEN_BURST
    assert drain(socket.ws)[1] == BUSY
    watching = bystander.connect(table_id)
    assert 'id="status"' in watching.received[0]
    watching.ws.close()


def test_a_pause_ends_and_the_oldest_go_first_when_too_many_are_paused() -> None:
    sockets = Sockets()
    sockets.pause("g-quick", seconds=0)
    assert not sockets.is_paused("g-quick") and "g-quick" not in sockets.paused
    for index in range(MAX_PAUSED + 1):
        sockets.pause(f"g-{index}")
    assert len(sockets.paused) == MAX_PAUSED
    assert not sockets.is_paused("g-0") and sockets.is_paused(f"g-{MAX_PAUSED}")
    assert not sockets.is_paused(None)


def test_a_table_flood_is_told_to_slow_down_in_its_language_then_closed(
    still: LiveServer,
) -> None:
    guest = Guest(still)
    table_id = guest.open_table("koa", mode="quick")
    table = guest.connect(table_id)
    stored = len(stored_moves(still, table_id))
    # Stale versions: each one would be refused, but only the burst is even read.
    for _ in range(BURST + GRACE + 50):
        table.move("cabut", version=999)
    received, closed = drain(table.ws)
    assert closed == 1008
    assert sum("That message" in m or "moved on" in m for m in received) <= BURST
    guest_nl = Guest(still)
    dutch = guest_nl.connect(table_id)  # a spectator, in Dutch this time
    dutch.ws.close()
    assert len(stored_moves(still, table_id)) == stored


def test_a_flood_that_goes_on_after_its_close_still_gets_the_close(still: LiveServer) -> None:
    """The server reads what a closed socket's client still sends until the client closes
    too: closed with those bytes unread, the kernel reset the connection and dropped the
    close frame (and the notices before it) that a small window had held back."""
    guest = Guest(still)
    table_id = guest.open_table("koa", mode="quick")
    ws = websocket.create_connection(
        f"ws://127.0.0.1:{still.port}/ws/table/{table_id}?lang=en",
        origin=still.url,
        cookie=guest.cookie_header(),
        timeout=10,
        sockopt=[(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)],
    )
    for _ in range(BURST + GRACE + 1):
        ws.send('{"a": "cabut", "v": "999"}')
    time.sleep(0.5)  # closed meanwhile, its frames waiting for room in this small window
    for _ in range(20):
        ws.send('{"a": "cabut", "v": "999"}')
    _, closed = drain(ws)
    assert closed == 1008


def test_a_spectator_flood_gets_the_dutch_notice(still: LiveServer) -> None:
    table_id = Guest(still).open_table("koa", mode="quick")
    watcher = Guest(still)
    ws = websocket.create_connection(
        f"ws://127.0.0.1:{still.port}/ws/table/{table_id}?lang=nl",
        origin=still.url,
        cookie=watcher.cookie_header(),
        timeout=10,
    )
    for _ in range(BURST + GRACE + 5):
        ws.send('{"a": "cabut", "v": "0"}')
    received, closed = drain(ws)
    assert closed == 1008
    assert any("Rustig aan: je stuurt te veel berichten." in m for m in received)


def round_trips(table: Table, moves: int) -> list[float]:
    """Seconds from each move of the guest to its next choice (after the bots' moves, if
    any came between, each sent to every listener of the table)."""
    took: list[float] = []
    for _ in range(moves):
        if not table.moves:
            break
        version, started = table.version, time.perf_counter()
        table.move(table.moves[0])
        while not (table.version > version and table.moves):
            table.receive()
        took.append(time.perf_counter() - started)
    return took


@pytest.mark.slow
def test_300_spectators_barely_slow_the_player(tmp_path_factory: pytest.TempPathFactory) -> None:
    env = {**QUICK_BOTS, "LAPAU_PROXIES": "1"}
    with LiveServer(tmp_path_factory.mktemp("crowd") / "instance", env) as server:
        guest = Guest(server)
        # A full match: a quick one could end (won, no moves left) within the 16 moves
        # below, and the player would wait for a move that never comes (1 run in 5 did).
        table = guest.connect(guest.open_table("koa", mode="full"))
        while not table.moves:
            table.receive()
        # 16 moves in all: within the socket's burst, however fast this player is.
        alone = round_trips(table, 8)
        # Each watcher from an address of its own, as 300 people are (one address may
        # hold only 200 connections: webapp/edge.py).
        crowd = [
            websocket.create_connection(
                f"ws://127.0.0.1:{server.port}/ws/table/{table.id}?lang=id",
                origin=server.url,
                header=[f"X-Forwarded-For: 10.8.{n // 250}.{n % 250 + 1}"],
                timeout=30,
            )
            for n in range(300)
        ]
        try:
            watched = round_trips(table, 8)
        except websocket.WebSocketTimeoutException as error:
            # Failed once in a full run (3 December), never alone: say where the table stood.
            raise AssertionError(
                f"no answer within 10 s at version {table.version}, moves {table.moves}; "
                f"last message {table.received[-1][:500] if table.received else None!r}; "
                f"server log: {server.log_tail()}"
            ) from error
        finally:
            for ws in crowd:
                ws.close()
            table.close()
    baseline, loaded = statistics.median(alone), statistics.median(watched)
    print(
        f"round trip p50 alone {baseline * 1000:.0f} ms, with 300 spectators {loaded * 1000:.0f} ms"
    )
    assert len(alone) >= 4 and len(watched) >= 4
    # Before spectators shared a render this was about ten times the baseline.
    assert loaded <= max(3 * baseline, baseline + 0.15)


def worker_cpu(server: LiveServer) -> float:
    """CPU seconds used so far by the server's one gevent worker."""
    assert server.process is not None
    master = server.process.pid
    children = Path(f"/proc/{master}/task/{master}/children").read_text().split()
    fields = Path(f"/proc/{children[0]}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@pytest.mark.slow
def test_visitors_coming_and_going_do_not_redraw_the_room_for_everyone(
    still: LiveServer,
) -> None:
    host = Friend(still)
    code = host.create_room()
    mine = host.room(code, "en")

    def visitor() -> websocket.WebSocket:
        ws = websocket.create_connection(
            f"ws://127.0.0.1:{still.port}/ws/room/{code}?lang=en", origin=still.url, timeout=10
        )
        assert 'id="room' in ws.recv()
        return ws

    crowd = [visitor() for _ in range(150)]
    try:
        cycles = 20
        started = worker_cpu(still)
        for _ in range(cycles):
            visitor().close()
        per_cycle = (worker_cpu(still) - started) / cycles
    finally:
        for ws in crowd:
            ws.close()
    print(f"one visitor in and out with 150 watching: {per_cycle * 1000:.0f} ms of CPU")
    # Before, each arrival and departure drew the room for all 150 (about 170 ms).
    assert per_cycle < 0.05
    # The host saw nothing of them: their room did not change.
    mine.ws.settimeout(0.5)
    with pytest.raises(websocket.WebSocketTimeoutException):
        mine.ws.recv()
    mine.close()
