"""Slow and greedy clients against the real server (gunicorn + gevent, as the Procfile
runs it): one address cannot take every connection, and a body or a head that crawls is
cut off, while a bystander from another address is answered as fast as ever.

Before: the worker's 2,000 connections were there for the taking, and a request whose
body never came held its connection forever.  2,100 slow bodies from one address left a
bystander from another address with no answer within 20 s; 2,100 heads crawling in held
the bystander until gunicorn dropped them.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import STILL_BOTS, LiveServer
from tests.hostile.test_big_bodies import answer
from tests.hostile.test_floods import worker_cpu

pytestmark = pytest.mark.live

#: The worker's connections (the Procfile's ``--worker-connections``), and a few more.
POOL = 2000
ATTACKERS = POOL + 100
#: The cap on one address (webapp/edge.py).
CAP = 200
ATTACKER, BYSTANDER = "127.0.0.1", "127.0.0.2"
BUSY = {
    "id": "Terlalu banyak koneksi sekaligus",
    "en": "Too many connections at once",
    "nl": "Te veel verbindingen tegelijk",
}
SLOW = {
    "id": "Kirimanmu terlalu lama sampai",
    "en": "That took too long to arrive",
    "nl": "Dat deed er te lang over",
}


def connect(server: LiveServer, source: str = ATTACKER, timeout: float = 10) -> socket.socket:
    return socket.create_connection(
        ("127.0.0.1", server.port), timeout=timeout, source_address=(source, 0)
    )


def slow_body(server: LiveServer, lang: str = "en", forwarded: str | None = None) -> bytes:
    """A sign-in post whose head is whole and whose body has barely begun."""
    head = (
        f"POST /{lang}/sign-in HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
        "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n"
    )
    if forwarded:
        head += f"X-Forwarded-For: {forwarded}\r\n"
    return (head + "\r\n").encode() + b"username=r"


def heading(received: bytes) -> str:
    found = re.search(rb"<h1>(.*?)</h1>", received)
    assert found is not None, received[:300]
    return found.group(1).decode()


def bystander(server: LiveServer, forwarded: str | None = None, timeout: float = 20) -> float:
    """Seconds until a page comes, for someone at another address."""
    started = time.perf_counter()
    with connect(server, BYSTANDER, timeout) as sock:
        head = f"GET /en/rules HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nConnection: close\r\n"
        if forwarded:
            head += f"X-Forwarded-For: {forwarded}\r\n"
        sock.sendall(f"{head}\r\n".encode())
        received = answer(sock)
    assert received.startswith(b"HTTP/1.1 200"), received[:200]
    return time.perf_counter() - started


def closed(sock: socket.socket, within: float = 5) -> bool:
    """Whether the server closes ``sock`` (after what it already sent) within seconds."""
    sock.settimeout(within)
    try:
        while sock.recv(65536):
            pass
    except TimeoutError:
        return False
    except ConnectionResetError:
        pass
    return True


@pytest.fixture
def crowd() -> Iterator[list[socket.socket]]:
    """The attacker's connections, closed after the test."""
    held: list[socket.socket] = []
    yield held
    for sock in held:
        sock.close()


def settled(sock: socket.socket, within: float = 10) -> None:
    """Wait until the server has dealt with ``sock`` (answered or closed it), for at most
    ``within`` seconds: a burst of connections is then taken in."""
    sock.settimeout(within)
    try:
        sock.recv(1, socket.MSG_PEEK)
    except (TimeoutError, ConnectionResetError):
        pass


def still_held(socks: list[socket.socket]) -> int:
    """How many of ``socks`` the server holds open without having answered."""
    held = 0
    for sock in socks:
        sock.setblocking(False)
        try:
            sock.recv(1, socket.MSG_PEEK)
        except BlockingIOError:
            held += 1
        except ConnectionResetError:
            pass
    return held


def test_one_address_cannot_hold_every_connection(
    live_server: LiveServer, crowd: list[socket.socket]
) -> None:
    baseline = min(bystander(live_server) for _ in range(5))
    cpu = worker_cpu(live_server)
    for n in range(ATTACKERS):
        sock = connect(live_server)
        # Forged: no proxy is trusted here, so the connection's own address counts.
        sock.sendall(slow_body(live_server, forwarded=f"198.51.100.{n % 250}"))
        crowd.append(sock)
    settled(crowd[-1])
    time.sleep(1)  # the refusals still queued behind the last one are answered
    cpu = worker_cpu(live_server) - cpu
    waited = bystander(live_server)
    print(
        f"bystander: {baseline * 1000:.0f} ms alone, {waited * 1000:.0f} ms beside the crowd;"
        f" taking in {ATTACKERS} connections cost the worker {cpu * 1000:.0f} ms of CPU"
    )
    assert waited <= 2 * baseline + 0.5
    # The cap's worth are held, waiting for their bodies; the others were refused.
    assert still_held(crowd) == CAP
    # One more is told so at once, in the language of the page it asked for.
    for lang in ("id", "en", "nl"):
        with connect(live_server) as refused:
            refused.sendall(slow_body(live_server, lang))
            received = answer(refused)
            assert received.startswith(b"HTTP/1.1 429"), received[:200]
            assert b"Retry-After: 10" in received
            assert heading(received) == BUSY[lang]
            assert closed(refused)


@pytest.mark.slow  # waits out gunicorn's 5 s for a head
def test_heads_that_crawl_in_from_one_address_leave_the_others_alone(
    live_server: LiveServer, crowd: list[socket.socket]
) -> None:
    baseline = min(bystander(live_server) for _ in range(5))
    began = time.monotonic()
    for _ in range(ATTACKERS):
        sock = connect(live_server)
        sock.sendall(b"GET /en/rules HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # and never more
        crowd.append(sock)
    # Those past the cap are gone within a second or so (at once when the refusals are
    # many), while the cap's worth wait out gunicorn's 5 s for a head: a bystander
    # meanwhile is answered as usual.
    settled(crowd[-1], within=5)
    time.sleep(max(0.0, began + 3 - time.monotonic()))  # the burst took a second
    assert still_held(crowd) == CAP
    waited = bystander(live_server)
    print(f"bystander: {baseline * 1000:.0f} ms alone, {waited * 1000:.0f} ms beside the crowd")
    assert waited <= 2 * baseline + 0.5
    assert closed(crowd[0], within=10)
    assert 4.5 < time.monotonic() - began < 8


@pytest.fixture(scope="module")
def hasty(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A server that waits one second for a body (ten in production)."""
    instance = tmp_path_factory.mktemp("hasty") / "instance"
    with LiveServer(instance, {**STILL_BOTS, "LAPAU_BODY_SECONDS": "1"}) as server:
        yield server


@pytest.mark.parametrize("lang", ["id", "en", "nl"])
def test_a_body_that_crawls_is_answered_408_and_its_connection_closed(
    hasty: LiveServer, lang: str
) -> None:
    with connect(hasty) as sock:
        started = time.perf_counter()
        sock.sendall(slow_body(hasty, lang))
        received = answer(sock)
        took = time.perf_counter() - started
        assert received.startswith(b"HTTP/1.1 408"), received[:200]
        assert heading(received) == SLOW[lang]
        assert 0.9 < took < 5
        assert closed(sock)


def test_a_body_that_arrives_in_time_is_read_as_usual(hasty: LiveServer) -> None:
    """A body sent in pieces, each well within the deadline, reaches the form."""
    with connect(hasty) as sock:
        sock.sendall(slow_body(hasty).replace(b"Content-Length: 1000", b"Content-Length: 20"))
        time.sleep(0.3)
        sock.sendall(b"&password=")  # 20 bytes in all: no CSRF token, so refused as a form
        received = answer(sock)
    # The form was read whole: its missing token is what the sign-in page refuses.
    assert received.startswith(b"HTTP/1.1 400"), received[:200]


def test_behind_a_proxy_the_cap_counts_the_address_it_reports(tmp_path: Path) -> None:
    env = {**STILL_BOTS, "LAPAU_PROXIES": "1"}
    with LiveServer(tmp_path / "instance", env) as server:
        held = []
        try:
            # Every connection is the router's (127.0.0.1): only the address it reports
            # counts, so the router itself is never capped.
            for _ in range(CAP):
                sock = connect(server)
                sock.sendall(slow_body(server, forwarded="203.0.113.9"))
                held.append(sock)
            time.sleep(0.5)  # all of them in the app, waiting for their bodies
            with connect(server) as refused:
                refused.sendall(slow_body(server, "nl", forwarded="203.0.113.9"))
                received = answer(refused)
                assert received.startswith(b"HTTP/1.1 429"), received[:200]
                assert heading(received) == BUSY["nl"]
                assert closed(refused)
            assert bystander(server, forwarded="198.51.100.4") < 2
        finally:
            for sock in held:
                sock.close()
    log = server.log.read_text()
    assert '"status":429' in log and '"client":"203.0.113.9"' in log


def test_sigterm_closes_idle_connections_at_once(tmp_path: Path) -> None:
    """Behind a router gunicorn keeps an idle connection 95 s (gunicorn.conf.py); a
    stopping worker must not wait for it."""
    env = {**STILL_BOTS, "LAPAU_PROXIES": "1"}
    server = LiveServer(tmp_path / "instance", env, graceful_timeout=30)
    with server, connect(server) as idle:
        idle.sendall(f"GET /en/rules HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n\r\n".encode())
        assert answer(idle).startswith(b"HTTP/1.1 200")
        assert server.process is not None
        began = time.monotonic()
        os.kill(server.process.pid, signal.SIGTERM)
        server.process.wait(timeout=40)
        took = time.monotonic() - began
    print(f"exited {took:.1f} s after SIGTERM with an idle connection open")
    assert took < 5
