"""The table pages within the page budgets, measured over the real server's responses."""

from __future__ import annotations

import gzip
import http.cookiejar
import urllib.parse
import urllib.request

import pytest

from tests.conftest import LiveServer
from tests.play.client import csrf_token
from tests.test_budgets import FIRST_LOAD_BUDGET, HTML_BUDGET, fetch, subresources

SETUPS = [("koa", "mode", "full"), ("kowah", "players", "4"), ("koikoi", "rounds", "12")]


def first_load(server: LiveServer, path: str, cookie: str = "") -> tuple[int, int]:
    """(compressed HTML bytes, compressed bytes of the whole first load)."""
    page = fetch(server.url + path, headers={"Cookie": cookie} if cookie else None)
    assert page.status == 200, path
    html = gzip.decompress(page.body).decode()
    total = len(page.body)
    for url in subresources(html):
        assert url.startswith("/static/"), url
        total += len(fetch(server.url + url).body)
    return len(page.body), total


@pytest.mark.parametrize(("game", "option", "value"), SETUPS)
def test_setup_and_table_pages_fit_the_budgets(
    live_server: LiveServer, game: str, option: str, value: str
) -> None:
    html, total = first_load(live_server, f"/id/play/{game}")
    assert html <= HTML_BUDGET and total <= FIRST_LOAD_BUDGET, (html, total)

    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    with opener.open(f"{live_server.url}/id/play/{game}") as response:
        token = csrf_token(response.read().decode())
    form = urllib.parse.urlencode({option: value, "level": "hard", "csrf_token": token}).encode()
    with opener.open(f"{live_server.url}/id/play/{game}", data=form) as response:
        table_path = urllib.parse.urlsplit(response.url).path
    cookie = "; ".join(f"{c.name}={c.value}" for c in jar)
    html, total = first_load(live_server, table_path, cookie)
    assert html <= HTML_BUDGET, f"{game} table page: {html} bytes compressed"
    assert total <= FIRST_LOAD_BUDGET, f"{game} table first load: {total} bytes"
