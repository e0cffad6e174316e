"""The open sockets of signed-in people, by account and sign-in, so that ending a sign-in
closes them.

Every socket (a table's, a room's, a player's page socket ``/ws/me``) is checked once, at
its handshake, like any request: Flask-Login loads the account only while its sign-in is
alive.  After that the socket stays open for hours, so every socket opened by a signed-in
browser is held here under its account and sign-in key; signing out closes that
sign-in's sockets, signing out everywhere, a new password and deleting the account close
all of the account's.  A closed socket sends nothing more (simple-websocket refuses a
send after the close; tests/auth/test_socket_sign_out.py checks every kind of socket on
every way a sign-in ends), so no socket checks its sign-in again.  Each process holds its
own sockets; an ending is published on the account's channel (``account:<id>``,
webapp/channels.py), so every process closes its own.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Protocol

from flask import Flask, session
from sqlmodel import Session

from webapp.auth.models import SignIn
from webapp.channels import Channels
from webapp.db import engine
from webapp.services import services

#: The close code of a socket whose sign-in ended: a normal closure, which the htmx
#: extension does not reconnect (it would only be refused).
SIGNED_OUT = 1000


class Closable(Protocol):
    def close(self, reason: int = 1000, message: str | None = None) -> None: ...


@dataclass(eq=False)
class Held:
    """One socket of one sign-in."""

    user_id: int
    key: str
    connection: Closable


def signed_in_as() -> tuple[int, str] | None:
    """This request's account id and sign-in key, read from the id Flask-Login keeps
    (``<user id>.<token>.<key>``, see webapp/auth/accounts.py); None for a guest.

    Called after Flask-Login has loaded the user, so the sign-in is known to be alive.
    """
    parts = str(session.get("_user_id", "")).split(".")
    if len(parts) != 3 or not parts[0].isdigit() or not parts[2]:
        return None
    return int(parts[0]), parts[2]


def sign_in_alive(user_id: int, key: str) -> bool:
    with Session(engine()) as db:
        found = db.get(SignIn, key)
        return found is not None and found.user_id == user_id


class AccountSockets:
    """Every open socket of a signed-in browser in this process."""

    def __init__(self, channels: Channels) -> None:
        self.lock = threading.Lock()
        self.held: dict[int, set[Held]] = {}
        self.channels = channels
        channels.listen("account", self.ended)

    @contextmanager
    def hold(self, user_id: int, key: str, connection: Closable) -> Iterator[Held]:
        held = Held(user_id, key, connection)
        with self.lock:
            self.held.setdefault(user_id, set()).add(held)
        try:
            yield held
        finally:
            with self.lock:
                mine = self.held.get(user_id, set())
                mine.discard(held)
                if not mine:
                    self.held.pop(user_id, None)

    def end(self, user_id: int, key: str | None = None) -> None:
        """Close the sockets of one sign-in (``key``) or of every sign-in of the account,
        on every process."""
        self.channels.publish(f"account:{user_id}", {"key": key})

    def ended(self, topic: str, message: object) -> None:
        """The account's channel: a sign-in ended, somewhere."""
        user_id = topic.partition(":")[2]
        key = message.get("key") if isinstance(message, dict) else None
        if user_id.isascii() and user_id.isdigit():
            self.close(int(user_id), key if isinstance(key, str) else None)

    def close(self, user_id: int, key: str | None = None) -> int:
        """Close this process's sockets of one sign-in (``key``) or of every sign-in of
        the account; how many were open."""
        with self.lock:
            found = [h for h in self.held.get(user_id, set()) if key is None or h.key == key]
        for held in found:
            try:
                held.connection.close(SIGNED_OUT, "signed out")
            except Exception:  # noqa: BLE001 - closing what is already gone
                pass
        return len(found)


def account_sockets(app: Flask | None = None) -> AccountSockets:
    return services(app).signed_in


@contextmanager
def held_socket(connection: Closable) -> Iterator[None]:
    """Hold this request's socket under its sign-in while the block runs (a guest's
    socket is not held)."""
    me = signed_in_as()
    if me is None:
        yield
        return
    with account_sockets().hold(me[0], me[1], connection):
        # The sign-in may have ended between the handshake's check and now.
        if not sign_in_alive(*me):
            connection.close(SIGNED_OUT, "signed out")
        yield
