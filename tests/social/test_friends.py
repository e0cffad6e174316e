"""The friendship rules over the database: one row per pair, either way round."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, delete, select

from webapp.auth import accounts
from webapp.auth.models import User
from webapp.db import engine
from webapp.services import Lapau
from webapp.social import friends
from webapp.social.models import Friendship

Make = Callable[[str], int]


@pytest.fixture
def make(app: Lapau) -> Make:
    def make_user(name: str) -> int:
        user = accounts.create_user(name, None)
        assert user is not None and user.id is not None
        return user.id

    return make_user


@pytest.fixture(autouse=True)
def context(app: Lapau) -> Iterator[None]:
    with app.app_context():
        yield


def rows() -> list[Friendship]:
    with Session(engine()) as db:
        return list(db.exec(select(Friendship)).all())


def test_a_request_waits_until_the_asked_person_accepts(make: Make) -> None:
    ana, budi = make("ana"), make("budi")
    assert friends.ask(ana, budi) == "sent"
    assert friends.relation(ana, budi) == "sent"
    assert friends.relation(budi, ana) == "received"
    assert friends.waiting_count(budi) == 1 and friends.waiting_count(ana) == 0
    assert not friends.are_friends(ana, budi)
    assert friends.answer(budi, ana, "accept")
    assert friends.are_friends(ana, budi) and friends.are_friends(budi, ana)
    assert friends.friend_ids(ana) == {budi} and friends.friend_ids(budi) == {ana}
    assert friends.waiting_count(budi) == 0


def test_asking_someone_who_asked_you_makes_you_friends(make: Make) -> None:
    ana, budi = make("ana"), make("budi")
    friends.ask(ana, budi)
    assert friends.ask(budi, ana) == "accepted"
    assert friends.are_friends(ana, budi)
    assert len(rows()) == 1


@pytest.mark.parametrize("second", ["ana", "budi"])
def test_there_is_never_more_than_one_row_per_pair(make: Make, second: str) -> None:
    ids = {"ana": make("ana"), "budi": make("budi")}
    friends.ask(ids["ana"], ids["budi"])
    friends.ask(ids[second], ids["ana" if second == "budi" else "budi"])
    friends.ask(ids["ana"], ids["budi"])
    assert len(rows()) == 1


def test_the_database_refuses_a_second_row_for_the_same_pair_either_way(make: Make) -> None:
    ana, budi = make("ana"), make("budi")
    friends.ask(ana, budi)
    with Session(engine()) as db:
        db.add(Friendship(asker=budi, asked=ana, low=ana, high=budi))
        with pytest.raises(IntegrityError):
            db.commit()


def test_nobody_can_befriend_themselves(make: Make) -> None:
    ana = make("ana")
    assert friends.ask(ana, ana) == "yourself"
    assert friends.relation(ana, ana) == "self"
    with Session(engine()) as db:
        db.add(Friendship(asker=ana, asked=ana, low=ana, high=ana))
        with pytest.raises(IntegrityError):
            db.commit()


def test_asking_again_or_asking_a_friend_changes_nothing(make: Make) -> None:
    ana, budi = make("ana"), make("budi")
    friends.ask(ana, budi)
    assert friends.ask(ana, budi) == "pending"
    friends.answer(budi, ana, "accept")
    assert friends.ask(ana, budi) == "friends"
    assert friends.ask(budi, ana) == "friends"
    assert friends.ask(ana, 999) == "unknown"


def test_only_the_asked_person_accepts_or_declines_and_only_the_asker_cancels(
    make: Make,
) -> None:
    ana, budi = make("ana"), make("budi")
    friends.ask(ana, budi)
    assert not friends.answer(ana, budi, "accept")
    assert not friends.answer(ana, budi, "decline")
    assert not friends.answer(budi, ana, "cancel")
    assert not friends.answer(budi, ana, "remove")
    assert friends.answer(ana, budi, "cancel")
    assert rows() == []
    friends.ask(ana, budi)
    assert friends.answer(budi, ana, "decline")
    assert rows() == []
    # Declined is forgotten: either may ask again.
    assert friends.ask(budi, ana) == "sent"


def test_either_friend_can_end_a_friendship(make: Make) -> None:
    ana, budi = make("ana"), make("budi")
    friends.ask(ana, budi)
    friends.answer(budi, ana, "accept")
    assert not friends.answer(budi, ana, "decline")
    assert friends.answer(budi, ana, "remove")
    assert friends.relation(ana, budi) == "none"
    assert not friends.answer(ana, budi, "remove")


def test_the_circle_lists_friends_and_requests_both_ways_by_name(make: Make) -> None:
    me, zed, amy, bob, cat = (make(n) for n in ("me", "zed", "amy", "bob", "cat"))
    for other in (zed, amy):
        friends.ask(me, other)
        friends.answer(other, me, "accept")
    friends.ask(bob, me)
    friends.ask(me, cat)
    circle = friends.circle(me)
    assert [p.username for p in circle.friends] == ["amy", "zed"]
    assert [p.username for p in circle.received] == ["bob"]
    assert [p.username for p in circle.sent] == ["cat"]


def test_search_finds_usernames_containing_the_text_exact_match_first(make: Make) -> None:
    me = make("me_1")
    for name in ("rina_x", "rin", "karina", "budi"):
        make(name)
    friends.ask(me, friends.find("karina").id)  # type: ignore[union-attr]
    found = friends.search(" RIN ", me)
    assert [p.username for p, _ in found] == ["rin", "karina", "rina_x"]
    assert dict((p.username, r) for p, r in found)["karina"] == "sent"
    assert friends.search("r", me) == []
    assert friends.search("me_", me) == []
    # Wildcards are plain text.
    assert friends.search("%_", me) == []


def test_a_deleted_account_takes_its_friendships_with_it(make: Make) -> None:
    ana, budi = make("ana"), make("budi")
    friends.ask(ana, budi)
    with Session(engine()) as db:
        db.exec(delete(User).where(col(User.id) == budi))
        db.commit()
    assert rows() == []
    assert friends.circle(ana).sent == []


def test_player_ids_name_accounts_and_not_guests() -> None:
    assert friends.player_account("u-7") == 7
    assert friends.player_account("g-7") is None
    assert friends.player_account("u-x") is None
