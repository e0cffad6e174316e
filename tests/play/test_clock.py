"""A table's turn clock (#17 finding 9): chosen on the practice setup, kept with the
table, honoured by the turn timer (tests/play/test_hub.py) and shown on the table."""

from __future__ import annotations

import re

import pytest
from flask.testing import FlaskClient

from webapp.game import registry
from webapp.play.routes import hub


def open_practice(client: FlaskClient, **form: str) -> tuple[str, str]:
    """Start a Koa practice table through the setup form, dealt so that the person (seat
    0) starts; its id and its page."""
    koa = registry.get("koa")
    seed = next(n for n in range(100) if koa.to_act(koa.new_game(n, {})) == 0)
    client.application.config["TABLE_SEED"] = seed
    response = client.post("/en/play/koa", data={"mode": "quick", "level": "easy", **form})
    assert response.status_code == 303, response.get_data(as_text=True)
    location = response.headers["Location"]
    return location.rsplit("/", 1)[1], client.get(location).get_data(as_text=True)


@pytest.mark.databases("sqlite")
@pytest.mark.parametrize("lang", ["id", "en", "nl"])
def test_the_setup_offers_30_60_or_no_clock_with_60_for_practice(
    client: FlaskClient, lang: str
) -> None:
    html = client.get(f"/{lang}/play/kowah").get_data(as_text=True)
    offered = re.findall(r'name="clock" value="(\d+)"( checked)?', html)
    assert offered == [("30", ""), ("60", " checked"), ("0", "")]


@pytest.mark.databases("sqlite")
@pytest.mark.parametrize(("chosen", "stored"), [("30", 30), ("60", 60), ("0", 0), (None, 60)])
def test_the_chosen_clock_is_kept_with_the_table_and_shown(
    client: FlaskClient, chosen: str | None, stored: int
) -> None:
    table_id, page = open_practice(client, **({} if chosen is None else {"clock": chosen}))
    with client.application.app_context():
        kept = hub().store.load(table_id)
    assert kept is not None and kept.options["clock"] == stored
    status = page[page.index('id="status"') : page.index('class="seats')]
    assert "Your turn" in status
    if stored:
        assert f"timer clock-{stored} " in status
        assert "No clock" not in status
    else:
        assert "timer" not in status and "No clock" in status


@pytest.mark.databases("sqlite")
@pytest.mark.parametrize("clock", ["45", "off", "-30", "3e1"])
def test_a_clock_the_site_does_not_offer_is_refused(client: FlaskClient, clock: str) -> None:
    response = client.post("/en/play/koa", data={"mode": "quick", "level": "easy", "clock": clock})
    assert response.status_code == 400
