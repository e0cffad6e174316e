"""Two dynos (tests/dynos.py: two gunicorn servers over one PostgreSQL and one Redis): a
friend signed in on one sees a person on the other come online and gets their invite,
and a room joined on both shows both people, here, to both."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator

import pytest

from tests.conftest import STILL_BOTS, LiveServer
from tests.dynos import two_dynos
from tests.postgres import Cluster
from tests.redis import RedisServer
from tests.rooms.client import Friend
from tests.social.member import Member
from tests.social.test_sockets import account_id, open_room

pytestmark = pytest.mark.live

names = (f"dyno{n}" for n in itertools.count())


@pytest.fixture(scope="module")
def dynos(
    tmp_path_factory: pytest.TempPathFactory, postgres: Cluster, redis_server: RedisServer
) -> Iterator[tuple[LiveServer, LiveServer]]:
    root = tmp_path_factory.mktemp("dynos")
    with two_dynos(root, postgres, redis_server, "two_servers", STILL_BOTS) as pair:
        yield pair


def test_a_friend_on_one_sees_a_person_on_the_other_and_gets_their_invite(
    dynos: tuple[LiveServer, LiveServer],
) -> None:
    a, b = dynos
    watcher, person = Member(a, next(names)), Member(b, next(names))
    watcher.ask(person.username)  # on A
    person.ask(watcher.username)  # on B: asking back accepts
    page = watcher.me_socket()
    assert "Offline" in page.receive_until('id="friends-live"')
    theirs = person.me_socket(watching=False)  # on B
    assert person.username in page.receive_until("is-online")

    invite = {"to": str(account_id(person, watcher)), "game": "koa", "link": open_room(person)}
    person.post("/en/friends/invite", invite, page="/en/friends")
    toast = page.receive_until("invites you")
    assert f"<b>{person.username}</b> invites you to a Koa match" in toast

    theirs.close()
    assert person.username in page.receive_until("is-offline")
    page.close()


def test_a_room_joined_on_both_shows_both_people_to_both(
    dynos: tuple[LiveServer, LiveServer],
) -> None:
    a, b = dynos
    host, guest = Friend(b), Friend(a)
    code = host.create_room("koa", name="Rina")  # on B
    hosts = host.room(code)  # the room as it opens, the host's own seat as "You"
    guest.join_room(code, name="Budi")  # on A
    guests = guest.room(code)
    # Each sees the other seated and here (a socket open on the room, on either dyno).
    for socket, other in ((hosts, "Budi"), (guests, "Rina")):
        here = re.compile(rf'class="dot here"[^<]*</i>{other}')
        while not any(here.search(message) for message in socket.received):
            socket.receive_until(other)  # an earlier render: seated, not yet here
    hosts.close()
    guests.close()
