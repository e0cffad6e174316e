"""Presence transitions: online with one socket, in a game at a place, offline with none;
only real changes are told."""

from __future__ import annotations

import pytest

from webapp.channels import Channels, Subscriber
from webapp.social.presence import OFFLINE, Place, Presence, Status
from webapp.social.sockets import Mailbox

TABLE = Place("table", "table:abc", "koa", "/en/table/abc")
ROOM = Place("room", "room:XYZ", "kowah", "/en/rooms/XYZ", joinable=True)
Registry = tuple[Presence, list[tuple[str, Status]]]


@pytest.fixture
def presence() -> Registry:
    found = Presence()
    told: list[tuple[str, Status]] = []
    found.on_status.append(lambda player, status: told.append((player, status)))
    return found, told


def test_online_while_any_socket_is_open(presence: Registry) -> None:
    registry, told = presence
    assert registry.status("u-1") == OFFLINE
    first = registry.open("u-1")
    second = registry.open("u-1")
    assert registry.status("u-1") == Status("online")
    registry.close(first)
    assert registry.status("u-1") == Status("online")
    registry.close(second)
    assert registry.status("u-1") == OFFLINE
    assert told == [("u-1", Status("online")), ("u-1", OFFLINE)]


def test_in_a_game_while_a_socket_sits_at_a_table(presence: Registry) -> None:
    registry, told = presence
    page = registry.open("u-1")
    with registry.present("u-1", TABLE):
        assert registry.status("u-1") == Status("playing", TABLE)
    assert registry.status("u-1") == Status("online")
    registry.close(page)
    assert [status.state for _, status in told] == ["online", "playing", "online", "offline"]


def test_a_table_socket_alone_is_online_and_in_a_game(presence: Registry) -> None:
    registry, told = presence
    with registry.present("u-2", TABLE):
        pass
    assert told == [("u-2", Status("playing", TABLE)), ("u-2", OFFLINE)]


def test_the_place_entered_last_wins(presence: Registry) -> None:
    registry, _ = presence
    table = registry.open("u-1", TABLE)
    room = registry.open("u-1", ROOM)
    assert registry.status("u-1").place == ROOM
    registry.close(room)
    assert registry.status("u-1").place == TABLE
    registry.close(table)


def test_a_finished_table_leaves_its_players_online(presence: Registry) -> None:
    registry, told = presence
    registry.open("u-1", TABLE)
    registry.open("u-2", TABLE)
    told.clear()
    registry.update(TABLE.key, None)
    assert registry.status("u-1") == registry.status("u-2") == Status("online")
    assert sorted(told) == [("u-1", Status("online")), ("u-2", Status("online"))]


def test_a_seat_in_a_waiting_room_shows_while_online_and_follows_the_room(
    presence: Registry,
) -> None:
    registry, told = presence
    registry.seat("u-1", ROOM)
    assert registry.status("u-1") == OFFLINE and told == []
    page = registry.open("u-1")
    assert registry.status("u-1") == Status("playing", ROOM)
    full = Place("room", ROOM.key, "kowah", ROOM.link, joinable=False)
    registry.update(ROOM.key, full)
    assert registry.status("u-1") == Status("playing", full)
    registry.seat("u-1", None)
    assert registry.status("u-1") == Status("online")
    registry.close(page)
    assert [status.state for _, status in told] == ["playing", "playing", "online", "offline"]


def test_a_name_told_to_a_player_reaches_the_pages_that_show_it() -> None:
    """Names go to every page on the player's channel; each page keeps what it shows (the
    list's rows only where the list is, the invite list only in a waiting room)."""
    channels = Channels()
    boxes = [Mailbox(), Mailbox(watching=True), Mailbox(offer="ABC234")]

    def deliver(topic: str, what: object) -> None:
        for subscriber in channels.subscribers(topic):
            channels.deliver(topic, subscriber, str(what))

    channels.listen("me", deliver)
    for box in boxes:
        channels.join("me:u-1", Subscriber(box, person="u-1"))
    channels.join("me:u-2", Subscriber(Mailbox(watching=True), person="u-2"))
    for name in ("row:2", "list", "offer", "badge"):
        channels.publish("me:u-1", name)
    assert [box.drain() for box in boxes] == [
        ["badge"],
        ["row:2", "list", "badge"],
        ["offer", "badge"],
    ]
