"""Draw the installed app's PNG icons from the site's mark, ``webapp/static/img/icon.svg``.

``python -m scripts.icons`` writes, next to the mark:

- ``icon-192.png``: the mark as it is, for launchers and install prompts;
- ``icon-maskable-192.png``: the mark's red filling the whole square and its cards in the
  middle 80%, which any mask shape (circle, squircle) leaves whole.

Chromium draws them (Debian's, as the end-to-end tests use); the manifest lists them
(webapp/offline.py).  Run it again whenever the mark changes.
"""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import sync_playwright

from webapp.offline import THEME_COLOUR

IMG = Path(__file__).resolve().parent.parent / "webapp" / "static" / "img"
CHROMIUM = "/usr/bin/chromium-headless-shell"


def mark() -> str:
    """The mark's drawing: the inside of its ``<g id="mark">``."""
    source = (IMG / "icon.svg").read_text()
    found = re.search(r'<g id="mark">(.*)</g>', source, re.S)
    if found is None:
        raise SystemExit('icon.svg has no <g id="mark">')
    return found.group(1)


def square(size: int, drawing: str) -> str:
    svg = 'xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"'
    return f'<svg {svg} width="{size}" height="{size}">{drawing}</svg>'


def plain(size: int) -> str:
    return square(size, mark())


def maskable(size: int) -> str:
    return square(
        size,
        f'<rect width="32" height="32" fill="{THEME_COLOUR}"/>'
        f'<g transform="translate(16 16) scale(.8) translate(-16 -16)">{mark()}</g>',
    )


def main() -> None:
    icons = {"icon-192.png": plain(192), "icon-maskable-192.png": maskable(192)}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_page()
        for name, svg in icons.items():
            page.set_content(f'<body style="margin:0">{svg}</body>')
            page.locator("svg").screenshot(path=str(IMG / name), omit_background=True)
            print(name, (IMG / name).stat().st_size, "bytes")
        browser.close()


if __name__ == "__main__":
    main()
