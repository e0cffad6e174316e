"""Who is online, and where: an in-process registry of open sockets per player.

The site runs one gevent worker, so memory is the truth.  A player is *online* while at
least one socket of theirs is open (the per-page socket ``/ws/me`` or a table's), and
*playing* while one of those sockets sits at a running table or in a waiting room (a
:class:`Place`).  Every change of a player's :class:`Status` is emitted as ``on_status``
(webapp/social/live.py pushes it to their friends); a socket that opens or closes without
changing the status tells nobody.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Literal

from webapp.channels import Place as Place  # part of a Status
from webapp.events import Event

State = Literal["online", "playing", "offline"]


@dataclass(frozen=True)
class Status:
    state: State
    place: Place | None = None


OFFLINE = Status("offline")
_order = itertools.count()


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
