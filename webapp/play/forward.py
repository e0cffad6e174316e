"""Requests to the process that owns a table, and its answers, through the broker.

A socket's move (or "More time", a hint, ending the table) that arrives at a process
that does not own the table (webapp/play/lease.py) is published on the table's request
topic, ``ask:<table id>``, with a request id and the asking process's name.  Only the
owner acts on it: it applies, stores and publishes as for its own sockets, then answers
on ``told:<process>`` with the refusal's code, or none.  The asker waits for that
answer a few seconds at most: without one (the owner just died) the mover is told to try
again, never left waiting.

A process also says, every few seconds, which seats it holds sockets for on the tables it
follows, so that their owners know those people are still there: all its tables in one
message on ``held:<process>``, which each owner reads for the tables it owns.  A message
a table made every process read as many messages again as moves made.
"""

from __future__ import annotations

import logging
import secrets
import threading
from collections.abc import Callable
from typing import Any

from webapp.channels import Channels

log = logging.getLogger(__name__)

#: Seconds a forwarded request waits for the owner's answer.
ANSWER_SECONDS = 3.0
#: The refusal of a request nobody answered in time.
NO_ANSWER = "try-again"
#: The answer to a request whose table this process took over while it waited: the
#: asker acts on it here.
MOVED = "moved-here"

#: Acts on a request for a table this process owns: the refusal's code, or None.
Handle = Callable[[str, dict[str, Any]], "str | None"]
#: Runs a function soon, off the broker's listener (the hub's scheduler at 0 s).
Spawn = Callable[[Callable[[], None]], object]
#: Hears another process's seats on tables owned here: its name, and the seats by table.
Heard = Callable[[str, dict[str, list[int]]], None]


class Forwarder:
    """This process's requests in flight, and its handling of the others' requests."""

    def __init__(
        self,
        channels: Channels,
        process: Callable[[], str],
        owns: Callable[[str], bool],
        handle: Handle,
        spawn: Spawn,
        heard: Heard,
    ) -> None:
        self.channels = channels
        self.process = process
        self.owns = owns
        self.handle = handle
        self.spawn = spawn
        self.heard = heard
        #: Each request in flight: its table, and where its answer goes.
        self.pending: dict[str, tuple[str, threading.Event, list[str | None]]] = {}
        channels.listen("ask", self.asked)
        channels.listen("told", self.told)
        channels.listen("held", self.held)

    def ask(self, table_id: str, request: dict[str, Any]) -> str | None:
        """Have the table's owner act on ``request``: its refusal's code, or None."""
        request_id = secrets.token_hex(8)
        done, answer = threading.Event(), list[str | None]()
        self.pending[request_id] = (table_id, done, answer)
        try:
            self.tell(table_id, {**request, "id": request_id})
            if not done.wait(ANSWER_SECONDS):
                log.warning("no answer from the owner of table %s", table_id)
                return NO_ANSWER
            return answer[0]
        finally:
            del self.pending[request_id]

    def tell(self, table_id: str, request: dict[str, Any]) -> None:
        """Send the owner a request that wants no answer."""
        self.channels.publish(f"ask:{table_id}", {**request, "from": self.process()})

    def tell_held(self, seats: dict[str, list[int]]) -> None:
        """Tell every owner at once the seats this process holds sockets for, by table."""
        self.channels.publish(f"held:{self.process()}", seats)

    def held(self, topic: str, message: object) -> None:
        sender = topic.partition(":")[2]
        if sender == self.process() or not isinstance(message, dict):
            return
        owned = {
            table_id: [seat for seat in seats if isinstance(seat, int)]
            for table_id, seats in message.items()
            if isinstance(seats, list) and self.owns(table_id)
        }
        if owned:
            self.spawn(lambda: self.heard(sender, owned))

    def asked(self, topic: str, message: object) -> None:
        table_id = topic.partition(":")[2]
        if isinstance(message, dict) and self.owns(table_id):
            # Off the listener: acting stores a move, and the listener serves every table.
            self.spawn(lambda: self._answer(table_id, message))

    def _answer(self, table_id: str, request: dict[str, Any]) -> None:
        try:
            code = self.handle(table_id, request)
        except Exception:
            log.exception("request %r for table %s failed", request, table_id)
            code = NO_ANSWER
        if "id" in request:
            answer = {"id": request["id"], "code": code}
            try:
                self.channels.publish(f"told:{request['from']}", answer)
            except Exception:  # a broker closed under it (a stopping server): asker times out
                log.exception("could not answer request %r", request)

    def told(self, topic: str, message: object) -> None:
        if topic.partition(":")[2] != self.process() or not isinstance(message, dict):
            return
        waiting = self.pending.get(str(message.get("id")))
        if waiting is not None:
            code = message.get("code")
            self._settle(waiting, code if isinstance(code, str) else None)

    def moved(self, table_id: str) -> None:
        """This process owns ``table_id`` now: its requests waiting for the last owner
        (gone) are answered :data:`MOVED` at once, instead of running out of time."""
        for waiting in list(self.pending.values()):
            if waiting[0] == table_id:
                self._settle(waiting, MOVED)

    @staticmethod
    def _settle(waiting: tuple[str, threading.Event, list[str | None]], code: str | None) -> None:
        _table_id, done, answer = waiting
        if not done.is_set():
            answer.append(code)
            done.set()
