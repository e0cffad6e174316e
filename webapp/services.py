"""The site's typed holders, reached by type: the app class and its accessor.

Every long-lived object the areas share (the static files, the database engine, the live
tables, the rooms, friends and presence, the open sockets and their channels, the rate
limiter, the sign-in providers) is a field of one :class:`~webapp.Services`, which the
composition root (``create_app``, webapp/__init__.py) declares and fills, kept on the app
itself (:class:`Lapau`, Flask with that one attribute).  Code in a request, a socket or a
command reads it with :func:`services`; a test holding the app reads ``app.services``.
One typed object rather than a holder per area: a field added there is checked by mypy
everywhere it is used, and its fields read as the list of what the site keeps in memory.
This module imports no area, so every area may import it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from flask import Flask, current_app

if TYPE_CHECKING:
    from webapp import Services


class Lapau(Flask):
    """The Flask app of this site: Flask, plus its :class:`~webapp.Services`."""

    services: Services

    #: Templates kept in a plain dict (Jinja's cache size -1): the site's templates are a
    #: fixed set, and Jinja's LRU cache, to move each template it returns to the end of
    #: its queue, searches the queue comparing keys one by one (a table's layout on every
    #: move, for each language, and the log part's include twice a Koa move).
    jinja_options = {**Flask.jinja_options, "cache_size": -1}


def services(app: Flask | None = None) -> Services:
    """The holders of ``app``, else of the current app (in a request, a socket or a
    command)."""
    found = current_app if app is None else app
    if not isinstance(found, Lapau):
        raise RuntimeError("not an app made by webapp.create_app")
    return found.services
