"""Signed-in pages stay within the budgets (tests/test_budgets.py): the friends page, and
any page with the friends socket, its script and the invite toast's styles."""

from __future__ import annotations

import gzip
from collections.abc import Iterator

import pytest

from tests.conftest import LiveServer
from tests.social.member import Member
from tests.test_budgets import FIRST_LOAD_BUDGET, HTML_BUDGET, fetch, subresources

pytestmark = pytest.mark.live


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    instance = tmp_path_factory.mktemp("social-budget") / "instance"
    with LiveServer(instance, {"LAPAU_PROXIES": "1"}) as live:
        yield live


@pytest.fixture(scope="module")
def member(server: LiveServer) -> Member:
    """Someone with a few friends, a request waiting, and one sent."""
    me = Member(server, "budget_me")
    for n in range(6):
        friend = Member(server, f"budget_f{n}")
        friend.ask(me.username)
        if n < 5:
            me.ask(friend.username)
    me.ask(Member(server, "budget_out").username)
    return me


@pytest.mark.parametrize("path", ["/en/friends", "/id/friends?q=budget", "/nl/", "/en/rules/koa"])
def test_signed_in_pages_fit_the_budget(server: LiveServer, member: Member, path: str) -> None:
    cookie = {"Cookie": member.cookie_header()}
    response = fetch(server.url + path, headers=cookie)
    assert response.status == 200
    body = response.body
    assert len(body) <= HTML_BUDGET, f"{path}: {len(body)} bytes compressed"
    html = gzip.decompress(body).decode()
    assert 'ws-connect="/ws/me?' in html
    total = len(body)
    for url in subresources(html):
        total += len(fetch(server.url + url).body)
    assert total <= FIRST_LOAD_BUDGET, f"{path}: first load {total} bytes"


def test_a_guest_page_loads_no_script_for_friends(server: LiveServer) -> None:
    html = gzip.decompress(fetch(server.url + "/en/").body).decode()
    assert "htmx" not in html and "/ws/me" not in html and "social" not in html
