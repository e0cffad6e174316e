"""Fixtures for the schema tests: databases migrated by hand, and apps on them.

``database_url`` (tests/conftest.py) gives each test a fresh, empty database, on SQLite
and on PostgreSQL."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from webapp import create_app, schema
from webapp.auth import accounts
from webapp.auth.models import User
from webapp.config import TestConfig
from webapp.db import make_engine
from webapp.services import Lapau


def migrate(url: str, revision: str = "head") -> None:
    """Run the migrations on the database at ``url`` up to ``revision``."""
    engine = make_engine(url)
    try:
        schema.upgrade(engine, revision)
    finally:
        engine.dispose()


def app_on(url: str, instance: Path, **config: Any) -> Lapau:
    """The app on the database at ``url`` (a test app unless ``TESTING=False``)."""
    settings: dict[str, Any] = {"WTF_CSRF_ENABLED": False, **config}
    return create_app(TestConfig(instance, {"DATABASE_URL": url}, **settings))


def account(app: Lapau, username: str) -> User:
    with app.app_context():
        found = accounts.find_by_username(username)
    assert found is not None and found.id is not None
    return found


def account_id(app: Lapau, username: str) -> int:
    found = account(app, username).id
    assert found is not None
    return found


def close(app: Lapau) -> None:
    """Let go of the app's connections, as a stopped server does."""
    app.services.database.dispose()
