"""Reactions at a live table in real browsers: two phones (360x640) at one Koi-Koi room's
table see each other's reactions, each in its own language, beside the sender's seat; the
eleventh in a minute is refused politely to its sender alone; the setting hides them."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.conftest import STILL_BOTS, LiveServer
from tests.e2e.test_auth import fits
from tests.e2e.test_stand_in import brings_the_table, open_koikoi_room
from webapp.play.emotes import PER_MINUTE

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    instance = tmp_path_factory.mktemp("reactions") / "instance"
    with LiveServer(instance, STILL_BOTS) as live:
        yield live


@pytest.fixture
def phones(browser: Browser) -> Iterator[list[Page]]:
    """Two people's phones, each its own browser (its own guest)."""
    contexts = [browser.new_context(viewport={"width": 360, "height": 640}) for _ in range(2)]
    yield [context.new_page() for context in contexts]
    for context in contexts:
        context.close()


def react(page: Page, words: str) -> None:
    fold = page.locator(".reactions details")
    if fold.get_attribute("open") is None:
        fold.locator("summary").click()
    page.locator(".reactions").get_by_role("button", name=words).click()


def test_two_phones_see_each_others_reactions(phones: list[Page], server: LiveServer) -> None:
    host, friend = phones
    table_id = open_koikoi_room(host, friend, server).rsplit("/", 1)[1]
    # The friend reads the table in Indonesian (a new socket: the reaction waits for it).
    brings_the_table(friend, lambda: friend.goto(f"{server.url}/id/table/{table_id}"))
    for page in (host, friend):
        expect(page.locator("#status")).to_be_visible()
        expect(page.locator(".reactions details")).to_be_visible()

    react(host, "Thanks!")
    # Over the host's seat on the friend's screen, in Indonesian; under the host's table.
    expect(friend.locator(".seat-box .emote")).to_have_text("Terima kasih!")
    expect(host.locator(".reactions .emote")).to_have_text("Thanks!")
    react(friend, "Mantap mainnya!")
    expect(host.locator(".seat-box .emote")).to_have_text("Well played!")
    expect(host.locator(".seat-box .emote span")).to_be_visible()
    assert fits(host) and fits(friend)
    # Shown briefly: the bubble is gone after a few seconds.
    expect(host.locator(".seat-box .emote span")).to_be_hidden(timeout=8000)

    # The friend hides reactions: no more buttons, and the host's next one never shows.
    friend.goto(f"{server.url}/id/settings?next=/id/table/{table_id}")
    friend.get_by_label("Reaksi di meja").uncheck()
    # Back at the table with its socket open, or the next check would pass unheard.
    brings_the_table(friend, friend.get_by_role("button", name="Terapkan").click)
    expect(friend).to_have_url(f"{server.url}/id/table/{table_id}")
    expect(friend.locator("#status")).to_be_visible()
    expect(friend.locator(".reactions")).to_have_count(0)
    react(host, "Oops!")
    expect(host.locator(".reactions .emote")).to_have_text("Oops!")
    friend.wait_for_timeout(500)
    expect(friend.locator(".emote span")).to_have_count(0)

    # The host has sent two this minute: eight more pass, the eleventh is refused politely,
    # in the host's notice only.
    for _ in range(PER_MINUTE - 2):
        react(host, "Good game!")
    expect(host.locator("#notice")).to_be_empty()
    react(host, "Come on, your turn!")
    expect(host.locator("#notice")).to_contain_text("plenty of reactions for one minute")
    expect(host.locator(".reactions .emote")).to_have_text("Good game!")
    expect(friend.locator("#notice")).to_be_empty()
