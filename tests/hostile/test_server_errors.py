"""Bad input that used to end in a server error: a row id too big for the database, a
socket message nested two thousand deep, and a socket that sends and closes at once.

Each is refused (or ignored) at its cause, and the real server logs no traceback.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from flask.testing import FlaskClient
from werkzeug.routing import IntegerConverter

from tests.auth.conftest import sign_up
from tests.conftest import LiveServer, close_app
from tests.hostile.conftest import make_app
from tests.play.client import Guest
from webapp.routing import MAX_ID, RowId
from webapp.services import Lapau

UNREADABLE = "That message could not be read."


@pytest.fixture
def member(tmp_path_factory: pytest.TempPathFactory, database_url: str) -> Iterator[FlaskClient]:
    instance = tmp_path_factory.mktemp("ids") / "instance"
    app = make_app(instance, database_url, WTF_CSRF_ENABLED=False)
    client = app.test_client()
    assert sign_up(client) == 303
    yield client
    close_app(app)


@pytest.mark.parametrize("other", [str(10**24), str(MAX_ID + 1), "0", "-1", "1e3", "٣"])
def test_an_id_the_database_cannot_hold_is_not_found(member: FlaskClient, other: str) -> None:
    response = member.post(f"/nl/friends/{other}/accept")
    assert response.status_code == 404
    assert "Deze pagina ligt niet op tafel" in response.text


def test_the_largest_id_is_looked_up_and_found_missing(member: FlaskClient) -> None:
    response = member.post(f"/en/friends/{MAX_ID}/accept")
    assert response.status_code == 303


def test_every_number_in_a_path_is_a_checked_row_id(app: Lapau) -> None:
    numbers = [
        (rule.rule, converter)
        for rule in app.url_map.iter_rules()
        for converter in (rule._converters or {}).values()
        if isinstance(converter, IntegerConverter)
    ]
    assert numbers, "no route takes a number any more: drop this test"
    assert all(isinstance(converter, RowId) for _, converter in numbers), numbers


def tracebacks(server: LiveServer) -> int:
    return server.log.read_text().count("Traceback")


@pytest.mark.live
@pytest.mark.parametrize(
    "raw", ["[" * 2000, '{"a":' * 800, '{"a": "stop", "v": [[[[[[[[[1]]]]]]]]]}']
)
def test_a_deeply_nested_message_is_refused_without_an_error(frozen: LiveServer, raw: str) -> None:
    before = tracebacks(frozen)
    guest = Guest(frozen)
    table = guest.connect(guest.open_table("koikoi", rounds="3"))
    table.send(raw)
    assert UNREADABLE in table.receive_until('id="notice"')
    table.close()
    assert tracebacks(frozen) == before


@pytest.mark.live
def test_sending_and_closing_at_once_leaves_no_error(frozen: LiveServer) -> None:
    """Messages still queued when the socket closed each fail to be answered: the hub
    drops the socket once, however many answers fail."""
    before = tracebacks(frozen)
    guest = Guest(frozen)
    table_id = guest.open_table("koikoi", rounds="3")
    for _ in range(3):
        table = guest.connect(table_id)
        for _ in range(3):
            table.move("not a move")
        table.close()
    time.sleep(0.5)  # the closed sockets' handlers finish
    table = guest.connect(table_id)  # the table still serves its player
    table.move("not a move")
    assert "That is not a move in this game." in table.receive_until('id="notice"')
    table.close()
    assert tracebacks(frozen) == before
