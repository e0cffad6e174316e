"""Play with friends: rooms with a six-character code, a waiting room, a live table.

For other parts of the site (friends and presence, webapp/social/):

- :func:`invite_link` gives the URL that opens a room (to send to a friend);
- ``Rooms.on_change`` (an event, webapp/events.py; ``create_app`` adds its listeners)
  is emitted as ``(room, event)`` after every change to a room's people or state:
  ``event`` is ``"create"``, ``"join"``, ``"sit"``, ``"ready"``, ``"unready"``,
  ``"leave"``, ``"kick"``, ``"option"``, ``"level"``, ``"bot"``, ``"fill"``,
  ``"unbot"``, ``"rename"``, ``"transfer"`` (a guest signed in), ``"start"`` or
  ``"finish"``; ``room.humans()`` are the player ids seated, ``room.host`` the host,
  ``room.status`` one of ``waiting``, ``playing``, ``finished``, ``abandoned``, and
  ``room.table_id`` the live table once started.
"""

from __future__ import annotations

from flask import Flask, url_for

from webapp.rooms import logic, models, routes, sockets, words  # noqa: F401 - sockets adds its route
from webapp.rooms.live import Rooms
from webapp.rooms.logic import Room

__all__ = ["Room", "Rooms", "init_app", "invite_link", "models"]


def invite_link(code: str, lang: str | None = None) -> str:
    """The full URL of a room's page, in ``lang`` (else the current page's language).

    Needs an app (and, without ``lang``, a request) context.
    """
    values = {"lang_code": lang} if lang else {}
    return url_for("rooms.room", code=code, _external=True, **values)


def init_app(app: Flask) -> None:
    app.register_blueprint(routes.bp)
