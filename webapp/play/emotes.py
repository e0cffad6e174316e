"""Reactions at live tables: a few preset words a seated player sends to everyone watching.

A reaction is a seat and a preset's id, nothing else: never free text, never stored, never
a move.  It is shown for a few seconds beside the sender's seat, in each reader's own
language, to every socket of the table whose reader has not hidden reactions (the display
setting), on every process (through the table's reaction channel).  It never renders the
table: one short element per language, sent as is, so a reaction costs the table's lock a
loop over its sockets.  A seat may send
:data:`PER_MINUTE` in any minute; the next is refused with a notice for the sender only.
"""

from __future__ import annotations

import time
import weakref
from collections import deque
from collections.abc import Callable

from flask_babel import force_locale
from flask_babel import lazy_gettext as _l
from markupsafe import Markup

from webapp.channels import Subscriber
from webapp.play.hub import Hub, Refusal, TableSession

#: The presets, by the id a message carries.
PRESETS = {
    "well-played": _l("Well played!"),
    "thanks": _l("Thanks!"),
    "oops": _l("Oops!"),
    "hurry": _l("Come on, your turn!"),
    "good-game": _l("Good game!"),
}
#: Reactions one seat may send in any :data:`WINDOW` seconds.
PER_MINUTE = 10
WINDOW = 60.0
#: The refusal code of one reaction too many (its words are in play/words.py).
TOO_MANY = "reactions-paced"


class Pace:
    """When each seat of one table last reacted, at most :data:`PER_MINUTE` a minute.

    >>> now = [0.0]
    >>> pace = Pace(clock=lambda: now[0])
    >>> [pace.admits(0) for _ in range(11)].count(True), pace.admits(1)
    (10, True)
    >>> now[0] = 60.0
    >>> pace.admits(0)
    True
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.sent: dict[int, deque[float]] = {}

    def admits(self, seat: int) -> bool:
        now = self.clock()
        recent = self.sent.setdefault(seat, deque(maxlen=PER_MINUTE))
        if len(recent) == PER_MINUTE and now - recent[0] < WINDOW:
            return False
        recent.append(now)
        return True


#: Each live table's pace, for as long as the table is in memory.
PACES: weakref.WeakKeyDictionary[TableSession, Pace] = weakref.WeakKeyDictionary()


def element(seat: int, preset: str, language: str) -> str:
    """The reaction as the table page swaps it in beside ``seat``, in ``language``."""
    with force_locale(language):
        words = str(PRESETS[preset])
    # Into the seat's live region (it stays, so screen readers announce the words), as a
    # new element each time (so its brief showing starts again: webapp/static/css/table.css).
    swapped = Markup('<p id="emote-{}" hx-swap-oob="innerHTML"><span>{}</span></p>')
    return swapped.format(seat, words)


def react(session: TableSession, seat: int, preset: str) -> None:
    """Show ``seat``'s reaction to every reader of the table who has not hidden them, on
    every process (its channel: ``reaction:<table id>``); raises :class:`Refusal` (and
    sends nothing) for one too many or an unknown preset."""
    if preset not in PRESETS:
        raise Refusal("malformed")
    with session.lock:
        if not PACES.setdefault(session, Pace()).admits(seat):
            raise Refusal(TOO_MANY)
    session.hub.channels.publish(topic(session.id), {"seat": seat, "preset": preset})


def topic(table_id: str) -> str:
    """The channel a table's reactions are published on (its sockets are on the table's)."""
    return f"reaction:{table_id}"


def listen(hub: Hub) -> None:
    """Show the reactions published for a table to its sockets in this process."""

    def published(channel: str, message: object) -> None:
        if not isinstance(message, dict):
            return
        seat, preset = message.get("seat"), message.get("preset")
        if not isinstance(seat, int) or preset not in PRESETS:
            return
        with hub.lock:
            session = hub.sessions.get(channel.partition(":")[2])
        if session is not None:  # no table here, no socket of it here
            show(session, seat, preset)

    hub.channels.listen("reaction", published)


def show(session: TableSession, seat: int, preset: str) -> None:
    """Send the reaction to this process's sockets of the table, in each one's language."""
    shown: dict[str, str] = {}

    def message_for(listener: Subscriber) -> str | None:
        if not listener.reactions:
            return None
        if listener.language not in shown:
            shown[listener.language] = element(seat, preset, listener.language)
        return shown[listener.language]

    session.send_aside(message_for)
