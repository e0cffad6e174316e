"""Every kind of table message, fuzzed: a clear refusal, never a change, never an error.

In process, the socket loop (``sockets.serve``) reads Hypothesis's messages from a fake
socket into a real hub, for a seated player whose turn it is; against the real server
(gunicorn + gevent), the same messages go over a real WebSocket, with frames the fake
cannot make (binary, bad UTF-8, oversized).  For each message: the reply is the
notice fragment in the reader's language, the state, the version and the stored log
are unchanged, and nothing was logged as an error.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Iterator
from typing import Any

import pytest
import websocket
from flask import g
from hypothesis import assume, given
from hypothesis import strategies as st
from sqlalchemy import create_engine

from tests.conftest import LiveServer
from tests.hostile.conftest import EXAMPLES, fuzz, open_table, to_seat
from tests.hostile.strategies import raw_messages
from tests.play.client import Guest, stored_moves
from tests.play.conftest import ManualClock, Recorder
from tests.rooms.client import Friend
from tests.social.member import Member
from webapp.play import sockets, words
from webapp.play.hub import Hub, Listener, Refusal, TableSession
from webapp.rooms import logic, models
from webapp.rooms import sockets as room_sockets
from webapp.rooms.live import game_of
from webapp.services import Lapau
from webapp.sockets import PROBE

NOTICE = re.compile(r'<div id="notice" class="notice" role="alert">([^<]+)</div>')


_NOTICES: dict[tuple[int, str], dict[str, str]] = {}


def notices(app: Lapau, lang: str) -> dict[str, str]:
    """Every refusal notice as rendered in ``lang``, by code."""
    if (id(app), lang) not in _NOTICES:
        with app.test_request_context(f"/{lang}/"):
            g.lang_code = lang
            found = {code: sockets.notice(code) for code in [*words.REFUSALS, "?"]}
        _NOTICES[id(app), lang] = found
    return _NOTICES[id(app), lang]


def would_apply(session: TableSession, raw: str | bytes) -> bool:
    """Whether ``raw`` is a valid move for seat 0 right now, or a reaction (the fuzz must
    send neither: each is answered with something other than a notice)."""
    try:
        message = sockets.parse_message(raw)
        if isinstance(message, sockets.Reaction):
            return True
        if not isinstance(message, sockets.Move):
            return False  # a request for more time: no move
        action, version = message
        parsed = session.game.parse_action(action)
        session.game.apply(session.state, parsed)
    except Exception:  # noqa: BLE001 - any refusal at all means it would not apply
        return False
    return version == session.version and session.game.to_act(session.state) == 0


class FakeSocket:
    """What ``serve`` reads from: the queued messages, then a closed socket."""

    def __init__(self, messages: list[str | bytes]) -> None:
        self.messages: Iterator[str | bytes] = iter(messages)

    def receive(self) -> str | bytes | None:
        return next(self.messages, None)


class Table:
    """A seated guest's table where it is their turn, plus what a hostile client knows."""

    def __init__(self, app: Lapau, hub: Hub, clock: ManualClock) -> None:
        self.app, self.hub = app, hub
        self.session = open_table(hub, "koikoi", seed=11)
        to_seat(clock, self.session)
        # One valid move, kept to be replayed later; then it is the guest's turn again.
        first = str(self.session.game.legal_actions(self.session.state)[0])
        self.replays = [json.dumps({"a": first, "v": self.session.version})]
        self.send(self.replays[0], "en")
        to_seat(clock, self.session)
        others = [open_table(hub, game, seed=3) for game in ("koa", "kowah")]
        state = self.session.state
        hidden = sorted(self.session.game.hidden_cards(state, 0))
        verbs = {str(a).split()[0] for a in self.session.game.legal_actions(state)}
        self.moves = [
            *(str(a) for a in self.session.game.legal_actions(state)),
            *(f"{verb} {card}" for verb in verbs for card in hidden[:6]),
            *(str(a) for t in others for a in t.game.legal_actions(t.state)),
            "timeout",
            "next",
            "stop",
            "koikoi",
        ]
        self.other_ids = [t.id for t in others] + ["g-someone", "u-1", "u-2"]

    def send(self, raw: str | bytes, lang: str) -> list[str]:
        recorder = Recorder(self.session)
        with self.app.test_request_context(f"/{lang}/"):
            g.lang_code = lang
            sockets.serve(FakeSocket([raw]), self.session, Listener(recorder, 0, lang))
        return [html for _, html in recorder.messages[1:]]  # after the full snapshot

    def snapshot(self) -> tuple[Any, list[str], tuple[str, ...]]:
        stored = self.hub.store.load(self.session.id)
        assert stored is not None
        return self.session.state, list(self.session.log), stored.log


@pytest.fixture(scope="module")
def table(app: Lapau) -> Table:
    """One table for the module: no test here may change it."""
    hub: Hub = app.services.hub
    return Table(app, hub, ManualClock().hold(hub))


@fuzz(EXAMPLES * 4)
@given(data=st.data(), lang=st.sampled_from(["id", "en", "nl"]))
def test_a_hostile_message_gets_a_notice_and_changes_nothing(
    table: Table, app: Lapau, caplog: pytest.LogCaptureFixture, data: Any, lang: str
) -> None:
    before = table.snapshot()
    raw = data.draw(
        raw_messages(table.moves, table.session.version, table.other_ids, table.replays)
    )
    assume(not would_apply(table.session, raw))
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        replies = table.send(raw, lang)
    assert table.snapshot() == before
    assert len(replies) == 1, replies
    localized = notices(app, lang)
    assert replies[0] in localized.values()
    assert replies[0] != localized["try-again"], "an unexpected error was turned into a notice"
    assert NOTICE.fullmatch(replies[0])
    assert not caplog.records, [r.getMessage() for r in caplog.records]


def test_a_replayed_move_is_refused_as_stale(table: Table) -> None:
    before = table.snapshot()
    replies = table.send(table.replays[0], "en")
    assert "The table has moved on" in replies[0]
    assert table.snapshot() == before


@pytest.mark.parametrize("version", ["²", "٣", "３", "1_0", " 1", "+1"])
def test_a_version_that_only_looks_like_digits_is_malformed(table: Table, version: str) -> None:
    move = str(table.session.game.legal_actions(table.session.state)[0])
    before = table.snapshot()
    replies = table.send(json.dumps({"a": move, "v": version}), "en")
    assert "That message could not be read." in replies[0]
    assert table.snapshot() == before


# Against the real server -------------------------------------------------------------


class LiveTable:
    """A guest's socket on the frozen server, reopened whenever the server closes it."""

    def __init__(self, server: LiveServer) -> None:
        self.server = server
        self.guest = Guest(server)
        self.id = self.guest.open_table("koikoi", rounds="3")
        self.table = self.guest.connect(self.id)
        self.version = self.table.version
        self.moves = list(self.table.moves)
        self.closes = 0

    def would_apply(self, raw: object) -> bool:
        try:
            message = sockets.parse_message(raw)
        except Refusal:
            return False
        if isinstance(message, sockets.Reaction):
            return True  # shown to the table, not refused
        return isinstance(message, sockets.Move) and (
            message.action in self.moves and message.version == self.version
        )

    def reopen(self) -> None:
        self.table.ws.shutdown()  # closed by the server: release our end
        self.closes += 1
        self.table = self.guest.connect(self.id)
        assert self.table.version == self.version

    def answer(self) -> str | None:
        """The notice the server sent, or None if it closed the socket instead."""
        try:
            return self.table.receive_until('id="notice"', timeout=10)
        except (websocket.WebSocketConnectionClosedException, ConnectionError):
            return None
        except websocket.WebSocketException as error:
            if "timed out" in str(error):
                raise
            return None


@pytest.fixture(scope="module")
def live(frozen: LiveServer) -> Iterator[LiveTable]:
    table = LiveTable(frozen)
    yield table
    table.table.ws.shutdown()


@pytest.mark.live
@fuzz(EXAMPLES)
@given(data=st.data())
def test_hostile_frames_on_the_real_server_are_refused_or_closed(
    live: LiveTable, frozen: LiveServer, data: Any
) -> None:
    before = stored_moves(frozen, live.id)
    raw = data.draw(
        st.one_of(
            raw_messages(live.moves, live.version, ["g-x", "aaaaaaaaaa"]),
            st.binary(min_size=1, max_size=50).map(lambda b: ("bad-utf8", b"\xff" + b)),
            st.integers(4097, 9000).map(lambda n: "x" * n),
        )
    )
    assume(not live.would_apply(raw))
    if isinstance(raw, tuple):  # a text frame whose bytes are not UTF-8
        live.table.ws.send(raw[1], opcode=websocket.ABNF.OPCODE_TEXT)
    elif isinstance(raw, bytes):
        live.table.ws.send_binary(raw)
    else:
        live.table.send(raw)
    reply = live.answer()
    if reply is None:
        live.reopen()
    else:
        assert NOTICE.search(reply), reply
        assert "could not be saved" not in reply
    assert stored_moves(frozen, live.id) == before


# Rooms and a player's own page, against the real server -------------------------------

ROOM_ACTIONS = [
    "sit 1", "sit 9", "sit -1", "bot 2", "unbot 2", "bot 0", "kick 0", "kick 1",
    "level 1 hard", "level 2 god", "option full", "option x", "ready", "unready", "fill",
    "start", "leave",
]  # fmt: skip


def frame(ws: websocket.WebSocket, raw: object) -> None:
    """Send one drawn message as a frame: text, binary, or text whose bytes are not UTF-8."""
    if isinstance(raw, tuple):
        ws.send(raw[1], opcode=websocket.ABNF.OPCODE_TEXT)
    elif isinstance(raw, bytes):
        ws.send_binary(raw)
    else:
        ws.send(str(raw))


def readable(raw: object) -> bool:
    """Whether the server reads ``raw`` as a message at all (a frame too long, or text
    that is not UTF-8, ends the socket instead)."""
    return not isinstance(raw, tuple) and len(raw if isinstance(raw, bytes) else str(raw)) <= 4096


def until_probe(ws: websocket.WebSocket) -> list[str] | None:
    """Send a probe; every message before its answer (None: the server closed instead)."""
    received: list[str] = []
    try:
        ws.send(PROBE)
        ws.settimeout(10)
        while (message := ws.recv()) != PROBE:
            if not message:
                return None
            received.append(str(message))
    except websocket.WebSocketTimeoutException:
        raise
    except (websocket.WebSocketException, OSError):
        return None
    return received


def hostile_frames(moves: list[str]) -> st.SearchStrategy[Any]:
    return st.one_of(
        raw_messages(moves, 0, ["g-x", "aaaaaaaaaa"]),
        st.binary(min_size=1, max_size=50).map(lambda b: ("bad-utf8", b"\xff" + b)),
        st.integers(4097, 9000).map(lambda n: "x" * n),
    )


class LiveRoom:
    """A waiting room on the frozen server and its host, who opens a socket per message."""

    def __init__(self, server: LiveServer) -> None:
        self.server = server
        self.host = Friend(server)
        self.code = self.host.create_room()
        self.engine = create_engine(server.database_url)

    def room(self) -> Any:
        return models.load(self.engine, self.code)

    def would_apply(self, raw: object) -> bool:
        try:
            action = room_sockets.parse_message(raw)
            room = self.room()
            logic.act(room, game_of(room.game), room.host, action)
        except Exception:  # noqa: BLE001 - any refusal means it would not apply
            return False
        return True


@pytest.fixture(scope="module")
def live_room(frozen: LiveServer) -> Iterator[LiveRoom]:
    found = LiveRoom(frozen)
    yield found
    found.engine.dispose()


@pytest.mark.live
@fuzz(EXAMPLES)
@given(data=st.data())
def test_hostile_room_messages_get_a_notice_and_change_nothing(
    live_room: LiveRoom, frozen: LiveServer, data: Any
) -> None:
    raw = data.draw(hostile_frames(ROOM_ACTIONS))
    assume(not live_room.would_apply(raw))
    before = live_room.room()
    tracebacks = frozen.log.read_text().count("Traceback")
    ws = live_room.host.room(live_room.code).ws
    try:
        frame(ws, raw)
        received = until_probe(ws)
    finally:
        ws.shutdown()
    if readable(raw):
        assert received is not None, "the room closed a socket that sent one message"
        assert len(received) == 1 and 'id="room-notice"' in received[0], received
    assert live_room.room() == before
    assert frozen.log.read_text().count("Traceback") == tracebacks


@pytest.fixture(scope="module")
def member(frozen: LiveServer) -> Member:
    return Member(frozen, "fuzzed")


@pytest.mark.live
@fuzz(EXAMPLES)
@given(data=st.data())
def test_hostile_messages_to_a_players_page_socket_are_ignored(
    member: Member, frozen: LiveServer, data: Any
) -> None:
    """/ws/me takes one message (dismiss an invite); anything else is read and ignored:
    nothing is sent back, the socket stays open and nothing is logged as an error."""
    raw = data.draw(hostile_frames(["dismiss"]))
    tracebacks = frozen.log.read_text().count("Traceback")
    socket = member.me_socket()
    socket.receive_until('id="friends-badge"')  # the page's first update
    try:
        frame(socket.ws, raw)
        received = until_probe(socket.ws)
        later = until_probe(socket.ws) if received is not None else None  # a late answer
        received = None if later is None or received is None else received + later
    finally:
        socket.ws.shutdown()
    if readable(raw):
        assert received == [], received
    assert frozen.log.read_text().count("Traceback") == tracebacks


@pytest.mark.live
@pytest.mark.parametrize("raw", ["[" * 2000, '{"dismiss":' * 350])
def test_a_deeply_nested_message_leaves_the_page_socket_open(
    member: Member, frozen: LiveServer, raw: str
) -> None:
    socket = member.me_socket()
    socket.receive_until('id="friends-badge"')
    try:
        socket.send(raw)
        assert until_probe(socket.ws) == []
    finally:
        socket.ws.shutdown()
