"""A page refused its socket (one player holds only so many, webapp/sockets.py) says why,
and gets its socket by itself once there is room again (webapp/static/js/live.js).

The cap is one socket here, so a second tab of the same table is one too many.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.conftest import STILL_BOTS, LiveServer
from tests.e2e.test_tables import start

pytestmark = pytest.mark.e2e


@pytest.mark.slow
def test_a_refused_page_says_why_and_connects_once_there_is_room(
    page: Page, tmp_path: Path
) -> None:
    with LiveServer(tmp_path / "instance", {**STILL_BOTS, "LAPAU_PLAYER_SOCKETS": "1"}) as server:
        start(page, server, "koikoi", "rounds", "3")
        second = page.context.new_page()
        opened: list[str] = []
        second.on("websocket", lambda ws: opened.append(ws.url))
        second.goto(page.url)
        notice = second.locator("#notice")
        expect(notice).to_contain_text("Lapau is open in too many tabs or windows here.")
        # Refused sockets are not retried at once (the extension would, every second).
        second.wait_for_timeout(3000)
        assert len(opened) == 1
        page.close()  # the first tab's socket goes with it
        # 10 to 20 s later the second page tries again, gets the table and the notice goes.
        expect(notice).to_be_empty(timeout=25000)
        assert len(opened) == 2
