"""axe-core's WCAG 2.1 A and AA rules on the pages where people play (#17): a table of
each game mid-game and at the match's end, a replay, a waiting room and the bots page;
at 360x640.
axe-core is vendored in tests/vendor (no CDN); the test browser bypasses the site's
Content-Security-Policy only to inject it."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.conftest import QUICK_BOTS, LiveServer
from tests.e2e.test_tables import make_a_move, play_to_the_end, start, wait_for_my_turn

pytestmark = pytest.mark.e2e

AXE = Path(__file__).resolve().parent.parent / "vendor" / "axe-core" / "axe.min.js"
WCAG_21_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
GAMES = [("koa", "mode", "quick"), ("kowah", "players", "3"), ("koikoi", "rounds", "3")]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    instance = tmp_path_factory.mktemp("axe") / "instance"
    with LiveServer(instance, {**QUICK_BOTS, "LAPAU_TABLE_SEED": "5"}) as live:
        yield live


@pytest.fixture
def phone(browser: Browser) -> Iterator[BrowserContext]:
    context = browser.new_context(
        viewport={"width": 360, "height": 640}, has_touch=True, bypass_csp=True
    )
    yield context
    context.close()


def violations(page: Page) -> list[str]:
    """axe's WCAG 2.1 A/AA violations on the page as it stands, one line each."""
    page.add_script_tag(path=str(AXE))
    found = page.evaluate(
        "async (tags) => (await axe.run(document, {runOnly: {type: 'tag', values: tags}}))"
        ".violations.map((v) => v.id + ': ' + v.nodes.map((n) => n.target.join(' ')"
        " + ' ' + (n.failureSummary || '').split('\\n').slice(1, 2).join('')).join(' | '))",
        WCAG_21_AA,
    )
    return list(found)


@pytest.mark.parametrize(("game", "option", "value"), GAMES)
def test_a_table_mid_game_and_at_the_end_and_its_replay(
    phone: BrowserContext, server: LiveServer, game: str, option: str, value: str
) -> None:
    page = phone.new_page()
    start(page, server, game, option, value)
    for _ in range(4):
        while not make_a_move(page):
            wait_for_my_turn(page)
    wait_for_my_turn(page)
    assert violations(page) == [], "mid-game"
    play_to_the_end(page)
    expect(page.locator(".match-over")).to_be_visible()
    assert violations(page) == [], "match over"
    page.get_by_role("link", name="Replay this match move by move").click()
    page.wait_for_url("**/replay")
    page.goto(f"{page.url}?step=3")
    assert violations(page) == [], "replay"


def test_a_waiting_room(phone: BrowserContext, server: LiveServer) -> None:
    page = phone.new_page()
    page.goto(f"{server.url}/en/room/")
    page.get_by_role("button", name="Koa").click()
    expect(page).to_have_url(re.compile(r"/en/room/[A-Z2-9]{6}$"))
    expect(page.locator(".seat.mine")).to_be_visible()
    assert violations(page) == []


def test_a_guided_table_with_its_coach_and_a_wrong_move_explained(
    phone: BrowserContext, server: LiveServer
) -> None:
    page = phone.new_page()
    page.goto(f"{server.url}/en/learn/kowah")
    assert violations(page) == [], "the lesson's page"
    page.get_by_role("button", name="Start the guided game").click()
    page.wait_for_url("**/table/**")
    expect(page.locator("#coach")).to_be_visible()
    page.locator("#prompt button[value=draw]").click()
    page.locator('#hand button[value="discard old-thousand"]').click()
    expect(page.locator("#notice")).to_contain_text("Discard the White Flower")
    assert violations(page) == [], "coach and explanation"


@pytest.mark.parametrize("lang", ["id", "nl"])
def test_the_bots_page(phone: BrowserContext, server: LiveServer, lang: str) -> None:
    page = phone.new_page()
    page.goto(f"{server.url}/{lang}/bots")
    expect(page.locator("table").first).to_be_visible()
    assert violations(page) == []


def test_the_settings_preview_and_the_unfinished_tables(
    phone: BrowserContext, server: LiveServer
) -> None:
    """The settings page with its preview changed live, and the practice page's list of
    unfinished tables with an end question open."""
    page = phone.new_page()
    page.goto(f"{server.url}/en/settings")
    page.locator("#set-contrast").fill("0")
    page.locator("#set-lite-cards").check()
    assert violations(page) == [], "settings"
    start(page, server, "koikoi", "rounds", "3")
    page.goto(f"{server.url}/en/play/")
    page.locator(".end-table summary").first.click()
    assert violations(page) == [], "unfinished tables"
