"""The table on a phone: Chromium at 360x640 with touch, through the UI only."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Locator, Page, expect

from tests.conftest import QUICK_BOTS, STILL_BOTS, LiveServer
from tests.e2e.test_tables import make_a_move, start

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def still(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    instance = tmp_path_factory.mktemp("phone") / "instance"
    with LiveServer(instance, {**STILL_BOTS, "LAPAU_TABLE_SEED": "5"}) as server:
        yield server


@pytest.fixture(scope="module")
def quick(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    instance = tmp_path_factory.mktemp("phone-quick") / "instance"
    with LiveServer(instance, {**QUICK_BOTS, "LAPAU_TABLE_SEED": "5"}) as server:
        yield server


@pytest.fixture
def phone(browser: Browser) -> Iterator[BrowserContext]:
    context = browser.new_context(
        viewport={"width": 360, "height": 640}, has_touch=True, is_mobile=True
    )
    yield context
    context.close()


def socket_rendered(page: Page) -> None:
    """Wait for the socket's first render: it replaces the page's forms with ones that
    carry no CSRF token (until then a box may be measured just as it is swapped)."""
    page.wait_for_function("() => !document.querySelector('#hand input[name=csrf_token]')")


def box(locator: Locator) -> dict[str, float]:
    expect(locator).to_be_visible()
    found = locator.bounding_box()
    assert found is not None, "not drawn"
    return found


def centre_x(locator: Locator) -> float:
    found = box(locator)
    return found["x"] + found["width"] / 2


def test_koa_draws_the_player_on_your_left_on_the_left(
    phone: BrowserContext, still: LiveServer
) -> None:
    page = phone.new_page()
    start(page, still, "koa", "mode", "quick")
    socket_rendered(page)
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


LITE = {"name": "display", "value": "50-50-50-1"}  # the display cookie with lite cards on
GAMES = [("koa", "mode", "quick"), ("kowah", "players", "3"), ("koikoi", "rounds", "3")]
#: Every card drawn on the table as a picture: an SVG (a table card) or an image.
PICTURES = ".table svg, .table img"


@pytest.mark.parametrize(("game", "option", "value"), GAMES)
def test_lite_cards_reach_the_table_and_its_captured_piles(
    phone: BrowserContext, quick: LiveServer, game: str, option: str, value: str
) -> None:
    phone.add_cookies([{**LITE, "url": quick.url}])
    page = phone.new_page()
    start(page, quick, game, option, value)
    socket_rendered(page)
    expect(page.locator("#hand .lite").first).to_be_visible()  # the socket's render too
    for _ in range(40):  # a few moves, so captured piles fill and fragments arrive
        if make_a_move(page) and page.locator(".pile .lite").count() >= 2:
            break
        page.wait_for_timeout(50)
    assert page.locator(PICTURES).count() == 0
    assert page.locator(".table .lite").count() > 10
    if game == "koikoi":
        captured = page.locator(".pile .cards > *").all()
        assert len(captured) >= 2
        for card in captured:
            found = box(card)
            assert found["width"] > 10 and found["height"] > 10
            assert card.inner_text().strip()
