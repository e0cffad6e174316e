"""The settings page's preview (#17): what the choices look like before "Apply", live as the
sliders move (settings.js and site.css's colour mixing), or after "Preview" without scripts
(the server's own colours); nothing is kept until "Apply"."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Locator, Page, expect

from webapp.display import RGB, Display

pytestmark = pytest.mark.e2e

#: Slider positions to try: the ends and a few between (contrast, grain, temperature).
CHOICES = [(0, 100, 100), (100, 0, 0), (35, 60, 80), (50, 50, 50)]


def colour(locator: Locator, prop: str) -> RGB:
    """A computed colour as sRGB 0-255, from either form Chromium writes it in."""
    text = str(locator.evaluate(f"e => getComputedStyle(e).{prop}"))
    scale = 255.0 if text.startswith("color(srgb") else 1.0
    r, g, b = (float(v) * scale for v in re.findall(r"[\d.]+", text)[:3])
    return (r, g, b)


def close(seen: RGB, expected: RGB) -> bool:
    """Equal but for rounding (the server rounds to whole channels, CSS does not)."""
    return all(abs(a - b) <= 1.01 for a, b in zip(seen, expected, strict=True))


def assert_preview_shows(page: Page, chosen: Display) -> None:
    preview = page.locator("#preview")
    assert close(colour(preview, "backgroundColor"), chosen.paper), chosen
    assert close(colour(preview.locator("p").first, "color"), chosen.ink), chosen
    assert close(colour(preview.locator(".muted").first, "color"), chosen.muted), chosen
    grain = float(
        page.evaluate("getComputedStyle(document.querySelector('#preview'), '::before').opacity")
    )
    assert abs(grain - chosen.grain / 100 * 0.22) < 0.002


def choose(page: Page, contrast: int, grain: int, temperature: int) -> Display:
    for name, value in (("contrast", contrast), ("grain", grain), ("temperature", temperature)):
        page.locator(f"#set-{name}").fill(str(value))
    return Display(contrast, grain, temperature)


def saved_cookie(context: BrowserContext) -> list[str]:
    return [c["value"] for c in context.cookies() if c["name"] == "display"]


def test_the_preview_follows_the_sliders_before_apply(page: Page, live_server: Any) -> None:
    page.goto(f"{live_server.url}/en/settings")
    expect(page.get_by_role("button", name="Preview")).to_be_hidden()  # live: no need
    assert_preview_shows(page, Display())
    for contrast, grain, temperature in CHOICES:
        assert_preview_shows(page, choose(page, contrast, grain, temperature))
    # The page itself keeps the settings it has until "Apply".
    body = colour(page.locator("body"), "backgroundColor")
    assert close(body, Display().paper)
    assert saved_cookie(page.context) == []
    art, lite = page.locator("#preview .sample-art"), page.locator("#preview .sample-lite")
    expect(art).to_be_visible()
    expect(lite).to_be_hidden()
    page.locator("#set-lite-cards").check()
    expect(art).to_be_hidden()
    expect(lite).to_be_visible()
    expect(lite).to_contain_text("Coins 5")


@pytest.fixture
def no_scripts(browser: Browser) -> Iterator[BrowserContext]:
    context = browser.new_context(viewport={"width": 360, "height": 640}, java_script_enabled=False)
    yield context
    context.close()


def test_without_scripts_preview_shows_the_choices_and_apply_keeps_them(
    no_scripts: BrowserContext, live_server: Any
) -> None:
    page = no_scripts.new_page()
    page.goto(f"{live_server.url}/en/settings")
    chosen = choose(page, 20, 0, 90)
    page.locator("#set-lite-cards").check()
    page.get_by_role("button", name="Preview").click()
    expect(page.locator("h1")).to_have_text("Settings")
    assert_preview_shows(page, chosen)
    expect(page.locator("#set-contrast")).to_have_value("20")  # the form keeps the choices
    expect(page.locator("#set-lite-cards")).to_be_checked()
    expect(page.locator("#preview .sample-lite")).to_be_visible()
    assert saved_cookie(no_scripts) == []  # a preview keeps nothing
    assert close(colour(page.locator("body"), "backgroundColor"), Display().paper)
    page.get_by_role("button", name="Apply").click()
    assert saved_cookie(no_scripts) == [Display(20, 0, 90, lite_cards=True).to_cookie()]
    assert close(colour(page.locator("body"), "backgroundColor"), chosen.paper)


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "Pages read like this."),
        ("id", "Halaman terbaca seperti ini."),
        ("nl", "Zo lezen de pagina's."),
    ],
)
def test_the_preview_speaks_the_readers_language(
    page: Page, live_server: Any, lang: str, said: str
) -> None:
    page.goto(f"{live_server.url}/{lang}/settings")
    expect(page.locator("#preview")).to_contain_text(said)
