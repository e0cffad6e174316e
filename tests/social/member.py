"""A signed-in browser stand-in for the social socket tests (built on tests/play/client.py)."""

from __future__ import annotations

import itertools
import time
from typing import Any

import websocket

from tests.play.client import Guest, close_socket

PASSWORD = "tea at the lapau"
_addresses = itertools.count(1)


class Member(Guest):
    """One browser with an account: forms with their CSRF token, the page's own socket."""

    def __init__(self, server: Any, username: str) -> None:
        super().__init__(server)
        self.username = username
        # Each member comes from an address of their own (the server trusts one proxy),
        # as people do: sign-up is rate-limited per address.
        n = next(_addresses)
        self.opener.addheaders = [("X-Forwarded-For", f"10.9.{n // 250}.{n % 250 + 1}")]
        self.post("/en/sign-up", {"username": username, "password": PASSWORD})

    def post(self, path: str, form: dict[str, str], page: str | None = None) -> str:
        return self.post_form(path, page, **form)

    def ask(self, username: str) -> str:
        return self.post("/en/friends/ask", {"username": username}, page="/en/friends")

    def answer(self, other_id: int, action: str) -> str:
        return self.post(f"/en/friends/{other_id}/{action}", {}, page="/en/friends")

    def me_socket(self, watching: bool = True) -> Live:
        query = "lang=en&list=1" if watching else "lang=en"
        ws = websocket.create_connection(
            f"ws://127.0.0.1:{self.server.port}/ws/me?{query}",
            origin=self.server.url,
            cookie=self.cookie_header(),
            header=self.socket_headers(),
            timeout=10,
        )
        return Live(ws)


class Live:
    """One open ``/ws/me`` socket and what it has received."""

    def __init__(self, ws: websocket.WebSocket) -> None:
        self.ws = ws
        self.received: list[str] = []

    def receive_until(self, text: str, timeout: float = 10) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self.ws.settimeout(max(0.1, deadline - time.monotonic()))
            try:
                message = str(self.ws.recv())
            except websocket.WebSocketTimeoutException:
                break
            self.received.append(message)
            if text in message:
                return message
        raise AssertionError(f"never received {text!r}; got {self.received!r}")

    def send(self, data: str) -> None:
        self.ws.send(data)

    def close(self) -> None:
        close_socket(self.ws)
