"""Rooms over HTTP: play with friends, create a room, join by code, the waiting room.

Every page works without scripts: the room's buttons are plain forms posted here (with
their CSRF token) and the page refreshes itself.  With scripts, the same buttons go over
the room's WebSocket (sockets.py) and the page updates live.
"""

from __future__ import annotations

from flask import (
    Blueprint,
    abort,
    g,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_limiter.util import get_remote_address
from flask_login import current_user
from limits import parse
from werkzeug.wrappers import Response

from webapp.adapters import setups
from webapp.play.players import current_player, known_player
from webapp.rate_limits import rate_limited
from webapp.rooms import logic, names
from webapp.rooms.live import Rooms, context
from webapp.rooms.logic import Room, RoomRefusal
from webapp.services import services

bp = Blueprint("rooms", __name__)

#: Wrong or expired codes, typed or in a URL, per address: guessing stays slow.
MISSES = parse("12/minute")

Page = str | Response | tuple[str, int]


def rooms() -> Rooms:
    return services().rooms


def display_name() -> str:
    """How the room shows this person: the account's username, else the name a guest
    typed (kept in their session), else nothing (the page says "Guest")."""
    if current_user and current_user.is_authenticated:
        return str(current_user.username)
    typed = request.form.get("name")
    if typed is not None:
        cleaned = logic.clean_name(typed)
        # A name that passes for someone else is not taken: the guest shows as "Guest".
        g.name_refused = names.imitates(cleaned)
        session["name"] = "" if g.name_refused else cleaned
    name = session.get("name", "")
    return name if isinstance(name, str) else ""


def count_miss() -> None:
    """Count a code that leads nowhere against this address's limit (429 past it).

    Every door that takes a code counts, the WebSocket's handshake included: a door
    that did not would tell codes apart at any speed.
    """
    found = services().limiter
    # A limiter switched off (RATELIMIT_ENABLED) has no storage to count in.
    if found.enabled and not found.limiter.hit(MISSES, "rooms-miss", get_remote_address()):
        abort(429)


def miss(code: str, status: int) -> tuple[str, int]:
    """A code that leads nowhere: counted per address, then explained."""
    count_miss()
    expired = status == 410
    return render_template(
        "rooms/index.html", setups=setups(), code=code, expired=expired, wrong=not expired
    ), status


def stranger(code: str) -> tuple[str, int]:
    """Someone asking about a room they are not in: counted as a guess, and answered as
    a code that leads nowhere, whether or not the room exists."""
    return miss(code, 404)


def find(code: str) -> Room | tuple[str, int]:
    cleaned = logic.clean_code(code)
    room = rooms().get(cleaned) if cleaned else None
    if room is None:
        return miss(code, 404)
    if not room.is_open():
        return miss(code, 410)
    return room


@bp.get("/<lang_code>/room/")
def index() -> str:
    return render_template("rooms/index.html", setups=setups(), code="", wrong=False, expired=False)


@bp.post("/<lang_code>/room/new")
@rate_limited("10/minute")
def create() -> Response:
    game = request.form.get("game", "")
    if game not in setups():
        abort(400)
    room = rooms().create(game, current_player(), display_name())
    return redirect(url_for("rooms.room", code=room.code, notice=name_notice()), code=303)


def name_notice() -> str | None:
    """The notice for a typed name that was not taken (None: no notice)."""
    return "name-taken" if g.get("name_refused") else None


@bp.post("/<lang_code>/room/join")
@rate_limited("20/minute")
def join() -> Page:
    """Join by a typed code: a seat if there is one, else the room's page."""
    found = find(request.form.get("code", ""))
    if not isinstance(found, Room):
        return found
    return take(found)


@bp.post("/<lang_code>/room/<code>/join")
@rate_limited("20/minute")
def take_seat(code: str) -> Page:
    found = find(code)
    if not isinstance(found, Room):
        return found
    seat = request.form.get("seat", "")
    number = seat.isascii() and seat.isdigit() and len(seat) <= 2  # '²' passes isdigit()
    return take(found, int(seat) if number else None)


def take(room: Room, seat: int | None = None) -> Response:
    name = display_name()
    target = url_for("rooms.room", code=room.code, notice=name_notice())
    if room.status == logic.WAITING:
        try:
            rooms().join(room.code, current_player(), name, seat)
        except RoomRefusal as refusal:
            target = url_for("rooms.room", code=room.code, notice=refusal.code)
    return redirect(target, code=303)


@bp.get("/<lang_code>/room/<code>")
def room(code: str) -> Page:
    found = find(code)
    if not isinstance(found, Room):
        return found
    if found.code != code:
        return redirect(url_for("rooms.room", code=found.code), code=301)
    player = known_player()
    if found.status == logic.PLAYING and found.seat_of(player) is not None:
        return redirect(url_for("play.table", table_id=found.table_id), code=303)
    values = context(found, player, online=rooms().online(found.code), with_token=True)
    return render_template("rooms/room.html", name=display_name(), **values)


#: What a room answers someone who is not in it (or a room that does not exist).
STRANGER = {"no-room", "not-seated"}


@bp.post("/<lang_code>/room/<code>/act")
def act(code: str) -> Page:
    """A room button posted without the socket (no scripts, or the socket is down)."""
    player = known_player()
    if player is None:
        abort(403)
    target = url_for("rooms.room", code=code)
    try:
        room = rooms().act(code, player, request.form.get("a", ""))
    except RoomRefusal as refusal:
        if refusal.code in STRANGER:
            return stranger(code)
        target = url_for("rooms.room", code=code, notice=refusal.code)
    else:
        if room.status == logic.PLAYING and room.table_id:
            target = url_for("play.table", table_id=room.table_id)
        elif room.seat_of(player) is None:
            target = url_for("rooms.index")
    return redirect(target, code=303)


@bp.post("/<lang_code>/room/<code>/name")
def rename(code: str) -> Page:
    """A guest tells the room their name (an account's is its username)."""
    player = known_player()
    if player is None or (current_user and current_user.is_authenticated):
        abort(403)
    name = display_name()
    if g.get("name_refused"):
        return redirect(url_for("rooms.room", code=code, notice=name_notice()), code=303)
    target = url_for("rooms.room", code=code)
    try:
        rooms().rename(code, player, name)
    except RoomRefusal as refusal:
        if refusal.code in STRANGER:
            return stranger(code)
        target = url_for("rooms.room", code=code, notice=refusal.code)
    return redirect(target, code=303)


@bp.post("/<lang_code>/room/again/<table_id>")
@rate_limited("20/minute")
def again(table_id: str) -> Response:
    """Play again with the same people: the rematch room of a room's finished table.

    Posted from the table's end-of-match form (its CSRF token is the table page's).
    """
    player = known_player()
    if player is None:
        abort(403)
    try:
        room = rooms().again(table_id, player)
    except RoomRefusal as refusal:
        if refusal.code == "no-room":
            abort(404)
        return redirect(url_for("play.table", table_id=table_id, notice=refusal.code), code=303)
    return redirect(url_for("rooms.room", code=room.code), code=303)


@bp.get("/<lang_code>/room/<code>/go")
def go(code: str) -> Response:
    """Where a started room's sockets are sent: htmx follows ``HX-Redirect`` to the
    table with a full page load (the room page asks for it as soon as the room's
    socket says the match has begun)."""
    room = rooms().get(code)
    if room is None:
        count_miss()
    if room is None or room.table_id is None:
        abort(404)
    target = url_for("play.table", table_id=room.table_id)
    if request.headers.get("HX-Request"):
        response = Response(status=204)
        response.headers["HX-Redirect"] = target
        return response
    return redirect(target, code=303)
