"""The application factory and its configuration from the environment."""

from __future__ import annotations

from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskCliRunner

from webapp import create_app, schema
from webapp.config import normalise_database_url

# The configuration, and the default SQLite file; tests/db checks the schema on both.
pytestmark = pytest.mark.databases("sqlite")


def test_factory_takes_a_test_config(app: Flask) -> None:
    assert app.testing
    assert not create_app({"TESTING": False}).testing


def test_secret_key_is_generated_once_and_kept_in_the_instance_folder(app: Flask) -> None:
    key_file = Path(app.instance_path) / "secret_key"
    assert key_file.read_text().strip() == app.config["SECRET_KEY"]
    assert len(app.config["SECRET_KEY"]) >= 32
    assert key_file.stat().st_mode & 0o077 == 0
    assert create_app().config["SECRET_KEY"] == app.config["SECRET_KEY"]


def test_database_defaults_to_sqlite_in_the_instance_folder(app: Flask) -> None:
    expected = f"sqlite:///{Path(app.instance_path) / 'lapau.sqlite'}"
    assert app.config["DATABASE_URL"] == expected


def test_environment_overrides_the_defaults(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LAPAU_INSTANCE_PATH", str(tmp_path))
    monkeypatch.setenv("SECRET_KEY", "from-the-environment")
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'other.sqlite'}")
    app = create_app()
    assert app.config["SECRET_KEY"] == "from-the-environment"
    assert app.config["DATABASE_URL"].endswith("other.sqlite")
    assert not (tmp_path / "secret_key").exists()


def test_paas_postgres_urls_select_psycopg_3() -> None:
    for scheme in ("postgres", "postgresql"):
        assert normalise_database_url(f"{scheme}://a:b@host:5432/db") == (
            "postgresql+psycopg://a:b@host:5432/db"
        )
    assert normalise_database_url("sqlite:///x.db") == "sqlite:///x.db"


def test_init_db_is_the_old_name_of_db_upgrade(app: Flask, runner: FlaskCliRunner) -> None:
    """tests/db runs both on fresh databases; here: both answer on the app's database."""
    for command in (["init-db"], ["db", "upgrade"]):
        result = runner.invoke(args=command)
        assert result.exit_code == 0
        assert result.output == f"Database at migration {schema.head()}.\n"


def test_translate_command_group_is_registered(app: Flask) -> None:
    result = app.test_cli_runner().invoke(args=["translate", "--help"])
    assert result.exit_code == 0
    for command in ("extract", "update", "compile", "init"):
        assert command in result.output
