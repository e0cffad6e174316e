"""The table's WebSocket: parse, hand to the hub, answer.  Nothing here decides a move.

A browser opens ``/ws/table/<id>?lang=xx``; the handshake is refused (403) unless the
Origin is this site.  The socket joins the table as the browser's seat (or as a
spectator), receives the full table, then sends forms as JSON: ``a`` (the action's
text) and ``v`` (the state version it was rendered at), ``e``, a reaction's preset
(play/emotes.py), or ``ask`` (a request to the table that is no move: "More time").
Anything else gets a clear, localized notice and changes nothing.
Pings, probes, the socket's log line and its closing on SIGTERM, the handshake's checks
and the receive loop are shared by every socket of the site (webapp/sockets.py); the
parser by every message (webapp/messages.py).
"""

from __future__ import annotations

from typing import Any

from flask import Flask, abort, g, render_template, request, url_for

from webapp import display
from webapp.auth.live import held_socket
from webapp.channels import Place, Subscriber
from webapp.messages import Message, MoreTime, Move, Reaction, Unexpected
from webapp.play.emotes import PRESETS, react
from webapp.play.hub import Refusal, TableSession
from webapp.play.players import known_player
from webapp.play.render import split_fragments
from webapp.play.routes import bp
from webapp.play.store import TableBroken
from webapp.services import services
from webapp.sockets import LiveSocket, Receiver, serve_messages, sock, sockets


def notice(code: str, explanation: Any = None) -> str:
    """The notice of a refusal: its code's sentence, or the words that explain it."""
    html = render_template("play/_notice.html", code=code, explanation=explanation)
    return split_fragments(html)["notice"]


def serve(live: Receiver, session: TableSession, subscriber: Subscriber) -> None:
    def handle(message: Message | Unexpected) -> str | None:
        if subscriber.seat is None:
            return "spectator"
        known = isinstance(message, Reaction) and message.preset in PRESETS
        if not known and not isinstance(message, Move | MoreTime):
            return "malformed"
        try:
            if isinstance(message, Reaction):
                react(session, subscriber.seat, message.preset)
            elif isinstance(message, MoreTime):
                session.more_time(subscriber.seat)
            elif isinstance(message, Move):
                session.submit(subscriber.seat, message.action, message.version)
        except Refusal as refusal:
            # Told here: a refusal may carry the words that explain it (a lesson's coach).
            session.notify(subscriber, notice(refusal.code, refusal.explanation))
        return None

    def tell(code: str) -> None:
        session.notify(subscriber, notice(code))

    try:  # a join that fails half-way still leaves the channel
        session.join(subscriber)
        serve_messages(live, handle, tell, f"table {session.id}")
    finally:
        session.leave(subscriber)


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
    # A person seated at a running table plays there (their friends see it).
    place = None
    if seat is not None and not session.finished:
        link = url_for("play.table", table_id=session.id)
        place = Place("table", session.topic, session.game.name, link)
    shown = display.current()
    subscriber = Subscriber(
        live_socket,
        seat,
        g.lang_code,
        lite=shown.lite_cards,
        reactions=shown.reactions,
        person=player,
        place=place,
    )
    # Held under its sign-in: signing out closes it (see webapp/auth/live.py).
    with sockets().session(live_socket) as live, held_socket(live):
        serve(live, session, subscriber)


# On the blueprint, so the route is registered with it.
sock.route("/ws/table/<table_id>", bp=bp)(table_socket)


def check_table() -> None:
    """Refuse the handshake of a table that does not exist (after the site's checks)."""
    table_id = (request.view_args or {}).get("table_id")
    if not request.path.startswith("/ws/table/") or table_id is None:
        return
    try:
        if len(table_id) > 16 or services().hub.get(table_id) is None:
            abort(404)
    except TableBroken:
        return  # the socket itself says the table has ended


def init_app(app: Flask) -> None:
    app.before_request(check_table)
