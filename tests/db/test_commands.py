"""``flask db upgrade`` (alias ``init-db``, the Procfile's release step): safe to run at
every release, and it takes over a database made before migrations without losing a row."""

from __future__ import annotations

import os
import shlex
import sqlite3
import subprocess
import sys
from pathlib import Path

from tests.auth.conftest import PASSWORD, sign_in
from tests.conftest import ROOT
from tests.db.conftest import app_on, close
from webapp import schema
from webapp.auth.rules import hash_password
from webapp.config import PASSWORD_HASH
from webapp.db import make_engine

CREATE_ALL_SCHEMA = Path(__file__).with_name("create_all_schema.sql")


def release_command() -> list[str]:
    """The Procfile's release step, run from the venv this test runs in."""
    line = next(x for x in (ROOT / "Procfile").read_text().splitlines() if x.startswith("release:"))
    words = shlex.split(line.removeprefix("release:"))
    assert words[:3] == ["flask", "--app", "webapp"], words
    return [str(Path(sys.executable).with_name("flask")), *words[1:]]


def test_the_release_step_makes_the_schema(database_url: str, tmp_path: Path) -> None:
    """On an empty database, as on a first deployment: the app starts for the command
    although it has no tables yet."""
    env = {**os.environ, "LAPAU_INSTANCE_PATH": str(tmp_path), "DATABASE_URL": database_url}
    done = subprocess.run(
        release_command(), cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert f"Database at migration {schema.head()}." in done.stdout


def test_upgrading_twice_changes_nothing(database_url: str, tmp_path: Path) -> None:
    app = app_on(database_url, tmp_path)
    runner = app.test_cli_runner()
    for command in (["db", "upgrade"], ["init-db"], ["db", "upgrade"]):
        result = runner.invoke(args=command)
        assert result.exit_code == 0, result.output
    assert runner.invoke(args=["db", "current"]).output.strip() == schema.head()
    close(app)


def test_a_database_made_before_migrations_is_stamped_then_upgraded(tmp_path: Path) -> None:
    path = tmp_path / "laptop.sqlite"
    with sqlite3.connect(path) as old:
        old.executescript(CREATE_ALL_SCHEMA.read_text())
        old.execute(
            "INSERT INTO auth_user VALUES (1, 'rina', ?, 'token', '2025-01-01 10:00:00')",
            (hash_password(PASSWORD, PASSWORD_HASH),),
        )
        old.execute(
            "INSERT INTO ranking_rating VALUES (1, 'koa', 1234.5, 3, 2, 0, 1, '2025-01-02')"
        )
        old.execute(
            "INSERT INTO play_table VALUES ('t1', 'koa', 7, '{}', '[]', 'u-1', 0,"
            " '2025-01-03', '2025-01-03')"
        )
    old.close()

    app = app_on(f"sqlite:///{path}", tmp_path / "instance")
    result = app.test_cli_runner().invoke(args=["init-db"])
    assert result.exit_code == 0, result.output
    with sqlite3.connect(path) as upgraded:
        version = upgraded.execute("SELECT version_num FROM alembic_version").fetchall()
        assert version == [(schema.head(),)]
        ratings = upgraded.execute("SELECT user_id, rating FROM ranking_rating").fetchall()
        assert ratings == [(1, 1234.5)]
        # Dealt before rules had versions: version 1, and it replays.
        tables = upgraded.execute("SELECT id, rules_version, broken FROM play_table").fetchall()
        assert tables == [("t1", 1, None)]
    upgraded.close()
    assert sign_in(app.test_client(), "rina", PASSWORD) == 303
    close(app)


def test_a_database_made_by_create_all_with_todays_models_is_taken_over(tmp_path: Path) -> None:
    """As main made them between the restore work and migrations: the newer columns are
    there already, and the upgrade adds only what is missing."""
    url = f"sqlite:///{tmp_path / 'newer.sqlite'}"
    engine = make_engine(url)
    schema.metadata().create_all(engine)
    engine.dispose()
    app = app_on(url, tmp_path / "instance")
    result = app.test_cli_runner().invoke(args=["db", "upgrade"])
    assert result.exit_code == 0, result.output
    assert result.output == f"Database at migration {schema.head()}.\n"
    close(app)
