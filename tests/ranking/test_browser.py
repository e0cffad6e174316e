"""The ranking pages in a real browser at 360x640: nothing scrolls sideways, the chart
draws, the tabs and rows are big enough to tap."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect
from sqlmodel import Session

from tests.ranking.conftest import human_seats
from webapp.auth.models import User
from webapp.db import make_engine
from webapp.game.koa.rules import Ending
from webapp.game.protocol import Outcome
from webapp.ranking import ratings

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="session")
def rated(live_server: Any) -> list[str]:
    """Players with rated tables in the live server's own database, made once per server
    (a module fixture is made again whenever a run splits the module between workers: the
    second time its names were already taken)."""
    engine = make_engine(f"sqlite:///{live_server.instance / 'lapau.sqlite'}")
    names = ["rk_rina_with_a_long", "rk_budi", "rk_sari", "rk_tono"]
    with Session(engine, expire_on_commit=False) as db:
        people = [User(username=name) for name in names]
        db.add_all(people)
        db.commit()
    for n in range(14):
        seats = human_seats(people)
        teams = ((0, 2), (1, 3))
        winners = (0, 2) if n % 4 else (1, 3)
        outcome = Outcome(winners, (0, 0, 0, 0), Ending.KOA)
        assert ratings.rate_table(engine, f"rkkoa{n}", "koa", seats, outcome, teams)
    engine.dispose()
    return names


def fits(page: Page) -> bool:
    return bool(page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth"))


def small_targets(page: Page, selector: str) -> list[str]:
    found: list[str] = page.evaluate(
        """(selector) => [...document.querySelectorAll(selector)]
            .filter(el => el.offsetParent !== null)
            .map(el => [el.textContent.trim(), el.getBoundingClientRect()])
            .filter(([_, r]) => r.height < 44 || r.width < 44)
            .map(([text]) => text)""",
        selector,
    )
    return found


@pytest.mark.parametrize("lang", ["id", "en", "nl"])
def test_the_leaderboard_fits_a_small_phone(
    page: Page, live_server: Any, rated: list[str], lang: str
) -> None:
    page.goto(f"{live_server.url}/{lang}/ranking/koa")
    expect(page.locator(".board tbody tr").first).to_be_visible()
    assert fits(page)
    assert small_targets(page, ".game-tabs a, .board a") == []
    page.locator(".game-tabs a").nth(2).click()
    expect(page).to_have_url(f"{live_server.url}/{lang}/ranking/koikoi")
    expect(page.locator(".empty")).to_be_visible()
    assert fits(page)


@pytest.mark.parametrize("lang", ["id", "en", "nl"])
def test_a_profile_draws_its_chart_on_a_small_phone(
    page: Page, live_server: Any, rated: list[str], lang: str
) -> None:
    page.goto(f"{live_server.url}/{lang}/player/{rated[0]}")
    chart = page.locator(".chart svg")
    expect(chart).to_have_count(1)
    box = chart.bounding_box()
    assert box is not None and 250 < box["width"] <= 330 and box["height"] > 100
    line = page.locator(".chart polyline")
    assert line.evaluate("el => getComputedStyle(el).stroke") != "none"
    assert fits(page)


@pytest.mark.parametrize("lang", ["id", "en", "nl"])
def test_the_pairs_board_and_a_profiles_pairs_fit_a_small_phone(
    page: Page, live_server: Any, rated: list[str], lang: str
) -> None:
    page.goto(f"{live_server.url}/{lang}/ranking/koa")
    page.locator(".board-tabs a").nth(1).click()
    expect(page).to_have_url(f"{live_server.url}/{lang}/ranking/koa/pairs")
    expect(page.locator(".board tbody tr")).to_have_count(2)
    assert fits(page)
    assert small_targets(page, ".board-tabs a, .board a") == []
    page.goto(f"{live_server.url}/{lang}/player/{rated[0]}")
    expect(page.locator(".partners li")).to_have_count(1)
    assert fits(page)
    assert small_targets(page, ".partners a, .to-pairs a") == []
