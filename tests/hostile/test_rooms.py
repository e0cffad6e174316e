"""Rooms against hostile input: no one joins a full or started room, acts for another
seat, or guesses codes faster than the limit, through any door.

tests/rooms covers each refusal once; here Hypothesis sends any action text to a room
(as its host, as a seated friend and as a stranger) and every URL that takes a code is
probed with wrong codes, the WebSocket handshake included.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlencode

import pytest
from flask.testing import FlaskClient
from hypothesis import given
from hypothesis import strategies as st

from tests.conftest import close_app
from tests.hostile.conftest import EXAMPLES, fuzz, make_app
from tests.hostile.strategies import raw_messages, texts
from webapp.messages import Dismiss, Message, RoomAction, Unexpected, parse
from webapp.rooms.live import Rooms
from webapp.rooms.logic import ALPHABET, RoomRefusal
from webapp.services import Lapau

CODE = re.compile(r"/room/([A-Z2-9]{6})$")
VERBS = ["sit", "ready", "unready", "leave", "option", "level", "bot", "fill", "unbot", "kick"]


def rooms(app: Lapau) -> Rooms:
    found: Rooms = app.services.rooms
    return found


def guest(app: Lapau, player: str) -> FlaskClient:
    client = app.test_client()
    with client.session_transaction() as cookie:
        cookie["player"] = player
    return client


def create(client: FlaskClient, game: str = "koa") -> str:
    response = client.post("/en/room/new", data={"game": game, "name": "Host"})
    found = CODE.search(response.location)
    assert response.status_code == 303 and found, response.location
    return found.group(1)


def seats(app: Lapau, code: str) -> list[Any]:
    room = rooms(app).get(code)
    assert room is not None
    return [(room.status, room.option, room.level, room.table_id), *room.seats]


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory, module_database_url: str) -> Iterator[Lapau]:
    """One app for the module (each test resets the rate limits it counts on)."""
    instance = tmp_path_factory.mktemp("rooms") / "instance"
    app = make_app(instance, module_database_url, WTF_CSRF_ENABLED=False)
    yield app
    close_app(app)


@pytest.fixture
def room(app: Lapau) -> str:
    """A Koa room: the host in seat 0, a friend in seat 1, two seats free."""
    app.services.limiter.reset()
    code = create(guest(app, "g-host"))
    guest(app, "g-friend").post("/en/room/join", data={"code": code, "name": "Friend"})
    return code


ARGS = ["0", "1", "2", "3", "9", "²", "-1", "9" * 40, "", "quick", "full", "hard"]
actions = st.one_of(
    st.tuples(st.sampled_from([*VERBS, "start"]), st.sampled_from(ARGS) | texts).map(" ".join),
    texts,
)


@fuzz()
@given(text=actions, who=st.sampled_from(["g-friend", "g-stranger"]))
def test_no_action_lets_a_player_move_another_seat(
    app: Lapau, room: str, text: str, who: str
) -> None:
    before = seats(app, room)
    verb = text.split()[0] if text.split() else ""
    try:
        rooms(app).act(room, who, text)
    except RoomRefusal:
        assert seats(app, room) == before
        return
    # Only these change only the actor's own seat (or take them out of the room).
    assert who == "g-friend" and verb in {"sit", "ready", "unready", "leave"}
    after = seats(app, room)
    others = [p for p in after[1:] if p is not None and p.player != "g-friend"]
    assert others == [p for p in before[1:] if p is not None and p.player != "g-friend"]
    rooms(app).act(room, "g-friend", "leave") if verb != "leave" else None
    guest(app, "g-friend").post("/en/room/join", data={"code": room, "name": "Friend"})


@fuzz()
@given(body=st.lists(st.tuples(st.sampled_from(["a", "seat", "code", "name"]), texts), max_size=4))
def test_room_forms_refuse_without_an_error(app: Lapau, room: str, body: Any) -> None:
    for who, path in (
        ("g-friend", f"/en/room/{room}/act"),
        ("g-stranger", f"/en/room/{room}/act"),
        ("g-stranger", f"/en/room/{room}/join"),
    ):
        before = seats(app, room)
        response = guest(app, who).post(
            path, data=urlencode(body), content_type="application/x-www-form-urlencoded"
        )
        assert response.status_code < 500
        if who == "g-stranger" and path.endswith("/act"):
            assert seats(app, room) == before


def test_a_full_room_and_a_started_room_take_nobody_else(app: Lapau, room: str) -> None:
    guest(app, "g-third").post("/en/room/join", data={"code": room})
    guest(app, "g-fourth").post(f"/en/room/{room}/join", data={"seat": "3"})
    full = seats(app, room)
    for door, data in (("/en/room/join", {"code": room}), (f"/en/room/{room}/join", {"seat": "2"})):
        response = guest(app, "g-late").post(door, data=data)
        assert response.status_code == 303 and "notice=room-full" in response.location
    assert seats(app, room) == full
    for who in ("g-friend", "g-third", "g-fourth"):
        rooms(app).act(room, who, "ready")
    rooms(app).act(room, "g-host", "start")
    started = seats(app, room)
    for door, data in (("/en/room/join", {"code": room}), (f"/en/room/{room}/join", {"seat": "1"})):
        guest(app, "g-late").post(door, data=data)
    with pytest.raises(RoomRefusal):
        rooms(app).join(room, "g-late", "Late")
    assert seats(app, room) == started


def test_a_seat_that_only_looks_like_a_number_is_refused(app: Lapau, room: str) -> None:
    before = seats(app, room)
    for text in ("sit ²", "bot ²", "kick ²", "unbot ²"):
        who = "g-host" if text != "sit ²" else "g-friend"
        with pytest.raises(RoomRefusal):
            rooms(app).act(room, who, text)
    for seat in ("²", "9" * 5000):
        response = guest(app, "g-late").post(f"/en/room/{room}/join", data={"seat": seat})
        assert response.status_code == 303
    assert seats(app, room)[:2] == before[:2]


def wrong_codes(count: int) -> list[str]:
    return [f"ZZZZZ{ALPHABET[n]}" for n in range(count)]


@pytest.mark.parametrize(
    "door",
    ["page", "join", "take-seat", "go", "act", "socket"],
)
def test_every_door_counts_a_wrong_code_against_the_limit(app: Lapau, door: str) -> None:
    """12 wrong codes a minute per address, whichever URL carries them."""
    app.services.limiter.reset()
    client = guest(app, "g-guesser")

    def probe(code: str) -> int:
        if door == "page":
            return client.get(f"/en/room/{code}").status_code
        if door == "join":
            return client.post("/en/room/join", data={"code": code}).status_code
        if door == "take-seat":
            return client.post(f"/en/room/{code}/join").status_code
        if door == "go":
            return client.get(f"/en/room/{code}/go").status_code
        if door == "act":
            return client.post(f"/en/room/{code}/act", data={"a": "ready"}).status_code
        headers = {
            "Origin": "http://localhost",
            "Upgrade": "websocket",
            "Connection": "Upgrade",
            "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
            "Sec-WebSocket-Version": "13",
        }
        return client.get(f"/ws/room/{code}?lang=en", headers=headers).status_code

    statuses = [probe(code) for code in wrong_codes(16)]
    assert 429 in statuses, statuses
    assert statuses.index(429) <= 12, statuses


@fuzz(EXAMPLES * 8)
@given(raw=raw_messages(["ready", "sit 2", "start", "kick 1"], 0, ["ABCDEF"]))
def test_the_room_and_presence_sockets_read_any_message_without_an_error(raw: Any) -> None:
    """What the room socket and the per-page socket (/ws/me) make of a message: an
    action or a refusal, a dismissal or nothing; never an exception of another kind."""
    message = parse(raw)
    if isinstance(message, RoomAction):
        assert isinstance(message.action, str) and 0 < len(message.action) <= 32
    if isinstance(message, Dismiss):
        assert isinstance(message.invite, str) and 0 < len(message.invite) <= 32
    # Any page's message may arrive here (a table's reaction too): each socket takes its
    # own types and answers the rest as unexpected.
    assert isinstance(message, Message | Unexpected)
