"""The socket-test browser of tests/play/client.py, taught to open and join rooms."""

from __future__ import annotations

import urllib.parse
from typing import Any

import websocket

from tests.play.client import Guest, Socket, csrf_token


class Friend(Guest):
    """One browser (its own cookies, so its own guest id) that plays with friends.

    Each comes from its own address (``X-Forwarded-For``, trusted by a server started
    with ``LAPAU_PROXIES=1``), so the rate limits count every friend apart.
    """

    count = 0

    def __init__(self, server: Any) -> None:
        super().__init__(server)
        Friend.count += 1
        self.address = (
            f"10.{Friend.count // 65536 % 256}.{Friend.count // 256 % 256}.{Friend.count % 256}"
        )
        self.opener.addheaders = [("X-Forwarded-For", self.address)]

    def post(self, path: str, **form: str) -> str:
        """Post a form of ``path``'s page with its CSRF token; the URL it ends on."""
        token = csrf_token(self.page(form.pop("page", path)))
        data = urllib.parse.urlencode({"csrf_token": token, **form}).encode()
        with self.open(path, data) as response:
            return str(response.url)

    def create_room(self, game: str = "koa", name: str = "Rina") -> str:
        url = self.post("/en/room/new", page="/en/room/", game=game, name=name)
        return url.rsplit("/", 1)[1]

    def join_room(self, code: str, name: str = "Budi") -> str:
        return self.post("/en/room/join", page="/en/room/", code=code, name=name)

    def room(self, code: str, lang: str = "en") -> RoomSocket:
        ws = websocket.create_connection(
            f"ws://127.0.0.1:{self.server.port}/ws/room/{code}?lang={lang}",
            origin=self.server.url,
            cookie=self.cookie_header(),
            header=self.socket_headers(),
            timeout=10,
        )
        return RoomSocket(ws)


class RoomSocket(Socket):
    """One open room socket and what it has received."""

    def act(self, action: str) -> None:
        self.send({"a": action, "HEADERS": {"HX-Request": "true"}})
