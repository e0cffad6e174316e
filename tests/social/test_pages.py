"""The friends page and its forms without scripts: plain posts that redirect back."""

from __future__ import annotations

import re

import pytest
from flask.testing import FlaskClient

from tests.auth.conftest import csrf_app, sign_up, token_of  # noqa: F401 - a fixture
from webapp.services import Lapau
from webapp.social import invite


def member(app: Lapau, name: str) -> FlaskClient:
    client = app.test_client()
    assert sign_up(client, name) == 303
    return client


def accept_path(html: str, action: str = "accept") -> str:
    found = re.search(rf'action="(/en/friends/\d+/{action})"', html)
    assert found, html
    return found.group(1)


def test_the_friends_page_needs_an_account(client: FlaskClient) -> None:
    response = client.get("/en/friends")
    assert response.status_code == 302
    assert "/en/sign-in?next=" in response.location


def test_a_request_answered_through_plain_forms(app: Lapau) -> None:
    ana, budi = member(app, "ana"), member(app, "budi")
    found = ana.get("/en/friends?q=bud").get_data(as_text=True)
    assert "budi" in found and "Add friend" in found
    response = ana.post("/en/friends/ask", data={"username": "budi", "q": "bud"})
    assert response.status_code == 303 and response.location == "/en/friends?q=bud"
    assert "Request sent to budi." in ana.get(response.location).get_data(as_text=True)
    page = budi.get("/en/friends").get_data(as_text=True)
    assert "wants to be your friend" in page
    assert 'class="badge">1<' in page
    assert budi.post(accept_path(page)).status_code == 303
    page = budi.get("/en/friends").get_data(as_text=True)
    assert 'id="friend-' in page and "ana" in page and "wants to be" not in page
    # Ana is not on the site (no socket in a test client): offline.
    assert "is-offline" in page
    assert budi.post(accept_path(page, "remove")).status_code == 303
    assert "No friends yet" in budi.get("/en/friends").get_data(as_text=True)


def test_asking_for_nobody_or_yourself_is_explained(app: Lapau) -> None:
    ana = member(app, "ana")
    ana.post("/en/friends/ask", data={"username": "nobody_here"})
    assert "Nobody plays under that username." in ana.get("/en/friends").get_data(as_text=True)
    ana.post("/en/friends/ask", data={"username": "ANA"})
    assert "That is you." in ana.get("/en/friends").get_data(as_text=True)


def test_an_unknown_action_is_not_found(app: Lapau) -> None:
    ana = member(app, "ana")
    assert ana.post("/en/friends/1/befriend").status_code == 404


def test_the_forms_need_their_csrf_token(csrf_app: Lapau) -> None:  # noqa: F811
    ana = csrf_app.test_client()
    token = token_of(ana.get("/en/sign-up").get_data(as_text=True))
    data = {"username": "ana", "password": "tea at the lapau", "csrf_token": token}
    assert ana.post("/en/sign-up", data=data).status_code == 303
    assert ana.post("/en/friends/ask", data={"username": "budi"}).status_code == 400
    token = token_of(ana.get("/en/friends").get_data(as_text=True))
    response = ana.post("/en/friends/ask", data={"username": "budi", "csrf_token": token})
    assert response.status_code == 303


def test_friend_requests_are_rate_limited(app: Lapau) -> None:
    ana = member(app, "ana")
    codes = [ana.post("/en/friends/ask", data={"username": "x"}).status_code for _ in range(21)]
    assert codes[:20] == [303] * 20 and codes[20] == 429


def test_dismissing_an_invite_without_scripts_goes_back_to_the_page(app: Lapau) -> None:
    ana, budi = member(app, "ana"), member(app, "budi")
    ana.post("/en/friends/ask", data={"username": "budi"})
    budi.post("/en/friends/ask", data={"username": "ana"})
    with app.app_context():
        made = invite("u-1", "u-2", "koikoi", "/en/play/")
    assert made is not None
    page = budi.get("/nl/about").get_data(as_text=True)
    assert "nodigt je uit voor een partij Koi-Koi" in page
    response = budi.post(
        f"/nl/invites/{made.id}/dismiss", headers={"Referer": "http://localhost/nl/about"}
    )
    assert response.location == "/nl/about"
    assert 'class="toast"' not in budi.get("/nl/about").get_data(as_text=True)


def test_joining_an_invite_leads_to_the_room_in_the_readers_language(app: Lapau) -> None:
    ana, budi = member(app, "ana"), member(app, "budi")
    ana.post("/en/friends/ask", data={"username": "budi"})
    budi.post("/en/friends/ask", data={"username": "ana"})
    with app.app_context():
        made = invite("u-1", "u-2", "koa", "/en/play/")
    assert made is not None
    assert budi.get(f"/id/invites/{made.id}/join").status_code == 405  # a form, posted
    response = budi.post(f"/id/invites/{made.id}/join")
    assert response.status_code == 303 and response.location == "/id/play/"
    again = budi.post(f"/id/invites/{made.id}/join")
    assert again.location == "/id/friends"


def befriended(app: Lapau) -> tuple[FlaskClient, FlaskClient]:
    ana, budi = member(app, "ana"), member(app, "budi")
    ana.post("/en/friends/ask", data={"username": "budi"})
    budi.post("/en/friends/ask", data={"username": "ana"})
    return ana, budi


def test_inviting_from_a_waiting_room_without_scripts_comes_back_to_the_room(app: Lapau) -> None:
    ana, budi = befriended(app)
    room = ana.post("/en/room/new", data={"game": "kowah"}).location
    assert "Invite a friend" in ana.get(room).get_data(as_text=True)
    form = {"to": "2", "game": "kowah", "link": room}
    response = ana.post("/en/friends/invite", data=form)
    assert response.status_code == 303 and response.location == room
    assert "Invite sent to budi." in ana.get(room).get_data(as_text=True)
    assert "ana</b> invites you to a Kowah match" in budi.get("/en/").get_data(as_text=True)


def test_an_invite_only_leads_to_a_waiting_room_the_sender_sits_in(app: Lapau) -> None:
    ana, budi = befriended(app)
    theirs = budi.post("/en/room/new", data={"game": "koa"}).location
    for link in ("/en/play/", "/en/account/delete", theirs):
        response = ana.post("/en/friends/invite", data={"to": "2", "game": "koa", "link": link})
        assert response.status_code == 303
        assert "That invite could not be sent." in ana.get("/en/friends").get_data(as_text=True)
    assert "invites you" not in budi.get("/en/").get_data(as_text=True)


def test_inviting_through_htmx_answers_with_the_friends_row_marked(app: Lapau) -> None:
    ana, _budi = befriended(app)
    room = ana.post("/en/room/new", data={"game": "koa"}).location
    form = {"to": "2", "game": "koa", "link": room}
    response = ana.post("/en/friends/invite", data=form, headers={"HX-Request": "true"})
    html = response.get_data(as_text=True)
    assert response.status_code == 200 and html.startswith("<li") and "Invited" in html


def test_an_account_id_too_big_for_the_database_is_not_found(app: Lapau) -> None:
    # PostgreSQL refuses to compare an integer column with a number past its range.
    ana = member(app, "ana")
    for number in ("2147483648", "999999999999999999999999"):
        for action in ("accept", "decline", "remove"):
            assert ana.post(f"/en/friends/{number}/{action}").status_code == 404
    assert ana.post("/en/friends/2147483647/accept").status_code == 303


def invited_to_a_room(app: Lapau, game: str = "koa") -> tuple[FlaskClient, FlaskClient, str, str]:
    """Ana opens a room of ``game`` and invites Budi: both clients, the room's code and
    the invite's id."""
    ana, budi = befriended(app)
    room = ana.post("/en/room/new", data={"game": game}).location
    ana.post("/en/friends/invite", data={"to": "2", "game": game, "link": room})
    page = budi.get("/nl/").get_data(as_text=True)
    found = re.search(r'<form method="post" action="/nl/invites/([\w-]+)/join">', page)
    assert found, page
    return ana, budi, room.rsplit("/", 1)[1], found.group(1)


def test_joining_an_invite_seats_the_friend_ready(app: Lapau) -> None:
    _ana, budi, code, invite_id = invited_to_a_room(app)
    response = budi.post(f"/nl/invites/{invite_id}/join")
    assert response.status_code == 303 and response.location == f"/nl/room/{code}"
    room = app.services.rooms.get(code)
    assert room is not None
    assert [(p.player, p.name, p.ready) for p in room.seats if p] == [
        ("u-1", "ana", False),  # the host starts the match: no "ready" of their own
        ("u-2", "budi", True),
    ]
    page = budi.get(response.location).get_data(as_text=True)
    assert "Take a seat" not in page and 'value="unready"' in page


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "Every seat was taken before you came. You can watch the match here"),
        ("id", "Semua kursi sudah terisi sebelum kamu datang."),
        ("nl", "Alle plaatsen waren al bezet voordat je kwam."),
    ],
)
def test_an_invite_to_a_full_room_lets_the_friend_watch_and_says_why(
    app: Lapau, lang: str, said: str
) -> None:
    ana, budi, code, invite_id = invited_to_a_room(app, "koikoi")
    carla = member(app, "carla")
    carla.post("/en/room/join", data={"code": code})  # the last seat goes first
    response = budi.post(f"/{lang}/invites/{invite_id}/join")
    assert response.status_code == 303
    assert response.location == f"/{lang}/room/{code}?notice=invite-full"
    room = app.services.rooms.get(code)
    assert room is not None and room.seat_of("u-2") is None
    assert said in budi.get(response.location).get_data(as_text=True)
