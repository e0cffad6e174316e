"""The per-page socket of a signed-in player: ``/ws/me?lang=xx[&list=1]``.

Open while any page of the site is, it makes its player *online* and carries what
changes for them: their friends' status (only to a page showing the friends list,
``list=1``), friend requests and invites.  It is a subscriber of its player's channel
(``me:<player>``): what changed arrives there as a name (webapp/social/live.py), its
mailbox keeps the names the page shows, and the socket renders them here, in its own
request: in its reader's language, with their CSRF tokens.  From the browser it
accepts one message, ``{"dismiss": "<invite id>"}``; anything else is ignored.  Pings,
probes, the socket's log line and its closing on SIGTERM are shared by every socket of the
site (webapp/sockets.py).
"""

from __future__ import annotations

import queue
import threading
from typing import Any

from flask import abort, current_app, g, render_template, request, url_for

from webapp.auth.live import held_socket
from webapp.channels import Subscriber
from webapp.messages import Dismiss, Message, Unexpected
from webapp.play.players import signed_in_player
from webapp.play.render import split_fragments
from webapp.services import services
from webapp.social import friends
from webapp.social.live import forget_statuses, social, topic
from webapp.social.routes import bp
from webapp.sockets import LiveSocket, serve_messages, sock, sockets

PATH = "/ws/me"
CLOSED = "\0closed"


class Mailbox:
    """What this socket must send next: change names from its channel, messages from the
    browser.  It keeps only what its page shows: the friends list and its rows on a page
    that lists them (``watching``), the invite list on a waiting room's page (``offer``,
    the room's code)."""

    def __init__(self, watching: bool = False, offer: str | None = None) -> None:
        self.queue: queue.Queue[str] = queue.Queue()
        self.watching = watching
        self.offer = offer

    def shows(self, what: str) -> bool:
        """
        >>> Mailbox().shows("row:3"), Mailbox(watching=True).shows("list"), Mailbox().shows("offer")
        (False, True, False)
        """
        if what == "list" or what.startswith("row:"):
            return self.watching
        if what == "offer":
            return self.offer is not None
        return True

    def send(self, what: str) -> None:
        if self.shows(what):
            self.queue.put(what)

    def close(self, reason: int = 1000, message: str | None = None) -> None:
        """The page's channel ends it: the socket's loop stops."""
        self.queue.put(CLOSED)

    def drain(self) -> list[str]:
        """Everything waiting (at least one item: blocks until there is)."""
        items = [self.queue.get()]
        while True:
            try:
                items.append(self.queue.get_nowait())
            except queue.Empty:
                return items


def offer_fragment(code: str, player: str) -> str:
    """A waiting room's "Invite a friend" list, for the page of someone seated in it.

    Anyone else gets nothing, the same for a real room's code as for a made-up one.
    """
    room = services().rooms.get(code)
    if room is None or room.status != "waiting" or room.seat_of(player) is None:
        return ""
    return render_template(
        "social/_invite_friends.html",
        invite_game=room.game,
        invite_to=url_for("rooms.room", code=room.code),
        invite_here=room.humans(),
    )


def fragments(player: str, names: set[str], offer: str | None = None) -> list[str]:
    """The fragments named, rendered for this socket's reader."""
    account = friends.player_account(player)
    assert account is not None
    forget_statuses()  # this socket's request lasts: statuses read for the last update
    html = ""
    if "invites" in names:
        html += render_template("social/_invites.html", invites=social().invites.of(player))
    if "badge" in names:
        html += render_template("social/_badge.html", waiting=friends.waiting_count(account))
    if "offer" in names and offer is not None:
        html += offer_fragment(offer, player)
    if "list" in names:
        html += render_template("social/_circle.html", circle=friends.circle(account))
    else:
        rows = [int(name[4:]) for name in names if name.startswith("row:")]
        for person in friends.people(rows):
            html += render_template("social/_row.html", friend=person)
    return list(split_fragments(html).values())


def reader(live: LiveSocket, mailbox: Mailbox) -> None:
    """The socket's receive loop, in a thread of its own: the socket's greenlet waits on
    the mailbox.  A dismissal goes to the mailbox; anything else is ignored (this page
    has no notice to show)."""

    def handle(message: Message | Unexpected) -> None:
        if isinstance(message, Dismiss):
            mailbox.send("dismiss:" + message.invite)

    try:
        serve_messages(live, handle, lambda _refusal: None, "a player's page")
    except Exception:  # noqa: BLE001 - a closed or broken socket ends the same way
        pass
    mailbox.send(CLOSED)


def me_socket(ws: Any) -> None:
    player = signed_in_player()
    if player is None:  # checked at the handshake
        return
    live_socket = LiveSocket(ws, "me", None, g.lang_code, player=player)
    # Held under its sign-in: ending the sign-in closes it (see webapp/auth/live.py).
    with sockets().session(live_socket) as live, held_socket(live):
        serve(live, player)


def serve(live: LiveSocket, player: str) -> None:
    """Send what changes for ``player`` until the socket closes."""
    offer = request.args.get("room") or None
    mailbox = Mailbox(request.args.get("list") == "1", offer[:12] if offer else None)
    page = Subscriber(mailbox, language=g.lang_code, person=player)
    # On the player's channel: online while it is open (presence follows its events).
    with services().channels.joined(topic(player), page):
        for name in ("invites", "badge", "list", "offer"):
            mailbox.send(name)  # what the page shows
        threading.Thread(target=reader, args=(live, mailbox), daemon=True).start()
        while True:
            names = set(mailbox.drain())
            if CLOSED in names:
                return
            for name in [n for n in names if n.startswith("dismiss:")]:
                social().answer_invite(player, name.partition(":")[2])
            try:
                parts = fragments(player, names, mailbox.offer)
            except Exception:  # a failed render must not drop the page's socket
                current_app.logger.exception("friends update failed for %s", player)
                continue
            if parts:
                try:
                    live.send("\n".join(parts))
                except Exception:  # noqa: BLE001 - the browser went away
                    return


# On the blueprint, so the route is registered with it.
sock.route(PATH, bp=bp)(me_socket)


def check_handshake() -> None:
    """Only a signed-in player has a socket of their own (the Origin is checked for every
    ``/ws/`` path in webapp/sockets.py)."""
    if request.path == PATH and signed_in_player() is None:
        abort(403)
