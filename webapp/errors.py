"""Error pages in the reader's language, in the site's layout, each with a way back.

Every HTTP error the site answers is a page of its own (``errors/<status>.html``): a
wrong address, a refused request, a form far too large, too many tries, a crash.  Each
offers the page the reader came from (when it is on this site) and the home page.  An
unknown Host is the one exception: no link can be built for it, so its page stands alone
and leads to the site under its own name.  Refusals at the edge (too many connections,
a body too slow) are rendered there, once per language (webapp/edge.py).
"""

from __future__ import annotations

import logging

from flask import Flask, Response, current_app, make_response, render_template, request
from sqlalchemy.exc import DataError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from werkzeug.exceptions import (
    BadRequest,
    HTTPException,
    InternalServerError,
    SecurityError,
    ServiceUnavailable,
)

from webapp.locale import current_language
from webapp.pages import same_site_referrer

log = logging.getLogger(__name__)

#: Seconds a reader is asked to wait when every database connection was busy.
BUSY_RETRY = 5

#: The statuses with a page of their own; any other error shows its family's page.
PAGES = frozenset({400, 403, 404, 405, 413, 429, 500})


def way_back() -> str | None:
    """The page to go back to: where the reader came from, unless that is this page."""
    back = same_site_referrer()
    if back is None or (request.method == "GET" and back == request.full_path.rstrip("?")):
        return None
    return back


def error_page(error: HTTPException) -> Response:
    code = error.code or 500
    page = code if code in PAGES else (500 if code >= 500 else 400)
    response = make_response(render_template(f"errors/{page}.html", back=way_back()), code)
    # What the error itself says to clients (Allow on a 405, Retry-After), not its HTML.
    for name, value in error.get_headers():
        if name.lower() != "content-type":
            response.headers[name] = value
    return response


def server_error(error: InternalServerError) -> Response:
    return error_page(error)


def unreadable(_error: DataError) -> Response:
    """Input the database refuses to even compare (on PostgreSQL: a NUL character, a
    number past its column's range, text longer than its column), which SQLite lets
    through and finds nothing: a request that could not be read, not a crash."""
    return error_page(BadRequest())


def busy(_error: PoolTimeout) -> Response:
    """Every database connection stayed busy for the pool's whole wait (a burst far past
    what the pool serves): the request changed nothing, and the reader is asked to try
    again shortly, rather than shown a crash."""
    log.warning("no database connection free for %s %s", request.method, request.path)
    return error_page(ServiceUnavailable(retry_after=BUSY_RETRY))


def unknown_host(_error: SecurityError) -> tuple[str, int]:
    """A Host the site is not configured for (see webapp/config.py): no page is routed
    and no URL can be built, so the page stands alone, with its styles inline, and links
    to the site under its own name when one is configured."""
    name = current_app.config.get("SERVER_NAME")
    scheme = current_app.config["PREFERRED_URL_SCHEME"]
    home = {"name": name, "url": f"{scheme}://{name}/{current_language()}/"} if name else None
    return render_template("errors/host.html", home=home), 400


def init_app(app: Flask) -> None:
    app.register_error_handler(SecurityError, unknown_host)
    app.register_error_handler(HTTPException, error_page)
    app.register_error_handler(DataError, unreadable)
    app.register_error_handler(PoolTimeout, busy)
    # Also what an unexpected exception becomes (Flask wraps it in InternalServerError).
    app.register_error_handler(500, server_error)
