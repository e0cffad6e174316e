"""Reactions at a live table, over its real socket (gunicorn + gevent): every reader sees
a seat's preset words in their own language, a spectator cannot send any, the eleventh in
a minute is refused for the sender alone, and a reader who hid them gets none."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import websocket

from tests.conftest import STILL_BOTS, LiveServer
from tests.play.client import Guest, Table, stored_moves
from webapp.play.emotes import PER_MINUTE

pytestmark = pytest.mark.live

THANKS = '<p id="emote-0" hx-swap-oob="innerHTML"><span>{}</span></p>'


@pytest.fixture(scope="module")
def frozen(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A server whose bots never move during a test: the table holds still."""
    instance = tmp_path_factory.mktemp("reactions") / "instance"
    with LiveServer(instance, STILL_BOTS) as server:
        yield server


def watcher(server: LiveServer, table_id: str, lang: str, **settings: str) -> Table:
    guest = Guest(server)
    guest.page(f"/{lang}/")
    if settings:
        guest.post_form(f"/{lang}/settings", **settings)
    return guest.connect(table_id, lang=lang)


def nothing_arrives(table: Table, seconds: float = 1.0) -> bool:
    try:
        table.receive(timeout=seconds)
    except websocket.WebSocketTimeoutException:
        return True
    return False


def test_every_reader_sees_a_reaction_in_their_own_language(frozen: LiveServer) -> None:
    player = Guest(frozen)
    table_id = player.open_table("koikoi", rounds="3")
    mine, other_tab = player.connect(table_id), player.connect(table_id)
    dutch, english = watcher(frozen, table_id, "nl"), watcher(frozen, table_id, "en")
    before = stored_moves(frozen, table_id)

    mine.send({"e": "thanks", "v": str(mine.version)})
    for table in (mine, other_tab, english):
        assert table.receive_until("emote-0") == THANKS.format("Thanks!")
    assert dutch.receive_until("emote-0") == THANKS.format("Bedankt!")
    # A reaction is no move: nothing stored, no new version, no table redrawn.
    assert stored_moves(frozen, table_id) == before
    assert nothing_arrives(english)

    # A spectator has no seat to react from; an unknown preset is no reaction.
    english.send({"e": "thanks"})
    assert "only the players can move" in english.receive_until('id="notice"')
    mine.send({"e": "hooray"})
    assert "could not be read" in mine.receive_until('id="notice"')
    mine.send({"e": ["thanks"]})
    assert "could not be read" in mine.receive_until('id="notice"')
    assert nothing_arrives(dutch, 0.5)
    for table in (mine, other_tab, dutch, english):
        table.close()


def test_the_eleventh_in_a_minute_is_refused_to_its_sender_alone(frozen: LiveServer) -> None:
    player = Guest(frozen)
    table_id = player.open_table("koikoi", rounds="3")
    mine, spectator = player.connect(table_id), watcher(frozen, table_id, "en")
    for _ in range(PER_MINUTE - 1):
        mine.send({"e": "oops"})
        spectator.receive_until("emote-0")
    # Another tab of the same seat is the same person: it shares the seat's minute.
    other_tab = player.connect(table_id)
    other_tab.send({"e": "oops"})
    spectator.receive_until("emote-0")
    other_tab.send({"e": "good-game"})
    notice = other_tab.receive_until('id="notice"')
    assert "plenty of reactions for one minute" in notice
    assert nothing_arrives(spectator)  # neither the refusal nor the reaction
    assert not any("Good game" in message for message in mine.received)
    for table in (mine, other_tab, spectator):
        table.close()


def test_a_reader_who_hid_reactions_gets_none(frozen: LiveServer) -> None:
    player = Guest(frozen)
    table_id = player.open_table("koikoi", rounds="3")
    page = player.page(f"/en/table/{table_id}")
    assert page.count('class="emote"') == 2 and 'value="well-played"' in page
    quiet = watcher(frozen, table_id, "en", reactions_shown="1")
    shown = watcher(frozen, table_id, "id")
    mine = player.connect(table_id)
    mine.send({"e": "hurry"})
    assert shown.receive_until("emote-0") == THANKS.format("Ayo, giliranmu!")
    assert nothing_arrives(quiet)
    # The player hides them too: the page has no buttons to send any, nor their own bubble.
    player.post_form("/en/settings", reactions_shown="1")
    page = player.page(f"/en/table/{table_id}")
    assert 'name="e"' not in page and 'id="emote-0"' not in page
    for table in (mine, quiet, shown):
        table.close()


def test_without_scripts_a_reaction_is_posted(frozen: LiveServer) -> None:
    player = Guest(frozen)
    table_id = player.open_table("koikoi", rounds="3")
    spectator = watcher(frozen, table_id, "en")
    table_page = f"/en/table/{table_id}"
    back = player.post_form(f"{table_page}/react", page=table_page, e="well-played")
    assert 'id="hand"' in back  # back at the table
    assert spectator.receive_until("emote-0") == THANKS.format("Well played!")
    for _ in range(PER_MINUTE - 1):
        player.post_form(f"{table_page}/react", page=table_page, e="oops")
    back = player.post_form(f"{table_page}/react", page=table_page, e="oops")
    assert "plenty of reactions for one minute" in back
    spectator.close()


def test_the_server_log_has_no_errors(frozen: LiveServer) -> None:
    log = Path(frozen.log).read_text()
    assert "Traceback" not in log, log[-3000:]
