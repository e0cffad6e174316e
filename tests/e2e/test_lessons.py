"""Guided first games (#20) on a phone: Chromium at 360x640 with touch, the real server and
the lesson's real bots.  Each lesson is played to its end by doing what the coach says, in a
language of its own, and one wrong tap is answered with the coach's explanation while the
table stays as it was.  Screenshots of the coach are kept in ``$LAPAU_SHOTS`` if set."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from flask_babel import force_locale
from playwright.sync_api import BrowserContext, Page, expect

from tests.conftest import QUICK_BOTS, LiveServer, close_app
from tests.e2e.conftest import inside_phone_width
from tests.e2e.test_tables import wait_for_my_turn
from webapp import adapters, create_app
from webapp.config import TestConfig

pytestmark = pytest.mark.e2e

#: Each game in its own language, and the step at which the test first taps a wrong card
#: (the wrong card's action).
PLAYS = [
    ("koa", "id", 3, "throw pacah-lapan"),
    ("kowah", "nl", 1, "discard old-thousand"),
    ("koikoi", "en", 1, "take mar-plain-1"),
]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    instance = tmp_path_factory.mktemp("lessons") / "instance"
    with LiveServer(instance, QUICK_BOTS) as live:
        yield live


Words = Callable[[str, object], str]


@pytest.fixture(scope="module")
def words(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Words]:
    """The coach's words as the page in a language says them."""
    app = create_app(TestConfig(str(tmp_path_factory.mktemp("words"))))

    def said(lang: str, text: object) -> str:
        with app.test_request_context(f"/{lang}/"), force_locale(lang):
            return str(text)

    yield said
    close_app(app)


def shoot(page: Page, name: str) -> None:
    folder = os.environ.get("LAPAU_SHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{name}.png"))


@pytest.mark.parametrize(("game", "lang", "wrong_at", "wrong"), PLAYS)
def test_a_guided_game_played_by_following_the_coach(
    phone: BrowserContext,
    server: LiveServer,
    words: Words,
    game: str,
    lang: str,
    wrong_at: int,
    wrong: str,
) -> None:
    lesson = adapters.get(game).lesson
    assert lesson is not None
    page = phone.new_page()
    page.goto(f"{server.url}/{lang}/rules/{game}")
    link = page.locator(f'a[href="/{lang}/learn/{game}"]')
    link.scroll_into_view_if_needed()
    shoot(page, f"{game}-{lang}-rules-link")
    link.tap()
    expect(page.locator("main")).to_contain_text(words(lang, lesson.intro))
    shoot(page, f"{game}-{lang}-learn")
    page.locator("main form button").tap()
    page.wait_for_url("**/table/**")
    coach = page.locator("#coach")
    for index, step in enumerate(lesson.steps):
        wait_for_my_turn(page)
        expect(coach).to_contain_text(words(lang, step.say))
        if index == wrong_at:
            before = page.locator("#version").input_value()
            # A card the rules refuse is dimmed (aria-disabled) but a finger can still tap it.
            page.locator(f'button[value="{wrong}"]').first.tap(force=True)
            notice = page.locator("#notice")
            expect(notice).to_contain_text(words(lang, step.wrong))
            shoot(page, f"{game}-{lang}-wrong")
            expect(page.locator("#version")).to_have_value(before)
            expect(coach).to_contain_text(words(lang, step.say))
        shoot(page, f"{game}-{lang}-step{index}")
        move = page.locator(f'button[value="{step.move}"]').first
        inside_phone_width(move)
        move.tap()
    expect(page.locator(".match-over")).to_be_visible()
    expect(coach).to_contain_text(words(lang, lesson.end))
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    shoot(page, f"{game}-{lang}-end")
