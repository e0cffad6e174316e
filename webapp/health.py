"""``/healthz``: whether this process can serve, for a PaaS checker or a load balancer.

It runs one trivial query on the database: 200 ``ok`` when it answers, 503 when it does
not.  It is answered before anything else a request meets (it needs no language, sets no
cookie, is never rate-limited or cached), and under any Host: a platform's checker calls
the container by its internal address, and the answer builds no URL.
"""

from __future__ import annotations

import logging

from flask import Flask, Response, request
from sqlalchemy import text
from sqlalchemy.exc import SQLAlchemyError

from webapp.services import services

PATH = "/healthz"

log = logging.getLogger(__name__)


def database_answers() -> bool:
    try:
        with services().database.connect() as connection:
            connection.execute(text("SELECT 1"))
    except SQLAlchemyError as error:
        # The class only: a driver's message may name the server and its user.
        log.warning("database unavailable: %s", type(error).__name__)
        return False
    return True


def answer_health_check() -> Response | None:
    """The health check's answer, or None to let any other request go on."""
    if request.path != PATH or request.method not in {"GET", "HEAD"}:
        return None
    if database_answers():
        status, body = 200, "ok\n"
    else:
        status, body = 503, "database unavailable\n"
    return Response(body, status, mimetype="text/plain", headers={"Cache-Control": "no-store"})


def init_app(app: Flask) -> None:
    """Register before every other ``before_request`` hook: answering here skips them
    (rate limits, handshake checks), and Flask's Host check, which is only raised when
    the request is dispatched to a route."""
    app.before_request(answer_health_check)
