"""Whole games through the browser: Chromium at 360x640, the real server, bots at full speed.

Every move is a click on the table, as a person would make it: a button of the prompt
when there is one (cabut, draw, stop, next round...), otherwise the first card of the
hand that the server accepts.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Protocol

import pytest
from playwright.sync_api import Page, expect

from tests.conftest import QUICK_BOTS, STILL_BOTS, LiveServer
from tests.play.client import break_log

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def fast(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    instance = tmp_path_factory.mktemp("fast") / "instance"
    with LiveServer(instance, {**QUICK_BOTS, "LAPAU_TABLE_SEED": "5"}) as server:
        yield server


class Reachable(Protocol):
    """A server, or a relay in front of one: where the browser goes."""

    @property
    def url(self) -> str: ...


def start(page: Page, server: Reachable, game: str, option: str, value: str) -> None:
    page.goto(f"{server.url}/en/play/{game}")
    page.check(f"input[name={option}][value='{value}']")
    page.check("input[name=level][value='easy']")
    page.click(".setup-form button")
    page.wait_for_url("**/table/**")
    expect(page.locator("#status")).to_be_visible()


def version(page: Page) -> str:
    return page.locator("#version").input_value()


def has_no_horizontal_overflow(page: Page) -> bool:
    return bool(page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth"))


def wait_for_my_turn(page: Page) -> None:
    """Wait until the table waits for this player, or the match is over."""
    page.wait_for_function(
        "() => document.getElementById('status')?.dataset.turn === '1'"
        " || document.querySelector('.match-over') !== null"
    )


def count_socket_messages(page: Page) -> None:
    """From the next load on, ``window.socketMessages`` counts the messages the socket got."""
    page.add_init_script(
        "window.socketMessages = 0; document.addEventListener('htmx:wsAfterMessage',"
        " () => { window.socketMessages += 1; });"
    )


def wait_for_socket_messages(page: Page, more_than: int = 0, timeout: float = 30_000) -> None:
    page.wait_for_function(f"() => window.socketMessages > {more_than}", timeout=timeout)


def make_a_move(page: Page) -> bool:
    """Make one move if the table waits for this player; True if the table moved on."""
    status = page.locator("#status")
    if status.get_attribute("data-turn") != "1":
        return False
    before = version(page)
    prompt_buttons = page.locator("#prompt button")
    candidates = (
        [prompt_buttons.first]
        if prompt_buttons.count()
        else page.locator("#hand button:enabled:not([aria-disabled])").all()
    )
    for button in candidates:
        button.click()
        try:
            page.wait_for_function(
                "(v) => document.getElementById('version').value !== v"
                " || document.getElementById('notice').textContent.trim() !== ''",
                arg=before,
                timeout=5000,
            )
        except Exception:  # noqa: BLE001 - a lost click is tried again next round
            return False
        if version(page) != before:
            return True
    return False


def play_together_to_the_end(pages: list[Page]) -> None:
    """Each page taps its own table whenever it may, until every page shows the match over."""
    for _ in range(2000):
        if all(page.locator(".match-over").count() for page in pages):
            return
        if not next((True for page in pages if make_a_move(page)), False):
            pages[0].wait_for_timeout(30)
    raise AssertionError("the match did not end")


def play_to_the_end(page: Page, steps: int = 1500) -> None:
    for _ in range(steps):
        if page.locator(".match-over").count():
            return
        if not make_a_move(page):
            wait_for_my_turn(page)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize(
    ("game", "option", "value", "ending"),
    [
        ("koa", "mode", "quick", ("won the match", "You won the match!")),
        ("kowah", "players", "3", ("wins", "drawn")),
        ("koikoi", "rounds", "3", ("won the match", "You won the match!", "draw")),
    ],
)
def test_a_whole_game_against_bots_through_the_page(
    page: Page, fast: LiveServer, game: str, option: str, value: str, ending: tuple[str, ...]
) -> None:
    start(page, fast, game, option, value)
    assert has_no_horizontal_overflow(page)
    play_to_the_end(page)
    result = page.locator("#prompt").inner_text()
    assert any(word in result for word in ending), result
    expect(page.locator("#status")).to_contain_text("Game over")
    assert has_no_horizontal_overflow(page)
    page.locator("a", has_text="Replay this match").click()
    expect(page.locator(".replay-steps")).to_be_visible()
    page.locator(".replay-steps a[rel=prev]").click()
    expect(page.locator(".replay-steps")).to_contain_text("Move")


def test_a_reload_in_the_middle_of_a_game_continues_it(page: Page, fast: LiveServer) -> None:
    count_socket_messages(page)
    start(page, fast, "kowah", "players", "3")
    for _ in range(4):
        while not make_a_move(page):
            wait_for_my_turn(page)
    # Read the version once the table waits for us: bots move at once in this server, so
    # at any other moment it may move on between reading it and reloading.
    expect(page.locator("#status")).to_have_attribute("data-turn", "1")
    seen = version(page)
    page.reload()
    expect(page.locator("#version")).to_have_value(seen)
    wait_for_socket_messages(page)  # the socket reconnects and sends the whole table
    while not make_a_move(page):
        wait_for_my_turn(page)
    assert int(version(page)) > int(seen)


def test_a_server_restart_in_the_middle_of_a_game(
    page: Page, tmp_path_factory: pytest.TempPathFactory
) -> None:
    instance = tmp_path_factory.mktemp("restart") / "instance"
    server = LiveServer(instance, {**QUICK_BOTS, "LAPAU_TABLE_SEED": "9"})
    server.start()
    try:
        count_socket_messages(page)
        start(page, server, "koikoi", "rounds", "3")
        for _ in range(2):
            while not make_a_move(page):
                wait_for_my_turn(page)
        seen = int(version(page))
        import time

        began = time.monotonic()
        server.stop()
        assert time.monotonic() - began < 10, "the server should exit promptly on SIGTERM"
        messages = int(page.evaluate("() => window.socketMessages"))  # none come any more
        server.start()
        # The page reconnects by itself (close code 1012), gets the whole table, and the game
        # goes on.
        wait_for_socket_messages(page, more_than=messages)
        for _ in range(20):
            if make_a_move(page):
                break
            wait_for_my_turn(page)
        assert int(version(page)) > seen
    finally:
        server.stop()


def test_an_open_table_whose_moves_no_longer_replay_after_a_restart_shows_an_apology(
    page: Page, tmp_path_factory: pytest.TempPathFactory
) -> None:
    instance = tmp_path_factory.mktemp("broken") / "instance"
    server = LiveServer(instance, {**STILL_BOTS, "LAPAU_TABLE_SEED": "11"})
    server.start()
    try:
        start(page, server, "koikoi", "rounds", "3")
        table_id = page.url.rsplit("/", 1)[1]
        server.stop()
        break_log(server, table_id)  # as if the rules had changed under it
        server.start()
        # The page reconnects by itself; the apology takes the table's place.
        apology = page.locator(".broken")
        expect(apology).to_contain_text("could not be replayed", timeout=30_000)
        expect(page.locator(".table")).to_have_count(0)
        expect(apology.get_by_role("link")).to_have_attribute("href", "/en/play/")
    finally:
        server.stop()
