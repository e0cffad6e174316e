"""'Replay this deal against bots' (#17): a finished table's replay opens a practice table
with the same seed and options, the reader in their seat and bots in every other."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

from tests.play.test_clock import open_practice
from webapp.play.hub import Hub
from webapp.play.store import Seat


@pytest.mark.databases("sqlite")
@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", "Replay this deal against bots"),
        ("id", "Mainkan kartu yang sama lagi melawan bot"),
        ("nl", "Speel dezelfde kaarten opnieuw tegen bots"),
    ],
)
def test_a_finished_tables_deal_opens_again_as_practice(
    hub: Hub, client: FlaskClient, lang: str, words: str
) -> None:
    table_id, _ = open_practice(client, clock="30")
    # Not before the match is over: an unfinished deal stays secret.
    assert client.post(f"/{lang}/table/{table_id}/practice").status_code == 404
    client.post(f"/{lang}/table/{table_id}/end")
    replay = client.get(f"/{lang}/table/{table_id}/replay").text
    assert f'action="/{lang}/table/{table_id}/practice"' in replay and words in replay
    response = client.post(f"/{lang}/table/{table_id}/practice")
    assert response.status_code == 303
    again_id = response.location.rsplit("/", 1)[1]
    old, again = hub.get(table_id), hub.get(again_id)
    assert old is not None and again is not None and again_id != table_id
    assert (again.seed, again.options, again.game.name) == (old.seed, old.options, "koa")
    assert again.seats == old.seats  # the same seat for the person, the same bots
    assert again.state == old.game.new_game(old.seed, old.options)  # the same deal
    assert not again.finished


@pytest.mark.databases("sqlite")
def test_a_watcher_takes_the_first_seat_and_a_person_seat_becomes_a_bot(
    hub: Hub, client: FlaskClient
) -> None:
    seats = [Seat("human", player="g-one"), Seat("human", player="g-two")]
    finished = hub.create("koikoi", {"rounds": 3}, seats, owner="g-one", seed=9)
    finished.end()
    response = client.post(f"/en/table/{finished.id}/practice")
    assert response.status_code == 303
    again = hub.get(response.location.rsplit("/", 1)[1])
    assert again is not None and again.seed == 9
    assert again.seats[0].kind == "human" and again.seats[0].player not in ("g-one", "g-two")
    assert again.seats[1].is_bot
