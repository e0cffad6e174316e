"""The words of rooms: refusal codes turned into sentences in the reader's language."""

from __future__ import annotations

from typing import Any

from flask_babel import lazy_gettext as _l

from webapp.flood import SLOW_DOWN
from webapp.sockets import REFUSALS as SOCKET_REFUSALS

REFUSALS: dict[str, Any] = {
    "bad-action": _l("That is not something you can do in a room."),
    "malformed": _l("That message could not be read. Please use the buttons in the room."),
    "try-again": _l("That did not go through. Please try again."),
    "slow-down": SLOW_DOWN,
    # A socket past a cap (webapp/sockets.py).
    **SOCKET_REFUSALS,
    "no-room": _l("This room has closed."),
    "room-started": _l("The match in this room has already started."),
    "room-full": _l("This room is full: every seat is taken."),
    "kicked": _l("The host removed you from this room."),
    "name-taken": _l(
        "That name is taken by a bot or a player, or reads like “You”. Please choose another."
    ),
    "room-locked": _l("The host has locked this room: no one new can join."),
    # An invite accepted too late: its friend watches instead.
    "invite-full": _l(
        "Every seat was taken before you came. You can watch the match here once it starts."
    ),
    "invite-locked": _l(
        "The host has locked this room since inviting you. "
        "You can watch the match here once it starts."
    ),
    "not-seated": _l("Take a seat in this room first."),
    "not-host": _l("Only the host can do that."),
    "seat-taken": _l("Someone is already sitting there."),
    "bad-seat": _l("There is no such seat here."),
    "bad-option": _l("That game setting is not available."),
    "too-many-players": _l("Too many people are seated for that choice."),
    "not-ready": _l("Every seat needs a player or a bot, and every player must be ready."),
}
DEFAULT = _l("That is not possible right now.")


def refusal(code: str) -> Any:
    return REFUSALS.get(code, DEFAULT)
