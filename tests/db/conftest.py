"""Fixtures for the schema tests: databases migrated by hand, and apps on them.

``database_url`` (tests/conftest.py) gives each test a fresh, empty database, on SQLite
and on PostgreSQL."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from webapp import create_app, schema
from webapp.auth import accounts
from webapp.auth.models import User
from webapp.db import make_engine


def migrate(url: str, revision: str = "head") -> None:
    """Run the migrations on the database at ``url`` up to ``revision``."""
    engine = make_engine(url)
    try:
        schema.upgrade(engine, revision)
    finally:
        engine.dispose()


def app_on(url: str, instance: Path, **config: Any) -> Flask:
    """The app on the database at ``url`` (a test app unless ``TESTING=False``)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("LAPAU_INSTANCE_PATH", str(instance))
        patch.delenv("SECRET_KEY", raising=False)
        settings = {"TESTING": True, "WTF_CSRF_ENABLED": False, "DATABASE_URL": url}
        return create_app({**settings, **config})


def account(app: Flask, username: str) -> User:
    with app.app_context():
        found = accounts.find_by_username(username)
    assert found is not None and found.id is not None
    return found


def account_id(app: Flask, username: str) -> int:
    found = account(app, username).id
    assert found is not None
    return found


def close(app: Flask) -> None:
    """Let go of the app's connections, as a stopped server does."""
    app.services.database.dispose()
