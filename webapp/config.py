"""Every setting of the site, read here from the environment, with safe local defaults.

No other module reads the environment: they read ``app.config``, which a :class:`Config`
fills (``create_app()`` reads the process's environment; the tests give a
:class:`TestConfig`, which ignores it and names an instance folder of their own).

Nothing needs to be set to run the site on a laptop: the secret key is generated once
and kept in the instance folder, the database is a SQLite file beside it, and only the
loopback host names are answered.  In production (``LAPAU_ENV=production``) the site
refuses to start without ``SECRET_KEY`` (a PaaS wipes the instance folder at every
restart, and a new key would sign everyone out) and ``LAPAU_HOSTS``.  With ``REDIS_URL``
set, several processes serve the site together (webapp/broker.py).
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from webapp import edge, sockets

#: The names a laptop and the tests reach the site by (any port).
DEVELOPMENT_HOSTS = ["localhost", "127.0.0.1"]
#: Two years, subdomains too: once a browser has seen the site over https, it never
#: tries plain http there again (a first visit typed without https is upgraded too).
STRICT_TRANSPORT_SECURITY = "max-age=63072000; includeSubDomains"


class ConfigurationError(RuntimeError):
    """A setting production cannot run without; the message says which and why."""


#: PostgreSQL connections one worker keeps open (db.py explains the number).
DEFAULT_POOL = 5
#: Messages a second a socket may send after its burst (webapp/flood.py): no hand on a
#: phone reaches it.
SOCKET_RATE = 2.0
#: How new passwords are hashed (webapp/auth/rules.py): scrypt at werkzeug's cost (N=2^15,
#: r=8: a tenth of a second of CPU and 32 MiB a hash), written out so a library update
#: cannot change it unseen.
PASSWORD_HASH = "scrypt:32768:8:1"
#: The tests' password hash: the same scrypt at 1/128 of the work.  The suite makes
#: hundreds of accounts, and at full cost they spent a fifth of ``make check``'s CPU in
#: it; the tests about the cost itself ask for :data:`PASSWORD_HASH`.
TEST_PASSWORD_HASH = "scrypt:256:8:1"
#: Sign-in with Google and Apple (webapp/auth/oidc.py).
PROVIDER_SETTINGS = [
    setting
    for name in ("GOOGLE", "APPLE")
    for setting in (f"{name}_CLIENT_ID", f"{name}_CLIENT_SECRET", f"OIDC_{name}_DISCOVERY_URL")
]


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


def host_names(raw: str) -> list[str]:
    """``LAPAU_HOSTS``: comma-separated names, the site's own address first.

    >>> host_names(" Lapau.example, www.lapau.example ,")
    ['lapau.example', 'www.lapau.example']
    """
    return [name.strip().lower() for name in raw.split(",") if name.strip()]


def hosts_settings(raw: str, production: bool) -> dict[str, Any]:
    """Which Host headers are answered, and the address absolute links are built with.

    Flask answers any other Host with 400 before routing.  With names configured, the
    first is ``SERVER_NAME``: every absolute link (share links, alternates, sign-in
    callbacks) then uses it, whichever trusted name the request came under.
    """
    names = host_names(raw)
    if not names and production:
        raise ConfigurationError(
            "LAPAU_HOSTS is not set: name the host names this site is served under, "
            "comma-separated, its own address first (LAPAU_HOSTS=lapau.example)."
        )
    if names and names[0].startswith("."):
        raise ConfigurationError(
            f"LAPAU_HOSTS starts with {names[0]!r}: the first name is the site's address "
            "in links, so it must be a whole name, not a suffix."
        )
    if not names:
        return {"TRUSTED_HOSTS": DEVELOPMENT_HOSTS, "SERVER_NAME": None}
    return {"TRUSTED_HOSTS": names, "SERVER_NAME": names[0]}


def secret_key(env: Mapping[str, str], instance_path: str, production: bool) -> str:
    configured = env.get("SECRET_KEY")
    if configured:
        return configured
    if production:
        raise ConfigurationError(
            "SECRET_KEY is not set: in production the instance folder does not survive a "
            "restart, so a generated key would sign everyone out each time. Set a long "
            "random value once (python -c 'import secrets; print(secrets.token_hex(32))')."
        )
    return instance_secret(instance_path)


def normalise_database_url(url: str) -> str:
    """A PostgreSQL URL as a PaaS hands it out (``postgres://`` or ``postgresql://``),
    given to psycopg 3, the driver that is installed; SQLAlchemy would pick psycopg2.

    >>> normalise_database_url("postgres://u:p@h/db")
    'postgresql+psycopg://u:p@h/db'
    >>> normalise_database_url("postgresql://u:p@h:5432/db?sslmode=require")
    'postgresql+psycopg://u:p@h:5432/db?sslmode=require'
    >>> normalise_database_url("postgresql+psycopg://u@h/db")
    'postgresql+psycopg://u@h/db'
    >>> normalise_database_url("sqlite:///instance/lapau.sqlite")
    'sqlite:///instance/lapau.sqlite'
    """
    scheme, separator, rest = url.partition("://")
    if scheme in ("postgres", "postgresql"):
        return f"postgresql+psycopg{separator}{rest}"
    return url


def table_seed(raw: str) -> int | None:
    """``LAPAU_TABLE_SEED``: every table dealt from one known seed (browser tests).

    >>> table_seed("12"), table_seed(""), table_seed("²")
    (12, None, None)
    """
    return int(raw) if raw.isascii() and raw.isdigit() else None


def from_environment(env: Mapping[str, str], instance_path: str) -> dict[str, Any]:
    """Every setting, from ``env`` where it says, else the local default."""
    production = env.get("LAPAU_ENV", "development") == "production"
    database = env.get("DATABASE_URL") or f"sqlite:///{Path(instance_path) / 'lapau.sqlite'}"
    return {
        "SECRET_KEY": secret_key(env, instance_path, production),
        **hosts_settings(env.get("LAPAU_HOSTS", ""), production),
        "DATABASE_URL": normalise_database_url(database),
        "DATABASE_POOL": int(env.get("LAPAU_DB_POOL") or DEFAULT_POOL),
        # Redis, shared by every process of the site (webapp/broker.py): the live pages'
        # messages, presence, invites and rate-limit counters.  Unset: one process keeps
        # them all in memory, as ``make run`` does.
        "REDIS_URL": env.get("REDIS_URL") or None,
        "SESSION_COOKIE_SAMESITE": "Lax",
        "SESSION_COOKIE_SECURE": production,
        "SESSION_COOKIE_HTTPONLY": True,
        "PREFERRED_URL_SCHEME": "https" if production else "http",
        "STRICT_TRANSPORT_SECURITY": STRICT_TRANSPORT_SECURITY if production else None,
        "PASSWORD_HASH": PASSWORD_HASH,
        "BABEL_DEFAULT_LOCALE": "id",
        "BABEL_TRANSLATION_DIRECTORIES": "i18n",
        # The largest real form (a password change: two 128-character passwords of 4-byte
        # characters, percent-encoded, and its token) is 3.2 KB.  A body past these limits
        # is refused (413) from its Content-Length, before it is read or parsed.
        "MAX_CONTENT_LENGTH": 16 * 1024,
        "MAX_FORM_MEMORY_SIZE": 16 * 1024,
        "MAX_FORM_PARTS": 50,
        # A year: every static URL carries its content hash, so it never changes meaning.
        "SEND_FILE_MAX_AGE_DEFAULT": 365 * 24 * 3600,
        # Seconds between WebSocket pings (webapp/sockets.py): under a PaaS router's 55 s.
        "PING_INTERVAL": float(env.get("LAPAU_PING_INTERVAL") or 25),
        # Messages a second each socket may send after its burst (webapp/flood.py); the
        # browser tests, whose clicks follow instant bots, raise it.
        "SOCKET_RATE": float(env.get("LAPAU_SOCKET_RATE") or SOCKET_RATE),
        # Reverse proxies in front trusted for X-Forwarded-For and -Proto (webapp/edge.py).
        "PROXIES": int(env.get("LAPAU_PROXIES") or 0),
        # What one client may hold of the one worker, and for how long; the defaults and
        # why they are what they are: webapp/edge.py and webapp/sockets.py.
        "ADDRESS_CONNECTIONS": int(
            env.get("LAPAU_ADDRESS_CONNECTIONS") or edge.ADDRESS_CONNECTIONS
        ),
        "BODY_SECONDS": float(env.get("LAPAU_BODY_SECONDS") or edge.BODY_SECONDS),
        "PLAYER_SOCKETS": int(env.get("LAPAU_PLAYER_SOCKETS") or sockets.PLAYER_SOCKETS),
        "SOCKET_SEND_SECONDS": float(env.get("LAPAU_SOCKET_SEND_SECONDS") or sockets.SEND_SECONDS),
        "SOCKET_SEND_BUFFER": int(env.get("LAPAU_SOCKET_SEND_BUFFER") or sockets.SEND_BUFFER),
        "TABLE_WATCHERS": int(env.get("LAPAU_TABLE_WATCHERS") or sockets.TABLE_WATCHERS),
        # A table's clocks, in seconds (webapp/play/hub.py): a turn, a bot's pause before
        # it moves, the pause between rounds.
        "TURN_SECONDS": float(env.get("LAPAU_TURN_SECONDS") or 30),
        "BOT_DELAY": float(env.get("LAPAU_BOT_DELAY") or 0.8),
        "ROUND_PAUSE": float(env.get("LAPAU_ROUND_PAUSE") or 6),
        # Seconds a seat whose player left is waited for before a bot stands in.
        "STAND_IN_GRACE": float(env.get("LAPAU_STAND_IN_GRACE") or 10),
        "TABLE_SEED": table_seed(env.get("LAPAU_TABLE_SEED", "")),
        # A file the hub appends each move's milliseconds to (the benchmarks read it).
        "TIMINGS_FILE": env.get("LAPAU_TIMINGS") or None,
        # Sign-in with Google and Apple, offered only when both id and secret are set;
        # the discovery URLs are for tests, which run a provider of their own.
        **{name: env.get(name, "") for name in PROVIDER_SETTINGS},
    }


class Config:
    """The settings of one app: read from an environment (the process's by default), with
    Flask settings given by name over them.  ``create_app()`` uses ``Config()``."""

    def __init__(self, environ: Mapping[str, str] | None = None, **overrides: Any) -> None:
        self.environ = os.environ if environ is None else environ
        configured = self.environ.get("LAPAU_INSTANCE_PATH")
        #: The instance folder (None: Flask's default, ``instance`` beside the package).
        self.instance_path = os.path.abspath(configured) if configured else None
        self.overrides = overrides

    def settings(self, instance_path: str) -> dict[str, Any]:
        """Flask's config for an app whose instance folder is ``instance_path``."""
        return {**from_environment(self.environ, instance_path), **self.overrides}


class TestConfig(Config):
    """The tests' settings: never the process's environment, only ``environ`` as a test
    gives it, with the instance folder it names (the secret key and the default SQLite
    file go there), ``TESTING`` on and cheap password hashes."""

    __test__ = False  # not a test class, whatever pytest guesses from the name

    def __init__(
        self,
        instance_path: str | os.PathLike[str],
        environ: Mapping[str, str] | None = None,
        **overrides: Any,
    ) -> None:
        instance = {"LAPAU_INSTANCE_PATH": os.fspath(instance_path)}
        defaults = {"TESTING": True, "PASSWORD_HASH": TEST_PASSWORD_HASH}
        super().__init__({**(environ or {}), **instance}, **{**defaults, **overrides})
