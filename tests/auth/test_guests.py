"""A guest who signs up or signs in keeps their tables; signed in, they play as u-<id>."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.auth.conftest import sign_in, sign_up
from webapp.play.hub import Hub
from webapp.services import Lapau


class Idle:
    def cancel(self) -> None:
        pass


@pytest.fixture
def hub(app: Lapau) -> Hub:
    """The app's hub with a clock that never fires: the bots wait."""
    found: Hub = app.services.hub

    def schedule(_delay: float, _callback: Callable[[], None]) -> Any:
        return Idle()

    found.scheduler = schedule
    return found


def open_table(client: FlaskClient) -> str:
    response = client.post("/en/play/koikoi", data={"rounds": "3", "level": "easy"})
    assert response.status_code == 303
    return str(response.headers["Location"]).rsplit("/", 1)[1]


def test_a_guest_keeps_their_tables_after_signing_up(hub: Hub, client: FlaskClient) -> None:
    table_id = open_table(client)
    with client.session_transaction() as session:
        guest = session["player"]
    assert [t.id for t in hub.store.tables_of(guest)] == [table_id]
    assert sign_up(client) == 303
    assert [t.id for t in hub.store.tables_of("u-1")] == [table_id]
    assert hub.store.tables_of(guest) == []
    live = hub.get(table_id)
    assert live is not None and live.seat_of("u-1") == 0 and live.owner == "u-1"
    assert f"/en/table/{table_id}" in client.get("/en/play/").text


def test_a_guest_keeps_their_tables_after_signing_in(hub: Hub, app: Lapau) -> None:
    first = app.test_client()
    sign_up(first)
    earlier = open_table(first)
    other = app.test_client()
    later = open_table(other)
    assert sign_in(other) == 303
    assert {t.id for t in hub.store.tables_of("u-1")} == {earlier, later}
    page = other.get("/en/play/").text
    assert f"/en/table/{earlier}" in page and f"/en/table/{later}" in page


def test_signed_in_tables_belong_to_the_account(hub: Hub, client: FlaskClient) -> None:
    sign_up(client)
    table_id = open_table(client)
    live = hub.get(table_id)
    assert live is not None and live.owner == "u-1"
    client.post("/en/sign-out")
    # A signed-out browser is a new guest: the account's table is not theirs.
    assert f"/en/table/{table_id}" not in client.get("/en/play/").text
    sign_in(client)
    assert f"/en/table/{table_id}" in client.get("/en/play/").text


def test_a_deleted_account_leaves_its_tables_without_its_name(
    hub: Hub, client: FlaskClient
) -> None:
    sign_up(client)
    table_id = open_table(client)
    client.post("/en/account/delete", data={"confirm": "rina"})
    assert hub.store.tables_of("u-1") == []
    live = hub.get(table_id)
    assert live is not None and live.owner.startswith("g-")
