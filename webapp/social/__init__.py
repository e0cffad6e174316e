"""Friends and presence: friend requests between accounts, who is online or in a game,
live to their friends, and invites to a waiting room that reach a friend on any page.

``create_app`` makes its :class:`Social` a listener of finished tables and changed rooms.
Rooms call :func:`invite` and :func:`expire_invites`; presence follows the sockets on the
tables' channels (webapp/channels.py), whose events ``create_app`` gives it.
"""

from __future__ import annotations

from flask import Flask

from webapp.play.players import signed_in_player
from webapp.social import friends, routes, sockets
from webapp.social.invites import Invite, link_key
from webapp.social.live import (
    Social,
    expire_invites,
    invite,
    social,
    status_of,
    statuses_of,
)
from webapp.social.presence import Place

__all__ = [
    "Invite",
    "Place",
    "Social",
    "expire_invites",
    "init_app",
    "invite",
    "social",
    "status_of",
]

#: Pages that load htmx themselves; the signed-in page socket must not load it twice.
HTMX_PAGES = {"play.table", "rooms.room"}


def my_invites() -> list[Invite]:
    player = signed_in_player()
    return social().invites.of(player) if player else []


def waiting_requests() -> int:
    player = signed_in_player()
    account = friends.player_account(player) if player else None
    return friends.waiting_count(account) if account is not None else 0


def online_friends() -> list[friends.Person]:
    """The signed-in player's friends who are on the site now, in a game first."""
    player = signed_in_player()
    account = friends.player_account(player) if player else None
    if account is None:
        return []
    people = friends.people(sorted(friends.friend_ids(account)))
    statuses_of(people)
    return by_status([p for p in people if status_of(p).state != "offline"])


def invited_to(friend: friends.Person, link: str) -> bool:
    """Whether the signed-in player has a live invite out to ``friend`` for ``link``."""
    player = signed_in_player()
    key = link_key(link)
    return any(
        invite.sender == player and invite.key == key
        for invite in social().invites.of(friend.player)
    )


def by_status(people: list[friends.Person]) -> list[friends.Person]:
    """Friends in a game first, then online, then offline; by name within each."""
    order = {"playing": 0, "online": 1, "offline": 2}
    known = statuses_of(people)
    return sorted(people, key=lambda p: (order[known[p.player].state], p.username))


def init_app(app: Flask) -> None:
    app.register_blueprint(routes.bp)
    app.before_request(sockets.check_handshake)
