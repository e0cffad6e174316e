"""The friendship rules, over the database: ask, accept, decline, cancel, remove, look up.

Accounts only (a guest has no name to be found by).  Every function takes account ids and
answers with a short code the pages translate, never with a user-facing string.  Asking
someone who already asked you accepts their request: both of you wanted it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from sqlalchemy import func
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, or_, select

from webapp.auth.models import User
from webapp.db import engine
from webapp.social.models import ACCEPTED, PENDING, Friendship, utcnow

#: What asking gave: a new request, an accepted one (they had asked you), or why not.
Asked = Literal["sent", "accepted", "yourself", "unknown", "friends", "pending"]
#: Where two accounts stand: nothing, friends, I asked them, they asked me.
Relation = Literal["none", "friends", "sent", "received", "self"]
Action = Literal["accept", "decline", "cancel", "remove"]

SEARCH_LIMIT = 10


@dataclass(frozen=True)
class Person:
    """An account as the friends pages show it."""

    id: int
    username: str

    @property
    def player(self) -> str:
        return f"u-{self.id}"


def person(user: User) -> Person:
    assert user.id is not None
    return Person(user.id, user.username)


def player_account(player: str) -> int | None:
    """The account id behind a player id, None for a guest.

    >>> player_account("u-12"), player_account("g-abc")
    (12, None)
    """
    prefix, _, number = player.partition("-")
    return int(number) if prefix == "u" and number.isdigit() else None


def _pair(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


def _row(db: Session, a: int, b: int) -> Friendship | None:
    low, high = _pair(a, b)
    return db.exec(select(Friendship).where(Friendship.low == low, Friendship.high == high)).first()


def ask(me: int, other: int) -> Asked:
    """``me`` asks ``other`` to be friends."""
    if me == other:
        return "yourself"
    with Session(engine()) as db:
        if db.get(User, other) is None:
            return "unknown"
        for _attempt in range(2):
            found = _row(db, me, other)
            if found is not None:
                if found.status == ACCEPTED:
                    return "friends"
                if found.asker == me:
                    return "pending"
                found.status, found.accepted_at = ACCEPTED, utcnow()
                db.add(found)
                db.commit()
                return "accepted"
            low, high = _pair(me, other)
            db.add(Friendship(asker=me, asked=other, low=low, high=high))
            try:
                db.commit()
                return "sent"
            except IntegrityError:
                # They asked at the same moment: read their request and accept it.
                db.rollback()
    return "pending"


def answer(me: int, other: int, action: Action) -> bool:
    """Accept or decline their request, cancel mine, or end a friendship.

    False when there was nothing of that kind to act on (already done, or never was).
    """
    with Session(engine()) as db:
        found = _row(db, me, other)
        if found is None:
            return False
        pending = found.status == PENDING
        if action == "accept" and pending and found.asked == me:
            found.status, found.accepted_at = ACCEPTED, utcnow()
            db.add(found)
        elif (
            (action == "decline" and pending and found.asked == me)
            or (action == "cancel" and pending and found.asker == me)
            or (action == "remove" and not pending)
        ):
            db.delete(found)
        else:
            return False
        db.commit()
        return True


def relation(me: int, other: int) -> Relation:
    if me == other:
        return "self"
    with Session(engine()) as db:
        found = _row(db, me, other)
    if found is None:
        return "none"
    if found.status == ACCEPTED:
        return "friends"
    return "sent" if found.asker == me else "received"


def _people(db: Session, ids: list[int]) -> list[Person]:
    if not ids:
        return []
    users = db.exec(select(User).where(col(User.id).in_(ids)).order_by(col(User.username)))
    return [person(user) for user in users]


@dataclass(frozen=True)
class Circle:
    """Everyone one account is connected to: friends, requests to and from them."""

    friends: list[Person]
    received: list[Person]
    sent: list[Person]


def circle(me: int) -> Circle:
    with Session(engine()) as db:
        rows = db.exec(
            select(Friendship).where(or_(Friendship.asker == me, Friendship.asked == me))
        ).all()
        friends = [row.other(me) for row in rows if row.status == ACCEPTED]
        received = [row.asker for row in rows if row.status == PENDING and row.asked == me]
        sent = [row.asked for row in rows if row.status == PENDING and row.asker == me]
        return Circle(_people(db, friends), _people(db, received), _people(db, sent))


def friend_ids(me: int) -> set[int]:
    """The accounts ``me`` is friends with."""
    with Session(engine()) as db:
        rows = db.exec(
            select(Friendship).where(
                Friendship.status == ACCEPTED,
                or_(Friendship.asker == me, Friendship.asked == me),
            )
        ).all()
    return {row.other(me) for row in rows}


def are_friends(a: int, b: int) -> bool:
    return relation(a, b) == "friends"


def waiting_count(me: int) -> int:
    """How many requests wait for ``me`` to answer."""
    with Session(engine()) as db:
        statement = select(func.count()).where(Friendship.asked == me, Friendship.status == PENDING)
        return int(db.exec(statement).one())


def search(query: str, me: int) -> list[tuple[Person, Relation]]:
    """Accounts whose username contains ``query`` (the exact name first), with the relation."""
    query = query.strip().lower()[:20]
    if len(query) < 2:
        return []
    with Session(engine()) as db:
        statement = (
            select(User)
            .where(col(User.username).contains(query, autoescape=True), User.id != me)
            .order_by(col(User.username) != query, func.length(User.username), col(User.username))
            .limit(SEARCH_LIMIT)
        )
        found = [person(user) for user in db.exec(statement)]
        rows = db.exec(
            select(Friendship).where(or_(Friendship.asker == me, Friendship.asked == me))
        ).all()
    by_other = {row.other(me): row for row in rows}
    results: list[tuple[Person, Relation]] = []
    for someone in found:
        row = by_other.get(someone.id)
        rel: Relation
        if row is None:
            rel = "none"
        elif row.status == ACCEPTED:
            rel = "friends"
        else:
            rel = "sent" if row.asker == me else "received"
        results.append((someone, rel))
    return results


def find(username: str) -> Person | None:
    with Session(engine()) as db:
        user = db.exec(select(User).where(User.username == username.strip().lower())).first()
    return person(user) if user is not None else None


def people(ids: list[int]) -> list[Person]:
    with Session(engine()) as db:
        return _people(db, ids)
