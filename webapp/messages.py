"""What a browser may send over any of the site's sockets, read by one closed parser.

Every message is an htmx ``ws-send`` form as JSON: its fields, plus htmx's ``HEADERS``
and, from a form tapped before the socket's first render, the page's CSRF token (for
posting without scripts; it means nothing here, where the Origin is checked).
:func:`parse` turns a frame into one of the :data:`Message` types or :class:`Unexpected`,
as lila-ws does: a socket handles the types its page sends and answers anything else as
unexpected, so a field or a value no page sends never reaches a table, a room or a list.

To add a message: a frozen dataclass below, a case in :func:`parse`, a line in
:data:`Message`; each socket then decides whether it takes it.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

#: A table message is a few dozen bytes; anything much longer is refused (close 1009).
MAX_MESSAGE = 4096
#: Fields a form may carry that mean nothing to the server.
IGNORED = frozenset({"HEADERS", "csrf_token"})
#: A JSON string, its escapes included: brackets inside one do not nest anything.  One
#: left open runs to the end, and nothing backtracks: the scan stays linear.
JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*+(?:"|\\?\Z)', re.DOTALL)
#: Arrays and objects a message may hold: htmx's is an object with one object inside.
MAX_CONTAINERS = 8


@dataclass(frozen=True)
class Move:
    """A table's form: an action's text and the version the page was rendered at."""

    action: str
    version: int


@dataclass(frozen=True)
class Reaction:
    """A table's reaction: one of the presets by its id (play/emotes.py; the table checks
    it is one).  Its form sends the page's version too, as every form of the table does;
    it means nothing."""

    preset: str


@dataclass(frozen=True)
class MoreTime:
    """A table's request for more time this turn: no move, so no version and no log."""


@dataclass(frozen=True)
class RoomAction:
    """A room's form: the action (``"sit 2"``, ``"ready"``, ``"start"``...)."""

    action: str


@dataclass(frozen=True)
class Dismiss:
    """A player's page dropping an invite's toast."""

    invite: str


@dataclass(frozen=True)
class Unexpected:
    """Anything else: not JSON, not an object, a field no page sends, a value out of range."""


Message = Move | Reaction | MoreTime | RoomAction | Dismiss
UNEXPECTED = Unexpected()


def too_nested(raw: str) -> bool:
    """Whether ``raw`` opens more arrays and objects than any real message does (a
    deeply nested one would exhaust json's recursion before it could be refused).

    >>> too_nested('{"a": "[[[[[[[[[", "HEADERS": {"HX-Request": "true"}}'), too_nested("[" * 9)
    (False, True)
    """
    outside_strings = JSON_STRING.sub("", raw)
    return outside_strings.count("[") + outside_strings.count("{") > MAX_CONTAINERS


def fields(raw: object) -> dict[str, Any] | None:
    """The JSON object of a frame, without the fields that mean nothing, or None."""
    if not isinstance(raw, str) or len(raw) > MAX_MESSAGE or too_nested(raw):
        return None
    try:
        message = json.loads(raw)
    except ValueError:
        return None
    if not isinstance(message, dict):
        return None
    return {key: value for key, value in message.items() if key not in IGNORED}


def text(value: object, longest: int) -> str | None:
    return value if isinstance(value, str) and 0 < len(value) <= longest else None


def version(value: object) -> int | None:
    digits = str(value) if isinstance(value, str | int) else ""
    # Only ASCII digits: str.isdigit() also passes '²', which int() refuses.
    return int(digits) if digits.isascii() and digits.isdigit() else None


def parse(raw: object) -> Message | Unexpected:
    """The message a frame holds, or :data:`UNEXPECTED`.

    >>> parse('{"a": "stop", "v": "12", "HEADERS": {}}')
    Move(action='stop', version=12)
    >>> parse('{"e": "thanks", "v": "12"}')
    Reaction(preset='thanks')
    >>> parse('{"ask": "more-time", "v": "12"}')
    MoreTime()
    >>> parse('{"a": "sit 2", "HEADERS": {}, "csrf_token": "x"}')
    RoomAction(action='sit 2')
    >>> parse('{"dismiss": "abc", "HEADERS": {}, "csrf_token": "x"}')
    Dismiss(invite='abc')
    >>> parse('{"a": "stop", "seat": 2}'), parse('{"dismiss": 3}'), parse("[" * 2000)
    (Unexpected(), Unexpected(), Unexpected())
    """
    found = fields(raw)
    match found:
        case {"a": action, "v": number, **rest} if not rest:
            move, at = text(action, 64), version(number)
            return Move(move, at) if move is not None and at is not None else UNEXPECTED
        case {"e": preset, **rest} if set(rest) <= {"v"}:
            reaction = text(preset, 32)
            return Reaction(reaction) if reaction is not None else UNEXPECTED
        case {"ask": "more-time", **rest} if set(rest) <= {"v"}:
            # The closed set of requests has one member ("ask" in a table's form).
            return MoreTime()
        case {"a": action, **rest} if not rest:
            act = text(action, 32)
            return RoomAction(act) if act is not None else UNEXPECTED
        case {"dismiss": invite, **rest} if not rest:
            dismissed = text(invite, 32)
            return Dismiss(dismissed) if dismissed is not None else UNEXPECTED
    return UNEXPECTED
