"""A practice table's hint on a phone: Chromium at 360x640, through the UI only (#19)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import BrowserContext, expect

from tests.conftest import STILL_BOTS, LiveServer
from tests.e2e.conftest import inside_phone_width
from tests.e2e.test_tables import start, wait_for_my_turn

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def still(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """Bots that wait ten minutes: seat 0 (yours) starts this Koi-Koi deal (seed 5)."""
    instance = tmp_path_factory.mktemp("hints") / "instance"
    with LiveServer(instance, {**STILL_BOTS, "LAPAU_TABLE_SEED": "5"}) as server:
        yield server


def test_a_hint_arrives_over_the_socket_on_a_phone(
    phone: BrowserContext, still: LiveServer
) -> None:
    page = phone.new_page()
    start(page, still, "koikoi", "rounds", "3")
    wait_for_my_turn(page)
    button = page.locator("#hint-button")
    expect(button).to_be_visible()
    version = page.locator("#version").input_value()
    button.tap()
    hint = page.locator("#hint p")
    expect(hint).to_contain_text("Hint:", timeout=15000)
    text = hint.inner_text()
    # The move it names is one of the hand's cards, with a reason after it.
    assert text.startswith("Hint: Play ") and ": " in text.removeprefix("Hint: ")
    inside_phone_width(hint)
    assert page.locator("#version").input_value() == version  # not a move
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
