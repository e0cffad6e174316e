"""A dropped player (#17 finding 10): after a short grace a bot plays their turns at bot
speed, their seat says so, and the seat is theirs again the moment they come back.
Two people at a Koi-Koi room on phones, through the UI only."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, WebSocket, expect

from tests.conftest import QUICK_BOTS, LiveServer
from tests.e2e.test_tables import make_a_move

pytestmark = pytest.mark.e2e

GRACE = 2  # seconds, this server's stand-in grace


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    instance = tmp_path_factory.mktemp("stand-in") / "instance"
    env = {**QUICK_BOTS, "LAPAU_STAND_IN_GRACE": str(GRACE), "LAPAU_TABLE_SEED": "5"}
    with LiveServer(instance, env) as live:
        yield live


@pytest.fixture
def two_phones(browser: Browser) -> Iterator[list[BrowserContext]]:
    contexts = [
        browser.new_context(viewport={"width": 360, "height": 640}, has_touch=True)
        for _ in range(2)
    ]
    yield contexts
    for context in contexts:
        context.close()


def brings_the_table(page: Page, go: Callable[[], object]) -> None:
    """Do ``go`` (a navigation that opens a table page) and wait until the page's table
    socket has brought the table: from then on the server counts the page among the
    table's listeners. A page whose socket has not opened yet misses what happens before
    (a reaction is never sent again), and a page closed before it never reached the table."""
    heard: list[WebSocket] = []

    def on_socket(socket: WebSocket) -> None:
        if "/ws/table/" in socket.url:
            socket.on("framereceived", lambda _frame: heard.append(socket))

    page.on("websocket", on_socket)
    try:
        go()
        for _ in range(100):
            if heard:
                return
            page.wait_for_timeout(100)
        raise AssertionError("the page's table socket brought nothing")
    finally:
        page.remove_listener("websocket", on_socket)


def open_koikoi_room(host: Page, friend: Page, server: LiveServer) -> str:
    """The host opens a Koi-Koi room, the friend joins and is ready, the host starts;
    the table's address, once the friend's table socket has brought the table."""

    def start() -> None:
        host.goto(f"{server.url}/en/room/")
        host.get_by_role("button", name="Koi-Koi").click()
        expect(host).to_have_url(re.compile(r"/en/room/[A-Z2-9]{6}$"))
        code = host.url.rsplit("/", 1)[1]
        friend.goto(f"{server.url}/en/play/koikoi")
        friend.get_by_label("Room code").fill(code)
        friend.get_by_role("button", name="Join", exact=True).click()
        friend.get_by_role("button", name="Ready", exact=True).click()
        host.get_by_role("button", name="Start").click()
        for page in (host, friend):
            expect(page).to_have_url(re.compile(r"/en/table/\w+$"), timeout=10_000)
            expect(page.locator("#status")).to_be_visible()

    brings_the_table(friend, start)
    return friend.url


def test_a_bot_plays_for_a_dropped_player_and_hands_the_seat_back(
    two_phones: list[BrowserContext], server: LiveServer
) -> None:
    host, friend = (context.new_page() for context in two_phones)
    table = open_koikoi_room(host, friend, server)
    friend.close()  # the friend's phone loses its connection
    dropped = time.monotonic()

    # The host goes on playing; the friend's turns are played for them within the grace
    # (and a bot's pause), never after a whole turn clock.
    away = host.locator(".stand-in")
    moves = 0
    while moves < 3:
        if make_a_move(host):
            moves += 1
        else:
            host.wait_for_function(
                "() => document.getElementById('status')?.dataset.turn === '1'",
                timeout=(GRACE + 5) * 1000,
            )
    assert time.monotonic() - dropped < 60
    expect(away).to_have_count(1)
    expect(away).to_contain_text("Away: a bot plays for now")

    # Back: the seat is the friend's own again, and nobody plays their turn for them.
    friend = two_phones[1].new_page()
    friend.goto(table)
    expect(friend.locator("#status")).to_be_visible()
    for _ in range(10):
        if friend.locator("#status").get_attribute("data-turn") == "1":
            break
        make_a_move(host)
        friend.wait_for_timeout(200)
    expect(friend.locator("#status")).to_have_attribute("data-turn", "1")
    seen = friend.locator("#version").input_value()
    friend.wait_for_timeout((GRACE + 2) * 1000)  # past the grace: still waiting for them
    assert friend.locator("#version").input_value() == seen
    expect(away).to_have_count(0)
    assert make_a_move(friend)
