"""Rooms over HTTP with the test client: create, join by code, act without scripts."""

from __future__ import annotations

import re

import pytest
from flask.testing import FlaskClient

from tests.auth.conftest import PASSWORD, csrf_app, sign_up, token_of  # noqa: F401 - fixture
from tests.play.conftest import ManualClock, Recorder
from webapp.channels import Subscriber
from webapp.rooms import invite_link
from webapp.rooms.live import Rooms
from webapp.rooms.logic import Room
from webapp.services import Lapau

CODE = re.compile(r"/room/([A-Z2-9]{6})$")


@pytest.fixture(autouse=True)
def still(app: Lapau) -> ManualClock:
    """Tables opened here hold still: no bot or turn timer runs unless the test says so."""
    return ManualClock().hold(app.services.hub)


def create(client: FlaskClient, game: str = "koa", name: str | None = None) -> str:
    data = {"game": game} if name is None else {"game": game, "name": name}
    response = client.post("/en/room/new", data=data)
    assert response.status_code == 303
    found = CODE.search(response.location)
    assert found, response.location
    return found.group(1)


def rooms(app: Lapau) -> Rooms:
    found: Rooms = app.services.rooms
    return found


def test_creating_a_room_seats_the_host_and_shows_the_code_and_link(
    app: Lapau, client: FlaskClient
) -> None:
    code = create(client, name="Rina")
    page = client.get(f"/en/room/{code}").text
    assert f'{code[:3]}<span class="sr"> </span>{code[3:]}' in page
    assert f"http://localhost/en/room/{code}" in page
    assert 'ws-connect="/ws/room/' + code + '?lang=en"' in page
    room = rooms(app).get(code)
    assert room is not None and room.seats[0] is not None and room.seats[0].name == "Rina"


def test_joining_by_a_typed_code_takes_a_seat(app: Lapau, client: FlaskClient) -> None:
    code = create(client, name="Rina")
    friend = app.test_client()
    response = friend.post("/en/room/join", data={"code": code.lower(), "name": "Budi"})
    assert response.status_code == 303 and response.location.endswith(f"/en/room/{code}")
    room = rooms(app).get(code)
    assert room is not None and [p.name for p in room.seats if p] == ["Rina", "Budi"]


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", "No room has the code"),
        ("id", "Tidak ada meja dengan kode"),
        ("nl", "Geen tafel heeft de code"),
    ],
)
def test_a_wrong_code_gets_a_clear_localized_message(
    client: FlaskClient, lang: str, words: str
) -> None:
    response = client.post(f"/{lang}/room/join", data={"code": "zzz999"})
    assert response.status_code == 404
    assert words in response.text and "ZZZ999" in response.text
    assert client.get(f"/{lang}/room/ZZZ999").status_code == 404


def test_an_expired_code_says_the_room_has_closed(app: Lapau, client: FlaskClient) -> None:
    code = create(client)
    client.post(f"/en/room/{code}/act", data={"a": "leave"})
    response = app.test_client().post("/en/room/join", data={"code": code})
    assert response.status_code == 410
    assert "has closed" in response.text


def test_guessing_codes_is_rate_limited(client: FlaskClient) -> None:
    statuses = [client.get(f"/en/room/ZZZ99{n}").status_code for n in range(2, 9)]
    statuses += [
        client.post("/en/room/join", data={"code": f"YYY99{n}"}).status_code for n in range(2, 9)
    ]
    assert statuses[:12] == [404] * 12
    assert statuses[12:] == [429, 429]


def test_creating_rooms_is_rate_limited(client: FlaskClient) -> None:
    for _ in range(10):
        create(client)
    assert client.post("/en/room/new", data={"game": "koa"}).status_code == 429


def test_a_full_or_started_room_says_so(app: Lapau, client: FlaskClient) -> None:
    code = create(client, "koikoi")
    app.test_client().post("/en/room/join", data={"code": code})
    third = app.test_client()
    response = third.post("/en/room/join", data={"code": code})
    assert "notice=room-full" in response.location
    assert "This room is full" in third.get(response.location).text


def test_host_actions_are_refused_to_a_player_and_change_nothing(
    app: Lapau, client: FlaskClient
) -> None:
    code = create(client)
    friend = app.test_client()
    friend.post("/en/room/join", data={"code": code})
    before = rooms(app).get(code)
    for action in ("option full", "bot 2", "fill", "kick 0", "start", "level hard"):
        response = friend.post(f"/en/room/{code}/act", data={"a": action})
        assert response.location.endswith("notice=not-host"), action
    assert rooms(app).get(code) == before
    page = friend.get(f"/en/room/{code}?notice=not-host").text
    assert "Only the host can do that." in page


def test_a_stranger_cannot_act_in_a_room(app: Lapau, client: FlaskClient) -> None:
    code = create(client)
    stranger = app.test_client()
    assert stranger.post(f"/en/room/{code}/act", data={"a": "start"}).status_code == 403
    stranger.get("/en/room/")  # now a guest with an id, still not seated
    stranger.get("/en/play/koa")
    response = stranger.post(f"/en/room/{code}/act", data={"a": "leave"})
    assert response.status_code in (303, 403)
    assert rooms(app).get(code).seats[0] is not None  # type: ignore[union-attr]


def test_a_started_room_sends_its_players_to_the_table_and_others_may_watch(
    app: Lapau, client: FlaskClient
) -> None:
    code = create(client, "koikoi")
    response = client.post(f"/en/room/{code}/act", data={"a": "fill"})
    response = client.post(f"/en/room/{code}/act", data={"a": "start"})
    assert "/en/table/" in response.location
    assert client.get(f"/en/room/{code}").status_code == 303
    watcher = app.test_client().get(f"/en/room/{code}")
    assert watcher.status_code == 200 and "Watch the match" in watcher.text
    table = app.test_client().get(response.location).text
    assert "You are watching this match" in table
    assert "You are watching" not in client.get(response.location).text


def test_a_rooms_house_rules_say_unrated_before_the_match_and_are_the_tables(
    app: Lapau, client: FlaskClient
) -> None:
    code = create(client, "koikoi")
    page = client.get(f"/en/room/{code}").text
    assert "Rules: Standard (default)" in page and "not count for ratings" not in page
    client.post(f"/en/room/{code}/act", data={"a": "rules bold-koikoi"})
    page = client.get(f"/nl/room/{code}").text
    assert "Gedurfde koi-koi" in page and "telt niet mee voor de rating" in page
    room = rooms(app).get(code)
    assert room is not None and room.rules == "bold-koikoi"
    client.post(f"/en/room/{code}/act", data={"a": "fill"})
    response = client.post(f"/en/room/{code}/act", data={"a": "start"})
    table_id = response.location.rsplit("/", 1)[-1]
    session = app.services.hub.get(table_id)
    assert session is not None and session.state.house.koikoi_calls == "many"
    assert "Bold koi-koi · not rated" in client.get(response.location).text


@pytest.mark.databases("sqlite")  # the forms' tokens, not what is stored
def test_every_room_form_carries_the_csrf_token(csrf_app: Lapau) -> None:  # noqa: F811
    client = csrf_app.test_client()
    page = client.get("/en/room/").text
    assert client.post("/en/room/new", data={"game": "koa"}).status_code == 400
    response = client.post("/en/room/new", data={"game": "koa", "csrf_token": token_of(page)})
    assert response.status_code == 303
    for path in ["/en/room/", response.location, "/en/play/koa", "/en/play/"]:
        html = client.get(path).text
        assert html.count("<form") == html.count('name="csrf_token"'), path


def test_signed_in_players_are_named_by_their_username(app: Lapau, client: FlaskClient) -> None:
    assert sign_up(client, "rina_host") == 303
    code = create(client, name="ignored")
    room = rooms(app).get(code)
    assert room is not None and room.seats[0] is not None
    assert room.seats[0].name == "rina_host" and room.host.startswith("u-")


def test_hooks_hear_every_change_and_the_invite_link_is_the_room_page(
    app: Lapau, client: FlaskClient
) -> None:
    heard: list[tuple[str, str]] = []
    rooms(app).on_change.append(lambda room, event: heard.append((room.code, event)))
    code = create(client)
    app.test_client().post("/en/room/join", data={"code": code})
    client.post(f"/en/room/{code}/act", data={"a": "fill"})
    assert heard == [(code, "create"), (code, "join"), (code, "fill")]
    with app.test_request_context("/nl/"):
        assert invite_link(code, "nl") == f"http://localhost/nl/room/{code}"


def test_a_hook_that_fails_does_not_undo_the_change(app: Lapau, client: FlaskClient) -> None:
    def broken(_room: Room, _event: str) -> None:
        raise RuntimeError("boom")

    rooms(app).on_change.append(broken)
    code = create(client)
    assert rooms(app).get(code) is not None


def test_a_guest_names_themself_in_the_room_and_everyone_sees_it(
    app: Lapau, client: FlaskClient
) -> None:
    code = create(client, name="")
    room = rooms(app).get(code)
    assert room is not None and room.seats[0] is not None and room.seats[0].name == ""
    assert 'placeholder="Guest"' in client.get(f"/en/room/{code}").text
    client.post(f"/en/room/{code}/name", data={"name": "  Rina\t Wati "})
    room = rooms(app).get(code)
    assert room is not None and room.seats[0] is not None and room.seats[0].name == "Rina Wati"
    # The name is remembered for the next room this browser opens or joins.
    other = create(client)
    assert 'value="Rina Wati"' in client.get(f"/en/room/{other}").text
    stranger = app.test_client()
    create(stranger)  # a guest with an id, seated elsewhere
    response = stranger.post(f"/en/room/{code}/name", data={"name": "Mallory"})
    assert response.status_code == 404  # a stranger learns nothing of the room


@pytest.mark.parametrize("path", ["/en/room/", "/en/play/koikoi"])
def test_a_guest_opening_a_room_is_asked_for_a_name(client: FlaskClient, path: str) -> None:
    """The forms that open a room (the rooms page, a game's setup) carry the name field,
    so the host shows by name at once instead of as "Guest"."""
    form = re.search(r'<form[^>]*action="/en/room/new".*?</form>', client.get(path).text, re.S)
    assert form is not None and 'name="name"' in form.group(0)


def test_an_unnamed_host_is_asked_for_a_name_above_the_seats(
    app: Lapau, client: FlaskClient
) -> None:
    code = create(client, name="")
    page = client.get(f"/en/room/{code}").text
    asked = page.index('class="panel room-form rename ask-name"')
    assert asked < page.index('class="seat')
    assert "until you do, your seat shows" in page
    client.post(f"/en/room/{code}/name", data={"name": "Rina"})
    page = client.get(f"/en/room/{code}").text
    assert "ask-name" not in page and "until you do" not in page
    assert page.index('class="panel room-form rename"') > page.index('class="seat')
    assert 'value="Rina"' in page


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("id", "Beri tahu yang lain siapa kamu"),
        ("nl", "Vertel de anderen wie je bent"),
    ],
)
def test_the_name_question_speaks_the_readers_language(
    client: FlaskClient, lang: str, said: str
) -> None:
    code = create(client, name="")
    assert said in client.get(f"/{lang}/room/{code}").text


def test_without_scripts_the_room_works_through_its_forms(csrf_app: Lapau) -> None:  # noqa: F811
    """Every button of the room is a form posted with the page's CSRF token."""
    ManualClock().hold(csrf_app.services.hub)
    host, friend = csrf_app.test_client(), csrf_app.test_client()
    token = token_of(host.get("/en/room/").text)
    code = CODE.search(
        host.post("/en/room/new", data={"game": "koa", "csrf_token": token}).location
    ).group(1)  # type: ignore[union-attr]
    token = token_of(friend.get(f"/en/room/{code}").text)
    friend.post(f"/en/room/{code}/join", data={"csrf_token": token, "name": "Budi"})
    page = friend.get(f"/en/room/{code}").text
    assert 'value="ready"' in page and '<noscript><meta http-equiv="refresh"' in page
    friend.post(f"/en/room/{code}/act", data={"a": "ready", "csrf_token": token_of(page)})
    page = host.get(f"/en/room/{code}").text
    host.post(f"/en/room/{code}/act", data={"a": "fill", "csrf_token": token_of(page)})
    assert host.post(f"/en/room/{code}/act", data={"a": "start"}).status_code == 400
    response = host.post(f"/en/room/{code}/act", data={"a": "start", "csrf_token": token_of(page)})
    assert "/en/table/" in response.location
    assert friend.get(f"/en/room/{code}").location == response.location


def test_play_again_opens_one_rematch_room_with_the_same_players(
    app: Lapau, client: FlaskClient, still: ManualClock
) -> None:
    code = create(client, "koikoi", name="Rina")
    friend, stranger = app.test_client(), app.test_client()
    friend.post("/en/room/join", data={"code": code, "name": "Budi"})
    friend.post(f"/en/room/{code}/act", data={"a": "ready"})
    table_id = client.post(f"/en/room/{code}/act", data={"a": "start"}).location.rsplit("/")[-1]
    session = app.services.hub.get(table_id)
    assert session is not None
    # Rina's page listens, so the turn timers play for both to the end (a table nobody
    # listens to pauses).
    session.join(Subscriber(Recorder(session), 0, "en"))
    still.run_until(lambda: session.finished)
    assert session.finished
    page = client.get(f"/en/table/{table_id}").text
    assert f'action="/en/room/again/{table_id}"' in page
    assert "Play again with the same players" in page

    again = client.post(f"/en/room/again/{table_id}")
    new_code = CODE.search(again.location).group(1)  # type: ignore[union-attr]
    assert new_code != code
    assert friend.post(f"/en/room/again/{table_id}").location == again.location
    room = rooms(app).get(new_code)
    assert room is not None and room.status == "waiting"
    assert [(p.name, p.ready) for p in room.seats if p] == [("Rina", False), ("Budi", False)]
    create(stranger)
    refused = stranger.post(f"/en/room/again/{table_id}")
    assert refused.location.endswith("notice=not-seated")
    assert rooms(app).get(code).status == "finished"  # type: ignore[union-attr]


def test_a_practice_tables_play_again_stays_a_practice_table(
    app: Lapau, client: FlaskClient
) -> None:
    response = client.post("/en/play/koikoi", data={"rounds": "3", "level": "easy"})
    table_id = response.location.rsplit("/")[-1]
    assert rooms(app).room_of_table(table_id) is None
    assert client.post(f"/en/room/again/{table_id}").status_code == 404


def test_a_guest_who_signs_in_keeps_their_seat_and_hosting(app: Lapau, client: FlaskClient) -> None:
    code = create(client, name="Rina")
    friend = app.test_client()
    friend.post("/en/room/join", data={"code": code, "name": "Budi"})
    assert sign_up(friend, "budi_real") == 303
    assert sign_up(client, "rina_real") == 303
    room = rooms(app).get(code)
    assert room is not None
    assert room.host.startswith("u-") and room.seat_of(room.host) == 0
    assert all(player.startswith("u-") for player in room.humans())
    assert client.post(f"/en/room/{code}/act", data={"a": "fill"}).status_code == 303
    assert "notice" not in friend.post(f"/en/room/{code}/act", data={"a": "ready"}).location
