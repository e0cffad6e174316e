"""A socket whose reader stops reading (a phone whose radio sleeps, a client that never
reads) against the real server: its send buffer fills, the table's fan-out waits for it a
bounded time and then drops it, the player plays on, and every frame the silent reader
does get is whole.

Before (simple-websocket sends each frame with one ``sock.send`` and ignores how much
went): under gevent a send into a full buffer waited with no end, and then sent only what
fit; the rest of the frame was lost, and a client that read two seconds late could not
decode the first 50 KB message it got (webapp/sockets.py, ``WholeSends``).
"""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator

import pytest
import websocket

from tests.conftest import QUICK_BOTS, LiveServer
from tests.play.client import Guest, Player, stored_moves

pytestmark = pytest.mark.live

#: This server's send buffer and send wait: small, so a few moves fill the buffer.
SEND_BUFFER = 4096
SEND_SECONDS = 1
MOVES = 30


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    env = {
        **QUICK_BOTS,
        "LAPAU_PROXIES": "1",
        "LAPAU_SOCKET_SEND_BUFFER": str(SEND_BUFFER),
        "LAPAU_SOCKET_SEND_SECONDS": str(SEND_SECONDS),
    }
    with LiveServer(tmp_path_factory.mktemp("silent") / "instance", env) as live:
        yield live


def silent_reader(server: LiveServer, table_id: str) -> websocket.WebSocket:
    """A spectator with the smallest receive buffer, which reads nothing until told to."""
    return websocket.create_connection(
        f"ws://127.0.0.1:{server.port}/ws/table/{table_id}?lang=en",
        origin=server.url,
        header=["X-Forwarded-For: 10.7.0.1"],
        timeout=10,
        sockopt=[(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)],
    )


def read_all(ws: websocket.WebSocket) -> list[str]:
    """Every message left for ``ws`` until its connection ends.  A frame cut short by the
    server giving the socket up ends the connection (a browser reconnects then); a frame
    that cannot be decoded raises."""
    messages: list[str] = []
    try:
        while message := ws.recv():
            messages.append(str(message))
    except (websocket.WebSocketConnectionClosedException, ConnectionResetError):
        pass
    finally:
        ws.shutdown()
    return messages


def test_a_reader_that_stops_reading_is_dropped_and_the_player_plays_on(
    server: LiveServer,
) -> None:
    guest = Guest(server)
    table = guest.connect(guest.open_table("koa", mode="full"))
    while not table.moves:
        table.receive()
    sleeper = silent_reader(server, table.id)
    before = len(stored_moves(server, table.id))

    # Each move's changes (the bots' moves after it too) go to the sleeper as well; a few
    # fill its buffers, and from then on the fan-out waits for it at most SEND_SECONDS once.
    player = Player(server, table)
    deadline = time.monotonic() + 60
    while len(player.acknowledged) < MOVES and time.monotonic() < deadline:
        player.step()
    table.close()

    assert len(player.acknowledged) >= MOVES, player.seen()
    assert len(stored_moves(server, table.id)) > before + MOVES
    # The sleeper wakes: what it gets is whole frames, then the end of a dropped socket.
    received = read_all(sleeper)
    assert received, "the sleeper got nothing, not even the table"
    assert all(message.lstrip().startswith("<") for message in received), received[-1][:200]
    log = server.log.read_text()
    assert "Traceback" not in log
    # It was given up by the server, as its log line says, not closed by anyone else.
    assert '"role":"spectator"' in log and '"reason":"stopped reading","by":"server"' in log
