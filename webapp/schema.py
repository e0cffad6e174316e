"""The schema belongs to Alembic: the migrations in ``webapp/migrations`` create and change it.

``flask --app webapp db upgrade`` (the Procfile's release step and ``make run``) brings a
database to the newest migration; ``flask --app webapp db migrate -m "what changes"`` writes
the next migration by comparing the models with a database at the newest one.
"""

from __future__ import annotations

import importlib
import importlib.util
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Literal

import click
from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from flask import Flask
from flask.cli import AppGroup
from sqlalchemy import Connection, Engine, MetaData, inspect
from sqlalchemy.types import TypeDecorator
from sqlmodel import SQLModel

from webapp import db

PACKAGE = Path(__file__).resolve().parent
MIGRATIONS = PACKAGE / "migrations"
#: The migration that creates the schema ``create_all`` made before there were migrations.
FIRST = "0001"

log = logging.getLogger(__name__)


def metadata() -> MetaData:
    """Every table the models declare: importing ``webapp/*/models.py`` registers them."""
    for path in sorted(PACKAGE.glob("*/models.py")):
        importlib.import_module(f"webapp.{path.parent.name}.models")
    return SQLModel.metadata


def render_item(kind: str, item: Any, _context: Any) -> str | Literal[False]:
    """Autogenerate writes SQLModel's own types (``AutoString``, ``UTCDateTime``) as the
    plain SQLAlchemy types they store: migrations stay independent of SQLModel's insides."""
    sqlmodel_type = isinstance(item, TypeDecorator) and type(item).__module__.startswith("sqlmodel")
    if kind == "type" and sqlmodel_type:
        return f"sa.{item.impl!r}"
    return False


def alembic_config(connection: Connection | None = None) -> Config:
    """Alembic's settings, kept here instead of an ``alembic.ini``; env.py migrates on
    ``connection``."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.set_main_option("path_separator", "os")
    config.attributes["connection"] = connection
    return config


@contextmanager
def migrating(engine: Engine) -> Iterator[Connection]:
    """A connection in one transaction for Alembic.  On SQLite foreign keys are off while
    it runs: a batch migration recreates a table by dropping the old one, which would
    otherwise delete every row that points at it (``ON DELETE CASCADE``)."""
    with engine.connect() as connection:
        sqlite = connection.dialect.name == "sqlite"
        if sqlite:
            # Only outside a transaction does SQLite accept this pragma.
            connection.exec_driver_sql("PRAGMA foreign_keys=OFF")
            connection.commit()
        try:
            with connection.begin():
                yield connection
                if sqlite:
                    broken = connection.exec_driver_sql("PRAGMA foreign_key_check").all()
                    if broken:
                        raise RuntimeError(f"migration broke foreign keys: {broken[:5]}")
        finally:
            if sqlite:
                connection.exec_driver_sql("PRAGMA foreign_keys=ON")
                connection.commit()


def made_before_migrations(connection: Connection) -> bool:
    """A database ``create_all`` made: the tables are there, Alembic's record is not."""
    tables = set(inspect(connection).get_table_names())
    return "auth_user" in tables and "alembic_version" not in tables


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Bring the database to ``revision``.  A database made before migrations is first
    recorded as being at the first one, which creates exactly what it has."""
    with migrating(engine) as connection:
        config = alembic_config(connection)
        if made_before_migrations(connection):
            command.stamp(config, FIRST)
        command.upgrade(config, revision)


def current(engine: Engine) -> str | None:
    """The migration the database is at (None: an empty database or one made before)."""
    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def head() -> str | None:
    """The newest migration."""
    return ScriptDirectory.from_config(alembic_config()).get_current_head()


def is_current(engine: Engine) -> bool:
    """Whether the database is at the newest migration; says what to do when it is not."""
    at, newest = current(engine), head()
    if at != newest:
        log.warning(
            "The database is at migration %s, the code needs %s: stored tables are not "
            "restored until `flask --app webapp db upgrade` (the release step) has run.",
            at or "none",
            newest,
        )
    return at == newest


def write_migration(engine: Engine, message: str) -> None:
    """Write the next numbered migration: what the models declare beyond the database."""
    with migrating(engine) as connection:
        config = alembic_config(connection)
        if importlib.util.find_spec("ruff") is not None:
            # The new file follows the project's style before anyone reads it.
            config.set_section_option("post_write_hooks", "hooks", "format, fix")
            for hook, options in (("format", "format --quiet"), ("fix", "check --fix --quiet")):
                config.set_section_option("post_write_hooks", f"{hook}.type", "module")
                config.set_section_option("post_write_hooks", f"{hook}.module", "ruff")
                config.set_section_option(
                    "post_write_hooks", f"{hook}.options", f"{options} REVISION_SCRIPT_FILENAME"
                )
        latest = head()
        number = f"{int(latest) + 1:04d}" if latest else FIRST
        command.revision(config, message=message, autogenerate=True, rev_id=number)


db_group = AppGroup("db", help="The database schema: Alembic's migrations.")


@db_group.command("upgrade")
@click.argument("revision", default="head")
def upgrade_command(revision: str) -> None:
    """Bring the database to the newest migration (or REVISION)."""
    upgrade(db.engine(), revision)
    click.echo(f"Database at migration {current(db.engine())}.")


@db_group.command("migrate")
@click.option("-m", "--message", required=True, help="What the migration changes.")
def migrate_command(message: str) -> None:
    """Write the next migration from the models (upgrade the database first)."""
    if current(db.engine()) != head():
        raise click.ClickException("Upgrade the database first: flask --app webapp db upgrade")
    write_migration(db.engine(), message)


@db_group.command("current")
def current_command() -> None:
    """Show the migration the database is at."""
    click.echo(current(db.engine()) or "none")


def init_app(app: Flask) -> None:
    app.cli.add_command(db_group)
    # The name people knew before migrations: it now upgrades.
    app.cli.add_command(upgrade_command, "init-db")
