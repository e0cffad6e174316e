"""The room pages within the page budgets, measured over the real server's responses."""

from __future__ import annotations

import pytest

from tests.conftest import LiveServer
from tests.play.test_table_budgets import first_load
from tests.rooms.client import Friend
from tests.test_budgets import FIRST_LOAD_BUDGET, HTML_BUDGET


@pytest.mark.parametrize("game", ["koa", "kowah", "koikoi"])
def test_a_full_waiting_room_fits_the_budgets_for_host_friend_and_visitor(
    live_server: LiveServer, game: str
) -> None:
    host, friend, visitor = Friend(live_server), Friend(live_server), Friend(live_server)
    code = host.create_room(game, name="Rina")
    friend.join_room(code, name="Budi")
    host.post(f"/id/room/{code}/act", page=f"/id/room/{code}", a="fill")
    visitor.page("/id/room/")
    for who in (host, friend, visitor):
        html, total = first_load(live_server, f"/id/room/{code}", who.cookie_header())
        assert html <= HTML_BUDGET, f"{game} room: {html} bytes compressed"
        assert total <= FIRST_LOAD_BUDGET, f"{game} room first load: {total} bytes"
