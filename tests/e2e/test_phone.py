"""The table on a phone: Chromium at 360x640 with touch, through the UI only."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Locator, Page, expect

from tests.conftest import STILL_BOTS, LiveServer

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def still(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    instance = tmp_path_factory.mktemp("phone") / "instance"
    with LiveServer(instance, {**STILL_BOTS, "LAPAU_TABLE_SEED": "5"}) as server:
        yield server


@pytest.fixture
def phone(browser: Browser) -> Iterator[BrowserContext]:
    context = browser.new_context(
        viewport={"width": 360, "height": 640}, has_touch=True, is_mobile=True
    )
    yield context
    context.close()


def box(locator: Locator) -> dict[str, float]:
    found = locator.bounding_box()
    assert found is not None, "not drawn"
    return found


def centre_x(locator: Locator) -> float:
    found = box(locator)
    return found["x"] + found["width"] / 2


def open_practice(page: Page, server: LiveServer, game: str, option: str, value: str) -> None:
    page.goto(f"{server.url}/en/play/{game}")
    page.check(f"input[name={option}][value='{value}']")
    page.click(".setup-form button")
    page.wait_for_url("**/table/**")
    expect(page.locator("#status")).to_be_visible()


def test_koa_draws_the_player_on_your_left_on_the_left(
    phone: BrowserContext, still: LiveServer
) -> None:
    page = phone.new_page()
    open_practice(page, still, "koa", "mode", "quick")
    seats = [page.locator(f"#seat-{n}") for n in range(4)]
    me = next(n for n in range(4) if seats[n].count() == 0)
    left, across, right = seats[(me - 1) % 4], seats[(me + 2) % 4], seats[(me + 1) % 4]
    expect(left).to_contain_text("on your left")
    assert centre_x(left) < centre_x(across) < centre_x(right)
    assert box(page.locator("#hand"))["y"] > box(left)["y"]  # you sit at the bottom


def test_the_koa_waiting_room_draws_the_player_on_your_left_on_the_left(
    phone: BrowserContext, still: LiveServer
) -> None:
    page = phone.new_page()
    page.goto(f"{still.url}/en/room/")
    page.get_by_role("button", name="Koa").click()
    page.wait_for_url("**/room/*")
    mine = page.locator(".seat.mine")
    expect(mine).to_be_visible()
    # The host sits in seat 0; the empty seats offer "Sit here" with their number.
    left = page.locator(".seat:has(button[value='sit 3'])")
    across = page.locator(".seat:has(button[value='sit 2'])")
    right = page.locator(".seat:has(button[value='sit 1'])")
    assert centre_x(left) < centre_x(mine) < centre_x(right)
    assert box(across)["y"] < box(left)["y"] < box(mine)["y"]
