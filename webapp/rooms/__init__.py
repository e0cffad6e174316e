"""Play with friends: rooms with a six-character code, a waiting room, a live table.

For other parts of the site (friends and presence, webapp/social/):

- :func:`invite_link` gives the URL that opens a room (to send to a friend);
- :func:`on_change` lists callbacks ``hook(room, event)`` run after every change to a
  room's people or state: ``event`` is ``"create"``, ``"join"``, ``"sit"``, ``"ready"``,
  ``"unready"``, ``"leave"``, ``"kick"``, ``"option"``, ``"level"``, ``"bot"``,
  ``"fill"``, ``"unbot"``, ``"rename"``, ``"transfer"`` (a guest signed in),
  ``"start"`` or ``"finish"``; ``room.humans()``
  are the player ids seated, ``room.host`` the host, ``room.status`` one of ``waiting``,
  ``playing``, ``finished``, ``abandoned``, and ``room.table_id`` the live table once
  started.
"""

from __future__ import annotations

from flask import Flask, current_app, url_for

from webapp.rooms import logic, models, routes, sockets, words  # noqa: F401 - sockets adds its route
from webapp.rooms.live import Hook, Rooms
from webapp.rooms.logic import Room

__all__ = ["Hook", "Room", "init_app", "invite_link", "models", "on_change"]


def invite_link(code: str, lang: str | None = None) -> str:
    """The full URL of a room's page, in ``lang`` (else the current page's language).

    Needs an app (and, without ``lang``, a request) context.
    """
    values = {"lang_code": lang} if lang else {}
    return url_for("rooms.room", code=code, _external=True, **values)


def on_change() -> list[Hook]:
    """The current app's list of room hooks: append yours in your ``init_app``."""
    found: Rooms = current_app.extensions["lapau.rooms"]
    return found.on_change


def init_app(app: Flask) -> None:
    """Register after webapp.play (it needs the hub) and before webapp.auth (whose
    security module puts rate limits on the create and join forms)."""
    rooms = Rooms(app, app.extensions["lapau.db"], app.extensions["lapau.hub"])
    app.extensions["lapau.rooms"] = rooms
    app.register_blueprint(routes.bp)
    app.jinja_env.globals.update(
        room_code_length=logic.CODE_LENGTH,
        room_words=words,
        room_of_table=rooms.room_of_table,
    )
