"""Hints (#19): on a practice table the expert's move for the asking seat, with a reason,
searched in the thinker's processes from that seat's view; never at a room's table."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from html import unescape

import pytest
from flask.testing import FlaskClient

from tests.play.conftest import ManualClock, Practice, Recorder
from tests.play.test_clock import open_practice
from tests.play.test_hub import advance_to_seat
from webapp.channels import Subscriber
from webapp.game.koa import GAME as KOA
from webapp.game.koa.sampling import sample
from webapp.game.search import Expert
from webapp.play.hub import HINT, Hub, Refusal
from webapp.play.thinker import Thinker
from webapp.services import Lapau

HINT_LINE = re.compile(r'<div id="hint" class="hint"[^>]*><p><b>Hint:</b> ([^<]+)</p>')


@pytest.fixture(scope="module")
def thinker() -> Iterator[Thinker]:
    """One worker with short clocks: these tests are about the plumbing, not strength.
    They share it, as a server's tables share its pool (a pool's start costs a second)."""
    shared = Thinker(workers=1, seconds=0.02, hint_seconds=0.05, grace=60)
    yield shared
    shared.close(wait=True)


@pytest.fixture
def quick_thinker(hub: Hub, thinker: Thinker) -> Iterator[Thinker]:
    original = hub.thinker
    hub.thinker = thinker
    yield thinker
    hub.thinker = original


@pytest.mark.parametrize(("game", "options"), [("koa", {"mode": "quick"}), ("kowah", {}),
                                                ("koikoi", {"rounds": 3})])  # fmt: skip
def test_a_hint_shows_the_experts_move_to_the_asking_seat_only(
    clock: ManualClock, practice: Practice, quick_thinker: Thinker, game: str,
    options: dict[str, object],
) -> None:  # fmt: skip
    session = practice(game, **options)
    mine, watching = Recorder(session), Recorder(session)
    session.join(Subscriber(mine, 0, "en"))
    session.join(Subscriber(watching, None, "en"))
    advance_to_seat(clock, session, 0)
    while len(session.game.legal_actions(session.state)) < 2:  # a turn with a choice
        session.submit(0, str(session.game.legal_actions(session.state)[0]), session.version)
        advance_to_seat(clock, session, 0)
    assert 'id="hint-button"' in "".join(message for _, message in mine.messages)
    assert "hint-button" not in "".join(message for _, message in watching.messages)
    log = list(session.log)
    session.submit(0, HINT, session.version)
    assert "Looking for a good move" in mine.messages[-1][1]
    with pytest.raises(Refusal) as refused:
        session.submit(0, HINT, session.version)  # one pending hint a seat
    assert refused.value.code == "hint-pending"
    search = clock.pending.pop()  # the hint's search, asked last (the turn timer waits)
    assert search.delay == 0
    search.callback()
    assert not session.hinting
    shown = HINT_LINE.search(mine.messages[-1][1])
    assert shown, mine.messages[-1][1]
    advice = session.hint_for(0)
    assert advice is not None and advice.action in {str(a) for a in session.view(0).legal}
    assert advice.reason and ": " in unescape(shown.group(1))
    assert "Hint" not in "".join(message for _, message in watching.messages)
    assert session.log == log  # not a move
    session.submit(0, str(session.game.legal_actions(session.state)[0]), session.version)
    assert session.hint_for(0) is None  # the table has moved on


def test_hints_are_refused_out_of_turn(
    clock: ManualClock, practice: Practice, quick_thinker: Thinker
) -> None:
    session = practice("koikoi", rounds=3)
    advance_to_seat(clock, session, 1)
    with pytest.raises(Refusal) as refused:
        session.submit(0, HINT, session.version)
    assert refused.value.code == "not-your-turn"


def test_the_search_sees_only_the_seats_view() -> None:
    """Two deals that differ only in cards seat 0 cannot see give it the same hint."""
    expert = KOA.bots["expert"]
    assert isinstance(expert, Expert) and expert.explain is not None
    budgeted = expert.budgeted(8, None)
    state = KOA.new_game(3, {"mode": "quick"})
    while KOA.to_act(state) != 0 or len(KOA.legal_actions(state)) < 2:
        seat = KOA.to_act(state)
        assert seat is not None
        state = KOA.apply(state, KOA.bots["hard"](KOA.view(state, seat), random.Random(1)))
    other = sample(KOA.view(state, 0), random.Random(99))
    assert other.hands[1] != state.hands[1]
    hints = [
        expert.explain(view, budgeted.search(view, random.Random("same")))
        for view in (KOA.view(state, 0), KOA.view(other, 0))
    ]
    assert hints[0] == hints[1]


@pytest.mark.databases("sqlite")
def test_a_page_without_scripts_asks_and_shows_the_hint(
    app: Lapau, client: FlaskClient, quick_thinker: Thinker
) -> None:
    table_id, page = open_practice(client, clock="0")
    assert 'id="hint-button"' not in page  # the round's first take: cabut is the only move
    client.post(f"/en/table/{table_id}/act", data={"a": "cabut"})
    page = client.get(f"/en/table/{table_id}").get_data(as_text=True)
    assert 'id="hint-button"' in page  # which card to throw is a choice
    response = client.post(f"/en/table/{table_id}/act", data={"a": HINT})
    assert response.status_code == 303
    page = client.get(response.location).get_data(as_text=True)
    assert HINT_LINE.search(page), page
    nl = client.get(f"/nl/table/{table_id}").get_data(as_text=True)
    assert "<b>Tip:</b>" in nl


@pytest.mark.databases("sqlite")
def test_a_rooms_table_offers_no_hint(app: Lapau, client: FlaskClient) -> None:
    """A room filled with bots has one person, like practice, but its table is the room's."""
    ManualClock().hold(app.services.hub)
    created = client.post("/en/room/new", data={"game": "koikoi"})
    code = created.location.rsplit("/", 1)[1]
    client.post(f"/en/room/{code}/act", data={"a": "fill"})
    table = client.post(f"/en/room/{code}/act", data={"a": "start"}).location
    table_id = table.rsplit("/", 1)[1]
    session = app.services.hub.get(table_id)
    assert session is not None and not session.offers_hints()
    assert 'id="hint-button"' not in client.get(table).get_data(as_text=True)
    refused = client.post(f"/en/table/{table_id}/act", data={"a": HINT})
    assert "notice=no-hints" in refused.location
    assert "practice tables only" in client.get(refused.location).get_data(as_text=True)
