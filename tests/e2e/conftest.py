"""What the browser tests share: a phone's browser context, and measuring what it draws."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, FloatRect, Locator, expect


@pytest.fixture
def phone(browser: Browser) -> Iterator[BrowserContext]:
    """Chromium as a phone: 360x640, touch, a mobile viewport."""
    context = browser.new_context(
        viewport={"width": 360, "height": 640}, has_touch=True, is_mobile=True
    )
    yield context
    context.close()


def drawn(locator: Locator, timeout: float = 5.0) -> FloatRect:
    """Where ``locator``'s element is drawn, once it is: a live update may replace the
    element between a check that it is visible and the measurement (Playwright then has
    no box for it), so both are tried again together until ``timeout``."""
    deadline = time.monotonic() + timeout
    while True:
        expect(locator).to_be_visible()
        found = locator.bounding_box()
        if found is not None:
            return found
        assert time.monotonic() < deadline, "not drawn"
        locator.page.wait_for_timeout(50)


def inside_phone_width(locator: Locator) -> FloatRect:
    """``locator``'s box, asserted to lie across the 360-pixel width of the phone."""
    box = drawn(locator)
    assert box["x"] >= 0 and box["x"] + box["width"] <= 360, box
    return box
