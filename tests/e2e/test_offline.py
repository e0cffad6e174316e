"""Offline reading in Chromium at 360x640 (webapp/offline.py): after one visit, the rules
pages and the card galleries of that language read without a network; any other page,
a table's too, is the offline page of that language."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import BrowserType, Page, expect

pytestmark = pytest.mark.e2e

SPRITE_DRAWN = (
    "() => [...document.querySelectorAll('svg.card use')].some(u => u.getBBox().width > 0)"
)


def visit_once(page: Page, url: str) -> None:
    """Open ``url`` and wait until its language's service worker has kept its pages."""
    page.goto(url)
    page.evaluate("async () => { await navigator.serviceWorker.ready; }")


def go_offline(page: Page) -> None:
    page.context.set_offline(True)
    # The worker's own requests fail too, so whatever it serves now comes from its cache
    # (the newest worker: one dropped by a sign-out may still be listed).
    worker = page.context.service_workers[-1]
    reached = worker.evaluate("fetch('/id/').then(() => 'network', () => 'offline')")
    assert reached == "offline"


def fits_the_screen(page: Page) -> bool:
    return bool(page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth"))


def test_a_rules_page_and_the_gallery_read_offline(page: Page, live_server: Any) -> None:
    visit_once(page, f"{live_server.url}/nl/rules/koikoi")
    go_offline(page)
    page.reload()
    expect(page.locator("h1")).to_have_text("Zo speel je Koi-Koi")
    page.goto(f"{live_server.url}/nl/cards/hanafuda")
    expect(page.locator("html")).to_have_attribute("lang", "nl")
    expect(page.locator("h1")).to_have_text("De hanafudakaarten van Koi-Koi")
    page.wait_for_function(SPRITE_DRAWN)  # the card sprite came from the cache too
    assert fits_the_screen(page)


def test_a_table_offline_shows_the_offline_page(page: Page, live_server: Any) -> None:
    page.goto(f"{live_server.url}/id/play/kowah")
    page.check("input[name=level][value='easy']")
    page.click(".setup-form button")
    page.wait_for_url("**/table/**")
    table = page.url
    page.evaluate("async () => { await navigator.serviceWorker.ready; }")
    go_offline(page)
    page.reload()
    expect(page.locator("h1")).to_have_text("Kamu sedang offline")
    expect(page.locator("#status")).to_have_count(0)  # nothing of the table was kept
    assert page.url == table and fits_the_screen(page)
    page.get_by_role("link", name="Kartu uang Koa dan Kowah").click()
    expect(page.locator("h1")).to_have_text("Kartu uang Koa dan Kowah")
    page.go_back()
    expect(page.locator("h1")).to_have_text("Kamu sedang offline")
    page.context.set_offline(False)
    page.get_by_role("link", name="Coba lagi").click()  # back online: the table again
    expect(page.locator("#status")).to_be_visible()
    assert page.url == table


def test_a_new_worker_deletes_the_old_caches_of_its_language_only(
    page: Page, live_server: Any
) -> None:
    visit_once(page, f"{live_server.url}/nl/rules")
    (current,) = page.evaluate("caches.keys()")
    assert current.startswith("lapau-nl-")
    # As an older set of static files left them, in this language and in another.
    page.evaluate(
        "Promise.all(['lapau-nl-0000000000', 'lapau-id-0000000000'].map(n => caches.open(n)))"
    )
    # Another script address is another worker: it installs and activates as an update would.
    kept = page.evaluate(
        """async () => {
            const registration = await navigator.serviceWorker.register(
                '/nl/sw.js?update', {scope: '/nl/'});
            const worker = registration.installing || registration.waiting || registration.active;
            while (worker.state !== 'activated') {
                await new Promise(done => worker.addEventListener('statechange', done));
            }
            return caches.keys();
        }"""
    )
    assert sorted(kept) == sorted([current, "lapau-id-0000000000"])


def test_chromium_finds_each_language_installable(
    browser_type: BrowserType,
    browser_type_launch_args: dict[str, Any],
    live_server: Any,
    tmp_path: Path,
) -> None:
    # A profile on disk: Chromium offers no installing in a private window.
    context = browser_type.launch_persistent_context(
        tmp_path / "profile", **browser_type_launch_args, viewport={"width": 360, "height": 640}
    )
    try:
        page = context.new_page()
        devtools = context.new_cdp_session(page)
        for lang in ("id", "en", "nl"):
            visit_once(page, f"{live_server.url}/{lang}/rules/koa")
            manifest = devtools.send("Page.getAppManifest")
            assert manifest["url"] == f"{live_server.url}/{lang}/manifest.webmanifest"
            assert manifest["errors"] == []
            assert devtools.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
    finally:
        context.close()


def test_keeping_pages_offline_does_not_change_the_remembered_language(
    page: Page, live_server: Any
) -> None:
    """The English worker fetches English pages in the background to keep them; a reader
    who switched to Dutch meanwhile must still be sent to Dutch (it once reset the cookie)."""
    page.goto(f"{live_server.url}/nl/about")
    page.evaluate(
        """async () => {
            const done = await navigator.serviceWorker.register('/en/sw.js', {scope: '/en/'});
            const worker = done.installing || done.waiting || done.active;
            while (worker.state !== 'activated') await new Promise(r => setTimeout(r, 50));
        }"""
    )
    page.goto(f"{live_server.url}/")
    expect(page).to_have_url(f"{live_server.url}/nl/")


KEPT_HEADER = """async (path) => {
    const kept = await caches.match(path, {ignoreVary: true});
    if (!kept) return null;
    const html = await kept.text();
    return html.includes('title="Your account"') ? 'signed in' : 'signed out';
}"""


def test_signing_out_leaves_no_signed_in_page_to_read_offline(page: Page, live_server: Any) -> None:
    page.goto(f"{live_server.url}/en/sign-up")
    page.get_by_label("Username").fill("offline_rina")
    page.get_by_label("Password").fill("kopi susu di lapau")
    page.get_by_role("button", name="Create account").click()
    visit_once(page, f"{live_server.url}/en/rules/koa")
    page.reload()  # read online once more: the worker keeps this copy, account and all
    page.wait_for_function(f"({KEPT_HEADER})('/en/rules/koa').then(h => h === 'signed in')")

    page.goto(f"{live_server.url}/en/account")
    page.get_by_role("button", name="Sign out", exact=True).click()
    expect(page.get_by_role("link", name="Sign in")).to_be_visible()
    # The browser dropped the worker and its cache; the page it came back to registered
    # the worker again, which kept the pages afresh, signed out.
    page.evaluate("async () => { await navigator.serviceWorker.ready; }")
    page.wait_for_function(f"({KEPT_HEADER})('/en/rules/koa').then(h => h === 'signed out')")
    go_offline(page)
    page.goto(f"{live_server.url}/en/rules/koa")
    expect(page.locator("h1")).to_have_text("How to play Koa")
    expect(page.get_by_role("link", name="Sign in")).to_be_visible()
    expect(page.get_by_role("link", name="Your account")).to_have_count(0)
