"""Who is online, and where: a registry of this process's open sockets per player, and
the statuses of every process merged.

A player is *online* while at least one socket of theirs is open (the per-page socket
``/ws/me`` or a table's), and *playing* while one of those sockets sits at a running table
or in a waiting room (a :class:`Place`).  :class:`Presence` keeps this process's sockets;
every change of a player's :class:`Status` here is emitted as ``on_status``
(webapp/social/live.py states it for the other processes, webapp/facts.py, and pushes it
to their friends); a socket that opens or closes without changing the status tells
nobody.  A player's sockets may be on several processes: :func:`merged` makes one status
of each process's (:func:`encoded`).
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from webapp.channels import Place as Place  # part of a Status
from webapp.events import Event

State = Literal["online", "playing", "offline"]


@dataclass(frozen=True)
class Status:
    state: State
    place: Place | None = None


OFFLINE = Status("offline")
_order = itertools.count()


def encoded(status: Status, since: float) -> dict[str, Any]:
    """One process's status of a player as JSON carries it, with when it began."""
    place = asdict(status.place) if status.place is not None else None
    return {"state": status.state, "place": place, "since": since}


def merged(statuses: Iterable[object]) -> Status:
    """A player's status from every process's (:func:`encoded`): playing where they went
    last, else online anywhere, else offline.

    >>> room = Place("room", "room:ABC", "koa", "/room/ABC")
    >>> merged([encoded(Status("online"), 5), encoded(Status("playing", room), 3)]).place.key
    'room:ABC'
    >>> merged([encoded(Status("online"), 5)]), merged([])
    (Status(state='online', place=None), Status(state='offline', place=None))
    """
    found = [status for status in statuses if isinstance(status, dict)]
    playing = [status for status in found if status.get("place")]
    if playing:
        last = max(playing, key=lambda status: status["since"])
        return Status("playing", Place(**last["place"]))
    return Status("online") if found else OFFLINE


@dataclass(eq=False)
class Socket:
    """One open socket of one player (on a table's channel or their own)."""

    player: str
    place: Place | None = None
    opened: int = field(default_factory=lambda: next(_order))


class Presence:
    """Every open socket of this process, by player."""

    def __init__(self) -> None:
        self.lock = threading.RLock()
        self.sockets: dict[str, list[Socket]] = {}
        #: A player's status changed (to their friends' pages, webapp/social/live.py).
        self.on_status = Event[[str, Status]]("status changed")
        #: Places a player holds without a socket there: a seat in a waiting room.
        self.seated: dict[str, Place] = {}

    def status(self, player: str) -> Status:
        with self.lock:
            sockets = self.sockets.get(player, [])
            if not sockets:
                return OFFLINE
            placed = [socket for socket in sockets if socket.place is not None]
            if placed:
                # The place entered last is where they are now.
                return Status("playing", max(placed, key=lambda s: s.opened).place)
            seat = self.seated.get(player)
            return Status("playing", seat) if seat is not None else Status("online")

    def open(self, player: str, place: Place | None = None) -> Socket:
        socket = Socket(player, place)
        self._change([player], lambda: self.sockets.setdefault(player, []).append(socket))
        return socket

    def close(self, socket: Socket) -> None:
        def remove() -> None:
            sockets = self.sockets.get(socket.player, [])
            if socket in sockets:
                sockets.remove(socket)
            if not sockets:
                self.sockets.pop(socket.player, None)

        self._change([socket.player], remove)

    def seat(self, player: str, place: Place | None) -> None:
        """``player`` holds a seat at ``place`` (a waiting room), or none any more."""

        def apply() -> None:
            if place is None:
                self.seated.pop(player, None)
            else:
                self.seated[player] = place

        self._change([player], apply)

    def update(self, key: str, place: Place | None) -> None:
        """A place changed (a seat filled or freed) or ended (``None``)."""
        with self.lock:
            found = [
                socket
                for sockets in self.sockets.values()
                for socket in sockets
                if socket.place is not None and socket.place.key == key
            ]
            seated = [p for p, held in self.seated.items() if held.key == key]

        def apply() -> None:
            for socket in found:
                socket.place = place
            for player in seated:
                if place is None:
                    self.seated.pop(player, None)
                else:
                    self.seated[player] = place

        self._change(sorted({socket.player for socket in found} | set(seated)), apply)

    def _change(self, players: list[str], change: Callable[[], None]) -> None:
        with self.lock:
            before = {player: self.status(player) for player in players}
            change()
            changed = [(p, s) for p in players if (s := self.status(p)) != before[p]]
        for player, status in changed:
            self.on_status.emit(player, status)

    @contextmanager
    def present(self, player: str, place: Place | None = None) -> Iterator[Socket]:
        """Online (and at ``place``) for as long as the block runs."""
        socket = self.open(player, place)
        try:
            yield socket
        finally:
            self.close(socket)

    def players(self) -> list[str]:
        with self.lock:
            return list(self.sockets)
