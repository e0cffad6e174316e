"""The friends page and its forms, and the answers to an invite.

Thin views: parse, call webapp/social/friends.py or live.py, redirect.  Every form is a
plain POST that redirects back (so it works without scripts); with htmx the friends page
is boosted, so the same redirect's page is swapped in without a reload.
"""

from __future__ import annotations

from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from flask import (
    Blueprint,
    abort,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext as _
from flask_login import current_user
from werkzeug.exceptions import HTTPException
from werkzeug.wrappers import Response

from webapp.auth.routes import needs_login
from webapp.locale import current_language
from webapp.pages import safe_next, same_site_referrer
from webapp.play.players import signed_in_player
from webapp.rate_limits import rate_limited
from webapp.services import services
from webapp.social import friends
from webapp.social.invites import localized
from webapp.social.live import social

if TYPE_CHECKING:  # importing webapp.rooms here would be circular: its sockets need play's
    from webapp.rooms.logic import Room

bp = Blueprint("social", __name__)

ACTIONS: tuple[friends.Action, ...] = ("accept", "decline", "cancel", "remove")


def me() -> int:
    player = signed_in_player()
    account = friends.player_account(player) if player else None
    if account is None:
        abort(403)
    return account


def back_to_friends() -> Response:
    query = request.form.get("q", "").strip()[:20]
    target = url_for("social.friends", q=query) if query else url_for("social.friends")
    return redirect(target, code=303)


def came_from() -> str:
    """The page a form was posted from (same site only), else the friends page."""
    return same_site_referrer() or url_for("social.friends")


@bp.get("/<lang_code>/friends", endpoint="friends")
@needs_login
def friends_page() -> str:
    mine = me()
    query = request.args.get("q", "").strip()[:20]
    return render_template(
        "social/friends.html",
        q=query,
        results=friends.search(query, mine) if query else [],
        circle=friends.circle(mine),
    )


def asked(outcome: friends.Asked, name: str) -> tuple[str, str]:
    """What to tell someone who asked: the message and its kind."""
    if outcome == "sent":
        return _("Request sent to %(name)s.", name=name), "done"
    if outcome == "accepted":
        return _("You and %(name)s are friends now.", name=name), "done"
    if outcome == "friends":
        return _("You and %(name)s are friends already.", name=name), "info"
    if outcome == "yourself":
        return _("That is you."), "info"
    return _("You asked %(name)s already. They have not answered yet.", name=name), "info"


@bp.post("/<lang_code>/friends/ask")
@rate_limited("20/minute")
@needs_login
def ask() -> Response:
    mine = me()
    found = friends.find(request.form.get("username", ""))
    if found is None:
        flash(_("Nobody plays under that username."), "error")
        return back_to_friends()
    outcome = friends.ask(mine, found.id)
    flash(*asked(outcome, found.username))
    if outcome in ("sent", "accepted"):
        social().circle_changed(mine, found.id)
    return back_to_friends()


@bp.post("/<lang_code>/friends/<id:other>/<action>")
@needs_login
def change(other: int, action: str) -> Response:
    if action not in ACTIONS:
        abort(404)
    mine = me()
    chosen = ACTIONS[ACTIONS.index(action)]
    if friends.answer(mine, other, chosen):
        social().circle_changed(mine, other)
    return back_to_friends()


@bp.post("/<lang_code>/friends/invite")
@rate_limited("30/minute")
@needs_login
def send_invite() -> Response | str:
    """A room's "Invite a friend" button: the friend sees the invite live.

    With htmx the answer is the friend's row, marked invited; without, the room again.
    """
    player = signed_in_player()
    assert player is not None
    to = request.form.get("to", "")
    link = safe_next(request.form.get("link"))
    # Only to a room still waiting for players, in which the sender has a seat: an
    # invite is never a link to anywhere else on the site.
    room = waiting_room(link, player)
    game = room.game if room is not None else ""
    found = friends.people([int(to)]) if to.isdigit() and len(to) < 12 else []
    made = social().invite(player, found[0].player, game, link) if found and room else None
    if request.headers.get("HX-Request") and made is not None:
        return render_template(
            "social/_invite_row.html",
            friend=found[0],
            invited=True,
            invite_here=(),
            invite_game=game,
            invite_to=link,
        )
    if made is None:
        flash(_("That invite could not be sent."), "error")
    else:
        flash(_("Invite sent to %(name)s.", name=found[0].username), "done")
    return redirect(link, code=303)


def room_at(link: str) -> Room | None:
    """The room a link points at, if any.  The link is matched against the app's own
    routes, so it follows the room page's URL."""
    try:
        endpoint, args = current_app.url_map.bind("lapau").match(urlsplit(link).path)
    except HTTPException:  # no route, or one that redirects
        return None
    return services().rooms.get(str(args["code"])) if endpoint == "rooms.room" else None


def waiting_room(link: str, player: str) -> Room | None:
    """The room a link points at, if it still waits for players and ``player`` sits in it."""
    room = room_at(link)
    if room is None or room.status != "waiting" or room.seat_of(player) is None:
        return None
    return room


#: Why an invited friend could not sit down, and what the room page tells them: they
#: may still watch once the match starts.
NO_SEAT = {"room-full": "invite-full", "room-locked": "invite-locked"}


@bp.post("/<lang_code>/invites/<invite_id>/join")
@needs_login
def join_invite(invite_id: str) -> Response:
    """Accepting an invite seats the friend in a free seat of the room, ready (they said
    yes); with no seat free (or a locked room) they land on its page to watch, told why."""
    from webapp.rooms.logic import RoomRefusal  # see the import of Room above

    player = signed_in_player()
    assert player is not None and current_user.is_authenticated
    taken = social().answer_invite(player, invite_id)
    if taken is None:
        flash(_("That invite is no longer open."), "info")
        return redirect(url_for("social.friends"), code=303)
    target = localized(taken.link, current_language())
    room = room_at(taken.link)
    if room is not None and room.status == "waiting":
        try:
            services().rooms.join(room.code, player, current_user.username, ready=True)
        except RoomRefusal as refusal:
            notice = NO_SEAT.get(refusal.code, refusal.code)
            target = url_for("rooms.room", code=room.code, notice=notice)
    return redirect(target, code=303)


@bp.post("/<lang_code>/invites/<invite_id>/dismiss")
@needs_login
def dismiss_invite(invite_id: str) -> Response:
    player = signed_in_player()
    assert player is not None
    social().answer_invite(player, invite_id)
    return redirect(came_from(), code=303)
