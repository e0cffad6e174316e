"""Koi-Koi house rules on the site: the setup form offers the presets and each rule, the
table keeps what was chosen, and the table and its replay say which rules it plays."""

from __future__ import annotations

from flask.testing import FlaskClient

from tests.game.test_koikoi_house import MANY, _staged
from tests.ranking.conftest import play_out
from webapp.game.koikoi import GAME
from webapp.game.koikoi.actions import KoiKoi, Play, Stop
from webapp.play.hub import Hub
from webapp.play.store import Seat


def _start(client: FlaskClient, **rules: str) -> str:
    response = client.post("/en/play/koikoi", data={"rounds": "3", "level": "easy", **rules})
    assert response.status_code == 303
    return response.headers["Location"].rsplit("/", 1)[-1]


def test_the_setup_form_offers_every_preset_and_rule(client: FlaskClient) -> None:
    page = client.get("/en/play/koikoi").get_data(as_text=True)
    assert 'aria-current="true">Standard (default)</a>' in page
    for words in ("Tamed sake cup", "Bold koi-koi", "No viewings", "No doubling at 7"):
        assert words in page
    assert "count for ratings" in page
    assert 'name="viewing" value="on" checked' in page
    # a preset's link fills its rules in
    tamed = client.get("/en/play/koikoi?preset=tamed-sake").get_data(as_text=True)
    assert 'aria-current="true">Tamed sake cup</a>' in tamed
    assert 'name="viewing" value="with-yaku" checked' in tamed
    assert 'name="sake_plain" value="False" checked' in tamed
    assert 'name="rain_spoils" value="True" checked' in tamed
    # Koa has no house rules
    assert "house-rules" not in client.get("/en/play/koa").get_data(as_text=True)


def test_the_rules_chosen_are_the_tables_and_shown_on_it(client: FlaskClient, hub: Hub) -> None:
    table_id = _start(client, viewing="off", koikoi_calls="many")
    session = hub.get(table_id)
    assert session is not None
    assert session.state.house.viewing == "off" and session.state.house.koikoi_calls == "many"
    page = client.get(f"/en/table/{table_id}").get_data(as_text=True)
    assert "Rules: House rules · not rated" in page
    assert "Flower and moon viewing: Do not score" in page


def test_the_replay_says_the_rules(client: FlaskClient, hub: Hub) -> None:
    seats = [Seat("human", player="g-a"), Seat("human", player="g-b")]
    options = {"rounds": 3, "double_seven": False}
    session = hub.create("koikoi", options, seats, owner="g-a", seed=5)
    play_out(session)
    replay = client.get(f"/nl/table/{session.id}/replay").get_data(as_text=True)
    assert "Niet verdubbeld" in replay
    # Play again keeps the rules
    page = client.get(f"/en/table/{session.id}").get_data(as_text=True)
    assert '<input type="hidden" name="double_seven" value="False">' in page
    assert '<input type="hidden" name="viewing" value="on">' in page


def test_a_preset_is_named_and_the_standard_is_rated(client: FlaskClient, hub: Hub) -> None:
    page = client.get(f"/id/table/{_start(client, viewing='off')}").get_data(as_text=True)
    assert "Tanpa" in page  # the preset's name in Indonesian
    standard = client.get(f"/en/table/{_start(client)}").get_data(as_text=True)
    assert "Rules: Standard (default)</summary>" in standard


def test_a_rule_not_offered_is_refused_and_opens_nothing(client: FlaskClient) -> None:
    response = client.post(
        "/en/play/koikoi", data={"rounds": "3", "level": "easy", "viewing": "sometimes"}
    )
    assert response.status_code == 400


def test_many_calls_show_each_callers_multiplier_and_the_winners(
    client: FlaskClient, hub: Hub
) -> None:
    seats = [Seat("human", player="g-a"), Seat("human", player="g-b")]
    session = hub.create("koikoi", {"rounds": 3, **MANY}, seats, owner="g-a", seed=5)
    # A staged round in the engine's own moves: seat 0 calls, seat 1 calls, seat 0 stops.
    state = _staged(MANY)
    state = GAME.apply(state, Play("mar-curtain"))
    state = GAME.apply(GAME.apply(state, KoiKoi()), Play("oct-blue"))
    session.state = GAME.apply(state, KoiKoi())
    page = client.get(f"/en/table/{session.id}").get_data(as_text=True)
    assert page.count("Koi-koi! ×2") == 2
    session.state = GAME.apply(GAME.apply(session.state, Play("aug-moon")), Stop())
    page = client.get(f"/en/table/{session.id}").get_data(as_text=True)
    assert "own koi-koi calls: ×2." in page and "scores 80" in page
