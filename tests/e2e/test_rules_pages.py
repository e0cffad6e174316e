"""The rules pages and deck galleries in Chromium at 360x640, with lite cards off and on."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest
from playwright.sync_api import Page, expect

if TYPE_CHECKING:
    from playwright._impl._api_structures import SetCookieParam

pytestmark = pytest.mark.e2e

#: Every card of a page shares one sprite, so one painted card means it has arrived.
SPRITE_DRAWN = (
    "() => [...document.querySelectorAll('svg.card use')].some(u => u.getBBox().width > 0)"
)

PATHS = ["/rules", "/rules/koa", "/rules/kowah", "/rules/koikoi", "/cards/money", "/cards/hanafuda"]


def has_no_horizontal_overflow(page: Page) -> bool:
    return bool(
        page.evaluate(
            "() => document.documentElement.scrollWidth <= window.innerWidth"
            " && document.body.scrollWidth <= window.innerWidth"
        )
    )


def open_page(page: Page, url: str, lite: bool) -> list[str]:
    """Open ``url`` with the lite-cards setting on or off; return the card files requested."""
    page.context.clear_cookies()
    host = url.split("/")[2].split(":")[0]
    # Path "/" as the site sets it, so a later choice in the settings form replaces it.
    cookie: SetCookieParam = {
        "name": "display",
        "value": f"50-50-50-{int(lite)}",
        "domain": host,
        "path": "/",
    }
    page.context.add_cookies([cookie])
    sprites: list[str] = []
    page.on("request", lambda r: sprites.append(r.url) if "/static/cards/" in r.url else None)
    page.goto(url)  # returns at the load event
    if not lite and page.locator("svg.card use").count():
        page.wait_for_function(SPRITE_DRAWN)  # the sprite arrived and a card is painted
    return sprites


@pytest.mark.parametrize("lite", [False, True], ids=["art", "lite"])
@pytest.mark.parametrize("lang", ["id", "en", "nl"])
@pytest.mark.parametrize("path", PATHS)
def test_rules_pages_fit_a_small_phone(
    page: Page, live_server: Any, path: str, lang: str, lite: bool
) -> None:
    sprites = open_page(page, f"{live_server.url}/{lang}{path}", lite)
    expect(page.locator("html")).to_have_attribute("lang", lang)
    expect(page.locator("h1")).to_be_visible()
    assert has_no_horizontal_overflow(page)
    cards = page.locator(".card")
    if path == "/rules":
        assert cards.count() == 0
        return
    assert cards.count() > 0
    if lite:
        assert sprites == []
        assert page.locator("svg.card").count() == 0
        box = cards.first.bounding_box()
        assert box and box["width"] >= 40
    else:
        assert len(set(sprites)) == 1, sprites
        box = cards.first.bounding_box()
        assert box and box["width"] >= 28 and box["height"] >= 40


def test_the_card_art_is_drawn(page: Page, live_server: Any) -> None:
    """The <use> reaches its symbol: the sprite's shapes give the card a painted size."""
    open_page(page, f"{live_server.url}/en/cards/hanafuda", lite=False)
    drawn = page.evaluate(
        """() => [...document.querySelectorAll('svg.card use')]
            .map(u => u.getBBox()).filter(b => b.width > 30 && b.height > 50).length"""
    )
    assert drawn == 49


def test_contents_links_reach_their_sections(page: Page, live_server: Any) -> None:
    open_page(page, f"{live_server.url}/en/rules/koikoi", lite=False)
    page.locator('.toc a[href="#yaku"]').click()
    expect(page).to_have_url(f"{live_server.url}/en/rules/koikoi#yaku")
    assert page.evaluate("() => document.getElementById('yaku').getBoundingClientRect().top") < 100


def test_lite_cards_switch_on_from_the_settings_and_stay_on(page: Page, live_server: Any) -> None:
    sprites = open_page(page, f"{live_server.url}/nl/rules/kowah", lite=False)
    assert sprites
    page.locator(".settings summary").click()
    page.locator("#set-lite-cards").check()
    page.locator(".settings-form button").click()
    expect(page).to_have_url(f"{live_server.url}/nl/rules/kowah")
    expect(page.locator(".card.lite").first).to_be_visible()
    assert page.locator("svg.card").count() == 0
    expect(page.locator('.lite[aria-label="Munten 5"]').first).to_be_visible()
    page.reload()
    assert page.locator("svg.card").count() == 0
    page.locator(".settings summary").click()
    expect(page.locator("#set-lite-cards")).to_be_checked()


def test_rules_tap_targets_are_at_least_44_pixels(page: Page, live_server: Any) -> None:
    for path in ("/en/rules", "/en/rules/koa"):
        open_page(page, live_server.url + path, lite=False)
        small = page.evaluate(
            """() => [...document.querySelectorAll('.rules a, .rules button, .rules summary')]
                .filter(el => el.offsetParent !== null && !el.closest('p, li:not(.toc li), dd'))
                .map(el => [el.textContent.trim(), el.getBoundingClientRect()])
                .filter(([_, r]) => r.height < 44 || r.width < 44)
                .map(([text]) => text)"""
        )
        assert small == [], path
