"""What changes live, and who is told: presence to friends, requests to both people,
invites to the invited.

Nothing is rendered here.  Each signed-in page's socket (webapp/social/sockets.py) is a
subscriber of its player's channel (``me:<player>``, webapp/channels.py); this module
publishes the *name* of what changed there ("row:12", "list", "badge", "invites",
"offer"), its handler delivers the name to the page's mailbox, which keeps the names its
page shows, and the socket renders them in its own request, so every fragment is in its
reader's language, for its reader, with their own CSRF tokens.

Presence follows the channels' events: a person with a socket on a table's channel or on
their own is online, and playing while seated at a running table.  Each process states
its own players' statuses for the others (webapp/facts.py: in Redis when several processes
serve the site); a place that changes (a room filling, a table ending) is published on
its channel (``place:<key>``), since its players' sockets may be on any process.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from dataclasses import asdict
from typing import Any

from flask import Flask, g, url_for

from webapp.channels import Channels, Subscriber, kind_of, rendering
from webapp.facts import Facts, LocalFacts
from webapp.game import registry
from webapp.locale import DEFAULT_LANGUAGE
from webapp.services import services
from webapp.social import friends
from webapp.social.invites import Invite, InviteBook, Invites, is_local
from webapp.social.presence import OFFLINE, Place, Presence, Socket, Status, encoded, merged

#: The channels whose sockets make their person online.
PRESENT_ON = {"table", "me"}


def topic(player: str) -> str:
    """A player's own channel: every page of theirs open on the site."""
    return f"me:{player}"


def presence_key(player: str) -> str:
    """The fact each process states of ``player``'s sockets there (webapp/facts.py)."""
    return f"presence:{player}"


class Social:
    """Presence and invites of this process, and the fan-out between them and friends."""

    def __init__(
        self,
        app: Flask,
        channels: Channels,
        facts: Facts | None = None,
        invites: InviteBook | None = None,
    ) -> None:
        self.app = app
        self.presence = Presence()
        #: The live invites: in this process's memory, or in Redis for every process.
        self.invites: InviteBook = invites or Invites()
        #: Every process's statuses of its players (webapp/facts.py).
        self.facts: Facts = facts or LocalFacts()
        self.presence.on_status.extend([self.state, self.status_changed])
        self.channels = channels
        #: The presence of each account's socket on a table's channel or their own.
        self.present: dict[Subscriber, Socket] = {}
        self.lock = threading.Lock()
        channels.listen("me", self.published)
        channels.listen("place", self.place_changed)
        channels.on_gap.append(self.resync)

    def status(self, player: str) -> Status:
        """``player``'s status on the site, whichever processes hold their sockets."""
        return merged(self.facts.gather(presence_key(player)))

    def statuses(self, players: Sequence[str]) -> dict[str, Status]:
        """:meth:`status` of each of ``players``, read at once."""
        found = self.facts.gather_many([presence_key(player) for player in players])
        return {player: merged(values) for player, values in zip(players, found, strict=True)}

    def state(self, player: str, _status: Status) -> None:
        """State this process's status of ``player`` for every process (read as it is
        now: a change racing this one is then stated by whichever writes last)."""
        status = self.presence.status(player)
        if status == OFFLINE:
            self.facts.drop(presence_key(player))
        else:
            self.facts.put(presence_key(player), encoded(status, time.time()))

    def resync(self) -> None:
        """Messages from other processes may have been lost (the broker's ``on_gap``):
        this process's statuses are stated again and told to the friends of its players
        (pages on other processes may have read them while they were missing), and its
        players' pages render all they show again."""
        self.facts.restate()
        for player in self.presence.players():
            self.status_changed(player, self.presence.status(player))
        for channel in self.channels.topics_of("me"):
            for name in ("invites", "badge", "list", "offer"):
                self.published(channel, name)

    def subscribed(self, channel: str, subscriber: Subscriber) -> None:
        """A socket joined a table or its player's own channel: its person is online, and
        playing while seated at a running table (the socket says where)."""
        person = subscriber.person
        if kind_of(channel) not in PRESENT_ON or person is None:
            return
        if friends.player_account(person) is None:
            return
        socket = self.presence.open(person, subscriber.place)
        with self.lock:
            self.present[subscriber] = socket

    def unsubscribed(self, _topic: str, subscriber: Subscriber) -> None:
        with self.lock:
            socket = self.present.pop(subscriber, None)
        if socket is not None:
            self.presence.close(socket)

    def tell(self, player: str, what: str) -> None:
        """Tell every page of ``player`` that ``what`` changed (each page keeps what it shows)."""
        self.channels.publish(topic(player), what)

    def published(self, channel: str, what: object) -> None:
        """The handler of the players' channels: the name goes to each page of this process."""
        for subscriber in self.channels.subscribers(channel):
            self.channels.deliver(channel, subscriber, str(what))

    def status_changed(self, player: str, _status: Status) -> None:
        account = friends.player_account(player)
        if account is None:
            return
        for friend in friends.friend_ids(account):
            self.tell(f"u-{friend}", f"row:{account}")  # to the pages listing friends
            self.tell(f"u-{friend}", "offer")  # to the waiting rooms' invite lists

    def circle_changed(self, actor: int, other: int) -> None:
        """``actor`` sent, answered or withdrew a request, or ended a friendship.

        The actor's own page is answered by their request; a list pushed at the same
        moment would replace the form being answered (htmx then loses its target).
        """
        self.tell(f"u-{actor}", "badge")
        self.tell(f"u-{other}", "badge")
        self.tell(f"u-{other}", "list")
        self.tell(f"u-{other}", "offer")

    def invite(self, sender: str, to: str, game: str, link: str) -> Invite | None:
        """Invite a friend to a room; None unless both are accounts and friends."""
        mine, theirs = friends.player_account(sender), friends.player_account(to)
        if mine is None or theirs is None or not friends.are_friends(mine, theirs):
            return None
        if game not in registry.games() or not is_local(link):
            return None
        found = friends.people([mine])
        if not found:
            return None
        made = self.invites.add(sender, found[0].username, to, game, link)
        self.tell(to, "invites")
        # The sender's room pages get their list again: one rendered just before the
        # invite (a socket that had just opened) may replace the row the button marks.
        self.tell(sender, "offer")
        return made

    def expire(self, link: str) -> None:
        """The room started or closed: its invites go, live."""
        for player in self.invites.expire(link):
            self.tell(player, "invites")

    def answer_invite(self, player: str, invite_id: str) -> Invite | None:
        taken = self.invites.take(player, invite_id)
        if taken is not None:
            # Every other page of theirs drops the toast too.
            self.tell(player, "invites")
        return taken

    def table_finished(self, table: Any) -> None:
        """The hub's ``on_finish``: the table's players are no longer in a game (on
        every process: their sockets may be anywhere)."""
        self.channels.publish(f"place:table:{table.id}", {"place": None})

    def room_changed(self, room: Any, _event: str) -> None:
        """The rooms' ``on_change``: seated players are in a waiting room (joinable while
        a seat is free); once the room starts or closes, they are not, and its invites go."""
        key = f"room:{room.code}"
        with rendering(self.app, DEFAULT_LANGUAGE):
            link = url_for("rooms.room", code=room.code, lang_code=DEFAULT_LANGUAGE)
        if room.status != "waiting":
            self.channels.publish(f"place:{key}", {"place": None})
            self.expire(link)
            return
        place = Place("room", key, room.game, link, joinable=not room.is_full())
        seated = [p for p in room.humans() if friends.player_account(p) is not None]
        self.channels.publish(f"place:{key}", {"place": asdict(place), "seated": seated})

    def place_changed(self, channel: str, message: object) -> None:
        """A place changed or ended (``place:<key>``, from any process): this process's
        sockets there, and who holds a seat there, follow."""
        if not isinstance(message, dict):
            return
        # Another process's message arrives in the broker's reader, outside any request:
        # the statuses' listeners read the database through the app (friends to tell).
        with self.app.app_context():
            key = channel.partition(":")[2]
            found = message.get("place")
            if not isinstance(found, dict):
                self.presence.update(key, None)
                return
            place = Place(**found)
            seated = set(message.get("seated") or ())
            for player, held in list(self.presence.seated.items()):
                if held.key == key and player not in seated:
                    self.presence.seat(player, None)
            for player in seated:
                self.presence.seat(player, place)


def social(app: Flask | None = None) -> Social:
    return services(app).social


def invite(from_player: str, to_player: str, game: str, link: str) -> Invite | None:
    """Invite ``to_player`` to the room at ``link`` (a path on this site) for ``game``.

    The rooms' "Invite a friend" calls this; the friend sees the invite at once on
    whatever page they have open.  None when they are not friends (or not accounts).
    """
    return social().invite(from_player, to_player, game, link)


def expire_invites(link: str) -> None:
    """The room at ``link`` started or closed: every invite to it disappears."""
    social().expire(link)


#: Where a request keeps the statuses it read (see status_of).
STATUSES = "lapau_statuses"


def status_of(person: friends.Person) -> Status:
    """A friend's status, read once per request (a list filters, sorts and draws by it).
    A page's socket is one long request: it forgets them before each update it renders
    (:func:`forget_statuses`)."""
    known = statuses_of([person])
    return known[person.player]


def statuses_of(people: Sequence[friends.Person]) -> dict[str, Status]:
    """The statuses of ``people``, those not read yet in this request read at once (with
    Redis, one round trip for a whole friends list instead of three per friend)."""
    known: dict[str, Status] = g.setdefault(STATUSES, {})
    missing = [person.player for person in people if person.player not in known]
    if missing:
        known.update(social().statuses(missing))
    return known


def forget_statuses() -> None:
    g.pop(STATUSES, None)
