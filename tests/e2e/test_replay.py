"""Replays that teach (#17 finding 7), on a phone: each step in words in the reader's
language, every hand at that step (the match is over), your own hand in its place, step
arrows that fit one line at 360 px and are drawn on any font, and no "Play again" inside
the replay."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.conftest import QUICK_BOTS, LiveServer
from tests.e2e.test_tables import play_to_the_end, start

pytestmark = pytest.mark.e2e

#: A move as the log stores it ("throw hiu-panjang", "cabut"): never what a reader sees.
RAW_MOVE = re.compile(r"\b(throw|cabut|makan|next|timeout) ?[a-z-]*\d?\b")


@pytest.fixture(scope="module")
def played(browser: Browser, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Page]:
    """The phone that played a Koa match to its end, on the match's replay (English)."""
    instance = tmp_path_factory.mktemp("replay") / "instance"
    with LiveServer(instance, {**QUICK_BOTS, "LAPAU_TABLE_SEED": "5"}) as server:
        context = browser.new_context(viewport={"width": 360, "height": 640}, has_touch=True)
        page = context.new_page()
        start(page, server, "koa", "mode", "quick")
        play_to_the_end(page)
        page.get_by_role("link", name="Replay this match move by move").click()
        page.wait_for_url("**/replay")
        yield page
        context.close()


@pytest.fixture(scope="module")
def replay_url(played: Page) -> str:
    return played.url.split("?")[0]


def test_a_replay_step_reads_as_words_with_every_hand_and_arrows_on_one_line(
    browser: Browser, replay_url: str
) -> None:
    context = browser.new_context(viewport={"width": 360, "height": 640}, has_touch=True)
    page = context.new_page()
    page.goto(f"{replay_url}?step=2")
    words = page.locator(".replay-words")
    expect(words).to_contain_text(re.compile(r"\b(drew|ate|threw)\b"))
    assert not RAW_MOVE.search(words.inner_text()), words.inner_text()
    expect(page.locator("#status")).to_contain_text("Move 2 of")
    expect(page.locator("#status")).not_to_contain_text("Waiting")
    # Every hand at this step (four of them, eleven or twelve cards each).
    hands = page.locator(".replay-hands .revealed")
    expect(hands).to_have_count(4)
    for hand in hands.all():
        assert hand.locator(".c").count() >= 11
    # The four arrows on one line, drawn as SVG, each 44 px and named.
    arrows = page.locator(".replay-steps a")
    expect(arrows).to_have_count(4)
    tops = {round(box["y"]) for box in (a.bounding_box() for a in arrows.all()) if box}
    assert len(tops) == 1
    for arrow in arrows.all():
        assert arrow.locator("svg").count() == 1 and arrow.get_attribute("aria-label")
        found = arrow.bounding_box()
        assert found and found["width"] >= 44 and found["height"] >= 44
    assert page.evaluate("() => document.documentElement.scrollWidth <= innerWidth")

    # The last step shows the result, and no "Play again" inside the replay.
    arrows.last.tap()
    expect(page.locator(".match-over")).to_be_visible()
    expect(page.get_by_role("button", name=re.compile("Play again"))).to_have_count(0)

    # In Indonesian the step is in Indonesian, never the stored move.
    page.goto(f"{replay_url.replace('/en/', '/id/')}?step=2")
    indonesian = page.locator(".replay-words").inner_text()
    assert not RAW_MOVE.search(indonesian) and not re.search(r"\b(drew|ate|threw)\b", indonesian)
    context.close()


def test_the_player_sees_their_own_hand_in_its_place_and_it_plays_nothing(played: Page) -> None:
    played.goto(f"{played.url.split('?')[0]}?step=1")
    cards = played.locator("#hand button")
    assert cards.count() >= 11
    assert all(card.is_disabled() for card in cards.all())
