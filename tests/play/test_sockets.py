"""The table WebSocket against the real server (gunicorn + gevent), with bad input.

Bots are frozen on this server (their delay is longer than the tests), so the table
holds still and every refusal can be checked to have changed nothing.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
import websocket

from tests.conftest import STILL_BOTS, LiveServer
from tests.play.client import Guest, foreign_origins, stored_moves

pytestmark = pytest.mark.live


@pytest.fixture(scope="module")
def frozen(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    instance = tmp_path_factory.mktemp("frozen") / "instance"
    with LiveServer(instance, {**STILL_BOTS, "LAPAU_TABLE_SEED": "11"}) as server:
        yield server


def my_turn_table(server: LiveServer, game: str = "koikoi", **form: str) -> tuple[Guest, str]:
    """A guest at a fresh table where it is the guest's turn (bots are frozen)."""
    guest = Guest(server)
    table_id = guest.open_table(game, **(form or {"rounds": "3"}))
    return guest, table_id


def test_a_foreign_origin_is_refused_at_the_handshake(frozen: LiveServer) -> None:
    guest, table_id = my_turn_table(frozen)
    for origin in foreign_origins(frozen):
        assert guest.handshake_status(table_id, origin) == 403
    assert guest.handshake_status(table_id, frozen.url) == 101


def test_an_unknown_table_is_not_found_at_the_handshake(frozen: LiveServer) -> None:
    assert Guest(frozen).handshake_status("nosuchtable", frozen.url) == 404


@pytest.mark.parametrize(
    "payload",
    [
        "this is not json",
        "[1, 2, 3]",
        json.dumps({"a": "stop", "v": "0", "extra": "field"}),
        json.dumps({"a": 5, "v": "0"}),
        json.dumps({"a": "stop"}),
        json.dumps({"a": "stop", "v": "-1"}),
        json.dumps({"a": "x" * 100, "v": "0"}),
        json.dumps({"a": "play", "v": "0"}),
        "\u0000\ufffd",
    ],
)
def test_malformed_messages_get_a_notice_and_change_nothing(
    frozen: LiveServer, payload: str
) -> None:
    guest, table_id = my_turn_table(frozen)
    table = guest.connect(table_id)
    before = stored_moves(frozen, table_id)
    table.send(payload)
    notice = table.receive_until('id="notice"')
    assert 'role="alert">' in notice and "</div>" in notice
    assert not notice.endswith('role="alert"></div>')
    assert stored_moves(frozen, table_id) == before
    table.close()


def test_an_oversized_message_closes_the_socket_and_changes_nothing(frozen: LiveServer) -> None:
    guest, table_id = my_turn_table(frozen)
    table = guest.connect(table_id)
    before = stored_moves(frozen, table_id)
    table.send(json.dumps({"a": "stop", "v": "0", "pad": "x" * 5000}))
    # Closed by the server (1009, message too big); the client may see a close or a reset.
    with pytest.raises((websocket.WebSocketException, ConnectionError)):
        for _ in range(5):
            table.receive(timeout=5)
    table.close()
    assert stored_moves(frozen, table_id) == before
    again = guest.connect(table_id)
    assert again.version == len(before)
    again.close()


def test_a_card_not_in_hand_and_a_stale_version_are_refused(frozen: LiveServer) -> None:
    guest, table_id = my_turn_table(frozen)
    table = guest.connect(table_id)
    before = stored_moves(frozen, table_id)
    hand = [move.split()[1] for move in table.moves if move.startswith("play ")]
    assert hand, "it should be the guest's turn with cards to play"
    stranger = next(
        c
        for c in (
            "jan-crane",
            "feb-warbler",
            "mar-curtain",
            "aug-moon",
            "dec-phoenix",
            "nov-rain-man",
        )
        if c not in hand
    )
    table.move(f"play {stranger}")
    assert "That card is not in your hand." in table.receive_until('id="notice"')
    table.move(f"play {hand[0]}", version=table.version + 3)
    assert "The table has moved on" in table.receive_until('id="notice"')
    assert stored_moves(frozen, table_id) == before
    table.close()


def test_a_double_submission_is_applied_once(frozen: LiveServer) -> None:
    guest, table_id = my_turn_table(frozen)
    table = guest.connect(table_id)
    before = stored_moves(frozen, table_id)
    move = next(m for m in table.moves if m.startswith("play "))
    table.move(move)
    table.move(move)
    table.receive_until("The table has moved on")
    assert stored_moves(frozen, table_id) == [*before, move]
    table.close()


def test_out_of_turn_moves_are_refused(frozen: LiveServer) -> None:
    guest, table_id = my_turn_table(frozen)
    table = guest.connect(table_id)
    move = next(m for m in table.moves if m.startswith("play "))
    table.move(move)
    table.receive_until('id="status"')
    after = stored_moves(frozen, table_id)
    table.move("stop")
    assert "Wait for your turn." in table.receive_until('id="notice"')
    assert stored_moves(frozen, table_id) == after
    table.close()


def test_two_tabs_on_one_seat_both_follow_the_game(frozen: LiveServer) -> None:
    guest, table_id = my_turn_table(frozen)
    first, second = guest.connect(table_id), guest.connect(table_id)
    move = next(m for m in first.moves if m.startswith("play "))
    first.move(move)
    first.receive_until('id="status"')
    second.receive_until('id="status"')
    assert first.version == second.version == len(stored_moves(frozen, table_id))
    first.close()
    second.close()


def test_a_spectator_cannot_move(frozen: LiveServer) -> None:
    _, table_id = my_turn_table(frozen)
    watcher = Guest(frozen)
    watcher.page("/en/")
    table = watcher.connect(table_id)
    assert 'id="hand"' in table.received[0]
    assert 'name="a" value="play' not in table.received[0]
    table.move("stop")
    assert "only the players can move" in table.receive_until('id="notice"')
    table.close()


def test_more_time_goes_over_the_socket_once_per_turn_and_never_into_the_log(
    frozen: LiveServer,
) -> None:
    guest, table_id = my_turn_table(frozen)
    table = guest.connect(table_id)
    before = stored_moves(frozen, table_id)
    assert 'id="more-time"' in table.received[0]
    watcher = Guest(frozen)
    watcher.page("/en/")
    watching = watcher.connect(table_id)
    assert 'id="more-time"' not in watching.received[0]
    watching.ask_more_time()
    assert "only the players can move" in watching.receive_until('id="notice"')
    table.ask_more_time()
    assert 'id="more-time"' not in table.receive_until('id="status"')
    table.ask_more_time()
    assert "more time this turn already" in table.receive_until('id="notice"')
    assert stored_moves(frozen, table_id) == before
    watching.close()
    table.close()


def test_the_server_log_has_no_errors(frozen: LiveServer) -> None:
    log = Path(frozen.log).read_text()
    assert "Traceback" not in log, log[-3000:]
