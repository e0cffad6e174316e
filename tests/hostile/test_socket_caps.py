"""Caps on sockets against the real server (gunicorn + gevent): one player, one address
and one table's watchers each hold only so many.  A socket past a cap is told why in its
page's notice, in its language, and closed with 4013 (webapp/sockets.py); everyone else's
sockets go on as before.

Before, one guest could open 200 sockets to a table, or to 200 tables, and one address
could hold every connection of the worker.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import websocket

from tests.conftest import STILL_BOTS, LiveServer
from tests.hostile.test_floods import drain
from tests.play.client import Socket, Table
from tests.rooms.client import Friend
from webapp.sockets import BUSY, PLAYER_SOCKETS

pytestmark = pytest.mark.live

TOO_MANY_PAGES = "Lapau is open in too many tabs or windows here."
CROWDED_NL = "Er kijken zoveel mensen mee dat er nu niemand meer bij kan."
BUSY_ID = "Terlalu banyak koneksi dari jaringanmu saat ini."
#: Small caps for the crowd and address tests (production: 400 watchers, 200 requests).
WATCHERS, ADDRESS = 3, 6


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """The production caps, behind a proxy: every test client says its own address."""
    instance = tmp_path_factory.mktemp("caps") / "instance"
    with LiveServer(instance, {**STILL_BOTS, "LAPAU_PROXIES": "1"}) as live:
        yield live


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """Caps small enough to reach in a test."""
    instance = tmp_path_factory.mktemp("small") / "instance"
    env = {
        **STILL_BOTS,
        "LAPAU_PROXIES": "1",
        "LAPAU_TABLE_WATCHERS": str(WATCHERS),
        "LAPAU_ADDRESS_CONNECTIONS": str(ADDRESS),
    }
    with LiveServer(instance, env) as live:
        yield live


def watch(server: LiveServer, table_id: str, address: str, lang: str = "en") -> websocket.WebSocket:
    """A spectator without cookies, from ``address``."""
    return websocket.create_connection(
        f"ws://127.0.0.1:{server.port}/ws/table/{table_id}?lang={lang}",
        origin=server.url,
        header=[f"X-Forwarded-For: {address}"],
        timeout=10,
    )


def refused(socket: websocket.WebSocket | Socket) -> str:
    """What a refused socket was told before its close with 4013."""
    ws, told = (socket.ws, socket.received) if isinstance(socket, Socket) else (socket, [])
    messages, code = drain(ws)
    assert code == BUSY, (code, messages)
    assert len(told + messages) == 1, told + messages
    return (told + messages)[0]


def answers_probe(ws: websocket.WebSocket) -> bool:
    """Whether the socket is still open and served (what it had queued is skipped)."""
    ws.send("probe")
    ws.settimeout(5)
    while ws.recv() != "probe":
        pass
    return True


def test_one_player_holds_at_most_30_sockets_across_tables(server: LiveServer) -> None:
    others = [Friend(server), Friend(server)]
    tables = [other.open_table("koa", mode="quick") for other in others]
    player = Friend(server)
    own = player.open_table("koa", mode="quick")
    opened: list[Table] = []
    try:
        # A third of them seated at their own table, the rest watching two others'.
        for n in range(PLAYER_SOCKETS):
            opened.append(player.connect([own, *tables][n % 3]))
        notice = refused(player.connect(tables[0]))
        assert TOO_MANY_PAGES in notice and 'id="notice"' in notice
        # Nobody else is touched: the player's sockets, and others at the same tables.
        assert answers_probe(opened[0].ws) and answers_probe(opened[-1].ws)
        neighbour = others[0].connect(tables[0])
        assert answers_probe(neighbour.ws)
        neighbour.close()
        # One closed, one may open again.
        opened.pop().close()
        opened.append(player.connect(own))
        assert answers_probe(opened[-1].ws)
    finally:
        for table in opened:
            table.close()


def test_a_tables_watchers_are_capped_but_never_its_players(small: LiveServer) -> None:
    owner = Friend(small)
    table_id = owner.open_table("koa", mode="quick")
    crowd = [watch(small, table_id, f"198.51.100.{n + 1}") for n in range(WATCHERS)]
    try:
        notice = refused(watch(small, table_id, "198.51.100.99", "nl"))
        assert CROWDED_NL in notice
        # The seated player still gets in, and the watchers go on watching.
        mine = owner.connect(table_id)
        assert answers_probe(mine.ws) and answers_probe(crowd[0])
        mine.close()
        # One leaves, another may come.
        crowd.pop().close()
        crowd.append(watch(small, table_id, "198.51.100.100"))
        assert answers_probe(crowd[-1])
    finally:
        for ws in crowd:
            ws.close()


def test_a_rooms_visitors_are_capped_but_never_its_seated_players(small: LiveServer) -> None:
    host = Friend(small)
    code = host.create_room()
    visitors = [Friend(small) for _ in range(WATCHERS + 1)]
    rooms = [visitor.room(code) for visitor in visitors[:WATCHERS]]
    try:
        notice = refused(visitors[-1].room(code, "nl"))
        assert CROWDED_NL in notice and 'id="room-notice"' in notice
        mine = host.room(code)
        assert answers_probe(mine.ws) and answers_probe(rooms[0].ws)
        mine.close()
    finally:
        for room in rooms:
            room.close()


def test_one_address_holds_only_its_share_of_sockets(small: LiveServer) -> None:
    """Behind the router the address it reports counts, for sockets as for pages."""
    player = Friend(small)
    table_id = player.open_table("koa", mode="quick")
    opened = [player.connect(table_id) for _ in range(ADDRESS)]
    try:
        ws = websocket.create_connection(
            f"ws://127.0.0.1:{small.port}/ws/table/{table_id}?lang=id",
            origin=small.url,
            cookie=player.cookie_header(),
            header=player.socket_headers(),
            timeout=10,
        )
        assert BUSY_ID in refused(ws)
        # Another address is not affected.
        other = watch(small, table_id, "192.0.2.77")
        assert answers_probe(other) and answers_probe(opened[0].ws)
        other.close()
    finally:
        for table in opened:
            table.close()
    log = small.log.read_text()
    assert '"code":4013' in log and '"reason":"busy"' in log
