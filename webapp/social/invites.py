"""Invites to a waiting room: shown live to the friend, gone when the room is; kept in
this process's memory (:class:`Invites`), or in Redis when several processes serve the
site (:class:`RedisInvites`), so an invite sent on one reaches the friend on another.

An invite names who sent it, to whom, the game and the room's link.  The link is a path on
this site in the sender's language; the invited friend is shown it in theirs, and the
link without its language is the room's key, so ``expire`` can drop every invite to a room
once it starts or closes.  An unanswered invite also lapses after ``TTL`` seconds.
"""

from __future__ import annotations

import json
import secrets
import threading
import time
from dataclasses import asdict, dataclass, field
from typing import Protocol
from urllib.parse import urlsplit

import redis

from webapp.locale import LANGUAGES

TTL = 15 * 60
#: A friend sees at most this many invites at once, the newest first.
SHOWN = 3


def is_local(link: str) -> bool:
    """Whether ``link`` is a path on this site (an invite never leads elsewhere).

    >>> is_local("/en/rooms/ABC"), is_local("//evil.example"), is_local("https://x.example/")
    (True, False, False)
    """
    parts = urlsplit(link)
    return (
        not parts.scheme
        and not parts.netloc
        and link.startswith("/")
        and not link.startswith("//")
        and "\\" not in link
    )


def link_key(link: str) -> str:
    """The link without its language: the same room whoever reads it.

    >>> link_key("/en/room/ABCD"), link_key("/room/ABCD")
    ('/room/ABCD', '/room/ABCD')
    """
    head, _, rest = link.lstrip("/").partition("/")
    return f"/{rest}" if head in LANGUAGES else link


def localized(link: str, language: str) -> str:
    """The link in the reader's language.

    >>> localized("/en/room/ABCD", "nl")
    '/nl/room/ABCD'
    """
    key = link_key(link)
    return f"/{language}{key}" if key != link else link


@dataclass(frozen=True)
class Invite:
    id: str
    sender: str
    sender_name: str
    to: str
    game: str
    link: str
    created: float = field(default_factory=time.monotonic)

    @property
    def key(self) -> str:
        return link_key(self.link)


class InviteBook(Protocol):
    """Where the live invites are kept."""

    def add(self, sender: str, sender_name: str, to: str, game: str, link: str) -> Invite:
        """A new invite; one from the same sender to the same room replaces the old one."""
        ...

    def of(self, player: str) -> list[Invite]:
        """The invites waiting for ``player``, newest first."""
        ...

    def take(self, player: str, invite_id: str) -> Invite | None:
        """Remove and return ``player``'s invite (answered: joined or dismissed)."""
        ...

    def expire(self, link: str) -> set[str]:
        """Drop every invite to this room; the players who had one."""
        ...


class Invites:
    """Every live invite, in this process's memory (the site is one process)."""

    def __init__(self, ttl: float = TTL) -> None:
        self.ttl = ttl
        self.lock = threading.Lock()
        self.by_id: dict[str, Invite] = {}

    def _prune(self) -> None:
        cutoff = time.monotonic() - self.ttl
        for invite_id in [i for i, invite in self.by_id.items() if invite.created < cutoff]:
            del self.by_id[invite_id]

    def add(self, sender: str, sender_name: str, to: str, game: str, link: str) -> Invite:
        """A new invite; one from the same sender to the same room replaces the old one."""
        invite = Invite(secrets.token_urlsafe(8), sender, sender_name, to, game, link)
        with self.lock:
            self._prune()
            for old in list(self.by_id.values()):
                if old.sender == sender and old.to == to and old.key == invite.key:
                    del self.by_id[old.id]
            self.by_id[invite.id] = invite
        return invite

    def of(self, player: str) -> list[Invite]:
        """The invites waiting for ``player``, newest first."""
        with self.lock:
            self._prune()
            mine = [invite for invite in self.by_id.values() if invite.to == player]
        return sorted(mine, key=lambda invite: invite.created, reverse=True)[:SHOWN]

    def take(self, player: str, invite_id: str) -> Invite | None:
        """Remove and return ``player``'s invite (answered: joined or dismissed)."""
        with self.lock:
            invite = self.by_id.get(invite_id)
            if invite is None or invite.to != player:
                return None
            del self.by_id[invite_id]
            return invite

    def expire(self, link: str) -> set[str]:
        """Drop every invite to this room; the players who had one."""
        key = link_key(link)
        with self.lock:
            gone = [invite for invite in self.by_id.values() if invite.key == key]
            for invite in gone:
                del self.by_id[invite.id]
        return {invite.to for invite in gone}


class RedisInvites:
    """Every live invite, in Redis: each under its id, lapsing after ``ttl`` seconds, and
    listed by whom it invites and by its room.  A list may name an invite that lapsed or
    was answered elsewhere: reading it drops the name."""

    PREFIX = "lapau:invite:"

    def __init__(self, client: redis.Redis, ttl: float = TTL) -> None:
        self.client = client
        self.ttl = int(ttl)

    def _to(self, player: str) -> str:
        return f"{self.PREFIX}to:{player}"

    def _at(self, key: str) -> str:
        return f"{self.PREFIX}at:{key}"

    def _named(self, listed: str) -> list[Invite]:
        """The invites a list names, dropping the names of those gone."""
        ids = sorted(str(name) for name in self.client.smembers(listed))
        if not ids:
            return []
        found: list[Invite] = []
        gone: list[str] = []
        stored = self.client.mget([self.PREFIX + i for i in ids])
        for invite_id, raw in zip(ids, stored, strict=True):
            if raw is None:
                gone.append(invite_id)
            else:
                found.append(Invite(**json.loads(raw)))
        if gone:
            self.client.srem(listed, *gone)
        return found

    def add(self, sender: str, sender_name: str, to: str, game: str, link: str) -> Invite:
        invite = Invite(secrets.token_urlsafe(8), sender, sender_name, to, game, link, time.time())
        replaced = [
            old.id
            for old in self._named(self._to(to))
            if old.sender == sender and old.key == invite.key
        ]
        with self.client.pipeline() as pipe:
            if replaced:
                pipe.delete(*[self.PREFIX + old for old in replaced])
            pipe.set(self.PREFIX + invite.id, json.dumps(asdict(invite)), ex=self.ttl)
            for listed in (self._to(to), self._at(invite.key)):
                pipe.sadd(listed, invite.id)
                pipe.expire(listed, self.ttl)
            pipe.execute()
        return invite

    def of(self, player: str) -> list[Invite]:
        mine = self._named(self._to(player))
        return sorted(mine, key=lambda invite: invite.created, reverse=True)[:SHOWN]

    def take(self, player: str, invite_id: str) -> Invite | None:
        raw = self.client.get(self.PREFIX + invite_id)
        if raw is None:
            return None
        invite = Invite(**json.loads(raw))
        # Only the invited may answer it, once, on whichever process answers first.
        if invite.to != player or not self.client.delete(self.PREFIX + invite_id):
            return None
        return invite

    def expire(self, link: str) -> set[str]:
        listed = self._at(link_key(link))
        gone = self._named(listed)
        with self.client.pipeline() as pipe:
            if gone:
                pipe.delete(*[self.PREFIX + invite.id for invite in gone])
            pipe.delete(listed)
            pipe.execute()
        return {invite.to for invite in gone}
