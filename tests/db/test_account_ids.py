"""A deleted account's id is never given to the next sign-up (issue #15, finding 7).

The id names the person at tables (``u-<id>``), in rooms and on open sockets: given out
again, it would hand all of that to a stranger.  SQLite reuses the highest id after a
delete unless the table has AUTOINCREMENT, which migration 0002 adds; PostgreSQL's
sequences never go back.
"""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import make_url, text

from tests.auth.conftest import sign_up
from tests.db.conftest import account_id, app_on, close, migrate
from webapp.db import make_engine
from webapp.services import Lapau


def delete_newest_then_sign_up(app: Lapau, newest: str, next_one: str) -> tuple[int, int]:
    """Sign ``newest`` up, delete their account through the page, sign ``next_one`` up:
    both ids."""
    client = app.test_client()
    assert sign_up(client, newest) == 303
    deleted = account_id(app, newest)
    assert client.post("/en/account/delete", data={"confirm": newest}).status_code == 303
    assert sign_up(client, next_one) == 303
    return deleted, account_id(app, next_one)


def delete_newest_then_add_at_first_migration(url: str) -> tuple[int, int]:
    """The same at 0001, in SQL: today's code no longer runs on a database that old."""
    engine = make_engine(url)
    add = text(
        "INSERT INTO auth_user (username, token, created_at)"
        " VALUES (:name, 'token', CURRENT_TIMESTAMP)"
    )
    find = text("SELECT id FROM auth_user WHERE username = :name")
    with engine.begin() as db:
        for name in ("rina", "ana"):
            db.execute(add, {"name": name})
        deleted = db.execute(find, {"name": "ana"}).scalar_one()
        db.execute(text("DELETE FROM auth_user WHERE id = :id"), {"id": deleted})
        db.execute(add, {"name": "budi"})
        next_id = db.execute(find, {"name": "budi"}).scalar_one()
    engine.dispose()
    return deleted, next_id


def test_a_deleted_accounts_id_goes_to_nobody_after_the_migration(
    database_url: str, tmp_path: Path
) -> None:
    migrate(database_url, "0001")
    deleted, next_id = delete_newest_then_add_at_first_migration(database_url)
    # Before: SQLite gives the deleted id out again.
    sqlite = make_url(database_url).get_backend_name() == "sqlite"
    assert (next_id == deleted) is sqlite

    migrate(database_url)
    app = app_on(database_url, tmp_path / "instance")
    deleted, next_id = delete_newest_then_sign_up(app, "cici", "dewi")
    assert next_id > deleted
    close(app)
