"""Play with friends in real browsers: four people, one Koa room, a whole match.

Four browser contexts (four phones at 360x640) against the real server: the host signs
up and creates a Koa room, three friends sign up and join it by its code, one moves
seats, everyone says ready, the host starts, and the four play a Quick match to the
end by tapping the table.  A seeded deal (``LAPAU_TABLE_SEED``) keeps it short.  The
match is rated: both mandan of a team move by the team's change.
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Iterator
from contextlib import closing

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.conftest import QUICK_BOTS, LiveServer
from tests.e2e.test_auth import SMALL_TARGETS, fits
from tests.e2e.test_tables import play_together_to_the_end
from webapp.game import registry
from webapp.game.replay import replay
from webapp.ranking import elo

pytestmark = pytest.mark.e2e

#: Tap targets under 44 px on the room's own part of the page.
SMALL_IN_ROOM = SMALL_TARGETS.replace("document.", "document.getElementById('room').")
PASSWORD = "kopi susu di lapau"
NAMES = ["rina_host", "budi", "sari", "tono"]


@pytest.fixture(scope="module")
def friends(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    instance = tmp_path_factory.mktemp("friends") / "instance"
    # With this deal the first tappable move of each turn wins in 69 moves.
    with LiveServer(instance, {**QUICK_BOTS, "LAPAU_TABLE_SEED": "184"}) as server:
        yield server


@pytest.fixture
def phones(browser: Browser) -> Iterator[list[Page]]:
    contexts: list[BrowserContext] = [
        browser.new_context(viewport={"width": 360, "height": 640}) for _ in NAMES
    ]
    yield [context.new_page() for context in contexts]
    for context in contexts:
        context.close()


def sign_up(page: Page, server: LiveServer, username: str) -> None:
    page.goto(f"{server.url}/en/sign-up")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Create account").click()
    expect(page.get_by_role("link", name="Your account")).to_be_visible()


def open_koa_room(host: Page, server: LiveServer) -> str:
    """The host opens a Koa room from the play page; its code."""
    host.goto(f"{server.url}/en/play/")
    host.get_by_role("link", name="Play with friends").click()
    host.get_by_role("button", name="Koa").click()
    expect(host).to_have_url(re.compile(r"/en/room/[A-Z2-9]{6}$"))
    return host.url.rsplit("/", 1)[1]


def join_room(page: Page, server: LiveServer, code: str) -> None:
    """Join a Koa room by typing its code on Koa's setup page."""
    page.goto(f"{server.url}/en/play/koa")
    page.get_by_label("Room code").fill(code.lower())
    page.get_by_role("button", name="Join", exact=True).click()
    expect(page).to_have_url(f"{server.url}/en/room/{code}")


def test_four_friends_play_a_koa_room_to_the_end(phones: list[Page], friends: LiveServer) -> None:
    host, *others = phones
    for page, name in zip(phones, NAMES, strict=True):
        sign_up(page, friends, name)

    # The host opens a Koa room from the play page.
    code = open_koa_room(host, friends)
    expect(host.locator(".seat.mine")).to_contain_text("You")
    assert fits(host)

    # Three friends join by typing the code on Koa's setup page.
    for page in others:
        join_room(page, friends, code)
    expect(host.locator(".seat:not(.empty)")).to_have_count(4)
    expect(host.locator(".seat .dot.here")).to_have_count(4)

    # A full room: nobody can move onto a person's seat.
    expect(others[-1].locator(".seat button", has_text="Sit here")).to_have_count(0)

    # Everyone says ready; the host sees it live and starts.
    for page in others:
        page.get_by_role("button", name="Ready", exact=True).click()
        expect(page.get_by_role("button", name="Not ready")).to_be_visible()
    expect(host.locator(".main-act")).to_contain_text("Everyone is ready.")
    assert fits(host) and host.evaluate(SMALL_IN_ROOM) == []
    host.get_by_role("button", name="Start").click()
    for page in phones:
        expect(page).to_have_url(re.compile(r"/en/table/\w+$"), timeout=10000)
        expect(page.locator("#status")).to_be_visible()
    table_id = host.url.rsplit("/", 1)[1]

    # The four play the match to its end, each tapping their own table.
    play_together_to_the_end(phones)
    for page in phones:
        expect(page.locator("#status")).to_contain_text("Game over")
        assert fits(page)

    # The room's code has expired with its match.
    others[0].goto(f"{friends.url}/en/room/{code}")
    expect(others[0].locator("main")).to_contain_text("has closed")

    # Play again: the first to ask opens a new room with everyone in their seat.
    others[1].get_by_role("button", name="Play again with the same players").click()
    expect(others[1]).to_have_url(re.compile(r"/en/room/[A-Z2-9]{6}$"))
    assert others[1].url.rsplit("/", 1)[1] != code
    expect(others[1].locator(".seat:not(.empty)")).to_have_count(4)
    expect(others[1].locator(".tag.host")).to_have_count(1)

    # Rated by the team rule: both mandan move by their team's change.
    with closing(sqlite3.connect(friends.instance / "lapau.sqlite")) as db:
        (seats, seed) = db.execute(
            "SELECT seats, seed FROM play_table WHERE id = ?", (table_id,)
        ).fetchone()
        log = [
            t
            for (t,) in db.execute(
                "SELECT text FROM play_action WHERE table_id = ? ORDER BY seq", (table_id,)
            )
        ]
        ids = {name: uid for uid, name in db.execute("SELECT id, username FROM auth_user")}
        ratings = dict(db.execute("SELECT user_id, rating FROM ranking_rating WHERE game='koa'"))
    players = [seat["player"] for seat in json.loads(seats)]
    assert sorted(players) == sorted(f"u-{ids[name]}" for name in NAMES)
    koa = registry.get("koa")
    outcome = koa.outcome(replay(koa, seed, {"mode": "quick"}, tuple(log)))
    assert outcome is not None
    teams = koa.teams(4)
    winners = {i for i, team in enumerate(teams) if set(team) & set(outcome.winners)}
    deltas = elo.changes([[elo.Player()] * len(team) for team in teams], winners)
    for team, changes in zip(teams, deltas, strict=True):
        for seat, change in zip(team, changes, strict=True):
            account = int(players[seat][2:])
            assert ratings[account] == pytest.approx(elo.INITIAL + change)
    if winners:
        assert {round(r) for r in ratings.values()} == {1480, 1520}
