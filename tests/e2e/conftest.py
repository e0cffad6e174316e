"""What the browser tests share: a phone's browser context."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext


@pytest.fixture
def phone(browser: Browser) -> Iterator[BrowserContext]:
    """Chromium as a phone: 360x640, touch, a mobile viewport."""
    context = browser.new_context(
        viewport={"width": 360, "height": 640}, has_touch=True, is_mobile=True
    )
    yield context
    context.close()
