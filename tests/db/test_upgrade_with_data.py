"""A database at the first migration, filled as people fill it, upgraded to the newest
one: everything is still there and still works once the app starts on it again.

Today's code cannot write into a database at 0001 (its models have moved on), so the app
fills a database of its own and every row, as far as 0001 has its columns, is copied into
a database at 0001: what an old database holds, made by the app's own code paths."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from pathlib import Path

from flask.testing import FlaskClient
from sqlalchemy import Integer, MetaData, select, text

from tests.auth.conftest import PASSWORD, sign_in, sign_up
from tests.db.conftest import account, account_id, app_on, close, migrate
from tests.play.conftest import ManualClock
from tests.ranking.conftest import human_seats, play_out
from webapp import resume_tables, schema
from webapp.db import make_engine
from webapp.play.hub import Hub, TableSession
from webapp.play.store import Seat
from webapp.ranking import ratings
from webapp.services import Lapau

ROOM = re.compile(r"/room/([A-Z2-9]{6})$")


@dataclass
class Before:
    """What the database held before the upgrade, as the app showed it."""

    unfinished: str
    version: int
    view: str
    koikoi_rating: str
    room: str
    #: The pairs of partners the rated Koa match made, as its leaderboard lists them.
    pairs: list[ratings.PairRow]


def member(app: Lapau, name: str) -> FlaskClient:
    client = app.test_client()
    assert sign_up(client, name) == 303
    return client


def to_seat(clock: ManualClock, session: TableSession, seat: int) -> None:
    clock.run_until(lambda: session.game.to_act(session.state) == seat)
    assert session.game.to_act(session.state) == seat


def easy_move(session: TableSession, seat: int) -> str:
    view = session.game.view(session.state, seat)
    return str(session.game.bots["easy"](view, random.Random(seat)))


def fill(app: Lapau) -> Before:
    """Accounts, friends, a room, rated matches and a table left half played."""
    rina, budi, sari = member(app, "rina"), member(app, "budi"), member(app, "sari")
    member(app, "tono")
    assert rina.post("/en/friends/ask", data={"username": "budi"}).status_code == 303
    assert budi.post(f"/en/friends/{account_id(app, 'rina')}/accept").status_code == 303
    assert sari.post("/en/friends/ask", data={"username": "rina"}).status_code == 303

    created = rina.post("/en/room/new", data={"game": "koa"})
    room = ROOM.search(created.location)
    assert room, created.location
    assert budi.post(f"/en/room/{room.group(1)}/join", data={"seat": "1"}).status_code == 303

    hub: Hub = app.services.hub
    clock = ManualClock().hold(hub)
    people = [account(app, "rina"), account(app, "budi")]
    match = hub.create("koikoi", {"rounds": 3}, human_seats(people), owner=people[0].player)
    play_out(match)
    four = [*people, account(app, "sari"), account(app, "tono")]
    play_out(hub.create("koa", {"mode": "quick"}, human_seats(four), owner=four[0].player))
    with app.app_context():
        standing = ratings.standings(app.services.database, account_id(app, "budi"))["koikoi"]
    pairs = ratings.pair_leaderboard(app.services.database, "koa")
    assert [pair.standing.games for pair in pairs] == [1, 1]

    seats = [Seat("human", player=people[0].player, name="rina")] + [
        Seat("bot", level="easy", name=f"Bot {n}") for n in range(1, 4)
    ]
    table = hub.create("koa", {"mode": "quick"}, seats, owner=people[0].player, seed=5)
    to_seat(clock, table, 0)
    table.submit(0, easy_move(table, 0), table.version)
    to_seat(clock, table, 0)
    return Before(
        unfinished=table.id,
        version=table.version,
        view=repr(table.game.view(table.state, 0)),
        koikoi_rating=str(standing.shown),
        room=room.group(1),
        pairs=pairs,
    )


def copy_rows(source: str, target: str) -> None:
    """Every row of ``source`` into the tables of ``target``, in the columns it has."""
    reading, writing = make_engine(source), make_engine(target)
    given, wanted = MetaData(), MetaData()
    given.reflect(reading)
    wanted.reflect(writing)
    with reading.connect() as read, writing.begin() as write:
        for table in wanted.sorted_tables:
            if table.name == "alembic_version":
                continue
            columns = [given.tables[table.name].c[name] for name in table.c.keys()]
            rows = read.execute(select(*columns)).mappings().all()
            if rows:
                write.execute(table.insert(), [dict(row) for row in rows])
            serial = "id" in table.c and isinstance(table.c["id"].type, Integer)
            if writing.dialect.name == "postgresql" and serial:
                # The ids were given, not drawn: the sequence goes on after the highest.
                write.execute(
                    text(
                        f"SELECT setval(pg_get_serial_sequence('{table.name}', 'id'),"
                        f" coalesce(max(id), 0) + 1, false) FROM {table.name}"
                    )
                )
    reading.dispose()
    writing.dispose()


def test_everything_made_at_the_first_migration_survives_the_upgrade(
    database_url: str, tmp_path: Path
) -> None:
    filled = f"sqlite:///{tmp_path / 'filled.sqlite'}"
    migrate(filled)
    today = app_on(filled, tmp_path / "instance")
    before = fill(today)
    close(today)
    migrate(database_url, schema.FIRST)
    copy_rows(filled, database_url)

    migrate(database_url)
    # Started as a server's worker starts: it resumes the unfinished tables.
    app = app_on(database_url, tmp_path / "instance", TESTING=False)
    hub: Hub = app.services.hub
    clock = ManualClock().hold(hub)
    assert resume_tables(app) == 1
    try:
        table = hub.sessions[before.unfinished]
        assert table.version == before.version
        assert repr(table.game.view(table.state, 0)) == before.view

        rina = app.test_client()
        assert sign_in(rina, "rina", PASSWORD) == 303
        page = rina.get(f"/en/table/{before.unfinished}").get_data(as_text=True)
        # Her seat's page, at the version she left, her turn.
        assert f'id="version" name="v" value="{before.version}"' in page
        assert 'data-turn="1"' in page
        move = rina.post(
            f"/en/table/{before.unfinished}/act",
            data={"a": easy_move(table, 0), "v": str(table.version)},
        )
        assert move.status_code == 303 and "notice" not in move.location
        assert table.version == before.version + 1
        stored = hub.store.load(before.unfinished)
        assert stored is not None and len(stored.log) == before.version + 1

        profile = rina.get("/en/player/budi").get_data(as_text=True)
        assert f'<dd class="big">{before.koikoi_rating}' in profile
        friends = rina.get("/en/friends").get_data(as_text=True)
        assert 'id="friend-' in friends and "budi" in friends
        assert "sari" in friends and "wants to be your friend" in friends
        room = rina.get(f"/en/room/{before.room}").get_data(as_text=True)
        assert "budi" in room
        # The pairs of the match rated before the upgrade are counted as if they always were.
        assert ratings.pair_leaderboard(app.services.database, "koa") == before.pairs
    finally:
        hub.shutdown()
        close(app)
    assert clock.pending  # the bots would answer the move: the table lives on
