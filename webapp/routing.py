"""URL converters shared by every route: a row id in a path is checked before any query.

``<id:name>`` takes a positive integer that fits the database's signed 64-bit ids;
anything larger is no row at all (404), not an overflow inside the database driver.
"""

from __future__ import annotations

from flask import Flask
from werkzeug.routing import IntegerConverter, Map

#: The largest id a signed 64-bit column holds (SQLite's INTEGER, PostgreSQL's BIGINT).
MAX_ID = 2**63 - 1


class RowId(IntegerConverter):
    """A database row's id in a path: 1 to :data:`MAX_ID`, plain digits."""

    regex = r"[0-9]+"  # ASCII only: \d would also take other scripts' digits

    def __init__(self, url_map: Map) -> None:
        super().__init__(url_map, min=1, max=MAX_ID)


def init_app(app: Flask) -> None:
    """Register the converters; before any blueprint, whose rules use them."""
    app.url_map.converters["id"] = RowId
