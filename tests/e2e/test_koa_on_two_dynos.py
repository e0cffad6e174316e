"""Two servers, one site (issue 18): four browsers, two on each, play one Koa room to the end.

Two gunicorn servers on two ports (two dynos) share one PostgreSQL and one Redis.  The
host and a friend use the first, two friends the second.  The room opens its table on
the host's server, which owns it; the moves tapped on the second are forwarded to it,
and every browser's screen follows the same moves in the same order.  The match is rated
once.  A seeded deal (``LAPAU_TABLE_SEED``, as tests/e2e/test_rooms.py) keeps it short.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.conftest import QUICK_BOTS, LiveServer
from tests.dynos import two_dynos
from tests.e2e.test_rooms import NAMES, join_room, open_koa_room, sign_up
from tests.e2e.test_tables import play_together_to_the_end
from tests.postgres import Cluster
from tests.redis import RedisServer

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


@pytest.fixture
def servers(
    tmp_path: Path, postgres: Cluster, redis_server: RedisServer
) -> Iterator[tuple[LiveServer, LiveServer]]:
    env = {**QUICK_BOTS, "LAPAU_TABLE_SEED": "184"}
    with two_dynos(tmp_path, postgres, redis_server, "koa_two_dynos", env) as pair:
        yield pair


@pytest.fixture
def browsers(browser: Browser) -> Iterator[list[Page]]:
    contexts = [browser.new_context(viewport={"width": 360, "height": 640}) for _ in NAMES]
    yield [context.new_page() for context in contexts]
    for context in contexts:
        context.close()


def test_four_browsers_on_two_servers_play_a_koa_room_to_the_end(
    browsers: list[Page], servers: tuple[LiveServer, LiveServer]
) -> None:
    first, second = servers
    server_of = [first, first, second, second]
    host, *others = browsers
    for page, name, server in zip(browsers, NAMES, server_of, strict=True):
        sign_up(page, server, name)

    code = open_koa_room(host, first)
    for page, server in zip(others, server_of[1:], strict=True):
        join_room(page, server, code)
    expect(host.locator(".seat:not(.empty)")).to_have_count(4)
    for page in others:
        page.get_by_role("button", name="Ready", exact=True).click()
    expect(host.locator(".main-act")).to_contain_text("Everyone is ready.")
    host.get_by_role("button", name="Start").click()
    for page in browsers:
        expect(page).to_have_url(re.compile(r"/en/table/\w+$"), timeout=10000)
    table_id = host.url.rsplit("/", 1)[1]

    play_together_to_the_end(browsers)
    moves = first.query("SELECT COUNT(*) FROM play_action WHERE table_id = :t", t=table_id)
    for page in browsers:
        expect(page.locator("#status")).to_contain_text("Game over")
        expect(page.locator("#version")).to_have_value(str(moves[0][0]))

    # Rated once: one rated table, one result and one game for each of the four.
    rated = first.query("SELECT COUNT(*) FROM ranking_table WHERE table_id = :t", t=table_id)
    results = first.query("SELECT COUNT(*) FROM ranking_result WHERE table_id = :t", t=table_id)
    games = first.query("SELECT games FROM ranking_rating WHERE game = 'koa'")
    assert (rated, results, sorted(games)) == ([(1,)], [(4,)], [(1,)] * 4)
    for server in servers:
        log = server.log.read_text()
        assert "Traceback" not in log, log[log.find("Traceback") - 500 :][:3000]
