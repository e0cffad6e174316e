"""The site's typed holders: what ``create_app`` builds once per app, reached by type.

Every long-lived object the areas share (the static files, the database engine, the live
tables, the rooms, friends and presence, the open sockets, the rate limiter, the sign-in
providers)
is a field of one :class:`Services`, kept on the app itself (:class:`Lapau`, Flask with
that one attribute).  Code in a request, a socket or a command reads it with
:func:`services`; a test holding the app reads ``app.services``.  One typed object
rather than a holder per area: a field added here is checked by mypy everywhere it is
used, and the fields read as the list of what the site keeps in memory.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from flask import Flask, current_app

if TYPE_CHECKING:  # the areas import this module to find their holders
    from flask_limiter import Limiter
    from sqlalchemy import Engine

    from webapp.assets import Assets
    from webapp.auth.live import AccountSockets
    from webapp.auth.oidc import SignInProviders
    from webapp.play.hub import Hub
    from webapp.rooms.live import Rooms
    from webapp.social.live import Social
    from webapp.sockets import Sockets


@dataclass(frozen=True)
class Services:
    """What one app keeps in memory, built in ``create_app`` (which says in what order)."""

    #: The static files under their hashed names, compressed (webapp/assets.py).
    assets: Assets
    #: The SQLModel engine (webapp/db.py).
    database: Engine
    #: Every open WebSocket, for the shutdown and the log (webapp/sockets.py).
    sockets: Sockets
    #: The sockets of signed-in browsers, closed when their sign-in ends (auth/live.py).
    signed_in: AccountSockets
    #: Every live table (play/hub.py).
    hub: Hub
    #: Rooms' watchers and the one door to changing a room (rooms/live.py).
    rooms: Rooms
    #: Presence and invites (social/live.py).
    social: Social
    #: Rate limits on forms (webapp/rate_limits.py).
    limiter: Limiter
    #: Google and Apple, when configured (auth/oidc.py).
    providers: SignInProviders


class Lapau(Flask):
    """The Flask app of this site: Flask, plus its :class:`Services`."""

    services: Services


def services(app: Flask | None = None) -> Services:
    """The holders of ``app``, else of the current app (in a request, a socket or a
    command)."""
    found = current_app if app is None else app
    if not isinstance(found, Lapau):
        raise RuntimeError("not an app made by webapp.create_app")
    return found.services
