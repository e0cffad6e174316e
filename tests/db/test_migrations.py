"""The migrations make exactly the schema the models declare, and make it the first time
the way ``create_all`` made it before there were migrations."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext

from tests.db.conftest import migrate
from webapp import schema
from webapp.db import make_engine

CREATE_ALL_SCHEMA = Path(__file__).with_name("create_all_schema.sql")


def test_the_models_and_the_migrations_agree(database_url: str) -> None:
    migrate(database_url)
    engine = make_engine(database_url)
    with engine.connect() as connection:
        differences = compare_metadata(MigrationContext.configure(connection), schema.metadata())
    engine.dispose()
    assert differences == []


def statements(sql: str) -> set[str]:
    """The statements of a SQL script, comments dropped, white space and quotes evened, and
    each table's columns and constraints in sorted order (a column a migration adds comes
    last, wherever the model declares it)."""
    sql = re.sub(r"^--.*$", "", sql, flags=re.MULTILINE)
    found = {re.sub(r"\s+", " ", part).replace('"', "").strip() for part in sql.split(";")}
    return {sorted_table(statement) for statement in found - {""}}


def sorted_table(statement: str) -> str:
    table = re.fullmatch(r"(CREATE TABLE \S+) \((.*)\)", statement)
    if table is None:
        return statement
    parts, depth, part = [], 0, ""
    for char in table.group(2) + ",":
        depth += {"(": 1, ")": -1}.get(char, 0)
        if char == "," and depth == 0:
            parts.append(part.strip())
            part = ""
        else:
            part += char
    return f"{table.group(1)} ({', '.join(sorted(parts))})"


def sqlite_schema(path: Path) -> set[str]:
    """What a SQLite file holds, as the statements that made it (Alembic's own table aside)."""
    with sqlite3.connect(path) as connection:
        rows = connection.execute(
            "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL"
            " AND name NOT IN ('alembic_version', 'sqlite_sequence')"
        ).fetchall()
    connection.close()
    return statements(";".join(sql for (sql,) in rows))


def test_the_first_migration_makes_what_create_all_made(tmp_path: Path) -> None:
    path = tmp_path / "first.sqlite"
    migrate(f"sqlite:///{path}", schema.FIRST)
    assert sqlite_schema(path) == statements(CREATE_ALL_SCHEMA.read_text())


def test_on_sqlite_the_newest_migration_makes_what_the_models_declare(tmp_path: Path) -> None:
    """Down to what autogenerate does not compare: AUTOINCREMENT and CHECK constraints."""
    migrated, declared = tmp_path / "migrated.sqlite", tmp_path / "declared.sqlite"
    migrate(f"sqlite:///{migrated}")
    engine = make_engine(f"sqlite:///{declared}")
    schema.metadata().create_all(engine)
    engine.dispose()
    assert sqlite_schema(migrated) == sqlite_schema(declared)
