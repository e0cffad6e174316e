"""Friends in two real browsers: a request found by username, accepted, each sees the other
come and go live, and an invite to a room reaches the friend on whatever page they are.

Set ``LAPAU_SHOTS=<folder>`` to keep screenshots of the pages and the toast.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Locator, Page, expect

from tests.conftest import LiveServer
from tests.e2e.test_auth import SMALL_TARGETS, header_is_one_row

pytestmark = pytest.mark.e2e

PASSWORD = "kopi susu di lapau"
SHOTS = os.environ.get("LAPAU_SHOTS")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with LiveServer(tmp_path_factory.mktemp("friends") / "instance") as live:
        yield live


def person(browser: Browser, width: int = 360, height: int = 640) -> BrowserContext:
    return browser.new_context(viewport={"width": width, "height": height})


def sign_up(page: Page, server: LiveServer, username: str) -> None:
    page.goto(f"{server.url}/en/sign-up")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Create account").click()
    expect(page.locator(".friends-link")).to_be_visible()


def shot(page: Page, name: str) -> None:
    if SHOTS:
        page.wait_for_timeout(400)  # the toast's slide-in
        width = page.viewport_size["width"] if page.viewport_size else 0
        page.screenshot(path=f"{SHOTS}/{name}-{width}.png", full_page=width < 600)


def row(page: Page, username: str) -> Locator:
    return page.locator("#friends-live .person", has_text=username)


def fits(page: Page) -> bool:
    return bool(page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth"))


def test_two_people_befriend_see_each_other_come_and_go_and_invite(
    browser: Browser, server: LiveServer
) -> None:
    ana_side, budi_side = person(browser), person(browser)
    ana, budi = ana_side.new_page(), budi_side.new_page()
    sign_up(ana, server, "ana_e2e")
    sign_up(budi, server, "budi_e2e")
    budi.goto(f"{server.url}/en/friends")

    # Ana finds Budi by username and asks; Budi sees it arrive without reloading.
    ana.locator(".friends-link").click()
    expect(ana).to_have_url(re.compile(r"/en/friends$"))
    ana.get_by_label("Username").fill("budi")
    ana.get_by_role("button", name="Search").click()
    ana.get_by_role("button", name="Add friend budi_e2e").click()
    expect(ana.locator(".note")).to_contain_text("Request sent to budi_e2e.")
    expect(budi.locator("#friends-live")).to_contain_text("ana_e2e wants to be your friend")
    expect(budi.locator("#friends-badge")).to_contain_text("1")
    shot(budi, "friends-request")
    budi.get_by_role("button", name="Accept ana_e2e").click()

    # Each sees the other online: Budi after his own click, Ana live.
    expect(row(budi, "ana_e2e")).to_contain_text("Online")
    expect(row(ana, "budi_e2e")).to_contain_text("Online")
    expect(budi.locator("#friends-badge")).to_have_text("")
    assert fits(ana) and fits(budi)
    assert header_is_one_row(ana)
    assert ana.evaluate(SMALL_TARGETS) == [] and budi.evaluate(SMALL_TARGETS) == []
    shot(ana, "friends-list")

    # Budi closes the site: Ana sees him go offline, then come back on another page.
    budi.close()
    expect(row(ana, "budi_e2e")).to_contain_text("Offline")
    budi = budi_side.new_page()
    budi.goto(f"{server.url}/en/rules")
    expect(row(ana, "budi_e2e")).to_contain_text("Online")

    # Ana opens a Koa room and invites Budi, who is reading the rules.
    ana.goto(f"{server.url}/en/room/")
    ana.get_by_role("button", name="Koa").click()
    expect(ana).to_have_url(re.compile(r"/en/room/\w{6}$"))
    room_url = ana.url
    ana.get_by_role("button", name="Invite budi_e2e").click()
    expect(ana.locator(".invite-friends")).to_contain_text("Invited")
    shot(ana, "room-invite")
    toast = budi.locator(".toast")
    expect(toast).to_contain_text("ana_e2e invites you to a Koa match")
    expect(budi.locator(".toasts")).to_have_attribute("aria-live", "polite")
    assert fits(budi) and header_is_one_row(budi)
    assert budi.evaluate(SMALL_TARGETS) == []
    shot(budi, "invite-toast")

    # The toast is usable from the keyboard: Join seats Budi in the room, ready (the form
    # came over the socket: its token holds).
    join = toast.get_by_role("button", name="Join")
    join.focus()
    budi.keyboard.press("Enter")
    expect(budi).to_have_url(room_url)
    expect(budi.locator(".toast")).to_have_count(0)
    expect(budi.get_by_role("button", name="Take a seat")).to_have_count(0)
    expect(budi.get_by_role("button", name="Not ready")).to_be_visible()
    expect(ana.locator(".seat", has_text="budi_e2e")).to_contain_text("Ready")

    # Budi is now in Ana's waiting room; the friends page says so, with the game.
    ana.goto(f"{server.url}/en/friends")
    expect(row(ana, "budi_e2e")).to_contain_text("Waiting for players · Koa")
    ana_side.close()
    budi_side.close()


def test_an_invite_can_be_dismissed_and_disappears_on_every_page(
    browser: Browser, server: LiveServer
) -> None:
    host_side, friend_side = person(browser, 1280, 800), person(browser, 1280, 800)
    host, friend = host_side.new_page(), friend_side.new_page()
    sign_up(host, server, "cici_e2e")
    sign_up(friend, server, "dedi_e2e")
    host.goto(f"{server.url}/en/friends?q=dedi_e2e")
    host.get_by_role("button", name="Add friend dedi_e2e").click()
    friend.goto(f"{server.url}/en/friends")
    friend.get_by_role("button", name="Accept cici_e2e").click()
    expect(row(friend, "cici_e2e")).to_be_visible()
    shot(friend, "friends-list")
    other_tab = friend_side.new_page()
    other_tab.goto(f"{server.url}/en/about")
    friend.goto(f"{server.url}/en/")

    host.goto(f"{server.url}/en/room/")
    host.get_by_role("button", name="Kowah").click()
    host.get_by_role("button", name="Invite dedi_e2e").click()
    shot(host, "room-invite")
    expect(friend.locator(".toast")).to_contain_text("cici_e2e invites you to a Kowah match")
    expect(other_tab.locator(".toast")).to_have_count(1)
    shot(friend, "invite-toast")
    friend.locator(".toast").get_by_role("button", name="Dismiss").click()
    expect(friend.locator(".toast")).to_have_count(0)
    expect(other_tab.locator(".toast")).to_have_count(0)
    host_side.close()
    friend_side.close()
