"""What the site writes into its instance folder is readable by its owner only.

The SQLite file holds password hashes and sessions' tokens, the secret key signs every
cookie: another account on the same machine must not read either.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from flask.testing import FlaskClient
from sqlalchemy import text

from webapp import create_app
from webapp.config import TestConfig
from webapp.db import engine
from webapp.services import Lapau


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.mark.databases("sqlite")  # the SQLite files in the instance folder
def test_the_instance_folder_and_its_files_are_private(app: Lapau, client: FlaskClient) -> None:
    # A write, so SQLite has its write-ahead log and shared-memory index open.
    assert client.post("/en/play/koa", data={"mode": "quick", "level": "easy"}).status_code == 303
    instance = Path(app.instance_path)
    assert mode(instance) == 0o700
    written = sorted(path.name for path in instance.iterdir())
    assert written == ["lapau.sqlite", "lapau.sqlite-shm", "lapau.sqlite-wal", "secret_key"]
    for name in written:
        assert mode(instance / name) == 0o600, name


def test_a_database_file_made_elsewhere_is_private_too(
    tmp_path: Path,
) -> None:
    database = tmp_path / "data" / "lapau.sqlite"
    database.parent.mkdir()
    environ = {"DATABASE_URL": f"sqlite:///{database}"}
    previous = os.umask(0o022)  # the usual umask, which would leave it world-readable
    try:
        app = create_app(TestConfig(tmp_path / "instance", environ))
        with app.app_context(), engine().begin() as connection:
            connection.execute(text("CREATE TABLE t (x INTEGER)"))
    finally:
        os.umask(previous)
    for name in ("lapau.sqlite", "lapau.sqlite-wal", "lapau.sqlite-shm"):
        assert mode(database.parent / name) == 0o600, name


def test_an_existing_database_file_is_made_private(
    tmp_path: Path,
) -> None:
    instance = tmp_path / "instance"
    instance.mkdir(mode=0o755)
    (instance / "lapau.sqlite").touch(mode=0o644)
    os.chmod(instance / "lapau.sqlite", 0o644)
    create_app(TestConfig(instance))
    assert mode(instance / "lapau.sqlite") == 0o600
