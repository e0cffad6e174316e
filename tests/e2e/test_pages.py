"""The pages in a real browser: Debian's Chromium at 360x640, through Playwright."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.e2e


def has_no_horizontal_overflow(page: Page) -> bool:
    return bool(
        page.evaluate(
            "() => document.documentElement.scrollWidth <= window.innerWidth"
            " && document.body.scrollWidth <= window.innerWidth"
        )
    )


@pytest.mark.parametrize("lang", ["id", "en", "nl"])
def test_landing_page_fits_a_small_phone(page: Page, live_server: Any, lang: str) -> None:
    page.goto(f"{live_server.url}/{lang}/")
    expect(page.locator("html")).to_have_attribute("lang", lang)
    expect(page.locator("h1")).to_be_visible()
    assert page.locator(".game").count() == 3
    assert has_no_horizontal_overflow(page)
    page.locator(".settings summary").click()
    assert has_no_horizontal_overflow(page)


def test_tap_targets_are_at_least_44_pixels(page: Page, live_server: Any) -> None:
    page.goto(f"{live_server.url}/en/")
    small = page.evaluate(
        """() => [...document.querySelectorAll('a, button, summary, select')]
            .filter(el => el.offsetParent !== null && !el.classList.contains('skip'))
            .map(el => [el.textContent.trim(), el.getBoundingClientRect()])
            .filter(([_, r]) => r.height < 44 || r.width < 44)
            .map(([text]) => text)"""
    )
    assert small == []


def test_language_switch_keeps_the_page_and_is_remembered(page: Page, live_server: Any) -> None:
    page.goto(f"{live_server.url}/en/about")
    page.locator('.langs a[hreflang="nl"]').click()
    expect(page).to_have_url(f"{live_server.url}/nl/about")
    expect(page.locator("h1")).to_have_text("Over Lapau")
    page.goto(f"{live_server.url}/")
    expect(page).to_have_url(f"{live_server.url}/nl/")


def test_display_settings_change_the_page_and_survive_a_reload(
    page: Page, live_server: Any
) -> None:
    page.goto(f"{live_server.url}/en/about")

    def paper() -> str:
        return str(page.evaluate("() => getComputedStyle(document.body).backgroundColor"))

    def grain() -> str:
        return str(page.evaluate("() => getComputedStyle(document.body, '::before').opacity"))

    before_paper, before_grain = paper(), grain()
    page.locator(".settings summary").click()
    page.locator("#set-temperature").fill("0")
    page.locator("#set-grain").fill("0")
    page.locator(".settings-form button").click()
    expect(page).to_have_url(f"{live_server.url}/en/about")
    after_paper = paper()
    assert after_paper != before_paper
    assert grain() == "0" != before_grain
    page.reload()
    assert paper() == after_paper
    assert grain() == "0"


def test_settings_work_from_the_keyboard(page: Page, live_server: Any) -> None:
    page.goto(f"{live_server.url}/en/")
    page.locator(".settings summary").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#set-contrast")).to_be_visible()


@pytest.mark.parametrize("lang", ["id", "en", "nl"])
def test_the_bots_page_is_reached_from_the_setup_and_fits_a_small_phone(
    page: Page, live_server: Any, lang: str
) -> None:
    page.goto(f"{live_server.url}/{lang}/play/kowah")
    page.locator(f'a[href="/{lang}/bots"]').click()
    expect(page).to_have_url(f"{live_server.url}/{lang}/bots")
    expect(page.locator("html")).to_have_attribute("lang", lang)
    expect(page.locator("h1")).to_be_visible()
    tables = page.locator("table")
    assert tables.count() == 3  # one ladder per game
    assert has_no_horizontal_overflow(page)
    # no ladder needs a sideways scroll of its own on a 360 px screen
    assert page.evaluate(
        "() => [...document.querySelectorAll('.table-wrap')]"
        ".every(w => w.scrollWidth <= w.clientWidth)"
    )
