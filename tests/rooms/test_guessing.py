"""Room codes cannot be tested for free (#15 finding 6): every door that takes a code
answers a stranger the same whether or not the room exists and counts a guess, and a host
can lock a room against new joiners."""

from __future__ import annotations

import re

import pytest
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from tests.play.conftest import ManualClock
from webapp.rooms.live import Rooms
from webapp.services import Lapau

CODE = re.compile(r"/room/([A-Z2-9]{6})$")
#: A form's CSRF token is signed with the second it was made: two answers a second apart
#: differ there, whatever the room.
TOKEN = re.compile(r'name="csrf_token" value="[^"]*"')


def answered(response: TestResponse, code: str) -> tuple[int, str]:
    """What a page says about ``code``, with the code and the token's time left out."""
    text = TOKEN.sub('name="csrf_token"', response.text).replace(code, "CODE")
    return response.status_code, text


@pytest.fixture(autouse=True)
def still(app: Lapau) -> ManualClock:
    return ManualClock().hold(app.services.hub)


def create(client: FlaskClient) -> str:
    response = client.post("/en/room/new", data={"game": "koa", "name": "Rina"})
    found = CODE.search(response.location)
    assert found, response.location
    return found.group(1)


def stranger(app: Lapau) -> FlaskClient:
    """A guest with an id of their own, seated in no room."""
    other = app.test_client()
    other.get("/en/play/koa")
    other.post("/en/play/koa", data={"mode": "quick", "level": "easy"})
    return other


def rooms(app: Lapau) -> Rooms:
    found: Rooms = app.services.rooms
    return found


@pytest.mark.parametrize(("door", "form"), [("name", {"name": "Mallory"}), ("act", {"a": "ready"})])
def test_a_stranger_gets_the_same_answer_for_a_real_room_and_a_made_up_one(
    app: Lapau, client: FlaskClient, door: str, form: dict[str, str]
) -> None:
    real = create(client)
    other = stranger(app)
    answers = []
    for code in (real, "ZZZ222"):
        response = other.post(f"/en/room/{code}/{door}", data=form)
        answers.append(answered(response, code))
    assert answers[0] == answers[1]
    assert answers[0][0] == 404
    room = rooms(app).get(real)
    assert room is not None and [p.name for p in room.seats if p] == ["Rina"]


@pytest.mark.parametrize("door", ["name", "act"])
def test_every_door_that_takes_a_code_counts_a_guess(app: Lapau, door: str) -> None:
    other = stranger(app)
    statuses = [
        other.post(f"/en/room/ZZZ{n}22/{door}", data={"a": "ready", "name": "x"}).status_code
        for n in range(2, 9)
    ]
    statuses += [other.get(f"/en/room/YYY{n}22").status_code for n in range(2, 9)]
    assert statuses[:12] == [404] * 12
    assert statuses[12:] == [429, 429]


@pytest.mark.parametrize(
    ("lang", "button", "notice"),
    [
        ("en", "Lock the room", "The host has locked this room"),
        ("id", "Kunci meja", "Tuan rumah sudah mengunci meja ini"),
        ("nl", "Tafel op slot doen", "De host heeft deze tafel op slot gedaan"),
    ],
)
def test_a_locked_room_lets_no_one_new_in(
    app: Lapau, client: FlaskClient, lang: str, button: str, notice: str
) -> None:
    code = create(client)
    friend = app.test_client()
    friend.post("/en/room/join", data={"code": code, "name": "Budi"})
    assert button in client.get(f"/{lang}/room/{code}").text
    assert button not in friend.get(f"/{lang}/room/{code}").text
    assert friend.post(f"/en/room/{code}/act", data={"a": "lock"}).location.endswith(
        "notice=not-host"
    )
    client.post(f"/en/room/{code}/act", data={"a": "lock"})
    late = app.test_client()
    response = late.post(f"/{lang}/room/join", data={"code": code, "name": "Citra"})
    assert response.location.endswith("notice=room-locked")
    assert notice in late.get(response.location).text
    # Who was in stays in; unlocked, the room takes people again.
    assert friend.post(f"/en/room/{code}/act", data={"a": "ready"}).status_code == 303
    client.post(f"/en/room/{code}/act", data={"a": "unlock"})
    late.post("/en/room/join", data={"code": code, "name": "Citra"})
    room = rooms(app).get(code)
    assert room is not None and [p.name for p in room.seats if p] == ["Rina", "Budi", "Citra"]
