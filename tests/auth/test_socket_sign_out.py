"""Ending a sign-in closes its sockets, against the real server (gunicorn + gevent): a
table's, a room's and the page's own ``/ws/me``, on sign-out, on signing out everywhere,
on a new password (every other browser) and when the account is deleted."""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterator

import pytest
import websocket

from tests.conftest import STILL_BOTS, LiveServer
from tests.rooms.client import Friend

pytestmark = pytest.mark.live
PASSWORD = "tea at the lapau"
names = (f"leaver{n}" for n in itertools.count())


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    instance = tmp_path_factory.mktemp("signout") / "instance"
    with LiveServer(instance, {**STILL_BOTS, "LAPAU_PROXIES": "1"}) as live:
        yield live


opened: list[websocket.WebSocket] = []


@pytest.fixture(autouse=True)
def close_sockets() -> Iterator[None]:
    yield
    while opened:
        opened.pop().shutdown()  # closes the TCP socket even after the server's close


class Browser(Friend):
    """One browser of one account, with its sockets."""

    def sign_up(self, username: str) -> Browser:
        self.post("/en/sign-up", username=username, password=PASSWORD)
        return self

    def sign_in(self, username: str) -> Browser:
        self.post("/en/sign-in", username=username, password=PASSWORD)
        return self

    def sockets(self) -> list[websocket.WebSocket]:
        """A table's, a room's and the page's own socket, each past its first message."""
        table = self.connect(self.open_table("koa", mode="quick")).ws
        room = self.room(self.create_room()).ws
        me = websocket.create_connection(
            f"ws://127.0.0.1:{self.server.port}/ws/me?lang=en",
            origin=self.server.url,
            cookie=self.cookie_header(),
            timeout=10,
        )
        me.recv()
        opened.extend([table, room, me])
        return [table, room, me]


def closed(ws: websocket.WebSocket, within: float = 3.0) -> bool:
    """Whether the server closes ``ws`` within ``within`` seconds (messages are skipped)."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        ws.settimeout(max(0.05, deadline - time.monotonic()))
        try:
            opcode, _data = ws.recv_data(control_frame=True)
        except websocket.WebSocketTimeoutException:
            return False
        except (websocket.WebSocketConnectionClosedException, ConnectionError):
            return True
        if opcode == websocket.ABNF.OPCODE_CLOSE:
            return True
    return False


def test_signing_out_closes_that_browsers_sockets_only(server: LiveServer) -> None:
    name = next(names)
    laptop = Browser(server).sign_up(name)
    phone = Browser(server).sign_in(name)
    on_laptop, on_phone = laptop.sockets(), phone.sockets()
    laptop.post("/en/sign-out", page="/en/account")
    assert [closed(ws) for ws in on_laptop] == [True, True, True]
    assert [closed(ws, within=0.5) for ws in on_phone] == [False, False, False]


@pytest.mark.parametrize(
    ("path", "form"),
    [
        ("/en/account/sign-out-everywhere", {}),
        ("/en/account/password", {"current": PASSWORD, "password": "a new passphrase"}),
        ("/en/account/delete", {"confirm": "{name}"}),
    ],
    ids=["everywhere", "new-password", "deleted"],
)
def test_ending_the_account_elsewhere_closes_every_socket(
    server: LiveServer, path: str, form: dict[str, str]
) -> None:
    name = next(names)
    laptop = Browser(server).sign_up(name)
    phone = Browser(server).sign_in(name)
    on_phone = phone.sockets()
    laptop.post(path, page="/en/account", **{k: v.format(name=name) for k, v in form.items()})
    assert [closed(ws) for ws in on_phone] == [True, True, True]
