"""The room's WebSocket: parse, hand to :class:`~webapp.rooms.live.Rooms`, answer.

A browser opens ``/ws/room/<CODE>?lang=xx``.  The site's socket check (see
webapp/sockets.py) refuses a foreign Origin with 403 and sets the language; this
module refuses an unknown or expired room with 404.  Messages are the room's forms as
JSON: ``a``, the action (``"sit 2"``, ``"ready"``, ``"start"``...); the page's CSRF
token and htmx's headers may come along and mean nothing here.  Anything else gets a
clear, localized notice and changes nothing.  Pings, probes, the socket's log line and
its closing on SIGTERM are shared by every socket of the site (webapp/sockets.py).
"""

from __future__ import annotations

from typing import Any

from flask import abort, g, render_template, request

from webapp.auth.live import held_socket
from webapp.channels import Subscriber
from webapp.messages import Message, RoomAction, Unexpected
from webapp.play.players import known_player
from webapp.play.render import split_fragments
from webapp.rooms import logic
from webapp.rooms.live import Rooms
from webapp.rooms.logic import RoomRefusal
from webapp.rooms.routes import bp, count_miss
from webapp.services import services
from webapp.sockets import LiveSocket, serve_messages, sock, sockets


def notice(code: str) -> str:
    """The room's notice saying ``code``, as its socket sends it."""
    return split_fragments(render_template("rooms/_notice.html", code=code))["room-notice"]


def room_socket(ws: Any, code: str) -> None:
    rooms = services().rooms
    player = known_player()
    role = "visitor" if player is None else "player"
    room = rooms.get(code)
    seated = room is not None and room.seat_of(player) is not None
    # Logged without its code: the code is the key to the room.  Held under its sign-in:
    # signing out closes it (see webapp/auth/live.py).  Anyone not seated joins the
    # room's watchers, whose number is capped.
    live_socket = LiveSocket(
        ws,
        "room",
        None,
        g.lang_code,
        role=role,
        player=player,
        crowd=None if seated else f"room:{code}",
        notice=notice,
    )
    with sockets().session(live_socket) as live, held_socket(live):
        serve(rooms, code, live, Subscriber(live, language=g.lang_code, person=player))


def serve(rooms: Rooms, code: str, live: LiveSocket, watcher: Subscriber) -> None:
    player = watcher.person

    def handle(message: Message | Unexpected) -> str | None:
        if player is None:
            return "not-seated"
        if not isinstance(message, RoomAction):
            return "malformed"
        try:
            rooms.act(code, player, message.action)
        except RoomRefusal as refusal:
            return refusal.code
        return None

    try:  # a watch that fails half-way still leaves the channel
        rooms.watch(code, watcher)
        serve_messages(live, handle, lambda refusal: rooms.notify(code, watcher, refusal), "a room")
    finally:
        rooms.unwatch(code, watcher)


def check_room() -> None:
    """Refuse the handshake of a room that does not exist or whose code has expired."""
    if request.path.startswith("/ws/room/"):
        code = (request.view_args or {}).get("code", "")
        room = services().rooms.get(code) if logic.clean_code(code) == code else None
        if room is None or not room.is_open():
            count_miss()
            abort(404)


sock.route("/ws/room/<code>", bp=bp)(room_socket)
bp.before_app_request(check_room)
