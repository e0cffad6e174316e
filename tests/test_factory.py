"""The application factory and its configuration from the environment."""

from __future__ import annotations

from pathlib import Path

import pytest
from flask import url_for
from flask.testing import FlaskCliRunner

from tests.conftest import app_with, close_app
from webapp import create_app, schema
from webapp.config import Config, TestConfig, normalise_database_url
from webapp.services import Lapau

# The configuration, and the default SQLite file; tests/db checks the schema on both.
pytestmark = pytest.mark.databases("sqlite")


def test_factory_takes_a_test_config(app: Lapau) -> None:
    assert app.testing
    assert not create_app(TestConfig(app.instance_path, TESTING=False)).testing


def test_a_test_config_ignores_the_environment(tmp_path: Path) -> None:
    """Whatever the process's environment says (make sets LAPAU_INSTANCE_PATH), a test's
    app lives in the folder it names, on the defaults."""
    app = create_app(TestConfig(tmp_path / "instance"))
    assert app.instance_path == str(tmp_path / "instance")
    assert app.config["DATABASE_URL"] == f"sqlite:///{tmp_path / 'instance' / 'lapau.sqlite'}"
    assert app.config["TURN_SECONDS"] == 30 and app.config["TABLE_SEED"] is None


def test_secret_key_is_generated_once_and_kept_in_the_instance_folder(app: Lapau) -> None:
    key_file = Path(app.instance_path) / "secret_key"
    assert key_file.read_text().strip() == app.config["SECRET_KEY"]
    assert len(app.config["SECRET_KEY"]) >= 32
    assert key_file.stat().st_mode & 0o077 == 0
    again = create_app(TestConfig(app.instance_path))
    assert again.config["SECRET_KEY"] == app.config["SECRET_KEY"]


def test_database_defaults_to_sqlite_in_the_instance_folder(app: Lapau) -> None:
    expected = f"sqlite:///{Path(app.instance_path) / 'lapau.sqlite'}"
    assert app.config["DATABASE_URL"] == expected


def test_environment_overrides_the_defaults(tmp_path: Path) -> None:
    environ = {
        "LAPAU_INSTANCE_PATH": str(tmp_path),
        "SECRET_KEY": "from-the-environment",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'other.sqlite'}",
        "LAPAU_TURN_SECONDS": "45",
        "LAPAU_TABLE_SEED": "7",
        "LAPAU_PROXIES": "1",
    }
    app = create_app(Config(environ))
    assert app.instance_path == str(tmp_path)
    assert app.config["SECRET_KEY"] == "from-the-environment"
    assert app.config["DATABASE_URL"].endswith("other.sqlite")
    assert not (tmp_path / "secret_key").exists()
    assert (app.config["TURN_SECONDS"], app.config["TABLE_SEED"], app.config["PROXIES"]) == (
        45,
        7,
        1,
    )


def test_paas_postgres_urls_select_psycopg_3() -> None:
    for scheme in ("postgres", "postgresql"):
        assert normalise_database_url(f"{scheme}://a:b@host:5432/db") == (
            "postgresql+psycopg://a:b@host:5432/db"
        )
    assert normalise_database_url("sqlite:///x.db") == "sqlite:///x.db"


def test_init_db_is_the_old_name_of_db_upgrade(app: Lapau, runner: FlaskCliRunner) -> None:
    """tests/db runs both on fresh databases; here: both answer on the app's database."""
    for command in (["init-db"], ["db", "upgrade"]):
        result = runner.invoke(args=command)
        assert result.exit_code == 0
        assert result.output == f"Database at migration {schema.head()}.\n"


def test_translate_command_group_is_registered(app: Lapau) -> None:
    result = app.test_cli_runner().invoke(args=["translate", "--help"])
    assert result.exit_code == 0
    for command in ("extract", "update", "compile", "init"):
        assert command in result.output


def test_apps_share_their_url_builders_and_each_builds_its_own_urls(tmp_path: Path) -> None:
    """tests/routing.py: the builders are compiled once for the whole run."""
    first = app_with(tmp_path / "a", f"sqlite:///{tmp_path / 'a' / 'instance' / 'lapau.sqlite'}")
    second = app_with(tmp_path / "b", f"sqlite:///{tmp_path / 'b' / 'instance' / 'lapau.sqlite'}")
    try:
        rules = [
            {rule.endpoint: rule for rule in app.url_map.iter_rules()} for app in (first, second)
        ]
        assert rules[0].keys() == rules[1].keys()
        for endpoint, rule in rules[0].items():
            other = rules[1][endpoint]
            assert other is not rule
            assert other._build.__func__ is rule._build.__func__, endpoint  # type: ignore[attr-defined]
        for app in (first, second):
            with app.test_request_context("/en/"):
                assert url_for("rooms.join", lang_code="nl") == "/nl/room/join"
                assert url_for("rooms.join", lang_code="id", x="1") == "/id/room/join?x=1"
    finally:
        close_app(first)
        close_app(second)
