"""The room's WebSocket against the real server (gunicorn + gevent).

Bots are frozen on this server (as on tests/play/test_sockets.py's), so a table opened
from a room holds still while a spectator's messages are checked.
"""

from __future__ import annotations

import json
import re
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import STILL_BOTS, LiveServer
from tests.play.client import Guest, foreign_origins, stored_moves
from tests.play.test_leaks import mentions
from tests.rooms.client import Friend, RoomSocket
from webapp.game import registry
from webapp.game.replay import replay

pytestmark = pytest.mark.live


@pytest.fixture(scope="module")
def frozen(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    instance = tmp_path_factory.mktemp("rooms") / "instance"
    env = {**STILL_BOTS, "LAPAU_TABLE_SEED": "11", "LAPAU_PROXIES": "1"}
    with LiveServer(instance, env) as server:
        yield server


GO = re.compile(r'hx-get="(/\w\w/room/\w+/go)" hx-trigger="load"')


def query(server: LiveServer, sql: str, key: str) -> tuple[Any, ...]:
    """One row of the server's database."""
    return server.query(sql, key=key)[0]


def room_row(server: LiveServer, code: str) -> tuple[Any, ...]:
    return query(server, "SELECT status, seats, host FROM rooms_room WHERE code = :key", code)


def test_a_foreign_origin_is_refused_at_the_handshake(frozen: LiveServer) -> None:
    host = Friend(frozen)
    code = host.create_room()
    path = f"/ws/room/{code}?lang=en"
    for origin in foreign_origins(frozen):
        assert host.handshake(path, origin) == 403
    assert host.handshake(path, frozen.url) == 101


def test_an_unknown_or_closed_room_is_not_found_at_the_handshake(
    frozen: LiveServer,
) -> None:
    host = Friend(frozen)
    assert host.handshake("/ws/room/ZZZ222?lang=en", frozen.url) == 404
    assert host.handshake("/ws/room/zzz222?lang=en", frozen.url) == 404
    code = host.create_room()
    host.post(f"/en/room/{code}/act", page=f"/en/room/{code}", a="leave")
    assert room_row(frozen, code)[0] == "abandoned"
    assert host.handshake(f"/ws/room/{code}?lang=en", frozen.url) == 404


def test_changes_reach_every_listener_in_their_own_language(
    frozen: LiveServer,
) -> None:
    host, friend = Friend(frozen), Friend(frozen)
    code = host.create_room(name="Rina")
    friend.join_room(code, name="Budi")
    mine, theirs = host.room(code, "en"), friend.room(code, "nl")
    assert "Budi" in mine.received[0] and "Rina" in theirs.received[0]
    mine.act("bot 2")
    assert "Remove bot" in mine.receive_until("Remove bot")
    dutch = theirs.receive_until("Hier zitten")
    assert "Bot erbij" not in dutch and "Bot weg" not in dutch  # host-only buttons
    theirs.act("ready")
    assert "✓ Ready" in mine.receive_until("✓ Ready")
    assert "Toch niet klaar" in theirs.receive_until("Toch niet klaar")
    mine.close()
    theirs.close()


@pytest.mark.parametrize("action", ["start", "fill", "kick 0", "option full", "bot 1"])
def test_a_player_who_is_not_the_host_is_refused_and_nothing_changes(
    frozen: LiveServer,
    action: str,
) -> None:
    host, friend = Friend(frozen), Friend(frozen)
    code = host.create_room()
    friend.join_room(code)
    before = room_row(frozen, code)
    theirs = friend.room(code, "id")
    theirs.act(action)
    notice = theirs.receive_until('id="room-notice"')
    assert "Hanya tuan rumah yang bisa." in notice
    assert room_row(frozen, code) == before
    theirs.close()


def test_a_visitor_who_is_not_seated_cannot_act(frozen: LiveServer) -> None:
    host, visitor = Friend(frozen), Friend(frozen)
    code = host.create_room()
    visitor.page(f"/en/room/{code}")
    socket = visitor.room(code)
    assert "Join this table" not in socket.received[0]  # the join form is the page's
    socket.act("sit 1")
    assert "Take a seat in this room first." in socket.receive_until('id="room-notice"')
    socket.close()


@pytest.mark.parametrize(
    "payload",
    [
        "not json",
        "[1]",
        json.dumps({"a": 5}),
        json.dumps({"a": "ready", "x": 1}),
        json.dumps({"a": "x" * 100}),
        json.dumps({"a": "dance"}),
    ],
)
def test_malformed_messages_get_a_notice_and_change_nothing(
    frozen: LiveServer,
    payload: str,
) -> None:
    host = Friend(frozen)
    code = host.create_room()
    before = room_row(frozen, code)
    socket = host.room(code)
    socket.send(payload)
    notice = socket.receive_until('id="room-notice"')
    assert not notice.endswith('role="alert"></div>')
    assert room_row(frozen, code) == before
    socket.close()


def go_target(server: LiveServer, friend: Guest, path: str) -> str:
    request = urllib.request.Request(f"{server.url}{path}", headers={"HX-Request": "true"})
    with friend.opener.open(request) as response:
        assert response.status == 204
        return str(response.headers["HX-Redirect"])


def test_starting_sends_everyone_to_the_table_and_a_spectator_sees_no_hand(
    frozen: LiveServer,
) -> None:
    host, friend, visitor = Friend(frozen), Friend(frozen), Friend(frozen)
    code = host.create_room("koa")
    friend.join_room(code)
    visitor.page(f"/en/room/{code}")
    sockets: list[RoomSocket] = [host.room(code), friend.room(code), visitor.room(code)]
    sockets[0].act("fill")
    sockets[0].act("clock 0")  # the host turns the clock off, for every table the room opens
    sockets[1].receive_until("No clock")
    sockets[1].act("ready")
    sockets[0].receive_until("Everyone is ready.")
    sockets[0].act("start")
    targets = {
        go_target(frozen, who, GO.findall(s.receive_until("room-go"))[0])
        for who, s in zip((host, friend, visitor), sockets, strict=True)
    }
    assert len(targets) == 1
    table_id = targets.pop().rsplit("/", 1)[1]
    for socket in sockets:
        socket.close()

    # The spectator's page and socket show no card hidden from a spectator.
    page = visitor.page(f"/en/table/{table_id}")
    assert "You are watching this match" in page
    watching = visitor.connect(table_id)
    playing = host.connect(table_id)
    koa = registry.get("koa")
    seats = json.loads(stored_table(frozen, table_id))
    assert [s["kind"] for s in seats] == ["human", "human", "bot", "bot"]
    stored_options = query(frozen, "SELECT options FROM play_table WHERE id = :key", table_id)
    assert json.loads(str(stored_options[0]))["clock"] == 0
    # The page defines every card's picture once (a symbol per art); only uses count.
    page = re.sub(r'<svg class="card-defs".*?</svg>', "", page, flags=re.S)
    messages = [(0, page), (0, watching.received[0])]
    if playing.moves:
        playing.move(playing.moves[0])
        watching.receive_until('id="version"')
        messages.append((len(stored_moves(frozen, table_id)), watching.received[-1]))
    options = {"mode": "quick"}
    for version, html in messages:
        log = stored_moves(frozen, table_id)[:version]
        state = replay(koa, seed_of(frozen, table_id), options, tuple(log))
        hidden = koa.hidden_cards(state, None)
        assert len(hidden) >= 20  # every hand, and the arena
        assert not [card for card in hidden if mentions(html, "koa", card)]
    watching.close()
    playing.close()


def stored_table(server: LiveServer, table_id: str) -> str:
    return str(query(server, "SELECT seats FROM play_table WHERE id = :key", table_id)[0])


def seed_of(server: LiveServer, table_id: str) -> int:
    return int(query(server, "SELECT seed FROM play_table WHERE id = :key", table_id)[0])


def test_the_server_log_has_no_errors(frozen: LiveServer) -> None:
    log = Path(frozen.log).read_text()
    assert "Traceback" not in log, log[-3000:]


def test_a_player_who_drops_keeps_the_seat_and_is_back_on_return(frozen: LiveServer) -> None:
    host, friend = Friend(frozen), Friend(frozen)
    code = host.create_room(name="Rina")
    friend.join_room(code, name="Budi")
    mine = host.room(code)
    theirs = friend.room(code)
    mine.receive_until('Budi<span class="sr"> (here)')
    theirs.close()  # the phone lost its connection
    mine.receive_until('Budi<span class="sr"> (away)')
    theirs = friend.room(code)
    mine.receive_until('Budi<span class="sr"> (here)')
    assert 'value="ready"' in theirs.received[0]  # still seated, still their buttons
    mine.close()
    theirs.close()


def test_a_restart_loses_no_room(tmp_path: Path, database_url: str) -> None:
    server = LiveServer(tmp_path / "instance", database_url=database_url)
    server.start()
    try:
        host, friend = Friend(server), Friend(server)
        code = host.create_room("kowah", name="Rina")
        friend.join_room(code, name="Budi")
        host.post(f"/en/room/{code}/act", page=f"/en/room/{code}", a="option 4")
        server.stop()
        server.start()
        page = friend.page(f"/en/room/{code}")
        assert "Rina" in page and 'value="ready"' in page and "Players: 4" in page
        socket = host.room(code)
        assert "Budi" in socket.received[0]
        socket.close()
    finally:
        server.stop()
