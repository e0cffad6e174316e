"""The Kowah declaration rides on the discard: on a phone, in each language, the table offers
the declaring discards as buttons, and a tap discards and declares in one move."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from tests.conftest import QUICK_BOTS, LiveServer
from tests.e2e.conftest import inside_phone_width

pytestmark = pytest.mark.e2e

#: In this deal the person (seat 0) plays first and draws old-thousand: discarding coins-9
#: leaves two triples and the old-thousand pair (found with the engine, tests/game).
SEED = "1765"
DECLARE = {"en": "Declare", "id": "Umumkan", "nl": "Checki roepen"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    instance = tmp_path_factory.mktemp("declare") / "instance"
    with LiveServer(instance, {**QUICK_BOTS, "LAPAU_TABLE_SEED": SEED}) as live:
        yield live


@pytest.mark.parametrize("lang", ["en", "id", "nl"])
def test_a_discard_that_leaves_checki_offers_discard_and_declare(
    page: Page, server: LiveServer, lang: str
) -> None:
    page.goto(f"{server.url}/{lang}/play/kowah")
    page.check("input[name=players][value='3']")
    page.check("input[name=level][value='easy']")
    page.click(".setup-form button")
    page.wait_for_url("**/table/**")
    page.locator("#prompt button[value=draw]").click()
    declare = page.locator("#prompt button[value='discard coins-9 declare old-thousand']")
    expect(declare).to_be_visible()
    expect(declare).to_contain_text(DECLARE[lang])
    box = inside_phone_width(declare)
    assert box["height"] >= 40, "a thumb must hit it"
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    # the plain discards stay on the hand
    expect(page.locator("#hand button[value='discard coins-9']")).to_be_visible()
    declare.click()
    expect(page.locator("#hand .badge")).to_have_text("checki")
    expect(page.locator("#prompt button[value^='discard']")).to_have_count(0)
