"""Invites: to friends only, shown in the reader's language, gone when the room is."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from webapp.auth import accounts
from webapp.channels import Subscriber
from webapp.services import Lapau
from webapp.social import friends, invite
from webapp.social.invites import Invites
from webapp.social.live import social


@pytest.fixture(autouse=True)
def context(app: Lapau) -> Iterator[None]:
    with app.app_context():
        yield


def account(name: str) -> int:
    user = accounts.create_user(name, None)
    assert user is not None and user.id is not None
    return user.id


class Box:
    def __init__(self) -> None:
        self.sent: list[str] = []

    def send(self, data: str) -> None:
        self.sent.append(data)

    def close(self, reason: int = 1000, message: str | None = None) -> None:
        pass


def test_an_invite_reaches_every_open_page_of_a_friend_only() -> None:
    ana, budi, cici = account("ana"), account("budi"), account("cici")
    friends.ask(ana, budi)
    friends.ask(budi, ana)
    friends.ask(ana, cici)  # asked, not answered: not friends
    pages = [Box(), Box()]
    for page in pages:
        social().channels.join(f"me:u-{budi}", Subscriber(page, person=f"u-{budi}"))
    made = invite(f"u-{ana}", f"u-{budi}", "koa", "/en/rooms/ABC234")
    assert made is not None and made.sender_name == "ana" and made.key == "/rooms/ABC234"
    assert all(page.sent == ["invites"] for page in pages)
    assert social().invites.of(f"u-{budi}") == [made]
    assert invite(f"u-{ana}", f"u-{cici}", "koa", "/en/rooms/ABC234") is None
    assert invite(f"u-{ana}", "g-guest", "koa", "/en/rooms/ABC234") is None


@pytest.mark.parametrize(
    ("game", "link"),
    [("chess", "/en/rooms/ABC234"), ("koa", "https://evil.example/"), ("koa", "//evil.example")],
)
def test_an_invite_names_a_known_game_and_a_page_of_this_site(game: str, link: str) -> None:
    ana, budi = account("ana"), account("budi")
    friends.ask(ana, budi)
    friends.ask(budi, ana)
    assert invite(f"u-{ana}", f"u-{budi}", game, link) is None


def test_inviting_again_to_the_same_room_replaces_the_invite() -> None:
    invites = Invites()
    first = invites.add("u-1", "ana", "u-2", "koa", "/en/rooms/ABC")
    second = invites.add("u-1", "ana", "u-2", "koa", "/nl/rooms/ABC")
    other = invites.add("u-3", "cici", "u-2", "koa", "/en/rooms/ABC")
    assert invites.of("u-2") == [other, second]
    assert invites.take("u-2", first.id) is None


def test_only_the_invited_can_answer_an_invite_and_only_once() -> None:
    invites = Invites()
    made = invites.add("u-1", "ana", "u-2", "koa", "/en/rooms/ABC")
    assert invites.take("u-1", made.id) is None
    assert invites.take("u-2", made.id) == made
    assert invites.take("u-2", made.id) is None


def test_a_room_that_starts_takes_its_invites_with_it_in_every_language() -> None:
    invites = Invites()
    invites.add("u-1", "ana", "u-2", "koa", "/en/rooms/ABC")
    invites.add("u-1", "ana", "u-3", "koa", "/id/rooms/ABC")
    kept = invites.add("u-1", "ana", "u-3", "koa", "/id/rooms/XYZ")
    assert invites.expire("/nl/rooms/ABC") == {"u-2", "u-3"}
    assert invites.of("u-2") == [] and invites.of("u-3") == [kept]


def test_an_unanswered_invite_lapses() -> None:
    invites = Invites(ttl=0)
    invites.add("u-1", "ana", "u-2", "koa", "/en/rooms/ABC")
    assert invites.of("u-2") == []


class FakeRoom:
    """What the rooms hook reads of a room."""

    def __init__(self, status: str, seated: list[str], full: bool = False) -> None:
        self.code, self.game, self.status = "ABC234", "koa", status
        self.seated, self.full = seated, full

    def humans(self) -> list[str]:
        return self.seated

    def is_full(self) -> bool:
        return self.full


def test_a_waiting_room_shows_its_players_in_a_game_and_a_start_ends_it(app: Lapau) -> None:
    hook = app.services.social.room_changed
    presence = social().presence
    page = presence.open("u-1")
    hook(FakeRoom("waiting", ["u-1", "g-guest"]), "join")
    status = presence.status("u-1")
    assert status.state == "playing" and status.place is not None
    assert status.place.kind == "room" and status.place.joinable
    assert status.place.link == "/id/room/ABC234"
    hook(FakeRoom("waiting", ["u-1"], full=True), "sit")
    assert presence.status("u-1").place.joinable is False  # type: ignore[union-attr]
    social().invites.add("u-1", "ana", "u-2", "koa", "/en/room/ABC234")
    hook(FakeRoom("playing", ["u-1"]), "start")
    assert presence.status("u-1").state == "online"
    assert social().invites.of("u-2") == []
    presence.close(page)


def test_leaving_a_waiting_room_ends_the_seat(app: Lapau) -> None:
    hook = app.services.social.room_changed
    presence = social().presence
    page = presence.open("u-1")
    hook(FakeRoom("waiting", ["u-1"]), "join")
    hook(FakeRoom("waiting", []), "leave")
    assert presence.status("u-1").state == "online"
    presence.close(page)
