"""Accounts in a real browser: Chromium at 360x640 against the real server."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.auth.oidc_provider import CLIENT_ID, CLIENT_SECRET, Provider
from tests.conftest import QUICK_BOTS, LiveServer
from tests.e2e.test_tables import play_to_the_end, start, version

pytestmark = pytest.mark.e2e

SMALL_TARGETS = """() => [...document.querySelectorAll('a, button, summary, select, input')]
    .filter(el => el.offsetParent !== null && !el.classList.contains('skip')
                  && el.type !== 'hidden' && el.type !== 'checkbox')
    .map(el => [el.textContent.trim() || el.name || el.title, el.getBoundingClientRect()])
    .filter(([_, r]) => r.height < 44 || r.width < 44)
    .map(([text]) => text)"""


def fits(page: Page) -> bool:
    return bool(
        page.evaluate(
            "() => document.documentElement.scrollWidth <= window.innerWidth"
            " && document.body.scrollWidth <= window.innerWidth"
        )
    )


def header_is_one_row(page: Page) -> bool:
    """Brand, languages, account and settings share one line at 360 px."""
    tops = page.evaluate(
        "() => [...document.querySelectorAll('.top > *')]"
        ".map(el => Math.round(el.getBoundingClientRect().top))"
    )
    return bool(max(tops) - min(tops) < 20)


@pytest.fixture(scope="module")
def fast(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    instance = tmp_path_factory.mktemp("fast-auth") / "instance"
    with LiveServer(instance, {**QUICK_BOTS, "LAPAU_TABLE_SEED": "5"}) as server:
        yield server


@pytest.mark.parametrize("lang", ["id", "en", "nl"])
def test_the_header_fits_a_small_phone_signed_out(page: Page, live_server: Any, lang: str) -> None:
    page.goto(f"{live_server.url}/{lang}/")
    expect(page.locator(".account-link")).to_be_visible()
    assert fits(page)
    assert header_is_one_row(page)
    assert page.evaluate(SMALL_TARGETS) == []


def test_sign_up_sign_out_and_sign_in_through_the_pages(page: Page, live_server: Any) -> None:
    page.goto(f"{live_server.url}/en/about")
    page.locator(".account-link").click()
    expect(page).to_have_url(re.compile(r"/en/sign-in\?next=/en/about$"))
    page.wait_for_load_state("load")
    assert fits(page)
    assert page.evaluate(SMALL_TARGETS) == []
    page.get_by_role("link", name="Create an account").click()
    page.get_by_label("Username").fill("Tamu_360")
    page.get_by_label("Password").fill("short")
    page.get_by_role("button", name="Create account").click()
    expect(page.locator("#password-error")).to_contain_text("at least 8 characters")
    assert fits(page)
    page.get_by_label("Password").fill("kopi susu di lapau")
    page.get_by_role("button", name="Create account").click()
    expect(page).to_have_url(f"{live_server.url}/en/about")

    for lang in ["id", "en", "nl"]:
        page.goto(f"{live_server.url}/{lang}/")
        assert fits(page)
        assert header_is_one_row(page)
        assert page.evaluate(SMALL_TARGETS) == []
    page.goto(f"{live_server.url}/en/")
    page.locator(".account-link").click()
    expect(page.locator("h1")).to_have_text("Your account")
    page.wait_for_load_state("load")
    expect(page.locator("main")).to_contain_text("Signed in as tamu_360.")
    assert fits(page)
    assert page.evaluate(SMALL_TARGETS) == []
    page.get_by_role("button", name="Sign out", exact=True).click()
    expect(page).to_have_url(f"{live_server.url}/en/")

    page.goto(f"{live_server.url}/en/sign-in")
    page.get_by_label("Username").fill("TAMU_360")
    page.get_by_label("Password").fill("kopi susu di lapau")
    page.get_by_role("button", name="Sign in").click()
    expect(page.locator(".account-link")).to_have_attribute("href", "/en/account")


def test_a_move_posts_without_javascript(browser: Browser, fast: LiveServer) -> None:
    """With scripts off, a move form posts (with its CSRF token) and the page reloads."""
    context = browser.new_context(java_script_enabled=False, viewport={"width": 360, "height": 640})
    page = context.new_page()
    try:
        start(page, fast, "koikoi", "rounds", "3")
        expect(page).to_have_url(re.compile(r"/en/table/\w+$"))
        before = int(version(page))
        for _ in range(20):
            if page.locator("#status").get_attribute("data-turn") == "1":
                break
            page.reload()
        page.locator("#hand button").first.click()
        expect(page).to_have_url(re.compile(r"/en/table/\w+(\?notice=[\w-]+)?$"))
        assert int(version(page)) > before
    finally:
        context.close()


def test_play_again_after_a_match(page: Page, fast: LiveServer) -> None:
    """The 'Play again' form arrives over the socket; its token is the page's form="again"."""
    start(page, fast, "koikoi", "rounds", "3")
    first = page.url
    play_to_the_end(page)
    page.get_by_role("button", name="Play again").click()
    expect(page).not_to_have_url(first)
    expect(page).to_have_url(re.compile(r"/en/table/\w+$"))
    expect(page.locator("#status")).to_be_visible()


@pytest.fixture(scope="module")
def with_google(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """The site with "Continue with Google" pointed at a local OpenID Connect provider."""
    provider = Provider()
    discovery = provider.start()
    server = LiveServer(
        tmp_path_factory.mktemp("google") / "instance",
        {
            "GOOGLE_CLIENT_ID": CLIENT_ID,
            "GOOGLE_CLIENT_SECRET": CLIENT_SECRET,
            "OIDC_GOOGLE_DISCOVERY_URL": discovery,
        },
    )
    server.start()
    try:
        yield server
    finally:
        server.stop()
        provider.stop()


def test_continue_with_google_in_the_browser(page: Page, with_google: LiveServer) -> None:
    page.goto(f"{with_google.url}/id/play/")
    page.locator(".account-link").click()
    button = page.get_by_role("link", name="Lanjut dengan Google")
    expect(button).to_be_visible()
    page.wait_for_load_state("load")
    assert page.evaluate(SMALL_TARGETS) == []
    assert fits(page)
    button.click()
    expect(page).to_have_url(f"{with_google.url}/id/play/")
    expect(page.locator(".account-link")).to_have_attribute("href", "/id/account")
    page.locator(".account-link").click()
    expect(page.locator("main")).to_contain_text("Masuk sebagai rinatest.")
    expect(page.locator("main")).to_contain_text("Tertaut: Google.")
