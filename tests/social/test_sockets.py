"""The page socket ``/ws/me`` against the real server (gunicorn + gevent): friends see each
other come and go, requests and invites arrive live, strangers are refused."""

from __future__ import annotations

import http.client
import itertools
import json
import re
from collections.abc import Iterator

import pytest
import websocket

from tests.conftest import STILL_BOTS, LiveServer
from tests.play.client import Guest
from tests.social.member import Live, Member

pytestmark = pytest.mark.live

names = (f"pal{n}" for n in itertools.count())


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    instance = tmp_path_factory.mktemp("social") / "instance"
    env = {**STILL_BOTS, "LAPAU_TABLE_SEED": "11", "LAPAU_PROXIES": "1"}
    with LiveServer(instance, env) as live:
        yield live


def open_room(member: Member, game: str = "koa") -> str:
    """The link to a new waiting room of ``member``'s."""
    page = member.post("/en/room/new", {"game": game}, page="/en/room/")
    code = re.search(r"/en/room/([A-Z0-9]{6})", page)
    assert code is not None
    return f"/en/room/{code.group(1)}"


def account_id(member: Member, other: Member) -> int:
    """``other``'s account id, read from ``member``'s friends page."""
    html = member.page(f"/en/friends?q={other.username}")
    found = re.search(rf"/en/friends/(\d+)/\w+\"[^>]*>.*?{other.username}", html, re.S)
    if found is None:
        found = re.search(r'name="to" value="(\d+)"', html)
    assert found, html
    return int(found.group(1))


def friends(server: LiveServer) -> tuple[Member, Member]:
    """Two new accounts that are friends."""
    one, two = Member(server, next(names)), Member(server, next(names))
    one.ask(two.username)
    two.ask(one.username)  # asking back accepts
    return one, two


def handshake(server: LiveServer, cookie: str, origin: str | None) -> int:
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    headers = {
        "Upgrade": "websocket",
        "Connection": "Upgrade",
        "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
        "Sec-WebSocket-Version": "13",
        "Cookie": cookie,
    }
    if origin:
        headers["Origin"] = origin
    try:
        connection.request("GET", "/ws/me?lang=en", headers=headers)
        return connection.getresponse().status
    finally:
        connection.close()


def test_only_a_signed_in_page_of_this_site_gets_a_socket(server: LiveServer) -> None:
    member = Member(server, next(names))
    assert handshake(server, member.cookie_header(), "https://evil.example") == 403
    assert handshake(server, member.cookie_header(), None) == 403
    guest = Guest(server)
    guest.page("/en/play/")
    assert handshake(server, guest.cookie_header(), server.url) == 403
    assert handshake(server, member.cookie_header(), server.url) == 101


def test_a_friend_coming_online_and_going_offline_reaches_the_watcher(server: LiveServer) -> None:
    one, two = friends(server)
    watcher = one.me_socket()
    first = watcher.receive_until('id="friends-live"')
    assert two.username in first and "Offline" in first
    other = two.me_socket(watching=False)
    row = watcher.receive_until("is-online")
    assert two.username in row and row.startswith("<li id=")
    other.close()
    assert two.username in watcher.receive_until("is-offline")
    watcher.close()


def test_a_second_page_of_the_same_friend_changes_nothing_until_the_last_closes(
    server: LiveServer,
) -> None:
    one, two = friends(server)
    watcher = one.me_socket()
    watcher.receive_until('id="friends-live"')
    first, second = two.me_socket(watching=False), two.me_socket(watching=False)
    watcher.receive_until("is-online")
    first.close()
    second.close()
    message = watcher.receive_until("is-offline")
    assert watcher.received.count(message) == 1
    assert sum("is-online" in m for m in watcher.received[1:]) == 1
    watcher.close()


def test_a_friend_sitting_down_at_a_table_shows_the_game_and_a_watch_link(
    server: LiveServer,
) -> None:
    one, two = friends(server)
    watcher = one.me_socket()
    watcher.receive_until('id="friends-live"')
    table_id = two.open_table("koikoi", rounds="3")
    table = two.connect(table_id)
    row = watcher.receive_until("is-playing")
    assert "Koi-Koi" in row and f"/en/table/{table_id}" in row and "Watch" in row
    table.close()
    assert "Offline" in watcher.receive_until("is-offline")
    watcher.close()


def test_a_request_and_its_answer_reach_both_people_live(server: LiveServer) -> None:
    one, two = Member(server, next(names)), Member(server, next(names))
    asked = two.me_socket()
    asked.receive_until('id="friends-live"')
    one.ask(two.username)
    pushed = asked.receive_until("wants to be your friend")
    assert one.username in pushed
    assert re.search(r'id="friends-badge" class="badge">1<', pushed)
    asker = one.me_socket()
    asker.receive_until("has not answered yet")
    two.answer(account_id(two, one), "accept")
    accepted = asker.receive_until('id="friends-live"')
    assert two.username in accepted and "is-online" in accepted
    asker.close()
    asked.close()


def test_an_invite_arrives_live_and_a_dismiss_over_the_socket_clears_it(
    server: LiveServer,
) -> None:
    one, two = friends(server)
    page = two.me_socket(watching=False)
    page.receive_until('id="invites"')
    other_page = two.me_socket(watching=False)
    other_page.receive_until('id="invites"')
    friend_id = account_id(one, two)
    invite = {"to": str(friend_id), "game": "koa", "link": open_room(one)}
    one.post("/en/friends/invite", invite, page="/en/friends")
    toast = page.receive_until("invites you")
    assert f"<b>{one.username}</b> invites you to a Koa match" in toast
    invite_id = re.search(r'name="dismiss" value="([^"]+)"', toast)
    assert invite_id
    other_page.receive_until("invites you")
    page.send(json.dumps({"dismiss": invite_id.group(1), "HEADERS": {}, "csrf_token": "x"}))
    assert page.receive_until('id="invites"') == '<div id="invites"></div>'
    assert other_page.receive_until('id="invites"') == '<div id="invites"></div>'
    page.close()
    other_page.close()


def test_nobody_but_a_friend_can_be_invited(server: LiveServer) -> None:
    one, stranger = Member(server, next(names)), Member(server, next(names))
    page = stranger.me_socket(watching=False)
    page.receive_until('id="invites"')
    stranger.ask(one.username)  # a request is not a friendship yet
    stranger_id = account_id(one, stranger)
    invite = {"to": str(stranger_id), "game": "koa", "link": open_room(one)}
    one.post("/en/friends/invite", invite, page="/en/friends")
    page.send("not json")
    page.send(json.dumps({"dismiss": 5}))
    with pytest.raises(AssertionError):
        page.receive_until("invites you", timeout=1)
    page.close()


def room_page_socket(server: LiveServer, member: Member, code: str) -> Live:
    """The page socket of a room's page (it asks for the room's invite list)."""
    ws = websocket.create_connection(
        f"ws://127.0.0.1:{server.port}/ws/me?lang=en&room={code}",
        origin=server.url,
        cookie=member.cookie_header(),
        timeout=10,
    )
    return Live(ws)


def test_a_waiting_rooms_invite_list_follows_friends_coming_online(server: LiveServer) -> None:
    host, friend = friends(server)
    html = host.post("/en/room/new", {"game": "koa"}, page="/en/room/")
    code = re.search(r'ws-connect="/ws/room/(\w+)\?', html)
    assert code, html
    assert "None of your friends is online right now." in html
    room_page = room_page_socket(server, host, code.group(1))
    room_page.receive_until('id="invites"')
    other = friend.me_socket(watching=False)
    offer = room_page.receive_until('id="invite-friends"')
    assert friend.username in offer and "Invite" in offer
    other.close()
    assert "None of your friends" in room_page.receive_until('id="invite-friends"')
    room_page.close()


def test_an_invite_marks_the_friend_on_every_room_page_of_the_sender(server: LiveServer) -> None:
    """A list pushed as the room page's socket opened can land after the click and wipe the
    row the button marked: the invite sends the list again, friend marked invited."""
    host, friend = friends(server)
    other = friend.me_socket(watching=False)
    html = host.post("/en/room/new", {"game": "koa"}, page="/en/room/")
    code = re.search(r'ws-connect="/ws/room/(\w+)\?', html)
    assert code, html
    room_page = room_page_socket(server, host, code.group(1))
    assert "Invited" not in room_page.receive_until('id="invite-friends"')
    friend_id = account_id(host, friend)
    invite = {"to": str(friend_id), "game": "koa", "link": f"/en/room/{code.group(1)}"}
    host.post("/en/friends/invite", invite, page=f"/en/room/{code.group(1)}")
    assert "Invited" in room_page.receive_until("Invited")
    room_page.close()
    other.close()


def test_a_room_code_in_the_page_socket_tells_a_stranger_nothing(server: LiveServer) -> None:
    """The invite list comes only for a room its reader sits in: a stranger's socket
    answers the same for a real room's code and a made-up one."""
    host, stranger = friends(server)
    html = host.post("/en/room/new", {"game": "koa"}, page="/en/room/")
    code = re.search(r'ws-connect="/ws/room/(\w+)\?', html)
    assert code, html
    received = []
    for room in (code.group(1), "ZZZ222"):
        page = room_page_socket(server, stranger, room)
        page.receive_until('id="invites"')
        with pytest.raises(AssertionError):
            page.receive_until('id="invite-friends"', timeout=1)
        received.append(page.received)
        page.close()
    assert received[0] == received[1]
