"""A phone's socket that died without a close: the page catches up when it wakes.

Chromium reaches the server through a relay that can go silent: every connection open at
that moment stays open but carries nothing more, as a sleeping phone's socket does (no
close ever reaches the page).  The table plays on meanwhile (the turn timer plays for the
person, bots answer), and when the page becomes visible again or comes back online it
must show the table as it is now.
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page

from tests.conftest import LiveServer
from tests.e2e.test_tables import start, version
from tests.play.client import stored_moves

pytestmark = pytest.mark.e2e


class Relay:
    """A TCP relay to the server; :meth:`go_silent` turns every open connection into a
    dead one that never closes.  Connections made afterwards work again."""

    def __init__(self, port: int) -> None:
        self.port_to = port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}"
        self.era = 0
        self.sockets_opened = 0
        self.open: list[socket.socket] = []
        self.threads = [threading.Thread(target=self.accept)]
        self.threads[0].start()

    def accept(self) -> None:
        while True:
            try:
                browser, _ = self.listener.accept()
            except OSError:
                return  # closed
            server = socket.create_connection(("127.0.0.1", self.port_to))
            self.open += [browser, server]
            for source, sink in ((browser, server), (server, browser)):
                thread = threading.Thread(target=self.pipe, args=(source, sink, self.era))
                self.threads.append(thread)
                thread.start()

    def pipe(self, source: socket.socket, sink: socket.socket, era: int) -> None:
        try:
            data = source.recv(65536)
            if data.startswith(b"GET /ws/"):
                self.sockets_opened += 1
            while data:
                if era == self.era:
                    sink.sendall(data)
                data = source.recv(65536)
            if era == self.era:  # a silent connection never tells the page it ended
                sink.shutdown(socket.SHUT_WR)
        except OSError:
            pass  # the other side is gone, or the relay closed

    def go_silent(self) -> None:
        self.era += 1

    def close(self) -> None:
        # The listener and its thread first: a page reconnecting meanwhile would add a
        # pair of sockets after the others were closed, left open for the collector.
        self.release(self.listener)
        self.threads[0].join(timeout=5)
        for sock in self.open:
            self.release(sock)
        for thread in self.threads[1:]:
            thread.join(timeout=5)

    @staticmethod
    def release(sock: socket.socket) -> None:
        try:
            sock.shutdown(socket.SHUT_RDWR)  # wakes the thread waiting on it
        except OSError:
            pass
        sock.close()


@pytest.fixture
def relay(tmp_path: Path) -> Iterator[tuple[LiveServer, Relay]]:
    # The turn timer plays for the person every second and the bots answer at once: the
    # table moves on by itself while the page's socket is dead.
    env = {"LAPAU_BOT_DELAY": "0", "LAPAU_ROUND_PAUSE": "0", "LAPAU_TURN_SECONDS": "1"}
    with LiveServer(tmp_path / "instance", env) as server:
        relay = Relay(server.port)
        yield server, relay
        relay.close()


def wake(page: Page, how: str) -> None:
    """The page becomes visible again (as far as a headless page can), or the browser
    comes back online."""
    if how == "online":
        page.context.set_offline(True)
        page.context.set_offline(False)
    else:
        page.evaluate("() => document.dispatchEvent(new Event('visibilitychange'))")


@pytest.mark.parametrize("how", ["visible", "online"])
def test_a_page_whose_socket_died_silently_catches_up_when_it_wakes(
    page: Page, relay: tuple[LiveServer, Relay], how: str
) -> None:
    server, through = relay
    start(page, through, "koikoi", "rounds", "12")
    table_id = page.url.rsplit("/", 1)[1]
    page.wait_for_function("() => document.getElementById('version').value > 0")
    assert through.sockets_opened == 1

    # A live socket answers the probe: waking does not open another.
    wake(page, how)
    page.wait_for_timeout(5000)
    assert through.sockets_opened == 1

    through.go_silent()
    page.wait_for_timeout(300)  # a message already on its way may still land
    seen = int(version(page))
    for _ in range(100):
        if len(stored_moves(server, table_id)) > seen + 1:
            break
        page.wait_for_timeout(100)
    assert int(version(page)) == seen, "the silent socket should carry nothing"
    played = len(stored_moves(server, table_id))
    assert played > seen

    wake(page, how)
    page.wait_for_function(
        "(played) => Number(document.getElementById('version').value) >= played",
        arg=played,
        timeout=10000,
    )
    assert through.sockets_opened == 2
