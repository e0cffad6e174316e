"""Every socket's handshake, fuzzed on the real server (gunicorn + gevent): headers a
browser would never send (no key, another version, odd compression offers) are refused
with a 4xx, a good one upgrades, and the server logs no traceback either way.

The test client cannot open a WebSocket (it has no socket to hand over), so these go to
the ``frozen`` server as raw HTTP, as a hostile client would write them.
"""

from __future__ import annotations

import base64
import socket
from collections.abc import Iterator, Mapping
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.conftest import LiveServer
from tests.hostile.conftest import EXAMPLES, fuzz
from tests.play.client import Guest
from tests.rooms.client import Friend
from tests.social.member import Member

pytestmark = pytest.mark.live

GOOD_KEY = base64.b64encode(b"sixteen byte key").decode()
#: Header values a client may put on one line (http.client refuses control characters).
printable = st.text(st.characters(min_codepoint=0x20, max_codepoint=0x7E), max_size=40)


def header(good: list[str], odd: list[str]) -> st.SearchStrategy[str | None]:
    """A header's value: a good one (half the time, so that most handshakes reach the
    socket's own door), an odd one, any line of text, or no header at all."""
    return st.one_of(st.sampled_from(good), st.one_of(st.sampled_from(odd), printable, st.none()))


HEADERS = st.fixed_dictionaries(
    {
        "Upgrade": header(["websocket"], ["WebSocket", "h2c", "websocket, h2c"]),
        "Connection": header(["Upgrade", "keep-alive, Upgrade"], ["close", "upgrade-ish"]),
        "Sec-WebSocket-Version": header(["13"], ["8", "13, 8", "0013", "-13"]),
        "Sec-WebSocket-Key": header(
            [GOOD_KEY], ["", "c2hvcnQ=", base64.b64encode(b"x" * 17).decode(), "!" * 24]
        ),
        "Sec-WebSocket-Extensions": header(
            ["permessage-deflate; client_max_window_bits"],
            [
                "permessage-deflate; client_max_window_bits=abc",
                "permessage-deflate; client_max_window_bits=99",
                "permessage-deflate; server_max_window_bits=7",
                "permessage-deflate; server_max_window_bits=",
                "permessage-deflate; client_max_window_bits=8",
                "permessage-deflate; server_no_context_takeover; x=1",
                "permessage-deflate,permessage-deflate",
            ],
        ),
        "Sec-WebSocket-Protocol": header(["chat"], ["", ",", "a, , b"]),
    }
)


def handshake(server: LiveServer, path: str, headers: Mapping[str, str | None], cookie: str) -> int:
    """The status the server answers a raw handshake with; after an upgrade, the socket's
    first message is read (or its close), as a browser would, then it is dropped."""
    lines = [f"GET {path} HTTP/1.1", f"Host: 127.0.0.1:{server.port}", f"Origin: {server.url}"]
    lines += [f"{name}: {value}" for name, value in headers.items() if value is not None]
    lines += [f"Cookie: {cookie}", "", ""]
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as conn:
        conn.sendall("\r\n".join(lines).encode())
        answer = b""
        while b"\r\n\r\n" not in answer:
            chunk = conn.recv(4096)
            if not chunk:
                break
            answer += chunk
        status = int(answer.split(b" ", 2)[1])
        if status == 101:
            conn.settimeout(2)
            try:
                conn.recv(4096)
            except TimeoutError:
                pass
        return status


class Doors:
    """A table, a room and a member's page: one real target for each kind of socket."""

    def __init__(self, server: LiveServer) -> None:
        guest = Guest(server)
        table_id = guest.open_table("koikoi", rounds="3")
        host = Friend(server)
        code = host.create_room()
        member = Member(server, "doorman")
        self.paths: dict[str, tuple[str, str]] = {
            "table": (f"/ws/table/{table_id}?lang=en", guest.cookie_header()),
            "room": (f"/ws/room/{code}?lang=en", host.cookie_header()),
            "me": ("/ws/me?lang=en&list=1", member.cookie_header()),
        }


@pytest.fixture(scope="module")
def doors(frozen: LiveServer) -> Iterator[Doors]:
    yield Doors(frozen)


def tracebacks(server: LiveServer) -> int:
    return server.log.read_text().count("Traceback")


@fuzz(EXAMPLES * 2)
@given(kind=st.sampled_from(["table", "room", "me"]), headers=HEADERS)
def test_any_handshake_is_upgraded_or_refused_without_an_error(
    frozen: LiveServer, doors: Doors, kind: str, headers: dict[str, Any]
) -> None:
    before = tracebacks(frozen)
    path, cookie = doors.paths[kind]
    status = handshake(frozen, path, headers, cookie)
    assert status == 101 or 400 <= status < 500, (status, headers)
    assert tracebacks(frozen) == before, frozen.log_tail()


@pytest.mark.parametrize(
    "headers",
    [
        {"Upgrade": "websocket", "Connection": "Upgrade"},
        {"Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Version": "13"},
        {
            "Upgrade": "websocket",
            "Connection": "Upgrade",
            "Sec-WebSocket-Version": "13",
            "Sec-WebSocket-Key": GOOD_KEY,
            "Sec-WebSocket-Extensions": "permessage-deflate; client_max_window_bits=abc",
        },
    ],
)
@pytest.mark.parametrize("kind", ["table", "room", "me"])
def test_a_handshake_a_browser_would_not_send_is_a_bad_request(
    frozen: LiveServer, doors: Doors, kind: str, headers: dict[str, str | None]
) -> None:
    before = tracebacks(frozen)
    path, cookie = doors.paths[kind]
    assert handshake(frozen, path, headers, cookie) == 400
    assert tracebacks(frozen) == before, frozen.log_tail()


@pytest.mark.parametrize("kind", ["table", "room", "me"])
def test_a_browsers_handshake_is_upgraded(frozen: LiveServer, doors: Doors, kind: str) -> None:
    path, cookie = doors.paths[kind]
    headers = {
        "Upgrade": "websocket",
        "Connection": "Upgrade",
        "Sec-WebSocket-Version": "13",
        "Sec-WebSocket-Key": GOOD_KEY,
        "Sec-WebSocket-Extensions": "permessage-deflate; client_max_window_bits",
    }
    assert handshake(frozen, path, headers, cookie) == 101
