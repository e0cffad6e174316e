"""Practice tables nobody plays stop costing anything (#15 finding 9): a table with no
person listening pauses after a few turns and resumes when its player returns, a player
keeps at most a few unfinished practice tables, and can end one from the list."""

from __future__ import annotations

import re

import pytest
from flask.testing import FlaskClient

from tests.play.conftest import ManualClock, Practice, Recorder
from webapp.channels import Subscriber
from webapp.play.hub import Hub
from webapp.play.routes import MAX_UNFINISHED
from webapp.services import Lapau

GAMES = [("koa", {"mode": "quick"}), ("kowah", {"players": 3}), ("koikoi", {"rounds": 3})]


@pytest.mark.parametrize(("game", "options"), GAMES)
def test_a_table_nobody_listens_to_pauses_and_resumes_when_its_player_returns(
    hub: Hub, clock: ManualClock, practice: Practice, game: str, options: dict[str, object]
) -> None:
    session = practice(game, **options)
    timeouts = 0
    while clock.fire():
        timeouts += session.log[-1] == "timeout" if session.log else 0
        assert timeouts <= hub.timing.unheard_turns, "the table played on for nobody"
    paused_at = session.version
    assert session.deadline is None and not session.finished
    assert timeouts == hub.timing.unheard_turns
    assert len(hub.store.load(session.id).log) == paused_at  # type: ignore[union-attr]
    # The player comes back: the clock runs again, and the table goes on.
    session.join(Subscriber(Recorder(session), 0, "en"))
    assert session.deadline is not None
    assert clock.fire() and session.version > paused_at


def test_a_restarted_table_with_nobody_at_it_stays_paused(
    hub: Hub, clock: ManualClock, practice: Practice
) -> None:
    session = practice("koikoi", rounds=3)
    clock.run_until(lambda: session.game.to_act(session.state) == 0)
    version = session.version
    hub.forget(session)
    session.stop()
    clock.pending.clear()
    assert hub.restore() >= 1
    restored = hub.get(session.id)
    assert restored is not None and restored.deadline is None
    assert not clock.fire() and restored.version == version


def open_practice(client: FlaskClient) -> str:
    response = client.post("/en/play/koikoi", data={"rounds": "3", "level": "easy"})
    assert response.status_code == 303
    return response.location.rsplit("/", 1)[1]


def test_a_player_keeps_at_most_a_few_unfinished_practice_tables(
    app: Lapau, client: FlaskClient
) -> None:
    ManualClock().hold(app.services.hub)
    opened = [open_practice(client) for _ in range(MAX_UNFINISHED + 1)]
    page = client.get("/en/play/").text
    listed = re.findall(r'href="/en/table/(\w+)"', page)
    assert sorted(listed) == sorted(opened[1:])  # the oldest one was ended
    hub: Hub = app.services.hub
    assert hub.get(opened[0]).finished  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("lang", "words"),
    [("en", "End this match"), ("id", "Akhiri pertandingan ini"), ("nl", "Deze partij beëindigen")],
)
def test_a_player_ends_an_unfinished_table_from_the_list(
    app: Lapau, client: FlaskClient, lang: str, words: str
) -> None:
    ManualClock().hold(app.services.hub)
    table_id = open_practice(client)
    page = client.get(f"/{lang}/play/").text
    assert f'action="/{lang}/table/{table_id}/end"' in page and words in page
    stranger = app.test_client()
    assert stranger.post(f"/en/table/{table_id}/end").status_code == 403
    hub: Hub = app.services.hub
    assert not hub.get(table_id).finished  # type: ignore[union-attr]
    response = client.post(f"/{lang}/table/{table_id}/end")
    assert response.status_code == 303 and response.location.endswith(f"/{lang}/play/")
    assert hub.get(table_id).finished  # type: ignore[union-attr]
    assert table_id not in client.get(f"/{lang}/play/").text
