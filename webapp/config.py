"""Configuration from the environment, with safe local defaults.

Nothing needs to be set to run the site on a laptop: the secret key is generated once and
kept in the instance folder, and the database is a SQLite file beside it.  A PaaS sets
``SECRET_KEY``, ``DATABASE_URL`` and ``PORT`` instead.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any


def instance_secret(instance_path: str) -> str:
    """The secret key kept in the instance folder, created on first use."""
    path = Path(instance_path) / "secret_key"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        # Written with owner-only permissions: the key signs every session cookie.
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as handle:
            handle.write(secrets.token_hex(32))
    return path.read_text().strip()


def normalise_database_url(url: str) -> str:
    """PaaS hosts still hand out ``postgres://``; SQLAlchemy wants ``postgresql://``.

    >>> normalise_database_url("postgres://u:p@h/db")
    'postgresql://u:p@h/db'
    """
    if url.startswith("postgres://"):
        return "postgresql://" + url.removeprefix("postgres://")
    return url


def from_environment(instance_path: str) -> dict[str, Any]:
    """The settings the environment gives, falling back on local defaults."""
    env = os.environ
    production = env.get("LAPAU_ENV", "development") == "production"
    database = env.get("DATABASE_URL") or f"sqlite:///{Path(instance_path) / 'lapau.sqlite'}"
    return {
        "SECRET_KEY": env.get("SECRET_KEY") or instance_secret(instance_path),
        "DATABASE_URL": normalise_database_url(database),
        "SESSION_COOKIE_SAMESITE": "Lax",
        "SESSION_COOKIE_SECURE": production,
        "SESSION_COOKIE_HTTPONLY": True,
        "PREFERRED_URL_SCHEME": "https" if production else "http",
        "BABEL_DEFAULT_LOCALE": "id",
        "BABEL_TRANSLATION_DIRECTORIES": "i18n",
        # A year: every static URL carries its content hash, so it never changes meaning.
        "SEND_FILE_MAX_AGE_DEFAULT": 365 * 24 * 3600,
    }
