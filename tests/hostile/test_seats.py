"""A player acts only for their own seat and sees only what their seat may see.

Through every URL (the table page, its move form, its replay, the socket's handshake and
messages), with any query string, as the seated guest, as another guest, and as nobody:
no response names a card the engine hides from that viewer, and nobody but the seated
guest can move for the seat.
"""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.error import HTTPError
from urllib.parse import urlencode

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.conftest import LiveServer
from tests.hostile.conftest import fuzz, open_table, to_seat
from tests.hostile.strategies import texts
from tests.play.client import Guest, csrf_token, stored_moves
from tests.play.conftest import ManualClock
from tests.play.test_leaks import mentions
from webapp import adapters
from webapp.game import registry
from webapp.game.replay import replay
from webapp.play.hub import Hub, TableSession
from webapp.services import Lapau

PARAMS = ["seat", "player", "notice", "step", "v", "a", "lang", "table", "hand", "debug"]


#: A full page defines a symbol for every card of the deck (the same on every page);
#: a card shows only where a symbol is used.
DEFINITIONS = re.compile(r"<symbol .*?</symbol>", re.S)
#: The sign-in link and the settings form bring the reader back to the URL they asked
#: for, query and all: a query that names a card (Hypothesis draws the source's own
#: strings, card ids among them) is the asker's own words echoed, not a card shown.
COME_BACK = re.compile(r'(?:[?&]next=|name="next" value=")[^"]*')


def leaked(html: str, session: TableSession, state: Any, seat: int | None) -> list[str]:
    html = COME_BACK.sub("", DEFINITIONS.sub("", html))
    hidden = session.game.hidden_cards(state, seat)
    return sorted(card for card in hidden if mentions(html, session.game.name, card))


@pytest.fixture
def koa(app: Lapau, hub: Hub, clock: ManualClock) -> TableSession:
    session = open_table(hub, "koa", seed=5, player="g-owner")
    to_seat(clock, session)
    return session


@fuzz()
@given(
    viewer=st.sampled_from(["g-owner", "g-other", None]),
    lang=st.sampled_from(["id", "en", "nl"]),
    suffix=st.sampled_from(["", "/replay", "/act", "/", "/../replay"]),
    query=st.lists(st.tuples(st.sampled_from(PARAMS), texts | st.integers(-3, 9).map(str))),
)
def test_no_url_shows_a_card_its_viewer_may_not_see(
    app: Lapau, koa: TableSession, viewer: str | None, lang: str, suffix: str, query: Any
) -> None:
    client = app.test_client()
    if viewer:
        with client.session_transaction() as cookie:
            cookie["player"] = viewer
    before = (koa.state, list(koa.log))
    response = client.get(f"/{lang}/table/{koa.id}{suffix}", query_string=query)
    assert response.status_code < 500
    seat = 0 if viewer == "g-owner" else None
    assert not leaked(response.get_data(as_text=True), koa, koa.state, seat)
    assert (koa.state, list(koa.log)) == before


def test_a_card_named_in_the_query_is_only_echoed_where_the_reader_comes_back(
    app: Lapau, koa: TableSession
) -> None:
    """The example Hypothesis found on a clean clone: ``?seat=myriads-2`` (the picture of
    bengkok-halus) comes back in the sign-in link's and the settings form's ``next``, and
    nowhere else."""
    hidden = koa.game.hidden_cards(koa.state, 0)
    card = sorted(hidden)[0]
    art = adapters.card("koa", card).art
    client = app.test_client()
    with client.session_transaction() as cookie:
        cookie["player"] = "g-owner"
    html = client.get(f"/id/table/{koa.id}", query_string={"seat": art}).get_data(as_text=True)
    assert f"next=/id/table/{koa.id}?seat%3D{art}" in html
    assert f'name="next" value="/id/table/{koa.id}?seat={art}"' in html
    assert not leaked(html, koa, koa.state, 0)


def test_only_the_seated_guest_can_post_a_move(app: Lapau, koa: TableSession) -> None:
    move = str(koa.game.legal_actions(koa.state)[0])
    before = (koa.state, list(koa.log))
    for viewer in ("g-other", None):
        client = app.test_client()
        if viewer:
            with client.session_transaction() as cookie:
                cookie["player"] = viewer
        response = client.post(f"/en/table/{koa.id}/act", data={"a": move, "v": koa.version})
        assert response.status_code == 403
    assert (koa.state, list(koa.log)) == before


# Against the real server -------------------------------------------------------------


def state_of(server: LiveServer, table_id: str, game: str, log: list[str]) -> Any:
    [(seed, options)] = server.query(
        "SELECT seed, options FROM play_table WHERE id = :table", table=table_id
    )
    return replay(registry.get(game), seed, json.loads(options), log)


@pytest.mark.live
@pytest.mark.parametrize("game", ["koa", "kowah", "koikoi"])
def test_another_guest_can_neither_move_nor_see_the_hand(frozen: LiveServer, game: str) -> None:
    owner, stranger = Guest(frozen), Guest(frozen)
    form = {"koa": {"mode": "quick"}, "kowah": {"players": "4"}, "koikoi": {"rounds": "3"}}
    table_id = owner.open_table(game, **form[game])
    own_id = stranger.open_table("koikoi", rounds="3")  # the stranger's own table
    log = stored_moves(frozen, table_id)
    engine = registry.get(game)
    state = state_of(frozen, table_id, game, log)
    hidden = engine.hidden_cards(state, None)
    theirs = stranger.connect(table_id)
    for html in (theirs.received[0], stranger.page(f"/en/table/{table_id}")):
        html = DEFINITIONS.sub("", html)
        assert hidden and not [card for card in hidden if mentions(html, game, card)]
    move = str(engine.legal_actions(state)[0])
    theirs.move(move, len(log))
    assert "only the players can move" in theirs.receive_until('id="notice"')
    theirs.close()
    token = csrf_token(stranger.page(f"/en/table/{own_id}"))
    data = urlencode({"a": move, "v": len(log), "csrf_token": token}).encode()
    with pytest.raises(HTTPError) as refused:
        stranger.opener.open(f"{frozen.url}/en/table/{table_id}/act", data=data)
    assert refused.value.code == 403
    refused.value.close()
    assert stored_moves(frozen, table_id) == log
