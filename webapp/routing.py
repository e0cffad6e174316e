"""URL converters shared by every route: a row id in a path is checked before any query.

``<id:name>`` takes a positive integer that fits the database's id columns; anything
larger is no row at all (404), not an overflow inside the database driver.
"""

from __future__ import annotations

from flask import Flask
from werkzeug.routing import IntegerConverter, Map

#: The largest id the id columns hold on both databases: the migrations make them
#: SQLAlchemy's Integer, a 32-bit INTEGER on PostgreSQL (SQLite's would take 64 bits).
MAX_ID = 2**31 - 1


class RowId(IntegerConverter):
    """A database row's id in a path: 1 to :data:`MAX_ID`, plain digits."""

    regex = r"[0-9]+"  # ASCII only: \d would also take other scripts' digits

    def __init__(self, url_map: Map) -> None:
        super().__init__(url_map, min=1, max=MAX_ID)


def init_app(app: Flask) -> None:
    """Register the converters; before any blueprint, whose rules use them."""
    app.url_map.converters["id"] = RowId
