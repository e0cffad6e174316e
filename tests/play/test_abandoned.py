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


def open_practice(client: FlaskClient, rounds: str = "3", level: str = "easy") -> str:
    response = client.post("/en/play/koikoi", data={"rounds": rounds, "level": level})
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


def entries(page: str) -> list[str]:
    """The unfinished tables' entries of the practice page, as plain text."""
    listed = re.search(r'<ul class="unfinished">(.*?)</ul>', page, re.S)
    assert listed, page
    items = re.findall(r"<li>(.*?)</li>", listed.group(1), re.S)
    return [" ".join(re.sub(r"<[^>]+>", " ", item).split()) for item in items]


def test_each_unfinished_table_is_told_apart_from_the_others(
    app: Lapau, client: FlaskClient
) -> None:
    """Two Koi-Koi tables: each entry names the game, its rounds, the bot and its level,
    how many moves it has had and when it started."""
    ManualClock().hold(app.services.hub)
    first = open_practice(client, "3", "easy")
    second = open_practice(client, "6", "hard")
    hub: Hub = app.services.hub
    session = hub.get(second)
    assert session is not None
    seat = session.game.to_act(session.state)
    session.submit(seat, str(session.game.legal_actions(session.state)[0]), session.version)  # type: ignore[arg-type]
    listed = entries(client.get("/en/play/").text)
    assert len(listed) == 2 and listed[0] != listed[1]
    newest, oldest = listed  # the last played first
    assert newest.startswith("Koi-Koi · Rounds: 6 With Hana (Hard) 1 move played · started ")
    assert oldest.startswith("Koi-Koi · Rounds: 3 With Hana (Easy) 0 moves played · started ")
    assert first != second


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", "1 move played"),
        ("id", "1 langkah dimainkan"),
        ("nl", "1 zet gespeeld"),
    ],
)
def test_the_unfinished_list_speaks_the_readers_language(
    app: Lapau, client: FlaskClient, lang: str, words: str
) -> None:
    ManualClock().hold(app.services.hub)
    table_id = open_practice(client)
    session = app.services.hub.get(table_id)
    assert session is not None
    seat = session.game.to_act(session.state)
    session.submit(seat, str(session.game.legal_actions(session.state)[0]), session.version)  # type: ignore[arg-type]
    (entry,) = entries(client.get(f"/{lang}/play/").text)
    assert words in entry


def test_ending_asks_first_and_finishes_the_table_unrated(app: Lapau, client: FlaskClient) -> None:
    """The end button opens a question (a fold, no script needed) whose form ends the table:
    finished, its sockets closed, and no result for the ratings."""
    ManualClock().hold(app.services.hub)
    table_id = open_practice(client)
    page = client.get("/en/play/").text
    fold = re.search(r'<details class="end-table">(.*?)</details>', page, re.S)
    assert fold is not None
    assert "<summary" in fold.group(1) and "End this match for good?" in fold.group(1)
    assert f'action="/en/table/{table_id}/end"' in fold.group(1) and "Yes, end it" in fold.group(1)
    hub: Hub = app.services.hub
    results: list[object] = []
    hub.on_finish.append(results.append)
    response = client.post(f"/en/table/{table_id}/end")
    assert response.status_code == 303
    assert hub.store.load(table_id).finished  # type: ignore[union-attr]
    assert results == []  # nothing rated, nothing counted as played out
    assert "unfinished" not in client.get("/en/play/").text
