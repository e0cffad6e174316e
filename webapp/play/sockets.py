"""The table's WebSocket: parse, hand to the hub, answer.  Nothing here decides a move.

A browser opens ``/ws/table/<id>?lang=xx``; the handshake is refused (403) unless the
Origin is this site.  The socket joins the table as the browser's seat (or as a
spectator), receives the full table, then sends forms as JSON: ``a`` (the action's
text) and ``v`` (the state version it was rendered at), ``e``, a reaction's preset
(play/emotes.py), or ``ask`` (a request to the table that is no move: "More time").
Anything else gets a clear, localized notice and changes nothing.  Pings, probes, the
socket's log line and its closing on SIGTERM are shared by every socket of the site
(webapp/sockets.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple
from urllib.parse import urlsplit

from flask import Flask, abort, current_app, g, render_template, request
from flask_sock import Sock

from webapp import display
from webapp.auth.live import held_socket
from webapp.locale import LANGUAGES
from webapp.play.emotes import PRESETS, react
from webapp.play.hub import ASK, MORE_TIME, Listener, Refusal, TableSession
from webapp.play.players import known_player
from webapp.play.render import split_fragments
from webapp.play.store import TableBroken
from webapp.services import services
from webapp.social.live import at_table
from webapp.sockets import LiveSocket, message_fields, sockets, well_formed

sock = Sock()


def same_origin() -> bool:
    """Whether the handshake comes from a page of this site: same scheme and host (a page
    served over plain http is another origin than the https site)."""
    origin = request.headers.get("Origin")
    if not origin:
        return False
    parts = urlsplit(origin)
    return (parts.scheme, parts.netloc) == (request.scheme, request.host)


class Move(NamedTuple):
    """A message that plays: the action's text and the version it was rendered at."""

    action: str
    version: int


class Reaction(NamedTuple):
    """A message that reacts: one of the presets (play/emotes.py), by its id."""

    preset: str


@dataclass(frozen=True)
class MoreTime:
    """The acting person asks the table for more time (no move: no version, no log)."""


def parse_message(raw: object) -> Move | Reaction | MoreTime:
    """The move, the reaction or the request for more time one message carries, or a
    :class:`Refusal`.  A reaction's or a request's form sends the page's version too
    (every form of the table does); it means nothing to them.

    >>> parse_message('{"a": "stop", "v": "12", "HEADERS": {}}')
    Move(action='stop', version=12)
    >>> parse_message('{"e": "thanks", "v": "12"}')
    Reaction(preset='thanks')
    >>> parse_message('{"ask": "more-time", "v": "12"}')
    MoreTime()
    """
    message = message_fields(raw, {"a", "v", "e", ASK}) or {}
    if ASK in message:
        # The closed set of requests has one member; a request is nothing else too.
        if message[ASK] != MORE_TIME or "a" in message or "e" in message:
            raise Refusal("malformed")
        return MoreTime()
    if "e" in message and "a" not in message:
        preset = message["e"]
        if not isinstance(preset, str) or preset not in PRESETS:  # a list is no dict key
            raise Refusal("malformed")
        return Reaction(preset)
    action, version = message.get("a"), message.get("v")
    if not isinstance(action, str) or not 0 < len(action) <= 64 or "e" in message:
        raise Refusal("malformed")
    text = str(version) if isinstance(version, str | int) else ""
    # Only ASCII digits: str.isdigit() also passes '²', which int() refuses.
    if not (text.isascii() and text.isdigit()):
        raise Refusal("malformed")
    return Move(action, int(text))


def notice(code: str, explanation: Any = None) -> str:
    """The notice of a refusal: its code's sentence, or the words that explain it."""
    html = render_template("play/_notice.html", code=code, explanation=explanation)
    return split_fragments(html)["notice"]


def serve(live: LiveSocket, session: TableSession, listener: Listener) -> None:
    live.slow_down = lambda: session.notify(listener, notice("slow-down"))
    session.join(listener)
    try:
        while True:
            raw = live.receive()
            if raw is None:
                return
            try:
                if listener.seat is None:
                    raise Refusal("spectator")
                message = parse_message(raw)
                if isinstance(message, Reaction):
                    react(session, listener.seat, message.preset)
                elif isinstance(message, MoreTime):
                    session.more_time(listener.seat)
                else:
                    session.submit(listener.seat, *message)
            except Refusal as refusal:
                session.notify(listener, notice(refusal.code, refusal.explanation))
            except Exception:  # a failed write must not drop the player
                current_app.logger.exception("action failed on table %s", session.id)
                session.notify(listener, notice("try-again"))
    finally:
        session.leave(listener)


def table_socket(ws: Any, table_id: str) -> None:
    try:
        session = services().hub.get(table_id)
    except TableBroken as broken:
        # Its moves no longer replay (a page open since before an update): the apology
        # takes the table's place, and a normal close keeps htmx from reconnecting.
        ws.send(render_template("play/_broken.html", broken=broken, oob=True))
        return
    if session is None:  # checked at the handshake; gone since only if deleted
        return
    player = known_player()
    seat = session.seat_of(player) if player else None
    role = "spectator" if seat is None else "player"
    # A spectator joins the table's watchers, whose number is capped; a seated player never is.
    crowd = None if seat is not None else f"table:{table_id}"
    live_socket = LiveSocket(
        ws, "table", table_id, g.lang_code, seat, role, player=player, crowd=crowd, notice=notice
    )
    with (
        sockets().session(live_socket) as live,
        # Held under its sign-in: signing out closes it (see webapp/auth/live.py).
        held_socket(live),
        at_table(player, session, seated=seat is not None),
    ):
        shown = display.current()
        listener = Listener(
            live, seat, g.lang_code, lite=shown.lite_cards, reactions=shown.reactions
        )
        serve(live, session, listener)


sock.route("/ws/table/<table_id>")(table_socket)


def check_handshake() -> None:
    if request.path.startswith("/ws/"):
        if not same_origin():
            abort(403)
        rule = request.url_rule
        if rule is not None and rule.websocket and not well_formed(dict(request.headers)):
            abort(400)  # a handshake no browser sends (the socket library would fail on it)
        lang = request.args.get("lang", "")
        g.lang_code = lang if lang in LANGUAGES else "id"
        table_id = (request.view_args or {}).get("table_id")
        if table_id is None:
            return  # not a table's socket: a room's checks its own target
        try:
            if len(table_id) > 16 or services().hub.get(table_id) is None:
                abort(404)
        except TableBroken:
            return  # the socket itself says the table has ended


def init_app(app: Flask) -> None:
    sock.init_app(app)
    app.before_request(check_handshake)
