"""Who sits in a room is who they seem (#15 finding 11): a guest's name cannot pass for a
bot, for "You" or for an account, guests are marked as guests, and a removed guest cannot
come back with a fresh cookie."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

from tests.auth.conftest import sign_up
from tests.rooms.test_guessing import create, rooms, still  # noqa: F401 - fixture
from webapp.services import Lapau


def names(app: Lapau, code: str) -> list[str]:
    room = rooms(app).get(code)
    assert room is not None
    return [place.name for place in room.seats if place is not None]


@pytest.mark.parametrize(
    "name", ["Malin (Hard)", "malin", "Baba Liem", "You", "kamu", "Jij", "bot Rina", "budi"]
)
def test_a_guest_cannot_take_a_bots_an_accounts_or_your_name(
    app: Lapau, client: FlaskClient, name: str
) -> None:
    sign_up(app.test_client(), "budi")
    code = create(client)
    guest = app.test_client()
    response = guest.post("/en/room/join", data={"code": code, "name": name})
    assert response.location.endswith("notice=name-taken")
    assert names(app, code) == ["Rina", ""]  # seated, shown as "Guest"
    page = guest.get(response.location).text
    assert "That name is taken by a bot or a player" in page
    guest.post(f"/en/room/{code}/name", data={"name": "Citra"})
    response = guest.post(f"/en/room/{code}/name", data={"name": name})
    assert response.location.endswith("notice=name-taken")
    assert names(app, code) == ["Rina", "Citra"]


def test_a_real_name_that_starts_like_a_bots_is_fine(app: Lapau, client: FlaskClient) -> None:
    code = create(client)
    app.test_client().post("/en/room/join", data={"code": code, "name": "Malinda"})
    assert names(app, code) == ["Rina", "Malinda"]


@pytest.mark.parametrize(("lang", "mark"), [("en", "guest"), ("id", "tamu"), ("nl", "gast")])
def test_guests_are_marked_as_guests(app: Lapau, client: FlaskClient, lang: str, mark: str) -> None:
    code = create(client)
    member = app.test_client()
    sign_up(member, "budi")
    member.post("/en/room/join", data={"code": code})
    page = member.get(f"/{lang}/room/{code}").text
    assert page.count(f'<span class="guest-mark">{mark}</span>') == 1  # Rina, not budi


def test_a_removed_guest_cannot_return_with_a_fresh_cookie(app: Lapau, client: FlaskClient) -> None:
    code = create(client)
    app.test_client().post("/en/room/join", data={"code": code, "name": "Mallory"})
    client.post(f"/en/room/{code}/act", data={"a": "kick 1"})
    fresh = app.test_client()
    response = fresh.post("/en/room/join", data={"code": code, "name": "Mallory"})
    assert response.location.endswith("notice=room-locked")
    assert names(app, code) == ["Rina"]
    # The host lets people in again when they choose.
    client.post(f"/en/room/{code}/act", data={"a": "unlock"})
    app.test_client().post("/en/room/join", data={"code": code, "name": "Budi"})
    assert names(app, code) == ["Rina", "Budi"]


@pytest.mark.parametrize(("lang", "mark"), [("en", "guest"), ("id", "tamu"), ("nl", "gast")])
def test_guests_are_marked_as_guests_at_the_table(
    app: Lapau, client: FlaskClient, lang: str, mark: str
) -> None:
    code = create(client)
    friend = app.test_client()
    friend.post("/en/room/join", data={"code": code, "name": "Budi"})
    friend.post(f"/en/room/{code}/act", data={"a": "ready"})
    client.post(f"/en/room/{code}/act", data={"a": "fill"})
    started = client.post(f"/en/room/{code}/act", data={"a": "start"}).location
    table_id = started.rsplit("/", 1)[1]
    page = friend.get(f"/{lang}/table/{table_id}").text
    assert f"Rina ({mark})" in page and "Budi (" not in page
